//! Selection-vector kernels (words to row indices, and counts) and the
//! dispatch between them: the third conversion, next to expansion and
//! packing.
//!
//! A kernel sees normalised aligned words only (`(value ^ neg) & valid`,
//! shift-merged in [`crate::indices`] with [`crate::bits`]) and writes, for
//! each set bit `b` of word `j`, the index `base + 64 j + b`:
//!
//! - `portable_indices`: a trailing-zero loop (`w &= w - 1`), and for denser
//!   blocks the same loop unrolled as in Lemire's and simdjson's decoders
//!   (eight unconditional stores per word, then more only when the word has
//!   more bits). Always compiled.
//! - `x86_64::avx2_indices`: a 256-entry table of the bit positions of each
//!   byte, widened to eight `u32` lanes, one 32-byte store per 8 rows.
//! - `x86_64::avx512_indices`: AVX-512 VBMI2 `vpcompressb` of the bytes
//!   `0..64` by the word itself, widened to `u32`, as simdjson and CRoaring
//!   do.
//!
//! Each ISA compiles the whole block loop ([`drive`]) inside one
//! `#[target_feature]` function, so the shift-merge, the popcounts and the
//! kernel all use its instructions. Dispatch is by CPU ([`IndicesKernel`],
//! detected once and cached with `std`, compile-time features without) and by
//! density: a block of [`BLOCK_WORDS`] words whose popcount is below
//! [`SIMD_MIN_PER_MILLE`] of its rows goes to the trailing-zero loop, which
//! wins on sparse words.
//!
//! # The output contract of a kernel
//!
//! [`Decode::decode`] gets an `out` at least as long as the number of set bits
//! in its words. It writes the indices to `out[..count]` and may write
//! anything to `out[count..]`: SIMD stores run past the count. [`drive`]
//! makes that harmless: each block gets `out` only up to the end of the next
//! block's indices (which overwrite the excess), and the last block gets
//! exactly its count, so nothing past the final count is ever touched.

use core::fmt;

use super::portable_indices;
#[cfg(target_arch = "x86_64")]
use super::x86_64::{avx2_indices, avx512_indices};

/// Words per block of [`drive`]: 4096 rows, 512 bytes of buffer (two are
/// used, both stay in L1).
pub(crate) const BLOCK_WORDS: usize = 64;

/// A block is decoded by the SIMD kernel when at least this many rows per
/// thousand are selected, else by the trailing-zero loop (CRoaring switches
/// at about 12%).
///
/// Measured on AMD EPYC family 25 model 17 (Zen 4), 2026-11-30, 1 Mi rows
/// without validity, each kernel forced to one path for the whole call, one
/// criterion run (median times): at 10% the loop was still as fast or faster
/// (AVX2 140 µs against 185 µs for the table, VBMI2 159 against 167); at 12%
/// SIMD won (AVX2 175 against 207, VBMI2 155 against 204) and from 15% on by
/// 1.7x to 2.6x. At 8% the loop was 1.15x to 1.25x faster, at 2% 2.8x.
pub const SIMD_MIN_PER_MILLE: usize = 110;

/// A source of normalised words, block by block (the offsets, validity,
/// negation or the byte mask are its business).
pub(crate) trait Source {
    /// Fills `buf[..n]` with the next `n <= BLOCK_WORDS` words and returns
    /// `(n, ones)`, `ones` the number of set bits in them; `n == 0` at the end.
    /// Bits of rows past the end are 0.
    fn fill(&mut self, buf: &mut [u64; BLOCK_WORDS]) -> (usize, usize);
}

/// Words to indices.
pub(crate) trait Decode {
    /// Writes `base + 64 j + b` for each set bit `b` of `words[j]`, ascending,
    /// to `out[..count]` and returns `count`. May write anything to
    /// `out[count..]`, never past `out`.
    ///
    /// # Panics
    ///
    /// May panic when `out.len()` is less than the number of set bits
    /// (callers in this crate never do that).
    fn decode(&self, words: &[u64], base: u32, out: &mut [u32]) -> usize;
}

