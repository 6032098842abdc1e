//! AVX-512BW with GFNI: the whole word loop runs inside one function
//! compiled for these features. Eight words at a time are shift-merged,
//! negated and masked in 512-bit registers; one `gf2p8affineqb` per word then
//! turns the word (broadcast to all lanes) into its 64 bytes of 0/1, and one
//! 64-byte store writes them (see [`expand_avx512`] for the measurements
//! behind this layout). Packing uses `vptestmb`.
//!
//! Chosen only where the CPU reports AVX-512F, AVX-512BW and GFNI (Intel Ice
//! Lake and later, AMD Zen 4 and later); CPUs with AVX-512BW but no GFNI
//! (Skylake-SP, Cascade Lake) use AVX2. Its tests run wherever the features
//! hold.

use crate::bits::Words;
use core::arch::x86_64::*;

/// Proof that the CPU supports AVX-512F, AVX-512BW and GFNI.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU supports AVX-512F, AVX-512BW and GFNI (with
    /// `std`: asked at run time; without: the compile-time target features).
    #[inline]
    pub(crate) fn new() -> Option<Avx512> {
        #[cfg(feature = "std")]
        let yes = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("gfni");
        #[cfg(not(feature = "std"))]
        let yes = cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "gfni"
        ));
        if yes {
            Some(Avx512(()))
        } else {
            None
        }
    }

    /// # Safety
    ///
    /// - The CPU must support AVX-512F, AVX-512BW and GFNI.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[inline]
    pub(crate) unsafe fn new_unchecked() -> Avx512 {
        Avx512(())
    }
}

impl Avx512 {
    /// Writes word `j` of `(values ^ neg) & validity` as 64 bytes of 0/1
    /// at `out[64 * j..]` (lengths checked by [`crate::raw::Kernel`]).
    /// With `stream` and a 64-byte aligned `out`, the stores are
    /// non-temporal.
    #[inline]
    pub(crate) fn expand(
        self,
        values: Words<'_>,
        validity: Option<Words<'_>>,
        neg: u64,
        out: &mut [u8],
        stream: bool,
    ) {
        let stream = stream && out.as_ptr().align_offset(64) == 0;
        // SAFETY: `self` proves AVX-512F, AVX-512BW and GFNI;
        // `Kernel::expand` checked `out.len() == 64 * values.len()` and the
        // validity length; `stream` only with a 64-byte aligned `out`.
        unsafe {
            match (validity, stream) {
                (None, false) => expand_avx512::<false, false>(values, values, neg, out),
                (None, true) => expand_avx512::<false, true>(values, values, neg, out),
                (Some(m), false) => expand_avx512::<true, false>(values, m, neg, out),
                (Some(m), true) => expand_avx512::<true, true>(values, m, neg, out),
            }
        }
    }
}

/// Words per block: the first pass of [`expand_avx512`] prepares this many
/// words into a 256-byte scratch array, the second expands them.
const BLOCK: usize = 32;

/// Scratch for one block of prepared words, one cache line per 8 words.
#[repr(C, align(64))]
struct Block([u64; BLOCK]);

