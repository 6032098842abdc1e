//! Selection vectors: bitmaps and byte masks to row indices, and counts.
//!
//! The third conversion, next to [`unpack`](crate::unpack) (bits to bytes)
//! and [`pack`](fn@crate::pack) (bytes to bits): the rows a bitmap or a mask
//! selects, as ascending `u32` indices, which is what arrow-select's `take`,
//! DuckDB's `SelectionVector` or a gather loop want from a sparse result.
//!
//! Every entry point checks its input first (nothing is written on `Err`),
//! then hands blocks of normalised words (`(value ^ neg) & valid`, shift-merged
//! by [`BitSlice`], or packed from the mask by the packing kernel) to an
//! [`IndicesKernel`]. Counting is a popcount over the input's bytes: values
//! and validity share their bit offset, so no shift is needed, only the two
//! edge bytes are masked.

use crate::arch::indices::{IndicesKernel, Source, BLOCK_WORDS};
use crate::arch::portable;
use crate::bits::{get_bit, BitSlice};
use crate::error::{check_bitmap, output_too_short, validity_too_short, values_too_short};
use crate::raw::Kernel;
use crate::Error;

/// Writes `base + i`, ascending, for every row `i` that [`unpack`](crate::unpack)
/// would set to 1 (valid, and the value bit differs from `negate`), and
/// returns how many.
///
/// Row `i` is bit `bit_offset + i` of `values` and of `validity` (LSB first,
/// as in Arrow; `None`: every row is valid). Only `out[..count]` is written.
/// `out` may be shorter than `len`: it needs only one slot per selected row
/// (the rows are then counted first, one more read of the bitmaps; with
/// `out.len() >= len` they are not). Uses the widest kernel this CPU has
/// ([`IndicesKernel::best`]), and the trailing-zero loop for sparse blocks.
///
/// # Errors
///
/// Nothing is written when the call returns `Err`:
/// - [`Error::Overflow`] when `bit_offset + len` overflows `usize`;
/// - [`Error::ValuesTooShort`] / [`Error::ValidityTooShort`] when a bitmap is
///   shorter than `ceil((bit_offset + len) / 8)` bytes;
/// - [`Error::IndexOverflow`] when the largest index, `base + len - 1`, does
///   not fit in a `u32`;
/// - [`Error::OutputTooShort`] `{ needed: count, .. }` when `out` is shorter
///   than the number of selected rows.
///
/// # Examples
///
/// ```
/// use bitbytes::unpack_indices;
///
/// // rows:          7654_3210
/// let values   = [0b1100_1010u8];
/// let validity = [0b0111_1111u8]; // row 7 is null
/// let mut out = [0u32; 8];
/// let n = unpack_indices(&values, Some(&validity), 0, 8, false, 0, &mut out)?;
/// assert_eq!(&out[..n], [1, 3, 6]);
/// // NOT IN: the valid rows that are 0; the null row is never selected.
/// let n = unpack_indices(&values, Some(&validity), 0, 8, true, 100, &mut out)?;
/// assert_eq!(&out[..n], [100, 102, 104, 105]);
/// // `out` needs one slot per selected row, not per row.
/// let mut three = [0u32; 3];
/// assert_eq!(unpack_indices(&values, Some(&validity), 0, 8, false, 0, &mut three)?, 3);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn unpack_indices(
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_indices_with(
        IndicesKernel::best(),
        values,
        validity,
        bit_offset,
        len,
        negate,
        base,
        out,
    )
}

/// [`unpack_indices`] with a chosen [`IndicesKernel`]: same contract, same
/// errors, same output.
///
/// # Errors
///
/// As [`unpack_indices`].
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{unpack_indices_with, IndicesKernel};
///
/// let mut out = [0u32; 3];
/// let n = unpack_indices_with(IndicesKernel::portable(), &[0b101], None, 0, 3, false, 0, &mut out)?;
/// assert_eq!(&out[..n], [0, 2]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn unpack_indices_with(
    kernel: IndicesKernel,
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    let validity = validity.map(|v| (v, bit_offset));
    indices_from_bits(
        kernel,
        values,
        bit_offset,
        validity,
        len,
        negate,
        base,
        out,
        || {
            // Values and validity share the offset: the in-place byte count.
            count_same_offset(
                kernel,
                values,
                validity.map(|v| v.0),
                bit_offset,
                len,
                negate,
            )
        },
    )
}

