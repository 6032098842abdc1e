//! IN / NOT IN a list of literals: Paimon's `MultiLiteralsLeafFunction`.
//!
//! arrow-rs has no set-membership kernel, so this builds one. The membership
//! bitmap (one bit per row, nulls not yet applied) comes from one of two
//! strategies ([`InStrategy`]):
//!
//! - **OR of `eq`**: one arrow-ord `eq` pass per literal, its bitmap OR-ed into
//!   an accumulator a `u64` word at a time. Cheapest for a few literals.
//! - **Hash set** ([`set`](super::set)): the literals in a set specialised
//!   per physical type (a bitmap over their range for close integers, a flat
//!   hash table otherwise), one lookup per row, results packed 64 rows per
//!   word. Cost nearly independent of the list length. Strings and binaries
//!   ([`string_set`](super::string_set)) first drop the rows whose length
//!   no literal has (a word of 64 rows at a time from the offsets or
//!   views), then key the rest by length and first and last 8 bytes
//!   (Utf8View strings of at most 12 bytes from the view alone) and compare
//!   bytes only on a key hit.
//!
//! For strings each `=` of OR-of-`eq` is the crate's own string kernel, yet
//! the set kernel measured faster from 4 literals on in 7 of 8 length / mix
//! cases (docs/strings.md, "IN over strings"), so the crossover
//! [`IN_HASH_MIN_LITERALS`] is the integers' one for strings too.
//!
//! A dictionary column is tested on its dictionary values once, and the
//! result is mapped through the keys (run-end encoded columns likewise,
//! through their runs). Then [`unpack_bits`] applies the column's nulls and
//! `negate` on the way to bytes. Floats compare in Java's order on both
//! paths: every NaN equals every other NaN, `-0.0` differs from `+0.0`.

use super::boolean::unpack_bits;
use super::compare::{compare_bits, CompareOp};
use super::literals::{check, invalid, value_type};
use super::logical::per_value;
use super::order::{compare_slice, JavaOrdered, Ordinal};
use super::set::SetMember;
use super::stats::{Fuse, OrderRule, RuleBits, StatsColumn};
use super::{set, LeafFunction};
use arrow_array::Array;
use arrow_buffer::{BooleanBuffer, Buffer};
use arrow_schema::ArrowError;
use std::format;
use std::vec;
use std::vec::Vec;

/// With [`InStrategy::Auto`], lists with at least this many non-null literals
/// use the set, shorter ones the OR of `eq` bitmaps.
///
/// Measured with `cargo bench --features arrow --bench arrow`, group
/// `in_crossover` (1 Mi rows of Int64, 10% nulls, literals `i * 7919`, so the
/// set is a range bitmap; AMD EPYC family 25 model 17 (Zen 4), 2 shared cores,
/// 2026-11-30, the run quoted in docs/performance.md). OR-of-`eq` grows by about one
/// `eq` pass per literal: 1.05 / 2.33 / 2.02 / 7.45 / 32.0 ms for 1 / 2 / 4 /
/// 8 / 64 literals. The set is nearly flat: 2.07 / 2.60 / 2.78 / 3.04 / 4.66
/// ms. OR-of-`eq` wins at 1 and 2; at 4 it won this run and lost the one
/// before (7.3 against 5.5 ms); from 8 on the set wins by 2.5x and more. The
/// earlier measurement on a family 23 EPYC (2026-11-29) put the crossover
/// between 2 and 4 as well.
///
/// Strings and binaries use the same threshold: `BITBYTES_MIN_OF=5 cargo
/// bench --features arrow --bench strings` (groups `in/*`, 1 Mi rows of
/// Utf8 and Utf8View, Zen 4 as above, 2026-12-02, docs/strings.md "IN over
/// strings") has OR-of-`eq` (the crate's `=` kernel per literal) ahead at 2
/// literals on many-match short rows and Utf8 paths (0.4-0.75x), and the
/// string set kernel ahead from 4 on in 23 of 24 cases (1.4-120x).
pub const IN_HASH_MIN_LITERALS: usize = 4;

/// How [`MultiLiteralsLeafFunction`] computes set membership. Every strategy
/// gives the same bytes; only the speed differs.
///
/// # Examples
///
/// ```
/// use arrow_array::Int32Array;
/// use bitbytes::arrow::{InStrategy, LeafFunction, MultiLiteralsLeafFunction};
///
/// let column = Int32Array::from(vec![Some(1), None, Some(3)]);
/// let literals = Int32Array::from(vec![3, 4]);
/// for strategy in [InStrategy::Auto, InStrategy::OrOfEq, InStrategy::Hash] {
///     let leaf = MultiLiteralsLeafFunction::new(false).with_strategy(strategy);
///     assert_eq!(leaf.test(&column, &literals)?, [0, 0, 1]);
/// }
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum InStrategy {
    /// [`OrOfEq`](InStrategy::OrOfEq) below [`IN_HASH_MIN_LITERALS`] non-null
    /// literals, [`Hash`](InStrategy::Hash) from there on.
    #[default]
    Auto,
    /// One arrow-ord `eq` pass per non-null literal, OR-ed a word at a time.
    OrOfEq,
    /// A set of the literals: for integer and temporal columns a bitmap over
    /// the literals' range when it is small, else a flat hash table behind a
    /// filter bitmap; a hash set for the other types. Types without a set
    /// specialisation (fixed-size binary and nested types; intervals are
    /// hashed) fall back to [`OrOfEq`](InStrategy::OrOfEq). Dictionary and
    /// run-end encoded columns test their stored values.
    Hash,
}

