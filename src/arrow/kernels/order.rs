//! Java's order of values, and the one-pass kernels that compare in it.
//!
//! Paimon compares floats with Java's `Double.compare` / `Float.compare`:
//! `-0.0 < +0.0`, and **every NaN is one value** above `+inf`, whatever its
//! sign bit or payload. arrow-ord uses the IEEE 754 totalOrder instead, where
//! a NaN with the sign bit set sorts below `-inf` and NaNs with different
//! payloads differ. So floats do not go through arrow-ord here: each value
//! maps to an integer [`JavaOrd::key`] (the totalOrder key, with every NaN
//! folded onto the largest key) and the kernels compare keys: a shift, an
//! xor, a NaN test and a select per value, all vectorised by LLVM. No repair
//! pass, whether the column holds NaNs or not.
//!
//! The common case is cheaper still: against an `f32` / `f64` literal that is
//! neither NaN nor zero, Java's order and the IEEE comparison agree on every
//! value once `>` is written `!(x <= l)` and `>=` `!(x < l)` (a NaN row then
//! is above the literal, and both zeros fall on the same side of it), so the
//! kernel is one vector compare per value, as cheap as arrow-ord's totalOrder
//! compare (bench group `float_compare`).
//!
//! Every other primitive type keys to itself (its native `Ord`, which is the
//! order arrow-ord uses), so [`between`] serves them all in one pass.

use super::compare::CompareOp;
use super::stats::scratch;
use arrow_buffer::{i256, BooleanBuffer, Buffer, IntervalDayTime, IntervalMonthDayNano};
use half::f16;
use std::vec::Vec;

/// A native value with its key in Paimon's (Java's) order.
pub(crate) trait JavaOrd: Copy {
    /// Ordered like the values are in Java.
    type Key: Ordinal;
    /// The value's key.
    fn key(self) -> Self::Key;
    /// Whether the value is a NaN (always `false` for non-floats).
    fn is_nan(self) -> bool {
        false
    }
    /// Whether IEEE comparisons (`<`, `<=`, `==` and their negations)
    /// against this value agree with Java's order for every value: an `f32`
    /// or `f64` that is neither NaN nor zero. `false` for everything else.
    fn ieee_agrees(self) -> bool {
        false
    }
}

macro_rules! self_keyed {
    ($($t:ty),*) => {$(
        impl JavaOrd for $t {
            type Key = $t;
            #[inline(always)]
            fn key(self) -> $t {
                self
            }
        }
    )*};
}
self_keyed!(
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    i128,
    i256,
    IntervalDayTime,
    IntervalMonthDayNano
);

/// A key that may map, order-preserving, onto `u64` (integers of at most 64
/// bits, and so float keys): statistics rules index tables by it.
pub(crate) trait Ordinal: Ord + Copy {
    /// `a < b` exactly when `a.ordinal() < b.ordinal()`; `None` for keys
    /// wider than 64 bits, bytes and booleans.
    #[inline(always)]
    fn ordinal(self) -> Option<u64> {
        None
    }
}

macro_rules! ordinal {
    ($($t:ty),*) => {$(
        impl Ordinal for $t {
            #[inline(always)]
            fn ordinal(self) -> Option<u64> {
                // Signed: the sign bit flipped, so negatives count up to 2^63.
                Some((self as i64 as u64) ^ if <$t>::MIN == 0 as $t { 0 } else { 1 << 63 })
            }
        }
    )*};
}
ordinal!(i8, i16, i32, i64, u8, u16, u32, u64);
impl Ordinal for i128 {}
impl Ordinal for i256 {}
impl Ordinal for IntervalDayTime {}
impl Ordinal for IntervalMonthDayNano {}
impl Ordinal for bool {}
impl Ordinal for &[u8] {}

/// Floats: the IEEE totalOrder key of the bits (negative values have their
/// magnitude bits flipped so that they count down), with every NaN mapped to
/// the largest key. `+inf`'s key is below it, so NaN is above `+inf`.
macro_rules! float_keyed {
    ($($t:ty => $signed:ty, $unsigned:ty);*) => {$(
        impl JavaOrd for $t {
            type Key = $signed;
            #[inline(always)]
            fn key(self) -> $signed {
                let bits = self.to_bits() as $signed;
                let total = bits ^ ((((bits >> (<$signed>::BITS - 1)) as $unsigned) >> 1) as $signed);
                if self.is_nan() { <$signed>::MAX } else { total }
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn ieee_agrees(self) -> bool {
                // f16 compares through a conversion in `half`: keys are cheaper.
                <$t>::BITS_FOR_IEEE && !self.is_nan() && self != <$t>::ZERO_FOR_IEEE
            }
        }
    )*};
}
float_keyed!(f16 => i16, u16; f32 => i32, u32; f64 => i64, u64);

/// Which float types take the IEEE fast path, and their zero.
trait IeeeFast {
    const BITS_FOR_IEEE: bool;
    const ZERO_FOR_IEEE: Self;
}
impl IeeeFast for f16 {
    const BITS_FOR_IEEE: bool = false;
    const ZERO_FOR_IEEE: Self = f16::ZERO;
}
impl IeeeFast for f32 {
    const BITS_FOR_IEEE: bool = true;
    const ZERO_FOR_IEEE: Self = 0.0;
}
impl IeeeFast for f64 {
    const BITS_FOR_IEEE: bool = true;
    const ZERO_FOR_IEEE: Self = 0.0;
}

/// The build of [`compare`] and [`between`] this CPU runs: AVX-512 (F, BW,
/// DQ, VL: compares into mask registers), else AVX2, else the portable one.
/// Asked of `std`, which caches the CPU's features.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Build {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

fn build() -> Build {
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_pairs() {
            return Build::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") {
            return Build::Avx2;
        }
    }
    Build::Portable
}