/// [`unpack_indices`] where the validity bitmap has its own bit offset (as
/// an arrow-rs `BooleanArray`'s null buffer may), like
/// [`unpack_offsets`](crate::raw::unpack_offsets).
///
/// # Errors
///
/// As [`unpack_indices`], each bitmap checked against its own offset.
///
/// # Examples
///
/// ```
/// use bitbytes::raw::unpack_indices_offsets;
///
/// let values = [0b0000_0111u8]; // rows 0..3 from bit 0
/// let validity = [0b0000_1010u8]; // rows 0..3 from bit 1: valid, null, valid
/// let mut out = [0u32; 3];
/// let n = unpack_indices_offsets(&values, 0, Some((&validity, 1)), 3, false, 0, &mut out)?;
/// assert_eq!(&out[..n], [0, 2]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[inline]
pub fn unpack_indices_offsets(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_indices_offsets_with(
        IndicesKernel::best(),
        values,
        values_offset,
        validity,
        len,
        negate,
        base,
        out,
    )
}

/// [`unpack_indices_offsets`] with a chosen [`IndicesKernel`].
///
/// # Errors
///
/// As [`unpack_indices_offsets`].
#[allow(clippy::too_many_arguments)]
pub fn unpack_indices_offsets_with(
    kernel: IndicesKernel,
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    indices_from_bits(
        kernel,
        values,
        values_offset,
        validity,
        len,
        negate,
        base,
        out,
        || kernel.count(BitSource::new(values, values_offset, validity, len, negate)),
    )
}

/// Checks, then (only when `out` is shorter than `len`) counts with `count`
/// and checks `out` against the count, then writes the indices.
#[allow(clippy::too_many_arguments)]
fn indices_from_bits(
    kernel: IndicesKernel,
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
    count: impl FnOnce() -> usize,
) -> Result<usize, Error> {
    check_bits(values, values_offset, validity, len)?;
    check_index_range(base, len)?;
    if out.len() < len {
        let count = count();
        if out.len() < count {
            return Err(output_too_short(count, out.len()));
        }
    }
    let src = BitSource::new(values, values_offset, validity, len, negate);
    Ok(kernel.indices(src, base, out))
}

/// Writes `base + i`, ascending, for every non-zero byte `mask[i]`, and
/// returns how many; only `out[..count]` is written.
///
/// # Errors
///
/// Nothing is written when the call returns `Err`:
/// - [`Error::IndexOverflow`] when `base + mask.len() - 1` does not fit in a
///   `u32`;
/// - [`Error::OutputTooShort`] `{ needed: count, .. }` when `out` is shorter
///   than the number of non-zero bytes.
///
/// # Examples
///
/// ```
/// use bitbytes::mask_to_indices;
///
/// let mask = [0u8, 1, 1, 0, 7, 0];
/// let mut out = [0u32; 6];
/// let n = mask_to_indices(&mask, 10, &mut out)?;
/// assert_eq!(&out[..n], [11, 12, 14]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[inline]
pub fn mask_to_indices(mask: &[u8], base: u32, out: &mut [u32]) -> Result<usize, Error> {
    mask_to_indices_with(IndicesKernel::best(), mask, base, out)
}

/// [`mask_to_indices`] with a chosen [`IndicesKernel`] (the mask is packed
/// by the packing kernel of the same ISA).
///
/// # Errors
///
/// As [`mask_to_indices`].
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{mask_to_indices_with, IndicesKernel};
///
/// for kernel in IndicesKernel::available() {
///     let mut out = [0u32; 2];
///     assert_eq!(mask_to_indices_with(kernel, &[0, 3, 0, 1], 0, &mut out)?, 2);
///     assert_eq!(out, [1, 3]);
/// }
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn mask_to_indices_with(
    kernel: IndicesKernel,
    mask: &[u8],
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    check_index_range(base, mask.len())?;
    if out.len() < mask.len() {
        let count = kernel.count_nonzero(mask);
        if out.len() < count {
            return Err(output_too_short(count, out.len()));
        }
    }
    let src = MaskSource {
        mask,
        pack: kernel.pack_kernel(),
    };
    Ok(kernel.indices(src, base, out))
}

