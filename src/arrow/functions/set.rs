//! Hash-set membership, specialised per physical type: the long-list
//! strategy of IN / NOT IN.
//!
//! The non-null literals go into a set keyed by the column's native value:
//! for integers, dates, times, timestamps and durations a bitmap over the
//! literals' range when it is small ([`RangeSet`]) and a flat [`U64Set`]
//! otherwise; for floats a [`U64Set`] of their Java-order keys (every NaN
//! one key, `-0.0` and `+0.0` two, as Java's `Double.equals`); a
//! `HashSet` for decimals and intervals and a pair of flags for booleans;
//! each row is one lookup, [`BooleanBuffer::collect_bool`] packs the answers
//! 64 rows per word. Every string and binary layout (Utf8, LargeUtf8,
//! Binary, LargeBinary, Utf8View, BinaryView) has its own set kernel
//! ([`string_set`](super::string_set)): a length filter a word of 64 rows at
//! a time, then a key of the length and the first and last 8 bytes against
//! a hash filter and a flat table, bytes compared only on a key hit.

use super::order::JavaOrd;
use super::range_set::RangeSet;
use super::string_set::{byte_array, byte_view};
use super::u64_set::U64Set;
use ahash::RandomState;
use arrow_array::cast::AsArray;
use arrow_array::{
    downcast_primitive_array, Array, ArrowPrimitiveType, BooleanArray, PrimitiveArray,
};
use arrow_buffer::{i256, BooleanBuffer, IntervalDayTime, IntervalMonthDayNano};
use arrow_schema::DataType;
use half::f16;
use std::collections::HashSet;
use std::vec::Vec;

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

/// Whether [`membership`] has a specialisation for columns of type `t`.
pub(crate) fn supports(t: &DataType) -> bool {
    t.is_primitive()
        || matches!(
            t,
            DataType::Boolean
                | DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::Utf8View
                | DataType::BinaryView
        )
}

/// A native value type with its membership test.
pub(crate) trait SetMember: Copy {
    /// One bit per value: it equals (as the `eq` kernel says) a literal.
    fn membership(values: &[Self], literals: Vec<Self>) -> BooleanBuffer;
}

/// Integers of at most 64 bits (and everything stored as one) map to a `u64`
/// one-to-one and in order (signed values with the sign bit flipped): a
/// [`RangeSet`] when the literals span a small range, the flat [`U64Set`]
/// otherwise.
macro_rules! integer_member {
    ($($t:ty => |$v:ident| $ordinal:expr),* $(,)?) => {$(
        impl SetMember for $t {
            fn membership(values: &[Self], literals: Vec<Self>) -> BooleanBuffer {
                let ordinal = |$v: $t| -> u64 { $ordinal };
                let ordinals: Vec<u64> = literals.into_iter().map(ordinal).collect();
                match RangeSet::new(&ordinals) {
                    Some(range) => range.members(values, ordinal),
                    None => U64Set::new(ordinals.into_iter()).members(values, ordinal),
                }
            }
        }
    )*};
}
const SIGN: u64 = 1 << 63;
integer_member!(
    i8 => |v| i64::from(v) as u64 ^ SIGN, i16 => |v| i64::from(v) as u64 ^ SIGN,
    i32 => |v| i64::from(v) as u64 ^ SIGN, i64 => |v| v as u64 ^ SIGN,
    u8 => |v| u64::from(v), u16 => |v| u64::from(v), u32 => |v| u64::from(v), u64 => |v| v,
);

/// Floats by their Java-order key, which is one-to-one on the non-NaN
/// values (so `-0.0 != +0.0`) and the same for every NaN.
macro_rules! float_member {
    ($($t:ty),*) => {$(
        impl SetMember for $t {
            fn membership(values: &[Self], literals: Vec<Self>) -> BooleanBuffer {
                let key = |v: $t| -> u64 { i64::from(v.key()) as u64 };
                U64Set::new(literals.into_iter().map(key)).members(values, key)
            }
        }
    )*};
}
float_member!(f16, f32, f64);

/// Wider types (Decimal128, Decimal256, intervals) in a `HashSet`.
macro_rules! hashed_member {
    ($($t:ty),*) => {$(
        impl SetMember for $t {
            fn membership(values: &[Self], literals: Vec<Self>) -> BooleanBuffer {
                let set: HashSet<$t, RandomState> = literals.into_iter().collect();
                BooleanBuffer::collect_bool(values.len(), |i| set.contains(&values[i]))
            }
        }
    )*};
}
hashed_member!(i128, i256, IntervalDayTime, IntervalMonthDayNano);

fn primitive<T: ArrowPrimitiveType>(
    column: &PrimitiveArray<T>,
    literals: &PrimitiveArray<T>,
) -> BooleanBuffer
where
    T::Native: SetMember,
{
    T::Native::membership(column.values(), literals.iter().flatten().collect())
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
