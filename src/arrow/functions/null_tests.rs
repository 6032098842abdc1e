//! IsNull, IsNotNull and IsNaN: the leaf functions that take no literal.
//!
//! IsNull / IsNotNull read the column's logical null buffer (a dictionary's
//! null values and a run-end encoding's null runs count as nulls) straight
//! into bytes: no kernel runs. IsNaN tests float values (any sign, any
//! payload) with a vectorised pass over the stored values; a null row is 0,
//! and a column of any other type has no NaN.

use super::boolean::unpack_bits;
use super::compare::is_float;
use super::literals::{invalid, value_type};
use super::logical::per_value;
use super::order;
use super::stats::{RuleBits, StatsColumn};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float16Type, Float32Type, Float64Type};
use arrow_array::Array;
use arrow_schema::{ArrowError, DataType};

/// IsNull (`is_not_null = false`) or IsNotNull into `out[..column.len()]`.
pub(crate) fn null_test(
    column: &dyn Array,
    is_not_null: bool,
    out: &mut [u8],
) -> Result<(), ArrowError> {
    match column.logical_nulls().filter(|n| n.null_count() > 0) {
        // A row is null where its validity bit is 0: IsNull is the negated
        // validity, IsNotNull the validity itself.
        Some(nulls) => unpack_bits(nulls.inner(), None, !is_not_null, out).map_err(invalid),
        None => {
            out.fill(u8::from(is_not_null));
            Ok(())
        }
    }
}

/// IsNaN into `out[..column.len()]`.
pub(crate) fn is_nan(column: &dyn Array, out: &mut [u8]) -> Result<(), ArrowError> {
    // Under every encoding: a run-end-encoded dictionary of floats is floats.
    if !is_float(value_type(column.data_type())) {
        out.fill(0);
        return Ok(());
    }
    let bits = per_value(column, &mut |values| {
        Ok(match values.data_type() {
            DataType::Float16 => order::is_nan(values.as_primitive::<Float16Type>().values()),
            DataType::Float32 => order::is_nan(values.as_primitive::<Float32Type>().values()),
            DataType::Float64 => order::is_nan(values.as_primitive::<Float64Type>().values()),
            t => {
                return Err(ArrowError::InvalidArgumentError(std::format!(
                    "IsNaN: not a float column: {t}"
                )))
            }
        })
    })?;
    unpack_bits(&bits, column.logical_nulls().as_ref(), false, out).map_err(invalid)
}

/// IsNull (`is_not_null = false`) or IsNotNull over `column`'s statistics,
/// from the null and row counts alone. IsNull: NoMatch when the null count
/// is known to be 0 (more than Java, which keeps the container without min
/// / max), AllMatch when every row is null. IsNotNull: NoMatch when every
/// row is null, AllMatch when none is.
pub(crate) fn null_test_stats(column: &StatsColumn, is_not_null: bool) -> RuleBits {
    let (all_null, no_null) = (column.all_null(), column.no_null());
    let (may, all) = all_null
        .iter()
        .zip(no_null)
        .map(|(&all_null, &no_null)| {
            if is_not_null {
                (!all_null, no_null & !all_null)
            } else {
                (!no_null, all_null & !no_null)
            }
        })
        .unzip();
    RuleBits { may, all }
}
