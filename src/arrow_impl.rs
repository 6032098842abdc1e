//! Arrow arrays to byte masks, and Apache Paimon's predicate leaf functions
//! (feature `arrow`).
//!
//! A predicate leaf over an Arrow column is evaluated in two steps: a kernel
//! writes a bitmap (one bit per row, plus the column's validity), and
//! [`raw::unpack_offsets`](crate::raw::unpack_offsets) spreads it to one
//! `0`/`1` byte per row, 64 rows per word, with the validity and `negate`
//! folded in on the way. No per-row `is_null` / `value` accessor is called and
//! no bitmap is copied.
//!
//! - [`unpack_boolean_array`] / [`boolean_array_to_bytes`]: any
//!   [`BooleanArray`](arrow_array::BooleanArray) to bytes, honouring the values'
//!   and the null buffer's own bit offsets (they may differ).
//! - [`NullFalseLeafBinaryFunction`]: `=`, `<>`, `<`, `<=`, `>`, `>=` of a
//!   column against one literal, through the arrow-ord kernels.
//! - [`MultiLiteralsLeafFunction`]: `IN` / `NOT IN` a list of literals, by OR of
//!   `eq` bitmaps for short lists and by a set for long ones (a bitmap over
//!   the literals' range for close integers, a flat hash table otherwise;
//!   [`InStrategy`], [`IN_HASH_MIN_LITERALS`]).
//! - [`selection_indices`]: a `BooleanArray` to the `UInt32Array` of its
//!   selected rows, for arrow-select's `take`.
//! - [`Function`]: Paimon's whole leaf set in one enum: IsNull, IsNotNull,
//!   IsNaN, the comparisons, In / NotIn, Between / NotBetween, StartsWith,
//!   EndsWith, Contains, Like and their `Not…` forms, AlwaysTrue /
//!   AlwaysFalse, and the array functions ArrayContains, ArrayContainsAll,
//!   ArraysOverlap over list columns, with
//!   [`Function::validate`] to check literals against a column type before
//!   any data is read.
//! - [`Predicate`]: And / Or trees of [`Leaf`]s over a `RecordBatch`, built
//!   with checked literals by [`PredicateBuilder`]; [`Predicate::negate`]
//!   (De Morgan down to the leaves), [`Predicate::test`] (the whole tree
//!   validated first, then each child evaluated only on the rows still
//!   undecided, see [`Narrowing`]) and [`Predicate::filter`].
//!
//! The source has three rooms under `src/arrow/`:
//! - `functions/`: the leaf functions, one file per family, each with its row
//!   kernels: `function.rs` (the [`Function`] enum, literal checks, dispatch),
//!   `null_tests.rs`, `compare.rs`, `in_list.rs` (with `set.rs`,
//!   `range_set.rs`, `u64_set.rs`), `between.rs`, `strings.rs`, `like.rs`
//!   (Like's parser and matcher) and `arrays.rs` (the array functions);
//! - `kernels/`: what the families share: `order.rs` (Java's float order and
//!   its one-pass kernels), `logical.rs` (the dictionary / run-end mapping),
//!   `literals.rs` (literal checks), `boolean.rs` (bitmap to bytes) and
//!   `selection.rs` (bitmap to row indices);
//! - `predicate/`: the trees: `tree.rs` (the types, negation, filter),
//!   `evaluate.rs` (validation against a schema and evaluation on the
//!   undecided rows), `builder.rs` ([`PredicateBuilder`]) and `display.rs`
//!   (`Display`: an SQL-like line).
//!
//! # Semantics (as in Paimon)
//!
//! One byte per row, `1` = selected. A null row is never selected, by any
//! function or its negation, except IsNull and AlwaysTrue. Comparisons against a null literal select
//! nothing; a missing literal, or a literal whose type differs from the
//! column's value type (the dictionary's value type for a dictionary column),
//! is an [`ArrowError::InvalidArgumentError`](arrow_schema::ArrowError), never a
//! panic. Floats compare as Java's `Double.compare`, in every function
//! (comparisons, IN / NOT IN, Between, the array functions): `-0.0 < +0.0`, and every NaN, whatever
//! its sign bit or payload, is one value equal to every other NaN and above
//! `+inf` (arrow-ord's IEEE totalOrder puts a negative NaN below `-inf`, so
//! floats run a kernel of this crate). IN skips null literals; NOT IN with a
//! null literal selects nothing. IsNull and AlwaysTrue (Java's TRUE) are
//! the only functions that select a null row.
//!
//! # Examples
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Array, Int64Array};
//! use bitbytes::arrow::{
//!     CompareOp, LeafFunction, MultiLiteralsLeafFunction, NullFalseLeafBinaryFunction,
//! };
//!
//! let column = Int64Array::from(vec![Some(1), Some(2), Some(3), None]);
//!
//! let lt = NullFalseLeafBinaryFunction::new(CompareOp::LessThan);
//! assert_eq!(lt.test(&column, &Int64Array::from(vec![3]))?, [1, 1, 0, 0]);
//! // The negation of `<` is `>=`; the null row stays unselected.
//! assert_eq!(lt.negate().test(&column, &Int64Array::from(vec![3]))?, [0, 0, 1, 0]);
//!
//! let not_in = MultiLiteralsLeafFunction::new(true);
//! assert_eq!(not_in.test(&column, &Int64Array::from(vec![2, 5]))?, [1, 0, 1, 0]);
//!
//! use arrow_array::StringArray;
//! use bitbytes::arrow::Function;
//! let names = StringArray::from(vec![Some("apple"), Some("banana"), None]);
//! assert_eq!(Function::Contains.test(&names, &StringArray::from(vec!["an"]))?, [0, 1, 0]);
//! assert_eq!(Function::Between.test(&column, &Int64Array::from(vec![2, 3]))?, [0, 1, 1, 0]);
//! # Ok::<(), arrow_schema::ArrowError>(())
//! ```

