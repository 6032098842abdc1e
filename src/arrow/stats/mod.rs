//! Predicates over column statistics: skip whole containers (data files, row
//! groups, pages) before reading them, in three values, vectorised over the
//! containers.
//!
//! [`StatsBatch`] holds, for many containers, their row counts and per field
//! a [`ColumnStats`] (min, max, null counts, NaN counts). [`Predicate::test_stats`]
//! answers a [`StatsVerdict`] per container: NoMatch (no row can satisfy the
//! predicate), AllMatch (every row does) or MayMatch.
//!
//! How it runs:
//! - [`StatsBatch::with_column`] checks the column and computes, once, the
//!   bitmaps every rule needs: min and max known, all rows null, no row null,
//!   null count known, NaN rows possible (for NaN-excluded float stats).
//! - Each leaf's rule lives in its family's file next to its row kernel
//!   (`compare.rs`, `in_list.rs`, `between.rs`, `strings.rs`, `null_tests.rs`,
//!   `arrays.rs`):
//!   a closure of `(min, max)` giving "may" and "all" bits, run by `bounds.rs`
//!   in one fused pass over the whole min / max arrays.
//! - [`StatsColumn::finish`] applies the rules every function shares (the
//!   all-null container, unknown bounds, nulls, NaN rows) word by word.
//! - And / Or evaluate each later child only on the containers still
//!   undecided (not yet NoMatch under And, not yet AllMatch under Or):
//!   words with no undecided container are skipped, and costly rules (IN,
//!   strings) run only on the undecided containers themselves.
//! - StartsWith / Like `'p%'` with a short prefix compare each bound's first
//!   `|p|` bytes packed in a `u64` (`bounds::cut_rule`), not byte slices.
//! - With AVX-512 (runtime dispatch; one active container at a time
//!   otherwise) the fused pass is compiled for it, and the cut keys and
//!   IN's table lookups (`Fuse::fuse_words`) go a word of 64 containers at
//!   a time, eight per vector.
//! - The verdict bytes are written once, from the root's two bitmaps, four
//!   containers per lookup in a 1 KiB table.
//!
//! The semantics are the contract's (docs/stats.md, "Statistics" in the
//! shared SEMANTICS.md): Paimon Java's `test(rowCount, min, max, nullCounts)`
//! wherever that is sound, MayMatch where Java throws, and sound under
//! truncated bounds and NaN-excluded float stats.

mod bounds;
pub(crate) mod scratch;

pub(crate) use bounds::{
    bytes_rule, cut_key, cut_rule, cuttable, order_rule, CutPrefix, Fuse, OrderRule, RuleBits,
    CUT_MAX,
};

use super::evaluate::in_field;
use super::literals::{message, value_type};
use super::predicate::check_depth;
use super::{Function, Leaf, Predicate};
use arrow_array::{Array, ArrayRef, UInt64Array};
use arrow_buffer::NullBuffer;
use arrow_schema::{ArrowError, DataType, Field};
use std::collections::HashMap;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// The statistics of one field over many containers, one entry each:
/// `min` and `max` of the field's type (null entry: unknown), and
/// optionally null counts and NaN counts (null entry: unknown).
///
/// By default min and max are values of the container, in Paimon's order
/// (Java's `compareTo`: for floats `-0.0 < +0.0` and NaN above `+inf`, so a
/// max of NaN means NaN rows may be present). [`truncated`](ColumnStats::truncated)
/// makes them bounds only; [`nan_excluded`](ColumnStats::nan_excluded) says
/// they leave NaN out (Parquet, ORC).
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{StringArray, UInt64Array};
/// use bitbytes::arrow::ColumnStats;
///
/// // Paimon's truncate(16) string stats of two files.
/// let stats = ColumnStats::new(
///     Arc::new(StringArray::from(vec![Some("apple"), None])),
///     Arc::new(StringArray::from(vec![Some("banana"), None])),
/// )
/// .with_null_counts(UInt64Array::from(vec![Some(0), None]))
/// .truncated();
/// assert!(stats.is_truncated());
/// ```
#[derive(Debug, Clone)]
pub struct ColumnStats {
    min: ArrayRef,
    max: ArrayRef,
    null_counts: Option<UInt64Array>,
    nan_counts: Option<UInt64Array>,
    truncated: bool,
    nan_excluded: bool,
}

impl ColumnStats {
    /// Min and max per container, of the field's type (the dictionary's
    /// value type for a dictionary field); a null entry is unknown. Null
    /// counts start unknown.
    pub fn new(min: ArrayRef, max: ArrayRef) -> Self {
        ColumnStats {
            min,
            max,
            null_counts: None,
            nan_counts: None,
            truncated: false,
            nan_excluded: false,
        }
    }

    /// The null count per container; a null entry is unknown.
    pub fn with_null_counts(self, counts: UInt64Array) -> Self {
        ColumnStats {
            null_counts: Some(counts),
            ..self
        }
    }

    /// The NaN count per container; a null entry is unknown. Read only
    /// with [`nan_excluded`](ColumnStats::nan_excluded): a count of 0 says
    /// the container has no NaN rows.
    pub fn with_nan_counts(self, counts: UInt64Array) -> Self {
        ColumnStats {
            nan_counts: Some(counts),
            ..self
        }
    }

    /// Min and max are bounds, not values of the container (Paimon's
    /// `truncate(16)` string stats, Parquet's inexact statistics): every
    /// value lies in `[min, max]`, but `min = max = literal` proves nothing.
    pub fn truncated(self) -> Self {
        ColumnStats {
            truncated: true,
            ..self
        }
    }

