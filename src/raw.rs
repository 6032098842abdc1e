//! Bitmaps to bytes: `unpack` and its row-by-row oracle `unpack_naive`.
//!
//! All entry points check their input first (nothing is written on `Err`),
//! then split the rows into whole 64-row words and one partial tail word.
//! A private `BitSlice` does the offset arithmetic: each word is
//! shift-merged from the unaligned bytes, so any `bit_offset` runs at the speed
//! of offset 0. The whole words go to a [`Kernel`], which applies negate
//! (`xor`) and validity (`and`) once per word and expands each word to 64
//! bytes of 0/1; the last word or two take a scalar path.

use crate::arch::portable;
use crate::bits::{get_bit, BitSlice};
use crate::error::{check_bitmap, output_too_short, validity_too_short, values_too_short};

pub use crate::arch::indices::{IndicesKernel, SIMD_MIN_PER_MILLE};
pub use crate::arch::Kernel;
pub use crate::error::Error;
pub use crate::indices::{
    count_selected_offsets, count_selected_with, mask_count_with, mask_to_indices_naive,
    mask_to_indices_with, unpack_indices_naive, unpack_indices_offsets,
    unpack_indices_offsets_naive, unpack_indices_offsets_with, unpack_indices_with,
};
pub use crate::pack::pack_with;

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
/// These checks hold for `len == 0` too: zero rows at an offset inside the
/// bitmaps is `Ok` and writes nothing, zero rows at an offset past their
/// end is `ValuesTooShort` (as an arrow-rs buffer's slice past its end
/// panics), so a bad offset is found before any row is asked for.
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
/// // Zero rows: at the end of the bitmap fine, past it an error.
/// unpack(&values, None, 8, 0, false, &mut [])?;
/// assert!(unpack(&values, None, 9, 0, false, &mut []).is_err());
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
#[inline]
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
#[inline]
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
    // The checks run here, inlined, and the call below can neither fail nor
    // take an `Option<(&[u8], usize)>`: a `Result<(), Error>` returned from a
    // call and that pair passed to it both travel through memory, and
    // together cost 7 to 10 ns per call (0 rows 16 -> 6 ns, 64 rows 23 ->
    // 17, 1 Ki 32 -> 25, 4 Ki 62 -> 54; AMD EPYC family 25 model 17, AVX2,
    // the two builds run alternately).
    expand_flat(
        kernel,
        values,
        values_offset,
        validity.map(|(v, _)| v),
        validity.map_or(0, |(_, o)| o),
        negate,
        &mut out[..len],
    );
    Ok(())
}

