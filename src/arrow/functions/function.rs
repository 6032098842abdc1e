//! [`Function`]: every Paimon predicate leaf function in one enum, with the
//! literal checks a predicate tree can run before it touches data.
//!
//! Each family lives in its own file: [`null_tests`](super::null_tests)
//! (IsNull, IsNotNull, IsNaN), [`compare`](super::compare),
//! [`in_list`](super::in_list), [`between`](super::between),
//! [`strings`](super::strings) and Like's matcher in [`like`](super::like).
//! This file only checks the literals and dispatches.

use super::arrays::{array_bits, check_array, ArrayFunction};
use super::between::between_bits;
use super::boolean::unpack_bits;
use super::compare::{CompareOp, NullFalseLeafBinaryFunction};
use super::in_list::MultiLiteralsLeafFunction;
use super::like::LikePattern;
use super::literals::{check_out, check_type, invalid, value_type};
use super::null_tests::{is_nan, null_test};
use super::strings::{is_string, string_bits, string_literal, StringFunction};
use super::LeafFunction;
use arrow_array::Array;
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::vec;
use std::vec::Vec;

/// A Paimon predicate leaf function: the whole set Paimon (Java) can push
/// down, evaluated over an arrow-rs column, one byte per row (`1` =
/// selected).
///
/// | function | literals | a non-null row is selected when |
/// |---|---|---|
/// | `IsNull` / `IsNotNull` | ignored | never / always (a null row: the reverse) |
/// | `IsNaN` | ignored | its value is a float NaN (any sign or payload) |
/// | `Compare(op)` | at least one; `literals[0]` is used | `x <op> literals[0]` |
/// | `In` / `NotIn` | the list (any length) | as [`MultiLiteralsLeafFunction`] |
/// | `Between` / `NotBetween` | exactly two, `[lower, upper]` | `lower <= x <= upper` / not |
/// | `StartsWith`, `EndsWith`, `Contains`, `Like` and `Not…` | exactly one string | as named / not |
/// | `AlwaysTrue` / `AlwaysFalse` | ignored | always / never (null rows too: TRUE selects them) |
/// | `ArrayContains` | exactly one, of the element type | some non-null element equals it |
/// | `ArrayContainsAll` | the list, of the element type | every literal is an element (a null literal: no row; empty list: every non-null row) |
/// | `ArraysOverlap` | the list, of the element type | some non-null literal is an element (null literals skipped; empty list: no row) |
///
/// A null row is `0` under every function but IsNull and AlwaysTrue, the
/// `Not…` forms included. A null literal selects nothing (NotBetween with a null bound
/// too; for In / NotIn see [`MultiLiteralsLeafFunction`]). Floats compare as
/// Java's `Double.compare` in Compare, In / NotIn and Between: `-0.0 <
/// +0.0`, and every NaN is one value above `+inf`.
///
/// Literals of Compare, In and Between have the column's value type (the
/// value type under a dictionary or run-end encoding, or both: a run-end
/// encoding of a dictionary). The string functions take Utf8, LargeUtf8 or
/// Utf8View columns (and dictionaries and run-end encodings of them) and
/// one literal in any of those layouts. Like is
/// Java's: whole-string, case-sensitive; `%` is any sequence (newlines
/// included), `_` one code point that is not a line terminator; only `\%`,
/// `\_` and `\\` are escapes.
///
/// # Examples
///
/// ```
/// use arrow_array::{Int32Array, StringArray};
/// use bitbytes::arrow::Function;
///
/// let ages = Int32Array::from(vec![Some(17), Some(30), None, Some(65)]);
/// let bounds = Int32Array::from(vec![18, 64]);
/// assert_eq!(Function::Between.test(&ages, &bounds)?, [0, 1, 0, 0]);
/// assert_eq!(Function::NotBetween.test(&ages, &bounds)?, [1, 0, 0, 1]);
/// assert_eq!(Function::IsNull.test(&ages, &Int32Array::from(Vec::<i32>::new()))?, [0, 0, 1, 0]);
///
/// let names = StringArray::from(vec![Some("Ada"), Some("Alan"), None, Some("Grace")]);
/// let pattern = StringArray::from(vec!["A_a%"]);
/// assert_eq!(Function::Like.test(&names, &pattern)?, [1, 1, 0, 0]);
/// // The negation of Like is NotLike; the null row stays unselected.
/// let not_like = Function::Like.negate().unwrap();
/// assert_eq!(not_like.test(&names, &pattern)?, [0, 0, 0, 1]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Function {
    /// The row is null (the only function that selects null rows).
    IsNull,
    /// The row is not null.
    IsNotNull,
    /// The row is a float NaN, of any sign or payload. No negation.
    IsNaN,
    /// `x <op> literals[0]` ([`NullFalseLeafBinaryFunction`]).
    Compare(CompareOp),
    /// `x IN (literals)` ([`MultiLiteralsLeafFunction`]).
    In,
    /// `x NOT IN (literals)` ([`MultiLiteralsLeafFunction`]).
    NotIn,
    /// `literals[0] <= x <= literals[1]`.
    Between,
    /// `x < literals[0] or x > literals[1]`.
    NotBetween,
    /// `x` begins with the literal (bytes).
    StartsWith,
    /// `x` ends with the literal (bytes).
    EndsWith,
    /// The literal occurs in `x` (bytes).
    Contains,
    /// `x` matches the Java LIKE pattern.
    Like,
    /// Not [`StartsWith`](Function::StartsWith).
    NotStartsWith,
    /// Not [`EndsWith`](Function::EndsWith).
    NotEndsWith,
    /// Not [`Contains`](Function::Contains).
    NotContains,
    /// Not [`Like`](Function::Like).
    NotLike,
    /// Paimon's `TRUE`: selects every row, null rows included. Its literals
    /// are ignored; in a tree it reads [`Transform::Null`](super::Transform::Null)
    /// (see [`PredicateBuilder::always_true`](super::PredicateBuilder::always_true)).
    /// Negates to [`AlwaysFalse`](Function::AlwaysFalse).
    AlwaysTrue,
    /// Paimon's `FALSE`: selects no row. Negates to
    /// [`AlwaysTrue`](Function::AlwaysTrue).
    AlwaysFalse,
    /// `ARRAY_CONTAINS(x, literals[0])` over a List, LargeList or
    /// FixedSizeList column: some non-null element equals the literal (Java
    /// order: every NaN equals every NaN, `0.0 <> -0.0`). Takes exactly one
    /// literal (Java uses the first of several: we reject more); a null
    /// literal selects nothing. No negation.
    ArrayContains,
    /// `ARRAY_CONTAINS_ALL(x, literals)`: every literal is an element of
    /// the row's array; any null literal selects nothing, an empty list
    /// selects every non-null row. No negation.
    ArrayContainsAll,
    /// `ARRAYS_OVERLAP(x, literals)`: some non-null literal is an element
    /// of the row's array (null literals are skipped; an empty list selects
    /// nothing). No negation.
    ArraysOverlap,
}

