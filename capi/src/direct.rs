//! The common column types built straight from the caller's buffers,
//! without arrow-rs' C Data Interface importer: primitive columns of 1 to 8
//! bytes (integers, floats, dates, times, timestamps, durations, small
//! decimals and intervals), booleans, Utf8 / LargeUtf8 / Binary /
//! LargeBinary, and dictionaries of these.
//!
//! arrow-rs' importer (`from_ffi_and_data_type`) puts an `Arc` of the
//! struct, a `Vec` of buffers and an `ArrayData` around every column, and
//! `make_array` then takes the `ArrayData` apart again: on the 4 Ki-row
//! batches of `capi/benches/predicate.rs` that was about half of what the C
//! entry point cost over a call from Rust. Here each buffer is an arrow-rs
//! `Buffer` over the caller's memory whose owner is a token that frees
//! nothing ([`Borrowed`]), and the array is made from its parts
//! (`PrimitiveArray::try_new`, `GenericByteArray::new_unchecked` after the
//! checks of `validate.rs`).
//!
//! This is a fast path only. [`import`] returns `None` for every other type
//! and for every input it does not accept as is: a misaligned values buffer
//! (the importer copies it to an aligned one), a NULL buffer, a null count
//! that disagrees with the bitmap, bad offsets or bytes, a dictionary key
//! out of range. The caller then runs the importer and `validate.rs`, the
//! reference, which accepts the same inputs and names what is wrong with
//! the others: the messages of errors do not depend on this module, and an
//! array this module builds is the one the reference builds (the tests
//! compare them).

use crate::arrow::ArrowArray;
use crate::validate::offsets_in;
use arrow_array::types::{
    ArrowDictionaryKeyType, BinaryType, ByteArrayType, LargeBinaryType, LargeUtf8Type, Utf8Type,
};
use arrow_array::{
    downcast_integer, downcast_primitive, new_empty_array, ArrayRef, ArrowNativeTypeOp,
    ArrowPrimitiveType, BooleanArray, DictionaryArray, GenericByteArray, PrimitiveArray,
};
use arrow_buffer::alloc::Allocation;
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use core::ffi::c_void;
use core::ptr::NonNull;
use std::sync::Arc;

/// The owner of every borrowed buffer: it frees nothing, since the caller
/// owns the memory (see `import::import` for why borrowing is sound).
struct Borrowed;

/// The owners of one import: a single `Arc` the buffers share.
pub(crate) type Owner = Arc<dyn Allocation>;

/// The owner for the buffers of one call: this thread's token (cloning it
/// is an increment, where a fresh one would be an allocation per call), or
/// a fresh one while the thread is being torn down. The token points to no
/// memory of the caller, so keeping it across calls keeps nothing that
/// could dangle.
pub(crate) fn owner() -> Owner {
    std::thread_local! {
        static OWNER: Owner = Arc::new(Borrowed);
    }
    OWNER
        .try_with(Arc::clone)
        .unwrap_or_else(|_| Arc::new(Borrowed))
}

/// Buffer `i` of a checked array.
///
/// # Safety
///
/// `array` passed `check_array`, which saw `i < n_buffers`.
pub(crate) unsafe fn buffer(array: &ArrowArray, i: usize) -> *const c_void {
    // SAFETY: `buffers` holds `n_buffers` pointers (checked).
    unsafe { *array.buffers.add(i) }
}

/// An arrow-rs buffer over `len` bytes of the caller's memory at `ptr`
/// (`None` for NULL).
///
/// # Safety
///
/// `ptr` is NULL or valid for reads of `len` bytes for as long as the
/// buffer (and its clones) live, which `import::import`'s callers bound by
/// the call.
unsafe fn borrowed(ptr: *const c_void, len: usize, owner: &Owner) -> Option<Buffer> {
    let ptr = NonNull::new(ptr.cast::<u8>().cast_mut())?;
    // SAFETY: `ptr` covers `len` readable bytes (the caller's contract);
    // dropping the buffer drops a clone of `owner`, which frees nothing.
    Some(unsafe { Buffer::from_custom_allocation(ptr, len, owner.clone()) })
}

