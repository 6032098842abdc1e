//! AVX-512BW: a 64-row word is a mask register; `vmovdqu8` with zero-masking
//! of a vector of ones writes the 64 output bytes in one instruction.
//!
//! Chosen only where the CPU reports AVX-512BW. Its test runs wherever that
//! holds; the dispatcher skips it elsewhere.

use crate::arch::for_each_word;
use crate::bits::Words;
use core::arch::x86_64::*;

/// Proof that the CPU supports AVX-512BW (and AVX-512F).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU supports AVX-512F and AVX-512BW (with `std`: asked
    /// at run time; without: the compile-time target features).
    #[inline]
    pub(crate) fn new() -> Option<Avx512> {
        #[cfg(feature = "std")]
        let yes =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw");
        #[cfg(not(feature = "std"))]
        let yes = cfg!(all(target_feature = "avx512f", target_feature = "avx512bw"));
        if yes {
            Some(Avx512(()))
        } else {
            None
        }
    }

    /// # Safety
    ///
    /// - The CPU must support AVX-512F and AVX-512BW.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[inline]
    pub(crate) unsafe fn new_unchecked() -> Avx512 {
        Avx512(())
    }

    /// Writes word `j` of `(values ^ neg) & validity` as 64 bytes of 0/1
    /// at `out[64 * j..]` (lengths checked by [`crate::raw::Kernel`]).
    #[inline]
    pub(crate) fn expand(
        self,
        values: Words<'_>,
        validity: Option<Words<'_>>,
        neg: u64,
        out: &mut [u8],
    ) {
        for_each_word(values, validity, neg, out, |w, dst| {
            // SAFETY: `self` proves AVX-512F and AVX-512BW.
            unsafe { expand_word(w, dst) }
        });
    }
}

/// Expands one word into 64 bytes of 0/1: the word is the byte mask.
///
/// # Safety
///
/// - The CPU must support AVX-512F and AVX-512BW.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn expand_word(w: u64, dst: &mut [u8; 64]) {
    let v = _mm512_maskz_mov_epi8(w, _mm512_set1_epi8(1));
    // SAFETY: `dst` is exactly 64 bytes; `storeu` needs no alignment.
    unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast::<__m512i>(), v) };
}

impl Avx512 {
    /// Packs `bytes` into `out`, 64 bytes per 8-byte little-endian word
    /// (`bytes.len() == 8 * out.len()`): bit `i` is `bytes[i] != 0`.
    #[inline]
    pub(crate) fn pack(self, bytes: &[u8], out: &mut [u8]) {
        assert_eq!(bytes.len(), out.len() * 8);
        // SAFETY: `self` proves AVX-512BW; the lengths were checked above.
        unsafe { pack_avx512(bytes, out) }
    }
}

/// `vptestmb`: one 64-byte load and one mask register per word.
///
/// # Safety
///
/// - The CPU must support AVX-512F and AVX-512BW.
/// - `bytes.len() == 8 * out.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn pack_avx512(bytes: &[u8], out: &mut [u8]) {
    let p = bytes.as_ptr().cast::<__m512i>();
    for (i, dst) in out.chunks_exact_mut(8).enumerate() {
        // SAFETY: `bytes` holds `64 * (out.len() / 8)` bytes and `i` is
        // below `out.len() / 8`, so the 64 bytes at `64 * i` are inside it;
        // `loadu` needs no alignment.
        let v = unsafe { _mm512_loadu_si512(p.add(i)) };
        dst.copy_from_slice(&_mm512_test_epi8_mask(v, v).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_oracle() {
        match crate::raw::Kernel::avx512() {
            Some(k) => crate::raw::tests::check_kernel(k),
            None => std::eprintln!("AVX-512BW not available on this CPU: kernel not tested here"),
        }
    }

    #[test]
    fn pack_matches_the_oracle() {
        match crate::raw::Kernel::avx512() {
            Some(k) => crate::pack::tests::check_pack_kernel(k),
            None => {
                std::eprintln!("AVX-512BW not available on this CPU: pack kernel not tested here")
            }
        }
    }
}