/// [`compare`] in the build for this CPU ([`build`]); the baseline x86-64
/// target has no 64-bit vector compare, so its portable build compares a
/// 64-bit column one value at a time.
pub(crate) fn compare_dispatch<T: JavaOrd + PartialOrd>(
    values: &[T],
    op: CompareOp,
    literal: T,
) -> BooleanBuffer {
    match build() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `build` saw AVX-512 F, BW, DQ and VL.
        Build::Avx512 => unsafe { compare_avx512(values, op, literal) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `build` saw AVX2.
        Build::Avx2 => unsafe { compare_avx2(values, op, literal) },
        Build::Portable => compare(values, op, literal),
    }
}

mod sealed {
    /// Seals [`JavaOrdered`](super::JavaOrdered).
    pub trait Sealed {}
}

/// A native value [`compare_slice`] compares in Paimon's (Java's) order:
/// the integers of 8 to 64 bits, signed and unsigned, in their own order;
/// `f32` and `f64` as Java's `Float.compare` / `Double.compare` order them
/// (`-0.0` below `0.0`, every NaN equal to every other and above `+inf`).
/// Sealed: implemented for exactly those types.
pub trait JavaOrdered: Copy + sealed::Sealed {
    /// [`compare_slice`] over a slice of this type.
    fn compare_slice(values: &[Self], op: CompareOp, literal: Self) -> BooleanBuffer;
    /// [`between_slice`] over a slice of this type.
    fn between_slice(values: &[Self], lower: Self, upper: Self) -> BooleanBuffer;
    /// [`in_slice`](crate::arrow::in_slice) over a slice of this type.
    fn in_slice(values: &[Self], literals: &[Self]) -> BooleanBuffer;
}

macro_rules! java_ordered {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl JavaOrdered for $t {
            fn compare_slice(values: &[$t], op: CompareOp, literal: $t) -> BooleanBuffer {
                compare_dispatch(values, op, literal)
            }
            fn between_slice(values: &[$t], lower: $t, upper: $t) -> BooleanBuffer {
                between_dispatch(values, lower, upper)
            }
            fn in_slice(values: &[$t], literals: &[$t]) -> BooleanBuffer {
                super::in_list::slice_membership(values, literals)
            }
        }
    )*};
}
java_ordered!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// `values[i] <op> literal` in Paimon's (Java's) order ([`JavaOrdered`]),
/// one bit per value (LSB first, offset 0): the kernel a comparison leaf
/// ([`Function::Compare`](crate::arrow::Function::Compare)) runs over a
/// primitive column, for values held in a plain slice (a column of another
/// format, or a C buffer) with no arrow-rs array around them. Nulls are the
/// caller's: a comparison leaf selects a row when it is valid and its bit
/// is set. The build for this CPU (AVX-512, AVX2 or portable) is chosen at
/// run time.
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::{compare_slice, CompareOp};
///
/// let bits = compare_slice(&[1.5f64, f64::NAN, -0.0, 0.0], CompareOp::GreaterThan, 0.0);
/// // NaN is above every number in Java's order; -0.0 is below 0.0.
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, true, false, false]);
/// let bits = compare_slice(&[3i64, 7, 5], CompareOp::LessOrEqual, 5);
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, false, true]);
/// ```
pub fn compare_slice<T: JavaOrdered>(values: &[T], op: CompareOp, literal: T) -> BooleanBuffer {
    T::compare_slice(values, op, literal)
}

/// `lower <= values[i] <= upper` in Paimon's (Java's) order
/// ([`JavaOrdered`]), one bit per value (LSB first, offset 0), both bounds
/// tested in one pass: the kernel a Between leaf
/// ([`Function::Between`](crate::arrow::Function::Between)) runs over a
/// primitive column, for values in a plain slice. NotBetween is its
/// negation on the valid rows. Nulls are the caller's, as for
/// [`compare_slice`].
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::between_slice;
///
/// let bits = between_slice(&[1.0f32, f32::NAN, 2.5, f32::INFINITY], 1.0, f32::INFINITY);
/// // NaN is above +inf in Java's order: outside the bounds.
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, false, true, true]);
/// ```
pub fn between_slice<T: JavaOrdered>(values: &[T], lower: T, upper: T) -> BooleanBuffer {
    T::between_slice(values, lower, upper)
}