/// The whole word loop, in one function compiled for AVX-512 (nothing in it
/// is a call), in blocks of [`BLOCK`] words and two passes per block:
///
/// 1. Eight words at a time in one 512-bit register per bitmap: one load of
///    the 8 words, `valignq` for the word after each, and two shifts and an
///    `or` merge the bit offset (a shift count of 64 clears, so offset 0
///    needs no branch); one `vpternlogq` computes `(v ^ neg) & m`. A
///    `gf2p8affineqb` then transposes each word's 8x8 bit matrix, and the
///    eight words go to the aligned scratch block.
/// 2. Each word is broadcast from the scratch block to all eight lanes and
///    one more `gf2p8affineqb` moves bit `i` of the word into bit 0 of byte
///    `i` and clears the rest: one instruction from a word to its 64 bytes
///    of 0/1, then one 64-byte store.
///
/// Fewer than eight words at the end go one by one through a mask register
/// (`vmovdqu8` with zero-masking of a vector of ones).
///
/// Why two passes and GFNI: measured 2026-11-30 on an AMD EPYC, CPUID family
/// 25 model 17 (Zen 4, 512-bit operations issued as two 256-bit halves), at
/// 64 Ki rows into a 64-byte aligned output, against `fill` of the same
/// bytes: a mask register per word (scalar shift-merge, `kmovq`,
/// `vmovdqu8`) ran at 0.50; extracting words from the 512-bit register into
/// mask registers 0.57; `vpmultishiftqb` per word 0.62; this layout with two
/// loads per 8 words (at byte offsets 0 and 1) 0.71, and with one load and
/// `valignq` 0.74, offset 3 as fast as offset 0.
///
/// Tried later the same day in a standalone loop (same CPU, no call
/// overhead, output 16 bytes past a 64-byte boundary): VBMI2's `vpshrdvq` for the shift-merge (one
/// instruction instead of two shifts and an `or`) ran at exactly the speed of
/// this merge (0.70 of `fill` at 4 Ki rows, 0.66 at 64 Ki), so the kernel
/// does not ask for VBMI2; skipping the merge when both bitmaps start on a
/// byte boundary gained 5 to 15% there but nothing measurable through
/// `unpack`; extracting each word with `vpermq` instead of the scratch
/// block, double-buffering the block, and moving the block away from 4 KiB
/// aliasing with the output all ran within 3% of this layout, blocks of 64
/// to 256 words within about 5%, and blocks of 8 or 16 words 10 to 20%
/// slower. `examples/limits` shows why: reading the two bitmaps alone
/// caps any kernel at about 0.8 of `fill` on this CPU.
///
/// # Safety
///
/// - The CPU must support AVX-512F, AVX-512BW and GFNI.
/// - `out.len() == 64 * values.len()`; with `VALID`, `validity.len() ==
///   values.len()` (without, `validity` is ignored).
/// - With `STREAM`, `out` is 64-byte aligned.
#[target_feature(enable = "avx512f,avx512bw,gfni")]
unsafe fn expand_avx512<const VALID: bool, const STREAM: bool>(
    values: Words<'_>,
    validity: Words<'_>,
    neg: u64,
    out: &mut [u8],
) {
    let n = values.len();
    let (vp, vs) = (values.bytes().as_ptr(), values.shift());
    let (mp, ms) = (validity.bytes().as_ptr(), validity.shift());
    let negv = _mm512_set1_epi64(neg as i64);
    let counts = |shift: u32| {
        (
            _mm_cvtsi32_si128(shift as i32),
            _mm_cvtsi32_si128(64 - shift as i32),
        )
    };
    let (vlo, vhi) = counts(vs);
    let (mlo, mhi) = counts(ms);
    // Pass 1's transpose: byte j, bit i of the result is bit j of the word's
    // byte 7 - i.
    let transpose = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    // Pass 2: lane L (output bytes 8L..8L + 8) takes bit 7 - L of each
    // transposed byte into bit 0, and nothing else.
    let select = _mm512_set_epi64(
        1 << 56,
        2 << 56,
        4 << 56,
        8 << 56,
        16 << 56,
        32 << 56,
        64 << 56,
        -128 << 56,
    );
    // Words j..j + 8 of a window (`j + 8 <= n`), and the one byte after them
    // that the shift-merge of the eighth word needs: a whole vector when the
    // window holds one (it is the next group's words), else that byte alone.
    let load = |p: *const u8, j: usize| -> __m512i {
        // SAFETY: the window holds 8n + 1 bytes and j + 8 <= n, so bytes
        // 8j..8j + 64 are inside it.
        unsafe { _mm512_loadu_si512(p.add(8 * j).cast()) }
    };
    let next = |p: *const u8, j: usize| -> __m512i {
        if j + 16 <= n {
            load(p, j + 8)
        } else {
            // SAFETY: byte 8(j + 8) <= 8n is the window's last byte at most;
            // the masked load reads that byte alone.
            unsafe { _mm512_maskz_loadu_epi8(1, p.add(8 * (j + 8)).cast()) }
        }
    };
    let merge = |cur: __m512i, nxt: __m512i, lo: __m128i, hi: __m128i| -> __m512i {
        let up = _mm512_alignr_epi64::<1>(nxt, cur);
        _mm512_or_si512(_mm512_srl_epi64(cur, lo), _mm512_sll_epi64(up, hi))
    };
    let dst = out.as_mut_ptr();
    let mut block = core::mem::MaybeUninit::<Block>::uninit();
    let mut j = 0;
    while j + 8 <= n {
        let words = (BLOCK / 8).min((n - j) / 8);
        let (mut cur_v, mut cur_m) = (load(vp, j), if VALID { load(mp, j) } else { negv });
        for b in 0..words {
            let j = j + 8 * b;
            let nv = next(vp, j);
            let v = merge(cur_v, nv, vlo, vhi);
            cur_v = nv;
            let w = if VALID {
                let nm = next(mp, j);
                let m = merge(cur_m, nm, mlo, mhi);
                cur_m = nm;
                _mm512_ternarylogic_epi64::<0x28>(v, negv, m) // (v ^ neg) & m
            } else {
                _mm512_xor_si512(v, negv)
            };
            let t = _mm512_gf2p8affine_epi64_epi8::<0>(transpose, w);
            // SAFETY: `Block` holds BLOCK words, 64-byte aligned, and
            // b < BLOCK / 8.
            unsafe { _mm512_store_si512(block.as_mut_ptr().cast::<u64>().add(8 * b).cast(), t) };
        }
        // Opaque to the optimiser: pass 2 broadcasts each word from memory
        // instead of extracting it from the registers of pass 1.
        let prepared = core::hint::black_box(block.as_ptr().cast::<u64>());
        for i in 0..8 * words {
            // SAFETY: pass 1 wrote words 0..8 * words of the block.
            let w = unsafe { prepared.add(i).read() };
            let x = _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(w as i64), select);
            // SAFETY: word j + i < n, so its 64 bytes are inside `out`
            // (64n bytes); 64-byte aligned when streaming.
            unsafe { store::<STREAM>(dst.add(64 * (j + i)), x) };
        }
        j += 8 * words;
    }
    let ones = _mm512_set1_epi8(1);
    let rest = values.split_at(j).1.iter();
    let rest_m = validity.split_at(if VALID { j } else { 0 }).1.iter();
    for (i, (v, m)) in rest.zip(rest_m).enumerate() {
        let w = if VALID { (v ^ neg) & m } else { v ^ neg };
        // SAFETY: as above, word j + i < n.
        unsafe { store::<STREAM>(dst.add(64 * (j + i)), _mm512_maskz_mov_epi8(w, ones)) };
    }
    if STREAM {
        // Order the streaming stores before any later store of this thread.
        _mm_sfence();
    }
}

