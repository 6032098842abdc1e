//! The typed min / max arrays a statistics rule runs over.
//!
//! A family's rule (in its own file under `functions/`) is written once,
//! generic over the key type `K` of the column: a closure of `(min, max)`
//! giving two bits, "some row may satisfy" and "every non-null row does".
//! [`order_rule`] picks the key type from the stats' Arrow type (Java's
//! order for floats, the native order for other primitives, bytes for
//! strings and binaries, `bool`) and hands the rule a [`Fuse`] that runs the
//! closure over the whole arrays in one pass (words with no active container
//! skipped), so a leaf costs one fused pass over min and max.

#[cfg(target_arch = "x86_64")]
use super::super::order::{avx512_pairs, pack_pairs_avx2, pack_pairs_avx512};
use super::super::order::{bools, pack_active, pack_pairs, JavaOrd, Ordinal};
use super::scratch;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    BinaryType, ByteArrayType, ByteViewType, LargeBinaryType, LargeUtf8Type, Utf8Type,
};
use arrow_array::{
    downcast_primitive, Array, ArrowPrimitiveType, FixedSizeBinaryArray, GenericByteArray,
    GenericByteViewArray,
};
use arrow_buffer::ArrowNativeType;
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::vec::Vec;

/// Two bits per container, 64 a word: `may` (some row may satisfy the leaf)
/// and `all` (every row does). Only the bits of active containers are
/// meaningful.
#[derive(Debug, Clone)]
pub(crate) struct RuleBits {
    pub(crate) may: Vec<u64>,
    pub(crate) all: Vec<u64>,
}

impl RuleBits {
    /// Every container MayMatch.
    pub(crate) fn may_match(words: usize) -> RuleBits {
        RuleBits {
            may: std::vec![!0; words],
            all: std::vec![0; words],
        }
    }
}

/// Runs a per-container test over the active containers of one column.
pub(crate) trait Fuse<K> {
    /// `f(min, max) -> (may, all)`, vectorised where the key type allows.
    fn fuse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits
    where
        Self: Sized,
    {
        self.fuse_pruned(|_| false, f)
    }
    /// [`fuse`](Fuse::fuse) for a rule the min alone can refute: `none(min)`
    /// must imply `f(min, max) == (false, false)` for every `max`. Where
    /// the CPU has AVX-512, a word of primitive stats whose active
    /// containers all satisfy `none` is NoMatch without reading its maxes.
    fn fuse_pruned(self, none: impl Fn(K) -> bool, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits;
    /// The same, for a costly `f`: called only on active containers.
    fn fuse_sparse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits;
    /// For a rule over [`Ordinal`]s with a whole-word kernel: `word(mins,
    /// maxs)` gives the `(may, all)` bits of 64 containers from their keys'
    /// ordinals, on words of primitive stats with at least
    /// [`WORD_FROM`] active containers, where the CPU has AVX-512 or AVX2;
    /// `each` runs on the active containers of the other words (of every
    /// word without either, and of stats without ordinals).
    fn fuse_words(
        self,
        word: impl Fn(&[u64; 64], &[u64; 64]) -> (u64, u64),
        each: impl Fn(K, K) -> (bool, bool),
    ) -> RuleBits;
}

/// Active containers a word needs before [`Fuse::fuse_words`] (and
/// [`cut_rule`]) run the word kernel over all 64 (below, the rule runs on
/// each active one, reading only its bounds).
pub(crate) const WORD_FROM: u32 = 8;

/// A statistics rule over ordered keys: a comparison, IN, Between.
pub(crate) trait OrderRule {
    /// The rule's bits, given the literals as keys (`None` for a null
    /// literal), running its test through `fuse`.
    fn run<K: Ordinal, F: Fuse<K>>(&self, literals: &[Option<K>], fuse: F) -> RuleBits;
}

/// Primitive min / max arrays, compared by their [`JavaOrd`] keys.
struct Keys<'a, T> {
    min: &'a [T],
    max: &'a [T],
    active: &'a [u64],
}

impl<T: JavaOrd> Fuse<T::Key> for Keys<'_, T> {
    fn fuse_pruned(
        self,
        none: impl Fn(T::Key) -> bool,
        f: impl Fn(T::Key, T::Key) -> (bool, bool),
    ) -> RuleBits {
        let f = |a: T, b: T| f(a.key(), b.key());
        #[cfg(target_arch = "x86_64")]
        if avx512_pairs() {
            let none = |a: T| none(a.key());
            // SAFETY: the CPU has AVX-512 F, BW, DQ and VL.
            let (may, all) = unsafe { pack_pairs_avx512(self.min, self.max, self.active, none, f) };
            return RuleBits { may, all };
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let none = |a: T| none(a.key());
            // SAFETY: the CPU has AVX2.
            let (may, all) = unsafe { pack_pairs_avx2(self.min, self.max, self.active, none, f) };
            return RuleBits { may, all };
        }
        // Without AVX2 `f` runs a container at a time: no pruning pass.
        let _ = none;
        let (may, all) = pack_pairs(self.min, self.max, self.active, f);
        RuleBits { may, all }
    }

    fn fuse_sparse(self, f: impl Fn(T::Key, T::Key) -> (bool, bool)) -> RuleBits {
        let (min, max) = (self.min, self.max);
        let (may, all) = pack_active(min.len(), self.active, |i| f(min[i].key(), max[i].key()));
        RuleBits { may, all }
    }

    fn fuse_words(
        self,
        word: impl Fn(&[u64; 64], &[u64; 64]) -> (u64, u64),
        each: impl Fn(T::Key, T::Key) -> (bool, bool),
    ) -> RuleBits {
        #[cfg(target_arch = "x86_64")]
        if avx512_pairs() {
            // SAFETY: the CPU has AVX-512 F, BW, DQ and VL.
            return unsafe { key_words_avx512(self, word, each) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { key_words_avx2(self, word, each) };
        }
        // Without AVX2: one active container at a time (see `cut_rule`).
        let _ = word;
        self.fuse_sparse(each)
    }
}

/// [`key_words`] compiled for AVX-512 (the ordinals vectorised).
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW, DQ and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn key_words_avx512<T: JavaOrd>(
    keys: Keys<'_, T>,
    word: impl Fn(&[u64; 64], &[u64; 64]) -> (u64, u64),
    each: impl Fn(T::Key, T::Key) -> (bool, bool),
) -> RuleBits {
    key_words(keys, word, each)
}

/// [`key_words`] compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn key_words_avx2<T: JavaOrd>(
    keys: Keys<'_, T>,
    word: impl Fn(&[u64; 64], &[u64; 64]) -> (u64, u64),
    each: impl Fn(T::Key, T::Key) -> (bool, bool),
) -> RuleBits {
    key_words(keys, word, each)
}