/// Whether [`compare_dispatch`] and [`between_dispatch`] have a vector
/// build for this CPU (x86-64 with AVX2 or AVX-512). Without one, the
/// portable build of a 64-bit compare runs one value at a time on x86-64
/// and was measured slower than arrow-ord's kernel, so integer comparisons
/// keep arrow-ord there (and on other targets, where ours is not measured).
pub(crate) fn vector_builds() -> bool {
    build() != Build::Portable
}

/// [`compare`] compiled for AVX-512.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW, DQ and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
pub(crate) unsafe fn compare_avx512<T: JavaOrd + PartialOrd>(
    values: &[T],
    op: CompareOp,
    literal: T,
) -> BooleanBuffer {
    compare_with::<T, true>(values, op, literal)
}

/// [`compare`] compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn compare_avx2<T: JavaOrd + PartialOrd>(
    values: &[T],
    op: CompareOp,
    literal: T,
) -> BooleanBuffer {
    compare(values, op, literal)
}

/// `values[i] <op> literal` in Java's order, one bit per value (the
/// portable build; [`compare_dispatch`] picks a vector build).
#[inline(always)]
pub(crate) fn compare<T: JavaOrd + PartialOrd>(
    values: &[T],
    op: CompareOp,
    literal: T,
) -> BooleanBuffer {
    compare_with::<T, false>(values, op, literal)
}

/// [`compare`], packing each word's 64 answers with [`bools`] (one byte
/// test when `BW`, the caller compiled for AVX-512 BW: LLVM then keeps the
/// compares in mask registers instead of building the word bit by bit).
// `!(x <= l)` is meant: it is true for a NaN `x`, which Java puts above `l`.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn compare_with<T: JavaOrd + PartialOrd, const BW: bool>(
    values: &[T],
    op: CompareOp,
    literal: T,
) -> BooleanBuffer {
    if literal.ieee_agrees() {
        let l = literal;
        return match op {
            CompareOp::Equal => pack_with::<T, BW>(values, |x| x == l),
            CompareOp::NotEqual => pack_with::<T, BW>(values, |x| x != l),
            CompareOp::LessThan => pack_with::<T, BW>(values, |x| x < l),
            CompareOp::LessOrEqual => pack_with::<T, BW>(values, |x| x <= l),
            // NaN rows: above the literal, as in Java.
            CompareOp::GreaterThan => pack_with::<T, BW>(values, |x| !(x <= l)),
            CompareOp::GreaterOrEqual => pack_with::<T, BW>(values, |x| !(x < l)),
        };
    }
    let l = literal.key();
    match op {
        CompareOp::Equal => pack_with::<T, BW>(values, |v| v.key() == l),
        CompareOp::NotEqual => pack_with::<T, BW>(values, |v| v.key() != l),
        CompareOp::LessThan => pack_with::<T, BW>(values, |v| v.key() < l),
        CompareOp::LessOrEqual => pack_with::<T, BW>(values, |v| v.key() <= l),
        CompareOp::GreaterThan => pack_with::<T, BW>(values, |v| v.key() > l),
        CompareOp::GreaterOrEqual => pack_with::<T, BW>(values, |v| v.key() >= l),
    }
}

/// `lower <= values[i] <= upper` in Java's order, one bit per value.
#[inline(always)]
pub(crate) fn between<T: JavaOrd + PartialOrd>(values: &[T], lower: T, upper: T) -> BooleanBuffer {
    between_with::<T, false>(values, lower, upper)
}

/// [`between`] in the build for this CPU, as [`compare_dispatch`].
pub(crate) fn between_dispatch<T: JavaOrd + PartialOrd>(
    values: &[T],
    lower: T,
    upper: T,
) -> BooleanBuffer {
    match build() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `build` saw AVX-512 F, BW, DQ and VL.
        Build::Avx512 => unsafe { between_avx512(values, lower, upper) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `build` saw AVX2.
        Build::Avx2 => unsafe { between_avx2(values, lower, upper) },
        Build::Portable => between(values, lower, upper),
    }
}

/// [`between`] compiled for AVX-512.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW, DQ and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
pub(crate) unsafe fn between_avx512<T: JavaOrd + PartialOrd>(
    values: &[T],
    lower: T,
    upper: T,
) -> BooleanBuffer {
    between_with::<T, true>(values, lower, upper)
}

/// [`between`] compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn between_avx2<T: JavaOrd + PartialOrd>(
    values: &[T],
    lower: T,
    upper: T,
) -> BooleanBuffer {
    between_with::<T, false>(values, lower, upper)
}

#[inline(always)]
fn between_with<T: JavaOrd + PartialOrd, const BW: bool>(
    values: &[T],
    lower: T,
    upper: T,
) -> BooleanBuffer {
    if lower.ieee_agrees() && upper.ieee_agrees() {
        // A NaN row fails `x <= upper`, as in Java where it is above `upper`.
        return pack_with::<T, BW>(values, |x| lower <= x && x <= upper);
    }
    let (lo, hi) = (lower.key(), upper.key());
    pack_with::<T, BW>(values, |v| lo <= v.key() && v.key() <= hi)
}

/// `values[i]` is a NaN, one bit per value.
pub(crate) fn is_nan<T: JavaOrd>(values: &[T]) -> BooleanBuffer {
    pack(values, |v| v.is_nan())
}

