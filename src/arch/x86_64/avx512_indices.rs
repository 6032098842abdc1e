//! AVX-512 VBMI2 selection vectors: `vpcompressb` of the bytes `0..64` by the
//! word itself leaves the positions of its set bits in the low bytes of a
//! vector (simdjson and CRoaring do this); four `vpmovzxbd` widen them to
//! `u32`, one add puts the word's first index on, four 64-byte stores. When
//! fewer than 64 slots are left in the output, the stores are masked to the
//! word's count, so the last word writes exactly.
//!
//! The counts are the portable code compiled with AVX-512 (BW for the
//! byte compares, VPOPCNTDQ for `vpopcntq`).

use crate::arch::indices::{count_source, drive, Decode, Source};
use crate::arch::portable_indices::{count_bytes_generic, count_nonzero_generic, Sparse};
use core::arch::x86_64::*;

/// Proof that the CPU supports AVX-512 F, BW, VBMI2 and VPOPCNTDQ, BMI1 and
/// POPCNT.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Vbmi2Indices(());

impl Vbmi2Indices {
    /// `Some` when the CPU supports every feature the kernel uses (with
    /// `std`: asked at run time; without: the compile-time target features).
    #[inline]
    pub(crate) fn new() -> Option<Vbmi2Indices> {
        #[cfg(feature = "std")]
        let yes = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi2")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("popcnt");
        #[cfg(not(feature = "std"))]
        let yes = cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512vbmi2",
            target_feature = "avx512vpopcntdq",
            target_feature = "bmi1",
            target_feature = "popcnt"
        ));
        yes.then_some(Vbmi2Indices(()))
    }

    /// # Safety
    ///
    /// - The CPU must support AVX-512 F, BW, VBMI2 and VPOPCNTDQ, BMI1 and
    ///   POPCNT.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[inline]
    pub(crate) unsafe fn new_unchecked() -> Vbmi2Indices {
        Vbmi2Indices(())
    }

    /// Every block of `src` into `out` (`out.len()` at least the count).
    #[inline]
    pub(crate) fn indices<S: Source>(self, src: S, base: u32, out: &mut [u32]) -> usize {
        // SAFETY: `self` proves every feature `indices_vbmi2` enables.
        unsafe { indices_vbmi2(self, src, base, out) }
    }

    /// The number of set bits of `src`.
    #[inline]
    pub(crate) fn count<S: Source>(self, src: S) -> usize {
        // SAFETY: `self` proves every feature `count_vbmi2` enables.
        unsafe { count_vbmi2(src) }
    }

    /// See `IndicesKernel::count_bytes`.
    #[inline]
    pub(crate) fn count_bytes(self, values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
        // SAFETY: `self` proves every feature `count_bytes_vbmi2` enables.
        unsafe { count_bytes_vbmi2(values, validity, neg) }
    }

    /// The number of non-zero bytes of `mask`.
    #[inline]
    pub(crate) fn count_nonzero(self, mask: &[u8]) -> usize {
        // SAFETY: `self` proves every feature `count_nonzero_vbmi2` enables.
        unsafe { count_nonzero_vbmi2(mask) }
    }
}

/// # Safety
///
/// - The CPU must support every feature enabled here.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq,bmi1,popcnt")]
unsafe fn indices_vbmi2<S: Source>(
    token: Vbmi2Indices,
    src: S,
    base: u32,
    out: &mut [u32],
) -> usize {
    drive(src, &Sparse, &Compress(token), base, out)
}

/// # Safety
///
/// - The CPU must support every feature enabled here.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq,bmi1,popcnt")]
unsafe fn count_vbmi2<S: Source>(src: S) -> usize {
    count_source(src)
}

/// # Safety
///
/// - The CPU must support every feature enabled here.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq,bmi1,popcnt")]
unsafe fn count_bytes_vbmi2(values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
    count_bytes_generic(values, validity, neg)
}

/// # Safety
///
/// - The CPU must support every feature enabled here.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq,bmi1,popcnt")]
unsafe fn count_nonzero_vbmi2(mask: &[u8]) -> usize {
    count_nonzero_generic(mask)
}

/// The bytes `0, 1, ..., 63`.
static IOTA: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// The `vpcompressb` decoder; holding the token proves the CPU features.
struct Compress(Vbmi2Indices);

impl Decode for Compress {
    #[inline(always)]
    fn decode(&self, words: &[u64], base: u32, out: &mut [u32]) -> usize {
        let mut pos = 0;
        for (j, &w) in words.iter().enumerate() {
            let b = base.wrapping_add(64 * j as u32);
            let count = w.count_ones() as usize;
            let dst = &mut out[pos..];
            // Full stores while 64 slots remain, masked ones near the end.
            let exact = dst.len() < 64;
            assert!(dst.len() >= count, "output shorter than the count");
            // SAFETY: `self.0` proves the features; `dst` holds at least 64
            // slots, or at least `count` when `exact`, which is all
            // `compress_word` stores then.
            unsafe { compress_word(w, b, dst.as_mut_ptr(), exact) };
            pos += count;
        }
        pos
    }
}

/// One word: compress, widen, add, store (masked to the count when `exact`).
///
/// # Safety
///
/// - The CPU must support AVX-512 F, BW and VBMI2.
/// - `dst` is valid for 64 `u32` writes, or for `w.count_ones()` when `exact`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
unsafe fn compress_word(w: u64, base: u32, dst: *mut u32, exact: bool) {
    // SAFETY: `IOTA` is 64 bytes; `loadu` needs no alignment.
    let iota = unsafe { _mm512_loadu_si512(IOTA.as_ptr().cast()) };
    let packed = _mm512_maskz_compress_epi8(w, iota);
    let first = _mm512_set1_epi32(base as i32);
    let lanes = [
        _mm512_extracti32x4_epi32::<0>(packed),
        _mm512_extracti32x4_epi32::<1>(packed),
        _mm512_extracti32x4_epi32::<2>(packed),
        _mm512_extracti32x4_epi32::<3>(packed),
    ];
    // Bit `i` set for the first `count` slots.
    let keep = if w == u64::MAX {
        u64::MAX
    } else {
        (1u64 << w.count_ones()) - 1
    };
    for (k, l) in lanes.into_iter().enumerate() {
        let v = _mm512_add_epi32(_mm512_cvtepu8_epi32(l), first);
        if !exact {
            // SAFETY: the 16 slots at `16 * k` are inside the 64 of `dst`.
            unsafe { _mm512_storeu_si512(dst.add(16 * k).cast(), v) };
        } else if keep >> (16 * k) != 0 {
            // SAFETY: slot `16 * k` is below the count, so inside `dst`; the
            // mask keeps only the slots below the count, and a masked store
            // does not touch the others.
            unsafe {
                _mm512_mask_storeu_epi32(dst.add(16 * k).cast(), (keep >> (16 * k)) as u16, v)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::raw::IndicesKernel;

    #[test]
    fn matches_the_oracle() {
        match IndicesKernel::avx512vbmi2() {
            Some(k) => crate::indices::tests::check_kernel(k),
            None => std::eprintln!(
                "AVX-512 VBMI2 not available on this CPU: indices kernel not tested here"
            ),
        }
    }
}