/// [`Fuse::fuse_words`] over primitive keys (run only with AVX-512 or
/// AVX2).
#[cfg_attr(not(any(test, target_arch = "x86_64")), allow(dead_code))]
#[inline(always)]
fn key_words<T: JavaOrd>(
    keys: Keys<'_, T>,
    word: impl Fn(&[u64; 64], &[u64; 64]) -> (u64, u64),
    each: impl Fn(T::Key, T::Key) -> (bool, bool),
) -> RuleBits {
    let (min, max) = (keys.min, &keys.max[..keys.min.len()]);
    let n = min.len();
    let words = n.div_ceil(64);
    let (mut may, mut all) = (scratch::words(words, 0), scratch::words(words, 0));
    let whole = min.chunks_exact(64).zip(max.chunks_exact(64));
    let mut whole = whole.map(|(a, b)| (<&[T; 64]>::try_from(a), <&[T; 64]>::try_from(b)));
    for (w, &act) in keys.active.iter().enumerate().take(words) {
        let chunk = whole.next();
        let mut bits = act;
        if w + 1 == words && !n.is_multiple_of(64) {
            bits &= (1u64 << (n % 64)) - 1;
        }
        if bits == 0 {
            continue;
        }
        let (mut m, mut l) = (0u64, 0u64);
        match chunk {
            Some((Ok(a), Ok(b))) if bits.count_ones() >= WORD_FROM => {
                // Keys of at most 64 bits: `ordinal()` is `Some`.
                let ordinals = |c: &[T; 64]| -> [u64; 64] {
                    std::array::from_fn(|j| c[j].key().ordinal().unwrap_or(0))
                };
                (m, l) = word(&ordinals(a), &ordinals(b));
                m &= bits;
                l &= bits;
            }
            _ => {
                while bits != 0 {
                    let j = bits.trailing_zeros();
                    bits &= bits - 1;
                    let i = w * 64 + j as usize;
                    let (x, y) = each(min[i].key(), max[i].key());
                    m |= u64::from(x) << j;
                    l |= u64::from(y) << j;
                }
            }
        }
        may[w] = m;
        all[w] = l;
    }
    RuleBits { may, all }
}

/// Any min / max arrays read by index (bytes, booleans).
struct ByIndex<'a, G> {
    len: usize,
    get: G,
    active: &'a [u64],
}

impl<K, G: Fn(usize) -> (K, K)> Fuse<K> for ByIndex<'_, G> {
    fn fuse_pruned(self, _none: impl Fn(K) -> bool, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits {
        self.fuse_sparse(f)
    }

    fn fuse_sparse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits {
        let get = self.get;
        let (may, all) = pack_active(self.len, self.active, |i| {
            let (a, b) = get(i);
            f(a, b)
        });
        RuleBits { may, all }
    }

    fn fuse_words(
        self,
        _word: impl Fn(&[u64; 64], &[u64; 64]) -> (u64, u64),
        each: impl Fn(K, K) -> (bool, bool),
    ) -> RuleBits {
        self.fuse_sparse(each)
    }
}