/// The validity bitmap of rows `[offset, offset + length)` and its null
/// count: `Some(None)` when there is no bitmap, the producer's `null_count`
/// is 0 or the bitmap has no null; `Some(Some((bits, null_count)))` with the
/// bitmap's own count when the producer's `null_count` is unknown (-1) or
/// agrees; `None` otherwise (the reference reports it).
///
/// # Safety
///
/// `array` passed `check_array` with a type that has a validity buffer;
/// a non-NULL bitmap holds `ceil((offset + length) / 8)` bytes, which stay
/// readable for `'a`.
pub(crate) unsafe fn checked_validity<'a>(
    array: &ArrowArray,
    offset: usize,
    length: usize,
) -> Option<Option<(&'a [u8], usize)>> {
    // SAFETY: buffer 0 is the validity of these types (checked).
    let ptr = unsafe { buffer(array, 0) };
    // As arrow-rs' `ArrayDataBuilder`: no bitmap, or a producer that counts
    // no null, means no null (the bitmap is not read); so does a bitmap
    // with every row set.
    if ptr.is_null() || array.null_count == 0 {
        return Some(None);
    }
    let bytes = (offset + length).div_ceil(8);
    // SAFETY: the bitmap covers `offset + length` bits for `'a` (the
    // caller's promise).
    let bits = unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), bytes) };
    let valid = bitbytes::count_selected(bits, None, offset, length, false).ok()?;
    let null_count = length - valid;
    if array.null_count != -1 && usize::try_from(array.null_count) != Ok(null_count) {
        return None;
    }
    Some((null_count != 0).then_some((bits, null_count)))
}

/// [`checked_validity`] as an arrow-rs null buffer borrowing the bitmap.
///
/// # Safety
///
/// As [`checked_validity`], for as long as the buffer (and its clones) live.
unsafe fn nulls(
    array: &ArrowArray,
    offset: usize,
    length: usize,
    owner: &Owner,
) -> Option<Option<NullBuffer>> {
    // SAFETY: forwarded.
    let Some((bits, null_count)) = unsafe { checked_validity(array, offset, length) }? else {
        return Some(None);
    };
    // SAFETY: as `bits`.
    let buffer = unsafe { borrowed(bits.as_ptr().cast(), bits.len(), owner) }?;
    let bits = BooleanBuffer::new(buffer, offset, length);
    // SAFETY: `null_count` was counted on these very bits.
    Some(Some(unsafe { NullBuffer::new_unchecked(bits, null_count) }))
}

/// A primitive column of `data_type`, through `T` (see [`import`]).
///
/// # Safety
///
/// As [`import`], with `T` the primitive type of `data_type`.
unsafe fn primitive<T: ArrowPrimitiveType>(
    array: &ArrowArray,
    data_type: &DataType,
    offset: usize,
    length: usize,
    owner: &Owner,
) -> Option<PrimitiveArray<T>> {
    let width = core::mem::size_of::<T::Native>();
    // Wider types (Decimal128 / 256, IntervalMonthDayNano) keep arrow-rs'
    // full validation, as before.
    if width > 8 {
        return None;
    }
    // SAFETY: forwarded.
    let nulls = unsafe { nulls(array, offset, length, owner) }?;
    // SAFETY: buffer 1 holds the values.
    let ptr = unsafe { buffer(array, 1) };
    // Misaligned: arrow-rs' importer copies it (ScalarBuffer would panic).
    if !(ptr as usize).is_multiple_of(width) {
        return None;
    }
    // `check_array` bounded `(offset + length + 1) * 16`.
    let bytes = (offset + length) * width;
    // SAFETY: the values buffer holds `offset + length` values (the
    // caller's promise).
    let values = unsafe { borrowed(ptr, bytes, owner) }?;
    let values = ScalarBuffer::<T::Native>::new(values, offset, length);
    let array = PrimitiveArray::<T>::try_new(values, nulls).ok()?;
    if !has_parameters(data_type) {
        // `T` is `data_type`'s primitive type (the dispatch of `import`),
        // and a type without parameters is its `T::DATA_TYPE`: the array's
        // type already (checked without making and dropping a `DataType`).
        return Some(array);
    }
    // `T` matches `data_type` (the dispatch of `import`), so this keeps the
    // time zone, precision and scale and cannot fail.
    PrimitiveArray::<T>::is_compatible(data_type).then(|| array.with_data_type(data_type.clone()))
}