impl Function {
    /// Every function, each comparison operator once.
    pub const ALL: [Function; 26] = [
        Function::IsNull,
        Function::IsNotNull,
        Function::IsNaN,
        Function::Compare(CompareOp::Equal),
        Function::Compare(CompareOp::NotEqual),
        Function::Compare(CompareOp::LessThan),
        Function::Compare(CompareOp::LessOrEqual),
        Function::Compare(CompareOp::GreaterThan),
        Function::Compare(CompareOp::GreaterOrEqual),
        Function::In,
        Function::NotIn,
        Function::Between,
        Function::NotBetween,
        Function::StartsWith,
        Function::EndsWith,
        Function::Contains,
        Function::Like,
        Function::NotStartsWith,
        Function::NotEndsWith,
        Function::NotContains,
        Function::NotLike,
        Function::AlwaysTrue,
        Function::AlwaysFalse,
        Function::ArrayContains,
        Function::ArrayContainsAll,
        Function::ArraysOverlap,
    ];

    /// Whether the function compares the column's values with literals of
    /// the column's (value) type: `=` to `>=`, IN, NOT IN, BETWEEN, NOT
    /// BETWEEN.
    pub(crate) fn compares_values(self) -> bool {
        matches!(
            self,
            Function::Compare(_)
                | Function::In
                | Function::NotIn
                | Function::Between
                | Function::NotBetween
        )
    }

