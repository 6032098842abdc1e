//! Boolean arrays through the Arrow C Data Interface, without arrow-rs:
//! `bitbytes_unpack_arrow`.
//!
//! The interface is two `#[repr(C)]` structs of fixed layout
//! (<https://arrow.apache.org/docs/format/CDataInterface.html>), declared
//! here and, under the `ARROW_C_DATA_INTERFACE` guard, in `bitbytes.h`. A
//! boolean array (format `"b"`) has two buffers: 0 the validity bitmap (may be
//! NULL), 1 the values bitmap, both starting at bit `offset`. The interface
//! carries no buffer sizes: a producer promises `ceil((offset + length) / 8)`
//! bytes in each, and that promise is what the slices below rely on.
//!
//! The structs are only read: no copy, no ownership, `release` is never
//! called (the caller releases them, as the producer's contract says).

use crate::ffi::{guard, input, output};
use crate::status::Status;
use core::ffi::{c_char, c_int, c_void};

/// `struct ArrowSchema` of the Arrow C Data Interface.
#[repr(C)]
#[derive(Debug)]
pub struct ArrowSchema {
    /// The type, as a format string (`"b"` for boolean).
    pub format: *const c_char,
    /// The field name (may be NULL).
    pub name: *const c_char,
    /// Binary key-value metadata (may be NULL).
    pub metadata: *const c_char,
    /// `ARROW_FLAG_*` bits.
    pub flags: i64,
    /// Number of children.
    pub n_children: i64,
    /// The children's schemas.
    pub children: *mut *mut ArrowSchema,
    /// The dictionary's schema, for dictionary-encoded types.
    pub dictionary: *mut ArrowSchema,
    /// The producer's release callback; NULL once released.
    pub release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    /// The producer's private data.
    pub private_data: *mut c_void,
}

/// `struct ArrowArray` of the Arrow C Data Interface.
#[repr(C)]
#[derive(Debug)]
pub struct ArrowArray {
    /// Number of rows (after `offset`).
    pub length: i64,
    /// Number of null rows, or -1 when not computed.
    pub null_count: i64,
    /// The first row, in the buffers' units (bits for a boolean array).
    pub offset: i64,
    /// Number of buffers (2 for boolean).
    pub n_buffers: i64,
    /// Number of children (0 for boolean).
    pub n_children: i64,
    /// The buffers: validity, then values, for boolean.
    pub buffers: *mut *const c_void,
    /// The children.
    pub children: *mut *mut ArrowArray,
    /// The dictionary, for dictionary-encoded types.
    pub dictionary: *mut ArrowArray,
    /// The producer's release callback; NULL once released.
    pub release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    /// The producer's private data.
    pub private_data: *mut c_void,
}

/// The bitmaps of a checked boolean array, as slices of exactly
/// `ceil((offset + len) / 8)` bytes.
struct Booleans<'a> {
    values: &'a [u8],
    validity: Option<&'a [u8]>,
    offset: usize,
    len: usize,
}

/// Checks that `array` is a live boolean array described by `schema` and
/// returns its bitmaps.
///
/// # Safety
///
/// `array` and `schema` follow the C Data Interface's rules: a non-NULL
/// `format` is NUL-terminated; when `n_buffers == 2`, a non-NULL `buffers`
/// points to 2 pointers; a non-NULL buffer holds at least
/// `ceil((offset + length) / 8)` bytes; nothing writes them during the call.
unsafe fn booleans<'a>(
    array: &'a ArrowArray,
    schema: &ArrowSchema,
) -> Result<Booleans<'a>, Status> {
    if array.release.is_none() || schema.release.is_none() {
        return Err(Status::ArrowReleased);
    }
    // SAFETY: the format is NUL-terminated (the producer's contract): byte 1
    // is read only when byte 0 is not the terminator.
    let is_boolean = !schema.format.is_null()
        && unsafe { *schema.format == b'b' as c_char && *schema.format.add(1) == 0 };
    if !is_boolean {
        return Err(Status::ArrowFormat);
    }
    if array.n_buffers != 2
        || array.n_children != 0
        || !array.dictionary.is_null()
        || schema.n_children != 0
        || !schema.dictionary.is_null()
    {
        return Err(Status::ArrowLayout);
    }
    // Both non-negative and their sum an `int64_t` (the spec's type) that
    // fits in `usize`: every bit index below `end` is addressable.
    let in_range = |n: i64| usize::try_from(n).map_err(|_| Status::ArrowOffsetLength);
    let (offset, len) = (in_range(array.offset)?, in_range(array.length)?);
    let end = in_range(
        array
            .offset
            .checked_add(array.length)
            .ok_or(Status::ArrowOffsetLength)?,
    )?;
    if array.buffers.is_null() {
        return Err(Status::ArrowNullBuffer);
    }
    if len == 0 {
        // No row to read: the buffers may be NULL, and are not looked at.
        return Ok(Booleans {
            values: &[],
            validity: None,
            offset: 0,
            len: 0,
        });
    }
    // SAFETY: `buffers` is not NULL and, with `n_buffers == 2`, points to two
    // buffer pointers (the producer's contract).
    let (validity, values) = unsafe { (*array.buffers, *array.buffers.add(1)) };
    let bytes = end.div_ceil(8);
    // SAFETY: a non-NULL buffer of a boolean array holds the bits of rows
    // `[offset, offset + length)`, so at least `ceil(end / 8)` bytes, unwritten
    // while the array is alive (the producer's contract).
    let values = unsafe { input(values.cast::<u8>(), bytes, Status::ArrowNullBuffer) }?;
    // Arrow C++'s rule (`ArrayData::MayHaveNulls`): null_count 0 means no
    // nulls whatever buffer 0 holds; a NULL buffer 0 means no nulls, which
    // contradicts a positive null_count; -1 (unknown) with a buffer reads it.
    let validity = match (array.null_count, validity.is_null()) {
        (0, _) => None,
        (n, true) if n > 0 => return Err(Status::ArrowNullBuffer),
        (_, true) => None,
        (_, false) => {
            // SAFETY: as for the values buffer.
            Some(unsafe { input(validity.cast::<u8>(), bytes, Status::ArrowNullBuffer) }?)
        }
    };
    Ok(Booleans {
        values,
        validity,
        offset,
        len,
    })
}