/// `column IN (literals)` (`negate = false`) or `column NOT IN (literals)`
/// (`negate = true`), one byte per row, with Paimon's (and SQL's) nulls:
///
/// | row | literal list | IN | NOT IN |
/// |---|---|---|---|
/// | null | any | 0 | 0 |
/// | equals a non-null literal | any | 1 | 0 |
/// | equals no literal | has no null literal | 0 | 1 |
/// | equals no literal | contains a null | 0 | 0 |
/// | non-null | empty list | 0 | 1 |
///
/// The literals must have the column's value type (the dictionary's value
/// type for a dictionary column). Equality is the one of the comparisons:
/// for floats Java's `Double.compare`, so `-0.0` and `+0.0` differ and every
/// NaN (any sign or payload) equals every other NaN.
///
/// # Examples
///
/// ```
/// use arrow_array::Int64Array;
/// use bitbytes::arrow::{LeafFunction, MultiLiteralsLeafFunction};
///
/// let column = Int64Array::from(vec![Some(1), Some(2), Some(3), None]);
/// let with_null = Int64Array::from(vec![Some(1), None, Some(3)]);
/// let is_in = MultiLiteralsLeafFunction::new(false);
/// assert_eq!(is_in.test(&column, &with_null)?, [1, 0, 1, 0]);
/// assert_eq!(is_in.negate().test(&column, &with_null)?, [0, 0, 0, 0]);
/// let empty = Int64Array::from(Vec::<i64>::new());
/// assert_eq!(is_in.negate().test(&column, &empty)?, [1, 1, 1, 0]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MultiLiteralsLeafFunction {
    negate: bool,
    strategy: InStrategy,
}

impl MultiLiteralsLeafFunction {
    /// IN (`negate = false`) or NOT IN (`negate = true`), with
    /// [`InStrategy::Auto`].
    pub fn new(negate: bool) -> Self {
        Self {
            negate,
            strategy: InStrategy::Auto,
        }
    }

    /// The same function with a forced membership strategy (for tests and
    /// benchmarks; the output does not depend on it).
    pub fn with_strategy(self, strategy: InStrategy) -> Self {
        Self { strategy, ..self }
    }

    /// `true` for NOT IN.
    pub fn is_negated(&self) -> bool {
        self.negate
    }

    /// The membership strategy.
    pub fn strategy(&self) -> InStrategy {
        self.strategy
    }
}

impl LeafFunction for MultiLiteralsLeafFunction {
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] when the literals' type differs
    /// from the column's value type, when `out` is shorter than the column, or
    /// when arrow-ord cannot compare the column's type. An empty list is not
    /// an error.
    fn test_into(
        &self,
        column: &dyn Array,
        literals: &dyn Array,
        out: &mut [u8],
    ) -> Result<(), ArrowError> {
        check(column, literals, out)?;
        let out = &mut out[..column.len()];
        let null_literals = literals.logical_null_count();
        if self.negate && null_literals > 0 {
            // `x NOT IN (.., NULL)` is never true.
            out.fill(0);
            return Ok(());
        }
        let non_null = literals.len() - null_literals;
        let member = if non_null == 0 {
            BooleanBuffer::new_unset(column.len())
        } else {
            membership(column, literals, non_null, self.strategy)?
        };
        unpack_bits(&member, column.logical_nulls().as_ref(), self.negate, out).map_err(invalid)
    }

    fn negate(&self) -> Self {
        Self {
            negate: !self.negate,
            ..*self
        }
    }
}

/// One bit per row of `column`: its value equals a non-null literal. Bits of
/// null rows are unspecified.
pub(crate) fn membership(
    column: &dyn Array,
    literals: &dyn Array,
    non_null: usize,
    strategy: InStrategy,
) -> Result<BooleanBuffer, ArrowError> {
    let hash = match strategy {
        InStrategy::Auto => non_null >= IN_HASH_MIN_LITERALS,
        InStrategy::OrOfEq => false,
        InStrategy::Hash => true,
    };
    // Dictionaries and run-end encodings: the membership of each stored value
    // once, then one mapping to the rows (not one mapping per literal).
    let hash = hash && set::supports(value_type(column.data_type()));
    per_value(column, &mut |values| {
        if !hash {
            return or_of_eq(values, literals);
        }
        set::membership(values, literals).ok_or_else(|| {
            ArrowError::InvalidArgumentError(format!(
                "literal type {} does not match column value type {}",
                literals.data_type(),
                values.data_type()
            ))
        })
    })
}

/// `values[i] IN (literals)` in Paimon's (Java's) equality
/// ([`JavaOrdered`]: every NaN equals every NaN, `-0.0` is not `0.0`), one
/// bit per value (LSB first, offset 0): the kernel an IN leaf
/// ([`Function::In`](crate::arrow::Function::In),
/// [`MultiLiteralsLeafFunction`]) runs over a primitive column, for values
/// held in a plain slice with no arrow-rs array around them. As
/// [`InStrategy::Auto`]: one `=` pass a literal below
/// [`IN_HASH_MIN_LITERALS`] literals, a set from that many on. Nulls are
/// the caller's: IN selects a valid row whose bit is set (null literals
/// left out of `literals`), NOT IN a valid row whose bit is clear, and none
/// at all when the list held a null.
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::in_slice;
///
/// let bits = in_slice(&[3i32, 7, 5, 9], &[9, 3]);
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, false, false, true]);
/// // Java's equality: NaN is in a list that holds NaN.
/// let bits = in_slice(&[f64::NAN, 0.0, -0.0], &[f64::NAN, -0.0, 1.0, 2.0]);
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, false, true]);
/// ```
pub fn in_slice<T: JavaOrdered>(values: &[T], literals: &[T]) -> BooleanBuffer {
    T::in_slice(values, literals)
}

/// [`in_slice`] for each [`JavaOrdered`] type.
pub(crate) fn slice_membership<T: JavaOrdered + SetMember>(
    values: &[T],
    literals: &[T],
) -> BooleanBuffer {
    let len = values.len();
    if literals.len() >= IN_HASH_MIN_LITERALS {
        return T::membership(values, literals.to_vec());
    }
    let mut words = vec![0u64; len.div_ceil(64)];
    for &l in literals {
        let eq = compare_slice(values, CompareOp::Equal, l);
        for (acc, word) in words.iter_mut().zip(eq.bit_chunks().iter_padded()) {
            *acc |= word;
        }
    }
    BooleanBuffer::new(Buffer::from_vec(words), 0, len)
}

