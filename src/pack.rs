//! Bytes to bits: `pack`, its kernel-forcing twin `pack_with`, and the
//! per-byte oracle `pack_naive`.
//!
//! The input is checked first (nothing is written on `Err`). A [`Kernel`]
//! turns each 64 input bytes into one `u64` word; a [`WordSink`](crate::sink::WordSink) over the
//! caller's buffer merges the words in at the unaligned bit offset: the bits
//! of the first byte below the offset and of the last byte above the end are
//! read back and kept, the bytes between are written whole.

use crate::error::{check_bitmap, output_too_short};
use crate::raw::{Error, Kernel};
use crate::writer::SliceStore;

/// Sets bit `bit_offset + i` of `out` to `bytes[i] != 0`, for every `i`,
/// leaving every other bit of `out` unchanged.
///
/// The inverse of [`unpack`](crate::unpack): packing 0/1 bytes and unpacking
/// the result gives them back. Bits are LSB first, as in Arrow. Uses the
/// kernel of [`Kernel::best_pack`] (the widest this CPU has): `movemask` of a compare
/// against zero with SSE2/AVX2, a test-mask with AVX-512BW, a multiply that
/// gathers eight bytes into a byte elsewhere.
///
/// # Errors
///
/// Nothing is written when the call returns `Err`:
/// - [`Error::Overflow`] when `bit_offset + bytes.len()` overflows `usize`;
/// - [`Error::OutputTooShort`] when `out` is shorter than
///   `ceil((bit_offset + bytes.len()) / 8)` bytes.
///
/// # Examples
///
/// ```
/// use bitbytes::{pack, unpack};
///
/// let mask = [1u8, 0, 7, 0, 1];
/// let mut bits = [0b1000_0101u8, 0xff];
/// // rows 0..5 go to bits 3..8: bits 0..3 and byte 1 keep their values.
/// pack(&mask, &mut bits, 3)?;
/// assert_eq!(bits, [0b1010_1101, 0xff]);
///
/// let mut back = [0u8; 5];
/// unpack(&bits, None, 3, 5, false, &mut back)?;
/// assert_eq!(back, [1, 0, 1, 0, 1]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[inline]
pub fn pack(bytes: &[u8], out: &mut [u8], bit_offset: usize) -> Result<(), Error> {
    pack_with(Kernel::best_pack(), bytes, out, bit_offset)
}

/// [`pack`] with a chosen [`Kernel`] instead of the dispatched one: same
/// contract, same errors, same output.
///
/// # Errors
///
/// As [`pack`].
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{pack_with, Kernel};
///
/// for kernel in Kernel::available() {
///     let mut out = [0u8; 2];
///     pack_with(kernel, &[1, 1, 0, 1, 0, 0, 0, 0, 9], &mut out, 0)?;
///     assert_eq!(out, [0b1011, 1], "{kernel}");
/// }
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn pack_with(
    kernel: Kernel,
    bytes: &[u8],
    out: &mut [u8],
    bit_offset: usize,
) -> Result<(), Error> {
    check_bitmap(out.len(), bit_offset, bytes.len(), output_too_short)?;
    if bytes.is_empty() {
        return Ok(());
    }
    let mut sink = SliceStore::sink(out, bit_offset);
    sink.push_bytes(kernel, bytes);
    sink.flush_tail();
    Ok(())
}

/// The reference for [`pack`]: one byte at a time, read-modify-write of the
/// bit it goes to. Same contract and errors.
///
/// # Errors
///
/// As [`pack`].
///
/// # Examples
///
/// ```
/// use bitbytes::{pack, pack_naive};
///
/// let bytes: Vec<u8> = (0..100u8).map(|i| i % 3).collect();
/// let (mut fast, mut slow) = ([0x5au8; 14], [0x5au8; 14]);
/// pack(&bytes, &mut fast, 5)?;
/// pack_naive(&bytes, &mut slow, 5)?;
/// assert_eq!(fast, slow);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn pack_naive(bytes: &[u8], out: &mut [u8], bit_offset: usize) -> Result<(), Error> {
    check_bitmap(out.len(), bit_offset, bytes.len(), output_too_short)?;
    for (i, &b) in bytes.iter().enumerate() {
        let pos = bit_offset + i;
        let mask = 1u8 << (pos % 8);
        if b != 0 {
            out[pos / 8] |= mask;
        } else {
            out[pos / 8] &= !mask;
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::vec::Vec;

    /// Runs `kernel` against the oracle on every bit offset 0..64 and lengths
    /// that reach every head/body/tail mix (including several batches), with
    /// bytes of every kind (0, 1, other non-zero values), on an output cut to
    /// exactly the bytes needed and seeded with random bits that must survive.
    pub(crate) fn check_pack_kernel(kernel: Kernel) {
        const MAX_ROWS: usize = 64 * 35 + 63;
        let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next_u64();
        // About a third zero bytes, the rest 1 or any other value.
        let bytes: Vec<u8> = (0..MAX_ROWS)
            .map(|_| match next() % 3 {
                0 => 0,
                1 => 1,
                _ => (next() as u8) | 1,
            })
            .collect();
        let junk: Vec<u8> = (0..MAX_ROWS / 8 + 16).map(|_| next() as u8).collect();
        let mut lens: Vec<usize> = (0..=200).collect();
        lens.extend([255, 256, 257, 1000, 2047, 2048, 2049, 2111, 2112, 2113]);
        lens.push(MAX_ROWS);
        for off in 0..64 {
            for &len in &lens {
                let need = (off + len).div_ceil(8);
                let mut want = junk[..need].to_vec();
                let mut got = want.clone();
                pack_naive(&bytes[..len], &mut want, off).unwrap();
                pack_with(kernel, &bytes[..len], &mut got, off).unwrap();
                assert_eq!(got, want, "{kernel}: off {off} len {len}");
            }
        }
    }

    #[test]
    fn portable_matches_the_oracle() {
        check_pack_kernel(Kernel::portable());
    }

    #[test]
    fn errors_write_nothing() {
        let mut out = [0xa5u8; 2];
        assert_eq!(
            pack(&[1; 14], &mut out, 3),
            Err(Error::OutputTooShort {
                needed: 3,
                actual: 2
            })
        );
        assert_eq!(
            pack(&[1], &mut out, usize::MAX),
            Err(Error::Overflow {
                bit_offset: usize::MAX,
                len: 1
            })
        );
        assert_eq!(out, [0xa5; 2]);
        // Empty input is fine anywhere inside `out`, and writes nothing.
        assert_eq!(pack(&[], &mut out, 16), Ok(()));
        assert_eq!(out, [0xa5; 2]);
    }
}