    /// Float min and max leave NaN out (Parquet, ORC): a container may hold
    /// NaN rows unless its NaN count is 0. Without it, NaN is the largest
    /// float (Paimon's own stats).
    ///
    /// Such writers also order floats by IEEE, where `-0.0 == +0.0`: as the
    /// Parquet spec tells readers, a zero min is read as `-0.0` and a zero
    /// max as `+0.0` (the bounds widened in Java's order, where `-0.0 <
    /// +0.0`), so a container holding `-0.0` with a min written as `+0.0`
    /// is not pruned by `x < 0.0`. A NaN min or max, which such writers
    /// should not write (legacy Parquet and ORC writers did), makes that
    /// container's bounds unknown, as the Parquet format tells readers.
    pub fn nan_excluded(self) -> Self {
        ColumnStats {
            nan_excluded: true,
            ..self
        }
    }

    /// Whether min and max are bounds only.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Whether float min and max leave NaN out.
    pub fn is_nan_excluded(&self) -> bool {
        self.nan_excluded
    }
}

/// The verdict of a predicate on one container's statistics.
///
/// NoMatch and AllMatch are sound for every set of rows the statistics could
/// describe: a NoMatch container holds no row the predicate selects, an
/// AllMatch container no row it rejects (null rows satisfy only IsNull).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum StatsVerdict {
    /// No row can satisfy the predicate: skip the container.
    NoMatch = 0,
    /// Some rows may: read it and filter the rows.
    MayMatch = 1,
    /// Every row does: read it without a row filter.
    AllMatch = 2,
}

/// The statistics of many containers (data files, row groups, pages), one
/// entry each: row counts and, per field, a [`ColumnStats`].
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Int64Array, UInt64Array};
/// use bitbytes::arrow::{ColumnStats, PredicateBuilder, StatsBatch, StatsVerdict};
/// use arrow_schema::{DataType, Field, Schema};
///
/// // Three files: x in [0, 9], [10, 19] and [20, 29], no nulls.
/// let stats = StatsBatch::new(UInt64Array::from(vec![100, 100, 100])).with_column(
///     "x",
///     ColumnStats::new(
///         Arc::new(Int64Array::from(vec![0, 10, 20])),
///         Arc::new(Int64Array::from(vec![9, 19, 29])),
///     )
///     .with_null_counts(UInt64Array::from(vec![0, 0, 0])),
/// )?;
/// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)])));
/// let pred = p.less_than("x", &Int64Array::new_scalar(15))?;
/// use StatsVerdict::*;
/// assert_eq!(pred.test_stats(&stats)?, [AllMatch, MayMatch, NoMatch]);
/// assert_eq!(pred.test_stats_indices(&stats)?, [0, 1]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone)]
pub struct StatsBatch {
    row_counts: UInt64Array,
    columns: HashMap<String, StatsColumn>,
}

/// One field's statistics, checked, with the bitmaps every rule reads.
#[derive(Debug, Clone)]
pub(crate) struct StatsColumn {
    pub(crate) min: ArrayRef,
    pub(crate) max: ArrayRef,
    /// Min and max are values (not [`ColumnStats::truncated`]).
    pub(crate) exact: bool,
    /// Min and max both known.
    known: Vec<u64>,
    /// Null count known and equal to the (known) row count.
    all_null: Vec<u64>,
    /// Null count known and 0.
    no_null: Vec<u64>,
    /// Null count known.
    null_count_known: Vec<u64>,
    /// NaN rows may be present although min and max leave them out.
    may_nan: Option<Vec<u64>>,
}

impl StatsBatch {
    /// Statistics of `row_counts.len()` containers; a null row count is
    /// unknown. Add fields with [`with_column`](StatsBatch::with_column).
    pub fn new(row_counts: UInt64Array) -> Self {
        StatsBatch {
            row_counts,
            columns: HashMap::new(),
        }
    }

    /// The number of containers.
    pub fn len(&self) -> usize {
        self.row_counts.len()
    }

    /// Whether there is no container.
    pub fn is_empty(&self) -> bool {
        self.row_counts.is_empty()
    }

    /// Adds the statistics of field `field` (replacing any earlier ones).
    /// The predicate's literals are checked against the stats' type when it
    /// is tested; [`with_field`](StatsBatch::with_field) checks the stats'
    /// type against the field's here.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] naming the field when min, max,
    /// the null counts or the NaN counts do not have one entry per
    /// container, when min and max differ in type, or when they are
    /// dictionary or run-end encoded (give the dictionary's value type).
    pub fn with_column(mut self, field: &str, stats: ColumnStats) -> Result<Self, ArrowError> {
        let column = StatsColumn::new(field, stats, &self.row_counts)?;
        self.columns.insert(field.into(), column);
        Ok(self)
    }

    /// [`with_column`](StatsBatch::with_column) for a schema field: its
    /// stats must have its type (the value type under a dictionary or
    /// run-end encoding, at any depth).
    ///
    /// # Errors
    ///
    /// As [`with_column`](StatsBatch::with_column), and when min / max have
    /// another type than the field's, naming the field and both types.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{Int32Array, UInt64Array};
    /// use arrow_schema::{DataType, Field};
    /// use bitbytes::arrow::{ColumnStats, StatsBatch};
    ///
    /// let field = Field::new("x", DataType::Int64, true);
    /// let stats = ColumnStats::new(Arc::new(Int32Array::from(vec![1])), Arc::new(Int32Array::from(vec![2])));
    /// let err = StatsBatch::new(UInt64Array::from(vec![10])).with_field(&field, stats).unwrap_err();
    /// assert!(err.to_string().contains("`x`") && err.to_string().contains("Int32"));
    /// ```
    pub fn with_field(self, field: &Field, stats: ColumnStats) -> Result<Self, ArrowError> {
        // Through every encoding: a run-end encoding of a dictionary of
        // strings has string stats.
        let want = value_type(field.data_type());
        if stats.min.data_type() != want {
            return Err(ArrowError::InvalidArgumentError(format!(
                "statistics of field `{}` ({}): min / max have type {}, the field's values {}",
                field.name(),
                field.data_type(),
                stats.min.data_type(),
                want
            )));
        }
        self.with_column(field.name(), stats)
    }