/// One `eq` pass per non-null literal, OR-ed a `u64` word at a time.
fn or_of_eq(column: &dyn Array, literals: &dyn Array) -> Result<BooleanBuffer, ArrowError> {
    let len = column.len();
    let mut words = vec![0u64; len.div_ceil(64)];
    let nulls = literals.logical_nulls();
    for i in 0..literals.len() {
        if nulls.as_ref().is_some_and(|n| n.is_null(i)) {
            continue;
        }
        let eq = compare_bits(column, CompareOp::Equal, &literals.slice(i, 1))?;
        for (acc, word) in words.iter_mut().zip(eq.bit_chunks().iter_padded()) {
            *acc |= word;
        }
    }
    Ok(BooleanBuffer::new(Buffer::from_vec(words), 0, len))
}

/// The statistics rule of IN / NOT IN (Paimon Java's): IN may match when a
/// non-null literal lies in `[min, max]`, and every row does when min = max
/// = a literal (exact bounds); NOT IN is NoMatch only when min = max = a
/// literal (exact bounds), and AllMatch when no literal lies in `[min, max]`.
/// The literals are sorted once; each container finds the first literal at
/// least its min: by a [`RankTable`] where the keys map onto `u64` and the
/// list is long enough to pay for one, else by a binary search.
pub(crate) struct InStats {
    pub(crate) negate: bool,
    pub(crate) exact: bool,
}

/// From this many distinct literals on, a [`RankTable`] replaces the binary
/// search (below it the search is at most three steps).
const RANK_TABLE_FROM: usize = 8;

impl OrderRule for InStats {
    fn run<K: Ordinal, F: Fuse<K>>(&self, literals: &[Option<K>], fuse: F) -> RuleBits {
        let mut keys: Vec<K> = literals.iter().flatten().copied().collect();
        keys.sort_unstable();
        keys.dedup();
        let (negate, exact) = (self.negate, self.exact);
        // A binary search over the literals per container.
        let search = |fuse: F| {
            fuse.fuse_sparse(|min, max| {
                let first = keys.get(keys.partition_point(|k| *k < min)).copied();
                in_verdict(negate, exact, min, max, first)
            })
        };
        let ordinals: Option<Vec<u64>> = keys.iter().map(|k| k.ordinal()).collect();
        match ordinals {
            Some(ordinals) if ordinals.len() >= RANK_TABLE_FROM => {
                let Some(table) = RankTable::new(&ordinals) else {
                    return search(fuse);
                };
                fuse.fuse_words(
                    |mins, maxs| table.word(negate, exact, mins, maxs),
                    |min, max| {
                        // `ordinal()` is `Some` for every key of this type, and
                        // orders (and equates) as the keys do.
                        let (min, max) = (min.ordinal().unwrap_or(0), max.ordinal().unwrap_or(0));
                        in_verdict(negate, exact, min, max, table.first_at_least(min))
                    },
                )
            }
            _ => search(fuse),
        }
    }
}

/// The IN (`negate`: NOT IN) bits of a container `[min, max]` whose first
/// literal at least `min` is `first`.
#[inline(always)]
fn in_verdict<K: Ord + Copy>(
    negate: bool,
    exact: bool,
    min: K,
    max: K,
    first: Option<K>,
) -> (bool, bool) {
    let hit = first.is_some_and(|k| k <= max);
    // Every value is this literal.
    let single = exact && hit && min == max && first == Some(min);
    if negate {
        (!single, !hit)
    } else {
        (hit, single)
    }
}

/// The first of sorted distinct `u64` keys at least `x`, by one load: the
/// range of the keys cut into buckets by the high bits of `x - keys[0]`,
/// each bucket holding its keys (at most [`SLOTS`]` - 1`) and, in the other
/// slots, the first key of the buckets after it. The answer is the least
/// slot at least `x`: no search, no branch on the data.
struct RankTable {
    /// Per bucket, then one more bucket for `x` above every key.
    slots: Vec<[u64; SLOTS]>,
    lo: u64,
    shift: u32,
    /// `u64::MAX` is a key (else it marks "no key").
    max_is_key: bool,
    /// The CPU has AVX-512 F: [`word`](RankTable::word) runs [`word_avx512`].
    avx512: bool,
    /// When the keys span less than `u32::MAX` (and `u64::MAX` is not
    /// one): per bucket its slots as `u32` offsets from `lo` (`u32::MAX`
    /// for "no key"), two to a `u64`, so [`word_avx512`] gathers a bucket in
    /// two loads, not four.
    packed: Option<Vec<[u64; 2]>>,
    /// Where the keys fit one (then `slots` is empty and `packed` `None`):
    /// a finer table read by one 8-byte load per container ([`OneTable`]).
    one: Option<OneTable>,
}

/// Buckets of at most one key each: per bucket one `u64`, its key (or,
/// for an empty bucket, the first key after it) in the low half and the
/// first key after the bucket in the high half, both as `u32` offsets from
/// the least key ([`NONE32`] for "no key"); a bucket of two or more keys
/// holds [`OVER`] in its low half and its containers search the keys. The
/// first key at least `x` is then the low half if it is at least `x`, else
/// the high half: one load and one compare ([`word_one_avx512`] gathers
/// eight buckets at once).
struct OneTable {
    /// Per bucket, then one more bucket for `x` above every key.
    entries: Vec<u64>,
    shift: u32,
    /// The sorted keys, searched for `x` in a bucket of several.
    keys: Vec<u64>,
    /// Bit `b` set when a key lies in buckets `b..=b + NEAR` (buckets
    /// from 2047 on read bit 2047): a container whose buckets span at most
    /// `NEAR` and whose first bucket's bit is clear holds no key, and
    /// [`word_one_avx512`] fetches no bucket for it.
    near: [u64; ONE_BUCKETS / 64],
}

/// How many buckets after its first a container may span and still be
/// decided by [`OneTable::near`].
const NEAR: usize = 3;

/// "No key" in a [`OneTable`] half.
const NONE32: u64 = u32::MAX as u64;

/// A [`OneTable`] bucket of more than one key.
const OVER: u64 = NONE32 - 1;

/// Buckets of a [`OneTable`] per key (so that few buckets hold two), at
/// most [`ONE_BUCKETS`].
const ONE_PER_KEY: usize = 16;

/// The most buckets of a [`OneTable`] (16 KiB, to stay in the L1 cache).
const ONE_BUCKETS: usize = 1 << 11;

