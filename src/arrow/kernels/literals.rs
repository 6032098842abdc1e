//! Checks shared by the leaf functions: the literal's type against the
//! column's value type, the output length, and error conversion.

use crate::Error;
use arrow_array::Array;
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::string::String;

/// The type a literal must have for a column of type `column`: the value
/// type under every dictionary and run-end encoding (a run-end-encoded
/// dictionary of strings: the strings; the kernels reach those values
/// through [`per_value`](super::logical::per_value), which unwraps each
/// encoding in turn), the column's own type otherwise.
pub(crate) fn value_type(mut column: &DataType) -> &DataType {
    loop {
        match column {
            DataType::Dictionary(_, value) => column = value,
            DataType::RunEndEncoded(_, values) => column = values.data_type(),
            other => return other,
        }
    }
}

/// `Err` unless `literals` has the column's value type and `out` holds one
/// byte per row.
pub(crate) fn check(
    column: &dyn Array,
    literals: &dyn Array,
    out: &[u8],
) -> Result<(), ArrowError> {
    check_out(column.len(), out)?;
    check_type(column.data_type(), literals.data_type())
}

/// `Err` unless a literal of type `literal` suits a column of type `column`.
pub(crate) fn check_type(column: &DataType, literal: &DataType) -> Result<(), ArrowError> {
    let want = value_type(column);
    if literal != want {
        return Err(ArrowError::InvalidArgumentError(format!(
            "literal type {literal} does not match column value type {want}"
        )));
    }
    Ok(())
}

/// `Err` unless `out` holds one byte per row of a `len`-row column.
pub(crate) fn check_out(len: usize, out: &[u8]) -> Result<(), ArrowError> {
    if out.len() < len {
        return Err(invalid(Error::OutputTooShort {
            needed: len,
            actual: out.len(),
        }));
    }
    Ok(())
}

/// A core [`Error`] as an Arrow invalid-argument error.
pub(crate) fn invalid(err: Error) -> ArrowError {
    ArrowError::InvalidArgumentError(format!("{err}"))
}

/// The text of `err` without arrow-rs's "Invalid argument error: " prefix
/// (an invalid-argument message as it is), to wrap in a message that says
/// where the problem is.
pub(crate) fn message(err: ArrowError) -> String {
    match err {
        ArrowError::InvalidArgumentError(m) => m,
        other => format!("{other}"),
    }
}
