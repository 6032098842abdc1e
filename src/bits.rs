//! Offset arithmetic, in one place.
//!
//! A [`BitSlice`] is a bitmap read from an arbitrary bit offset. It hands the
//! kernels a [`Words`] window of whole 64-row words (shift-merged from the
//! unaligned bytes with two loads and two shifts, no branch) and reads the
//! last word or two itself ([`BitSlice::bits`]), so that no kernel deals with
//! offsets or tails.

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

    /// The `n <= 64` rows from row `start` on, in the low `n` bits of a `u64`
    /// (higher bits 0). Needs only the bytes that hold those rows (and loads
    /// 16 at once where the bitmap has them; the rest is masked off).
    #[inline]
    pub(crate) fn bits(&self, start: usize, n: usize) -> u64 {
        debug_assert!(n <= 64);
        if n == 0 {
            return 0;
        }
        let pos = self.bit_offset + start;
        let first = pos / 8;
        let last = (pos + n - 1) / 8;
        // Whole loads only: 16 bytes from byte `first` where the bitmap has
        // them, else its last 16 bytes shifted down (the last word of an
        // exactly-sized bitmap), else (a bitmap of 8 to 15 bytes) 8 bytes and
        // the ninth when the rows reach it, else (fewer than 8 bytes) byte by
        // byte in a register. A byte loop for every call cost about 90
        // instructions per word, and bytes copied into a buffer and read back
        // as one `u128` stall on store forwarding.
        let le16 = |s: &[u8]| u128::from_le_bytes(s.try_into().expect("16 bytes"));
        let le8 = |s: &[u8]| u128::from(u64::from_le_bytes(s.try_into().expect("8 bytes")));
        let bytes = self.bytes;
        let len = bytes.len();
        let acc = if let Some(s) = bytes.get(first..first + 16) {
            le16(s)
        } else if len >= 16 {
            // first + 16 > len, so 0 < first - (len - 16) < 16.
            le16(&bytes[len - 16..]) >> (8 * (first - (len - 16)))
        } else if len >= 8 {
            match bytes.get(first..first + 8) {
                // The rows span at most 9 bytes: the ninth, if they reach it.
                Some(s) if last > first + 7 => le8(s) | (u128::from(bytes[first + 8]) << 64),
                Some(s) => le8(s),
                // first + 8 > len: the last 8 bytes hold every row.
                None => le8(&bytes[len - 8..]) >> (8 * (first - (len - 8))),
            }
        } else {
            bytes[first..=last]
                .iter()
                .rev()
                .fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
        };
        let w = (acc >> (pos % 8)) as u64;
        if n == 64 {
            w
        } else {
            w & ((1u64 << n) - 1)
        }
    }
}

impl<'a> BitSlice<'a> {
    /// The same bitmap from `n` rows further on.
    #[inline]
    pub(crate) fn skip(&self, n: usize) -> BitSlice<'a> {
        BitSlice {
            bytes: self.bytes,
            bit_offset: self.bit_offset + n,
        }
    }

    /// How many whole words, from word 0 on, [`BitSlice::window`] can give:
    /// each word's window reaches one byte past the word, so a bitmap that
    /// ends exactly at a word boundary leaves its last word to
    /// [`BitSlice::bits`].
    #[inline]
    pub(crate) fn window_words(&self) -> usize {
        self.bytes.len().saturating_sub(self.bit_offset / 8 + 1) / 8
    }

    /// Words `0..n` as a [`Words`] window (`n <= window_words()`, `n > 0`).
    #[inline]
    pub(crate) fn window(&self, n: usize) -> Words<'a> {
        let start = self.bit_offset / 8;
        Words {
            bytes: &self.bytes[start..start + 8 * n + 1],
            shift: (self.bit_offset % 8) as u32,
        }
    }
}

/// Whole 64-row words of a bitmap, ready for a kernel: exactly `8 * n + 1`
/// bytes starting at the byte that holds word 0's first row, and the bit
/// `shift` (0..8) of that row inside it.
///
/// Word `j` is `(lo >> shift) | (hi << (8 - shift))` where `lo` and `hi` are
/// the little-endian `u64`s at bytes `8j` and `8j + 1`: `hi` is the same bit
/// stream one byte later, so the two agree wherever they overlap and `hi`
/// brings the `shift` bits past `lo`'s end. For `shift == 0` the formula still
/// holds, so there is no branch, and every load stays inside the window.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Words<'a> {
    bytes: &'a [u8],
    shift: u32,
}