impl OneTable {
    /// From sorted distinct `keys`, `hi - lo < OVER`; `None` when more than
    /// one bucket in 64 holds several keys.
    fn new(keys: &[u64]) -> Option<OneTable> {
        let (lo, hi) = (*keys.first()?, *keys.last()?);
        if hi - lo >= OVER {
            return None;
        }
        let buckets = (keys.len() * ONE_PER_KEY)
            .next_power_of_two()
            .clamp(64, ONE_BUCKETS);
        let shift = (u64::BITS - ((hi - lo) / buckets as u64).leading_zeros()).min(63);
        let bucket = |k: u64| ((k - lo) >> shift) as usize;
        let count = bucket(hi) + 1;
        // One pass over the keys: each bucket's first key (as an offset)
        // in the low half, the high half set where it holds several, and
        // the "key near" bits.
        let mut entries = vec![NONE32 | NONE32 << 32; count + 1];
        let mut near = [0u64; ONE_BUCKETS / 64];
        let mut over = 0;
        for &k in keys {
            let b = bucket(k);
            if entries[b] & NONE32 == NONE32 {
                entries[b] = k - lo;
            } else if entries[b] >> 32 == 0 {
                entries[b] |= 1 << 32;
                over += 1;
            }
            for d in b.saturating_sub(NEAR)..=b {
                near[d / 64] |= 1 << (d % 64);
            }
        }
        if over * 64 > count {
            return None;
        }
        // From the last bucket down: the first key after each bucket.
        let mut after = NONE32;
        for entry in entries[..count].iter_mut().rev() {
            let (first, several) = (*entry & NONE32, *entry >> 32 != 0);
            let low = match (first == NONE32, several) {
                (true, _) => after,
                (false, false) => first,
                (false, true) => OVER,
            };
            *entry = low | after << 32;
            if first != NONE32 {
                after = first;
            }
        }
        Some(OneTable {
            near,
            entries,
            shift,
            keys: keys.to_vec(),
        })
    }

    /// The first key at least `x`, if any.
    #[inline(always)]
    fn first_at_least(&self, x: u64) -> Option<u64> {
        let lo = self.keys.first().copied().unwrap_or(0);
        let rel = x.saturating_sub(lo);
        let last = self.entries.len() - 1;
        let e = self.entries[((rel >> self.shift) as usize).min(last)];
        let low = e & NONE32;
        if low == OVER {
            return self
                .keys
                .get(self.keys.partition_point(|&k| k < x))
                .copied();
        }
        // Offsets of keys are below `OVER`: a `rel` clamped to `NONE32` is
        // above every key.
        let first = if low >= rel.min(NONE32) { low } else { e >> 32 };
        (first != NONE32).then(|| lo + first)
    }
}

/// Slots per bucket: up to three keys and the next bucket's first key.
const SLOTS: usize = 4;

/// The most buckets a table may take (1 MiB); keys too clustered for it
/// are searched.
const MAX_BUCKETS: usize = 1 << 15;

impl RankTable {
    /// A [`OneTable`] where the keys fit one, else [`slotted`](RankTable::slotted).
    fn new(keys: &[u64]) -> Option<RankTable> {
        let (lo, hi) = (*keys.first()?, *keys.last()?);
        match OneTable::new(keys) {
            Some(one) => Some(RankTable {
                slots: Vec::new(),
                lo,
                shift: 0,
                max_is_key: hi == u64::MAX,
                avx512: avx512(),
                packed: None,
                one: Some(one),
            }),
            None => RankTable::slotted(keys),
        }
    }

    /// From two buckets a key, doubling until no bucket holds more than
    /// `SLOTS - 1` keys; `None` past [`MAX_BUCKETS`].
    fn slotted(keys: &[u64]) -> Option<RankTable> {
        let (lo, hi) = (*keys.first()?, *keys.last()?);
        let mut buckets = (keys.len() * 2).next_power_of_two().max(64);
        while buckets <= MAX_BUCKETS {
            // The least shift giving `(hi - lo) >> shift < buckets`.
            let shift = (u64::BITS - ((hi - lo) / buckets as u64).leading_zeros()).min(63);
            let bucket = |k: u64| ((k - lo) >> shift) as usize;
            let count = bucket(hi) + 1;
            let mut slots = vec![[u64::MAX; SLOTS]; count + 1];
            let mut fits = true;
            // From the last bucket down, each bucket's free slots hold the
            // first key after it.
            let mut after = u64::MAX;
            let mut end = keys.len();
            for b in (0..count).rev() {
                let start = keys[..end].partition_point(|&k| bucket(k) < b);
                let mine = &keys[start..end];
                fits &= mine.len() < SLOTS;
                let slot = &mut slots[b];
                for (s, v) in slot
                    .iter_mut()
                    .zip(mine.iter().chain(std::iter::repeat(&after)))
                {
                    *s = *v;
                }
                after = mine.first().copied().unwrap_or(after);
                end = start;
            }
            if fits {
                let packed = (hi - lo < u64::from(u32::MAX) && hi != u64::MAX).then(|| {
                    let rel = |v: u64| {
                        if v == u64::MAX {
                            u64::from(u32::MAX)
                        } else {
                            v - lo
                        }
                    };
                    slots
                        .iter()
                        .map(|b| [rel(b[0]) | rel(b[1]) << 32, rel(b[2]) | rel(b[3]) << 32])
                        .collect()
                });
                return Some(RankTable {
                    one: None,
                    packed,
                    slots,
                    lo,
                    shift,
                    max_is_key: hi == u64::MAX,
                    avx512: avx512(),
                });
            }
            buckets *= 2;
        }
        None
    }

    /// The first key at least `x`, if any.
    #[inline(always)]
    fn first_at_least(&self, x: u64) -> Option<u64> {
        if let Some(one) = &self.one {
            return one.first_at_least(x);
        }
        // At or below the first key: bucket 0; above the last bucket: the
        // one more, all "no key".
        let last = self.slots.len() - 1;
        let b = ((x.saturating_sub(self.lo) >> self.shift) as usize).min(last);
        let first = self.slots[b]
            .iter()
            .fold(u64::MAX, |m, &s| if s >= x { m.min(s) } else { m });
        (first != u64::MAX || self.max_is_key).then_some(first)
    }

