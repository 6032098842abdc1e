//! AVX2: broadcast a 64-row word to all lanes, `vpshufb` so that each output
//! byte holds its source bitmap byte, `and` (or `andnot`, to negate) with the
//! per-lane bit and a saturating subtract of `bit - 1`: two 32-byte stores
//! per 64 rows.
//!
//! Values without validity that start on a byte boundary are broadcast
//! straight from the input. Otherwise a block of words is first masked by
//! validity (negated with `andnot`) and shift-merged, four words per vector,
//! into a small buffer, then each word is broadcast from it. When values and
//! validity share their bit shift (always, through [`crate::unpack`]) the
//! masking comes first and one shift-merge serves both, in 16-bit lanes.
//!
//! Measured here (AMD EPYC, family 23: 256-bit operations issue as two
//! 128-bit halves, one 16-byte store per cycle): the spread alone ran at
//! 0.84 of a plain store loop (which matches `fill`) in a scratch benchmark;
//! each extra vector operation per word costs measurably, which is why
//! negation is folded into `andnot` and the normalising pass works on four
//! words per instruction.

use crate::arch::for_each_word;
use crate::bits::Words;
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
        // SAFETY: `self` proves AVX2.
        unsafe { expand_avx2(values, validity, neg, out, stream) }
    }
}

/// Four words at a time through [`body`], the rest one by one.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `out.len() == 64 * values.len()`, and `validity` has `values.len()`
///   words (checked by `Kernel::expand`).
#[target_feature(enable = "avx2")]
unsafe fn expand_avx2(
    values: Words<'_>,
    validity: Option<Words<'_>>,
    neg: u64,
    out: &mut [u8],
    stream: bool,
) {
    let n4 = values.len() / 4 * 4;
    let (body_values, rest_values) = values.split_at(n4);
    let (body_out, rest_out) = out.split_at_mut(64 * n4);
    // Streaming stores need 32-byte alignment; `out` starts a 64-byte
    // output block per word, so its start decides for every store.
    let stream = stream && body_out.as_ptr().align_offset(32) == 0;
    let body_valid = validity.map(|v| v.split_at(n4));
    // The windows have `n4` words and `body_out` has `64 * n4` bytes (split
    // above); with STREAM, `body_out` is 32-byte aligned (checked above).
    // SAFETY (every arm): AVX2 is enabled; lengths and alignment as said
    // above; `v` has `n4` words too.
    macro_rules! run {
        ($valid:literal, $validity:expr) => {
            match (neg != 0, stream) {
                // SAFETY: see above.
                (false, false) => unsafe {
                    body::<$valid, false, false>(body_values, $validity, body_out)
                },
                // SAFETY: see above.
                (false, true) => unsafe {
                    body::<$valid, false, true>(body_values, $validity, body_out)
                },
                // SAFETY: see above.
                (true, false) => unsafe {
                    body::<$valid, true, false>(body_values, $validity, body_out)
                },
                // SAFETY: see above.
                (true, true) => unsafe {
                    body::<$valid, true, true>(body_values, $validity, body_out)
                },
            }
        };
    }
    match body_valid {
        None => run!(false, body_values),
        Some((v, _)) => run!(true, v),
    }
    if stream {
        // Order the streaming stores before any later store of this thread.
        _mm_sfence();
    }
    let rest_validity = body_valid.map(|(_, rest)| rest);
    let m = Masks::new();
    for_each_word(rest_values, rest_validity, neg, rest_out, |w, dst| {
        // SAFETY: `dst` is 64 bytes.
        unsafe { m.spread::<false, false>(_mm256_set1_epi64x(w as i64), dst.as_mut_ptr().cast()) };
    });
}

/// The constants of [`spread`]: the `vpshufb` controls that spread a
/// broadcast word's bytes over 64 output bytes, the bit masks, and the masks
/// minus one.
struct Masks {
    /// Bytes 0..4 of the word in lane bytes 0..8 (output bytes 0..32).
    lo0: __m256i,
    /// Bytes 4..8 of the word in lane bytes 0..8 (output bytes 32..64).
    hi0: __m256i,
    /// Byte `j` of each 8-byte group is `1 << j`: the bit each output byte tests.
    bits: __m256i,
    /// `bits - 1` in each byte, for the saturating subtract that turns
    /// `1 << j` into 1 and leaves 0 alone.
    bits_m1: __m256i,
}