/// The number of rows [`unpack_indices`] would write: valid rows whose value
/// bit differs from `negate`.
///
/// # Errors
///
/// [`Error::Overflow`], [`Error::ValuesTooShort`] and
/// [`Error::ValidityTooShort`], as [`unpack`](crate::unpack).
///
/// # Examples
///
/// ```
/// use bitbytes::count_selected;
///
/// let values = [0b1100_1010u8];
/// let validity = [0b0111_1111u8];
/// assert_eq!(count_selected(&values, Some(&validity), 0, 8, false)?, 3);
/// assert_eq!(count_selected(&values, Some(&validity), 0, 8, true)?, 4);
/// assert_eq!(count_selected(&values, None, 1, 3, false)?, 2);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[inline]
pub fn count_selected(
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
) -> Result<usize, Error> {
    count_selected_with(
        IndicesKernel::best(),
        values,
        validity,
        bit_offset,
        len,
        negate,
    )
}

/// [`count_selected`] with a chosen [`IndicesKernel`].
///
/// # Errors
///
/// As [`count_selected`].
pub fn count_selected_with(
    kernel: IndicesKernel,
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
) -> Result<usize, Error> {
    check_bits(values, bit_offset, validity.map(|v| (v, bit_offset)), len)?;
    Ok(count_same_offset(
        kernel, values, validity, bit_offset, len, negate,
    ))
}

/// [`count_selected`] where the validity bitmap has its own bit offset: the
/// count [`unpack_indices_offsets`] would return, to size its output.
///
/// # Errors
///
/// As [`count_selected`], each bitmap checked against its own offset.
///
/// # Examples
///
/// ```
/// use bitbytes::raw::count_selected_offsets;
///
/// let values = [0b0000_0111u8];
/// let validity = [0b0000_1010u8]; // from bit 1: valid, null, valid
/// assert_eq!(count_selected_offsets(&values, 0, Some((&validity, 1)), 3, false)?, 2);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn count_selected_offsets(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
) -> Result<usize, Error> {
    check_bits(values, values_offset, validity, len)?;
    let kernel = IndicesKernel::best();
    Ok(match validity {
        // Same offsets: the in-place byte count.
        Some((m, voff)) if voff == values_offset => {
            count_same_offset(kernel, values, Some(m), values_offset, len, negate)
        }
        None => count_same_offset(kernel, values, None, values_offset, len, negate),
        Some(_) => kernel.count(BitSource::new(values, values_offset, validity, len, negate)),
    })
}

/// The number of non-zero bytes of `mask`: how many indices
/// [`mask_to_indices`] writes.
///
/// # Examples
///
/// ```
/// assert_eq!(bitbytes::mask_count(&[0, 1, 0, 255, 2]), 3);
/// ```
#[inline]
pub fn mask_count(mask: &[u8]) -> usize {
    IndicesKernel::best().count_nonzero(mask)
}

/// [`mask_count`] with a chosen [`IndicesKernel`].
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{mask_count_with, IndicesKernel};
///
/// assert_eq!(mask_count_with(IndicesKernel::portable(), &[0, 1, 0, 255, 2]), 3);
/// ```
pub fn mask_count_with(kernel: IndicesKernel, mask: &[u8]) -> usize {
    kernel.count_nonzero(mask)
}

/// The row-by-row reference for [`unpack_indices`]: same contract and
/// errors. The oracle of every test, fuzz target and benchmark of selection
/// vectors, written to be obviously correct rather than fast.
///
/// # Errors
///
/// As [`unpack_indices`].
///
/// # Examples
///
/// ```
/// use bitbytes::raw::unpack_indices_naive;
/// use bitbytes::unpack_indices;
///
/// let values = [0x5a, 0xc3, 0x0f];
/// let validity = [0xff, 0x7e, 0xf0];
/// let (mut fast, mut slow) = ([0u32; 19], [0u32; 19]);
/// let n = unpack_indices(&values, Some(&validity), 3, 19, true, 0, &mut fast)?;
/// assert_eq!(unpack_indices_naive(&values, Some(&validity), 3, 19, true, 0, &mut slow)?, n);
/// assert_eq!(fast, slow);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn unpack_indices_naive(
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_indices_offsets_naive(
        values,
        bit_offset,
        validity.map(|v| (v, bit_offset)),
        len,
        negate,
        base,
        out,
    )
}