/// Runs `rule` over `min` / `max` (same type and length) with `literals`
/// (of that type) on the `active` containers. Stats of a type without an
/// order here (nested types, ...) give MayMatch everywhere.
pub(crate) fn order_rule<R: OrderRule>(
    rule: &R,
    min: &dyn Array,
    max: &dyn Array,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    if literals.data_type() != min.data_type() {
        return Err(ArrowError::InvalidArgumentError(format!(
            "literal type {} does not match the statistics' type {}",
            literals.data_type(),
            min.data_type()
        )));
    }
    macro_rules! primitive {
        ($t:ty) => {
            primitive::<$t, R>(rule, min, max, literals, active)
        };
    }
    let len = min.len();
    Ok(downcast_primitive! {
        min.data_type() => (primitive),
        DataType::Boolean => {
            let (a, b, l) = (min.as_boolean(), max.as_boolean(), literals.as_boolean());
            rule.run(&keys(literals, |i| l.value(i)), by_index(len, active, |i| (a.value(i), b.value(i))))
        }
        DataType::Utf8 => bytes(rule, min.as_bytes::<Utf8Type>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::LargeUtf8 => bytes(rule, min.as_bytes::<LargeUtf8Type>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::Binary => bytes(rule, min.as_bytes::<BinaryType>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::LargeBinary => bytes(rule, min.as_bytes::<LargeBinaryType>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::Utf8View => views(rule, min.as_string_view(), max.as_string_view(), literals.as_string_view(), active),
        DataType::BinaryView => views(rule, min.as_binary_view(), max.as_binary_view(), literals.as_binary_view(), active),
        DataType::FixedSizeBinary(_) => {
            let (a, b, l): (&FixedSizeBinaryArray, &FixedSizeBinaryArray, &FixedSizeBinaryArray) =
                (min.as_fixed_size_binary(), max.as_fixed_size_binary(), literals.as_fixed_size_binary());
            rule.run(&keys(literals, |i| l.value(i)), by_index(len, active, |i| (a.value(i), b.value(i))))
        }
        _ => RuleBits::may_match(len.div_ceil(64)),
    })
}

/// `f(min, max)` over byte stats (strings or binaries, any layout), on the
/// active containers: the string functions' rules. `None` when the stats are
/// not bytes.
pub(crate) fn bytes_rule(
    min: &dyn Array,
    max: &dyn Array,
    active: &[u64],
    f: impl Fn(&[u8], &[u8]) -> (bool, bool),
) -> Option<RuleBits> {
    let len = min.len();
    macro_rules! offsets {
        ($t:ty) => {{
            let (a, b) = (min.as_bytes::<$t>(), max.as_bytes::<$t>());
            by_index(len, active, |i| (raw(a, i), raw(b, i))).fuse_sparse(&f)
        }};
    }
    macro_rules! views {
        ($a:expr, $b:expr) => {{
            let (a, b) = ($a, $b);
            by_index(len, active, |i| (raw_view(a, i), raw_view(b, i))).fuse_sparse(&f)
        }};
    }
    Some(match min.data_type() {
        DataType::Utf8 => offsets!(Utf8Type),
        DataType::LargeUtf8 => offsets!(LargeUtf8Type),
        DataType::Binary => offsets!(BinaryType),
        DataType::LargeBinary => offsets!(LargeBinaryType),
        DataType::Utf8View => views!(min.as_string_view(), max.as_string_view()),
        DataType::BinaryView => views!(min.as_binary_view(), max.as_binary_view()),
        _ => return None,
    })
}

/// The longest cut [`cut_key`] packs: seven bytes and the length byte.
pub(crate) const CUT_MAX: usize = 7;

/// The first `min(len, s.len())` bytes of `s` (`len <= CUT_MAX`) as a key
/// that orders as those cut strings do: the bytes big-endian from the top,
/// zero-padded, the cut length in the low byte (a shorter string that is a
/// prefix of a longer one sorts first).
#[inline(always)]
pub(crate) fn cut_key(s: &[u8], len: usize) -> u64 {
    let n = len.min(s.len());
    let mut bytes = [0u8; 8];
    bytes[..n].copy_from_slice(&s[..n]);
    u64::from_be_bytes(bytes) | n as u64
}

/// [`cut_key`] of the string at `start..end` of `values`: one 8-byte load
/// and a mask where eight bytes are readable from `start`.
#[inline(always)]
fn cut_key_at(values: &[u8], start: usize, end: usize, len: usize) -> u64 {
    match values.get(start..start + 8) {
        Some(eight) => {
            let n = len.min(end - start);
            let word = u64::from_be_bytes(eight.try_into().unwrap_or([0; 8]));
            // The top n bytes (n <= 7, so the low byte is always cleared).
            let mask = !(u64::MAX >> (8 * n));
            (word & mask) | n as u64
        }
        None => cut_key(&values[start..end], len),
    }
}

/// Whether [`cut_rule`] runs over stats of type `t` (the offset layouts).
pub(crate) fn cuttable(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
    )
}

/// [`CutPrefix::pair`] of `(cut_key(min), cut_key(max))` over offset-layout
/// byte stats (strings or binaries), cut to `len <= CUT_MAX` bytes, on the
/// active containers: a prefix rule with no byte compare per container.
/// Where [`CutPrefix::none`] refutes a container by its min, its max is
/// not read (nor, when a whole word's active containers are refuted, the
/// max's offsets). `None` for other layouts (views fall back to
/// [`bytes_rule`]).
pub(crate) fn cut_rule(
    min: &dyn Array,
    max: &dyn Array,
    active: &[u64],
    len: usize,
    rule: CutPrefix,
) -> Option<RuleBits> {
    fn run<T: ByteArrayType>(
        min: &GenericByteArray<T>,
        max: &GenericByteArray<T>,
        active: &[u64],
        len: usize,
        rule: CutPrefix,
    ) -> RuleBits {
        #[cfg(target_arch = "x86_64")]
        if avx512_cut() {
            if std::is_x86_feature_detected!("avx512vbmi") {
                // SAFETY: the CPU has AVX-512 F, BW, VBMI and POPCNT.
                return unsafe { cut_words_vbmi(min, max, active, len, rule) };
            }
            // SAFETY: the CPU has AVX-512 F, BW and POPCNT.
            return unsafe { cut_words_avx512(min, max, active, len, rule) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has AVX2 and POPCNT.
            return unsafe { cut_words_avx2(min, max, active, len, rule) };
        }
        // With neither AVX-512 nor AVX2 the portable word loops (here and
        // IN's) measured slower than one active container at a time (the
        // And bench: 7.7 against 6.8 ms), so they run only in tests;
        // compiled for AVX2 they are faster (docs/stats.md, 2026-12-03).
        let (a_off, a_val) = (min.value_offsets(), min.value_data());
        let (b_off, b_val) = (max.value_offsets(), max.value_data());
        let key = |off: &[T::Offset], val: &[u8], i: usize| {
            let (start, end) = (off[i].as_usize(), off[i + 1].as_usize());
            cut_key_at(val, start, end, len)
        };
        let (may, all) = pack_active(min.len(), active, |i| {
            rule.pair(key(a_off, a_val, i), key(b_off, b_val, i))
        });
        RuleBits { may, all }
    }
    macro_rules! run {
        ($t:ty) => {
            run(min.as_bytes::<$t>(), max.as_bytes(), active, len, rule)
        };
    }
    Some(match min.data_type() {
        DataType::Utf8 => run!(Utf8Type),
        DataType::LargeUtf8 => run!(LargeUtf8Type),
        DataType::Binary => run!(BinaryType),
        DataType::LargeBinary => run!(LargeBinaryType),
        _ => return None,
    })
}

/// Whether the CPU has what [`cut_words_avx512`] uses (AVX-512 F, BW and
/// POPCNT; asked once, cached
/// by `std`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_cut() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("popcnt")
}

/// Defines `$name`: [`cut_words`] compiled with `$features`.
macro_rules! cut_words_for {
    ($(#[$doc:meta])* $name:ident, $features:literal, $simd:literal, $vbmi:literal, $avx2:literal) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $name<T: ByteArrayType>(
            min: &GenericByteArray<T>,
            max: &GenericByteArray<T>,
            active: &[u64],
            len: usize,
            rule: CutPrefix,
        ) -> RuleBits {
            cut_words::<T, $simd, $vbmi, $avx2>(min, max, active, len, rule)
        }
    };
}

cut_words_for!(
    /// [`cut_words`] compiled for AVX-512, its keys by [`cut_keys_avx512`].
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and POPCNT.
    cut_words_avx512,
    "avx512f,avx512bw,popcnt",
    true,
    false,
    false
);

cut_words_for!(
    /// [`cut_words`] compiled for AVX2, its keys by [`cut_keys_word`], the
    /// rule four containers a step ([`cut_none_avx2`], [`cut_pair_avx2`]).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 and POPCNT.
    cut_words_avx2,
    "avx2,popcnt",
    false,
    false,
    true
);

cut_words_for!(
    /// [`cut_words`] compiled for AVX-512 with VBMI, its keys by
    /// [`cut_keys_avx512`] with `VBMI` (byte permutes, not gathers).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW, VBMI and POPCNT.
    cut_words_vbmi,
    "avx512f,avx512bw,avx512vbmi,popcnt",
    true,
    true,
    false
);

/// The prefix rule on cut keys (StartsWith's and Like `'p%'`'s, see
/// `functions/strings.rs`): with `key` the [`cut_key`] of the prefix `p`,
/// a container may match when `min <= key <= max` (its cut min is at most
/// `p` and its cut max at least `p`) and all match when `min = key = max`
/// (every value between has the prefix; written so, not as `key <= min`
/// and `max <= key`, all implies may, so that [`Self::none`] agrees with
/// [`Self::pair`] even on a min above its max, never in valid stats);
/// `negated` (the `Not…` form) always may match and all match where the
/// positive form may not. One rule, not a closure, so that
/// the AVX2 word loop runs it four containers a step on its own
/// ([`cut_pair_avx2`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CutPrefix {
    /// The [`cut_key`] of the prefix.
    pub(crate) key: u64,
    /// The `Not…` form.
    pub(crate) negated: bool,
}

impl CutPrefix {
    /// Whether a container is NoMatch by its min's key alone (a min cut
    /// above the prefix is at least its successor): then [`Self::pair`]
    /// is `(false, false)` whatever the max.
    #[inline(always)]
    pub(crate) fn none(self, min: u64) -> bool {
        !self.negated & (min > self.key)
    }

    /// `(may, all)` of a container from its min's and max's keys.
    #[inline(always)]
    pub(crate) fn pair(self, min: u64, max: u64) -> (bool, bool) {
        let may = (min <= self.key) & (max >= self.key);
        let all = (min == self.key) & (max == self.key);
        if self.negated {
            (true, !may)
        } else {
            (may, all)
        }
    }
}

/// [`CutPrefix::none`] of 64 min keys as the bits of a word, four a step
/// (unsigned compares as signed ones on keys with the top bit flipped,
/// each step's four answers by one `vmovmskpd`).
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn cut_none_avx2(rule: CutPrefix, ka: &[u64; 64]) -> u64 {
    use std::arch::x86_64::*;
    if rule.negated {
        return 0;
    }
    // SAFETY: the caller checked the CPU has AVX2; every load reads four
    // u64s of `ka[4 * s..4 * s + 4]`, inside the 64.
    unsafe {
        let flip = _mm256_set1_epi64x(i64::MIN);
        let key = _mm256_set1_epi64x((rule.key ^ (1 << 63)) as i64);
        let mut bits = 0u64;
        for s in 0..16 {
            let a = _mm256_xor_si256(_mm256_loadu_si256(ka[4 * s..].as_ptr().cast()), flip);
            let above = _mm256_castsi256_pd(_mm256_cmpgt_epi64(a, key));
            bits |= (_mm256_movemask_pd(above) as u64) << (4 * s);
        }
        bits
    }
}

/// [`CutPrefix::pair`] of 64 (min, max) key pairs as two words (`may`,
/// `all`), four a step as [`cut_none_avx2`].
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn cut_pair_avx2(rule: CutPrefix, ka: &[u64; 64], kb: &[u64; 64]) -> (u64, u64) {
    use std::arch::x86_64::*;
    // SAFETY: the caller checked the CPU has AVX2; every load reads four
    // u64s of `ka[4 * s..4 * s + 4]` or `kb[4 * s..4 * s + 4]`, inside the
    // 64.
    let (not_may, all) = unsafe {
        let flip = _mm256_set1_epi64x(i64::MIN);
        let key = _mm256_set1_epi64x((rule.key ^ (1 << 63)) as i64);
        let (mut not_may, mut all) = (0u64, 0u64);
        for s in 0..16 {
            let a = _mm256_xor_si256(_mm256_loadu_si256(ka[4 * s..].as_ptr().cast()), flip);
            let b = _mm256_xor_si256(_mm256_loadu_si256(kb[4 * s..].as_ptr().cast()), flip);
            // Not may: min > key or key > max; all: min = key = max.
            let no = _mm256_or_si256(_mm256_cmpgt_epi64(a, key), _mm256_cmpgt_epi64(key, b));
            let both = _mm256_and_si256(_mm256_cmpeq_epi64(a, key), _mm256_cmpeq_epi64(b, key));
            not_may |= (_mm256_movemask_pd(_mm256_castsi256_pd(no)) as u64) << (4 * s);
            all |= (_mm256_movemask_pd(_mm256_castsi256_pd(both)) as u64) << (4 * s);
        }
        (not_may, all)
    };
    if rule.negated {
        (!0, not_may)
    } else {
        (!not_may, all)
    }
}

/// The cut-key rule a word of 64 containers at a time: where a word has at
/// least [`WORD_FROM`] active containers and 65 offsets, the keys of all 64
/// mins at once ([`cut_keys_word`], or with `SIMD` [`cut_keys_avx512`]);
/// the containers [`CutPrefix::none`] refutes by their min are done (a
/// word of only those reads no max); where at least [`WORD_FROM`] are
/// left, the 64 max keys at once and the rule over the pairs in a fixed
/// 64-step loop (with `AVX2`, [`cut_none_avx2`] and [`cut_pair_avx2`]),
/// else the max keys of those left one at a time. Other words (and a word
/// whose strings end fewer than 8 bytes before the end of the values
/// buffer) run one active container at a time, the max read only where
/// the min does not refute.
#[cfg_attr(not(any(test, target_arch = "x86_64")), allow(dead_code))]
#[inline(always)]
fn cut_words<T: ByteArrayType, const SIMD: bool, const VBMI: bool, const AVX2: bool>(
    min: &GenericByteArray<T>,
    max: &GenericByteArray<T>,
    active: &[u64],
    len: usize,
    rule: CutPrefix,
) -> RuleBits {
    let n = min.len();
    let words = n.div_ceil(64);
    let (a_off, a_val) = (min.value_offsets(), min.value_data());
    let (b_off, b_val) = (max.value_offsets(), max.value_data());
    let key = |off: &[T::Offset], val: &[u8], i: usize| {
        let (start, end) = (off[i].as_usize(), off[i + 1].as_usize());
        cut_key_at(val, start, end, len)
    };
    let keys = |off: &[T::Offset], val: &[u8], base: usize, out: &mut [u64; 64]| -> bool {
        let Some(offs) = off.get(base..base + 65).and_then(|o| o.try_into().ok()) else {
            return false;
        };
        #[cfg(target_arch = "x86_64")]
        if SIMD {
            // SAFETY: `SIMD` is set only inside `cut_words_avx512` and
            // `cut_words_vbmi`, whose callers checked the CPU has AVX-512 F
            // and BW, and `VBMI` only inside `cut_words_vbmi`, whose caller
            // checked VBMI too.
            return unsafe {
                if VBMI {
                    cut_keys_vbmi(offs, val, len, out)
                } else {
                    cut_keys_avx512(offs, val, len, out)
                }
            };
        }
        cut_keys_word(offs, val, len, out)
    };
    // The rule on container `base + j` from its min's key `ka`: the max
    // read only when the min does not refute.
    let one = |ka: u64, i: usize| {
        if rule.none(ka) {
            (false, false)
        } else {
            rule.pair(ka, key(b_off, b_val, i))
        }
    };
    let (mut may, mut all) = (scratch::words(words, 0), scratch::words(words, 0));
    for (w, &act) in active.iter().enumerate().take(words) {
        let mut bits = act;
        if w + 1 == words && !n.is_multiple_of(64) {
            bits &= (1u64 << (n % 64)) - 1;
        }
        if bits == 0 {
            continue;
        }
        let base = w * 64;
        let (mut ka, mut kb) = ([0u64; 64], [0u64; 64]);
        let (mut m, mut l) = (0u64, 0u64);
        if bits.count_ones() >= WORD_FROM && keys(a_off, a_val, base, &mut ka) {
            bits &= !refuted_word::<SIMD, AVX2>(rule, &ka);
            if bits.count_ones() >= WORD_FROM && keys(b_off, b_val, base, &mut kb) {
                let (bm, bl) = pair_word::<SIMD, AVX2>(rule, &ka, &kb);
                m = bm & bits;
                l = bl & bits;
            } else {
                while bits != 0 {
                    let j = bits.trailing_zeros();
                    bits &= bits - 1;
                    let (x, y) = rule.pair(ka[j as usize], key(b_off, b_val, base + j as usize));
                    m |= u64::from(x) << j;
                    l |= u64::from(y) << j;
                }
            }
        } else {
            while bits != 0 {
                let j = bits.trailing_zeros();
                bits &= bits - 1;
                let i = base + j as usize;
                let (x, y) = one(key(a_off, a_val, i), i);
                m |= u64::from(x) << j;
                l |= u64::from(y) << j;
            }
        }
        may[w] = m;
        all[w] = l;
    }
    RuleBits { may, all }
}

/// [`CutPrefix::none`] of 64 min keys as a word's bits: with `AVX2` (the
/// caller compiled for AVX2) by [`cut_none_avx2`], else per key, packed by
/// [`bools`] (with `SIMD`, AVX-512 BW).
#[inline(always)]
fn refuted_word<const SIMD: bool, const AVX2: bool>(rule: CutPrefix, ka: &[u64; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: `AVX2` is set only inside `cut_words_avx2`, whose caller
        // checked the CPU has AVX2.
        return unsafe { cut_none_avx2(rule, ka) };
    }
    let mut refuted = [false; 64];
    for j in 0..64 {
        refuted[j] = rule.none(ka[j]);
    }
    bools::<SIMD>(&refuted)
}

/// [`CutPrefix::pair`] of 64 key pairs as two words (`may`, `all`): with
/// `AVX2` by [`cut_pair_avx2`], else per pair, packed by [`bools`].
#[inline(always)]
fn pair_word<const SIMD: bool, const AVX2: bool>(
    rule: CutPrefix,
    ka: &[u64; 64],
    kb: &[u64; 64],
) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: `AVX2` is set only inside `cut_words_avx2`, whose caller
        // checked the CPU has AVX2.
        return unsafe { cut_pair_avx2(rule, ka, kb) };
    }
    let (mut bm, mut bl) = ([false; 64], [false; 64]);
    for j in 0..64 {
        (bm[j], bl[j]) = rule.pair(ka[j], kb[j]);
    }
    (bools::<SIMD>(&bm), bools::<SIMD>(&bl))
}

