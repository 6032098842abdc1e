//! Comparisons of a column against one literal: Paimon's
//! `NullFalseLeafBinaryFunction` (`Equal`, `NotEqual`, `LessThan`, ...).
//!
//! Primitive columns (and dictionaries and run-end encodings of them) are
//! compared by the crate's one-pass kernel of [`order`](super::order), built
//! for the CPU's vectors (AVX-512 or AVX2, chosen at run time; integers go
//! to arrow-ord's kernel on a CPU with neither), into a bitmap; [`unpack_bits`] spreads it to bytes with the column's nulls as
//! `0`. The kernel compares in Java's order: floats as Paimon does with
//! `Double.compare` (every NaN one value above `+inf`, where arrow-ord uses
//! the IEEE totalOrder), every other type in its native order (arrow-ord's
//! too). String `=` and `<>` run the crate's string kernel
//! ([`string_kernels`](super::string_kernels)); other types (strings'
//! order, binary, booleans) compare with arrow-ord's kernel and the literal
//! as a [`Scalar`].

use super::boolean::unpack_bits;
use super::literals::{check, invalid};
use super::logical::per_value;
use super::order::JavaOrd;
use super::order::Ordinal;
use super::stats::{Fuse, OrderRule, RuleBits, StatsColumn};
use super::string_kernels::{string_match, StringMatch};
use super::strings::{is_string, string_literal};
use super::{order, LeafFunction};
use arrow_array::cast::AsArray;
use arrow_array::{
    downcast_primitive_array, Array, ArrayRef, ArrowPrimitiveType, BooleanArray, Datum,
    PrimitiveArray, Scalar,
};
use arrow_buffer::BooleanBuffer;
use arrow_ord::cmp;
use arrow_schema::{ArrowError, DataType};

/// A comparison operator of [`NullFalseLeafBinaryFunction`].
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::CompareOp;
///
/// assert_eq!(CompareOp::LessThan.negate(), CompareOp::GreaterOrEqual);
/// assert_eq!(CompareOp::Equal.negate().negate(), CompareOp::Equal);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `column = literal`.
    Equal,
    /// `column <> literal`.
    NotEqual,
    /// `column < literal`.
    LessThan,
    /// `column <= literal`.
    LessOrEqual,
    /// `column > literal`.
    GreaterThan,
    /// `column >= literal`.
    GreaterOrEqual,
}

impl CompareOp {
    /// Every operator, in declaration order.
    pub const ALL: [CompareOp; 6] = [
        CompareOp::Equal,
        CompareOp::NotEqual,
        CompareOp::LessThan,
        CompareOp::LessOrEqual,
        CompareOp::GreaterThan,
        CompareOp::GreaterOrEqual,
    ];

    /// The operator that selects exactly the non-null rows this one does not:
    /// `=` and `<>`, `<` and `>=`, `<=` and `>`.
    pub fn negate(self) -> CompareOp {
        match self {
            CompareOp::Equal => CompareOp::NotEqual,
            CompareOp::NotEqual => CompareOp::Equal,
            CompareOp::LessThan => CompareOp::GreaterOrEqual,
            CompareOp::GreaterOrEqual => CompareOp::LessThan,
            CompareOp::LessOrEqual => CompareOp::GreaterThan,
            CompareOp::GreaterThan => CompareOp::LessOrEqual,
        }
    }

    /// Runs the arrow-ord kernel of this operator.
    fn kernel(self, column: &dyn Array, literal: &dyn Datum) -> Result<BooleanArray, ArrowError> {
        match self {
            CompareOp::Equal => cmp::eq(&column, literal),
            CompareOp::NotEqual => cmp::neq(&column, literal),
            CompareOp::LessThan => cmp::lt(&column, literal),
            CompareOp::LessOrEqual => cmp::lt_eq(&column, literal),
            CompareOp::GreaterThan => cmp::gt(&column, literal),
            CompareOp::GreaterOrEqual => cmp::gt_eq(&column, literal),
        }
    }
}