/// The row-by-row reference for [`unpack_indices_offsets`].
///
/// # Errors
///
/// As [`unpack_indices_offsets`].
pub fn unpack_indices_offsets_naive(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    check_bits(values, values_offset, validity, len)?;
    check_index_range(base, len)?;
    let selected = |i: usize| {
        let valid = validity.is_none_or(|(v, voff)| get_bit(v, voff + i));
        valid && get_bit(values, values_offset + i) != negate
    };
    write_naive((0..len).filter(|&i| selected(i)), base, out)
}

/// The row-by-row reference for [`mask_to_indices`].
///
/// # Errors
///
/// As [`mask_to_indices`].
///
/// # Examples
///
/// ```
/// use bitbytes::raw::mask_to_indices_naive;
///
/// let mut out = [0u32; 4];
/// assert_eq!(mask_to_indices_naive(&[9, 0, 1], 5, &mut out)?, 2);
/// assert_eq!(&out[..2], [5, 7]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn mask_to_indices_naive(mask: &[u8], base: u32, out: &mut [u32]) -> Result<usize, Error> {
    check_index_range(base, mask.len())?;
    write_naive((0..mask.len()).filter(|&i| mask[i] != 0), base, out)
}

/// The oracles' last step: count the rows, fail if `out` is too short, then
/// write `base + i` for each.
fn write_naive(
    rows: impl Iterator<Item = usize> + Clone,
    base: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    let count = rows.clone().count();
    if out.len() < count {
        return Err(output_too_short(count, out.len()));
    }
    for (o, i) in out.iter_mut().zip(rows) {
        *o = base + u32::try_from(i).expect("checked by check_index_range");
    }
    Ok(count)
}

/// The bitmap checks of unpack, in unpack's order, without the output's:
/// an overflowing `offset + len` first, then each bitmap's length.
fn check_bits(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
) -> Result<(), Error> {
    let overflow = |bit_offset| Error::Overflow { bit_offset, len };
    values_offset
        .checked_add(len)
        .ok_or(overflow(values_offset))?;
    if let Some((_, voff)) = validity {
        voff.checked_add(len).ok_or(overflow(voff))?;
    }
    check_bitmap(values.len(), values_offset, len, values_too_short)?;
    if let Some((v, voff)) = validity {
        check_bitmap(v.len(), voff, len, validity_too_short)?;
    }
    Ok(())
}

/// `base + len - 1` must fit in a `u32` (nothing to check when `len == 0`).
fn check_index_range(base: u32, len: usize) -> Result<(), Error> {
    let room = u64::from(u32::MAX - base) + 1;
    if len as u64 > room {
        return Err(Error::IndexOverflow { base, len });
    }
    Ok(())
}

/// The count of selected rows when values and validity share `bit_offset`
/// (after `check_bits`): bit `k` of byte `b` is the same row in both, so the
/// whole bytes between the two edges are counted in place, with no shift.
fn count_same_offset(
    kernel: IndicesKernel,
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
) -> usize {
    let neg = 0u64.wrapping_sub(u64::from(negate));
    let v = BitSlice::new(values, bit_offset);
    let m = validity.map(|m| BitSlice::new(m, bit_offset));
    // The rows up to the next byte boundary, and those past the last whole byte.
    let head = len.min((8 - bit_offset % 8) % 8);
    let body_bytes = (len - head) / 8;
    let tail = (len - head) % 8;
    let edge = |start: usize, n: usize| {
        let w = (v.bits(start, n) ^ neg) & m.map_or(u64::MAX, |m| m.bits(start, n));
        (w & low_bits(n)).count_ones() as usize
    };
    let first = (bit_offset + head) / 8;
    let body = first..first + body_bytes;
    edge(0, head)
        + kernel.count_bytes(&values[body.clone()], validity.map(|m| &m[body]), neg as u8)
        + edge(head + 8 * body_bytes, tail)
}

/// The low `n <= 64` bits set.
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The normalised words of a bitmap (and its validity), block by block:
/// whole words as [`BitSlice`] windows, the last word or two from
/// [`BitSlice::bits`], bits past `len` cleared.
struct BitSource<'a> {
    values: BitSlice<'a>,
    validity: Option<BitSlice<'a>>,
    neg: u64,
    len: usize,
    /// The next word to fill.
    next: usize,
    /// Words `0..fast` come from windows.
    fast: usize,
}