/// The [`cut_key`]s (cut to `len <= CUT_MAX`) of the 64 strings
/// `offs[j]..offs[j + 1]` of `values` into `out`, each by one 8-byte load
/// and a mask; `false` (nothing written) when eight bytes are not readable
/// from the last offset. Offsets out of order (never in a valid array) give
/// wrong keys, never an out-of-bounds read: every start is at most the
/// last offset (checked, or else clamped), from which eight bytes are
/// checked readable once, so the loads go unchecked. Where every string
/// of the word is at least `len` bytes long, one mask serves all 64 and
/// no start is clamped. Run by the AVX2 word loop ([`cut_words_avx2`]):
/// with a bounds check per load the StartsWith leaf alone took 12% longer
/// (432 against 380 us over 64 Ki containers, AMD EPYC family 23 model 1,
/// Zen 1, 2026-12-04).
#[cfg_attr(not(any(test, target_arch = "x86_64")), allow(dead_code))]
#[inline(always)]
fn cut_keys_word<O: ArrowNativeType>(
    offs: &[O; 65],
    values: &[u8],
    len: usize,
    out: &mut [u64; 64],
) -> bool {
    let last = offs[64].as_usize();
    if last.checked_add(8).is_none_or(|end| end > values.len()) {
        return false;
    }
    let base = values.as_ptr();
    // The common word: every start at most `last` and every string at least
    // `len` bytes long (found in one pass LLVM vectorises). Then the mask
    // is the same for all 64 and the starts need no clamp.
    let mut slow = false;
    for j in 0..64 {
        let (start, end) = (offs[j].as_usize(), offs[j + 1].as_usize());
        slow |= (start > last) | (end.wrapping_sub(start) < len);
    }
    if !slow {
        // The top `len` bytes (len <= 7, so the low byte is always cleared).
        let mask = !(u64::MAX >> (8 * len));
        for (key, off) in out.iter_mut().zip(offs) {
            // SAFETY: every start is at most `last` (checked by the pass
            // above) and `last + 8 <= values.len()` (checked first), so the
            // eight bytes read lie inside `values`; `read_unaligned` needs
            // no alignment.
            let raw = unsafe { base.add(off.as_usize()).cast::<u64>().read_unaligned() };
            *key = (u64::from_be(raw) & mask) | len as u64;
        }
        return true;
    }
    let len = len as u64;
    let mut start = offs[0].as_usize().min(last);
    for (j, key) in out.iter_mut().enumerate() {
        let next = offs[j + 1].as_usize().min(last);
        let n = len.min((offs[j + 1].as_usize() as u64).saturating_sub(start as u64));
        // SAFETY: `start <= last` (clamped) and `last + 8 <= values.len()`
        // (checked above), so the eight bytes read lie inside `values`;
        // `read_unaligned` needs no alignment.
        let raw = unsafe { base.add(start).cast::<u64>().read_unaligned() };
        // The top n bytes (n <= 7, so the low byte is always cleared).
        let mask = !(u64::MAX >> (8 * n));
        *key = (u64::from_be(raw) & mask) | n;
        start = next;
    }
    true
}

