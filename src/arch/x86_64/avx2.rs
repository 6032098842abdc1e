//! AVX2: broadcast a 64-row word to all lanes, `vpshufb` so that each output
//! byte holds its source bitmap byte, `and` with the per-lane bit and
//! `min(x, 1)`: two 32-byte stores per 64 rows, unrolled four words deep.

use core::arch::x86_64::*;

/// Proof that the CPU supports AVX2.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU supports AVX2 (with `std`: asked at run time;
    /// without: the compile-time target features).
    #[inline]
    pub(crate) fn new() -> Option<Avx2> {
        #[cfg(feature = "std")]
        let yes = std::is_x86_feature_detected!("avx2");
        #[cfg(not(feature = "std"))]
        let yes = cfg!(target_feature = "avx2");
        if yes {
            Some(Avx2(()))
        } else {
            None
        }
    }

    /// # Safety
    ///
    /// - The CPU must support AVX2.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[inline]
    pub(crate) unsafe fn new_unchecked() -> Avx2 {
        Avx2(())
    }

    /// Expands `words` into `out` (`out.len() == 64 * words.len()`).
    #[inline]
    pub(crate) fn expand(self, words: &[u64], out: &mut [u8]) {
        assert_eq!(out.len(), words.len() * 64);
        // SAFETY: `self` proves AVX2; the lengths were checked above.
        unsafe { expand_avx2(words, out) }
    }
}

/// # Safety
///
/// - The CPU must support AVX2.
/// - `out.len() == 64 * words.len()`.
#[target_feature(enable = "avx2")]
unsafe fn expand_avx2(words: &[u64], out: &mut [u8]) {
    #[rustfmt::skip]
    let spread_lo = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    );
    #[rustfmt::skip]
    let spread_hi = _mm256_setr_epi8(
        4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
        6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
    );
    let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let one = _mm256_set1_epi8(1);
    let p = out.as_mut_ptr().cast::<__m256i>();

    let mut i = 0;
    while i + 4 <= words.len() {
        for j in 0..4 {
            let (a, b) = two(words[i + j], spread_lo, spread_hi, bits, one);
            // SAFETY: `out` holds `64 * words.len()` bytes and `i + j <
            // words.len()`, so the 64 bytes at `64 * (i + j)` (two 32-byte
            // vectors) are inside it; `storeu` needs no alignment.
            unsafe {
                _mm256_storeu_si256(p.add(2 * (i + j)), a);
                _mm256_storeu_si256(p.add(2 * (i + j) + 1), b);
            }
        }
        i += 4;
    }
    while i < words.len() {
        let (a, b) = two(words[i], spread_lo, spread_hi, bits, one);
        // SAFETY: as above, with `i < words.len()`.
        unsafe {
            _mm256_storeu_si256(p.add(2 * i), a);
            _mm256_storeu_si256(p.add(2 * i + 1), b);
        }
        i += 1;
    }
}

/// Expands one word into two vectors of 32 bytes of 0/1.
#[target_feature(enable = "avx2")]
#[inline]
fn two(w: u64, lo: __m256i, hi: __m256i, bits: __m256i, one: __m256i) -> (__m256i, __m256i) {
    let v = _mm256_set1_epi64x(w as i64);
    let a = _mm256_min_epu8(_mm256_and_si256(_mm256_shuffle_epi8(v, lo), bits), one);
    let b = _mm256_min_epu8(_mm256_and_si256(_mm256_shuffle_epi8(v, hi), bits), one);
    (a, b)
}

impl Avx2 {
    /// Packs `bytes` into `out`, 64 bytes per 8-byte little-endian word
    /// (`bytes.len() == 8 * out.len()`): bit `i` is `bytes[i] != 0`.
    #[inline]
    pub(crate) fn pack(self, bytes: &[u8], out: &mut [u8]) {
        assert_eq!(bytes.len(), out.len() * 8);
        // SAFETY: `self` proves AVX2; the lengths were checked above.
        unsafe { pack_avx2(bytes, out) }
    }
}

/// `vpmovmskb` of `vpcmpeqb(x, 0)`, inverted: 32 bytes per instruction.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `bytes.len() == 8 * out.len()`.
#[target_feature(enable = "avx2")]
unsafe fn pack_avx2(bytes: &[u8], out: &mut [u8]) {
    let zero = _mm256_setzero_si256();
    let p = bytes.as_ptr().cast::<__m256i>();
    for (i, dst) in out.chunks_exact_mut(8).enumerate() {
        // SAFETY: `bytes` holds `64 * (out.len() / 8)` bytes and `i` is
        // below `out.len() / 8`, so the 64 bytes at `64 * i` (two 32-byte
        // vectors) are inside it; `loadu` needs no alignment.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(p.add(2 * i)),
                _mm256_loadu_si256(p.add(2 * i + 1)),
            )
        };
        let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, zero)) as u32;
        let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(b, zero)) as u32;
        let w = !(u64::from(lo) | (u64::from(hi) << 32));
        dst.copy_from_slice(&w.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_oracle() {
        match crate::raw::Kernel::avx2() {
            Some(k) => crate::raw::tests::check_kernel(k),
            None => std::eprintln!("AVX2 not available on this CPU: kernel not tested here"),
        }
    }

    #[test]
    fn pack_matches_the_oracle() {
        match crate::raw::Kernel::avx2() {
            Some(k) => crate::pack::tests::check_pack_kernel(k),
            None => std::eprintln!("AVX2 not available on this CPU: pack kernel not tested here"),
        }
    }
}