/// The block loop shared by every ISA: fill a block, look ahead one block,
/// decode the current one into `out` up to the end of the next one's
/// indices, with `sparse` or `dense` by the block's popcount. Returns the
/// number of indices written.
///
/// The caller guarantees `out.len() >=` the total count of the source.
#[inline(always)]
pub(crate) fn drive<S: Source, P: Decode, D: Decode>(
    mut src: S,
    sparse: &P,
    dense: &D,
    base: u32,
    out: &mut [u32],
) -> usize {
    let mut bufs = [[0u64; BLOCK_WORDS]; 2];
    let mut cur = 0;
    let (mut n, mut ones) = src.fill(&mut bufs[0]);
    let mut pos = 0;
    let mut block_base = base;
    while n > 0 {
        let (next_n, next_ones) = src.fill(&mut bufs[1 - cur]);
        let dst = &mut out[pos..pos + ones + next_ones];
        let words = &bufs[cur][..n];
        let wrote = if ones * 1000 >= SIMD_MIN_PER_MILLE * 64 * n {
            dense.decode(words, block_base, dst)
        } else {
            sparse.decode(words, block_base, dst)
        };
        debug_assert_eq!(wrote, ones);
        pos += ones;
        block_base = block_base.wrapping_add(64 * n as u32);
        (n, ones, cur) = (next_n, next_ones, 1 - cur);
    }
    pos
}

/// The number of set bits in a source.
#[inline(always)]
pub(crate) fn count_source<S: Source>(mut src: S) -> usize {
    let mut buf = [0u64; BLOCK_WORDS];
    let mut total = 0;
    loop {
        let (n, ones) = src.fill(&mut buf);
        if n == 0 {
            return total;
        }
        total += ones;
    }
}

/// A selection-vector kernel that this CPU can run.
///
/// Use it with [`crate::raw::unpack_indices_with`] and its companions to force
/// one code path (tests, benchmarks, or a deployment that wants a fixed
/// choice). Whatever the kernel, sparse blocks (below
/// [`SIMD_MIN_PER_MILLE`]) take the trailing-zero loop.
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{unpack_indices_naive, unpack_indices_with, IndicesKernel};
///
/// let values = [0b1010_1010u8; 16];
/// let mut want = [0u32; 100];
/// let n = unpack_indices_naive(&values, None, 5, 100, false, 7, &mut want)?;
/// for kernel in IndicesKernel::available() {
///     let mut got = [0u32; 100];
///     assert_eq!(unpack_indices_with(kernel, &values, None, 5, 100, false, 7, &mut got)?, n);
///     assert_eq!(got, want, "{kernel}");
/// }
/// # Ok::<(), bitbytes::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndicesKernel(Inner);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Inner {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2_indices::Avx2Indices),
    #[cfg(target_arch = "x86_64")]
    Vbmi2(avx512_indices::Vbmi2Indices),
}

impl IndicesKernel {
    /// The trailing-zero loop: runs everywhere.
    pub const fn portable() -> IndicesKernel {
        IndicesKernel(Inner::Portable)
    }