/// `column <op> literals[0]`, one byte per row, with Paimon's null handling:
/// a null row is `0`, a null literal makes every row `0`.
///
/// The column may be any type the arrow-ord comparison kernels support
/// (primitive, decimal, temporal, boolean, every string and binary layout,
/// dictionary and run-end encoded); the literal must have the column's value
/// type. Floats compare as Java's `Double.compare`: `-0.0 < +0.0`, and every
/// NaN (any sign, any payload) is one value, equal to every other NaN and
/// above `+inf`.
///
/// # Examples
///
/// ```
/// use arrow_array::Float64Array;
/// use bitbytes::arrow::{CompareOp, LeafFunction, NullFalseLeafBinaryFunction};
///
/// let column = Float64Array::from(vec![Some(-0.0), Some(0.0), Some(f64::NAN), None]);
/// let eq_zero = NullFalseLeafBinaryFunction::new(CompareOp::Equal);
/// assert_eq!(eq_zero.test(&column, &Float64Array::from(vec![0.0]))?, [0, 1, 0, 0]);
/// let gt_inf = NullFalseLeafBinaryFunction::new(CompareOp::GreaterThan);
/// assert_eq!(gt_inf.test(&column, &Float64Array::from(vec![f64::INFINITY]))?, [0, 0, 1, 0]);
/// // A NaN with the sign bit set is still NaN: above +inf, equal to NaN.
/// let nans = Float64Array::from(vec![f64::NAN, -f64::NAN, f64::INFINITY]);
/// assert_eq!(gt_inf.test(&nans, &Float64Array::from(vec![f64::INFINITY]))?, [1, 1, 0]);
/// assert_eq!(eq_zero.test(&nans, &Float64Array::from(vec![f64::NAN]))?, [1, 1, 0]);
/// // A null literal selects nothing.
/// let null = Float64Array::from(vec![None::<f64>]);
/// assert_eq!(gt_inf.negate().test(&column, &null)?, [0, 0, 0, 0]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NullFalseLeafBinaryFunction {
    op: CompareOp,
}

impl NullFalseLeafBinaryFunction {
    /// The leaf for `column <op> literal`.
    pub fn new(op: CompareOp) -> Self {
        Self { op }
    }

    /// Its operator.
    pub fn op(&self) -> CompareOp {
        self.op
    }
}

impl LeafFunction for NullFalseLeafBinaryFunction {
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] when `literals` is empty, when its
    /// type differs from the column's value type, when `out` is shorter than
    /// the column, or when arrow-ord cannot compare the column's type. Only
    /// `literals[0]` is used.
    fn test_into(
        &self,
        column: &dyn Array,
        literals: &dyn Array,
        out: &mut [u8],
    ) -> Result<(), ArrowError> {
        check(column, literals, out)?;
        if literals.is_empty() {
            return Err(ArrowError::InvalidArgumentError(std::format!(
                "comparison {:?} needs one literal, got none",
                self.op
            )));
        }
        let out = &mut out[..column.len()];
        // The first literal's nullness alone (the nulls of a whole NullArray
        // literal list would be a bitmap as long as it).
        if literals.slice(0, 1).logical_null_count() > 0 {
            out.fill(0);
            return Ok(());
        }
        let bits = compare_bits(column, self.op, &literals.slice(0, 1))?;
        unpack_bits(&bits, column.logical_nulls().as_ref(), false, out).map_err(invalid)
    }

    fn negate(&self) -> Self {
        Self::new(self.op.negate())
    }
}

/// `column <op> literal` (a one-row, non-null array of the column's value
/// type), one bit per row; bits of null rows are unspecified.
pub(crate) fn compare_bits(
    column: &dyn Array,
    op: CompareOp,
    literal: &ArrayRef,
) -> Result<BooleanBuffer, ArrowError> {
    let value_type = super::literals::value_type(column.data_type());
    if matches!(op, CompareOp::Equal | CompareOp::NotEqual)
        && is_string(value_type)
        && literal.data_type() == value_type
    {
        if let Some(text) = string_literal(literal.as_ref())? {
            let bits = string_match(column, StringMatch::Equal, text)?;
            return Ok(if op == CompareOp::Equal { bits } else { !&bits });
        }
    }
    // Dictionaries and run-end encodings are unwrapped here, not by arrow-ord:
    // the same mapping as every other kernel, and arrow-ord 60.1 overflows
    // (a panic in debug builds) expanding some sliced run-end encoded columns.
    if is_float(value_type) || (value_type.is_primitive() && order::vector_builds()) {
        // Floats always (Java's order: every NaN one value above +inf);
        // other primitive columns when the CPU has a vector build (their
        // native order, arrow-ord's too): the crate's one-pass kernel.
        return per_value(column, &mut |values| {
            downcast_primitive_array!(
                values => primitive_compare(values, op, literal.as_ref()),
                t => Err(ArrowError::InvalidArgumentError(std::format!(
                    "not a primitive column: {t}"
                )))
            )
        });
    }
    per_value(column, &mut |values| {
        Ok(op.kernel(values, &Scalar::new(literal))?.values().clone())
    })
}

