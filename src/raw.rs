//! Bitmaps to bytes: `unpack` and its row-by-row oracle `unpack_naive`.
//!
//! All entry points check their input first (nothing is written on `Err`),
//! then split the rows into whole 64-row words and one partial tail word.
//! `BitSlice` (private module `bits`) does the offset arithmetic: each word is
//! shift-merged from the unaligned bytes, so any `bit_offset` runs at the speed
//! of offset 0. Negate (`xor`) and validity (`and`) are applied once per word,
//! in batches of 32 words, and the batch goes to a [`Kernel`] that expands
//! each word to 64 bytes of 0/1.

use crate::arch::portable;
use crate::bits::{get_bit, BitSlice};
use crate::error::{check_bitmap, output_too_short, validity_too_short, values_too_short};

pub use crate::arch::Kernel;
pub use crate::error::Error;

/// Words normalised per kernel call: 2048 rows, 256 bytes on the stack.
const BATCH_WORDS: usize = 32;

/// Writes one byte per row: `out[i] = 1` when row `i` is valid and its value
/// bit differs from `negate`, else `0`.
///
/// Row `i` is bit `bit_offset + i` of `values` (LSB first, as in Arrow), and
/// of `validity` when there is one (`None`: every row is valid). A null row is
/// `0` whatever its value bit and whatever `negate`: `negate` turns an IN
/// result into NOT IN, it is not a NOT of the output. Only `out[..len]` is
/// written. Uses the widest kernel this CPU has ([`Kernel::best`]).
///
/// # Errors
///
/// Nothing is written when the call returns `Err`:
/// - [`Error::Overflow`] when `bit_offset + len` overflows `usize`;
/// - [`Error::OutputTooShort`] when `out.len() < len`;
/// - [`Error::ValuesTooShort`] / [`Error::ValidityTooShort`] when a bitmap is
///   shorter than `ceil((bit_offset + len) / 8)` bytes.
///
/// # Examples
///
/// ```
/// use bitbytes::unpack;
///
/// // rows:          7654_3210
/// let values   = [0b1100_1010u8];
/// let validity = [0b0111_1111u8]; // row 7 is null
/// let mut out = [9u8; 8];
/// unpack(&values, Some(&validity), 0, 8, false, &mut out)?;
/// assert_eq!(out, [0, 1, 0, 1, 0, 0, 1, 0]);
/// // NOT IN: the negation of the valid rows; the null row stays 0.
/// unpack(&values, Some(&validity), 0, 8, true, &mut out)?;
/// assert_eq!(out, [1, 0, 1, 0, 1, 1, 0, 0]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[inline]
pub fn unpack(
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    unpack_with(
        Kernel::best(),
        values,
        validity,
        bit_offset,
        len,
        negate,
        out,
    )
}

/// [`unpack`] with a chosen [`Kernel`] instead of the dispatched one: same
/// contract, same errors, same output.
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{unpack_with, Kernel};
///
/// let mut out = [0u8; 3];
/// unpack_with(Kernel::portable(), &[0b101], None, 0, 3, false, &mut out)?;
/// assert_eq!(out, [1, 0, 1]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn unpack_with(
    kernel: Kernel,
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    unpack_offsets_with(
        kernel,
        values,
        bit_offset,
        validity.map(|v| (v, bit_offset)),
        len,
        negate,
        out,
    )
}

/// [`unpack`] where the validity bitmap has its own bit offset.
///
/// Row `i` is bit `values_offset + i` of `values` and bit
/// `validity_offset + i` of the validity bitmap `(bytes, validity_offset)`.
/// This is what an Arrow array assembled from buffers of different origins
/// needs: in arrow-rs the values and the null buffer each carry their own
/// offset. No copy, no allocation.
///
/// # Errors
///
/// As [`unpack`], each bitmap checked against its own offset.
///
/// # Examples
///
/// ```
/// use bitbytes::raw::unpack_offsets;
///
/// let values = [0b0000_0111u8]; // rows 0..3 from bit 0
/// let validity = [0b0000_1010u8, 0]; // rows 0..3 from bit 1: valid, null, valid
/// let mut out = [0u8; 3];
/// unpack_offsets(&values, 0, Some((&validity, 1)), 3, false, &mut out)?;
/// assert_eq!(out, [1, 0, 1]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[inline]
pub fn unpack_offsets(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    unpack_offsets_with(
        Kernel::best(),
        values,
        values_offset,
        validity,
        len,
        negate,
        out,
    )
}

/// [`unpack_offsets`] with a chosen [`Kernel`].
///
/// # Errors
///
/// As [`unpack_offsets`].
pub fn unpack_offsets_with(
    kernel: Kernel,
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    check(values, values_offset, validity, len, out)?;
    let values = BitSlice::new(values, values_offset);
    let validity = validity.map(|(v, o)| BitSlice::new(v, o));
    expand_rows(kernel, values, validity, len, negate, &mut out[..len]);
    Ok(())
}