    /// The AVX2 table kernel, or `None` where the CPU (or, without `std`, the
    /// compile-time target features) lacks AVX2, BMI1 or POPCNT.
    pub fn avx2() -> Option<IndicesKernel> {
        #[cfg(target_arch = "x86_64")]
        {
            avx2_indices::Avx2Indices::new().map(|t| IndicesKernel(Inner::Avx2(t)))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The AVX-512 VBMI2 `vpcompressb` kernel, or `None` where the CPU (or,
    /// without `std`, the compile-time target features) lacks AVX-512 F, BW,
    /// VBMI2 or VPOPCNTDQ, BMI1 or POPCNT.
    pub fn avx512vbmi2() -> Option<IndicesKernel> {
        #[cfg(target_arch = "x86_64")]
        {
            avx512_indices::Vbmi2Indices::new().map(|t| IndicesKernel(Inner::Vbmi2(t)))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// Every kernel this CPU can run, slowest first; the last one is
    /// [`IndicesKernel::best`].
    pub fn available() -> impl Iterator<Item = IndicesKernel> {
        [
            Some(IndicesKernel::portable()),
            IndicesKernel::avx2(),
            IndicesKernel::avx512vbmi2(),
        ]
        .into_iter()
        .flatten()
    }

    /// The kernel that [`crate::unpack_indices`] and its companions use: the
    /// widest one available.
    ///
    /// With `std` the CPU is asked once and the answer cached (an atomic load
    /// afterwards); without `std` the choice is made at compile time from the
    /// enabled target features.
    #[inline]
    pub fn best() -> IndicesKernel {
        #[cfg(feature = "std")]
        {
            cache::best()
        }
        #[cfg(not(feature = "std"))]
        {
            IndicesKernel::detect()
        }
    }

    fn detect() -> IndicesKernel {
        IndicesKernel::available()
            .last()
            .unwrap_or(IndicesKernel::portable())
    }

    /// A short lowercase name: `portable`, `avx2` or `avx512vbmi2`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Inner::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(_) => "avx512vbmi2",
        }
    }

    /// Decodes every word of `src` into `out` (see [`drive`]); returns the
    /// count. `out.len()` must be at least the count.
    #[inline]
    pub(crate) fn indices<S: Source>(self, src: S, base: u32, out: &mut [u32]) -> usize {
        match self.0 {
            Inner::Portable => portable_indices::indices(src, base, out),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(t) => t.indices(src, base, out),
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(t) => t.indices(src, base, out),
        }
    }

    /// The number of set bits of `src`.
    #[inline]
    pub(crate) fn count<S: Source>(self, src: S) -> usize {
        match self.0 {
            Inner::Portable => count_source(src),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(t) => t.count(src),
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(t) => t.count(src),
        }
    }

    /// `sum(popcount((values[i] ^ neg) & validity[i]))` over whole bytes
    /// (`validity`, when given, as long as `values`).
    #[inline]
    pub(crate) fn count_bytes(self, values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
        debug_assert!(validity.is_none_or(|v| v.len() == values.len()));
        match self.0 {
            Inner::Portable => portable_indices::count_bytes(values, validity, neg),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(t) => t.count_bytes(values, validity, neg),
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(t) => t.count_bytes(values, validity, neg),
        }
    }

    /// The number of non-zero bytes of `mask`.
    #[inline]
    pub(crate) fn count_nonzero(self, mask: &[u8]) -> usize {
        match self.0 {
            Inner::Portable => portable_indices::count_nonzero(mask),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(t) => t.count_nonzero(mask),
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(t) => t.count_nonzero(mask),
        }
    }

    /// The packing [`Kernel`](crate::raw::Kernel) of the same ISA, for
    /// byte masks.
    pub(crate) fn pack_kernel(self) -> crate::raw::Kernel {
        use crate::raw::Kernel;
        match self.0 {
            Inner::Portable => Kernel::portable(),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(_) => Kernel::avx2().unwrap_or(Kernel::portable()),
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(_) => Kernel::avx512().unwrap_or(Kernel::portable()),
        }
    }
}

impl fmt::Debug for IndicesKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IndicesKernel({})", self.name())
    }
}

impl fmt::Display for IndicesKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The cached choice of [`IndicesKernel::best`], by the mechanism the unpack
/// kernels use ([`crate::arch::cached`]).
#[cfg(feature = "std")]
mod cache {
    use super::IndicesKernel;
    use core::sync::atomic::AtomicU8;

    /// 0: not chosen yet; otherwise the code of the chosen kernel.
    static BEST: AtomicU8 = AtomicU8::new(0);

