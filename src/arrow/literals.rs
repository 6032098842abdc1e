//! Checks shared by the leaf functions: the literal's type against the
//! column's value type, the output length, and error conversion.

use crate::Error;
use arrow_array::Array;
use arrow_schema::{ArrowError, DataType};
use std::format;

/// The type a literal must have for `column`: the value type of a dictionary
/// or run-end-encoded column, the column's own type otherwise.
pub(crate) fn value_type(column: &dyn Array) -> &DataType {
    match column.data_type() {
        DataType::Dictionary(_, value) => value,
        DataType::RunEndEncoded(_, values) => values.data_type(),
        other => other,
    }
}

/// `Err` unless `literals` has the column's value type and `out` holds one
/// byte per row.
pub(crate) fn check(
    column: &dyn Array,
    literals: &dyn Array,
    out: &[u8],
) -> Result<(), ArrowError> {
    if out.len() < column.len() {
        return Err(invalid(Error::OutputTooShort {
            needed: column.len(),
            actual: out.len(),
        }));
    }
    let want = value_type(column);
    let got = literals.data_type();
    if got != want {
        return Err(ArrowError::InvalidArgumentError(format!(
            "literal type {got} does not match column value type {want}"
        )));
    }
    Ok(())
}

/// A core [`Error`] as an Arrow invalid-argument error.
pub(crate) fn invalid(err: Error) -> ArrowError {
    ArrowError::InvalidArgumentError(format!("{err}"))
}
