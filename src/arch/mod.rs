//! Expansion kernels and the dispatch between them.
//!
//! A kernel turns aligned `u64` words (64 rows each, already shift-merged,
//! negated and masked by validity in [`crate::raw`]) into 64 bytes of 0/1 each.
//! Nothing here knows about bit offsets or tails.
//!
//! - `portable`: a 256-entry table, always compiled.
//! - `x86_64::sse2`: baseline on every x86_64 CPU, so always available there.
//! - `x86_64::avx2`: chosen at run time (with `std`) or at compile time
//!   (`-C target-feature=+avx2` / `target-cpu=native`, without `std`).
//! - `x86_64::avx512`: AVX-512BW with GFNI, one `gf2p8affineqb` per 64
//!   rows; available where the CPU has it, never the default (see
//!   [`Kernel::best`] for the measurements).
//!
//! A NEON kernel would live in `aarch64/neon.rs` with the same shape: a token
//! type whose constructor proves the feature, and an `expand` method.
//!
//! A [`Kernel`] value proves that the CPU runs it: the only ways to get one are
//! [`Kernel::portable`], [`Kernel::available`], [`Kernel::best`] and the
//! per-ISA constructors, which return `None` where the feature is missing.

mod cache_size;
pub(crate) mod indices;
pub(crate) mod portable;
pub(crate) mod portable_indices;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

use crate::bits::Words;
pub(crate) use cache_size::last_level_cache_bytes;
use core::fmt;

/// Calls `f` with each normalised word `(value ^ neg) & valid` and its 64
/// output bytes: the scalar word loop every kernel shares (the whole loop
/// for portable, SSE2 and AVX-512, the remainder for AVX2).
///
/// The caller guarantees `out.len() == 64 * values.len()` and a validity
/// window of the same length.
#[inline(always)]
pub(crate) fn for_each_word(
    values: Words<'_>,
    validity: Option<Words<'_>>,
    neg: u64,
    out: &mut [u8],
    mut f: impl FnMut(u64, &mut [u8; 64]),
) {
    let dst = out.chunks_exact_mut(64).map(|d| {
        let d: &mut [u8; 64] = d.try_into().expect("chunks_exact_mut(64)");
        d
    });
    match validity {
        None => values.iter().zip(dst).for_each(|(w, d)| f(w ^ neg, d)),
        Some(valid) => values
            .iter()
            .zip(valid.iter())
            .zip(dst)
            .for_each(|((w, m), d)| f((w ^ neg) & m, d)),
    }
}