/// Defines `$name`: [`cut_keys_body`] compiled with `$features`.
macro_rules! cut_keys_for {
    ($(#[$doc:meta])* $name:ident, $features:literal, $vbmi:literal) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn $name<O: ArrowNativeType>(
            offs: &[O; 65],
            values: &[u8],
            len: usize,
            out: &mut [u64; 64],
        ) -> bool {
            // SAFETY: the caller checked the CPU has `$features`.
            unsafe { cut_keys_body::<O, $vbmi>(offs, values, len, out) }
        }
    };
}

cut_keys_for!(
    /// [`cut_keys_body`] without VBMI (gathers).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW.
    cut_keys_avx512,
    "avx512f,avx512bw",
    false
);

cut_keys_for!(
    /// [`cut_keys_body`] with VBMI (byte permutes where the strings are
    /// close).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI.
    cut_keys_vbmi,
    "avx512f,avx512bw,avx512vbmi",
    true
);

/// [`cut_keys_word`] with AVX-512, eight strings a step: the offsets
/// widened to `u64`, the starts clamped to the last offset, the eight
/// 8-byte loads as one gather, byte-reversed (big-endian), masked to the
/// cut length, which goes in the low byte.
///
/// With `VBMI`, eight strings starting within 121 bytes of the first
/// one's start (and 128 bytes readable from there) take their eight bytes
/// from two 64-byte loads by one byte permute (`vpermt2b`, big-endian at
/// once) instead of a gather; others are gathered. Inlined into
/// [`cut_keys_avx512`] and [`cut_keys_vbmi`], which enable the features
/// (a closure inside a function with target features does not get them).
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW, and with `VBMI` VBMI.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn cut_keys_body<O: ArrowNativeType, const VBMI: bool>(
    offs: &[O; 65],
    values: &[u8],
    len: usize,
    out: &mut [u64; 64],
) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: the caller checked the CPU has AVX-512 F and BW (and with
    // `VBMI`, VBMI), what every intrinsic here needs; the loads and the
    // gather are bounded as each says.
    unsafe {
        let last = offs[64].as_usize();
        if last.checked_add(8).is_none_or(|end| end > values.len()) {
            return false;
        }
        // Offsets are i32 or i64 (`ByteArrayType::Offset`); as unsigned, a
        // negative one (never in a valid array) is large and clamped below.
        let wide = std::mem::size_of::<O>() == 8;
        let load = |j: usize| -> __m512i {
            let p = offs[j..j + 8].as_ptr();
            if wide {
                // In bounds: `offs[j..j + 8]` is eight 8-byte offsets.
                _mm512_loadu_si512(p.cast())
            } else {
                // In bounds: `offs[j..j + 8]` is eight 4-byte offsets (32 bytes).
                _mm512_cvtepu32_epi64(_mm256_loadu_si256(p.cast()))
            }
        };
        let lastv = _mm512_set1_epi64(last as i64);
        let lenv = _mm512_set1_epi64(len as i64);
        let ones = _mm512_set1_epi64(-1);
        // Reverses the bytes of each u64 (within each 128-bit lane).
        let rev = _mm512_broadcast_i32x4(_mm_set_epi8(
            8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
        ));
        // Gathers do not train the hardware prefetcher: fetch the next word's
        // strings (the same span past the last offset) ahead.
        let span = last.saturating_sub(offs[0].as_usize()).min(4096);
        let ahead = values.as_ptr().wrapping_add(last);
        for line in (0..span).step_by(64) {
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(3 * span + line).cast());
        }
        // Per lane, byte 0 of its u64 to all eight bytes, plus 7 - b in byte b
        // (so the permute reads the eight bytes big-endian).
        let spread =
            _mm512_broadcast_i32x4(_mm_set_epi8(8, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0));
        let down = _mm512_set1_epi64(0x0001_0203_0405_0607);
        let near = _mm512_set1_epi64(120);
        for k in 0..8 {
            let j = 8 * k;
            let start = _mm512_min_epu64(load(j), lastv);
            // `end - start` wraps for an end before its start: the min gives `len`.
            let n = _mm512_min_epu64(_mm512_sub_epi64(load(j + 1), start), lenv);
            let first = offs[j].as_usize().min(last);
            // Starts before the first (offsets out of order) wrap: far.
            let rel = _mm512_sub_epi64(start, _mm512_set1_epi64(first as i64));
            let be = match values.get(first..first + 128) {
                Some(window) if VBMI && _mm512_cmpgt_epu64_mask(rel, near) == 0 => {
                    // In bounds: `window` is 128 bytes.
                    let (lo, hi) = (
                        _mm512_loadu_si512(window.as_ptr().cast()),
                        _mm512_loadu_si512(window[64..].as_ptr().cast()),
                    );
                    // Each lane's byte b reads `rel + 7 - b` (at most 127).
                    let index = _mm512_add_epi8(_mm512_shuffle_epi8(rel, spread), down);
                    // `VBMI` is set only inside `cut_words_vbmi`, whose caller
                    // checked the CPU has it.
                    _mm512_permutex2var_epi8(lo, index, hi)
                }
                _ => {
                    // In bounds: every start is at most `last`, and `last + 8
                    // <= values.len()`, so each lane reads 8 bytes inside
                    // `values`.
                    let raw = _mm512_i64gather_epi64::<1>(start, values.as_ptr().cast());
                    _mm512_shuffle_epi8(raw, rev)
                }
            };
            // !(MAX >> 8n): the top n bytes.
            let mask =
                _mm512_andnot_si512(_mm512_srlv_epi64(ones, _mm512_slli_epi64::<3>(n)), ones);
            let key = _mm512_or_si512(_mm512_and_si512(be, mask), n);
            // In bounds: `out[j..j + 8]` is 64 bytes.
            _mm512_storeu_si512(out[j..j + 8].as_mut_ptr().cast(), key);
        }
        true
    }
}

