//! `BooleanArray` to row indices: the selection vector arrow-select's `take`
//! wants.

use crate::raw::{count_selected_offsets, unpack_indices_offsets};
use crate::Error;
use arrow_array::{Array, BooleanArray, UInt32Array};
use std::vec;

/// The indices of the rows of `array` that are valid and whose value differs
/// from `negate`, ascending, as a `UInt32Array` without nulls: ready for
/// arrow-select's `take` (or `interleave`, or a gather of your own).
///
/// A null row is never selected, whatever `negate` (as in
/// [`unpack_boolean_array`](crate::arrow::unpack_boolean_array)). Sliced
/// arrays and arrays whose values and null buffer have different offsets
/// work. The rows are counted first, so the array holds exactly the selected
/// indices (4 bytes each); the indices are written by the widest
/// [`IndicesKernel`](crate::raw::IndicesKernel) of the CPU into that buffer,
/// which the array then owns without a copy.
///
/// # Errors
///
/// [`Error::IndexOverflow`] when the array has more than `u32::MAX + 1`
/// rows, so that an index would not fit in a `u32`.
///
/// # Examples
///
/// ```
/// use arrow_array::{BooleanArray, Int64Array, UInt32Array};
/// use arrow_select::take::take;
/// use bitbytes::arrow::selection_indices;
///
/// let column = Int64Array::from(vec![10, 20, 30, 40, 50]);
/// let predicate = BooleanArray::from(vec![Some(true), None, Some(false), Some(true), Some(true)]);
///
/// let idx = selection_indices(&predicate, false)?;
/// assert_eq!(idx, UInt32Array::from(vec![0, 3, 4]));
/// let taken = take(&column, &idx, None)?;
/// assert_eq!(taken.as_ref(), &Int64Array::from(vec![10, 40, 50]));
///
/// // NOT: the valid rows that are false; the null row 1 stays out.
/// assert_eq!(selection_indices(&predicate, true)?, UInt32Array::from(vec![2]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn selection_indices(array: &BooleanArray, negate: bool) -> Result<UInt32Array, Error> {
    let values = array.values();
    let validity = array
        .nulls()
        .filter(|n| n.null_count() > 0)
        .map(|n| (n.inner().inner().as_slice(), n.inner().offset()));
    let bytes = values.inner().as_slice();
    let (offset, len) = (values.offset(), values.len());
    let count = count_selected_offsets(bytes, offset, validity, len, negate)?;
    let mut out = vec![0u32; count];
    let written = unpack_indices_offsets(bytes, offset, validity, len, negate, 0, &mut out)?;
    debug_assert_eq!(written, count);
    Ok(UInt32Array::from(out))
}
