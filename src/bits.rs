//! Offset arithmetic, in one place.
//!
//! A [`BitSlice`] is a bitmap read from an arbitrary bit offset. It hands out
//! whole 64-row words (shift-merged from the unaligned bytes: one 8-byte load,
//! one extra byte, two shifts) and the last partial word, so that every kernel
//! downstream sees aligned `u64` words only.

/// A bitmap read from bit `bit_offset` of `bytes`, LSB first.
///
/// Invariant (checked by the public entry points before one is built): `bytes`
/// holds every bit the caller asks for, that is `ceil((bit_offset + len) / 8)`
/// bytes for the `len` rows it reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitSlice<'a> {
    bytes: &'a [u8],
    bit_offset: usize,
}

impl<'a> BitSlice<'a> {
    /// Views `bytes` from bit `bit_offset` on.
    #[inline]
    pub(crate) fn new(bytes: &'a [u8], bit_offset: usize) -> Self {
        BitSlice { bytes, bit_offset }
    }

    /// Rows `64 * i .. 64 * i + 64` as a `u64`, row `64 * i` in the least
    /// significant bit.
    ///
    /// Reads the 8 bytes holding the word, plus one more when the offset is not
    /// a multiple of 8 (that byte holds the word's last bits, so it is inside
    /// the bitmap whenever the whole word is).
    #[inline(always)]
    pub(crate) fn word(&self, i: usize) -> u64 {
        let pos = self.bit_offset + 64 * i;
        let start = pos / 8;
        let shift = (pos % 8) as u32;
        let mut lo = [0u8; 8];
        lo.copy_from_slice(&self.bytes[start..start + 8]);
        let lo = u64::from_le_bytes(lo);
        if shift == 0 {
            lo
        } else {
            (lo >> shift) | (u64::from(self.bytes[start + 8]) << (64 - shift))
        }
    }

    /// The `n <= 64` rows from row `start` on, in the low `n` bits of a `u64`
    /// (higher bits 0). Reads only the bytes that hold those rows.
    #[inline]
    pub(crate) fn bits(&self, start: usize, n: usize) -> u64 {
        debug_assert!(n <= 64);
        if n == 0 {
            return 0;
        }
        let pos = self.bit_offset + start;
        let first = pos / 8;
        let last = (pos + n - 1) / 8;
        let mut acc: u128 = 0;
        for (j, &b) in self.bytes[first..=last].iter().enumerate() {
            acc |= u128::from(b) << (8 * j);
        }
        let w = (acc >> (pos % 8)) as u64;
        if n == 64 {
            w
        } else {
            w & ((1u64 << n) - 1)
        }
    }
}

impl BitSlice<'_> {
    /// Writes the `dst.len() / 8` whole words from row `start` on into `dst`
    /// (`dst.len()` a multiple of 8), as [`word`](Self::word) would give them,
    /// in one pass: a copy when the rows start on a byte boundary, otherwise
    /// one 8-byte load and two shifts per word (reading one byte past the
    /// last whole byte only when the rows need it).
    pub(crate) fn copy_words(&self, start: usize, dst: &mut [u8]) {
        debug_assert_eq!(dst.len() % 8, 0);
        if dst.is_empty() {
            return;
        }
        let pos = self.bit_offset + start;
        let (first, shift) = (pos / 8, (pos % 8) as u32);
        let n = dst.len();
        if shift == 0 {
            dst.copy_from_slice(&self.bytes[first..first + n]);
            return;
        }
        // Word `i` is the top bits of source word `i` and the low bits of
        // source word `i + 1`; the last word needs only one byte of the next.
        let src = &self.bytes[first..=first + n];
        let word_at = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        let (body, last) = dst.split_at_mut(n - 8);
        let mut lo = word_at(&src[..8]);
        // `lo` is carried over: one load per word and no bounds checks.
        for (d, next) in body.chunks_exact_mut(8).zip(src[8..].chunks_exact(8)) {
            let hi = word_at(next);
            d.copy_from_slice(&((lo >> shift) | (hi << (64 - shift))).to_le_bytes());
            lo = hi;
        }
        let w = (lo >> shift) | (u64::from(src[n]) << (64 - shift));
        last.copy_from_slice(&w.to_le_bytes());
    }
}

/// Bit `i` of an LSB-first bitmap (the per-row accessor of the oracles).
#[inline]
pub(crate) fn get_bit(bytes: &[u8], i: usize) -> bool {
    (bytes[i / 8] >> (i % 8)) & 1 == 1
}

/// The number of ones in `bytes`, a popcount per 8-byte word.
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) fn count_ones(bytes: &[u8]) -> usize {
    let words = bytes.chunks_exact(8);
    let rest: usize = words
        .remainder()
        .iter()
        .map(|b| b.count_ones() as usize)
        .sum();
    words
        .map(|w| u64::from_le_bytes(w.try_into().expect("chunks_exact(8)")).count_ones() as usize)
        .sum::<usize>()
        + rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_and_bits_match_get_bit_on_every_offset() {
        let bytes: [u8; 24] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        for off in 0..64 {
            let s = BitSlice::new(&bytes, off);
            let w = s.word(0);
            for r in 0..64 {
                assert_eq!(
                    (w >> r) & 1 == 1,
                    get_bit(&bytes, off + r),
                    "off {off} row {r}"
                );
            }
            for n in 0..=64 {
                let b = s.bits(3, n);
                for r in 0..64 {
                    let want = r < n && get_bit(&bytes, off + 3 + r);
                    assert_eq!((b >> r) & 1 == 1, want, "off {off} n {n} row {r}");
                }
            }
        }
    }

    #[test]
    fn copy_words_matches_word_on_every_offset() {
        let bytes: [u8; 48] = core::array::from_fn(|i| (i as u8).wrapping_mul(91) ^ 0xc3);
        for off in 0..64 {
            let s = BitSlice::new(&bytes, off);
            for start in [0, 1, 7, 8, 13] {
                let mut dst = [0u8; 32];
                s.copy_words(start, &mut dst);
                let moved = BitSlice::new(&bytes, off + start);
                for (i, d) in dst.chunks_exact(8).enumerate() {
                    let got = u64::from_le_bytes(d.try_into().unwrap());
                    assert_eq!(got, moved.word(i), "off {off} start {start} word {i}");
                }
            }
        }
    }

    #[test]
    fn bits_reads_only_the_bytes_it_needs() {
        // 5 rows from bit 7 need exactly bytes 0 and 1.
        let bytes = [0x80u8, 0x0f];
        assert_eq!(BitSlice::new(&bytes, 7).bits(0, 5), 0b11111);
        // A full word at offset 0 needs exactly 8 bytes.
        let bytes = [0xffu8; 8];
        assert_eq!(BitSlice::new(&bytes, 0).word(0), u64::MAX);
    }
}