fn raw<T: ByteArrayType>(a: &GenericByteArray<T>, i: usize) -> &[u8] {
    a.value(i).as_ref()
}

fn raw_view<T: ByteViewType + ?Sized>(a: &GenericByteViewArray<T>, i: usize) -> &[u8] {
    a.value(i).as_ref()
}

fn by_index<K, G: Fn(usize) -> (K, K)>(len: usize, active: &[u64], get: G) -> ByIndex<'_, G> {
    ByIndex { len, get, active }
}

/// The literals as keys, `None` where null.
fn keys<K>(literals: &dyn Array, value: impl Fn(usize) -> K) -> Vec<Option<K>> {
    (0..literals.len())
        .map(|i| literals.is_valid(i).then(|| value(i)))
        .collect()
}

fn primitive<T: ArrowPrimitiveType, R: OrderRule>(
    rule: &R,
    min: &dyn Array,
    max: &dyn Array,
    literals: &dyn Array,
    active: &[u64],
) -> RuleBits
where
    T::Native: JavaOrd,
{
    let l = literals.as_primitive::<T>();
    let fuse = Keys {
        min: min.as_primitive::<T>().values(),
        max: max.as_primitive::<T>().values(),
        active,
    };
    rule.run(&keys(literals, |i| l.value(i).key()), fuse)
}

fn bytes<T: ByteArrayType, R: OrderRule>(
    rule: &R,
    min: &GenericByteArray<T>,
    max: &GenericByteArray<T>,
    literals: &GenericByteArray<T>,
    active: &[u64],
) -> RuleBits {
    rule.run(
        &keys(literals, |i| raw(literals, i)),
        by_index(min.len(), active, |i| (raw(min, i), raw(max, i))),
    )
}

fn views<T: ByteViewType + ?Sized, R: OrderRule>(
    rule: &R,
    min: &GenericByteViewArray<T>,
    max: &GenericByteViewArray<T>,
    literals: &GenericByteViewArray<T>,
    active: &[u64],
) -> RuleBits {
    rule.run(
        &keys(literals, |i| raw_view(literals, i)),
        by_index(min.len(), active, |i| (raw_view(min, i), raw_view(max, i))),
    )
}

