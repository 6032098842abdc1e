//! `BooleanArray` (or any bitmap plus null buffer) to one byte per row.
//!
//! In arrow-rs the values [`BooleanBuffer`] and the [`NullBuffer`] each carry
//! their own bit offset, and an array assembled from buffers of different
//! origins has two different offsets. Both go straight to
//! [`unpack_offsets`], which shift-merges each bitmap at its own offset: no
//! copy, no allocation, no per-row accessor.

use crate::raw::unpack_offsets;
use crate::Error;
use arrow_array::{Array, BooleanArray};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use std::vec;
use std::vec::Vec;

/// Writes `out[i] = array.is_valid(i) && array.value(i) != negate` for every
/// row of `array`, one `0`/`1` byte per row; bytes past `array.len()` are left
/// alone.
///
/// A null row is `0` whatever `negate`: `negate` turns an IN result into NOT
/// IN, it is not a NOT of the output. Sliced arrays, arrays whose values and
/// null buffer have different offsets, arrays without nulls and all-null
/// arrays all work.
///
/// # Errors
///
/// [`Error::OutputTooShort`] when `out.len() < array.len()`; nothing is
/// written then.
///
/// # Examples
///
/// ```
/// use arrow_array::BooleanArray;
/// use bitbytes::arrow::unpack_boolean_array;
///
/// let array = BooleanArray::from(vec![Some(true), None, Some(false), Some(true)]);
/// let mut out = [0u8; 3];
/// // The slice starts at row 1: [null, false, true].
/// unpack_boolean_array(&array.slice(1, 3), true, &mut out)?;
/// assert_eq!(out, [0, 1, 0]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub fn unpack_boolean_array(
    array: &BooleanArray,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    unpack_bits(array.values(), array.nulls(), negate, out)
}

/// [`unpack_boolean_array`] into a new `Vec` of `array.len()` bytes.
///
/// # Examples
///
/// ```
/// use arrow_array::BooleanArray;
/// use bitbytes::arrow::boolean_array_to_bytes;
///
/// let array = BooleanArray::from(vec![Some(true), None, Some(false)]);
/// assert_eq!(boolean_array_to_bytes(&array, false), [1, 0, 0]);
/// assert_eq!(boolean_array_to_bytes(&array, true), [0, 0, 1]);
/// ```
pub fn boolean_array_to_bytes(array: &BooleanArray, negate: bool) -> Vec<u8> {
    let mut out = vec![0u8; array.len()];
    // Cannot fail: `out` has one byte per row, and arrow-rs guarantees that a
    // `BooleanBuffer` / `NullBuffer` holds every bit of its `offset + len`.
    let res = unpack_boolean_array(array, negate, &mut out);
    debug_assert!(res.is_ok(), "{res:?}");
    out
}

/// Unpacks `values.len()` rows of `values`, masked by `nulls`, each at its
/// own bit offset. Shared by the wrapper and both leaf functions.
pub(crate) fn unpack_bits(
    values: &BooleanBuffer,
    nulls: Option<&NullBuffer>,
    negate: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    let validity = nulls
        .filter(|n| n.null_count() > 0)
        .map(|n| (n.inner().inner().as_slice(), n.inner().offset()));
    unpack_offsets(
        values.inner().as_slice(),
        values.offset(),
        validity,
        values.len(),
        negate,
        out,
    )
}