    #[inline]
    pub(super) fn best() -> IndicesKernel {
        crate::arch::cached(&BEST, IndicesKernel::detect)
    }
}

#[cfg(feature = "std")]
impl crate::arch::Cached for IndicesKernel {
    #[inline]
    fn code(self) -> u8 {
        match self.0 {
            Inner::Portable => 1,
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(_) => 2,
            #[cfg(target_arch = "x86_64")]
            Inner::Vbmi2(_) => 3,
        }
    }

    #[inline]
    unsafe fn from_code(code: u8) -> Option<IndicesKernel> {
        Some(IndicesKernel(match code {
            1 => Inner::Portable,
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller's contract: code 2 came from a kernel that
            // `Avx2Indices::new()` made on this CPU after confirming its
            // features.
            2 => Inner::Avx2(unsafe { avx2_indices::Avx2Indices::new_unchecked() }),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller's contract: code 3 came from a kernel that
            // `Vbmi2Indices::new()` made on this CPU after confirming its
            // features.
            3 => Inner::Vbmi2(unsafe { avx512_indices::Vbmi2Indices::new_unchecked() }),
            _ => return None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::IndicesKernel;

    #[test]
    fn best_is_the_last_available_and_names_are_distinct() {
        let all: std::vec::Vec<IndicesKernel> = IndicesKernel::available().collect();
        assert_eq!(all.first(), Some(&IndicesKernel::portable()));
        assert_eq!(all.last(), Some(&IndicesKernel::best()));
        // Twice: the second call reads the cache.
        assert_eq!(IndicesKernel::best(), IndicesKernel::best());
        let mut names: std::vec::Vec<&str> = all.iter().map(|k| k.name()).collect();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }

    /// Every kernel of both kinds survives the cache's code, and 0 (nothing
    /// cached yet) names none.
    #[cfg(feature = "std")]
    #[test]
    fn cached_codes_round_trip() {
        use crate::arch::Cached;
        use crate::raw::Kernel;
        for k in IndicesKernel::available() {
            assert_ne!(k.code(), 0);
            // SAFETY: the code of a kernel made on this CPU.
            assert_eq!(unsafe { IndicesKernel::from_code(k.code()) }, Some(k));
        }
        for k in Kernel::available() {
            assert_ne!(k.code(), 0);
            // SAFETY: the code of a kernel made on this CPU.
            assert_eq!(unsafe { Kernel::from_code(k.code()) }, Some(k));
        }
        // SAFETY: 0 is always allowed.
        assert_eq!(unsafe { Kernel::from_code(0) }, None);
        // SAFETY: as above.
        assert_eq!(unsafe { IndicesKernel::from_code(0) }, None);
    }

    /// The kernels offered are exactly those the CPU reports, so the
    /// per-kernel tests run every kernel this CPU has.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn available_matches_the_cpu() {
        let has = |f: &[bool]| f.iter().all(|&b| b);
        let avx2 = has(&[
            std::is_x86_feature_detected!("avx2"),
            std::is_x86_feature_detected!("bmi1"),
            std::is_x86_feature_detected!("popcnt"),
        ]);
        let vbmi2 = has(&[
            std::is_x86_feature_detected!("avx512f"),
            std::is_x86_feature_detected!("avx512bw"),
            std::is_x86_feature_detected!("avx512vbmi2"),
            std::is_x86_feature_detected!("avx512vpopcntdq"),
            std::is_x86_feature_detected!("bmi1"),
            std::is_x86_feature_detected!("popcnt"),
        ]);
        assert_eq!(IndicesKernel::avx2().is_some(), avx2);
        assert_eq!(IndicesKernel::avx512vbmi2().is_some(), vbmi2);
        std::eprintln!(
            "indices kernels on this CPU: {:?}",
            IndicesKernel::available().collect::<std::vec::Vec<_>>()
        );
    }
}