/// Whether a primitive type carries parameters (a unit, time zone,
/// precision or scale) beside its kind.
fn has_parameters(data_type: &DataType) -> bool {
    !matches!(
        data_type,
        DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float16
            | DataType::Float32
            | DataType::Float64
            | DataType::Date32
            | DataType::Date64
    )
}

/// The offsets and data of a Utf8 / LargeUtf8 (`utf8`) or Binary /
/// LargeBinary array, checked (`offsets_in`: non-decreasing from the array's
/// first row, within the data, and for strings valid UTF-8 on character
/// boundaries): all `offset + length + 1` offsets from the buffer's start,
/// and the data up to the last offset; `None` when a buffer is NULL or
/// misaligned, or a check fails (the reference names the problem).
///
/// # Safety
///
/// `array` passed `check_array` with such a type, of offsets `O`; its
/// offsets buffer holds `offset + length + 1` offsets and its data buffer
/// the bytes up to the last, readable for `'a`.
pub(crate) unsafe fn byte_buffers<'a, O>(
    array: &ArrowArray,
    offset: usize,
    length: usize,
    utf8: bool,
) -> Option<(&'a [O], &'a [u8])>
where
    O: ArrowNativeTypeOp + Ord + core::fmt::Display,
{
    // SAFETY: forwarded.
    let (all, data) = unsafe { byte_buffers_unchecked::<O>(array, offset, length) }?;
    offsets_in(&all[offset..], data, utf8).ok()?;
    Some((all, data))
}

/// [`byte_buffers`] before its check: the offsets from the buffer's start
/// and the data up to the last offset, as the caller's buffers say, not
/// checked (a reader must check what it reads: `offsets_in`, or
/// `bitbytes::arrow::string_match_utf8`); `None` when a buffer is NULL or
/// misaligned, or the last offset negative.
///
/// # Safety
///
/// As [`byte_buffers`].
pub(crate) unsafe fn byte_buffers_unchecked<'a, O>(
    array: &ArrowArray,
    offset: usize,
    length: usize,
) -> Option<(&'a [O], &'a [u8])>
where
    O: ArrowNativeTypeOp,
{
    // SAFETY: buffers 1 and 2 are the offsets and the data.
    let (offsets_ptr, data_ptr) = unsafe { (buffer(array, 1), buffer(array, 2)) };
    let width = core::mem::size_of::<O>();
    if offsets_ptr.is_null() || !(offsets_ptr as usize).is_multiple_of(width) {
        return None;
    }
    let n = offset + length + 1;
    // SAFETY: the offsets buffer holds `offset + length + 1` offsets (the
    // caller's promise), aligned (checked).
    let all = unsafe { core::slice::from_raw_parts(offsets_ptr.cast::<O>(), n) };
    // The data buffer ends at the last offset (as for arrow-rs' importer:
    // the C Data Interface gives no other length).
    let data_len = all[n - 1].to_usize()?;
    let data: &[u8] = if data_ptr.is_null() {
        if data_len != 0 {
            return None;
        }
        &[]
    } else {
        // SAFETY: the data buffer holds the bytes up to the last offset
        // (the caller's promise).
        unsafe { core::slice::from_raw_parts(data_ptr.cast::<u8>(), data_len) }
    };
    Some((all, data))
}