impl<'a> Words<'a> {
    /// Number of words.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / 8
    }

    /// The window's bytes (`8 * len() + 1` of them).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The bit offset (0..8) of word 0 inside byte 0.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    pub(crate) fn shift(&self) -> u32 {
        self.shift
    }

    /// Words `0..n` and `n..len()` as two windows (`n <= len()`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    pub(crate) fn split_at(&self, n: usize) -> (Words<'a>, Words<'a>) {
        let shift = self.shift;
        (
            Words {
                bytes: &self.bytes[..8 * n + 1],
                shift,
            },
            Words {
                bytes: &self.bytes[8 * n..],
                shift,
            },
        )
    }

    /// The words, in order.
    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = u64> + 'a {
        let shift = self.shift;
        self.bytes
            .chunks_exact(8)
            .zip(self.bytes[1..].chunks_exact(8))
            .map(move |(lo, hi)| (le_u64(lo) >> shift) | (le_u64(hi) << (8 - shift)))
    }
}

/// The little-endian `u64` of an 8-byte chunk.
#[inline(always)]
fn le_u64(chunk: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(chunk);
    u64::from_le_bytes(b)
}

impl BitSlice<'_> {
    /// Writes the `dst.len() / 8` whole words from row `start` on into `dst`
    /// (`dst.len()` a multiple of 8), as [`bits`](Self::bits) would give them:
    /// a copy when the rows start on a byte boundary, otherwise the words of
    /// a [`Words`] window (which then needs exactly the bytes the rows use).
    pub(crate) fn copy_words(&self, start: usize, dst: &mut [u8]) {
        debug_assert_eq!(dst.len() % 8, 0);
        if dst.is_empty() {
            return;
        }
        let from = self.skip(start);
        if from.bit_offset.is_multiple_of(8) {
            let first = from.bit_offset / 8;
            dst.copy_from_slice(&self.bytes[first..first + dst.len()]);
            return;
        }
        let words = from.window(dst.len() / 8);
        for (d, w) in dst.chunks_exact_mut(8).zip(words.iter()) {
            d.copy_from_slice(&w.to_le_bytes());
        }
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
            let w = s.bits(0, 64);
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
    fn bits_match_get_bit_near_the_end_of_every_bitmap_length() {
        // Every way `bits` can load: 16 bytes from `first`, the last 16 bytes
        // shifted down, and the copy of a bitmap shorter than 16 bytes.
        let all: [u8; 26] = core::array::from_fn(|i| (i as u8).wrapping_mul(59) ^ 0x3c);
        for len in 1..=all.len() {
            let bytes = &all[..len];
            for pos in 0..8 * len {
                for n in 0..=64.min(8 * len - pos) {
                    let got = BitSlice::new(bytes, pos).bits(0, n);
                    for r in 0..64 {
                        let want = r < n && get_bit(bytes, pos + r);
                        assert_eq!(
                            (got >> r) & 1 == 1,
                            want,
                            "len {len} pos {pos} n {n} row {r}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn windows_match_word_on_every_offset() {
        let bytes: [u8; 40] = core::array::from_fn(|i| (i as u8).wrapping_mul(101) ^ 0xa7);
        for off in 0..64 {
            let s = BitSlice::new(&bytes, off);
            let n = s.window_words();
            // 40 bytes from byte off/8: each window word needs one extra byte.
            assert_eq!(n, (40 - off / 8 - 1) / 8);
            let w = s.window(n);
            assert_eq!(w.len(), n);
            let words: std::vec::Vec<u64> = w.iter().collect();
            for (j, &word) in words.iter().enumerate() {
                assert_eq!(word, s.bits(64 * j, 64), "off {off} word {j}");
            }
        }
    }

    #[test]
    fn copy_words_matches_bits_on_every_offset() {
        let bytes: [u8; 48] = core::array::from_fn(|i| (i as u8).wrapping_mul(91) ^ 0xc3);
        for off in 0..64 {
            let s = BitSlice::new(&bytes, off);
            for start in [0, 1, 7, 8, 13] {
                let mut dst = [0u8; 32];
                s.copy_words(start, &mut dst);
                let moved = BitSlice::new(&bytes, off + start);
                for (i, d) in dst.chunks_exact(8).enumerate() {
                    let got = u64::from_le_bytes(d.try_into().unwrap());
                    assert_eq!(
                        got,
                        moved.bits(64 * i, 64),
                        "off {off} start {start} word {i}"
                    );
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
        assert_eq!(BitSlice::new(&bytes, 0).bits(0, 64), u64::MAX);
    }
}