    fn column(&self, field: &str) -> Option<&StatsColumn> {
        self.columns.get(field)
    }

    fn words(&self) -> usize {
        self.len().div_ceil(64)
    }
}

/// The bits of a null buffer's valid entries (all set when there is none).
fn valid_words(nulls: Option<&NullBuffer>, len: usize) -> Vec<u64> {
    match nulls {
        // `iter_padded` yields a remainder word even when there is no remainder.
        Some(n) => n
            .inner()
            .bit_chunks()
            .iter_padded()
            .take(len.div_ceil(64))
            .collect(),
        None => vec![!0; len.div_ceil(64)],
    }
}

/// One bit per entry: `f(value)` and the entry is valid.
fn count_words(counts: &UInt64Array, f: impl Fn(usize, u64) -> bool) -> Vec<u64> {
    let values = counts.values();
    let mut words = valid_words(counts.nulls(), counts.len());
    for (w, word) in words.iter_mut().enumerate() {
        let mut bits = 0u64;
        for (j, &v) in values.iter().skip(w * 64).take(64).enumerate() {
            bits |= u64::from(f(w * 64 + j, v)) << j;
        }
        *word &= bits;
    }
    words
}

fn and_words(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

/// NaN-excluded float bounds made sound in Java's order. A NaN bound,
/// which such writers should not write (legacy Parquet and ORC writers did),
/// becomes null: unknown, as the Parquet format tells readers. Writers that
/// order floats by IEEE see `-0.0 == +0.0` and may write either as min or
/// max whatever zeros the container holds, so (as the Parquet spec tells
/// readers) a zero min is read as `-0.0` and a zero max (`is_min` false) as
/// `+0.0`, the widest bounds in Java's order (`-0.0 < +0.0`). Returns
/// `array` itself when it holds neither a NaN nor a zero of the other sign;
/// other types unchanged.
fn float_bound(array: &ArrayRef, is_min: bool) -> ArrayRef {
    use super::order;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float16Type, Float32Type, Float64Type};
    use std::sync::Arc;
    macro_rules! fix {
        ($t:ty, $neg:expr, $pos:expr) => {{
            let a = array.as_primitive::<$t>();
            let (from, to) = if is_min { ($pos, $neg) } else { ($neg, $pos) };
            let narrow =
                |v: <$t as arrow_array::ArrowPrimitiveType>::Native| v.to_bits() == from.to_bits();
            if !a.values().iter().any(|&v| narrow(v) || v.is_nan()) {
                return Arc::clone(array);
            }
            let nan = order::is_nan(a.values());
            let nulls = NullBuffer::union(a.nulls(), Some(&NullBuffer::new(!&nan)));
            let values = a.unary::<_, $t>(|v| if narrow(v) { to } else { v });
            Arc::new(arrow_array::PrimitiveArray::<$t>::new(
                values.values().clone(),
                nulls,
            )) as ArrayRef
        }};
    }
    match array.data_type() {
        DataType::Float16 => fix!(Float16Type, half::f16::NEG_ZERO, half::f16::ZERO),
        DataType::Float32 => fix!(Float32Type, -0.0f32, 0.0f32),
        DataType::Float64 => fix!(Float64Type, -0.0f64, 0.0f64),
        _ => Arc::clone(array),
    }
}

impl StatsColumn {
    fn new(field: &str, stats: ColumnStats, row_counts: &UInt64Array) -> Result<Self, ArrowError> {
        let n = row_counts.len();
        let bad = |what: &str, len: usize| {
            Err(ArrowError::InvalidArgumentError(format!(
                "statistics of field `{field}`: {what} has {len} entries, the batch has {n} containers"
            )))
        };
        for (what, len) in [("min", stats.min.len()), ("max", stats.max.len())]
            .into_iter()
            .chain(
                stats
                    .null_counts
                    .as_ref()
                    .map(|c| ("the null counts", c.len())),
            )
            .chain(
                stats
                    .nan_counts
                    .as_ref()
                    .map(|c| ("the NaN counts", c.len())),
            )
        {
            if len != n {
                return bad(what, len);
            }
        }
        let (min_type, max_type) = (stats.min.data_type(), stats.max.data_type());
        if min_type != max_type {
            return Err(ArrowError::InvalidArgumentError(format!(
                "statistics of field `{field}`: min has type {min_type}, max {max_type}"
            )));
        }
        if matches!(
            min_type,
            DataType::Dictionary(..) | DataType::RunEndEncoded(..)
        ) {
            return Err(ArrowError::InvalidArgumentError(format!(
                "statistics of field `{field}`: min / max of type {min_type}; give them the \
                 dictionary's value type"
            )));
        }
        let is_float = matches!(
            min_type,
            DataType::Float16 | DataType::Float32 | DataType::Float64
        );
        let (min, max) = if stats.nan_excluded && is_float {
            (
                float_bound(&stats.min, true),
                float_bound(&stats.max, false),
            )
        } else {
            (stats.min, stats.max)
        };
        let known = and_words(
            &valid_words(min.logical_nulls().as_ref(), n),
            &valid_words(max.logical_nulls().as_ref(), n),
        );
        let (all_null, no_null, null_count_known) = match &stats.null_counts {
            Some(c) => {
                let rows = row_counts.values();
                let rows_known = valid_words(row_counts.nulls(), n);
                (
                    and_words(&count_words(c, |i, v| v == rows[i]), &rows_known),
                    count_words(c, |_, v| v == 0),
                    valid_words(c.nulls(), n),
                )
            }
            None => (
                vec![0; n.div_ceil(64)],
                vec![0; n.div_ceil(64)],
                vec![0; n.div_ceil(64)],
            ),
        };
        let may_nan = (stats.nan_excluded && is_float).then(|| match &stats.nan_counts {
            Some(c) => count_words(c, |_, v| v == 0).iter().map(|w| !w).collect(),
            None => vec![!0; n.div_ceil(64)],
        });
        Ok(StatsColumn {
            min,
            max,
            exact: !stats.truncated,
            known,
            all_null,
            no_null,
            null_count_known,
            may_nan,
        })
    }