/// A Utf8 / LargeUtf8 / Binary / LargeBinary column (see [`import`]).
///
/// # Safety
///
/// As [`import`].
unsafe fn bytes<T: ByteArrayType>(
    array: &ArrowArray,
    offset: usize,
    length: usize,
    owner: &Owner,
) -> Option<GenericByteArray<T>>
where
    T::Offset: ArrowNativeTypeOp + Ord + core::fmt::Display,
{
    // SAFETY: forwarded.
    let nulls = unsafe { nulls(array, offset, length, owner) }?;
    let utf8 = matches!(T::DATA_TYPE, DataType::Utf8 | DataType::LargeUtf8);
    // SAFETY: forwarded.
    let (all, data) = unsafe { byte_buffers::<T::Offset>(array, offset, length, utf8) }?;
    // SAFETY: as `all` and `data`, which stay readable for the call.
    let offsets = unsafe { borrowed(all.as_ptr().cast(), core::mem::size_of_val(all), owner) }?;
    let data = if data.is_empty() {
        Buffer::from_vec(std::vec::Vec::<u8>::new())
    } else {
        // SAFETY: as above.
        unsafe { borrowed(data.as_ptr().cast(), data.len(), owner) }?
    };
    let offsets = ScalarBuffer::<T::Offset>::new(offsets, offset, length + 1);
    // SAFETY: `offsets_in` checked them non-decreasing, from at least 0 and
    // within `data` (and, for strings, the bytes valid UTF-8 and every
    // offset on a character boundary): what `GenericByteArray::try_new`
    // checks, and `validate_full` with it; the nulls have `length` rows.
    Some(unsafe {
        GenericByteArray::<T>::new_unchecked(OffsetBuffer::new_unchecked(offsets), data, nulls)
    })
}

/// A boolean column (see [`import`]).
///
/// # Safety
///
/// As [`import`].
unsafe fn boolean(
    array: &ArrowArray,
    offset: usize,
    length: usize,
    owner: &Owner,
) -> Option<BooleanArray> {
    // SAFETY: forwarded.
    let nulls = unsafe { nulls(array, offset, length, owner) }?;
    // SAFETY: buffer 1 holds the values, `offset + length` bits (the
    // caller's promise).
    let values = unsafe { borrowed(buffer(array, 1), (offset + length).div_ceil(8), owner) }?;
    // Both have `length` rows: `BooleanArray::new` does not panic.
    Some(BooleanArray::new(
        BooleanBuffer::new(values, offset, length),
        nulls,
    ))
}

/// A dictionary column with keys of type `K` (see [`import`]).
///
/// # Safety
///
/// As [`import`].
unsafe fn dictionary<K: ArrowDictionaryKeyType>(
    array: &ArrowArray,
    key_type: &DataType,
    value_type: &DataType,
    offset: usize,
    length: usize,
    owner: &Owner,
) -> Option<DictionaryArray<K>> {
    // SAFETY: forwarded; the keys are the array's own buffers.
    let keys = unsafe { primitive::<K>(array, key_type, offset, length, owner) }?;
    // SAFETY: `check_array` saw a dictionary on a dictionary type and
    // checked it against `value_type`.
    let values = unsafe { array.dictionary.as_ref() }?;
    // SAFETY: forwarded.
    let values = unsafe { import(values, value_type, owner) }?;
    // Checks every key of a valid row in range.
    DictionaryArray::<K>::try_new(keys, values).ok()
}