/// Packs `f(values[i])` 64 values per word. Whole chunks of 64 have a fixed
/// trip count, which lets LLVM vectorise the key mapping and the test.
#[inline(always)]
pub(crate) fn pack<T: Copy>(values: &[T], f: impl Fn(T) -> bool) -> BooleanBuffer {
    pack_with::<T, false>(values, f)
}

/// [`pack`]; with `BW` (the caller compiled for AVX-512 BW) a whole word's
/// answers go to 64 bools first, packed by one byte test ([`bools`]).
#[inline(always)]
fn pack_with<T: Copy, const BW: bool>(values: &[T], f: impl Fn(T) -> bool) -> BooleanBuffer {
    let mut words = Vec::with_capacity(values.len().div_ceil(64));
    let chunks = values.chunks_exact(64);
    let tail = chunks.remainder();
    for chunk in chunks {
        if BW {
            let mut b = [false; 64];
            for (slot, &v) in b.iter_mut().zip(chunk) {
                *slot = f(v);
            }
            words.push(bools::<BW>(&b));
            continue;
        }
        let mut word = 0u64;
        for (j, &v) in chunk.iter().enumerate() {
            word |= u64::from(f(v)) << j;
        }
        words.push(word);
    }
    if !tail.is_empty() {
        let mut word = 0u64;
        for (j, &v) in tail.iter().enumerate() {
            word |= u64::from(f(v)) << j;
        }
        words.push(word);
    }
    BooleanBuffer::new(Buffer::from_vec(words), 0, values.len())
}

/// Statistics kernels: `f(a[i], b[i])` gives two bits per container (may
/// match, all match), packed 64 a word, for the words where `active` has a
/// bit set; the other words are left `0`. Whole words have a fixed trip
/// count, so LLVM vectorises `f` (the key mapping and the compares) and both
/// bits come out of one pass over `a` and `b`.
#[inline(always)]
pub(crate) fn pack_pairs<T: Copy>(
    a: &[T],
    b: &[T],
    active: &[u64],
    f: impl Fn(T, T) -> (bool, bool),
) -> (Vec<u64>, Vec<u64>) {
    pack_pairs_with::<T, false, false>(a, b, active, |_| false, f)
}

/// [`pack_pairs`]; with `PRUNE`, for a rule that `a[i]` alone can refute
/// (`none(a[i])` implies `f(a[i], b) == (false, false)` for every `b`), a
/// whole word whose active containers all satisfy `none` is left `0`
/// without reading its 64 `b` (for sorted or clustered stats, the maxes of
/// every word the min decides are never fetched). With `BW` (only inside
/// [`pack_pairs_avx512`]) a whole word's 64 answers go through a
/// `[bool; 64]` and one byte-mask test each ([`bools_avx512`]), not 64
/// shifts and ors.
#[inline(always)]
fn pack_pairs_with<T: Copy, const BW: bool, const PRUNE: bool>(
    a: &[T],
    b: &[T],
    active: &[u64],
    none: impl Fn(T) -> bool,
    f: impl Fn(T, T) -> (bool, bool),
) -> (Vec<u64>, Vec<u64>) {
    let words = a.len().div_ceil(64);
    let (mut may, mut all) = (scratch::words(words, 0), scratch::words(words, 0));
    let chunks = a.chunks(64).zip(b.chunks(64)).zip(active);
    for (w, ((ca, cb), &act)) in chunks.enumerate() {
        if act == 0 {
            continue;
        }
        let (mut m, mut l) = (0u64, 0u64);
        if let (Ok(ca), Ok(cb)) = (<&[T; 64]>::try_from(ca), <&[T; 64]>::try_from(cb)) {
            if PRUNE {
                // Without BW, shifted into a word as `m` and `l` are below
                // (which LLVM vectorises), not through a `[bool; 64]`.
                let refuted = if BW {
                    let mut refuted = [false; 64];
                    for j in 0..64 {
                        refuted[j] = none(ca[j]);
                    }
                    bools::<BW>(&refuted)
                } else {
                    let mut r = 0u64;
                    for (j, &x) in ca.iter().enumerate() {
                        r |= u64::from(none(x)) << j;
                    }
                    r
                };
                if act & !refuted == 0 {
                    continue;
                }
            }
            if BW {
                let (mut bm, mut bl) = ([false; 64], [false; 64]);
                for j in 0..64 {
                    (bm[j], bl[j]) = f(ca[j], cb[j]);
                }
                (m, l) = (bools::<BW>(&bm), bools::<BW>(&bl));
            } else {
                for j in 0..64 {
                    let (x, y) = f(ca[j], cb[j]);
                    m |= u64::from(x) << j;
                    l |= u64::from(y) << j;
                }
            }
        } else {
            for (j, (&x, &y)) in ca.iter().zip(cb).enumerate() {
                let (x, y) = f(x, y);
                m |= u64::from(x) << j;
                l |= u64::from(y) << j;
            }
        }
        may[w] = m;
        all[w] = l;
    }
    (may, all)
}