    /// What a constant function selects on every row, null rows included:
    /// `Some(true)` for AlwaysTrue, `Some(false)` for AlwaysFalse, `None`
    /// for the functions that read their input.
    pub(crate) fn constant(self) -> Option<bool> {
        match self {
            Function::AlwaysTrue => Some(true),
            Function::AlwaysFalse => Some(false),
            _ => None,
        }
    }

    /// The function that selects exactly the non-null rows this one does not
    /// (with the same literals, none of them null), as Paimon's `negate()`.
    /// `None` for IsNaN and the three array functions, which have no
    /// negation (as in Paimon). AlwaysTrue and AlwaysFalse negate to each
    /// other.
    ///
    /// # Examples
    ///
    /// ```
    /// use bitbytes::arrow::{CompareOp, Function};
    ///
    /// assert_eq!(Function::IsNull.negate(), Some(Function::IsNotNull));
    /// assert_eq!(
    ///     Function::Compare(CompareOp::LessThan).negate(),
    ///     Some(Function::Compare(CompareOp::GreaterOrEqual))
    /// );
    /// assert_eq!(Function::NotLike.negate(), Some(Function::Like));
    /// assert_eq!(Function::IsNaN.negate(), None);
    /// assert_eq!(Function::AlwaysTrue.negate(), Some(Function::AlwaysFalse));
    /// assert_eq!(Function::ArraysOverlap.negate(), None);
    /// ```
    pub fn negate(self) -> Option<Function> {
        use Function::*;
        Some(match self {
            IsNull => IsNotNull,
            IsNotNull => IsNull,
            IsNaN => return None,
            Compare(op) => Compare(op.negate()),
            In => NotIn,
            NotIn => In,
            Between => NotBetween,
            NotBetween => Between,
            StartsWith => NotStartsWith,
            NotStartsWith => StartsWith,
            EndsWith => NotEndsWith,
            NotEndsWith => EndsWith,
            Contains => NotContains,
            NotContains => Contains,
            Like => NotLike,
            NotLike => Like,
            AlwaysTrue => AlwaysFalse,
            AlwaysFalse => AlwaysTrue,
            ArrayContains | ArrayContainsAll | ArraysOverlap => return None,
        })
    }

    /// The array function this is, if it is one.
    pub(crate) fn array_function(self) -> Option<ArrayFunction> {
        Some(match self {
            Function::ArrayContains => ArrayFunction::Contains,
            Function::ArrayContainsAll => ArrayFunction::ContainsAll,
            Function::ArraysOverlap => ArrayFunction::Overlap,
            _ => return None,
        })
    }

    /// The positive string function and whether this is its `Not…` form.
    pub(crate) fn string_function(self) -> Option<(StringFunction, bool)> {
        Some(match self {
            Function::StartsWith => (StringFunction::StartsWith, false),
            Function::EndsWith => (StringFunction::EndsWith, false),
            Function::Contains => (StringFunction::Contains, false),
            Function::Like => (StringFunction::Like, false),
            Function::NotStartsWith => (StringFunction::StartsWith, true),
            Function::NotEndsWith => (StringFunction::EndsWith, true),
            Function::NotContains => (StringFunction::Contains, true),
            Function::NotLike => (StringFunction::Like, true),
            _ => return None,
        })
    }