/// An expansion kernel that this CPU can run.
///
/// Use it with [`crate::raw::unpack_with`] to force one code path (tests,
/// benchmarks, or a deployment that wants a fixed choice).
///
/// # Examples
///
/// ```
/// use bitbytes::raw::{unpack_naive, unpack_with, Kernel};
///
/// let values = [0b1010_1010u8; 16];
/// let mut want = [0u8; 100];
/// unpack_naive(&values, None, 5, 100, false, &mut want).unwrap();
/// for kernel in Kernel::available() {
///     let mut got = [0u8; 100];
///     unpack_with(kernel, &values, None, 5, 100, false, &mut got).unwrap();
///     assert_eq!(got, want, "{kernel}");
/// }
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kernel(Inner);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Inner {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Sse2(x86_64::sse2::Sse2),
    #[cfg(target_arch = "x86_64")]
    Avx2(x86_64::avx2::Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(x86_64::avx512::Avx512),
}

impl Kernel {
    /// The table kernel: runs everywhere.
    pub const fn portable() -> Kernel {
        Kernel(Inner::Portable)
    }

    /// The SSE2 kernel, or `None` off x86_64.
    pub fn sse2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            Some(Kernel(Inner::Sse2(x86_64::sse2::Sse2::new())))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The AVX2 kernel, or `None` where the CPU (or, without `std`, the
    /// compile-time target features) lacks AVX2.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            x86_64::avx2::Avx2::new().map(|t| Kernel(Inner::Avx2(t)))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The AVX-512BW kernel, or `None` where the CPU (or, without `std`, the
    /// compile-time target features) lacks AVX-512 F, AVX-512 BW or GFNI.
    pub fn avx512() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            x86_64::avx512::Avx512::new().map(|t| Kernel(Inner::Avx512(t)))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// Every kernel this CPU can run, narrowest first: portable, SSE2, AVX2,
    /// AVX-512 (each where the CPU has it). [`Kernel::best`] is one of them.
    pub fn available() -> impl Iterator<Item = Kernel> {
        [
            Some(Kernel::portable()),
            Kernel::sse2(),
            Kernel::avx2(),
            Kernel::avx512(),
        ]
        .into_iter()
        .flatten()
    }

    /// The kernel that [`crate::unpack`] uses: AVX2 where the CPU has it,
    /// else SSE2 (every x86_64 CPU), else the portable table.
    ///
    /// The rule is "never measurably slower than another available kernel"
    /// on every CPU measured, at 4 Ki to 16 Mi rows. The widest kernel is
    /// not always the fastest, so AVX-512 is never chosen here; force it
    /// with [`crate::raw::unpack_with`] on a CPU where it measures faster
    /// (`cargo run --release --example throughput` prints a line when some
    /// kernel beats the dispatched one by more than 5%). The measurements
    /// behind the rule, all side by side in one run, with validity and
    /// negate on:
    ///
    /// - AMD EPYC, CPUID family 25 model 17 (Zen 4, AVX-512 double-pumped on
    ///   256-bit units), 2026-11-30, `throughput` example on a quiet
    ///   machine: AVX-512 3 to 11% behind AVX2 at 4 Ki and 64 Ki rows (a
    ///   larger fixed cost per call: 28 against 23 ns for 64 rows), within
    ///   2% at 1 Mi, and at 16 Mi either ahead by a few percent or far
    ///   behind from run to run; loaded runs had it ahead by up to 15% at
    ///   64 Ki offset 3 once, and behind in the next. After AVX2's phase 2
    ///   was unrolled (same day, load 1, each kernel timed alternately with
    ///   `fill`): AVX-512 1 to 11% behind at 4 Ki and 64 Ki, level at 1 Mi
    ///   and 16 Mi.
    /// - Intel Xeon, family 6 model 207 (Emerald Rapids): the earlier
    ///   AVX-512 kernel (a call per word) ran at 25 against AVX2's 31 to 37
    ///   Grows/s; today's kernel has not been measured there.
    /// - SSE2 against portable: portable is faster below about 1 Ki rows on
    ///   Zen 4 (19 against 39 ns for 64 rows), SSE2 from 2 Ki on; SSE2 is
    ///   only chosen where AVX2 is missing, and no such CPU was at hand.
    ///
    /// With `std` the CPU is asked once and the answer cached (an atomic load
    /// afterwards); without `std` the choice is made at compile time from the
    /// enabled target features.
    #[inline]
    pub fn best() -> Kernel {
        #[cfg(feature = "std")]
        {
            cache::best()
        }
        #[cfg(not(feature = "std"))]
        {
            Kernel::detect()
        }
    }

    /// The kernel that [`crate::pack`] (and the bulk appends of the bitmap
    /// builders) use: AVX-512 where the CPU has it, else [`Kernel::best`].
    ///
    /// Packing is a load, a `vptestmb` into a mask register and an 8-byte
    /// store per 64 bytes, so the wide kernel wins where unpacking's does
    /// not: `cargo bench --bench pack`, 1 Mi bytes, 2026-11-30, AMD EPYC
    /// family 25 model 17 (Zen 4), one run: AVX-512 14.7 us, AVX2 17.4 us,
    /// SSE2 30.8 us, portable 110 us.
    ///
    /// # Examples
    ///
    /// ```
    /// use bitbytes::raw::Kernel;
    ///
    /// assert!(Kernel::available().any(|k| k == Kernel::best_pack()));
    /// ```
    #[inline]
    pub fn best_pack() -> Kernel {
        #[cfg(feature = "std")]
        {
            cache::best_pack()
        }
        #[cfg(not(feature = "std"))]
        {
            Kernel::detect_pack()
        }
    }

    /// The rule of [`Kernel::best_pack`].
    fn detect_pack() -> Kernel {
        Kernel::avx512().unwrap_or_else(Kernel::detect)
    }

    /// Applies the rule of [`Kernel::best`] to what the CPU (or the
    /// compile-time features) offers.
    fn detect() -> Kernel {
        Kernel::avx2()
            .or_else(Kernel::sse2)
            .unwrap_or(Kernel::portable())
    }

    /// A short lowercase name: `portable`, `sse2`, `avx2` or `avx512bw`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Inner::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Inner::Sse2(_) => "sse2",
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(_) => "avx512bw",
        }
    }

    /// Writes word `j` of `(values ^ neg) & validity` as 64 bytes of 0/1 at
    /// `out[64 * j..]`. With `stream`, kernels that have non-temporal stores
    /// use them where `out` is aligned for them (and fence afterwards).
    ///
    /// # Panics
    ///
    /// When `out.len() != 64 * values.len()` or the validity window has
    /// another length (the callers in this crate never do that).
    #[inline]
    pub(crate) fn expand(
        self,
        values: Words<'_>,
        validity: Option<Words<'_>>,
        neg: u64,
        out: &mut [u8],
        stream: bool,
    ) {
        assert_eq!(out.len(), values.len() * 64);
        assert!(validity.is_none_or(|v| v.len() == values.len()));
        match self.0 {
            Inner::Portable => portable::expand(values, validity, neg, out),
            #[cfg(target_arch = "x86_64")]
            Inner::Sse2(t) => t.expand(values, validity, neg, out, stream),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(t) => t.expand(values, validity, neg, out, stream),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(t) => t.expand(values, validity, neg, out, stream),
        }
    }
}