/// [`pack_pairs`] compiled for AVX2 (64-bit vector compares), words pruned
/// by `none` as in [`pack_pairs_with`].
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn pack_pairs_avx2<T: Copy>(
    a: &[T],
    b: &[T],
    active: &[u64],
    none: impl Fn(T) -> bool,
    f: impl Fn(T, T) -> (bool, bool),
) -> (Vec<u64>, Vec<u64>) {
    pack_pairs_with::<T, false, true>(a, b, active, none, f)
}

/// 64 bools as the bits of a word (bool `j` the bit `j`); with `BW` (the
/// caller compiled for AVX-512 BW) one 64-byte load and a byte test.
#[inline(always)]
pub(crate) fn bools<const BW: bool>(b: &[bool; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if BW {
        // SAFETY: `BW` is set only inside functions compiled for AVX-512
        // BW, whose callers checked the CPU has it.
        return unsafe { bools_avx512(b) };
    }
    let mut w = 0u64;
    for (j, &x) in b.iter().enumerate() {
        w |= u64::from(x) << j;
    }
    w
}

/// [`bools`] by one load and `vptestmb`.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn bools_avx512(b: &[bool; 64]) -> u64 {
    // SAFETY: a `bool` is one byte, 0 or 1, so the 64 bools are 64
    // initialized bytes; the CPU has AVX-512 F and BW (this function's
    // contract), what `pack_word` needs.
    unsafe { crate::arch::x86_64::avx512::pack_word(&*b.as_ptr().cast::<[u8; 64]>()) }
}

/// Whether the CPU has what [`pack_pairs_avx512`] is compiled for (asked
/// once, cached by `std`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_pairs() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512vl")
}

/// [`pack_pairs`] compiled for AVX-512 (the key mapping and 64-bit
/// compares of `f` as vector compares into masks; the baseline target has
/// no 64-bit vector compare and runs `f` one container at a time), words
/// pruned by `none` as in [`pack_pairs_with`] (`|_| false` for a rule the
/// min alone never refutes).
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW, DQ and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
pub(crate) unsafe fn pack_pairs_avx512<T: Copy>(
    a: &[T],
    b: &[T],
    active: &[u64],
    none: impl Fn(T) -> bool,
    f: impl Fn(T, T) -> (bool, bool),
) -> (Vec<u64>, Vec<u64>) {
    pack_pairs_with::<T, true, true>(a, b, active, none, f)
}