/// A one-row array of `t` holding a NaN, for floats.
pub(crate) fn nan_of(t: &DataType) -> Option<arrow_array::ArrayRef> {
    use arrow_array::{Float16Array, Float32Array, Float64Array};
    use std::sync::Arc;
    Some(match t {
        DataType::Float16 => Arc::new(Float16Array::from(std::vec![half::f16::NAN])),
        DataType::Float32 => Arc::new(Float32Array::from(std::vec![f32::NAN])),
        DataType::Float64 => Arc::new(Float64Array::from(std::vec![f64::NAN])),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    /// Every byte string of length 0..=3 over `0x00, 0x01, 0x7F, 0xFF`.
    fn strings() -> Vec<Vec<u8>> {
        let mut all = vec![vec![]];
        let mut last = vec![vec![]];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    [0x00u8, 0x01, 0x7F, 0xFF].map(|b| [s.as_slice(), &[b]].concat())
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn cut_keys_order_as_the_cut_strings() {
        let all = strings();
        for len in 0..=CUT_MAX {
            for a in &all {
                let cut_a = &a[..len.min(a.len())];
                for b in &all {
                    let cut_b = &b[..len.min(b.len())];
                    assert_eq!(cut_key(a, len).cmp(&cut_key(b, len)), cut_a.cmp(cut_b));
                }
            }
        }
    }

    #[test]
    fn cut_key_at_loads_as_cut_key() {
        // Strings packed back to back: the early ones are read with one
        // 8-byte load, the last ones (fewer than 8 bytes left) byte by byte.
        let all = strings();
        let values: Vec<u8> = all.concat();
        let mut start = 0;
        for s in &all {
            for len in 0..=CUT_MAX {
                assert_eq!(
                    cut_key_at(&values, start, start + s.len(), len),
                    cut_key(s, len)
                );
            }
            start += s.len();
        }
    }

    /// Both word kernels give [`cut_key`] of every string of a window of 64
    /// strings packed back to back with nothing after them, or refuse the
    /// window when its last offset leaves fewer than 8 bytes.
    #[test]
    fn cut_key_words_match_cut_key() {
        // Short strings, then some long enough that eight span more than
        // the VBMI window (121 bytes), so both its ways run.
        let mut long = strings();
        for (i, s) in long.iter_mut().enumerate().filter(|(i, _)| i % 5 == 0) {
            s.extend(std::iter::repeat_n(i as u8, i % 40));
        }
        // Every string at least CUT_MAX long (the one-mask words), and the
        // same with one short string in every 50.
        let full: Vec<Vec<u8>> = strings()
            .into_iter()
            .enumerate()
            .map(|(i, s)| [s, vec![i as u8; 7 + i % 9]].concat())
            .collect();
        let mut gaps = full.clone();
        for s in gaps.iter_mut().step_by(50) {
            s.truncate(3);
        }
        for all in [strings(), long, full, gaps] {
            check_cut_key_words(all);
        }
    }

    /// Offsets out of order, before the values or past their end (never in
    /// a valid array): [`cut_keys_word`] reads inside the values buffer
    /// (which is exactly `last + 8` bytes, so valgrind or a sanitizer would
    /// see an overread) and keys its strings as they read.
    #[test]
    fn cut_keys_word_reads_inside_wild_offsets() {
        let values: Vec<u8> = (0..48u8).collect();
        let last = values.len() - 8;
        let shapes: [fn(usize) -> i64; 5] = [
            |j| (j as i64 * 7) % 41,
            |j| 40 - j as i64 % 41,
            |j| if j % 3 == 0 { -1 } else { 5 },
            |j| if j == 10 { 1 << 40 } else { j as i64 % 30 },
            |j| i64::MIN + j as i64,
        ];
        for shape in shapes {
            let mut o64: [i64; 65] = core::array::from_fn(shape);
            o64[64] = last as i64;
            let o32: [i32; 65] = core::array::from_fn(|j| o64[j] as i32);
            for len in 0..=CUT_MAX {
                let mut got = [0u64; 64];
                assert!(cut_keys_word(&o64, &values, len, &mut got));
                assert!(cut_keys_word(&o32, &values, len, &mut got));
                // A string out of order has no bytes: each key is its bytes
                // from the clamped start, at most `len` of them.
                for (j, key) in got.iter().enumerate() {
                    assert!(key & 0xFF <= len as u64, "{j} {key:x}");
                }
            }
        }
    }

    fn check_cut_key_words(all: Vec<Vec<u8>>) {
        let mut offsets = vec![0usize];
        for s in &all {
            offsets.push(offsets.last().unwrap() + s.len());
        }
        let values: Vec<u8> = all.concat();
        for base in (0..all.len() - 64).step_by(7).chain([all.len() - 64]) {
            for len in 0..=CUT_MAX {
                let o32: [i32; 65] = core::array::from_fn(|j| offsets[base + j] as i32);
                let o64: [i64; 65] = core::array::from_fn(|j| offsets[base + j] as i64);
                let fits = offsets[base + 64] + 8 <= values.len();
                let want: Vec<u64> = (0..64).map(|j| cut_key(&all[base + j], len)).collect();
                let mut got = [0u64; 64];
                assert_eq!(cut_keys_word(&o32, &values, len, &mut got), fits);
                if fits {
                    assert_eq!(got.to_vec(), want, "base {base} len {len}");
                }
                assert_eq!(cut_keys_word(&o64, &values, len, &mut got), fits);
                if fits {
                    assert_eq!(got.to_vec(), want, "base {base} len {len}");
                }
                #[cfg(target_arch = "x86_64")]
                if avx512_cut() {
                    let vbmi = std::is_x86_feature_detected!("avx512vbmi");
                    for (permute, wide) in
                        [(false, false), (false, true), (true, false), (true, true)]
                    {
                        if permute && !vbmi {
                            continue;
                        }
                        let mut got = [0u64; 64];
                        // SAFETY: the CPU has AVX-512 F and BW, and VBMI
                        // where `permute` is set.
                        let ok = unsafe {
                            match (permute, wide) {
                                (false, false) => cut_keys_avx512(&o32, &values, len, &mut got),
                                (false, true) => cut_keys_avx512(&o64, &values, len, &mut got),
                                (true, false) => cut_keys_vbmi(&o32, &values, len, &mut got),
                                (true, true) => cut_keys_vbmi(&o64, &values, len, &mut got),
                            }
                        };
                        assert_eq!(ok, fits);
                        if fits {
                            assert_eq!(
                                got.to_vec(),
                                want,
                                "avx512 {permute} base {base} len {len}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// [`cut_rule`]'s word loops (portable, AVX2 and AVX-512) against a
    /// per-container loop of [`CutPrefix::pair`]: 0..=130 containers,
    /// sliced arrays, nulls, values ending right after the last string,
    /// dense, sparse and empty active words; prefix keys below, among and
    /// above the strings' (with the top bit set and not), both negations.
    #[test]
    fn cut_words_match_a_loop() {
        use arrow_array::{BinaryArray, LargeBinaryArray};
        let all = strings();
        let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next_u64();
        for n in 0..=130usize {
            let pick = |r: u64| -> Option<&[u8]> {
                (!r.is_multiple_of(11)).then(|| all[(r >> 8) as usize % all.len()].as_slice())
            };
            type Row<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);
            let mut rows: Vec<Row> = (0..n + 3).map(|_| (pick(next()), pick(next()))).collect();
            if n % 2 == 1 {
                // Sorted by min: whole words the min refutes.
                rows.sort_by_key(|r| r.0);
            }
            let min = BinaryArray::from(rows.iter().map(|r| r.0).collect::<Vec<_>>()).slice(3, n);
            let max = BinaryArray::from(rows.iter().map(|r| r.1).collect::<Vec<_>>()).slice(3, n);
            let (lmin, lmax) = (
                LargeBinaryArray::from(rows.iter().map(|r| r.0).collect::<Vec<_>>()).slice(3, n),
                LargeBinaryArray::from(rows.iter().map(|r| r.1).collect::<Vec<_>>()).slice(3, n),
            );
            let words = n.div_ceil(64);
            let actives = [
                vec![!0u64; words],
                (0..words).map(|_| next()).collect(),
                (0..words).map(|_| next() & next() & next()).collect(),
                vec![0u64; words],
            ];
            for active in &actives {
                for len in [0, 1, 2, 5, CUT_MAX] {
                    // A key of a string picked at random, so that some
                    // containers hold it, and fixed ones around them.
                    let picked = cut_key(&all[next() as usize % all.len()], len);
                    let keys = [0, 0x0100_0000_0000_0002, 0x7fff_ffff_ffff_ff07, 1 << 63];
                    for key in keys.into_iter().chain([picked, picked ^ 1, u64::MAX]) {
                        for negated in [false, true] {
                            let rule = CutPrefix { key, negated };
                            let want = pack_active(n, active, |i| {
                                rule.pair(cut_key(min.value(i), len), cut_key(max.value(i), len))
                            });
                            check_cut_words(&want, rule, len, active, (&min, &max), (&lmin, &lmax));
                        }
                    }
                }
            }
        }
    }

    /// [`cut_none_avx2`] and [`cut_pair_avx2`] give [`CutPrefix::none`] and
    /// [`CutPrefix::pair`] bit for bit: keys equal to the prefix's, one
    /// either side of it, with the top bit set and not, and at random.
    #[test]
    fn cut_rule_words_match_the_rule() {
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        for round in 0..400 {
            let key = match round % 4 {
                0 => next(),
                1 => next() | 1 << 63,
                2 => next() >> 1,
                _ => [0, 1, u64::MAX, 1 << 63, (1 << 63) - 1][round / 4 % 5],
            };
            // Keys near the prefix's, so every compare goes each way.
            let mut near = || match next() % 6 {
                0 => key,
                1 => key.wrapping_add(1),
                2 => key.wrapping_sub(1),
                3 => key ^ 1 << 63,
                _ => next(),
            };
            let ka: [u64; 64] = std::array::from_fn(|_| near());
            let kb: [u64; 64] = std::array::from_fn(|_| near());
            for negated in [false, true] {
                let rule = CutPrefix { key, negated };
                let want_none = (0..64).fold(0u64, |w, j| w | u64::from(rule.none(ka[j])) << j);
                let want = (0..64).fold((0u64, 0u64), |(m, a), j| {
                    let (x, y) = rule.pair(ka[j], kb[j]);
                    (m | u64::from(x) << j, a | u64::from(y) << j)
                });
                assert_eq!(
                    refuted_word::<false, false>(rule, &ka),
                    want_none,
                    "{rule:?}"
                );
                assert_eq!(pair_word::<false, false>(rule, &ka, &kb), want, "{rule:?}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2.
                    let got = unsafe { (cut_none_avx2(rule, &ka), cut_pair_avx2(rule, &ka, &kb)) };
                    assert_eq!(got, (want_none, want), "avx2 {rule:?}");
                }
            }
        }
    }

    /// Every build of [`cut_words`] over `small` (Binary) and `large`
    /// (LargeBinary) gives `want`.
    fn check_cut_words(
        want: &(Vec<u64>, Vec<u64>),
        rule: CutPrefix,
        len: usize,
        active: &[u64],
        small: (&arrow_array::BinaryArray, &arrow_array::BinaryArray),
        large: (
            &arrow_array::LargeBinaryArray,
            &arrow_array::LargeBinaryArray,
        ),
    ) {
        let say = format!("n {} len {len} {rule:?}", small.0.len());
        let check = |got: RuleBits, what: &str| {
            assert_eq!((&got.may, &got.all), (&want.0, &want.1), "{what} {say}");
        };
        let ((min, max), (lmin, lmax)) = (small, large);
        // One build over both offset widths.
        macro_rules! both {
            ($build:path, $what:literal) => {
                check($build(min, max, active, len, rule), $what);
                check(
                    $build(lmin, lmax, active, len, rule),
                    concat!($what, " large"),
                );
            };
        }
        both!(cut_words::<_, false, false, false>, "portable");
        check(cut_rule(min, max, active, len, rule).unwrap(), "dispatch");
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has AVX2 and POPCNT.
            unsafe {
                both!(cut_words_avx2, "avx2");
            }
        }
        #[cfg(target_arch = "x86_64")]
        if avx512_cut() {
            // SAFETY: the CPU has AVX-512 F, BW and POPCNT.
            unsafe {
                both!(cut_words_avx512, "avx512");
            }
            if std::is_x86_feature_detected!("avx512vbmi") {
                // SAFETY: the CPU has AVX-512 F, BW, VBMI and POPCNT.
                unsafe {
                    both!(cut_words_vbmi, "vbmi");
                }
            }
        }
    }

    /// [`Fuse::fuse_words`] over primitive keys gives [`Fuse::fuse_sparse`]'s
    /// bits: 0..=130 containers from an unaligned start, whole, partial,
    /// sparse and empty active words.
    #[test]
    fn fuse_words_match_fuse_sparse() {
        let values: Vec<i64> = (0..140i64)
            .map(|i| i.wrapping_mul(-7_046_029_254_386_353_131))
            .collect();
        let rule = |a: i64, b: i64| (a % 3 == 0, b < a.wrapping_add(1 << 60));
        for n in 0..=130usize {
            let (min, max) = (&values[3..3 + n], &values[5..5 + n]);
            let words = n.div_ceil(64);
            let actives = [
                vec![!0u64; words],
                (0..words as u64)
                    .map(|w| 0x00FF_F00F_0F0F_FF01u64.rotate_left(w as u32 * 7))
                    .collect(),
                (0..words as u64)
                    .map(|w| 0x8000_0100_0010_0001u64 << w)
                    .collect(),
                vec![0u64; words],
            ];
            for active in &actives {
                let keys = || Keys { min, max, active };
                let want = keys().fuse_sparse(rule);
                let word = |mins: &[u64; 64], maxs: &[u64; 64]| {
                    let (mut m, mut l) = (0u64, 0u64);
                    for j in 0..64 {
                        // Back from the ordinal: the sign bit flipped.
                        let (a, b) = ((mins[j] ^ 1 << 63) as i64, (maxs[j] ^ 1 << 63) as i64);
                        let (x, y) = rule(a, b);
                        m |= u64::from(x) << j;
                        l |= u64::from(y) << j;
                    }
                    (m, l)
                };
                let direct = key_words(keys(), word, rule);
                assert_eq!((&direct.may, &direct.all), (&want.may, &want.all), "n {n}");
                // Each vector build this CPU has, whichever `fuse_words` picks.
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2.
                    let got = unsafe { key_words_avx2(keys(), word, rule) };
                    assert_eq!((&got.may, &got.all), (&want.may, &want.all), "avx2 n {n}");
                }
                #[cfg(target_arch = "x86_64")]
                if avx512_pairs() {
                    // SAFETY: the CPU has AVX-512 F, BW, DQ and VL.
                    let got = unsafe { key_words_avx512(keys(), word, rule) };
                    assert_eq!((&got.may, &got.all), (&want.may, &want.all), "avx512 n {n}");
                }
                let got = keys().fuse_words(word, rule);
                assert_eq!(
                    (got.may, got.all),
                    (want.may, want.all),
                    "n {n} active {active:x?}"
                );
            }
        }
    }
}