    /// The IN (`negate`: NOT IN) bits of 64 containers from their bounds'
    /// ordinals: [`in_verdict`] of [`first_at_least`](RankTable::first_at_least),
    /// with AVX-512 where the CPU has it ([`word_avx512`]).
    #[inline]
    fn word(&self, negate: bool, exact: bool, mins: &[u64; 64], maxs: &[u64; 64]) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if self.avx512 {
            // SAFETY: `avx512` is set only where the CPU has AVX-512 F.
            return unsafe { word_avx512(self, negate, exact, mins, maxs) };
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = self.one.as_ref().filter(|_| avx2()) {
            // SAFETY: the CPU has AVX2.
            return unsafe { word_one_avx2_of(self.lo, one, negate, exact, mins, maxs) };
        }
        self.word_portable(negate, exact, mins, maxs)
    }

    /// [`word`](RankTable::word) one container at a time.
    fn word_portable(
        &self,
        negate: bool,
        exact: bool,
        mins: &[u64; 64],
        maxs: &[u64; 64],
    ) -> (u64, u64) {
        let (mut m, mut l) = (0u64, 0u64);
        for j in 0..64 {
            let (min, max) = (mins[j], maxs[j]);
            let (x, y) = in_verdict(negate, exact, min, max, self.first_at_least(min));
            m |= u64::from(x) << j;
            l |= u64::from(y) << j;
        }
        (m, l)
    }
}

/// [`RankTable::word`] with AVX-512, eight containers a step: the bucket
/// of each min (`max(x, lo) - lo` shifted, clamped to the last bucket), its
/// four slots by four gathers, the least slot at least the min by masked
/// `min`s, then IN's bits as masks.
///
/// # Safety
///
/// The CPU must have AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn word_avx512(
    table: &RankTable,
    negate: bool,
    exact: bool,
    mins: &[u64; 64],
    maxs: &[u64; 64],
) -> (u64, u64) {
    use std::arch::x86_64::*;
    if let Some(one) = &table.one {
        let lo = table.lo;
        return match (negate, exact) {
            // SAFETY: the caller checked the CPU has AVX-512 F.
            (false, false) => unsafe { word_one_avx512::<false, false>(lo, one, mins, maxs) },
            // SAFETY: the caller checked the CPU has AVX-512 F.
            (false, true) => unsafe { word_one_avx512::<false, true>(lo, one, mins, maxs) },
            // SAFETY: the caller checked the CPU has AVX-512 F.
            (true, false) => unsafe { word_one_avx512::<true, false>(lo, one, mins, maxs) },
            // SAFETY: the caller checked the CPU has AVX-512 F.
            (true, true) => unsafe { word_one_avx512::<true, true>(lo, one, mins, maxs) },
        };
    }
    let slots: &[[u64; SLOTS]] = &table.slots;
    let base = slots.as_ptr().cast::<i64>();
    let last = _mm512_set1_epi64((slots.len() - 1) as i64);
    let lo = _mm512_set1_epi64(table.lo as i64);
    let shift = _mm_cvtsi64_si128(i64::from(table.shift));
    let none = _mm512_set1_epi64(-1);
    let none32 = _mm512_set1_epi64(i64::from(u32::MAX));
    let found_any: u8 = if table.max_is_key { 0xFF } else { 0 };
    let lanes = |v: &[u64; 64], k: usize| -> __m512i {
        // SAFETY: `v[8k..8k + 8]` is 64 bytes.
        unsafe { _mm512_loadu_si512(v[8 * k..8 * k + 8].as_ptr().cast()) }
    };
    let bucket_of = |x: __m512i| {
        _mm512_min_epu64(
            _mm512_srl_epi64(_mm512_sub_epi64(_mm512_max_epu64(x, lo), lo), shift),
            last,
        )
    };
    // Packed tables: the buckets of all 64 mins first, then each bucket's
    // 16 bytes by two plain loads (cheaper than gathers on Zen 4).
    let (mut halves0, mut halves1) = ([0u64; 64], [0u64; 64]);
    if let Some(packed) = &table.packed {
        let mut buckets = [0u64; 64];
        for k in 0..8 {
            // SAFETY: `buckets[8k..8k + 8]` is 64 bytes.
            unsafe {
                _mm512_storeu_si512(
                    buckets[8 * k..8 * k + 8].as_mut_ptr().cast(),
                    bucket_of(lanes(mins, k)),
                )
            };
        }
        let end = packed.len() - 1;
        for j in 0..64 {
            let b = packed[(buckets[j] as usize).min(end)];
            halves0[j] = b[0];
            halves1[j] = b[1];
        }
    }
    let (mut m, mut l) = (0u64, 0u64);
    for k in 0..8 {
        let (x, mx) = (lanes(mins, k), lanes(maxs, k));
        let mut first = none;
        if table.packed.is_some() {
            // Offsets from `lo`: the min's clamped to `u32::MAX`, above every
            // key's (a min that far above `lo` is above every key).
            let x32 = _mm512_min_epu64(_mm512_sub_epi64(_mm512_max_epu64(x, lo), lo), none32);
            let mut first32 = none32;
            for v in [lanes(&halves0, k), lanes(&halves1, k)] {
                for slot in [_mm512_and_si512(v, none32), _mm512_srli_epi64::<32>(v)] {
                    let at_least = _mm512_cmpge_epu64_mask(slot, x32);
                    first32 = _mm512_mask_min_epu64(first32, at_least, first32, slot);
                }
            }
            // Back to keys; "no key" back to `u64::MAX`.
            let found = _mm512_cmpneq_epu64_mask(first32, none32);
            first = _mm512_mask_add_epi64(none, found, first32, lo);
        } else {
            let index = _mm512_slli_epi64::<2>(bucket_of(x));
            for s in 0..SLOTS as i64 {
                // SAFETY: `bucket <= slots.len() - 1`, so `4 * bucket + s` (s <
                // 4) indexes a `u64` inside `slots`.
                let v = unsafe {
                    _mm512_i64gather_epi64::<8>(_mm512_add_epi64(index, _mm512_set1_epi64(s)), base)
                };
                let at_least = _mm512_cmpge_epu64_mask(v, x);
                first = _mm512_mask_min_epu64(first, at_least, first, v);
            }
        }
        let found = _mm512_cmpneq_epu64_mask(first, none) | found_any;
        let hit = found & _mm512_cmple_epu64_mask(first, mx);
        let single = if exact {
            hit & _mm512_cmpeq_epu64_mask(x, mx) & _mm512_cmpeq_epu64_mask(first, x)
        } else {
            0
        };
        let (may, all) = if negate {
            (!single, !hit)
        } else {
            (hit, single)
        };
        m |= u64::from(may) << (8 * k);
        l |= u64::from(all) << (8 * k);
    }
    (m, l)
}