impl Masks {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new() -> Masks {
        #[rustfmt::skip]
        let lo0 = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
            2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
        );
        #[rustfmt::skip]
        let hi0 = _mm256_setr_epi8(
            4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
            6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
        );
        // `black_box` hides the values of `bits` and `bits_m1` from LLVM, so
        // that the finish stays the two instructions written here (LLVM
        // turned the earlier `min(x & bits, 1)` into a three-instruction
        // compare when it could see the constants).
        let bits = core::hint::black_box(_mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64));
        let bits_m1 = core::hint::black_box(_mm256_set1_epi64x(0x7f3f_1f0f_0703_0100u64 as i64));
        Masks {
            lo0,
            hi0,
            bits,
            bits_m1,
        }
    }

    /// Spreads the word broadcast in `v` into 64 bytes of 0/1 at `p`: output
    /// byte `i` is bit `i` of the word, or its complement with `NEG`.
    ///
    /// `x & (1 << j)` (or `!x & (1 << j)`, one `vpandn`, so that negating
    /// costs nothing) is 0 or `1 << j`; subtracting `(1 << j) - 1` with
    /// unsigned saturation leaves 0 or 1. Measured here about 6% faster than
    /// `min(x, 1)`.
    ///
    /// # Safety
    ///
    /// - The CPU must support AVX2.
    /// - `p` is valid for 64 bytes of writes; with `STREAM`, 32-byte aligned.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn spread<const NEG: bool, const STREAM: bool>(&self, v: __m256i, p: *mut __m256i) {
        let pick = |x: __m256i| {
            if NEG {
                andnot_pinned(x, self.bits)
            } else {
                _mm256_and_si256(x, self.bits)
            }
        };
        let a = _mm256_subs_epu8(pick(_mm256_shuffle_epi8(v, self.lo0)), self.bits_m1);
        let b = _mm256_subs_epu8(pick(_mm256_shuffle_epi8(v, self.hi0)), self.bits_m1);
        // SAFETY: forwarded from this function's contract.
        unsafe {
            store::<STREAM>(p, a);
            store::<STREAM>(p.add(1), b);
        }
    }
}