/// Whether `t` is a float type, whose order is Java's and not arrow-ord's.
pub(crate) fn is_float(t: &DataType) -> bool {
    matches!(t, DataType::Float16 | DataType::Float32 | DataType::Float64)
}

/// `values <op> literal[0]` for a flat primitive array, in Java's order.
fn primitive_compare<T: ArrowPrimitiveType>(
    values: &PrimitiveArray<T>,
    op: CompareOp,
    literal: &dyn Array,
) -> Result<BooleanBuffer, ArrowError>
where
    T::Native: JavaOrd + PartialOrd,
{
    let literal = literal
        .as_primitive_opt::<T>()
        .filter(|l| !l.is_empty())
        .ok_or_else(|| {
            ArrowError::InvalidArgumentError(std::format!(
                "literal type {} does not match column value type {}",
                literal.data_type(),
                values.data_type()
            ))
        })?;
    Ok(order::compare_dispatch(
        values.values(),
        op,
        literal.value(0),
    ))
}

/// The statistics rule of a comparison (Paimon Java's
/// `NullFalseLeafBinaryFunction.test(.., min, max, ..)`): a container may
/// match unless `=`: the literal is outside `[min, max]`; `!=`: min = max =
/// literal (exact bounds only); `<` / `<=`: the literal is at most / below
/// min; `>` / `>=`: at least / above max. Every row matches when the whole
/// range satisfies the comparison (`=` needs exact bounds).
pub(crate) struct CompareStats {
    pub(crate) op: CompareOp,
    pub(crate) exact: bool,
}

impl OrderRule for CompareStats {
    fn run<K: Ordinal, F: Fuse<K>>(&self, literals: &[Option<K>], fuse: F) -> RuleBits {
        let Some(&Some(l)) = literals.first() else {
            // A null literal is the caller's (`StatsColumn::null_literal`).
            return fuse.fuse(|_, _| (true, false));
        };
        let exact = self.exact;
        match self.op {
            CompareOp::Equal => {
                // `move` and `&` / `|` (see `BetweenStats`): no masked
                // gather of the literal.
                // A min above the literal refutes the container whatever
                // its max (so do the mins of `<` / `<=` below).
                fuse.fuse_pruned(
                    move |min| min > l,
                    move |min, max| ((min <= l) & (l <= max), exact & (min == l) & (max == l)),
                )
            }
            CompareOp::NotEqual => {
                fuse.fuse(move |min, max| (!exact | (min != l) | (max != l), (l < min) | (max < l)))
            }
            CompareOp::LessThan => {
                fuse.fuse_pruned(move |min| min >= l, move |min, max| (min < l, max < l))
            }
            CompareOp::LessOrEqual => {
                fuse.fuse_pruned(move |min| min > l, move |min, max| (min <= l, max <= l))
            }
            CompareOp::GreaterThan => fuse.fuse(move |min, max| (max > l, min > l)),
            CompareOp::GreaterOrEqual => fuse.fuse(move |min, max| (max >= l, min >= l)),
        }
    }
}

/// A comparison leaf's verdict bits over `column`'s statistics.
pub(crate) fn compare_stats(
    op: CompareOp,
    column: &StatsColumn,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    let literal = literals.slice(0, 1);
    if literal.is_null(0) {
        return Ok(column.null_literal());
    }
    let rule = CompareStats {
        op,
        exact: column.exact,
    };
    column.ordered(
        &rule,
        super::Function::Compare(op),
        literal.as_ref(),
        active,
    )
}