/// [`word_avx512`] by a [`OneTable`], eight containers a step: the
/// buckets of the eight mins as a vector; [`OneTable::near`] (in four
/// registers) rules out the containers with no key near them; the buckets
/// of the others by one masked gather (plain loads measured slower, and a
/// branch around an empty gather too); the first key at least the min by
/// one compare and a blend; the verdict as masks (`NEGATE` and `EXACT`
/// fixed at compile time, so no branch or byte shuffling per step).
/// Containers in a bucket of several keys by [`OneTable::first_at_least`].
///
/// # Safety
///
/// The CPU must have AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn word_one_avx512<const NEGATE: bool, const EXACT: bool>(
    lo: u64,
    one: &OneTable,
    mins: &[u64; 64],
    maxs: &[u64; 64],
) -> (u64, u64) {
    use std::arch::x86_64::*;
    let entries: &[u64] = &one.entries;
    let last = _mm512_set1_epi64((entries.len() - 1) as i64);
    let lov = _mm512_set1_epi64(lo as i64);
    let shift = _mm_cvtsi64_si128(i64::from(one.shift));
    let none32 = _mm512_set1_epi64(NONE32 as i64);
    let over = _mm512_set1_epi64(OVER as i64);
    let lanes = |v: &[u64; 64], k: usize| -> __m512i {
        // SAFETY: `v[8k..8k + 8]` is 64 bytes.
        unsafe { _mm512_loadu_si512(v[8 * k..8 * k + 8].as_ptr().cast()) }
    };
    let near: [__m512i; 4] = std::array::from_fn(|q| {
        // SAFETY: `near[8q..8q + 8]` is 64 bytes.
        unsafe { _mm512_loadu_si512(one.near[8 * q..8 * q + 8].as_ptr().cast()) }
    });
    let (bit_last, word_hi, low6) = (
        _mm512_set1_epi64(ONE_BUCKETS as i64 - 1),
        _mm512_set1_epi64(16),
        _mm512_set1_epi64(63),
    );
    let (one_bit, near_span) = (_mm512_set1_epi64(1), _mm512_set1_epi64(NEAR as i64));
    let empty = _mm512_set1_epi64((NONE32 | NONE32 << 32) as i64);
    let (mut may, mut all, mut crowd) = ([0u8; 8], [0u8; 8], [0u8; 8]);
    for k in 0..8 {
        let (x, mx) = (lanes(mins, k), lanes(maxs, k));
        // Offsets from `lo` (a min below it finds the first key, as `lo`).
        let rel = _mm512_sub_epi64(_mm512_max_epu64(x, lov), lov);
        let first_bucket = _mm512_srl_epi64(rel, shift);
        let bucket = _mm512_min_epu64(first_bucket, last);
        let need = {
            // The bit of the first bucket in `near` (a 32-word table in
            // four registers), and whether the max's bucket is within
            // `NEAR` of it (as unsigned: a max below the min counts as far).
            let b = _mm512_min_epu64(bucket, bit_last);
            let w = _mm512_srli_epi64::<6>(b);
            let word = _mm512_mask_blend_epi64(
                _mm512_test_epi64_mask(w, word_hi),
                _mm512_permutex2var_epi64(near[0], w, near[1]),
                _mm512_permutex2var_epi64(near[2], w, near[3]),
            );
            let bit = _mm512_srlv_epi64(word, _mm512_and_si512(b, low6));
            let last_bucket =
                _mm512_srl_epi64(_mm512_sub_epi64(_mm512_max_epu64(mx, lov), lov), shift);
            _mm512_test_epi64_mask(bit, one_bit)
                | _mm512_cmpgt_epu64_mask(_mm512_sub_epi64(last_bucket, first_bucket), near_span)
        };
        // Containers `near` rules out read "no key" without a load.
        // SAFETY: every bucket is at most `entries.len() - 1`.
        let v = unsafe {
            _mm512_mask_i64gather_epi64::<8>(empty, need, bucket, entries.as_ptr().cast())
        };
        // A min that far above `lo` is above every key (its bucket is the
        // last, all "no key").
        let x32 = _mm512_min_epu64(rel, none32);
        let (low, high) = (_mm512_and_si512(v, none32), _mm512_srli_epi64::<32>(v));
        let first32 = _mm512_mask_blend_epi64(_mm512_cmpge_epu64_mask(low, x32), high, low);
        let found = _mm512_cmpneq_epu64_mask(first32, none32);
        let first = _mm512_add_epi64(first32, lov);
        let hit = _mm512_mask_cmple_epu64_mask(found, first, mx);
        let single = if EXACT {
            _mm512_mask_cmpeq_epu64_mask(hit & _mm512_cmpeq_epu64_mask(x, mx), first, x)
        } else {
            0
        };
        (may[k], all[k]) = if NEGATE {
            (!single, !hit)
        } else {
            (hit, single)
        };
        crowd[k] = _mm512_cmpeq_epu64_mask(low, over);
    }
    let (m, l) = (u64::from_le_bytes(may), u64::from_le_bytes(all));
    let crowded = u64::from_le_bytes(crowd);
    crowded_fix::<NEGATE, EXACT>(one, mins, maxs, crowded, (m, l))
}