impl fmt::Debug for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kernel({})", self.name())
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kernel type whose run-time choice is cached in an atomic as a one-byte
/// code (memchr's "ifunc" idea, with a code instead of a function pointer:
/// the dispatch is one `match` per call, and caching a code needs no `unsafe`
/// transmute). [`Kernel`] and
/// [`IndicesKernel`](crate::raw::IndicesKernel) share this mechanism.
#[cfg(feature = "std")]
pub(crate) trait Cached: Copy {
    /// The kernel's code: never 0, which means "not chosen yet".
    fn code(self) -> u8;

    /// The kernel `code` names, `None` for 0 (or an unknown code).
    ///
    /// # Safety
    ///
    /// - `code` is 0 or came from [`Cached::code`] of a kernel made on this
    ///   CPU (whose constructor confirmed the features it needs).
    unsafe fn from_code(code: u8) -> Option<Self>;
}

/// The kernel cached in `slot`, or the one `detect` chooses, cached for the
/// next call.
#[cfg(feature = "std")]
#[inline(always)]
pub(crate) fn cached<K: Cached>(slot: &AtomicU8, detect: fn() -> K) -> K {
    // SAFETY: `slot` is only ever written by `choose`, with the code of a
    // kernel `detect` made on this CPU (or holds its initial 0).
    match unsafe { K::from_code(slot.load(Ordering::Relaxed)) } {
        Some(k) => k,
        None => choose(slot, detect),
    }
}

#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn choose<K: Cached>(slot: &AtomicU8, detect: fn() -> K) -> K {
    let k = detect();
    slot.store(k.code(), Ordering::Relaxed);
    k
}

#[cfg(feature = "std")]
use core::sync::atomic::{AtomicU8, Ordering};

/// The cached choices of [`Kernel::best`] and [`Kernel::best_pack`].
#[cfg(feature = "std")]
mod cache {
    use super::{cached, Kernel};
    use core::sync::atomic::AtomicU8;

    /// 0: not chosen yet; otherwise the code of the chosen kernel, for
    /// unpack and for pack.
    static BEST: AtomicU8 = AtomicU8::new(0);
    static BEST_PACK: AtomicU8 = AtomicU8::new(0);

    #[inline]
    pub(super) fn best() -> Kernel {
        cached(&BEST, Kernel::detect)
    }

    #[inline]
    pub(super) fn best_pack() -> Kernel {
        cached(&BEST_PACK, Kernel::detect_pack)
    }
}

#[cfg(feature = "std")]
impl Cached for Kernel {
    #[inline]
    fn code(self) -> u8 {
        match self.0 {
            Inner::Portable => 1,
            #[cfg(target_arch = "x86_64")]
            Inner::Sse2(_) => 2,
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(_) => 3,
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(_) => 4,
        }
    }

    #[inline]
    unsafe fn from_code(code: u8) -> Option<Kernel> {
        Some(Kernel(match code {
            1 => Inner::Portable,
            #[cfg(target_arch = "x86_64")]
            2 => Inner::Sse2(x86_64::sse2::Sse2::new()),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller's contract: code 3 came from an AVX2 kernel
            // made on this CPU, whose constructor confirmed AVX2.
            3 => Inner::Avx2(unsafe { x86_64::avx2::Avx2::new_unchecked() }),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller's contract: code 4 came from an AVX-512
            // kernel made on this CPU, whose constructor confirmed AVX-512F,
            // AVX-512BW and GFNI.
            4 => Inner::Avx512(unsafe { x86_64::avx512::Avx512::new_unchecked() }),
            _ => return None,
        }))
    }
}

/// Packing: the inverse direction, bytes to bits.
impl Kernel {
    /// Packs `bytes` into `out`, 64 bytes per 8-byte little-endian word, bit
    /// `i` set when byte `i` is non-zero (`bytes.len() == 8 * out.len()`).
    /// Like [`Kernel::expand`], it sees aligned whole words only; offsets and
    /// tails are handled in `crate::sink`.
    #[inline]
    pub(crate) fn pack(self, bytes: &[u8], out: &mut [u8]) {
        debug_assert_eq!(bytes.len(), out.len() * 8);
        match self.0 {
            Inner::Portable => portable::pack(bytes, out),
            #[cfg(target_arch = "x86_64")]
            Inner::Sse2(t) => t.pack(bytes, out),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(t) => t.pack(bytes, out),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(t) => t.pack(bytes, out),
        }
    }
}