/// Builds a column of one of this module's types straight from the
/// caller's buffers; `None` for other types and for input it does not take
/// as is (see the module).
///
/// The buffers borrow the caller's memory: as for `import::import`, the
/// array (and everything made from it) must be dropped before the call
/// returns to C.
///
/// # Safety
///
/// `array` passed `check_array` with `data_type`, and its buffers hold what
/// the C Data Interface promises for its type, `offset` and `length`.
pub(crate) unsafe fn import(
    array: &ArrowArray,
    data_type: &DataType,
    owner: &Owner,
) -> Option<ArrayRef> {
    let (Ok(offset), Ok(length)) = (usize::try_from(array.offset), usize::try_from(array.length))
    else {
        return None;
    };
    if length == 0 {
        return Some(new_empty_array(data_type));
    }
    macro_rules! primitive_helper {
        ($t:ty) => {
            // SAFETY: forwarded, `$t` being `data_type`'s primitive type.
            unsafe { primitive::<$t>(array, data_type, offset, length, owner) }
                .map(|a| Arc::new(a) as ArrayRef)
        };
    }
    macro_rules! dictionary_helper {
        ($k:ty, $key:expr, $value:expr) => {
            // SAFETY: forwarded, `$k` being the key type.
            unsafe { dictionary::<$k>(array, $key, $value, offset, length, owner) }
                .map(|a| Arc::new(a) as ArrayRef)
        };
    }
    macro_rules! bytes_helper {
        ($t:ty) => {
            // SAFETY: forwarded.
            unsafe { bytes::<$t>(array, offset, length, owner) }.map(|a| Arc::new(a) as ArrayRef)
        };
    }
    match data_type {
        DataType::Utf8 => bytes_helper!(Utf8Type),
        DataType::LargeUtf8 => bytes_helper!(LargeUtf8Type),
        DataType::Binary => bytes_helper!(BinaryType),
        DataType::LargeBinary => bytes_helper!(LargeBinaryType),
        DataType::Boolean => {
            // SAFETY: forwarded.
            unsafe { boolean(array, offset, length, owner) }.map(|a| Arc::new(a) as ArrayRef)
        }
        DataType::Dictionary(key, value) => downcast_integer! {
            key.as_ref() => (dictionary_helper, key, value),
            _ => None,
        },
        t => downcast_primitive! {
            t => (primitive_helper),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{check_array, import_reference};
    use arrow_array::ffi::FFI_ArrowArray;
    use arrow_array::types::{Int16Type, Int32Type, Int8Type, UInt64Type};
    use arrow_array::{
        Array, BinaryArray, Date32Array, Decimal64Array, DurationMicrosecondArray, Float16Array,
        Float32Array, Float64Array, Int16Array, Int32Array, Int64Array, Int8Array,
        LargeBinaryArray, LargeStringArray, StringArray, Time64NanosecondArray,
        TimestampMillisecondArray, UInt32Array, UInt64Array,
    };
    use arrow_data::ArrayData;
    use std::format;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    /// The exported struct of `ffi` as the C layout.
    fn c(ffi: &FFI_ArrowArray) -> &ArrowArray {
        // SAFETY: both are `#[repr(C)]` `struct ArrowArray`.
        unsafe { &*(ffi as *const FFI_ArrowArray).cast::<ArrowArray>() }
    }

    /// The direct import of `array` (checked first) and the reference's.
    fn both(array: &ArrowArray, t: &DataType) -> (Option<ArrayRef>, Result<ArrayRef, String>) {
        // SAFETY: a struct exported by arrow-rs (or a copy with one field
        // changed, whose buffers still cover what it says).
        unsafe {
            check_array(array, t, &"t", 0).unwrap();
            let direct = import(array, t, &owner());
            let reference = import_reference(array, t, &"t").map_err(|f| f.detail);
            (direct, reference)
        }
    }

    /// The direct import of `data`'s export is made, and equal to the
    /// reference's (type, values, nulls, null count).
    fn agrees(data: &ArrayData) {
        let ffi = FFI_ArrowArray::new(data);
        let (direct, reference) = both(c(&ffi), data.data_type());
        let direct = direct.unwrap_or_else(|| panic!("not taken: {data:?}"));
        let reference = reference.unwrap();
        assert_eq!(direct.data_type(), data.data_type());
        assert_eq!(direct.data_type(), reference.data_type());
        assert_eq!(direct.len(), reference.len());
        assert_eq!(direct.null_count(), reference.null_count());
        assert_eq!(direct.to_data(), reference.to_data(), "{data:?}");
        assert_eq!(direct.to_data(), *data);
    }

    /// Every slice of `array` (offsets 0..3, and lengths down to 1).
    fn agrees_sliced(array: &dyn Array) {
        let n = array.len();
        for offset in 0..n.min(4) {
            for len in [n - offset, (n - offset) / 2, 1] {
                if len > 0 {
                    agrees(&array.slice(offset, len).to_data());
                }
            }
        }
    }

    fn mixed(i: usize) -> bool {
        i % 3 != 1
    }

    #[test]
    fn primitives_agree_with_the_importer() {
        let n = 37;
        agrees_sliced(&Int8Array::from_iter(
            (0..n).map(|i| mixed(i).then_some(i as i8)),
        ));
        agrees_sliced(&Int16Array::from_iter((0..n).map(|i| Some(i as i16 - 9))));
        agrees_sliced(&UInt32Array::from_iter(
            (0..n).map(|i| mixed(i).then_some(i as u32)),
        ));
        agrees_sliced(&Int64Array::from_iter(
            (0..n).map(|i| mixed(i).then_some(i as i64)),
        ));
        agrees_sliced(&UInt64Array::from_iter_values((0..n).map(|i| i as u64)));
        agrees_sliced(&Float16Array::from_iter((0..n).map(|i| {
            mixed(i).then_some(arrow_buffer::ArrowNativeType::usize_as(i))
        })));
        agrees_sliced(&Float32Array::from_iter(
            (0..n).map(|i| Some(i as f32 / 3.0)),
        ));
        agrees_sliced(&Float64Array::from_iter(
            (0..n).map(|i| mixed(i).then_some(i as f64 * 1.5)),
        ));
        agrees_sliced(&Date32Array::from_iter((0..n).map(|i| Some(i as i32))));
        agrees_sliced(&Time64NanosecondArray::from_iter(
            (0..n).map(|i| mixed(i).then_some(i as i64)),
        ));
        agrees_sliced(
            &TimestampMillisecondArray::from_iter((0..n).map(|i| mixed(i).then_some(i as i64)))
                .with_timezone("+02:00"),
        );
        agrees_sliced(&DurationMicrosecondArray::from_iter(
            (0..n).map(|i| Some(i as i64)),
        ));
        agrees_sliced(
            &Decimal64Array::from_iter((0..n).map(|i| mixed(i).then_some(i as i64)))
                .with_precision_and_scale(10, 2)
                .unwrap(),
        );
        agrees_sliced(&arrow_array::BooleanArray::from_iter(
            (0..n).map(|i| mixed(i).then_some(i % 2 == 0)),
        ));
        agrees_sliced(&arrow_array::BooleanArray::from_iter(
            (0..n).map(|i| Some(i % 5 == 0)),
        ));
    }

    #[test]
    fn strings_and_binaries_agree_with_the_importer() {
        let n = 41;
        let text = |i: usize| format!("{}{}", ["", "a", "é", "€x", "😀"][i % 5], i);
        agrees_sliced(&StringArray::from_iter(
            (0..n).map(|i| mixed(i).then(|| text(i))),
        ));
        agrees_sliced(&StringArray::from_iter_values((0..n).map(text)));
        agrees_sliced(&LargeStringArray::from_iter(
            (0..n).map(|i| mixed(i).then(|| text(i))),
        ));
        let bytes: Vec<Vec<u8>> = (0..n).map(|i| vec![0xFF; i % 4]).collect();
        agrees_sliced(&BinaryArray::from_iter(
            (0..n).map(|i| mixed(i).then_some(&bytes[i][..])),
        ));
        agrees_sliced(&LargeBinaryArray::from_iter_values(bytes.iter()));
        // Empty strings only: no byte of data.
        agrees_sliced(&StringArray::from_iter_values((0..5).map(|_| "")));
    }

    #[test]
    fn dictionaries_agree_with_the_importer() {
        let n = 30;
        let d: arrow_array::DictionaryArray<Int32Type> = (0..n)
            .map(|i| mixed(i).then_some(["red", "green", "blue"][i % 3]))
            .collect();
        agrees_sliced(&d);
        let d: arrow_array::DictionaryArray<Int8Type> =
            (0..n).map(|i| Some(["x", "yy"][i % 2])).collect();
        agrees_sliced(&d);
        // Int64 values, a sliced dictionary (its own offset).
        let values: ArrayRef = Arc::new(Int64Array::from_iter_values(0..10).slice(3, 5));
        let keys = Int16Array::from_iter((0..n).map(|i| mixed(i).then_some((i % 5) as i16)));
        agrees_sliced(&arrow_array::DictionaryArray::<Int16Type>::try_new(keys, values).unwrap());
        // Keys of unsigned type.
        let values: ArrayRef = Arc::new(StringArray::from(vec!["p", "q"]));
        let keys = UInt64Array::from_iter_values((0..n).map(|i| (i % 2) as u64));
        agrees_sliced(&arrow_array::DictionaryArray::<UInt64Type>::try_new(keys, values).unwrap());
    }

    /// What the direct path does not take: the reference decides (and
    /// rejects these, but for the misaligned buffer, which it copies).
    #[test]
    fn the_rest_falls_back() {
        // A null count that disagrees with the bitmap.
        let a = Int32Array::from(vec![Some(1), None, Some(3)]).to_data();
        let ffi = FFI_ArrowArray::new(&a);
        let mut wrong = ArrowArray { ..*c(&ffi) };
        wrong.null_count = 2;
        let (direct, reference) = both(&wrong, a.data_type());
        assert!(direct.is_none());
        assert!(reference.unwrap_err().contains("null_count"));
        // A null count of 0 (or none known, -1) with a bitmap, and none
        // known without one: both take them as arrow-rs' builder does.
        for (null_count, bitmap) in [(0, true), (-1, true), (-1, false), (2, false)] {
            if (null_count, bitmap) == (2, false) {
                // Null rows and no bitmap: the C Data Interface allows a
                // NULL bitmap only with no null, so it is an error (arrow-rs'
                // importer would read "no null").
                let mut odd = ArrowArray { ..*c(&ffi) };
                odd.null_count = 2;
                let mut bufs: [*const c_void; 2] =
                    // SAFETY: two buffers.
                    [core::ptr::null(), unsafe { *c(&ffi).buffers.add(1) }];
                odd.buffers = bufs.as_mut_ptr();
                // SAFETY: a copy of an export with its bitmap left out.
                let e = unsafe { check_array(&odd, a.data_type(), &"t", 0) }.unwrap_err();
                assert_eq!(e.status, crate::status::Status::ArrowData, "{}", e.detail);
                continue;
            }
            let mut odd = ArrowArray { ..*c(&ffi) };
            odd.null_count = null_count;
            let mut bufs: Vec<*const c_void> = (0..2)
                // SAFETY: two buffers.
                .map(|i| unsafe { *c(&ffi).buffers.add(i) })
                .collect();
            if !bitmap {
                bufs[0] = core::ptr::null();
            }
            odd.buffers = bufs.as_mut_ptr();
            let (direct, reference) = both(&odd, a.data_type());
            let (direct, reference) = (direct.unwrap(), reference.unwrap());
            assert_eq!(
                direct.to_data(),
                reference.to_data(),
                "{null_count} {bitmap}"
            );
            assert_eq!(direct.null_count(), reference.null_count());
        }
        let a = Int32Array::from(vec![1, 2, 3]).to_data();
        let ffi = FFI_ArrowArray::new(&a);
        // A NULL values buffer.
        let mut bufs: Vec<*const c_void> = (0..2)
            // SAFETY: two buffers.
            .map(|i| unsafe { *c(&ffi).buffers.add(i) })
            .collect();
        bufs[1] = core::ptr::null();
        let mut no_values = ArrowArray { ..*c(&ffi) };
        no_values.buffers = bufs.as_mut_ptr();
        let (direct, reference) = both(&no_values, a.data_type());
        assert!(direct.is_none());
        assert!(reference.unwrap_err().contains("null"));
        // A misaligned values buffer: the importer copies it.
        let raw = [0u32; 5];
        // SAFETY: byte 1 of 20: 3 values after it.
        let odd = unsafe { raw.as_ptr().cast::<u8>().add(1) };
        let mut bufs = [core::ptr::null(), odd.cast::<c_void>()];
        let mut misaligned = ArrowArray { ..*c(&ffi) };
        misaligned.buffers = bufs.as_mut_ptr();
        let (direct, reference) = both(&misaligned, a.data_type());
        assert!(direct.is_none());
        assert_eq!(reference.unwrap().len(), 3);
        // Strings: decreasing offsets, invalid UTF-8, an offset inside a
        // character, a negative last offset, a NULL data buffer with bytes.
        let s = StringArray::from(vec!["ab", "é", "cd"]).to_data();
        let ffi = FFI_ArrowArray::new(&s);
        // SAFETY: three buffers.
        let validity = unsafe { *c(&ffi).buffers };
        let data = "abécd".as_bytes();
        let mut bad_bytes = data.to_vec();
        bad_bytes[3] = b'x';
        for (offsets, bytes, want) in [
            (vec![0i32, 3, 2, 6], data, "non-monotonic"),
            (vec![0, 2, 4, 6], &bad_bytes[..], "Invalid UTF8"),
            (vec![0, 3, 4, 6], data, "Invalid UTF8"),
        ] {
            let mut bufs = [validity, offsets.as_ptr().cast(), bytes.as_ptr().cast()];
            let mut bad = ArrowArray { ..*c(&ffi) };
            bad.buffers = bufs.as_mut_ptr();
            let (direct, reference) = both(&bad, s.data_type());
            assert!(direct.is_none(), "{offsets:?}");
            let e = reference.unwrap_err();
            assert!(e.contains(want), "{offsets:?}: {e}");
        }
        // A negative last offset: `check_array` refuses it (the importer
        // would make a slice longer than memory of it).
        let offsets = [0i32, 2, 4, -1];
        let mut bufs = [validity, offsets.as_ptr().cast(), data.as_ptr().cast()];
        let mut negative = ArrowArray { ..*c(&ffi) };
        negative.buffers = bufs.as_mut_ptr();
        // SAFETY: the offsets and bytes cover the array.
        let e = unsafe { check_array(&negative, s.data_type(), &"t", 0) }.unwrap_err();
        assert_eq!(e.status, crate::status::Status::ArrowData);
        assert!(
            e.detail.contains("last offset of Utf8 is negative (-1)"),
            "{}",
            e.detail
        );
        let offsets = [0i32, 2, 4, 6];
        let mut bufs = [validity, offsets.as_ptr().cast(), core::ptr::null()];
        let mut no_data = ArrowArray { ..*c(&ffi) };
        no_data.buffers = bufs.as_mut_ptr();
        let (direct, reference) = both(&no_data, s.data_type());
        assert!(direct.is_none() && reference.is_err());
        // A dictionary key out of range.
        let values: ArrayRef = Arc::new(StringArray::from(vec!["p", "q"]));
        let keys = Int32Array::from(vec![0, 1, 0]);
        let d = arrow_array::DictionaryArray::<Int32Type>::try_new(keys, values)
            .unwrap()
            .to_data();
        let ffi = FFI_ArrowArray::new(&d);
        let bad_keys = [0i32, 2, 1];
        let mut bufs = [core::ptr::null(), bad_keys.as_ptr().cast::<c_void>()];
        let mut bad = ArrowArray { ..*c(&ffi) };
        bad.buffers = bufs.as_mut_ptr();
        let (direct, reference) = both(&bad, d.data_type());
        assert!(direct.is_none());
        assert!(reference.is_err());
        // Types it does not build: a list, Decimal128.
        let l =
            arrow_array::ListArray::from_iter_primitive::<Int32Type, _, _>(vec![Some(vec![Some(
                1,
            )])])
            .to_data();
        let ffi = FFI_ArrowArray::new(&l);
        let (direct, reference) = both(c(&ffi), l.data_type());
        assert!(direct.is_none() && reference.is_ok());
        let dec = arrow_array::Decimal128Array::from(vec![1i128, 2]).to_data();
        let ffi = FFI_ArrowArray::new(&dec);
        assert!(both(c(&ffi), dec.data_type()).0.is_none());
    }

    /// `check_array`'s buffer count without `arrow_data::layout` agrees with
    /// it.
    #[test]
    fn buffer_counts_agree_with_arrow_rs() {
        use arrow_schema::{Field, TimeUnit};
        let item = Arc::new(Field::new("item", DataType::Int32, true));
        for t in [
            DataType::Null,
            DataType::Boolean,
            DataType::Int8,
            DataType::UInt64,
            DataType::Float16,
            DataType::Float64,
            DataType::Date64,
            DataType::Timestamp(TimeUnit::Second, Some("UTC".into())),
            DataType::Decimal128(10, 2),
            DataType::Decimal256(40, 2),
            DataType::Utf8,
            DataType::LargeUtf8,
            DataType::Binary,
            DataType::LargeBinary,
            DataType::Utf8View,
            DataType::BinaryView,
            DataType::FixedSizeBinary(3),
            DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
            DataType::List(item.clone()),
            DataType::LargeList(item.clone()),
            DataType::Struct(vec![item.as_ref().clone()].into()),
        ] {
            let layout = arrow_data::layout(&t);
            let want = (
                layout.buffers.len() + usize::from(layout.can_contain_null_mask),
                layout.variadic,
            );
            assert_eq!(crate::import::buffer_count(&t), want, "{t}");
        }
    }
}