/// The word kernels' IN bits `(m, l)` with the containers of `crowded`
/// (their min's bucket holds several keys) decided one at a time by
/// [`OneTable::first_at_least`].
#[inline(always)]
fn crowded_fix<const NEGATE: bool, const EXACT: bool>(
    one: &OneTable,
    mins: &[u64; 64],
    maxs: &[u64; 64],
    mut crowded: u64,
    (mut m, mut l): (u64, u64),
) -> (u64, u64) {
    while crowded != 0 {
        let j = crowded.trailing_zeros() as usize;
        crowded &= crowded - 1;
        let (min, max) = (mins[j], maxs[j]);
        let (a, b) = in_verdict(NEGATE, EXACT, min, max, one.first_at_least(min));
        m = m & !(1 << j) | u64::from(a) << j;
        l = l & !(1 << j) | u64::from(b) << j;
    }
    (m, l)
}

/// [`RankTable::word`] over a [`OneTable`] with AVX2 (no AVX-512), four
/// containers a step: the bucket of each min (`max(x, lo) - lo` shifted,
/// clamped to the last bucket), its entry by one gather, the first key at
/// least the min by one compare and a blend, the verdict as masks (`NEGATE`
/// and `EXACT` fixed at compile time), no branch on the data: about 13
/// instructions a container against about 47 for the loop one container
/// at a time (callgrind, 64 Ki containers, an IN of 100; on an AMD EPYC
/// family 23 model 1, Zen 1, 2026-12-04, IN alone 500 against 314 us).
/// Containers in a bucket of
/// several keys afterwards by [`OneTable::first_at_least`]. Unsigned
/// compares are signed ones of the operands with their top bit flipped.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn word_one_avx2<const NEGATE: bool, const EXACT: bool>(
    lo: u64,
    one: &OneTable,
    mins: &[u64; 64],
    maxs: &[u64; 64],
) -> (u64, u64) {
    use std::arch::x86_64::*;
    let entries: &[u64] = &one.entries;
    let Some(last) = entries.len().checked_sub(1) else {
        // Never: a table holds at least its one more bucket.
        return (0, 0);
    };
    let sign = _mm256_set1_epi64x(i64::MIN);
    // `a > b` as unsigned.
    macro_rules! gtu {
        ($a:expr, $b:expr) => {
            _mm256_cmpgt_epi64(_mm256_xor_si256($a, sign), _mm256_xor_si256($b, sign))
        };
    }
    let lov = _mm256_set1_epi64x(lo as i64);
    let lastv = _mm256_set1_epi64x(last as i64);
    let shift = _mm_cvtsi64_si128(i64::from(one.shift));
    let none32 = _mm256_set1_epi64x(NONE32 as i64);
    let over = _mm256_set1_epi64x(OVER as i64);
    let (mut m, mut l, mut crowded) = (0u64, 0u64, 0u64);
    for k in 0..16 {
        // SAFETY: `mins[4k..4k + 4]` and `maxs[4k..4k + 4]` are 32 bytes
        // each; the CPU has AVX2 (this function's contract), what every
        // intrinsic here needs.
        let (x, mx) = unsafe {
            (
                _mm256_loadu_si256(mins[4 * k..4 * k + 4].as_ptr().cast()),
                _mm256_loadu_si256(maxs[4 * k..4 * k + 4].as_ptr().cast()),
            )
        };
        // Offsets from `lo` (a min below it finds the first key, as `lo`).
        let rel = _mm256_andnot_si256(gtu!(lov, x), _mm256_sub_epi64(x, lov));
        let first_bucket = _mm256_srl_epi64(rel, shift);
        let bucket = _mm256_blendv_epi8(first_bucket, lastv, gtu!(first_bucket, lastv));
        // SAFETY: every bucket is at most `last = entries.len() - 1`, so
        // each lane reads one `u64` of `entries`.
        let v = unsafe { _mm256_i64gather_epi64::<8>(entries.as_ptr().cast(), bucket) };
        // A min that far above `lo` is above every key (its bucket is the
        // last, all "no key").
        let x32 = _mm256_blendv_epi8(rel, none32, gtu!(rel, none32));
        let (low, high) = (_mm256_and_si256(v, none32), _mm256_srli_epi64::<32>(v));
        // Both below 2^32 + 1: a signed compare. The low half where it is
        // at least the min, else the high half.
        let first32 = _mm256_blendv_epi8(low, high, _mm256_cmpgt_epi64(x32, low));
        let found = _mm256_xor_si256(_mm256_cmpeq_epi64(first32, none32), sign);
        let first = _mm256_add_epi64(first32, lov);
        // Found and `first <= max`: the top bits of `found` and of "not
        // first > max".
        let hit = _mm256_andnot_si256(gtu!(first, mx), found);
        let single = if EXACT {
            _mm256_and_si256(
                hit,
                _mm256_and_si256(_mm256_cmpeq_epi64(x, mx), _mm256_cmpeq_epi64(first, x)),
            )
        } else {
            _mm256_setzero_si256()
        };
        // The top bit of each lane, as bits `4k..4k + 4` (a macro: a
        // closure would not get this function's target features).
        macro_rules! bits {
            ($v:expr) => {
                u64::from(_mm256_movemask_pd(_mm256_castsi256_pd($v)) as u32) << (4 * k)
            };
        }
        let (h, s) = (bits!(hit), bits!(single));
        (m, l) = if NEGATE {
            (m | (!s & 0xF << (4 * k)), l | (!h & 0xF << (4 * k)))
        } else {
            (m | h, l | s)
        };
        crowded |= bits!(_mm256_cmpeq_epi64(low, over));
    }
    crowded_fix::<NEGATE, EXACT>(one, mins, maxs, crowded, (m, l))
}

/// [`word_one_avx2`] with `negate` and `exact` as constants.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
unsafe fn word_one_avx2_of(
    lo: u64,
    one: &OneTable,
    negate: bool,
    exact: bool,
    mins: &[u64; 64],
    maxs: &[u64; 64],
) -> (u64, u64) {
    // SAFETY: the caller checked the CPU has AVX2, what every arm needs.
    unsafe {
        match (negate, exact) {
            (false, false) => word_one_avx2::<false, false>(lo, one, mins, maxs),
            (false, true) => word_one_avx2::<false, true>(lo, one, mins, maxs),
            (true, false) => word_one_avx2::<true, false>(lo, one, mins, maxs),
            (true, true) => word_one_avx2::<true, true>(lo, one, mins, maxs),
        }
    }
}