/// [`pack_pairs`] for rules that cost more than a compare (a binary search,
/// a string compare): `f(i)` runs only for the containers `i` whose `active`
/// bit is set, `len` containers in all.
#[inline(always)]
pub(crate) fn pack_active(
    len: usize,
    active: &[u64],
    f: impl Fn(usize) -> (bool, bool),
) -> (Vec<u64>, Vec<u64>) {
    let words = len.div_ceil(64);
    let (mut may, mut all) = (scratch::words(words, 0), scratch::words(words, 0));
    for (w, &act) in active.iter().enumerate().take(words) {
        let mut bits = act;
        if w + 1 == words && !len.is_multiple_of(64) {
            bits &= (1u64 << (len % 64)) - 1;
        }
        let (mut m, mut l) = (0u64, 0u64);
        if bits == !0 {
            // A whole active word: a fixed trip count, no bit scan, so LLVM
            // may vectorise `f` (and the loop carries no dependence on `bits`).
            for j in 0..64 {
                let (x, y) = f(w * 64 + j);
                m |= u64::from(x) << j;
                l |= u64::from(y) << j;
            }
            bits = 0;
        }
        while bits != 0 {
            let j = bits.trailing_zeros();
            bits &= bits - 1;
            let (x, y) = f(w * 64 + j as usize);
            m |= u64::from(x) << j;
            l |= u64::from(y) << j;
        }
        may[w] = m;
        all[w] = l;
    }
    (may, all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    /// Java's `Double.compare`, written from its definition.
    fn java_cmp(a: f64, b: f64) -> Ordering {
        match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            // Not NaN: totalOrder is Java's order (-0.0 < 0.0).
            (false, false) => a.total_cmp(&b),
        }
    }

    /// Every build of [`compare`] and [`between`] the CPU can run (the
    /// portable one, and the AVX2 / AVX-512 ones where the CPU has them)
    /// against a per-value reference in Java's order (the keys), on every
    /// length 0..=160 and start 0..8 of a slice (so vector loads at every
    /// alignment), for each operator and each pair of bounds, with literals
    /// inside, at the ends and outside the values.
    fn builds_agree<T: JavaOrd + PartialOrd + core::fmt::Debug>(pool: &[T], literals: &[T]) {
        let reference = |values: &[T], op: CompareOp, l: T| -> Vec<bool> {
            let l = l.key();
            values
                .iter()
                .map(|v| {
                    let k = v.key();
                    match op {
                        CompareOp::Equal => k == l,
                        CompareOp::NotEqual => k != l,
                        CompareOp::LessThan => k < l,
                        CompareOp::LessOrEqual => k <= l,
                        CompareOp::GreaterThan => k > l,
                        CompareOp::GreaterOrEqual => k >= l,
                    }
                })
                .collect()
        };
        type Build<T> = fn(&[T], CompareOp, T) -> BooleanBuffer;
        let mut builds: Vec<(&str, Build<T>)> = std::vec![("portable", compare::<T>)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked).
                builds.push(("avx2", |v, op, l| unsafe { compare_avx2(v, op, l) }));
            }
            if avx512_pairs() {
                // SAFETY: the CPU has AVX-512 F, BW, DQ and VL (checked).
                builds.push(("avx512", |v, op, l| unsafe { compare_avx512(v, op, l) }));
            }
        }
        builds.push(("dispatch", compare_dispatch::<T>));
        type Range<T> = fn(&[T], T, T) -> BooleanBuffer;
        let mut ranges: Vec<(&str, Range<T>)> = std::vec![("portable", between::<T>)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked).
                ranges.push(("avx2", |v, lo, hi| unsafe { between_avx2(v, lo, hi) }));
            }
            if avx512_pairs() {
                // SAFETY: the CPU has AVX-512 F, BW, DQ and VL (checked).
                ranges.push(("avx512", |v, lo, hi| unsafe { between_avx512(v, lo, hi) }));
            }
        }
        ranges.push(("dispatch", between_dispatch::<T>));
        for start in 0..8 {
            for len in 0..=160usize.min(pool.len() - start) {
                let values = &pool[start..start + len];
                for &lo in literals {
                    for &hi in literals {
                        let (lk, hk) = (lo.key(), hi.key());
                        let want: Vec<bool> = values
                            .iter()
                            .map(|v| lk <= v.key() && v.key() <= hk)
                            .collect();
                        for (name, build) in &ranges {
                            let got: Vec<bool> = build(values, lo, hi).iter().collect();
                            assert_eq!(
                                got, want,
                                "between {name} {lo:?} {hi:?} start {start} len {len}"
                            );
                        }
                    }
                }
                for &l in literals {
                    for op in CompareOp::ALL {
                        let want = reference(values, op, l);
                        for (name, build) in &builds {
                            let got: Vec<bool> = build(values, op, l).iter().collect();
                            assert_eq!(got, want, "{name} {op:?} {l:?} start {start} len {len}");
                        }
                    }
                }
            }
        }
    }

    /// The public [`compare_slice`], [`between_slice`] and `in_slice`
    /// against Java's order written out per value (`Ord` for the integers, `java_cmp` for
    /// the floats: NaN above +inf, -0.0 below 0.0), for every
    /// [`JavaOrdered`] type, operator and pair of bounds, on 130 values (two
    /// whole words and a tail), and equal to the dispatched kernels.
    fn slices_agree<T: JavaOrdered + JavaOrd + PartialOrd + core::fmt::Debug>(
        pool: &[T],
        literals: &[T],
        cmp: impl Fn(T, T) -> Ordering,
    ) {
        for &l in literals {
            for op in CompareOp::ALL {
                let want: Vec<bool> = pool
                    .iter()
                    .map(|&v| {
                        let o = cmp(v, l);
                        match op {
                            CompareOp::Equal => o.is_eq(),
                            CompareOp::NotEqual => o.is_ne(),
                            CompareOp::LessThan => o.is_lt(),
                            CompareOp::LessOrEqual => o.is_le(),
                            CompareOp::GreaterThan => o.is_gt(),
                            CompareOp::GreaterOrEqual => o.is_ge(),
                        }
                    })
                    .collect();
                let got = compare_slice(pool, op, l);
                assert_eq!(got.iter().collect::<Vec<_>>(), want, "{op:?} {l:?}");
                assert_eq!(got, compare_dispatch(pool, op, l));
            }
            for &h in literals {
                let want: Vec<bool> = pool
                    .iter()
                    .map(|&v| cmp(l, v).is_le() && cmp(v, h).is_le())
                    .collect();
                let got = between_slice(pool, l, h);
                assert_eq!(got.iter().collect::<Vec<_>>(), want, "{l:?}..={h:?}");
                assert_eq!(got, between_dispatch(pool, l, h));
            }
        }
        // IN: every list of the literals' first `n` (below and from
        // `IN_HASH_MIN_LITERALS`, the two strategies), and backwards.
        for n in 0..=literals.len() {
            let rev: Vec<T> = literals[literals.len() - n..]
                .iter()
                .rev()
                .copied()
                .collect();
            for list in [&literals[..n], &rev[..]] {
                let want: Vec<bool> = pool
                    .iter()
                    .map(|&v| list.iter().any(|&l| cmp(v, l).is_eq()))
                    .collect();
                let got = crate::arrow::in_slice(pool, list);
                assert_eq!(got.len(), pool.len());
                assert_eq!(got.iter().collect::<Vec<_>>(), want, "IN {list:?}");
            }
        }
    }

    #[test]
    fn compare_and_between_slices_agree_with_java_order() {
        macro_rules! ints {
            ($($t:ty),*) => {$(
                let mut pool: Vec<$t> = (0..130u8).map(|i| (i % 7) as $t).collect();
                (pool[5], pool[77]) = (<$t>::MIN, <$t>::MAX);
                slices_agree(&pool, &[0, 3, 9, <$t>::MIN, <$t>::MAX], |a, b| a.cmp(&b));
            )*};
        }
        ints!(i8, i16, i32, i64, u8, u16, u32, u64);
        let specials = [
            f64::NAN,
            -0.0,
            0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1.0,
            2.5,
        ];
        let pool: Vec<f64> = (0..130).map(|i| specials[i % specials.len()]).collect();
        slices_agree(&pool, &specials, java_cmp);
        let pool: Vec<f32> = pool.iter().map(|&v| v as f32).collect();
        let lits: Vec<f32> = specials.iter().map(|&v| v as f32).collect();
        slices_agree(&pool, &lits, |a, b| java_cmp(f64::from(a), f64::from(b)));
        let floats = [f64::NAN, -0.0, 0.0, f64::INFINITY, -1.0];
        let bits = compare_slice(&floats, CompareOp::GreaterThan, 0.0);
        assert_eq!(
            bits.iter().collect::<Vec<_>>(),
            [true, false, false, true, false]
        );
        let bits = compare_slice(&floats, CompareOp::Equal, f64::NAN);
        assert_eq!(
            bits.iter().collect::<Vec<_>>(),
            [true, false, false, false, false]
        );
    }

    #[test]
    fn compare_builds_agree_with_the_reference() {
        let mut rng = crate::xorshift::XorShift::new(0x5eed_c0de_0042_0001);
        let mut pool = |n: usize, f: &mut dyn FnMut(u64) -> i64| -> Vec<i64> {
            (0..n).map(|_| f(rng.next_u64())).collect()
        };
        // Small values (many equal to the literal) and the extremes.
        let mut small = pool(168, &mut |r| (r % 7) as i64 - 3);
        small[5] = i64::MIN;
        small[77] = i64::MAX;
        let lits = [-3, 0, 2, 9, i64::MIN, i64::MAX];
        builds_agree(&small, &lits);
        let u: Vec<u64> = small.iter().map(|&v| v as u64).collect();
        builds_agree(&u, &[0, 1, u64::MAX, 1 << 63, (-3i64) as u64]);
        let b: Vec<i8> = small.iter().map(|&v| v as i8).collect();
        builds_agree(&b, &[-3, 0, i8::MIN, i8::MAX]);
        let b: Vec<u8> = small.iter().map(|&v| v as u8).collect();
        builds_agree(&b, &[0, 1, 253, u8::MAX]);
        let w: Vec<u32> = small.iter().map(|&v| v as u32).collect();
        builds_agree(&w, &[0, 2, u32::MAX, 1 << 31]);
        let w: Vec<i32> = small.iter().map(|&v| v as i32).collect();
        builds_agree(&w, &[-3, 0, 2, i32::MIN, i32::MAX]);
        let w: Vec<i16> = small.iter().map(|&v| v as i16).collect();
        builds_agree(&w, &[-3, 0, i16::MIN, i16::MAX]);
        let d: Vec<i128> = small.iter().map(|&v| i128::from(v) << 64 | 5).collect();
        builds_agree(&d, &[5, -3 << 64 | 5, 0]);
        // Floats: both zeros, NaNs of both signs, infinities.
        let specials = [
            0.0,
            -0.0,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1.5,
        ];
        let f: Vec<f64> = small
            .iter()
            .map(|&v| {
                if v.unsigned_abs() < 7 {
                    specials[(v + 3) as usize % 7]
                } else {
                    v as f64
                }
            })
            .collect();
        builds_agree(&f, &[0.0, -0.0, f64::NAN, 1.5, f64::INFINITY, -2.0]);
        let f: Vec<f32> = f.iter().map(|&v| v as f32).collect();
        builds_agree(&f, &[0.0, -0.0, f32::NAN, 1.5, f32::NEG_INFINITY]);
    }

    #[test]
    fn float_keys_follow_java() {
        let values = [
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff8_0000_0000_0001),
            f64::from_bits(0xfff0_0000_0000_0001),
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            1e-310,
            -1e-310,
            0.0,
            -0.0,
            1.5,
            -1.5,
        ];
        for a in values {
            for b in values {
                assert_eq!(a.key().cmp(&b.key()), java_cmp(a, b), "{a:?} {b:?}");
                let (a32, b32) = (a as f32, b as f32);
                let want = java_cmp(f64::from(a32), f64::from(b32));
                assert_eq!(a32.key().cmp(&b32.key()), want, "{a32:?} {b32:?}");
                let (a16, b16) = (f16::from_f64(a), f16::from_f64(b));
                let want = java_cmp(a16.to_f64(), b16.to_f64());
                assert_eq!(a16.key().cmp(&b16.key()), want, "{a16:?} {b16:?}");
            }
        }
    }

    #[test]
    fn ieee_fast_path_agrees_with_keys() {
        let values = [
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            1.5,
            -1.5,
            f64::MIN_POSITIVE,
            -1e-310,
        ];
        for l in values {
            for op in CompareOp::ALL {
                let got = compare(&values, op, l);
                let got32 = compare(&values.map(|v| v as f32), op, l as f32);
                let holds = |o: Ordering| match op {
                    CompareOp::Equal => o.is_eq(),
                    CompareOp::NotEqual => o.is_ne(),
                    CompareOp::LessThan => o.is_lt(),
                    CompareOp::LessOrEqual => o.is_le(),
                    CompareOp::GreaterThan => o.is_gt(),
                    CompareOp::GreaterOrEqual => o.is_ge(),
                };
                for (i, v) in values.iter().enumerate() {
                    let want = holds(java_cmp(*v, l));
                    assert_eq!(got.value(i), want, "{v:?} {op:?} {l:?}");
                    let (v32, l32) = (f64::from(*v as f32), f64::from(l as f32));
                    let want = holds(java_cmp(v32, l32));
                    assert_eq!(got32.value(i), want, "f32 {v:?} {op:?} {l:?}");
                }
            }
            for hi in values {
                let got = between(&values, l, hi);
                for (i, v) in values.iter().enumerate() {
                    let want = java_cmp(*v, l).is_ge() && java_cmp(*v, hi).is_le();
                    assert_eq!(got.value(i), want, "{v:?} between {l:?} and {hi:?}");
                }
            }
        }
    }

    #[test]
    fn pair_packers_match_a_loop() {
        for len in [0usize, 1, 63, 64, 65, 130, 200, 300] {
            // Every third word's `a` all refuted by `none` (so whole words
            // are pruned), every third but one container (a different one
            // in each word), the others mixed.
            let a: Vec<u32> = (0..len as u32)
                .map(|i| match (i / 64) % 3 {
                    1 => 3 * i + 1,
                    2 if i % 64 == (i / 64 * 7) % 64 => 3 * i,
                    2 => 3 * i + 1,
                    _ => i.wrapping_mul(2654435761),
                })
                .collect();
            let b: Vec<u32> = (0..len as u32).map(|i| i.wrapping_mul(40503)).collect();
            let actives: [Vec<u64>; 3] = [
                (0..len.div_ceil(64) as u64)
                    .map(|w| {
                        if w % 4 == 2 {
                            0
                        } else {
                            0x5555_5555_5555_5555 ^ w
                        }
                    })
                    .collect(),
                std::vec![!0; len.div_ceil(64)],
                (0..len.div_ceil(64) as u64)
                    .map(|w| 1u64 << (w * 13 % 64))
                    .collect(),
            ];
            let f = |x: u32, y: u32| (x.is_multiple_of(3), y % 5 < 2);
            // `none(x)` refutes: `f` gives (false, false) whatever `y`.
            let none = |x: u32| !x.is_multiple_of(3);
            let g = |x: u32, y: u32| (x.is_multiple_of(3), x.is_multiple_of(3) && y % 5 < 2);
            for active in &actives {
                let (dm, da) = pack_pairs(&a, &b, active, f);
                let pruned = pack_pairs_with::<u32, false, true>(&a, &b, active, none, g);
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2.
                    let simd = unsafe { pack_pairs_avx2(&a, &b, active, |_| false, f) };
                    assert_eq!(simd, (dm.clone(), da.clone()), "avx2 len {len}");
                    // SAFETY: as above.
                    let simd = unsafe { pack_pairs_avx2(&a, &b, active, none, g) };
                    assert_eq!(simd, pruned, "avx2 pruned len {len}");
                }
                #[cfg(target_arch = "x86_64")]
                if avx512_pairs() {
                    // SAFETY: the CPU has AVX-512 F, BW, DQ and VL.
                    let simd = unsafe { pack_pairs_avx512(&a, &b, active, |_| false, f) };
                    assert_eq!(simd, (dm.clone(), da.clone()), "len {len}");
                    // SAFETY: as above.
                    let simd = unsafe { pack_pairs_avx512(&a, &b, active, none, g) };
                    assert_eq!(simd, pruned, "pruned len {len}");
                }
                let (sm, sa) = pack_active(len, active, |i| f(a[i], b[i]));
                for i in 0..len {
                    let on = active[i / 64] >> (i % 64) & 1 == 1;
                    let (m, l) = f(a[i], b[i]);
                    let bit = |w: &[u64]| w[i / 64] >> (i % 64) & 1 == 1;
                    assert_eq!(bit(&sm), on && m, "len {len} i {i}");
                    assert_eq!(bit(&sa), on && l, "len {len} i {i}");
                    if active[i / 64] != 0 {
                        assert_eq!((bit(&dm), bit(&da)), (m, l), "len {len} i {i}");
                    }
                    if on {
                        let want = g(a[i], b[i]);
                        assert_eq!((bit(&pruned.0), bit(&pruned.1)), want, "len {len} i {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn pack_matches_a_loop() {
        for len in [0usize, 1, 63, 64, 65, 130, 200] {
            let values: Vec<u32> = (0..len as u32)
                .map(|i| i.wrapping_mul(2654435761))
                .collect();
            let bits = pack(&values, |v| v % 3 == 0);
            assert_eq!(bits.len(), len);
            for (i, v) in values.iter().enumerate() {
                assert_eq!(bits.value(i), v % 3 == 0, "len {len} row {i}");
            }
        }
    }
}