    /// Checks, without reading any row, that `literals` suit this function
    /// over a column of type `column_type`: their count, their type, the
    /// column's type, and for Like / NotLike the pattern. A predicate tree
    /// can validate every leaf against a schema before evaluating any.
    /// [`test_into`](Function::test_into) runs the same checks first.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`], naming the function and the
    /// problem, when:
    /// - Compare has no literal; Between / NotBetween do not have exactly
    ///   two; a string function does not have exactly one;
    /// - the literals of Compare, In / NotIn or Between / NotBetween do not
    ///   have the column's value type, or that type is nested (a list, a
    ///   struct, ...), which has no order;
    /// - a string function's column is not a string column (Utf8,
    ///   LargeUtf8, Utf8View, or a dictionary or run-end encoding of one), or
    ///   its literal is not a string;
    /// - a Like / NotLike pattern has an invalid escape (`\` followed by
    ///   anything but `%`, `_`, `\`, or at the end);
    /// - an array function's column is not a List, LargeList or
    ///   FixedSizeList of orderable elements, its literals do not have the
    ///   element type (a dictionary element's value type), or ArrayContains
    ///   does not have exactly one literal.
    ///
    /// IsNull, IsNotNull, IsNaN, AlwaysTrue and AlwaysFalse accept any
    /// column and any literals.
    ///
    /// # Examples
    ///
    /// ```
    /// use arrow_array::{Int64Array, StringArray};
    /// use arrow_schema::DataType;
    /// use bitbytes::arrow::Function;
    ///
    /// let utf8 = DataType::Utf8;
    /// assert!(Function::Like.validate(&utf8, &StringArray::from(vec!["a%"])).is_ok());
    /// let err = Function::Like.validate(&utf8, &StringArray::from(vec![r"a\b"])).unwrap_err();
    /// assert!(err.to_string().contains("not an escape"));
    /// let err = Function::Between.validate(&DataType::Int64, &Int64Array::from(vec![1])).unwrap_err();
    /// assert!(err.to_string().contains("exactly two"));
    /// ```
    pub fn validate(self, column_type: &DataType, literals: &dyn Array) -> Result<(), ArrowError> {
        match self {
            Function::IsNull
            | Function::IsNotNull
            | Function::IsNaN
            | Function::AlwaysTrue
            | Function::AlwaysFalse => Ok(()),
            Function::ArrayContains | Function::ArrayContainsAll | Function::ArraysOverlap => {
                self.validate_literals(literals)?;
                check_array(&format!("{self:?}"), column_type, literals)
            }
            Function::Compare(_)
            | Function::In
            | Function::NotIn
            | Function::Between
            | Function::NotBetween => {
                self.validate_literals(literals)?;
                self.check_ordered(column_type, literals)
            }
            _ => {
                let values = value_type(column_type);
                if !is_string(values) {
                    return Err(ArrowError::InvalidArgumentError(format!(
                        "{self:?} needs a string column (Utf8, LargeUtf8, Utf8View or a \
                         dictionary of one), got {column_type}"
                    )));
                }
                self.validate_literals(literals)
            }
        }
    }

    /// The checks of [`validate`](Function::validate) that need no column
    /// type: how many literals, a string function's literal a string, a
    /// Like pattern's escapes. What a leaf over a field without statistics
    /// is checked for ([`Predicate::test_stats`](super::Predicate::test_stats)).
    pub(crate) fn validate_literals(self, literals: &dyn Array) -> Result<(), ArrowError> {
        let count = |want: usize, what: &str| {
            if literals.len() == want {
                Ok(())
            } else {
                Err(ArrowError::InvalidArgumentError(format!(
                    "{self:?} needs exactly {what}, got {}",
                    literals.len()
                )))
            }
        };
        match self {
            Function::IsNull
            | Function::IsNotNull
            | Function::IsNaN
            | Function::AlwaysTrue
            | Function::AlwaysFalse
            | Function::In
            | Function::NotIn
            | Function::ArrayContainsAll
            | Function::ArraysOverlap => Ok(()),
            Function::ArrayContains => count(1, "one literal"),
            Function::Compare(op) => {
                if literals.is_empty() {
                    return Err(ArrowError::InvalidArgumentError(format!(
                        "comparison {op:?} needs one literal, got none"
                    )));
                }
                Ok(())
            }
            Function::Between | Function::NotBetween => count(2, "two literals [lower, upper]"),
            _ => {
                count(1, "one literal")?;
                let text = string_literal(literals)
                    .map_err(|e| ArrowError::InvalidArgumentError(format!("{self:?}: {e}")))?;
                if let (Some(text), Function::Like | Function::NotLike) = (text, self) {
                    LikePattern::parse(text)?;
                }
                Ok(())
            }
        }
    }

    /// The literal type check of Compare, In and Between.
    fn check_ordered(self, column_type: &DataType, literals: &dyn Array) -> Result<(), ArrowError> {
        let values = value_type(column_type);
        if values.is_nested() {
            return Err(ArrowError::InvalidArgumentError(format!(
                "{self:?} cannot compare values of type {values}"
            )));
        }
        check_type(column_type, literals.data_type())
            .map_err(|e| ArrowError::InvalidArgumentError(format!("{self:?}: {e}")))
    }

