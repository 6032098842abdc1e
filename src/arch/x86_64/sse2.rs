//! SSE2: baseline on every x86_64 CPU. Three rounds of `punpckl/h` spread each
//! bitmap byte over eight lanes, then `and` with the per-lane bit and
//! `min(x, 1)` give 0/1 bytes: four 16-byte stores per 64 rows.

use crate::arch::for_each_word;
use crate::bits::Words;
use core::arch::x86_64::*;

/// Proof that SSE2 is available (always, on x86_64).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Sse2(());

impl Sse2 {
    /// SSE2 is part of the x86_64 baseline, so this always succeeds.
    #[inline]
    pub(crate) fn new() -> Sse2 {
        Sse2(())
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
        stream: bool,
    ) {
        // Streaming stores need 16-byte alignment; every word's 64 output
        // bytes start a multiple of 64 bytes after `out`.
        if stream && out.as_ptr().align_offset(16) == 0 {
            for_each_word(values, validity, neg, out, |w, dst| {
                // SAFETY: SSE2 is part of the x86_64 baseline; `dst` is
                // 16-byte aligned (checked above).
                unsafe { expand_word::<true>(w, dst) }
            });
            // SAFETY: SSE2 is part of the x86_64 baseline. Orders the
            // streaming stores before any later store of this thread.
            unsafe { _mm_sfence() };
        } else {
            for_each_word(values, validity, neg, out, |w, dst| {
                // SAFETY: SSE2 is part of the x86_64 baseline.
                unsafe { expand_word::<false>(w, dst) }
            });
        }
    }
}

/// Expands one word into 64 bytes of 0/1.
///
/// # Safety
///
/// - With `STREAM`, `dst` must be 16-byte aligned (the stores are then
///   non-temporal; the caller fences).
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn expand_word<const STREAM: bool>(w: u64, dst: &mut [u8; 64]) {
    let bits = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let one = _mm_set1_epi8(1);
    let v = _mm_cvtsi64_si128(w as i64);
    let x = _mm_unpacklo_epi8(v, v); // b0 b0 b1 b1 .. b7 b7
    let lo = _mm_unpacklo_epi16(x, x); // b0 x4 .. b3 x4
    let hi = _mm_unpackhi_epi16(x, x); // b4 x4 .. b7 x4
    let q = [
        _mm_unpacklo_epi32(lo, lo), // b0 x8, b1 x8
        _mm_unpackhi_epi32(lo, lo), // b2 x8, b3 x8
        _mm_unpacklo_epi32(hi, hi), // b4 x8, b5 x8
        _mm_unpackhi_epi32(hi, hi), // b6 x8, b7 x8
    ];
    let p = dst.as_mut_ptr().cast::<__m128i>();
    for (j, q) in q.into_iter().enumerate() {
        let r = _mm_min_epu8(_mm_and_si128(q, bits), one);
        // SAFETY: `dst` is 64 bytes long, so the 16 bytes at `16 * j` for
        // `j < 4` are inside it; `storeu` has no alignment requirement, and
        // with STREAM the caller guarantees 16-byte alignment.
        unsafe {
            if STREAM {
                _mm_stream_si128(p.add(j), r)
            } else {
                _mm_storeu_si128(p.add(j), r)
            }
        };
    }
}

impl Sse2 {
    /// Packs `bytes` into `out`, 64 bytes per 8-byte little-endian word
    /// (`bytes.len() == 8 * out.len()`): bit `i` is `bytes[i] != 0`.
    #[inline]
    pub(crate) fn pack(self, bytes: &[u8], out: &mut [u8]) {
        assert_eq!(bytes.len(), out.len() * 8);
        // SAFETY: SSE2 is part of the x86_64 baseline; the lengths were
        // checked above.
        unsafe { pack_sse2(bytes, out) }
    }
}

/// `movemask` of `cmpeq(x, 0)`, inverted: 16 bytes per instruction.
///
/// # Safety
///
/// - `bytes.len() == 8 * out.len()`.
#[target_feature(enable = "sse2")]
unsafe fn pack_sse2(bytes: &[u8], out: &mut [u8]) {
    let zero = _mm_setzero_si128();
    let p = bytes.as_ptr().cast::<__m128i>();
    for (i, dst) in out.chunks_exact_mut(8).enumerate() {
        let mut zeros = 0u64;
        for j in 0..4 {
            // SAFETY: `bytes` holds `64 * (out.len() / 8)` bytes and `i` is
            // below `out.len() / 8`, `j < 4`, so the 16 bytes at
            // `64 * i + 16 * j` are inside it; `loadu` needs no alignment.
            let v = unsafe { _mm_loadu_si128(p.add(4 * i + j)) };
            let m = _mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) as u32;
            zeros |= u64::from(m) << (16 * j);
        }
        dst.copy_from_slice(&(!zeros).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_oracle() {
        crate::raw::tests::check_kernel(super::super::super::Kernel::sse2().unwrap());
    }

    #[test]
    fn pack_matches_the_oracle() {
        crate::pack::tests::check_pack_kernel(super::super::super::Kernel::sse2().unwrap());
    }
}