use arrow_array::Array;
use arrow_schema::ArrowError;
use std::vec;
use std::vec::Vec;

// Leaf functions: one file per family (`src/arrow/functions/`), each with its row kernels.
#[path = "arrow/functions/arrays.rs"]
mod arrays;
#[path = "arrow/functions/between.rs"]
mod between;
#[path = "arrow/functions/compare.rs"]
mod compare;
#[path = "arrow/functions/function.rs"]
mod function;
#[path = "arrow/functions/in_list.rs"]
mod in_list;
#[path = "arrow/functions/like.rs"]
mod like;
#[path = "arrow/functions/null_tests.rs"]
mod null_tests;
#[path = "arrow/functions/range_set.rs"]
mod range_set;
#[path = "arrow/functions/set.rs"]
mod set;
#[path = "arrow/functions/string_kernels.rs"]
mod string_kernels;
#[path = "arrow/functions/string_set.rs"]
mod string_set;
#[path = "arrow/functions/strings.rs"]
mod strings;
#[path = "arrow/functions/u64_set.rs"]
mod u64_set;

// Kernels shared by the families (`src/arrow/kernels/`): Java's order, dictionary / run-end mapping,
// literal checks, and the bitmap-to-bytes and selection-vector steps.
#[path = "arrow/kernels/boolean.rs"]
mod boolean;
#[path = "arrow/kernels/java_text.rs"]
mod java_text;
#[path = "arrow/kernels/literals.rs"]
mod literals;
#[path = "arrow/kernels/logical.rs"]
mod logical;
#[path = "arrow/kernels/order.rs"]
mod order;
#[path = "arrow/kernels/selection.rs"]
mod selection;

// Transforms (`src/arrow/transform/`): what a leaf reads from a row, and Paimon's types.
#[path = "arrow/transform/mod.rs"]
mod transform;