impl<'a> BitSource<'a> {
    /// After `check_bits`: both bitmaps hold every row.
    fn new(
        values: &'a [u8],
        values_offset: usize,
        validity: Option<(&'a [u8], usize)>,
        len: usize,
        negate: bool,
    ) -> Self {
        let values = BitSlice::new(values, values_offset);
        let validity = validity.map(|(v, o)| BitSlice::new(v, o));
        let fast = (len / 64)
            .min(values.window_words())
            .min(validity.map_or(usize::MAX, |v| v.window_words()));
        BitSource {
            values,
            validity,
            neg: 0u64.wrapping_sub(u64::from(negate)),
            len,
            next: 0,
            fast,
        }
    }
}

impl Source for BitSource<'_> {
    #[inline(always)]
    fn fill(&mut self, buf: &mut [u64; BLOCK_WORDS]) -> (usize, usize) {
        let start = self.next;
        let n = (self.len.div_ceil(64) - start).min(BLOCK_WORDS);
        let fast_end = (start + n).clamp(start, self.fast.max(start));
        let k = fast_end - start;
        if k > 0 {
            let rows = 64 * start;
            let words = self.values.skip(rows).window(k).iter();
            for (d, w) in buf[..k].iter_mut().zip(words) {
                *d = w ^ self.neg;
            }
            if let Some(m) = self.validity {
                for (d, w) in buf[..k].iter_mut().zip(m.skip(rows).window(k).iter()) {
                    *d &= w;
                }
            }
        }
        for j in fast_end..start + n {
            let (r, rows) = (64 * j, (self.len - 64 * j).min(64));
            let mut w = (self.values.bits(r, rows) ^ self.neg) & low_bits(rows);
            if let Some(m) = self.validity {
                w &= m.bits(r, rows);
            }
            buf[j - start] = w;
        }
        self.next += n;
        (n, buf[..n].iter().map(|w| w.count_ones() as usize).sum())
    }
}

/// The words of a byte mask (bit `i` set for a non-zero byte), packed a block
/// at a time by a packing [`Kernel`].
struct MaskSource<'a> {
    /// The bytes not yet filled.
    mask: &'a [u8],
    pack: Kernel,
}

