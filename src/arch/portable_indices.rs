//! The portable selection-vector kernels: the trailing-zero loop, plain for
//! sparse blocks and unrolled for dense ones, and the two counts. Always
//! compiled; the x86_64 kernels reuse these (inlined into their
//! `#[target_feature]` functions) for sparse blocks, tails and counts.

use super::indices::{drive, Decode, Source};

/// `w &= w - 1` until the word is empty: one index per set bit, nothing
/// else written. The fastest where most words hold zero or one row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sparse;

impl Decode for Sparse {
    #[inline(always)]
    fn decode(&self, words: &[u64], base: u32, out: &mut [u32]) -> usize {
        let mut pos = 0;
        for (j, &w) in words.iter().enumerate() {
            pos += sparse_word(w, base.wrapping_add(64 * j as u32), &mut out[pos..]);
        }
        pos
    }
}

/// One word of [`Sparse`]: writes exactly `w.count_ones()` indices.
#[inline(always)]
pub(crate) fn sparse_word(mut w: u64, base: u32, out: &mut [u32]) -> usize {
    let mut pos = 0;
    while w != 0 {
        out[pos] = base.wrapping_add(w.trailing_zeros());
        pos += 1;
        w &= w - 1;
    }
    pos
}

/// The trailing-zero loop unrolled as in Lemire's decoder (simdjson's
/// `flatten_bits`): eight indices per word unconditionally, eight more when
/// the word has more than eight bits, then one at a time. A branch per eight
/// rows instead of one per row; an empty word costs eight stores that the
/// next word overwrites. Words with fewer than 64 slots left in `out` take
/// [`sparse_word`], which writes exactly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Unrolled;

impl Decode for Unrolled {
    #[inline(always)]
    fn decode(&self, words: &[u64], base: u32, out: &mut [u32]) -> usize {
        decode_with_slack(words, base, out, unrolled_word)
    }
}

/// The word loop of the kernels that store past the count: `word` gets 64
/// slots (the most a word can need, plus any junk it writes past its count)
/// while `out` has them, [`sparse_word`] writes the rest exactly.
#[inline(always)]
pub(crate) fn decode_with_slack(
    words: &[u64],
    base: u32,
    out: &mut [u32],
    mut word: impl FnMut(u64, u32, &mut [u32; 64]) -> usize,
) -> usize {
    let mut pos = 0;
    for (j, &w) in words.iter().enumerate() {
        let b = base.wrapping_add(64 * j as u32);
        pos += match out.get_mut(pos..pos + 64) {
            Some(dst) => word(w, b, dst.try_into().expect("64 slots")),
            None => sparse_word(w, b, &mut out[pos..]),
        };
    }
    pos
}

#[inline(always)]
fn unrolled_word(mut w: u64, base: u32, dst: &mut [u32; 64]) -> usize {
    let count = w.count_ones() as usize;
    // `trailing_zeros(0) == 64`: past the last bit the stores are junk that
    // the next word overwrites.
    for d in &mut dst[..8] {
        *d = base.wrapping_add(w.trailing_zeros());
        w &= w.wrapping_sub(1);
    }
    if count > 8 {
        for d in &mut dst[8..16] {
            *d = base.wrapping_add(w.trailing_zeros());
            w &= w.wrapping_sub(1);
        }
        if count > 16 {
            sparse_word(w, base, &mut dst[16..]);
        }
    }
    count
}

/// Every block of `src` through [`Sparse`] or [`Unrolled`] by density.
pub(crate) fn indices<S: Source>(src: S, base: u32, out: &mut [u32]) -> usize {
    drive(src, &Sparse, &Unrolled, base, out)
}

/// `sum(popcount((values[i] ^ neg) & validity[i]))`, eight bytes at a time:
/// written so that LLVM vectorises it (`vpopcntq` where AVX-512 VPOPCNTDQ is
/// enabled, a `vpshufb` nibble table with AVX2).
#[inline(always)]
pub(crate) fn count_bytes_generic(values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
    let neg64 = u64::from_ne_bytes([neg; 8]);
    let word = |c: &[u8]| u64::from_ne_bytes(c.try_into().expect("chunks_exact(8)"));
    let v = values.chunks_exact(8);
    let rest = v.remainder();
    match validity {
        None => {
            let body: u64 = v.map(|c| u64::from((word(c) ^ neg64).count_ones())).sum();
            body as usize
                + rest
                    .iter()
                    .map(|&b| (b ^ neg).count_ones() as usize)
                    .sum::<usize>()
        }
        Some(m) => {
            let mc = m.chunks_exact(8);
            let mrest = mc.remainder();
            let body: u64 = v
                .zip(mc)
                .map(|(c, k)| u64::from(((word(c) ^ neg64) & word(k)).count_ones()))
                .sum();
            body as usize
                + rest
                    .iter()
                    .zip(mrest)
                    .map(|(&b, &k)| ((b ^ neg) & k).count_ones() as usize)
                    .sum::<usize>()
        }
    }
}

/// The number of non-zero bytes, in byte-wide counters (a compare and a
/// subtract per vector once LLVM vectorises it) summed every 255 rounds.
#[inline(always)]
pub(crate) fn count_nonzero_generic(mask: &[u8]) -> usize {
    mask.chunks(LANES * 255).map(count_nonzero_block).sum()
}

/// Counter lanes of [`count_nonzero_generic`].
const LANES: usize = 64;

/// Up to `255 * LANES` bytes: no byte counter can overflow.
#[inline(always)]
fn count_nonzero_block(block: &[u8]) -> usize {
    let mut acc = [0u8; LANES];
    let mut lanes = block.chunks_exact(LANES);
    for c in &mut lanes {
        for (a, &b) in acc.iter_mut().zip(c) {
            *a += u8::from(b != 0);
        }
    }
    let rest = lanes.remainder().iter().filter(|&&b| b != 0).count();
    acc.iter().map(|&a| usize::from(a)).sum::<usize>() + rest
}

/// [`count_bytes_generic`] compiled for the target's baseline.
pub(crate) fn count_bytes(values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
    count_bytes_generic(values, validity, neg)
}

/// [`count_nonzero_generic`] compiled for the target's baseline.
pub(crate) fn count_nonzero(mask: &[u8]) -> usize {
    count_nonzero_generic(mask)
}