// Statistics (`src/arrow/stats/`): verdicts of predicates over many containers' min / max / null counts.
#[path = "arrow/stats/mod.rs"]
mod stats;
// Parquet (feature `parquet`): a file's row-group and page statistics, and what to read.
#[cfg(feature = "parquet")]
#[path = "arrow/stats/parquet.rs"]
mod parquet_stats;

// Predicate trees (`src/arrow/predicate/`): the tree, its evaluation, builder and display.
#[path = "arrow/predicate/builder.rs"]
mod builder;
#[path = "arrow/predicate/display.rs"]
mod display;
#[path = "arrow/predicate/evaluate.rs"]
mod evaluate;
#[cfg(feature = "json")]
#[path = "arrow/predicate/json.rs"]
mod json;
#[cfg(feature = "json")]
#[path = "arrow/predicate/json_text.rs"]
mod json_text;
#[path = "arrow/predicate/tree.rs"]
mod predicate;

pub use boolean::{boolean_array_to_bytes, unpack_boolean_array};
pub use builder::PredicateBuilder;
pub use compare::{CompareOp, NullFalseLeafBinaryFunction};
pub use evaluate::{Narrowing, GATHER_MAX_FRACTION, GATHER_MAX_FRACTION_BYTES};
pub use function::Function;
pub use in_list::{in_slice, InStrategy, MultiLiteralsLeafFunction, IN_HASH_MIN_LITERALS};
pub use order::{between_slice, compare_slice, JavaOrdered};
#[cfg(feature = "parquet")]
pub use parquet_stats::{PageStats, ParquetStats, PruneCounts, PrunePlan, PrunedFilter, RowRun};
pub use predicate::{Leaf, Predicate};
pub use selection::selection_indices;
pub use stats::{ColumnStats, StatsBatch, StatsVerdict};
pub use string_kernels::{
    string_match, string_match_offsets, string_match_offsets_unchecked, string_match_utf8,
    StringMatch, StringOffset,
};
pub use transform::{
    FieldRef, PaimonType, PaimonTypeRoot, PositionInput, Transform, TransformInput, TrimSide,
    PAIMON_MAX_LENGTH,
};

/// A predicate leaf: evaluates a column against literals, one byte per row
/// (`1` = selected), as Paimon's `LeafFunction::Test`.
///
/// # Examples
///
/// ```
/// use arrow_array::StringArray;
/// use bitbytes::arrow::{CompareOp, LeafFunction, NullFalseLeafBinaryFunction};
///
/// let leaf = NullFalseLeafBinaryFunction::new(CompareOp::Equal);
/// let column = StringArray::from(vec![Some("a"), None, Some("b")]);
/// let mut out = [9u8; 3];
/// leaf.test_into(&column, &StringArray::from(vec!["b"]), &mut out)?;
/// assert_eq!(out, [0, 0, 1]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub trait LeafFunction {
    /// Evaluates the leaf over every row of `column`; returns
    /// `column.len()` bytes.
    ///
    /// # Errors
    ///
    /// As [`test_into`](LeafFunction::test_into), except that the output is
    /// always long enough.
    fn test(&self, column: &dyn Array, literals: &dyn Array) -> Result<Vec<u8>, ArrowError> {
        let mut out = vec![0u8; column.len()];
        self.test_into(column, literals, &mut out)?;
        Ok(out)
    }

    /// Evaluates the leaf into `out[..column.len()]`; bytes past that are
    /// left alone.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] when `out` is shorter than the
    /// column, when the literals do not suit the function (none for a
    /// comparison, or of another type than the column's values), or when
    /// arrow-ord does not support the column's type. Nothing is written to
    /// `out` on error.
    fn test_into(
        &self,
        column: &dyn Array,
        literals: &dyn Array,
        out: &mut [u8],
    ) -> Result<(), ArrowError>;

    /// The negated function, as Paimon's `negate()`: `=` and `<>`, `<` and
    /// `>=`, `<=` and `>`, `IN` and `NOT IN`. On a null row both select
    /// nothing.
    fn negate(&self) -> Self
    where
        Self: Sized;
}