/// `!x & bits` as one `vpandn` that stays where it is written.
///
/// Given `_mm256_andnot_si256(_mm256_shuffle_epi8(v, c), bits)`, LLVM moves
/// the `!` in front of the shuffle, onto the broadcast word: one `vpxor` per
/// word more. Inline assembly keeps the negation inside the `vpandn`.
/// Measured here, 64 Ki negated rows without validity, the two builds run
/// alternately twice: 2.42 and 2.43 µs against 2.54 and 2.54 µs with the
/// intrinsic (about 5%; plain rows 2.10–2.13 µs in the same runs).
#[target_feature(enable = "avx2")]
#[inline]
fn andnot_pinned(x: __m256i, bits: __m256i) -> __m256i {
    let r: __m256i;
    // SAFETY: one AVX2 instruction (AVX2 is enabled on this function) on
    // registers only: no memory, no stack, no flags.
    unsafe {
        core::arch::asm!(
            "vpandn {r}, {x}, {b}",
            r = lateout(ymm_reg) r,
            x = in(ymm_reg) x,
            b = in(ymm_reg) bits,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// The 32 bytes at byte `8i` and at byte `8i + 1` of a window: the two
/// halves of the shift-merge of words `i..i + 4`.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `i + 4 <= w.len()`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn lo_hi(w: Words<'_>, i: usize) -> (__m256i, __m256i) {
    let p = w.bytes().as_ptr();
    // SAFETY: the window holds `8 * len + 1` bytes and `i + 4 <= len`, so
    // bytes `8i .. 8i + 33` are inside it; `loadu` needs no alignment.
    unsafe {
        (
            _mm256_loadu_si256(p.add(8 * i).cast::<__m256i>()),
            _mm256_loadu_si256(p.add(8 * i + 1).cast::<__m256i>()),
        )
    }
}

/// `(lo >> k) | (hi << (8 - k))` in 16-bit lanes, where `hi` holds the bytes
/// of `lo` one byte later: the bits from bit `k` of `lo` on. Any lane width
/// gives the same result (a lane's high bits come from `hi`, which repeats
/// `lo`'s bytes), so the merge works on masked bytes as on raw ones.
#[target_feature(enable = "avx2")]
#[inline]
fn shift_merge(lo: __m256i, hi: __m256i, k: u32) -> __m256i {
    let right = _mm_cvtsi32_si128(k as i32);
    let left = _mm_cvtsi32_si128(8 - k as i32);
    _mm256_or_si256(_mm256_srl_epi16(lo, right), _mm256_sll_epi16(hi, left))
}

/// How phase 1 of [`body`] builds four words, chosen once per call.
#[derive(Clone, Copy)]
enum Merge {
    /// The rows start on a byte boundary in values (and validity): word
    /// `j` is the `u64` at byte `8j`, no shift.
    Aligned,
    /// Values only, or values and validity with the same bit shift: mask
    /// the raw bytes first, then one [`shift_merge`] serves both.
    Shared,
    /// Validity with another bit shift than the values: merge each window.
    Separate,
}

/// Four normalised words from word `i`, ready for the spread: with
/// validity, `value & valid`, or `!value & valid` with `NEG` (one `vpandn`);
/// without validity, the values as they are (the spread negates them).
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `i + 4 <= values.len()` (and the same for `validity` when `VALID`).
/// - With `VALID`, [`Merge::Aligned`] only when both windows have shift 0
///   and [`Merge::Shared`] only when both have the same shift; without,
///   [`Merge::Aligned`] only when `values.shift() == 0`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load4<const VALID: bool, const NEG: bool>(
    values: Words<'_>,
    validity: Words<'_>,
    merge: Merge,
    i: usize,
) -> __m256i {
    let mask = |v: __m256i, m: __m256i| {
        if NEG {
            _mm256_andnot_si256(v, m)
        } else {
            _mm256_and_si256(v, m)
        }
    };
    // SAFETY: forwarded from this function's contract (and for each
    // `lo_hi` call below).
    let (lo, hi) = unsafe { lo_hi(values, i) };
    match merge {
        Merge::Aligned if VALID => {
            // SAFETY: as above.
            let (mlo, _) = unsafe { lo_hi(validity, i) };
            mask(lo, mlo)
        }
        Merge::Aligned => lo,
        Merge::Shared if VALID => {
            // SAFETY: as above.
            let (mlo, mhi) = unsafe { lo_hi(validity, i) };
            shift_merge(mask(lo, mlo), mask(hi, mhi), values.shift())
        }
        Merge::Shared => shift_merge(lo, hi, values.shift()),
        Merge::Separate => {
            let w = shift_merge(lo, hi, values.shift());
            if VALID {
                // SAFETY: as above.
                let (mlo, mhi) = unsafe { lo_hi(validity, i) };
                mask(w, shift_merge(mlo, mhi, validity.shift()))
            } else {
                w
            }
        }
    }
}

/// The body, in blocks of [`BLOCK_WORDS`] words.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `values.len() % 4 == 0`, `out.len() == 64 * values.len()`, and when
///   `VALID`, `validity.len() == values.len()`.
/// - When `STREAM`, `out` is 32-byte aligned (the stores are then
///   non-temporal; the caller fences).
#[target_feature(enable = "avx2")]
unsafe fn body<const VALID: bool, const NEG: bool, const STREAM: bool>(
    values: Words<'_>,
    validity: Words<'_>,
    out: &mut [u8],
) {
    if !VALID && values.shift() == 0 {
        // SAFETY: forwarded from this function's contract; the values
        // start on a byte boundary (checked above).
        unsafe { body_direct::<NEG, STREAM>(values, out) };
        return;
    }
    let merge = match (values.shift(), VALID.then(|| validity.shift())) {
        (0, None | Some(0)) => Merge::Aligned,
        (k, Some(kv)) if kv != k => Merge::Separate,
        _ => Merge::Shared,
    };
    let m = Masks::new();
    let n = values.len();
    // Uninitialised: phase 1 writes words 0..block before phase 2 reads them
    // (zeroing it cost 256 bytes of stores per call).
    let mut buf = core::mem::MaybeUninit::<[u64; BLOCK_WORDS]>::uninit();
    let bp = buf.as_mut_ptr().cast::<u64>();
    let mut i = 0;
    while i < n {
        let block = BLOCK_WORDS.min(n - i);
        // Phase 1: normalise the block's words, four per vector, into `buf`.
        for g in (0..block).step_by(4) {
            // SAFETY: AVX2 is enabled; `i + g + 4 <= n` (block % 4 == 0);
            // `Merge::Shared` with validity only when the shifts are equal.
            let w = unsafe { load4::<VALID, NEG>(values, validity, merge, i + g) };
            // SAFETY: `g + 4 <= block <= BLOCK_WORDS`: inside `buf`.
            unsafe { _mm256_storeu_si256(bp.add(g).cast::<__m256i>(), w) };
        }
        // Phase 2: broadcast each word from memory (`vpbroadcastq ymm, m64`)
        // and spread it. With validity, phase 1 has negated; without, the
        // spread does.
        let dst = &mut out[64 * i..64 * (i + block)];
        let spread = |k: usize, d: &mut [u8]| {
            // SAFETY: `k < block`: phase 1 wrote this word.
            let w = unsafe { bp.add(k).read() };
            let v = _mm256_set1_epi64x(w as i64);
            let p = d.as_mut_ptr().cast::<__m256i>();
            // SAFETY: `d` is 64 bytes; with STREAM, `d` starts at a multiple
            // of 64 bytes from the aligned `out`.
            unsafe {
                if VALID {
                    m.spread::<false, STREAM>(v, p)
                } else {
                    m.spread::<NEG, STREAM>(v, p)
                }
            };
        };
        // Four words per iteration (`block` is a multiple of four): the
        // loop's own instructions were a quarter of those per word.
        debug_assert_eq!(block % 4, 0);
        for (q, d) in dst.chunks_exact_mut(256).enumerate() {
            let (a, b) = d.split_at_mut(128);
            let (a0, a1) = a.split_at_mut(64);
            let (b0, b1) = b.split_at_mut(64);
            spread(4 * q, a0);
            spread(4 * q + 1, a1);
            spread(4 * q + 2, b0);
            spread(4 * q + 3, b1);
        }
        i += block;
    }
}

/// [`body`] for values without validity that start on a byte boundary (a
/// kernel's fresh result, or an offset that is a multiple of 8): word `j`
/// is the `u64` at byte `8j`, broadcast straight from the input, and
/// negation is folded into the spread, so there is no normalising pass.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - As [`body`], and `values.shift() == 0`.
#[target_feature(enable = "avx2")]
unsafe fn body_direct<const NEG: bool, const STREAM: bool>(values: Words<'_>, out: &mut [u8]) {
    let m = Masks::new();
    let vp = values.bytes().as_ptr().cast::<i64>();
    for (j, d) in out.chunks_exact_mut(64).enumerate() {
        // SAFETY: `j < values.len()` (one 64-byte `d` per word) and the
        // window holds `8 * len + 1` bytes, so the 8 bytes at `8j` are inside
        // it; `read_unaligned` needs no alignment.
        let v = unsafe { vp.add(j).read_unaligned() };
        // SAFETY: `d` is 64 bytes; with STREAM, `d` starts at a multiple of
        // 64 bytes from the aligned `out`.
        unsafe { m.spread::<NEG, STREAM>(_mm256_set1_epi64x(v), d.as_mut_ptr().cast()) };
    }
}

/// One 32-byte store: non-temporal with `STREAM`, else unaligned.
///
/// # Safety
///
/// - The CPU must support AVX2.
/// - `p` is valid for 32 bytes of writes; with `STREAM`, 32-byte aligned.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store<const STREAM: bool>(p: *mut __m256i, v: __m256i) {
    if STREAM {
        // SAFETY: forwarded from this function's contract (aligned).
        unsafe { _mm256_stream_si256(p, v) }
    } else {
        // SAFETY: forwarded from this function's contract.
        unsafe { _mm256_storeu_si256(p, v) }
    }
}

/// Words normalised per block of [`body`]: 2048 rows, 256 bytes of stack.
/// Normalising a block first and broadcasting each word from memory measured
/// faster here than spreading the four words of each vector with cross-lane
/// permutes, than broadcasting values and validity per word and masking in
/// the vector (about 1.1x at 64 Ki rows), and than blocks of 128 or 256 words.
const BLOCK_WORDS: usize = 32;

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