    /// The stats' type.
    pub(crate) fn data_type(&self) -> &DataType {
        self.min.data_type()
    }

    /// Applies what every function shares to a rule's bits: an all-null
    /// container is NoMatch; unknown bounds MayMatch; AllMatch needs known
    /// bounds and no null row; NaN rows the bounds leave out keep a leaf
    /// NaN satisfies from NoMatch (`nan_satisfies`) and any other from
    /// AllMatch.
    pub(crate) fn finish(&self, mut rule: RuleBits, nan_satisfies: bool) -> RuleBits {
        for (w, (may, all)) in rule.may.iter_mut().zip(rule.all.iter_mut()).enumerate() {
            let (all_null, known) = (self.all_null[w], self.known[w]);
            *may = !all_null & (!known | *may);
            *all &= *may & known & self.no_null[w];
            if let Some(may_nan) = &self.may_nan {
                if nan_satisfies {
                    *may |= may_nan[w] & !all_null;
                } else {
                    *all &= !may_nan[w];
                }
            }
        }
        rule
    }

    /// An order rule's bits, finished: the rule over min / max with
    /// `literals`, then [`finish`](StatsColumn::finish). Whether NaN
    /// satisfies the leaf is asked of the row function itself.
    pub(crate) fn ordered<R: OrderRule>(
        &self,
        rule: &R,
        function: Function,
        literals: &dyn Array,
        active: &[u64],
    ) -> Result<RuleBits, ArrowError> {
        let bits = order_rule(rule, self.min.as_ref(), self.max.as_ref(), literals, active)?;
        Ok(self.finish(bits, self.nan_satisfies(function, literals)?))
    }

    /// Whether a NaN row satisfies `function` with `literals` (only asked
    /// when NaN rows can hide from the bounds).
    pub(crate) fn nan_satisfies(
        &self,
        function: Function,
        literals: &dyn Array,
    ) -> Result<bool, ArrowError> {
        match (&self.may_nan, bounds::nan_of(self.data_type())) {
            (Some(_), Some(nan)) => Ok(function.test(nan.as_ref(), literals)?[0] == 1),
            _ => Ok(false),
        }
    }

    /// A leaf that never prunes by value (EndsWith, Contains, IsNaN, ...):
    /// NoMatch only on all-null containers.
    pub(crate) fn by_nulls_only(&self) -> RuleBits {
        let words = self.known.len();
        self.finish(RuleBits::may_match(words), true)
    }

    /// A comparison, StartsWith or Between with a null literal: NoMatch
    /// where the null count is known (as Java), MayMatch where it is not
    /// (Java throws there), MayMatch with unknown bounds (Java keeps).
    pub(crate) fn null_literal(&self) -> RuleBits {
        let may = self.null_count_known.iter().map(|known| !known).collect();
        let words = self.known.len();
        self.finish(
            RuleBits {
                may,
                all: vec![0; words],
            },
            false,
        )
    }

    /// A leaf no row satisfies (NOT IN with a null literal, ...): NoMatch
    /// where Java reaches the function (bounds known, or an all-null
    /// container), MayMatch where it keeps the container without asking.
    pub(crate) fn no_row(&self) -> RuleBits {
        let words = self.known.len();
        let none = RuleBits {
            may: vec![0; words],
            all: vec![0; words],
        };
        self.finish(none, false)
    }

    /// The all-null bits.
    pub(crate) fn all_null(&self) -> &[u64] {
        &self.all_null
    }

    /// The no-null bits (null count known and 0).
    pub(crate) fn no_null(&self) -> &[u64] {
        &self.no_null
    }
}

