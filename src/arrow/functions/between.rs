//! Between and NotBetween: `lower <= x <= upper` in the comparisons' order.
//!
//! Primitive columns (integers, floats, decimals, temporals, intervals) run
//! one fused pass that tests both bounds per value, in Java's order
//! ([`order::between`]), so floats treat every NaN as one value above
//! `+inf`. Other types (booleans, strings, binaries) AND the bitmaps of two
//! arrow-ord passes, `>= lower` and `<= upper`. NotBetween is the negation on
//! the non-null rows (`x < lower or x > upper`), applied on the way to bytes.

use super::compare::{compare_bits, CompareOp};
use super::literals::value_type;
use super::logical::per_value;
use super::order::Ordinal;
use super::order::{self, JavaOrd};
use super::stats::{Fuse, OrderRule, RuleBits, StatsColumn};
use arrow_array::cast::AsArray;
use arrow_array::{downcast_primitive_array, Array, ArrayRef, ArrowPrimitiveType, PrimitiveArray};
use arrow_buffer::BooleanBuffer;
use arrow_schema::ArrowError;
use std::format;

/// `lower <= column[i] <= upper`, one bit per row (bits of null rows
/// unspecified). `lower` and `upper` are one-row, non-null arrays of the
/// column's value type.
pub(crate) fn between_bits(
    column: &dyn Array,
    lower: &ArrayRef,
    upper: &ArrayRef,
) -> Result<BooleanBuffer, ArrowError> {
    if value_type(column.data_type()).is_primitive() {
        return per_value(column, &mut |values| {
            downcast_primitive_array!(
                values => fused(values, lower.as_ref(), upper.as_ref()),
                t => Err(ArrowError::InvalidArgumentError(format!(
                    "Between: not a primitive column: {t}"
                )))
            )
        });
    }
    let above = compare_bits(column, CompareOp::GreaterOrEqual, lower)?;
    let below = compare_bits(column, CompareOp::LessOrEqual, upper)?;
    Ok(&above & &below)
}

fn fused<T: ArrowPrimitiveType>(
    values: &PrimitiveArray<T>,
    lower: &dyn Array,
    upper: &dyn Array,
) -> Result<BooleanBuffer, ArrowError>
where
    T::Native: JavaOrd,
{
    let bound = |a: &dyn Array| {
        a.as_primitive_opt::<T>()
            .filter(|a| !a.is_empty())
            .map(|a| a.value(0))
            .ok_or_else(|| {
                ArrowError::InvalidArgumentError(format!(
                    "Between: bound type {} does not match column value type {}",
                    a.data_type(),
                    values.data_type()
                ))
            })
    };
    Ok(order::between_dispatch(
        values.values(),
        bound(lower)?,
        bound(upper)?,
    ))
}

/// The statistics rule of Between / NotBetween (Paimon Java's): Between may
/// match unless `[lower, upper]` misses `[min, max]`, and all rows do when
/// it covers it; NotBetween is the reverse. Bounds need not be exact.
pub(crate) struct BetweenStats {
    pub(crate) negate: bool,
}

impl OrderRule for BetweenStats {
    fn run<K: Ordinal, F: Fuse<K>>(&self, literals: &[Option<K>], fuse: F) -> RuleBits {
        let (Some(&Some(lo)), Some(&Some(hi))) = (literals.first(), literals.get(1)) else {
            // Null bounds are the caller's (`StatsColumn::null_literal`).
            return fuse.fuse(|_, _| (true, false));
        };
        // `move` and `&` / `|`, not `&&` / `||`: a literal read through a
        // reference and only on one branch became a masked gather per
        // eight containers in the vectorised pass.
        if self.negate {
            fuse.fuse(move |min, max| ((lo > min) | (hi < max), (max < lo) | (min > hi)))
        } else {
            // A min above `hi` refutes the container whatever its max.
            fuse.fuse_pruned(
                move |min| min > hi,
                move |min, max| ((lo <= max) & (hi >= min), (lo <= min) & (max <= hi)),
            )
        }
    }
}

/// A Between / NotBetween leaf's verdict bits over `column`'s statistics.
pub(crate) fn between_stats(
    negate: bool,
    column: &StatsColumn,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    if literals.logical_null_count() > 0 {
        return Ok(column.null_literal());
    }
    let function = if negate {
        super::Function::NotBetween
    } else {
        super::Function::Between
    };
    column.ordered(&BetweenStats { negate }, function, literals, active)
}