impl Source for MaskSource<'_> {
    #[inline(always)]
    fn fill(&mut self, buf: &mut [u64; BLOCK_WORDS]) -> (usize, usize) {
        let (block, rest) = self.mask.split_at(self.mask.len().min(64 * BLOCK_WORDS));
        self.mask = rest;
        let whole = block.len() / 64;
        let mut packed = [0u8; 8 * BLOCK_WORDS];
        self.pack
            .pack(&block[..64 * whole], &mut packed[..8 * whole]);
        for (d, p) in buf.iter_mut().zip(packed[..8 * whole].chunks_exact(8)) {
            *d = u64::from_le_bytes(p.try_into().expect("chunks_exact(8)"));
        }
        let mut n = whole;
        if block.len() > 64 * whole {
            buf[whole] = portable::pack_partial(&block[64 * whole..]);
            n += 1;
        }
        (n, buf[..n].iter().map(|w| w.count_ones() as usize).sum())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::vec::Vec;

    /// Runs `kernel` against the oracles on every bit offset 0..64, lengths
    /// that reach every block/word/tail mix, every density from empty to full
    /// (with and without validity, both negate values), into outputs of
    /// exactly `count` slots cut from a larger buffer whose other slots must
    /// stay untouched, and into outputs of `len` slots.
    pub(crate) fn check_kernel(kernel: IndicesKernel) {
        const MAX_ROWS: usize = 64 * BLOCK_WORDS * 2 + 200;
        let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut lens: Vec<usize> = (0..=130).collect();
        lens.extend([191, 192, 193, 255, 256, 257, 1000, 4095, 4096, 4097, 4160]);
        lens.extend([8191, 8192, 8193, MAX_ROWS]);
        // Densities in 1/64ths: 0 (empty), sparse, around the SIMD threshold,
        // half, dense, 64 (full).
        for density in [0u64, 1, 3, 5, 6, 8, 16, 32, 48, 60, 63, 64] {
            let bytes = MAX_ROWS / 8 + 16;
            let values = random_bits(&mut rng, bytes, density);
            let validity = rng.validity(bytes);
            let mask: Vec<u8> = (0..MAX_ROWS)
                .map(|i| {
                    if get_bit(&values, i) {
                        rng.next_u8() | 1
                    } else {
                        0
                    }
                })
                .collect();
            for off in 0..64 {
                // The long lengths at a few offsets only: the grid stays fast.
                let lens = lens
                    .iter()
                    .filter(|&&l| l <= 300 || off % 13 == 0 || off == 63);
                for &len in lens {
                    let need = (off + len).div_ceil(8);
                    for negate in [false, true] {
                        for valid in [None, Some(&validity[..need])] {
                            let base = (off as u32) * 1000;
                            let got = |out: &mut [u32]| {
                                unpack_indices_with(
                                    kernel,
                                    &values[..need],
                                    valid,
                                    off,
                                    len,
                                    negate,
                                    base,
                                    out,
                                )
                            };
                            let want = |out: &mut [u32]| {
                                unpack_indices_naive(
                                    &values[..need],
                                    valid,
                                    off,
                                    len,
                                    negate,
                                    base,
                                    out,
                                )
                            };
                            let what = || {
                                std::format!(
                                    "{kernel}: density {density}/64 off {off} len {len} \
                                     negate {negate} validity {}",
                                    valid.is_some()
                                )
                            };
                            let count = compare_outputs(got, want, len, what);
                            let counted = count_selected_with(
                                kernel,
                                &values[..need],
                                valid,
                                off,
                                len,
                                negate,
                            )
                            .unwrap();
                            assert_eq!(counted, count, "count {}", what());
                        }
                    }
                    if off == 0 {
                        let m = &mask[..len];
                        let what = || std::format!("{kernel} mask: density {density}/64 len {len}");
                        let count = compare_outputs(
                            |out| mask_to_indices_with(kernel, m, 7, out),
                            |out| mask_to_indices_naive(m, 7, out),
                            len,
                            what,
                        );
                        assert_eq!(mask_count_with(kernel, m), count, "{}", what());
                    }
                }
            }
        }
    }

    /// Bytes whose bits are set with probability `density / 64`.
    fn random_bits(rng: &mut crate::xorshift::XorShift, n: usize, density: u64) -> Vec<u8> {
        let mut b = std::vec![0u8; n];
        for i in 0..8 * n {
            if rng.next_u64() % 64 < density {
                b[i / 8] |= 1 << (i % 8);
            }
        }
        b
    }

    /// `got` against `want` into a `len`-slot output, into an exact-count
    /// output inside a guarded buffer (nothing else may change), and into
    /// one slot too few (the error, nothing written). Returns the count.
    fn compare_outputs(
        got: impl Fn(&mut [u32]) -> Result<usize, Error>,
        want: impl Fn(&mut [u32]) -> Result<usize, Error>,
        len: usize,
        what: impl Fn() -> std::string::String,
    ) -> usize {
        const GUARD: u32 = 0xDEAD_BEEF;
        let mut w = std::vec![GUARD; len + 3];
        let count = want(&mut w).unwrap();
        let mut g = std::vec![GUARD; len + 3];
        assert_eq!(got(&mut g), Ok(count), "{}", what());
        assert_eq!(g, w, "{}", what());
        // Exactly `count` slots, 70 guard slots on each side.
        let mut buf = std::vec![GUARD; count + 140];
        assert_eq!(got(&mut buf[70..70 + count]), Ok(count), "exact {}", what());
        assert_eq!(&buf[70..70 + count], &w[..count], "exact {}", what());
        assert!(
            buf[..70]
                .iter()
                .chain(&buf[70 + count..])
                .all(|&x| x == GUARD),
            "wrote outside an exact output: {}",
            what()
        );
        if count > 0 {
            let mut short = std::vec![GUARD; count - 1];
            assert_eq!(
                got(&mut short),
                Err(output_too_short(count, count - 1)),
                "short {}",
                what()
            );
            assert!(
                short.iter().all(|&x| x == GUARD),
                "wrote on error: {}",
                what()
            );
        }
        count
    }

    #[test]
    fn portable_matches_the_oracle() {
        check_kernel(IndicesKernel::portable());
    }
}