impl Predicate {
    /// The verdict of the predicate on every container of `stats`: NoMatch
    /// (skip it), MayMatch (read and filter), AllMatch (read, no filter).
    ///
    /// Where Paimon Java's `test(rowCount, min, max, nullCounts)` is sound,
    /// `verdict != NoMatch` is its answer; see docs/stats.md for the rules,
    /// NaN and truncated bounds. TRUE is AllMatch and FALSE NoMatch on every
    /// container. A field the batch has no stats for, and any other leaf over
    /// a transform other than a plain field, are MayMatch. Such leaves'
    /// literals are checked for what needs no type (how many, a string
    /// function's string, a Like pattern), not for their type (the batch
    /// knows none for them to suit): [`validate`](Predicate::validate) the
    /// predicate against the table's schema once, before testing it on many
    /// batches.
    ///
    /// # Errors
    ///
    /// As [`test_stats_into`](Predicate::test_stats_into).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{StringArray, UInt64Array};
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::{ColumnStats, PredicateBuilder, StatsBatch, StatsVerdict::*};
    ///
    /// let stats = StatsBatch::new(UInt64Array::from(vec![5, 5, 5])).with_column(
    ///     "s",
    ///     ColumnStats::new(
    ///         Arc::new(StringArray::from(vec!["abc", "abd", "b"])),
    ///         Arc::new(StringArray::from(vec!["abcz", "abz", "c"])),
    ///     )
    ///     .with_null_counts(UInt64Array::from(vec![0, 1, 0])),
    /// )?;
    /// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)])));
    /// assert_eq!(p.starts_with("s", "ab")?.test_stats(&stats)?, [AllMatch, MayMatch, NoMatch]);
    /// assert_eq!(p.like("s", "abc%")?.test_stats(&stats)?, [AllMatch, NoMatch, NoMatch]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test_stats(&self, stats: &StatsBatch) -> Result<Vec<StatsVerdict>, ArrowError> {
        let bits = self.stats_bits(stats)?;
        let out = verdicts(&bits, stats.len());
        scratch::recycle(bits.may);
        scratch::recycle(bits.all);
        Ok(out)
    }

    /// [`test_stats`](Predicate::test_stats) into `out[..stats.len()]`;
    /// entries past that are left alone.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`], with nothing written, when `out`
    /// is shorter than the batch, an And / Or is empty, the tree is deeper
    /// than [`Predicate::MAX_DEPTH`], a leaf's literals do not suit its
    /// function over the type of its field's stats (naming the field and the
    /// types), or, for a leaf without stats, their number, a string
    /// function's literal or a Like pattern is wrong (naming the field or
    /// transform). The whole tree is checked first.
    pub fn test_stats_into(
        &self,
        stats: &StatsBatch,
        out: &mut [StatsVerdict],
    ) -> Result<(), ArrowError> {
        let n = stats.len();
        if out.len() < n {
            return Err(ArrowError::InvalidArgumentError(format!(
                "test_stats_into: the output holds {} verdicts, the batch has {n} containers",
                out.len()
            )));
        }
        let bits = self.stats_bits(stats)?;
        write_verdicts(&bits, &mut out[..n]);
        scratch::recycle(bits.may);
        scratch::recycle(bits.all);
        Ok(())
    }

    /// The tree checked, then its may / all bits over every container.
    fn stats_bits(&self, stats: &StatsBatch) -> Result<RuleBits, ArrowError> {
        let n = stats.len();
        check_depth(self)?;
        validate(self, stats)?;
        let mut active = scratch::words(stats.words(), !0);
        if !n.is_multiple_of(64) {
            if let Some(last) = active.last_mut() {
                *last = (1u64 << (n % 64)) - 1;
            }
        }
        let bits = evaluate(self, stats, &active);
        scratch::recycle(active);
        bits
    }

    /// The containers to read (verdict MayMatch or AllMatch), ascending: the
    /// row groups to pass to a reader.
    ///
    /// # Errors
    ///
    /// As [`test_stats_into`](Predicate::test_stats_into).
    ///
    /// Read straight off the predicate's bits (a container is kept unless
    /// it is NoMatch): no verdict per container is written, and the result
    /// is allocated once, at its final size.
    pub fn test_stats_indices(&self, stats: &StatsBatch) -> Result<Vec<usize>, ArrowError> {
        let n = stats.len();
        let bits = self.stats_bits(stats)?;
        // The may bits of the containers `0..n` (those past `n` in the last
        // word mean nothing).
        let word = |w: usize| {
            let rows = n - 64 * w;
            let mask = if rows < 64 { (1u64 << rows) - 1 } else { !0 };
            bits.may[w] & mask
        };
        let words = n.div_ceil(64);
        let count = (0..words).map(|w| word(w).count_ones() as usize).sum();
        let mut kept = Vec::with_capacity(count);
        for w in 0..words {
            let mut m = word(w);
            while m != 0 {
                kept.push(64 * w + m.trailing_zeros() as usize);
                m &= m - 1;
            }
        }
        scratch::recycle(bits.may);
        scratch::recycle(bits.all);
        Ok(kept)
    }
}

/// `QUADS[m | a << 4]`: the verdicts of four containers whose may bits are
/// the nibble `m` and whose all bits are `a` (`all` counted only with `may`).
/// 1 KiB, stays in L1.
const QUADS: [[StatsVerdict; 4]; 256] = {
    let mut table = [[StatsVerdict::NoMatch; 4]; 256];
    let mut i = 0;
    while i < 256 {
        let mut j = 0;
        while j < 4 {
            let (may, all) = ((i >> j) & 1 == 1, (i >> (4 + j)) & 1 == 1);
            table[i][j] = match (may, all) {
                (false, _) => StatsVerdict::NoMatch,
                (true, false) => StatsVerdict::MayMatch,
                (true, true) => StatsVerdict::AllMatch,
            };
            j += 1;
        }
        i += 1;
    }
    table
};

/// A verdict writer compiled for this CPU: `write(bits, out, n)` writes
/// the verdicts of containers `0..n` as bytes 0, 1 or 2 (each a
/// [`StatsVerdict`]) to `out[..n]`, a word's 64 at a time; it panics
/// (before writing past what it was given) when `bits` has fewer than
/// `n.div_ceil(64)` words.
///
/// # Safety (of calling the writer)
///
/// `out` must be valid for `n` byte writes.
#[cfg(target_arch = "x86_64")]
type VerdictWriter = unsafe fn(&RuleBits, *mut u8, usize);