/// Stores 64 bytes at `dst`, non-temporal with `STREAM`.
///
/// # Safety
///
/// - The CPU must support AVX-512F.
/// - `dst` is valid for 64 bytes of writes; 64-byte aligned with `STREAM`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn store<const STREAM: bool>(dst: *mut u8, v: __m512i) {
    // SAFETY: the caller's contract.
    unsafe {
        if STREAM {
            _mm512_stream_si512(dst.cast(), v)
        } else {
            _mm512_storeu_si512(dst.cast(), v)
        }
    }
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
    for (word, dst) in bytes.chunks_exact(64).zip(out.chunks_exact_mut(8)) {
        let word: &[u8; 64] = word.try_into().expect("chunks of 64");
        // SAFETY: the caller's CPU has AVX-512F and BW (this function's
        // contract).
        dst.copy_from_slice(&unsafe { pack_word(word) }.to_le_bytes());
    }
}

/// One word of [`pack_avx512`]: bit `i` is `bytes[i] != 0` (one 64-byte
/// load and `vptestmb`). Also packs a word's `[bool; 64]` answers in the
/// statistics kernels.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512BW.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn pack_word(bytes: &[u8; 64]) -> u64 {
    // SAFETY: `bytes` is 64 bytes; `loadu` needs no alignment.
    let v = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
    _mm512_test_epi8_mask(v, v)
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
