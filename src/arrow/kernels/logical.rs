//! Dictionary and run-end encoded columns: evaluate a bitmap kernel once per
//! distinct stored value, then spread the answers to the logical rows.
//!
//! The kernels of this crate (Java-order comparisons, Between, IsNaN, the IN
//! sets, the string functions) work on a flat array of values. A dictionary
//! column is tested on its dictionary (usually far shorter than the column)
//! and the bits are mapped through the keys; a run-end encoded column on its
//! values and the bits repeated over each run. Null rows come out with
//! unspecified bits: callers apply [`Array::logical_nulls`] of the column on
//! the way to bytes.

use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, Int32Type, Int64Type, RunEndIndexType};
use arrow_array::{downcast_integer_array, Array, RunArray};
use arrow_buffer::{ArrowNativeType, BooleanBuffer, BooleanBufferBuilder};
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::vec;

/// `kernel` applied to the stored values of `column` (its dictionary, its
/// run values, or itself), one bit per logical row of `column`.
pub(crate) fn per_value(
    column: &dyn Array,
    kernel: &mut dyn FnMut(&dyn Array) -> Result<BooleanBuffer, ArrowError>,
) -> Result<BooleanBuffer, ArrowError> {
    if let Some(dict) = column.as_any_dictionary_opt() {
        let member = per_value(dict.values().as_ref(), kernel)?;
        return map_keys(dict.keys(), &member);
    }
    match column.data_type() {
        DataType::RunEndEncoded(ends, _) => match ends.data_type() {
            DataType::Int16 => map_runs(column.as_run::<Int16Type>(), kernel),
            DataType::Int32 => map_runs(column.as_run::<Int32Type>(), kernel),
            DataType::Int64 => map_runs(column.as_run::<Int64Type>(), kernel),
            t => Err(ArrowError::InvalidArgumentError(format!(
                "unsupported run-end type {t}"
            ))),
        },
        _ => kernel(column),
    }
}

/// Row `i` gets bit `keys[i]` of `member` (the dictionary values' result);
/// a key out of range (possible only under a null key) gives `false`.
pub(crate) fn map_keys(
    keys: &dyn Array,
    member: &BooleanBuffer,
) -> Result<BooleanBuffer, ArrowError> {
    downcast_integer_array!(
        keys => Ok(map_native_keys(keys.values(), member)),
        t => Err(ArrowError::InvalidArgumentError(format!(
            "unsupported dictionary key type {t}"
        )))
    )
}

fn map_native_keys<K: ArrowNativeType>(keys: &[K], member: &BooleanBuffer) -> BooleanBuffer {
    // Dictionaries are small: one byte per value makes the lookup a load.
    let mut lookup = vec![false; member.len()];
    for (slot, bit) in lookup.iter_mut().zip(member.iter()) {
        *slot = bit;
    }
    BooleanBuffer::collect_bool(keys.len(), |i| {
        lookup.get(keys[i].as_usize()).copied().unwrap_or(false)
    })
}

/// The run values' bits repeated over each run of the (possibly sliced)
/// logical range.
fn map_runs<R: RunEndIndexType>(
    column: &RunArray<R>,
    kernel: &mut dyn FnMut(&dyn Array) -> Result<BooleanBuffer, ArrowError>,
) -> Result<BooleanBuffer, ArrowError> {
    // The values may be encoded again (a run-end-encoded dictionary).
    let member = per_value(column.values().as_ref(), kernel)?;
    let (offset, len) = (column.offset(), column.len());
    let mut out = BooleanBufferBuilder::new(len);
    let mut pos = offset;
    let first = column.get_start_physical_index();
    for (physical, end) in column.run_ends().values().iter().enumerate().skip(first) {
        if pos >= offset + len {
            break;
        }
        let end = end.as_usize().min(offset + len);
        out.append_n(end - pos, member.value(physical));
        pos = end;
    }
    Ok(out.finish())
}