/// The SIMD verdict writer this CPU runs: AVX-512 (F, BW), else AVX2, else
/// none (the table lookups of [`write_verdicts_portable`]).
#[cfg(target_arch = "x86_64")]
fn verdict_writer() -> Option<VerdictWriter> {
    if bounds::avx512_cut() {
        return Some(write_verdicts_avx512);
    }
    if std::is_x86_feature_detected!("avx2") {
        return Some(write_verdicts_avx2);
    }
    None
}

/// Writes the verdicts of `bits` into `out` (one per container, `bits`
/// covering them): a word's 64 verdicts at a time, by SIMD where the CPU
/// has AVX2 or AVX-512, else by table lookups.
fn write_verdicts(bits: &RuleBits, out: &mut [StatsVerdict]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(write) = verdict_writer() {
        // SAFETY: the writer is one this CPU runs; `out` is valid for
        // `out.len()` byte writes, and every byte written is 0, 1 or 2, a
        // `#[repr(u8)]` `StatsVerdict`.
        return unsafe { write(bits, out.as_mut_ptr().cast(), out.len()) };
    }
    write_verdicts_portable(bits, out)
}

/// The verdicts of `bits` on `n` containers as a new vector, written once:
/// with a SIMD writer straight into the allocation (no fill first, a pass
/// over `n` bytes that took 4% of the And bench's instructions in
/// callgrind, AMD EPYC family 25 model 1, Zen 3).
fn verdicts(bits: &RuleBits, n: usize) -> Vec<StatsVerdict> {
    #[cfg(target_arch = "x86_64")]
    if let Some(write) = verdict_writer() {
        let mut out: Vec<StatsVerdict> = Vec::with_capacity(n);
        // SAFETY: the writer is one this CPU runs; the allocation holds at
        // least `n` verdicts, so `out` is valid for `n` byte writes; the
        // writer writes each of the `n` bytes (or panics first, before
        // `set_len`) with 0, 1 or 2, a `#[repr(u8)]` `StatsVerdict`, so the
        // first `n` entries are initialized when the length is set.
        unsafe {
            write(bits, out.as_mut_ptr().cast(), n);
            out.set_len(n);
        }
        return out;
    }
    let mut out = vec![StatsVerdict::NoMatch; n];
    write_verdicts_portable(bits, &mut out);
    out
}

/// [`write_verdicts`] by table lookups, four containers per lookup and
/// 4-byte copy (CPUs without AVX2).
fn write_verdicts_portable(bits: &RuleBits, out: &mut [StatsVerdict]) {
    for ((chunk, &may), &all) in out.chunks_mut(64).zip(&bits.may).zip(&bits.all) {
        if let Ok(chunk) = <&mut [StatsVerdict; 64]>::try_from(&mut *chunk) {
            for (k, dst) in chunk.chunks_exact_mut(4).enumerate() {
                dst.copy_from_slice(&QUADS[quad(may, all, k)]);
            }
        } else {
            for (k, dst) in chunk.chunks_mut(4).enumerate() {
                dst.copy_from_slice(&QUADS[quad(may, all, k)][..dst.len()]);
            }
        }
    }
}

const _: () = assert!(
    StatsVerdict::MayMatch as u8 == 1 && StatsVerdict::AllMatch as u8 == 2,
    "verdict bytes are 0, 1 and 2"
);

/// [`VerdictWriter`] with AVX-512: a word's 64 verdict bytes as one
/// vector (1 where may, plus 1 where all too) and one store (masked for
/// the last, partial word).
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW; `out` must be valid for `n` byte
/// writes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn write_verdicts_avx512(bits: &RuleBits, out: *mut u8, n: usize) {
    use std::arch::x86_64::*;
    let one = _mm512_set1_epi8(1);
    for w in 0..n.div_ceil(64) {
        let (may, all) = (bits.may[w], bits.all[w]);
        let v = _mm512_maskz_mov_epi8(may, one);
        let v = _mm512_mask_add_epi8(v, may & all, v, one);
        let keep = u64::MAX >> (64 - (n - 64 * w).min(64));
        // SAFETY: the masked store writes only the bytes `64 w ..` of
        // `keep`'s ones, all below `n`, for which the caller made `out`
        // valid.
        unsafe { _mm512_mask_storeu_epi8(out.add(64 * w).cast(), keep, v) };
    }
}

/// [`VerdictWriter`] with AVX2: 32 verdict bytes a step, each byte of the
/// may and the all bits spread to 0 or -1 (a byte shuffle of the 32 bits,
/// then a compare with the byte's own bit), their sum negated; the last,
/// partial word through a buffer on the stack. On AMD EPYC family 25 model
/// 1 (Zen 3) the table lookups took 10% of the And bench's instructions.
///
/// # Safety
///
/// The CPU must have AVX2; `out` must be valid for `n` byte writes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn write_verdicts_avx2(bits: &RuleBits, out: *mut u8, n: usize) {
    use std::arch::x86_64::*;
    // Byte k of a lane takes byte k / 8 of the 32 bits: bytes 0, 1 in the
    // low lane, 2, 3 in the high one.
    let pick = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let spread = |x: u64| {
        let v = _mm256_shuffle_epi8(_mm256_set1_epi32(x as u32 as i32), pick);
        _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit)
    };
    let zero = _mm256_setzero_si256();
    let step = |x: u64, y: u64| _mm256_sub_epi8(zero, _mm256_add_epi8(spread(x), spread(y)));
    for w in 0..n.div_ceil(64) {
        let (may, all) = (bits.may[w], bits.may[w] & bits.all[w]);
        let (lo, hi) = (step(may, all), step(may >> 32, all >> 32));
        let left = n - 64 * w;
        if left >= 64 {
            // SAFETY: bytes `64 w .. 64 w + 64` lie below `n`, for which the
            // caller made `out` valid; unaligned stores.
            unsafe {
                _mm256_storeu_si256(out.add(64 * w).cast(), lo);
                _mm256_storeu_si256(out.add(64 * w + 32).cast(), hi);
            }
        } else {
            let mut buf = [0u8; 64];
            // SAFETY: `buf` holds 64 bytes; unaligned stores.
            unsafe {
                _mm256_storeu_si256(buf.as_mut_ptr().cast(), lo);
                _mm256_storeu_si256(buf.as_mut_ptr().add(32).cast(), hi);
            }
            // SAFETY: `left < 64` bytes from `buf` to `out[64 w ..]`, all
            // below `n`, for which the caller made `out` valid; the two do
            // not overlap (`buf` is on this stack frame).
            unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), out.add(64 * w), left) };
        }
    }
}

