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
use super::order::Ordinal;
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
                fuse.fuse_sparse(|min, max| {
                    // `ordinal()` is `Some` for every key of this type, and
                    // orders (and equates) as the keys do.
                    let (min, max) = (min.ordinal().unwrap_or(0), max.ordinal().unwrap_or(0));
                    in_verdict(negate, exact, min, max, table.first_at_least(min))
                })
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
}

/// Slots per bucket: up to three keys and the next bucket's first key.
const SLOTS: usize = 4;

/// The most buckets a table may take (1 MiB); keys too clustered for it
/// are searched.
const MAX_BUCKETS: usize = 1 << 15;

impl RankTable {
    /// From two buckets a key, doubling until no bucket holds more than
    /// `SLOTS - 1` keys; `None` past [`MAX_BUCKETS`].
    fn new(keys: &[u64]) -> Option<RankTable> {
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
                return Some(RankTable {
                    slots,
                    lo,
                    shift,
                    max_is_key: hi == u64::MAX,
                });
            }
            buckets *= 2;
        }
        None
    }

    /// The first key at least `x`, if any.
    #[inline(always)]
    fn first_at_least(&self, x: u64) -> Option<u64> {
        // At or below the first key: bucket 0; above the last bucket: the
        // one more, all "no key".
        let last = self.slots.len() - 1;
        let b = ((x.saturating_sub(self.lo) >> self.shift) as usize).min(last);
        let first = self.slots[b]
            .iter()
            .fold(u64::MAX, |m, &s| if s >= x { m.min(s) } else { m });
        (first != u64::MAX || self.max_is_key).then_some(first)
    }
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
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let sets: Vec<(Vec<u64>, bool)> = vec![
            ((0..100).map(|_| next() % 1_000_000).collect(), true),
            ((0..9).map(|_| next()).collect(), true),
            (vec![0, 1, 2, u64::MAX], true),
            (
                vec![0, 5, 1 << 63, u64::MAX - 6, u64::MAX - 1, u64::MAX],
                true,
            ),
            ((0..8).map(|i| i * 3).collect(), true),
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
            let Some(table) = RankTable::new(&keys) else {
                assert!(!fits, "no table for {keys:?}");
                continue;
            };
            assert!(fits, "a table for {keys:?}");
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