/// The checked call of [`unpack_offsets_with`]: every row of `out` from the
/// bitmaps, each given as its bytes and bit offset (plain arguments, which
/// travel in registers).
fn expand_flat(
    kernel: Kernel,
    values: &[u8],
    values_offset: usize,
    validity: Option<&[u8]>,
    validity_offset: usize,
    negate: bool,
    out: &mut [u8],
) {
    expand_rows(
        kernel,
        BitSlice::new(values, values_offset),
        validity.map(|v| BitSlice::new(v, validity_offset)),
        negate,
        out,
        Thresholds {
            stream: stream_min_bytes(),
            align: ALIGN_MIN_BYTES,
        },
    );
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
#[inline]
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

/// The streaming threshold where the last-level cache size is unknown
/// (without `std`, or where CPUID does not report it): outputs of at least
/// this many bytes are written with non-temporal stores by the kernels that
/// have them (SSE2, AVX2, AVX-512). See [`stream_min_bytes`] for the
/// threshold [`unpack`] uses.
///
/// Streaming skips the read-for-ownership of each output line and does not
/// fill the caches with a mask that would not fit in them anyway; below the
/// threshold ordinary stores keep the mask in cache for whoever reads it
/// next. 5 MiB is 5/8 of the 8 MiB L3 of the CPU it was measured on (AMD
/// EPYC, CPUID family 23, 2026-11-30, AVX2, with validity; two builds, one
/// with streaming switched off, run alternately): at 4 Mi rows ordinary
/// stores were as fast or faster (22.6 to 25.8 Grows/s in five runs,
/// streaming 13.7 to 25.9); from 5 Mi rows streaming won (5 Mi: 14.4 and
/// 24.1 against 13.1 and 16.3; 8 Mi: 16.3 to 23.4 against 8.1 to 9.2).
pub const STREAM_MIN_BYTES: usize = 5 << 20;

/// The output size from which [`unpack`] streams: 5/8 of the last-level
/// cache that one core sees, as CPUID reports it (x86_64 with `std`, asked
/// once and cached), but at least [`STREAM_MIN_BYTES`], which is also the
/// answer where the cache size is unknown, and at most 32 MiB.
///
/// The upper bound is not a measurement: server CPUs that report a
/// socket-wide L3 of hundreds of MiB (Intel Xeons do, through CPUID leaf 4)
/// would otherwise never stream below hundreds of MiB, which no CPU of this
/// project has been measured to want; 32 MiB leaves the measured 20 MiB of
/// the Zen 4 below alone.
///
/// The crossover follows the cache, not a fixed size. On an AMD EPYC with
/// CPUID family 25 model 17 (Zen 4, 32 MiB L3 per CCD; 2026-11-30, AVX-512
/// kernel, with validity, against a build that never streams) ordinary
/// stores won at 8 Mi rows (73 against 29 Grows/s) and 16 Mi (49 against
/// 29), streaming won at 32 Mi (28 against 24) and 64 Mi (26 against 20);
/// on the family 23 CPU of [`STREAM_MIN_BYTES`] (8 MiB L3) the crossover
/// was 5 MiB. 5/8 of the L3 gives 5 MiB there and 20 MiB here.
///
/// # Examples
///
/// ```
/// let t = bitbytes::raw::stream_min_bytes();
/// assert!((bitbytes::raw::STREAM_MIN_BYTES..=32 << 20).contains(&t));
/// ```
pub fn stream_min_bytes() -> usize {
    crate::arch::last_level_cache_bytes().map_or(STREAM_MIN_BYTES, |c| {
        (c / 8 * 5).clamp(STREAM_MIN_BYTES, STREAM_MAX_BYTES)
    })
}

/// The upper bound of [`stream_min_bytes`] (see there).
const STREAM_MAX_BYTES: usize = 32 << 20;

/// Outputs of at least this many bytes start with a scalar head up to the
/// next 64-byte boundary, so that every kernel store is aligned.
///
/// Measured 2026-11-30 on an AMD EPYC, CPUID family 25 model 17 (Zen 4),
/// AVX2 kernel, with validity, against `fill` of the same bytes: an output
/// 16 bytes past a 64-byte boundary ran at 0.60 (64 Ki rows) and 0.65
/// (1 Mi) where an aligned one ran at 0.76 and 0.73; at 4 Ki rows the two
/// were within 2% (0.54 and 0.55), less than the head costs there.
const ALIGN_MIN_BYTES: usize = 16 << 10;

/// When [`expand_rows`] streams and when it aligns its output first (tests
/// force both with 0).
#[derive(Clone, Copy)]
struct Thresholds {
    stream: usize,
    align: usize,
}

/// The fast path, after `check`: `out.len() == len` and both bitmaps hold
/// every row.
///
/// Three parts: a scalar head (only when streaming or from
/// [`ALIGN_MIN_BYTES`]: up to the next 64-byte boundary of `out`, so that
/// every kernel store is aligned; the input's bit
/// offset costs nothing, since every word is shift-merged anyway), the whole
/// words both bitmaps can give as windows (the kernel's part, nearly
/// everything), and a scalar tail of at most two words.
fn expand_rows(
    kernel: Kernel,
    values: BitSlice<'_>,
    validity: Option<BitSlice<'_>>,
    negate: bool,
    out: &mut [u8],
    Thresholds { stream, align }: Thresholds,
) {
    let neg = 0u64.wrapping_sub(u64::from(negate));
    let stream = out.len() >= stream;
    let head = if stream || out.len() >= align {
        out.len().min(out.as_ptr().align_offset(64))
    } else {
        0
    };
    let (head_out, out) = out.split_at_mut(head);
    if head > 0 {
        expand_scalar(values, validity, neg, head_out);
    }

    let (values, validity) = (values.skip(head), validity.map(|v| v.skip(head)));
    let fast_words = (out.len() / 64)
        .min(values.window_words())
        .min(validity.map_or(usize::MAX, |v| v.window_words()));
    let (body, tail) = out.split_at_mut(fast_words * 64);
    if fast_words > 0 {
        kernel.expand(
            values.window(fast_words),
            validity.map(|v| v.window(fast_words)),
            neg,
            body,
            stream,
        );
    }
    if !tail.is_empty() {
        let done = fast_words * 64;
        expand_scalar(values.skip(done), validity.map(|v| v.skip(done)), neg, tail);
    }
}

/// Rows `0..out.len()`, a word at a time through the table: the head and the
/// tail of [`expand_rows`].
fn expand_scalar(values: BitSlice<'_>, validity: Option<BitSlice<'_>>, neg: u64, out: &mut [u8]) {
    for (word, dst) in out.chunks_mut(64).enumerate() {
        let n = dst.len();
        let start = word * 64;
        let mut w = values.bits(start, n) ^ neg;
        if let Some(valid) = validity {
            w &= valid.bits(start, n);
        }
        if let Ok(whole) = <&mut [u8; 64]>::try_from(&mut *dst) {
            // A whole word straight into `out` (the last word of every
            // exactly-sized bitmap comes here).
            portable::expand_word(w, whole);
        } else {
            let mut bytes = [0u8; 64];
            portable::expand_word(w, &mut bytes);
            dst.copy_from_slice(&bytes[..n]);
        }
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
        const MAX_ROWS: usize = 64 * 40 + 63;
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let values = rng.bytes(MAX_ROWS / 8 + 16);
        let validity = rng.validity(MAX_ROWS / 8 + 16);
        let mut lens: std::vec::Vec<usize> = (0..=200).collect();
        lens.extend([
            255, 256, 257, 511, 512, 513, 1000, 2047, 2048, 2049, 2111, 2112, 2113,
        ]);
        lens.push(MAX_ROWS);
        let mut buf = std::vec![0u8; MAX_ROWS + 128];
        for off in 0..64 {
            for &len in &lens {
                let need = (off + len).div_ceil(8);
                for negate in [false, true] {
                    for valid in [None, Some(&validity[..need])] {
                        let mut want = std::vec![0xAAu8; len + 3];
                        unpack_naive(&values[..need], valid, off, len, negate, &mut want).unwrap();
                        let mut got = std::vec![0xAAu8; len + 3];
                        unpack_with(kernel, &values[..need], valid, off, len, negate, &mut got)
                            .unwrap();
                        assert_eq!(
                            got,
                            want,
                            "{kernel}: off {off} len {len} negate {negate} validity {}",
                            valid.is_some()
                        );
                        // The aligned head forced on, with streaming stores
                        // and with ordinary ones (the path of outputs from
                        // ALIGN_MIN_BYTES below the streaming threshold),
                        // the head reaching every output alignment.
                        let at = (off * 7 + len) % 64;
                        let values = BitSlice::new(&values[..need], off);
                        let valid = valid.map(|v| BitSlice::new(v, off));
                        for stream in [0, usize::MAX] {
                            let got = &mut buf[at..at + len + 3];
                            got.fill(0xAA);
                            let forced = Thresholds { stream, align: 0 };
                            expand_rows(kernel, values, valid, negate, &mut got[..len], forced);
                            assert_eq!(
                                got,
                                &want[..],
                                "{kernel} aligned head, streaming {}: at {at} off {off} len {len} negate {negate}",
                                stream == 0
                            );
                        }
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