/// The [`QUADS`] index of containers `4k..4k + 4` of a word.
#[inline(always)]
fn quad(may: u64, all: u64, k: usize) -> usize {
    ((may >> (4 * k)) & 0xF | ((all >> (4 * k)) & 0xF) << 4) as usize
}

/// Checks the whole tree against the batch's stats before evaluating any.
fn validate(predicate: &Predicate, stats: &StatsBatch) -> Result<(), ArrowError> {
    match predicate {
        Predicate::Leaf(leaf) => {
            let Some((name, column)) = leaf_column(leaf, stats) else {
                // No stats to give the literals a type: the checks that need
                // none (how many, a string, a Like pattern).
                return leaf
                    .function
                    .validate_literals(leaf.literals.as_ref())
                    .map_err(|e| {
                        let message = message(e);
                        let at = match leaf.field() {
                            Some(name) => format!("field `{name}` (no statistics)"),
                            None => format!("{}", leaf.transform),
                        };
                        ArrowError::InvalidArgumentError(format!("{at}: {message}"))
                    });
            };
            leaf.function
                .validate(column.data_type(), leaf.literals.as_ref())
                .map_err(|e| in_field(name, column.data_type(), e))
        }
        Predicate::And(children) | Predicate::Or(children) => {
            if children.is_empty() {
                return Err(ArrowError::InvalidArgumentError(
                    "empty And / Or: it needs at least one child".into(),
                ));
            }
            // A plain loop: fewer frames a level in a debug build.
            for child in children {
                validate(child, stats)?;
            }
            Ok(())
        }
    }
}

/// The field a leaf reads and its stats, when it reads a plain field with
/// stats in the batch.
fn leaf_column<'s>(leaf: &'s Leaf, stats: &'s StatsBatch) -> Option<(&'s str, &'s StatsColumn)> {
    let name = leaf.field()?;
    Some((name, stats.column(name)?))
}

/// The bits of `predicate`, meaningful on the `active` containers.
fn evaluate(
    predicate: &Predicate,
    stats: &StatsBatch,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    match predicate {
        Predicate::Leaf(leaf) => evaluate_leaf(leaf, stats, active),
        Predicate::And(children) => {
            // A container is decided once a child says NoMatch. The first
            // child's bits become the accumulator (no more bitmaps).
            let Some((first, rest)) = children.split_first() else {
                return Ok(RuleBits::may_match(active.len()));
            };
            let RuleBits { mut may, mut all } = evaluate(first, stats, active)?;
            for (m, a) in may.iter_mut().zip(active) {
                *m &= a;
            }
            for child in rest {
                if may.iter().all(|&w| w == 0) {
                    break;
                }
                let bits = evaluate(child, stats, &may)?;
                for w in 0..may.len() {
                    may[w] &= bits.may[w];
                    all[w] &= bits.all[w];
                }
                scratch::recycle(bits.may);
                scratch::recycle(bits.all);
            }
            for (a, m) in all.iter_mut().zip(&may) {
                *a &= m;
            }
            Ok(RuleBits { may, all })
        }
        Predicate::Or(children) => {
            // A container is decided once a child says AllMatch.
            let mut may = vec![0u64; active.len()];
            let mut all = vec![0u64; active.len()];
            let mut undecided = active.to_vec();
            for child in children {
                if undecided.iter().all(|&w| w == 0) {
                    break;
                }
                let bits = evaluate(child, stats, &undecided)?;
                for w in 0..may.len() {
                    may[w] |= bits.may[w] & undecided[w];
                    all[w] |= bits.all[w] & undecided[w];
                    undecided[w] &= !all[w];
                }
                scratch::recycle(bits.may);
                scratch::recycle(bits.all);
            }
            scratch::recycle(undecided);
            Ok(RuleBits { may, all })
        }
    }
}

/// [`evaluate`] of a leaf, out of line: the recursion's frames stay small
/// (a tree [`Predicate::MAX_DEPTH`] deep).
#[inline(never)]
fn evaluate_leaf(leaf: &Leaf, stats: &StatsBatch, active: &[u64]) -> Result<RuleBits, ArrowError> {
    // TRUE selects every row of every container, null rows too (Java
    // keeps even an all-null container), whatever the leaf reads.
    // FALSE selects none: Java prunes every container when the leaf
    // reads no field (its NULL transform); over a field Java asks the
    // function only where it reaches it (bounds known, or an all-null
    // container) and keeps the rest, which we follow (the contract
    // lists no extra pruning for it).
    if let Some(value) = leaf.function.constant() {
        if !value && leaf.field().is_some() {
            return Ok(match leaf_column(leaf, stats) {
                Some((_, column)) => column.no_row(),
                None => RuleBits::may_match(stats.words()),
            });
        }
        let word = if value { !0 } else { 0 };
        let words = vec![word; active.len()];
        return Ok(RuleBits {
            may: words.clone(),
            all: words,
        });
    }
    let Some((_, column)) = leaf_column(leaf, stats) else {
        return Ok(RuleBits::may_match(stats.words()));
    };
    leaf_stats(leaf.function, column, leaf.literals.as_ref(), active)
}