/// Whether the CPU has AVX2 (asked once, cached by `std`).
#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// Whether the CPU has AVX-512 F (asked once, cached by `std`).
fn avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// An IN / NOT IN leaf's verdict bits over `column`'s statistics.
pub(crate) fn in_stats(
    negate: bool,
    column: &StatsColumn,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    if negate && literals.logical_null_count() > 0 {
        // `x NOT IN (.., NULL)` selects nothing; Java prunes once the bounds are known.
        return Ok(column.no_row());
    }
    let function = if negate {
        super::Function::NotIn
    } else {
        super::Function::In
    };
    let rule = InStats {
        negate,
        exact: column.exact,
    };
    column.ordered(&rule, function, literals, active)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's first key at least `x` equals a binary search's, for
    /// keys spread and at the ends of `u64`, probed at, around and between
    /// every key; keys too clustered for [`MAX_BUCKETS`] get no table.
    #[test]
    fn rank_table_finds_as_a_binary_search() {
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        let sets: Vec<(Vec<u64>, bool)> = vec![
            ((0..100).map(|_| next() % 1_000_000).collect(), true),
            // Some close keys: a few buckets of two or three in the
            // one-key table.
            (
                (0..90)
                    .map(|i| i * 11_111)
                    .chain((0..8).map(|i| i * 11_111 * 9 + 1 + i % 3))
                    .chain([2 * 11_111 * 9 + 2])
                    .collect(),
                true,
            ),
            (
                (0..100).map(|_| next() % 1_000_000 + (1 << 40)).collect(),
                true,
            ),
            ((0..9).map(|_| next()).collect(), true),
            (vec![0, 1, 2, u64::MAX], true),
            (
                vec![0, 5, 1 << 63, u64::MAX - 6, u64::MAX - 1, u64::MAX],
                true,
            ),
            ((0..8).map(|i| i * 3).collect(), true),
            // Narrow spans near the top of `u64` (packed below `u64::MAX`).
            ((1..=9).map(|i| u64::MAX - 7 * i).collect(), true),
            ((0..9).map(|i| u64::MAX - 5 * i).collect(), true),
            // Clustered: more than three keys in one bucket of 2^15.
            ((0..40).map(|i| 1000 + i).chain([1 << 40]).collect(), false),
            (
                vec![0, u64::MAX - 7, u64::MAX - 6, u64::MAX - 5, u64::MAX],
                false,
            ),
            (vec![0, 1, 2, 3, 4, 5, 6, u64::MAX], false),
        ];
        for (mut keys, fits) in sets {
            keys.sort_unstable();
            keys.dedup();
            let Some(mut table) = RankTable::new(&keys) else {
                assert!(!fits, "no table for {keys:?}");
                continue;
            };
            assert!(fits, "a table for {keys:?}");
            if keys.len() >= 99 {
                assert!(table.one.is_some(), "a one-key table for {keys:?}");
            }
            if keys.len() == 99 {
                let one = table.one.as_ref().map_or(&[][..], |o| &o.entries[..]);
                assert!(one.iter().any(|e| e & NONE32 == OVER), "crowded buckets");
            }
            // Each table: the one-key table where the keys fit one, then
            // the four-slot table.
            for variant in 0..2 {
                if variant == 1 {
                    if table.one.is_none() {
                        continue;
                    }
                    let Some(slotted) = RankTable::slotted(&keys) else {
                        continue;
                    };
                    table = slotted;
                }
                // The word kernels (portable and AVX-512) against `in_verdict`
                // per container, bounds around and between the keys.
                for round in 0..8 {
                    let near = |r: u64| {
                        let k = keys[(r >> 4) as usize % keys.len()];
                        match r % 4 {
                            0 => k.wrapping_sub(1),
                            1 => k,
                            2 => k.wrapping_add(1),
                            _ => r >> 3,
                        }
                    };
                    let mins: [u64; 64] = std::array::from_fn(|_| near(next()));
                    let maxs: [u64; 64] = std::array::from_fn(|j| match (round + j) % 3 {
                        0 => mins[j],
                        1 => mins[j].saturating_add(next() % 4),
                        _ => near(next()).max(mins[j]),
                    });
                    for (negate, exact) in
                        [(false, false), (false, true), (true, false), (true, true)]
                    {
                        let (mut m, mut l) = (0u64, 0u64);
                        for j in 0..64 {
                            let rank = keys.partition_point(|k| *k < mins[j]);
                            let (x, y) = in_verdict(
                                negate,
                                exact,
                                mins[j],
                                maxs[j],
                                keys.get(rank).copied(),
                            );
                            m |= u64::from(x) << j;
                            l |= u64::from(y) << j;
                        }
                        let want = (m, l);
                        assert_eq!(table.word_portable(negate, exact, &mins, &maxs), want);
                        assert_eq!(table.word(negate, exact, &mins, &maxs), want);
                        #[cfg(target_arch = "x86_64")]
                        if avx512() {
                            // SAFETY: the CPU has AVX-512 F.
                            let got = unsafe { word_avx512(&table, negate, exact, &mins, &maxs) };
                            assert_eq!(got, want, "keys {keys:?}");
                        }
                        #[cfg(target_arch = "x86_64")]
                        if let Some(one) = table.one.as_ref().filter(|_| avx2()) {
                            // SAFETY: the CPU has AVX2.
                            let got = unsafe {
                                word_one_avx2_of(table.lo, one, negate, exact, &mins, &maxs)
                            };
                            assert_eq!(got, want, "AVX2, keys {keys:?}");
                        }
                    }
                }
                let probes = keys
                    .iter()
                    .flat_map(|&k| [k.wrapping_sub(1), k, k.wrapping_add(1)])
                    .chain([0, u64::MAX, 1 << 63])
                    .chain((0..200).map(|_| next() % 1_100_000));
                for x in probes {
                    let rank = keys.partition_point(|k| *k < x);
                    assert_eq!(
                        table.first_at_least(x),
                        keys.get(rank).copied(),
                        "x = {x}, keys {keys:?}"
                    );
                }
            }
        }
    }
}
