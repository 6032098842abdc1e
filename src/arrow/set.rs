//! Hash-set membership, specialised per physical type: the long-list
//! strategy of IN / NOT IN.
//!
//! The non-null literals go into a hash set keyed by the column's native
//! value (integers, decimals, dates, times, timestamps, durations, intervals
//! as they are; floats by bit pattern, which is equality under the IEEE 754
//! total order that the arrow-ord kernels use), a pair of flags for booleans,
//! or byte slices for every string and binary layout. Each row is one lookup;
//! [`BooleanBuffer::collect_bool`] packs the answers 64 rows per word.

use ahash::RandomState;
use arrow_array::cast::AsArray;
use arrow_array::types::{ByteArrayType, ByteViewType};
use arrow_array::{
    downcast_primitive_array, Array, ArrowPrimitiveType, BooleanArray, GenericByteArray,
    GenericByteViewArray, PrimitiveArray,
};
use arrow_buffer::{i256, BooleanBuffer, IntervalDayTime, IntervalMonthDayNano};
use arrow_schema::DataType;
use core::hash::Hash;
use half::f16;
use std::collections::HashSet;

/// One bit per row of `column`: its value is in `literals` (nulls skipped).
/// `None` when the type has no specialisation here, or when `literals` does
/// not have the column's type; the caller then uses the `eq` kernels.
pub(crate) fn membership(column: &dyn Array, literals: &dyn Array) -> Option<BooleanBuffer> {
    if column.data_type() != literals.data_type() {
        return None;
    }
    downcast_primitive_array!(
        (column, literals) => return Some(primitive(column, literals)),
        _ => {}
    );
    match column.data_type() {
        DataType::Boolean => Some(boolean(
            column.as_boolean_opt()?,
            literals.as_boolean_opt()?,
        )),
        DataType::Utf8 => Some(byte_array(
            column.as_string_opt::<i32>()?,
            literals.as_string_opt::<i32>()?,
        )),
        DataType::LargeUtf8 => Some(byte_array(
            column.as_string_opt::<i64>()?,
            literals.as_string_opt::<i64>()?,
        )),
        DataType::Binary => Some(byte_array(
            column.as_binary_opt::<i32>()?,
            literals.as_binary_opt::<i32>()?,
        )),
        DataType::LargeBinary => Some(byte_array(
            column.as_binary_opt::<i64>()?,
            literals.as_binary_opt::<i64>()?,
        )),
        DataType::Utf8View => Some(byte_view(
            column.as_string_view_opt()?,
            literals.as_string_view_opt()?,
        )),
        DataType::BinaryView => Some(byte_view(
            column.as_binary_view_opt()?,
            literals.as_binary_view_opt()?,
        )),
        _ => None,
    }
}

/// A native value as a hash-set key whose equality is the `eq` kernel's.
trait SetKey: Copy {
    /// The hashed form.
    type Key: Hash + Eq;
    /// `a.key() == b.key()` exactly when the `eq` kernel says `a == b`.
    fn key(self) -> Self::Key;
}

/// Integers and other types with exact equality are their own key.
macro_rules! identity_key {
    ($($t:ty),*) => {$(
        impl SetKey for $t {
            type Key = $t;
            #[inline]
            fn key(self) -> $t {
                self
            }
        }
    )*};
}
identity_key!(
    i8,
    i16,
    i32,
    i64,
    i128,
    u8,
    u16,
    u32,
    u64,
    i256,
    IntervalDayTime,
    IntervalMonthDayNano
);

/// Floats by bit pattern: equal under `total_cmp` exactly when the bits are
/// equal (so `-0.0 != +0.0`, and a NaN equals the same NaN).
macro_rules! bits_key {
    ($($t:ty => $k:ty),*) => {$(
        impl SetKey for $t {
            type Key = $k;
            #[inline]
            fn key(self) -> $k {
                self.to_bits()
            }
        }
    )*};
}
bits_key!(f16 => u16, f32 => u32, f64 => u64);

fn primitive<T: ArrowPrimitiveType>(
    column: &PrimitiveArray<T>,
    literals: &PrimitiveArray<T>,
) -> BooleanBuffer
where
    T::Native: SetKey,
{
    let set: HashSet<_, RandomState> = literals.iter().flatten().map(SetKey::key).collect();
    let values = column.values();
    BooleanBuffer::collect_bool(values.len(), |i| set.contains(&values[i].key()))
}

/// Booleans: which of `true` / `false` the list holds decides the whole
/// bitmap, computed a word at a time.
fn boolean(column: &BooleanArray, literals: &BooleanArray) -> BooleanBuffer {
    let (mut has_true, mut has_false) = (false, false);
    for v in literals.iter().flatten() {
        has_true |= v;
        has_false |= !v;
    }
    let values = column.values();
    match (has_true, has_false) {
        (true, true) => BooleanBuffer::new_set(values.len()),
        (true, false) => values.clone(),
        (false, true) => !values,
        (false, false) => BooleanBuffer::new_unset(values.len()),
    }
}

/// Utf8, LargeUtf8, Binary, LargeBinary: the literals' bytes in a set.
fn byte_array<T: ByteArrayType>(
    column: &GenericByteArray<T>,
    literals: &GenericByteArray<T>,
) -> BooleanBuffer {
    let set: HashSet<&[u8], RandomState> = literals.iter().flatten().map(AsRef::as_ref).collect();
    BooleanBuffer::collect_bool(column.len(), |i| {
        set.contains::<[u8]>(column.value(i).as_ref())
    })
}

/// Utf8View, BinaryView: the literals' bytes in a set.
fn byte_view<T: ByteViewType + ?Sized>(
    column: &GenericByteViewArray<T>,
    literals: &GenericByteViewArray<T>,
) -> BooleanBuffer {
    let set: HashSet<&[u8], RandomState> = literals.iter().flatten().map(AsRef::as_ref).collect();
    BooleanBuffer::collect_bool(column.len(), |i| {
        set.contains::<[u8]>(column.value(i).as_ref())
    })
}