/// One leaf's bits: the rule of its function's family.
fn leaf_stats(
    function: Function,
    column: &StatsColumn,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    use super::{arrays, between, compare, in_list, null_tests, strings};
    match function {
        Function::IsNull => Ok(null_tests::null_test_stats(column, false)),
        Function::IsNotNull => Ok(null_tests::null_test_stats(column, true)),
        Function::IsNaN => Ok(column.by_nulls_only()),
        Function::Compare(op) => compare::compare_stats(op, column, literals, active),
        Function::In | Function::NotIn => {
            in_list::in_stats(function == Function::NotIn, column, literals, active)
        }
        Function::Between | Function::NotBetween => {
            between::between_stats(function == Function::NotBetween, column, literals, active)
        }
        _ => match function.array_function() {
            Some(f) => Ok(arrays::array_stats(f, column, literals)),
            None => strings::string_stats(function, column, literals, active),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits of each entry (None for null), so that zeros' signs count.
    fn bits(a: &ArrayRef) -> Vec<Option<u64>> {
        use arrow_array::cast::AsArray;
        use arrow_array::types::Float64Type;
        let a = a.as_primitive::<Float64Type>();
        a.iter().map(|v| v.map(f64::to_bits)).collect()
    }

    #[test]
    fn float_bounds_drop_nan_and_widen_zeros() {
        use arrow_array::cast::AsArray;
        use arrow_array::types::Float32Type;
        use arrow_array::{Float32Array, Float64Array};
        use std::sync::Arc;
        let values = || -> ArrayRef {
            Arc::new(Float64Array::from(vec![
                Some(0.0),
                Some(-0.0),
                Some(f64::NAN),
                Some(-f64::NAN),
                Some(1.5),
                None,
            ]))
        };
        let want = |zero: f64| {
            vec![
                Some(zero.to_bits()),
                Some(zero.to_bits()),
                None,
                None,
                Some(1.5f64.to_bits()),
                None,
            ]
        };
        assert_eq!(bits(&float_bound(&values(), true)), want(-0.0));
        assert_eq!(bits(&float_bound(&values(), false)), want(0.0));
        let f32s: ArrayRef = Arc::new(Float32Array::from(vec![0.0f32, f32::NAN]));
        let min = float_bound(&f32s, true);
        let min = min.as_primitive::<Float32Type>();
        assert_eq!(min.value(0).to_bits(), (-0.0f32).to_bits());
        assert!(min.is_null(1));
        let ints: ArrayRef = Arc::new(arrow_array::Int64Array::from(vec![0, 1]));
        assert_eq!(float_bound(&ints, true).as_ref(), ints.as_ref());
    }

    /// Every verdict writer this CPU runs gives each container's verdict
    /// from its two bits, on 0..=200 containers (partial last words),
    /// leaving the entries past them alone; so does `verdicts`.
    #[test]
    fn verdict_writers_match_the_bits() {
        let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next_u64();
        for n in 0..=200usize {
            let words = n.div_ceil(64);
            let may: Vec<u64> = (0..words).map(|_| next()).collect();
            let all: Vec<u64> = (0..words).map(|_| next()).collect();
            let bits = RuleBits { may, all };
            let want: Vec<StatsVerdict> = (0..n)
                .map(|i| {
                    let bit = |w: &[u64]| w[i / 64] >> (i % 64) & 1 == 1;
                    match (bit(&bits.may), bit(&bits.all)) {
                        (false, _) => StatsVerdict::NoMatch,
                        (true, false) => StatsVerdict::MayMatch,
                        (true, true) => StatsVerdict::AllMatch,
                    }
                })
                .collect();
            let mut out = vec![StatsVerdict::AllMatch; n + 3];
            write_verdicts(&bits, &mut out[..n]);
            assert_eq!(&out[..n], want.as_slice(), "n {n}");
            assert_eq!(&out[n..], [StatsVerdict::AllMatch; 3], "n {n}");
            let mut out = vec![StatsVerdict::AllMatch; n + 3];
            write_verdicts_portable(&bits, &mut out[..n]);
            assert_eq!(&out[..n], want.as_slice(), "portable n {n}");
            assert_eq!(&out[n..], [StatsVerdict::AllMatch; 3], "n {n}");
            #[cfg(target_arch = "x86_64")]
            {
                let mut writers: Vec<(&str, VerdictWriter)> = vec![];
                if bounds::avx512_cut() {
                    writers.push(("avx512", write_verdicts_avx512));
                }
                if std::is_x86_feature_detected!("avx2") {
                    writers.push(("avx2", write_verdicts_avx2));
                }
                let bytes: Vec<u8> = want.iter().map(|&v| v as u8).collect();
                for (name, write) in writers {
                    // Bytes, not verdicts: a wrong byte fails the test
                    // rather than making an invalid enum.
                    let mut out = vec![9u8; n + 3];
                    // SAFETY: the CPU has what `write` needs (checked
                    // above); `out` holds `n + 3 >= n` bytes.
                    unsafe { write(&bits, out.as_mut_ptr(), n) };
                    assert_eq!(&out[..n], bytes.as_slice(), "{name} n {n}");
                    assert_eq!(&out[n..], [9; 3], "{name} n {n}");
                }
            }
            assert_eq!(verdicts(&bits, n), want, "verdicts n {n}");
        }
    }
}