/// `bitbytes::unpack` of an Arrow boolean array received through the C Data
/// Interface: `out[i] = 1` when row `i` (after the array's `offset`) is valid
/// and its value differs from `negate`. Writes `out[..length]`.
///
/// # Safety
///
/// `array` and `schema` (when not NULL) point to live structs exported by an
/// Arrow producer (see `booleans`); `out` (when not NULL) points to `out_len`
/// writable bytes that overlap neither the structs nor their buffers.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_unpack_arrow(
    array: *const ArrowArray,
    schema: *const ArrowSchema,
    negate: bool,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `as_ref` maps NULL to `None`; a non-NULL pointer is a live,
        // aligned struct (the caller's contract), only read.
        let (array, schema) = unsafe { (array.as_ref(), schema.as_ref()) };
        let (Some(array), Some(schema)) = (array, schema) else {
            return Err(Status::NullArgument);
        };
        // SAFETY: the structs follow the C Data Interface (the caller's
        // contract).
        let b = unsafe { booleans(array, schema) }?;
        // SAFETY: the caller guarantees `out_len` writable bytes at a non-NULL
        // `out`, overlapping no input.
        let out = unsafe { output(out, out_len, Status::NullOutput) }?;
        bitbytes::unpack(b.values, b.validity, b.offset, b.len, negate, out).map_err(Status::from)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{align_of, offset_of, size_of};
    use core::ptr::{null, null_mut};

    /// The layout of the Arrow spec's C declarations: five `int64_t` then
    /// pointers (schema: three pointers, two `int64_t`, then pointers).
    #[test]
    fn struct_layout_matches_the_spec() {
        let p = size_of::<usize>();
        assert_eq!(
            size_of::<Option<unsafe extern "C" fn(*mut ArrowArray)>>(),
            p
        );
        assert_eq!(offset_of!(ArrowArray, length), 0);
        assert_eq!(offset_of!(ArrowArray, null_count), 8);
        assert_eq!(offset_of!(ArrowArray, offset), 16);
        assert_eq!(offset_of!(ArrowArray, n_buffers), 24);
        assert_eq!(offset_of!(ArrowArray, n_children), 32);
        assert_eq!(offset_of!(ArrowArray, buffers), 40);
        assert_eq!(offset_of!(ArrowArray, children), 40 + p);
        assert_eq!(offset_of!(ArrowArray, dictionary), 40 + 2 * p);
        assert_eq!(offset_of!(ArrowArray, release), 40 + 3 * p);
        assert_eq!(offset_of!(ArrowArray, private_data), 40 + 4 * p);
        assert_eq!(size_of::<ArrowArray>(), (40 + 5 * p).next_multiple_of(8));
        assert_eq!(align_of::<ArrowArray>(), align_of::<i64>());

        assert_eq!(offset_of!(ArrowSchema, format), 0);
        assert_eq!(offset_of!(ArrowSchema, name), p);
        assert_eq!(offset_of!(ArrowSchema, metadata), 2 * p);
        let flags = (3 * p).next_multiple_of(align_of::<i64>());
        assert_eq!(offset_of!(ArrowSchema, flags), flags);
        assert_eq!(offset_of!(ArrowSchema, n_children), flags + 8);
        assert_eq!(offset_of!(ArrowSchema, children), flags + 16);
        assert_eq!(offset_of!(ArrowSchema, dictionary), flags + 16 + p);
        assert_eq!(offset_of!(ArrowSchema, release), flags + 16 + 2 * p);
        assert_eq!(offset_of!(ArrowSchema, private_data), flags + 16 + 3 * p);
        assert_eq!(
            size_of::<ArrowSchema>(),
            (flags + 16 + 4 * p).next_multiple_of(align_of::<i64>())
        );
        #[cfg(target_pointer_width = "64")]
        assert_eq!(
            (size_of::<ArrowArray>(), size_of::<ArrowSchema>()),
            (80, 72)
        );
    }

    unsafe extern "C" fn release_schema(_: *mut ArrowSchema) {
        panic!("bitbytes must never release a schema");
    }
    unsafe extern "C" fn release_array(_: *mut ArrowArray) {
        panic!("bitbytes must never release an array");
    }

    fn schema(format: &'static core::ffi::CStr) -> ArrowSchema {
        ArrowSchema {
            format: format.as_ptr(),
            name: null(),
            metadata: null(),
            flags: 2,
            n_children: 0,
            children: null_mut(),
            dictionary: null_mut(),
            release: Some(release_schema),
            private_data: null_mut(),
        }
    }

    fn array(buffers: &mut [*const c_void; 2], offset: i64, length: i64, nulls: i64) -> ArrowArray {
        ArrowArray {
            length,
            null_count: nulls,
            offset,
            n_buffers: 2,
            n_children: 0,
            buffers: buffers.as_mut_ptr(),
            children: null_mut(),
            dictionary: null_mut(),
            release: Some(release_array),
            private_data: null_mut(),
        }
    }

    fn run(a: &ArrowArray, s: &ArrowSchema, negate: bool, out: &mut [u8]) -> c_int {
        // SAFETY: live structs whose buffers hold ceil((offset + length) / 8)
        // bytes; `out` is a live slice.
        unsafe { bitbytes_unpack_arrow(a, s, negate, out.as_mut_ptr(), out.len()) }
    }

    #[test]
    fn reads_offset_validity_and_rejects_bad_arrays() {
        let values = [0b1010_1101u8, 0b0000_0001];
        let validity = [0b1111_0111u8, 0b0000_0001];
        let mut bufs = [validity.as_ptr().cast::<c_void>(), values.as_ptr().cast()];
        let s = schema(c"b");
        let mut out = [9u8; 6];
        assert_eq!(run(&array(&mut bufs, 3, 6, 1), &s, false, &mut out), 0);
        assert_eq!(out, [0, 0, 1, 0, 1, 1]);
        // null_count 0: the validity buffer is not read.
        assert_eq!(run(&array(&mut bufs, 3, 6, 0), &s, true, &mut out), 0);
        assert_eq!(out, [0, 1, 0, 1, 0, 0]);

        let mut keep = [9u8; 6];
        let code = |st: Status| st.code();
        let bad = |a: &ArrowArray, s: &ArrowSchema, out: &mut [u8]| run(a, s, false, out);
        assert_eq!(
            bad(&array(&mut bufs, 3, 7, 1), &s, &mut keep),
            code(Status::OutputTooShort)
        );
        assert_eq!(
            bad(&array(&mut bufs, 3, 6, 1), &schema(c"c"), &mut keep),
            code(Status::ArrowFormat)
        );
        assert_eq!(
            bad(&array(&mut bufs, 3, 6, 1), &schema(c"bb"), &mut keep),
            code(Status::ArrowFormat)
        );
        assert_eq!(
            bad(&array(&mut bufs, 3, 6, 1), &schema(c""), &mut keep),
            code(Status::ArrowFormat)
        );
        let mut a = array(&mut bufs, 3, 6, 1);
        a.n_buffers = 3;
        assert_eq!(bad(&a, &s, &mut keep), code(Status::ArrowLayout));
        let mut a = array(&mut bufs, -1, 6, 1);
        assert_eq!(bad(&a, &s, &mut keep), code(Status::ArrowOffsetLength));
        a.offset = i64::MAX;
        a.length = 1;
        assert_eq!(bad(&a, &s, &mut keep), code(Status::ArrowOffsetLength));
        (a.offset, a.length) = (3, -6);
        assert_eq!(bad(&a, &s, &mut keep), code(Status::ArrowOffsetLength));
        let mut a = array(&mut bufs, 3, 6, 1);
        a.release = None;
        assert_eq!(bad(&a, &s, &mut keep), code(Status::ArrowReleased));
        let mut nulls = [null(), values.as_ptr().cast()];
        assert_eq!(
            bad(&array(&mut nulls, 3, 6, 2), &s, &mut keep),
            code(Status::ArrowNullBuffer)
        );
        let mut no_values = [validity.as_ptr().cast(), null()];
        assert_eq!(
            bad(&array(&mut no_values, 3, 6, 1), &s, &mut keep),
            code(Status::ArrowNullBuffer)
        );
        assert_eq!(keep, [9; 6]);
        // SAFETY: NULL structs are rejected before any read.
        let rc = unsafe { bitbytes_unpack_arrow(null(), &s, false, keep.as_mut_ptr(), 6) };
        assert_eq!(rc, code(Status::NullArgument));
        // An empty array needs no buffer and no output.
        let mut none = [null(), null()];
        // SAFETY: length 0: no buffer is read, nothing is written.
        let rc =
            unsafe { bitbytes_unpack_arrow(&array(&mut none, 5, 0, 0), &s, false, null_mut(), 0) };
        assert_eq!(rc, 0);
    }
}
