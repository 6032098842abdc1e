//! AVX2 selection vectors: a 256-entry table holds the bit positions of
//! every byte value (8 bytes an entry, 2 KiB); each bitmap byte loads its
//! entry, widens it to eight `u32` lanes (`vpmovzxbd`), adds the byte's first
//! index and stores 32 bytes, then the output advances by the byte's
//! popcount. Branch-free: the cost per word is the same at any density, so
//! sparse blocks go to the trailing-zero loop instead (see
//! [`SIMD_MIN_PER_MILLE`](crate::raw::SIMD_MIN_PER_MILLE)).
//!
//! The counts are the portable code compiled with AVX2 and POPCNT (LLVM
//! vectorises them).

use crate::arch::indices::{count_source, drive, Decode, Source};
use crate::arch::portable_indices::{
    count_bytes_generic, count_nonzero_generic, decode_with_slack, Sparse,
};
use core::arch::x86_64::*;

/// Proof that the CPU supports AVX2, BMI1 and POPCNT.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Avx2Indices(());

impl Avx2Indices {
    /// `Some` when the CPU supports AVX2, BMI1 and POPCNT (with `std`: asked
    /// at run time; without: the compile-time target features).
    #[inline]
    pub(crate) fn new() -> Option<Avx2Indices> {
        #[cfg(feature = "std")]
        let yes = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("popcnt");
        #[cfg(not(feature = "std"))]
        let yes = cfg!(all(
            target_feature = "avx2",
            target_feature = "bmi1",
            target_feature = "popcnt"
        ));
        yes.then_some(Avx2Indices(()))
    }

    /// # Safety
    ///
    /// - The CPU must support AVX2, BMI1 and POPCNT.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[inline]
    pub(crate) unsafe fn new_unchecked() -> Avx2Indices {
        Avx2Indices(())
    }

    /// Every block of `src` into `out` (`out.len()` at least the count).
    #[inline]
    pub(crate) fn indices<S: Source>(self, src: S, base: u32, out: &mut [u32]) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { indices_avx2(self, src, base, out) }
    }

    /// The number of set bits of `src`.
    #[inline]
    pub(crate) fn count<S: Source>(self, src: S) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { count_avx2(src) }
    }

    /// See `IndicesKernel::count_bytes`.
    #[inline]
    pub(crate) fn count_bytes(self, values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { count_bytes_avx2(values, validity, neg) }
    }

    /// The number of non-zero bytes of `mask`.
    #[inline]
    pub(crate) fn count_nonzero(self, mask: &[u8]) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { count_nonzero_avx2(mask) }
    }
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn indices_avx2<S: Source>(token: Avx2Indices, src: S, base: u32, out: &mut [u32]) -> usize {
    drive(src, &Sparse, &Table(token), base, out)
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn count_avx2<S: Source>(src: S) -> usize {
    count_source(src)
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn count_bytes_avx2(values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
    count_bytes_generic(values, validity, neg)
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn count_nonzero_avx2(mask: &[u8]) -> usize {
    count_nonzero_generic(mask)
}

/// `POSITIONS[b]`: the positions of the set bits of `b`, ascending, then 0s.
static POSITIONS: [[u8; 8]; 256] = positions();

const fn positions() -> [[u8; 8]; 256] {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut n) = (0, 0);
        while i < 8 {
            if (b >> i) & 1 == 1 {
                t[b][n] = i as u8;
                n += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// The table decoder; holding the token proves AVX2.
struct Table(Avx2Indices);

impl Decode for Table {
    #[inline(always)]
    fn decode(&self, words: &[u64], base: u32, out: &mut [u32]) -> usize {
        decode_with_slack(words, base, out, |w, b, dst| {
            // SAFETY: `self.0` proves AVX2 and POPCNT.
            unsafe { table_word(w, b, dst) }
        })
    }
}

/// One word: eight table loads, eight 32-byte stores; returns the popcount.
///
/// # Safety
///
/// - The CPU must support AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn table_word(w: u64, base: u32, dst: &mut [u32; 64]) -> usize {
    let eight = _mm256_set1_epi32(8);
    let mut first = _mm256_set1_epi32(base as i32);
    let mut pos = 0usize;
    for k in 0..8 {
        let byte = (w >> (8 * k)) as u8;
        // SAFETY: an entry is 8 bytes; `loadl` reads 8 bytes, unaligned.
        let bits = unsafe { _mm_loadl_epi64(POSITIONS[usize::from(byte)].as_ptr().cast()) };
        let v = _mm256_add_epi32(_mm256_cvtepu8_epi32(bits), first);
        // SAFETY: `pos` is the popcount of the bytes before byte `k`, at most
        // `8 * k <= 56`, so the 8 lanes at `pos` are inside the 64 of `dst`.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(pos).cast(), v) };
        pos += byte.count_ones() as usize;
        first = _mm256_add_epi32(first, eight);
    }
    pos
}

#[cfg(test)]
mod tests {
    use crate::raw::IndicesKernel;

    #[test]
    fn matches_the_oracle() {
        match IndicesKernel::avx2() {
            Some(k) => crate::indices::tests::check_kernel(k),
            None => {
                std::eprintln!("AVX2 not available on this CPU: indices kernel not tested here")
            }
        }
    }

    #[test]
    fn every_table_entry_lists_the_set_bits() {
        for (b, entry) in super::POSITIONS.iter().enumerate() {
            let want: std::vec::Vec<u8> = (0..8).filter(|i| (b >> i) & 1 == 1).collect();
            assert_eq!(&entry[..want.len()], &want[..], "byte {b:#04x}");
            assert!(entry[want.len()..].iter().all(|&p| p == 0), "byte {b:#04x}");
        }
    }
}