/// The reference: row by row, test validity, read the value bit, apply
/// `negate`, store a byte. Same contract and errors as [`unpack`].
///
/// It is the oracle of every test, fuzz target and benchmark in this crate,
/// written to be obviously correct rather than fast.
///
/// # Errors
///
/// As [`unpack`].
///
/// # Examples
///
/// ```
/// use bitbytes::{unpack, unpack_naive};
///
/// let values = [0x5a, 0xc3, 0x0f];
/// let validity = [0xff, 0x7e, 0xf0];
/// let (mut fast, mut slow) = ([0u8; 19], [0u8; 19]);
/// unpack(&values, Some(&validity), 3, 19, true, &mut fast)?;
/// unpack_naive(&values, Some(&validity), 3, 19, true, &mut slow)?;
/// assert_eq!(fast, slow);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn unpack_naive(
    values: &[u8],
    validity: Option<&[u8]>,
    bit_offset: usize,
    len: usize,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    unpack_offsets_naive(
        values,
        bit_offset,
        validity.map(|v| (v, bit_offset)),
        len,
        negate,
        out,
    )
}

/// The row-by-row reference for [`unpack_offsets`].
///
/// # Errors
///
/// As [`unpack_offsets`].
pub fn unpack_offsets_naive(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    check(values, values_offset, validity, len, out)?;
    for (i, o) in out[..len].iter_mut().enumerate() {
        let valid = match validity {
            None => true,
            Some((v, voff)) => get_bit(v, voff + i),
        };
        let value = get_bit(values, values_offset + i);
        *o = u8::from(valid && value != negate);
    }
    Ok(())
}

/// Validates every argument of an unpack call, so that nothing is written on
/// error and nothing can read past a slice afterwards.
fn check(
    values: &[u8],
    values_offset: usize,
    validity: Option<(&[u8], usize)>,
    len: usize,
    out: &[u8],
) -> Result<(), Error> {
    // Overflow first: a length check against an overflowed end means nothing.
    values_offset.checked_add(len).ok_or(Error::Overflow {
        bit_offset: values_offset,
        len,
    })?;
    if let Some((_, voff)) = validity {
        voff.checked_add(len).ok_or(Error::Overflow {
            bit_offset: voff,
            len,
        })?;
    }
    if out.len() < len {
        return Err(output_too_short(len, out.len()));
    }
    check_bitmap(values.len(), values_offset, len, values_too_short)?;
    if let Some((v, voff)) = validity {
        check_bitmap(v.len(), voff, len, validity_too_short)?;
    }
    Ok(())
}

/// The fast path, after `check`: `out.len() == len` and both bitmaps hold
/// every row.
fn expand_rows(
    kernel: Kernel,
    values: BitSlice<'_>,
    validity: Option<BitSlice<'_>>,
    len: usize,
    negate: bool,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), len);
    let neg = 0u64.wrapping_sub(u64::from(negate));
    let full_words = len / 64;
    let (body, tail) = out.split_at_mut(full_words * 64);

    let mut buf = [0u64; BATCH_WORDS];
    let mut first = 0;
    for chunk in body.chunks_mut(BATCH_WORDS * 64) {
        let words = &mut buf[..chunk.len() / 64];
        match validity {
            None => {
                for (j, w) in words.iter_mut().enumerate() {
                    *w = values.word(first + j) ^ neg;
                }
            }
            Some(valid) => {
                for (j, w) in words.iter_mut().enumerate() {
                    *w = (values.word(first + j) ^ neg) & valid.word(first + j);
                }
            }
        }
        kernel.expand(words, chunk);
        first += words.len();
    }

    if !tail.is_empty() {
        let start = full_words * 64;
        let n = tail.len();
        let mut w = values.bits(start, n) ^ neg;
        if let Some(valid) = validity {
            w &= valid.bits(start, n);
        }
        let mut bytes = [0u8; 64];
        portable::expand_word(w, &mut bytes);
        tail.copy_from_slice(&bytes[..n]);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Runs `kernel` against the oracle on every bit offset 0..64, lengths
    /// that reach every head/body/tail mix (including several batches), with
    /// and without validity, both negate values, on slices cut to exactly the
    /// bytes needed, checking that bytes past `len` stay untouched.
    pub(crate) fn check_kernel(kernel: Kernel) {
        const MAX_ROWS: usize = 64 * (BATCH_WORDS + 3) + 63;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        };
        let values: std::vec::Vec<u8> = (0..MAX_ROWS / 8 + 16).map(|_| next()).collect();
        let validity: std::vec::Vec<u8> = (0..MAX_ROWS / 8 + 16).map(|_| next() | next()).collect();
        let mut lens: std::vec::Vec<usize> = (0..=200).collect();
        lens.extend([
            255, 256, 257, 511, 512, 513, 1000, 2047, 2048, 2049, 2111, 2112, 2113,
        ]);
        lens.push(MAX_ROWS);
        for off in 0..64 {
            for &len in &lens {
                let need = (off + len).div_ceil(8);
                for negate in [false, true] {
                    for valid in [None, Some(&validity[..need])] {
                        let mut want = std::vec![0xAAu8; len + 3];
                        let mut got = std::vec![0xAAu8; len + 3];
                        unpack_naive(&values[..need], valid, off, len, negate, &mut want).unwrap();
                        unpack_with(kernel, &values[..need], valid, off, len, negate, &mut got)
                            .unwrap();
                        assert_eq!(
                            got,
                            want,
                            "{kernel}: off {off} len {len} negate {negate} validity {}",
                            valid.is_some()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn portable_matches_the_oracle() {
        check_kernel(Kernel::portable());
    }
}