    /// Evaluates the function over every row of `column`; returns
    /// `column.len()` bytes.
    ///
    /// # Errors
    ///
    /// As [`validate`](Function::validate).
    ///
    /// # Examples
    ///
    /// ```
    /// use arrow_array::{Float64Array, StringArray};
    /// use bitbytes::arrow::Function;
    ///
    /// let x = Float64Array::from(vec![Some(f64::NAN), Some(1.0), None, Some(-f64::NAN)]);
    /// assert_eq!(Function::IsNaN.test(&x, &Float64Array::from(Vec::<f64>::new()))?, [1, 0, 0, 1]);
    /// let words = StringArray::from(vec![Some("apple"), None, Some("grape")]);
    /// let ap = StringArray::from(vec!["ap"]);
    /// assert_eq!(Function::NotStartsWith.test(&words, &ap)?, [0, 0, 1]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test(self, column: &dyn Array, literals: &dyn Array) -> Result<Vec<u8>, ArrowError> {
        let mut out = vec![0u8; column.len()];
        self.test_into(column, literals, &mut out)?;
        Ok(out)
    }

    /// Evaluates the function into `out[..column.len()]`; bytes past that
    /// are left alone.
    ///
    /// # Errors
    ///
    /// As [`validate`](Function::validate) for `column.data_type()`, and
    /// when `out` is shorter than the column or an arrow-rs kernel rejects
    /// the column. Nothing is written to `out` on error.
    ///
    /// # Examples
    ///
    /// ```
    /// use arrow_array::{LargeStringArray, StringViewArray};
    /// use bitbytes::arrow::Function;
    ///
    /// // The literal may have another string layout than the column.
    /// let column = StringViewArray::from(vec!["line one\nline two", "one line"]);
    /// let mut out = [9u8; 3];
    /// Function::Like.test_into(&column, &LargeStringArray::from(vec!["%one%two"]), &mut out)?;
    /// assert_eq!(out, [1, 0, 9]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test_into(
        self,
        column: &dyn Array,
        literals: &dyn Array,
        out: &mut [u8],
    ) -> Result<(), ArrowError> {
        self.validate(column.data_type(), literals)?;
        check_out(column.len(), out)?;
        let out = &mut out[..column.len()];
        match self {
            Function::IsNull => null_test(column, false, out),
            Function::IsNotNull => null_test(column, true, out),
            Function::IsNaN => is_nan(column, out),
            Function::AlwaysTrue | Function::AlwaysFalse => {
                out.fill(u8::from(self.constant() == Some(true)));
                Ok(())
            }
            Function::Compare(op) => {
                NullFalseLeafBinaryFunction::new(op).test_into(column, literals, out)
            }
            Function::In => MultiLiteralsLeafFunction::new(false).test_into(column, literals, out),
            Function::NotIn => {
                MultiLiteralsLeafFunction::new(true).test_into(column, literals, out)
            }
            Function::Between | Function::NotBetween => {
                if literals.logical_null_count() > 0 {
                    out.fill(0);
                    return Ok(());
                }
                let bits = between_bits(column, &literals.slice(0, 1), &literals.slice(1, 1))?;
                let negate = self == Function::NotBetween;
                unpack_bits(&bits, column.logical_nulls().as_ref(), negate, out).map_err(invalid)
            }
            Function::ArrayContains | Function::ArrayContainsAll | Function::ArraysOverlap => {
                let function = self.array_function().ok_or_else(|| {
                    ArrowError::InvalidArgumentError(format!("{self:?} is not an array function"))
                })?;
                let bits = array_bits(function, column, literals)?;
                unpack_bits(&bits, column.logical_nulls().as_ref(), false, out).map_err(invalid)
            }
            _ => {
                let (function, negate) = self.string_function().ok_or_else(|| {
                    ArrowError::InvalidArgumentError(format!("{self:?} is not a string function"))
                })?;
                let Some(text) = string_literal(literals)? else {
                    out.fill(0);
                    return Ok(());
                };
                let bits = string_bits(column, function, text)?;
                unpack_bits(&bits, column.logical_nulls().as_ref(), negate, out).map_err(invalid)
            }
        }
    }
}
