//! Borrowing Arrow C Data Interface structs into arrow-rs, for the
//! predicate API: structure checks first, then the common column types
//! built straight from the buffers (`direct.rs`), or arrow-rs' importer on a
//! shallow copy that does not own anything followed by a full validation.
//!
//! arrow-rs' importer (`from_ffi_and_data_type`) trusts its input: a wrong
//! `n_buffers` or `n_children`, a NULL child or a misaligned offsets buffer
//! makes it panic or read out of bounds. [`check_schema`] and
//! [`check_array`] therefore walk each struct first, alongside its type, and
//! turn every inconsistency the structs themselves show into an error; what
//! only the buffers' contents can show (offsets, UTF-8, dictionary keys,
//! null counts, child lengths) is checked after the import, before any value
//! is read, by `validate::validate`: our own checks for string and binary
//! columns, arrow-rs' `ArrayData::validate_full` for the rest.

use crate::arrow::{ArrowArray, ArrowSchema};
use crate::status::Status;
use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, new_empty_array, ArrayRef};
use arrow_schema::DataType;
use core::cell::Cell;
use core::ffi::c_char;
use core::fmt::{self, Display};
use std::format;
use std::string::{String, ToString};

/// An error with the details `bitbytes_last_error` reports.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: Status,
    pub(crate) detail: String,
}

/// A [`Failure`] of `status` saying `detail`.
pub(crate) fn fail(status: Status, detail: impl Into<String>) -> Failure {
    Failure {
        status,
        detail: detail.into(),
    }
}

impl From<Status> for Failure {
    fn from(status: Status) -> Failure {
        fail(status, status.message().to_string_lossy())
    }
}

/// Where a struct sits, for the messages of errors: built for free on every
/// call, formatted only when an error names it (`{parent}.child {i}`,
/// `{parent}.dictionary`, `batch column `name``).
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    /// Child `i` of the parent.
    Child(&'a dyn Display, usize),
    /// The dictionary of the parent.
    Dictionary(&'a dyn Display),
    /// The batch's column of that name.
    Column(&'a str),
}

impl Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Child(parent, i) => write!(f, "{parent}.child {i}"),
            Path::Dictionary(parent) => write!(f, "{parent}.dictionary"),
            Path::Column(name) => write!(f, "batch column `{name}`"),
        }
    }
}

/// Nesting deeper than this is refused (a cyclic struct would otherwise
/// recurse forever).
const MAX_DEPTH: usize = 64;

/// The most schema nodes one check visits: children pointers may alias
/// (the same struct reached twice), so depth alone does not bound the walk
/// (two children a level, 60 levels, would be 2^60 visits, and a type as
/// large). Far above any real schema (a million columns).
const MAX_NODES: usize = 1 << 20;

/// A C string of the producer as UTF-8.
///
/// # Safety
///
/// `ptr` is NULL or NUL-terminated.
unsafe fn utf8<'a>(
    ptr: *const c_char,
    what: &str,
    path: &dyn Display,
) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() {
        return Ok(None);
    }
    // A byte loop rather than `CStr::from_ptr` and `to_str` (a `strlen`
    // call, then a UTF-8 check): formats and names are short, and this runs
    // for every field of the schema on every call.
    let (mut len, mut high) = (0, 0u8);
    loop {
        // SAFETY: a non-NULL string of the C Data Interface is
        // NUL-terminated, and `len` has not passed the NUL yet.
        let b = unsafe { *ptr.cast::<u8>().add(len) };
        if b == 0 {
            break;
        }
        high |= b;
        len += 1;
    }
    // SAFETY: the `len` bytes before the NUL, read just above.
    let bytes = unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    if high < 0x80 {
        // SAFETY: ASCII is UTF-8.
        return Ok(Some(unsafe { core::str::from_utf8_unchecked(bytes) }));
    }
    core::str::from_utf8(bytes).map(Some).map_err(|_| {
        fail(
            Status::ArrowStructure,
            format!("{path}: the schema's {what} is not UTF-8"),
        )
    })
}

/// Whether the C string at `ptr` (NULL reads as `""`) is `bytes`: a byte
/// loop that stops at the first difference, where `CStr::from_ptr` and a
/// slice compare would call `strlen` and `memcmp` (names and formats are a
/// few bytes, and the predicate calls compare them on every call).
///
/// # Safety
///
/// `ptr` is NULL or NUL-terminated.
pub(crate) unsafe fn c_str_is(ptr: *const c_char, bytes: &[u8]) -> bool {
    if ptr.is_null() {
        return bytes.is_empty();
    }
    for (i, &b) in bytes.iter().enumerate() {
        // SAFETY: bytes `0..i` of the string were equal to `bytes[..i]`,
        // none of them NUL (`bytes` holds no NUL where it matched a string
        // byte that is not the end), so byte `i` is still inside the string
        // or its terminator.
        if unsafe { *ptr.cast::<u8>().add(i) } != b || b == 0 {
            return false;
        }
    }
    // SAFETY: as above, byte `bytes.len()` is inside the string or its NUL.
    unsafe { *ptr.cast::<u8>().add(bytes.len()) == 0 }
}

/// The children of a checked schema.
///
/// # Safety
///
/// `schema` passed [`check_schema`].
pub(crate) unsafe fn schema_children(schema: &ArrowSchema) -> impl Iterator<Item = &ArrowSchema> {
    (0..schema.n_children as usize).map(move |i| {
        // SAFETY: `check_schema` saw `children` non-NULL with `n_children`
        // non-NULL entries.
        unsafe { &**schema.children.add(i) }
    })
}

/// Checks what arrow-rs' schema import would otherwise panic on: a released
/// struct, a NULL or non-UTF-8 format, a non-UTF-8 name, negative or missing
/// children, a nested type without the children it needs; then converts it.
///
/// # Safety
///
/// `schema` follows the C Data Interface (strings NUL-terminated, `children`
/// holding `n_children` pointers, metadata in its binary encoding).
pub(crate) unsafe fn schema_type(
    schema: &ArrowSchema,
    path: &dyn Display,
) -> Result<DataType, Failure> {
    // SAFETY: forwarded.
    unsafe { check_schema(schema, path, 0, &Cell::new(0)) }?;
    // SAFETY: `ArrowSchema` and `FFI_ArrowSchema` are both `#[repr(C)]`
    // declarations of the spec's `struct ArrowSchema` (the layout test of
    // arrow.rs checks ours); the reference is only read, and `check_schema`
    // ruled out what arrow-rs' reader panics on.
    let ffi = unsafe { &*(schema as *const ArrowSchema).cast::<FFI_ArrowSchema>() };
    DataType::try_from(ffi).map_err(|e| fail(Status::ArrowStructure, format!("{path}: {e}")))
}

/// Checks the top of a struct schema (format `"+s"`) without converting
/// anything: live, its format and name, `n_children` non-NULL child
/// pointers. The children are the caller's: [`find_child`] looks for a
/// column by name (reading only the release pointer and the name of the
/// children it passes), and [`check_child_schema`] checks the one found in
/// full. A column the predicate does not read is thus never looked at
/// beyond its name, whatever the width of the schema.
///
/// # Safety
///
/// As [`schema_type`].
pub(crate) unsafe fn check_struct_schema(
    schema: &ArrowSchema,
    path: &dyn Display,
) -> Result<(), Failure> {
    let bad = |detail: String| Err(fail(Status::ArrowStructure, format!("{path}: {detail}")));
    // SAFETY: forwarded.
    let format = unsafe { check_node(schema, path) }?;
    if format != "+s" {
        return bad(format!(
            "a struct schema (format \"+s\") is needed, got format \"{format}\""
        ));
    }
    for i in 0..schema.n_children as usize {
        // SAFETY: `children` holds `n_children` pointers.
        if unsafe { *schema.children.add(i) }.is_null() {
            return bad(format!("child {i} is NULL"));
        }
    }
    Ok(())
}

/// The index of the child of `schema` named `name`, if any. A released
/// child passed on the way is an error (its name cannot be read).
///
/// # Safety
///
/// `schema` passed [`check_struct_schema`].
pub(crate) unsafe fn find_child(
    schema: &ArrowSchema,
    name: &str,
    path: &dyn Display,
) -> Result<Option<usize>, Failure> {
    for i in 0..schema.n_children as usize {
        // SAFETY: `check_struct_schema` saw `children` holding
        // `n_children` non-NULL pointers, each to a schema of the export.
        let child = unsafe { &**schema.children.add(i) };
        if child.release.is_none() {
            return Err(fail(
                Status::ArrowReleased,
                format!("{path}.child {i}: the ArrowSchema is released (release is NULL)"),
            ));
        }
        // SAFETY: a live schema's name is NULL or NUL-terminated.
        if unsafe { c_str_is(child.name, name.as_bytes()) } {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// Checks child `index` of a struct schema in full, as [`schema_type`]
/// does, without converting it.
///
/// # Safety
///
/// `child` is a child of a schema that passed [`check_struct_schema`].
pub(crate) unsafe fn check_child_schema(
    child: &ArrowSchema,
    path: &dyn Display,
) -> Result<(), Failure> {
    // SAFETY: forwarded.
    unsafe { check_schema(child, path, 1, &Cell::new(0)) }
}

/// The type of a schema that passed [`check_schema`] (through
/// [`check_struct_schema`] of its parent, say).
///
/// # Safety
///
/// `schema` passed [`check_schema`].
pub(crate) unsafe fn checked_schema_type(
    schema: &ArrowSchema,
    path: &dyn Display,
) -> Result<DataType, Failure> {
    // SAFETY: as in `schema_type`.
    let ffi = unsafe { &*(schema as *const ArrowSchema).cast::<FFI_ArrowSchema>() };
    DataType::try_from(ffi).map_err(|e| fail(Status::ArrowStructure, format!("{path}: {e}")))
}

/// The field metadata of a checked schema.
///
/// # Safety
///
/// `schema` passed [`check_schema`].
pub(crate) unsafe fn schema_metadata(
    schema: &ArrowSchema,
    path: &dyn Display,
) -> Result<std::collections::HashMap<String, String>, Failure> {
    // SAFETY: as in `schema_type`.
    let ffi = unsafe { &*(schema as *const ArrowSchema).cast::<FFI_ArrowSchema>() };
    ffi.metadata()
        .map_err(|e| fail(Status::ArrowStructure, format!("{path}: metadata: {e}")))
}

/// One schema node, not its children: live, a non-NULL UTF-8 format (which
/// it returns), a NULL or UTF-8 name, `n_children >= 0` with a non-NULL
/// `children` when positive.
///
/// # Safety
///
/// As [`schema_type`].
unsafe fn check_node<'a>(schema: &'a ArrowSchema, path: &dyn Display) -> Result<&'a str, Failure> {
    let bad = |detail: String| Err(fail(Status::ArrowStructure, format!("{path}: {detail}")));
    if schema.release.is_none() {
        return Err(fail(
            Status::ArrowReleased,
            format!("{path}: the ArrowSchema is released (release is NULL)"),
        ));
    }
    // SAFETY: the strings are NULL or NUL-terminated (the caller's contract).
    let Some(format) = (unsafe { utf8(schema.format, "format", path) })? else {
        return bad("the schema's format is NULL".into());
    };
    // SAFETY: as above.
    unsafe { utf8(schema.name, "name", path) }?;
    let n = schema.n_children;
    if n < 0 || (n > 0 && schema.children.is_null()) {
        return bad(format!(
            "n_children is {n} with children {:?}",
            schema.children
        ));
    }
    Ok(format)
}

/// See [`schema_type`].
///
/// # Safety
///
/// As [`schema_type`].
unsafe fn check_schema(
    schema: &ArrowSchema,
    path: &dyn Display,
    depth: usize,
    nodes: &Cell<usize>,
) -> Result<(), Failure> {
    let bad = |detail: String| Err(fail(Status::ArrowStructure, format!("{path}: {detail}")));
    if depth > MAX_DEPTH {
        return bad(format!("nested deeper than {MAX_DEPTH} levels"));
    }
    nodes.set(nodes.get() + 1);
    if nodes.get() > MAX_NODES {
        return bad(format!(
            "more than {MAX_NODES} nodes in the schema (children that alias each other?)"
        ));
    }
    // SAFETY: forwarded.
    let format = unsafe { check_node(schema, path) }?;
    let n = schema.n_children;
    let needed = match format {
        "+r" => 2,
        f if f.starts_with("+l")
            || f.starts_with("+L")
            || f.starts_with("+v")
            || f.starts_with("+m")
            || f.starts_with("+w") =>
        {
            1
        }
        _ => 0,
    };
    if n < needed {
        return bad(format!(
            "format \"{format}\" needs {needed} children, n_children is {n}"
        ));
    }
    for i in 0..n as usize {
        // SAFETY: `children` holds `n_children` pointers.
        let child = unsafe { *schema.children.add(i) };
        // SAFETY: a non-NULL child is a schema of the same export.
        let Some(child) = (unsafe { child.as_ref() }) else {
            return bad(format!("child {i} is NULL"));
        };
        // SAFETY: forwarded.
        unsafe { check_schema(child, &Path::Child(path, i), depth + 1, nodes) }?;
    }
    // SAFETY: a non-NULL dictionary is a schema of the same export.
    if let Some(dictionary) = unsafe { schema.dictionary.as_ref() } {
        // SAFETY: forwarded.
        unsafe { check_schema(dictionary, &Path::Dictionary(path), depth + 1, nodes) }?;
    }
    Ok(())
}

/// The children an array of `data_type` has in the C Data Interface.
fn child_types(data_type: &DataType) -> std::vec::Vec<&DataType> {
    match data_type {
        DataType::Struct(fields) => fields.iter().map(|f| f.data_type()).collect(),
        DataType::Union(fields, _) => fields.iter().map(|(_, f)| f.data_type()).collect(),
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => std::vec![f.data_type()],
        DataType::RunEndEncoded(ends, values) => std::vec![ends.data_type(), values.data_type()],
        _ => std::vec![],
    }
}

/// The number of buffers of `data_type` in the C Data Interface (validity
/// included, variadic data buffers and their sizes not), and whether it has
/// variadic ones: arrow-rs' `layout`, without its allocation for the common
/// types.
pub(crate) fn buffer_count(data_type: &DataType) -> (usize, bool) {
    if data_type.is_primitive()
        || matches!(data_type, DataType::Boolean | DataType::Dictionary(_, _))
    {
        return (2, false);
    }
    if matches!(
        data_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
    ) {
        return (3, false);
    }
    let layout = arrow_data::layout(data_type);
    (
        layout.buffers.len() + usize::from(layout.can_contain_null_mask),
        layout.variadic,
    )
}

/// The offset width of a type with an offsets buffer at index 1 that
/// arrow-rs' importer reads in place (so it must be aligned).
fn offset_width(data_type: &DataType) -> Option<usize> {
    match data_type {
        DataType::Utf8 | DataType::Binary => Some(4),
        DataType::LargeUtf8 | DataType::LargeBinary => Some(8),
        _ => None,
    }
}

/// The checked `offset` and `length` of an array.
pub(crate) fn offset_length(
    array: &ArrowArray,
    path: &dyn Display,
) -> Result<(usize, usize), Failure> {
    let bad = || {
        fail(
            Status::ArrowOffsetLength,
            format!(
                "{path}: offset {} and length {} (both must be >= 0, and their sum small enough to address)",
                array.offset, array.length
            ),
        )
    };
    let offset = usize::try_from(array.offset).map_err(|_| bad())?;
    let length = usize::try_from(array.length).map_err(|_| bad())?;
    // Room for the importer's `(offset + length + 1) * 16` (views) and
    // FixedSizeBinary's `(offset + length) * width`, without overflow.
    offset
        .checked_add(length)
        .and_then(|n| n.checked_add(1))
        .and_then(|n| n.checked_mul(16))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(bad)?;
    Ok((offset, length))
}

/// Checks an array against its type: what arrow-rs' importer would panic on
/// or read out of bounds with (released structs, negative sizes, the number
/// of buffers and children, NULL `buffers` / `children` / children,
/// dictionary presence, misaligned offsets, negative variadic sizes).
///
/// # Safety
///
/// `array` follows the C Data Interface (`buffers` holding `n_buffers`
/// pointers, `children` holding `n_children` pointers).
pub(crate) unsafe fn check_array(
    array: &ArrowArray,
    data_type: &DataType,
    path: &dyn Display,
    depth: usize,
) -> Result<(), Failure> {
    let bad = |detail: String| Err(fail(Status::ArrowStructure, format!("{path}: {detail}")));
    if depth > MAX_DEPTH {
        return bad(format!("nested deeper than {MAX_DEPTH} levels"));
    }
    if array.release.is_none() {
        return Err(fail(
            Status::ArrowReleased,
            format!("{path}: the ArrowArray is released (release is NULL)"),
        ));
    }
    let (offset, length) = offset_length(array, path)?;
    if array.null_count < -1 {
        return bad(format!("null_count is {}", array.null_count));
    }
    // Types arrow-rs' importer and kernels take on trust (a panic, or a
    // slice longer than memory, on any other).
    match data_type {
        DataType::Dictionary(key, _) if !key.is_dictionary_key_type() => {
            return bad(format!("a dictionary's keys must be integers, not {key}"));
        }
        DataType::RunEndEncoded(ends, _) if !ends.data_type().is_run_ends_type() => {
            return bad(format!(
                "run ends must be Int16, Int32 or Int64, not {}",
                ends.data_type()
            ));
        }
        DataType::Map(entries, _) if !matches!(entries.data_type(), DataType::Struct(f) if f.len() == 2) =>
        {
            return bad(format!(
                "a map's entries must be a struct of two fields, not {}",
                entries.data_type()
            ));
        }
        _ => {}
    }
    // Rows times the bytes (or, for booleans, bits) of a row, as the
    // importer computes them: within what memory can address.
    let per_row = match data_type {
        DataType::FixedSizeBinary(w) | DataType::FixedSizeList(_, w) => match usize::try_from(*w) {
            Ok(w) => Some(w),
            Err(_) => return bad(format!("{data_type} has a negative size")),
        },
        t => Some(t.primitive_width().unwrap_or(1)),
    };
    let fits = per_row
        .and_then(|w| (offset + length).checked_mul(w))
        .and_then(|n| n.checked_mul(8))
        .is_some_and(|bits| bits / 8 <= isize::MAX as usize);
    if !fits {
        return bad(format!(
            "{} rows of {data_type} do not fit in memory",
            offset + length
        ));
    }
    let (want, variadic) = buffer_count(data_type);
    let n_buffers = array.n_buffers;
    let buffers_ok = if variadic {
        usize::try_from(n_buffers).is_ok_and(|n| n > want)
    } else {
        usize::try_from(n_buffers).is_ok_and(|n| n == want)
    };
    if !buffers_ok {
        let want = if variadic {
            format!(
                "at least {} (the last: the variadic buffer sizes)",
                want + 1
            )
        } else {
            want.to_string()
        };
        return bad(format!(
            "{data_type} has {want} buffers, n_buffers is {n_buffers}"
        ));
    }
    if n_buffers > 0 && array.buffers.is_null() {
        return bad(format!("buffers is NULL with n_buffers {n_buffers}"));
    }
    // SAFETY: `buffers` holds `n_buffers` pointers (the caller's contract).
    let buffer = |i: usize| unsafe { *array.buffers.add(i) };
    // The validity buffer may be NULL only with no null (the C Data
    // Interface); arrow-rs' importer would read "no null" from it.
    let validity = !matches!(
        data_type,
        DataType::Null | DataType::Union(..) | DataType::RunEndEncoded(..)
    );
    if validity && array.null_count > 0 && buffer(0).is_null() {
        return Err(fail(
            Status::ArrowData,
            format!(
                "{path}: null_count is {} and the validity buffer is NULL",
                array.null_count
            ),
        ));
    }
    if let Some(width) = offset_width(data_type) {
        let offsets = buffer(1);
        if !offsets.is_null() && !(offsets as usize).is_multiple_of(width) {
            return bad(format!(
                "the offsets buffer of {data_type} is not aligned to {width} bytes"
            ));
        }
        // arrow-rs' importer takes the data buffer's length from the last
        // offset, cast to usize: a negative one would make a slice longer
        // than memory (undefined behaviour even if never read). It reads it
        // unless the array is empty at offset 0.
        if !offsets.is_null() && (offset, length) != (0, 0) {
            let i = offset + length;
            // SAFETY: the offsets buffer holds `offset + length + 1`
            // offsets of `width` bytes (the C Data Interface), aligned
            // (checked just above).
            let last = unsafe {
                if width == 4 {
                    i64::from(*offsets.cast::<i32>().add(i))
                } else {
                    *offsets.cast::<i64>().add(i)
                }
            };
            if last < 0 {
                return Err(fail(
                    Status::ArrowData,
                    format!("{path}: the last offset of {data_type} is negative ({last})"),
                ));
            }
        }
    }
    if variadic {
        let n = n_buffers as usize;
        // The data buffers between the fixed ones and the sizes buffer.
        let data_buffers = n - want - 1;
        let sizes = buffer(n - 1);
        // With no data buffer the sizes buffer holds no byte, and a buffer
        // of size 0 may be NULL (C Data Interface, apache/arrow#14805):
        // Arrow C++ 19 exports an all-null string_view column so. Neither
        // the reading below nor arrow-rs' importer reads it then.
        if data_buffers > 0 {
            if sizes.is_null() || !(sizes as usize).is_multiple_of(8) {
                return bad(format!(
                    "the variadic buffer sizes of {data_type} (buffer {}) are NULL or not aligned to 8 bytes, with {data_buffers} data buffers",
                    n - 1
                ));
            }
            // SAFETY: the last buffer of a view array holds one int64 per
            // data buffer (the C Data Interface), aligned (checked).
            let sizes = unsafe { core::slice::from_raw_parts(sizes.cast::<i64>(), data_buffers) };
            if let Some(s) = sizes.iter().find(|&&s| s < 0) {
                return bad(format!(
                    "a variadic buffer size of {data_type} is negative ({s})"
                ));
            }
        }
    }
    let types = child_types(data_type);
    if usize::try_from(array.n_children) != Ok(types.len()) {
        return bad(format!(
            "{data_type} has {} children, n_children is {}",
            types.len(),
            array.n_children
        ));
    }
    if !types.is_empty() && array.children.is_null() {
        return bad("children is NULL".into());
    }
    for (i, child_type) in types.into_iter().enumerate() {
        // SAFETY: `children` holds `n_children` pointers.
        let child = unsafe { *array.children.add(i) };
        // SAFETY: a non-NULL child is an array of the same export.
        let Some(child) = (unsafe { child.as_ref() }) else {
            return bad(format!("child {i} is NULL"));
        };
        // SAFETY: forwarded.
        unsafe { check_array(child, child_type, &Path::Child(path, i), depth + 1) }?;
    }
    // SAFETY: a non-NULL dictionary is an array of the same export.
    match (data_type, unsafe { array.dictionary.as_ref() }) {
        (DataType::Dictionary(_, values), Some(dictionary)) => {
            // SAFETY: forwarded.
            unsafe { check_array(dictionary, values, &Path::Dictionary(path), depth + 1) }
        }
        (DataType::Dictionary(_, _), None) => bad("a dictionary type without a dictionary".into()),
        (_, Some(_)) => bad(format!(
            "a dictionary on {data_type}, which is not a dictionary type"
        )),
        (_, None) => Ok(()),
    }
}

/// The release callback of the borrowed copies: nothing to free (the
/// caller owns the buffers); marks the copy released, as the spec asks.
unsafe extern "C" fn release_nothing(array: *mut FFI_ArrowArray) {
    // SAFETY: arrow-rs calls this with the copy it is dropping.
    if let Some(array) = unsafe { array.as_mut() } {
        // SAFETY: `None` is what a released struct holds.
        unsafe { array.set_release(None) };
    }
}

/// Imports a checked array of `data_type` without taking ownership, and
/// validates its data in full: `direct::import` when it takes the array,
/// [`import_reference`] (arrow-rs' importer, then `validate::validate`)
/// otherwise.
///
/// Why borrowing is sound: the buffers `direct::import` builds point into
/// the caller's memory, and their owner (`direct::Borrowed`) frees nothing.
/// arrow-rs' `from_ffi_and_data_type` takes an
/// `FFI_ArrowArray` by value and calls its `release` when the last buffer
/// of the import is dropped. We give it a bitwise copy of the caller's
/// struct whose `release` is [`release_nothing`]: dropping the copy frees
/// nothing and the caller's struct is never written (arrow-rs reads the
/// children and the dictionary through shared references, and only the top
/// struct it owns is ever released). The imported buffers point into the
/// caller's memory without owning it, so they must not outlive the call:
/// every caller of this function drops the returned array (and all arrays
/// and record batches made from it) before returning to C, on the error
/// and panic paths as well (they are ordinary locals, dropped on unwind).
/// The producer keeps the memory alive for the whole call (the C Data
/// Interface's contract until the caller releases the struct, which it
/// cannot do during our call).
///
/// # Safety
///
/// `array` passed [`check_array`] with `data_type`, and its buffers hold
/// what the C Data Interface promises for its type, `offset` and `length`.
pub(crate) unsafe fn import(
    array: &ArrowArray,
    data_type: &DataType,
    path: &dyn Display,
    owner: &crate::direct::Owner,
) -> Result<ArrayRef, Failure> {
    if array.length == 0 {
        // No row to read. (arrow-rs' importer takes an empty string array at
        // offset 0 to have an empty data buffer, which its own validation
        // then refuses when the single offset is not 0, as in a slice that
        // Arrow exports.)
        return Ok(new_empty_array(data_type));
    }
    // The common types straight from the buffers (`direct.rs`), when they
    // pass its checks; the importer and `validate` otherwise.
    // SAFETY: forwarded; the array is dropped before the call returns, as
    // below.
    if let Some(array) = unsafe { crate::direct::import(array, data_type, owner) } {
        return Ok(array);
    }
    // SAFETY: forwarded.
    unsafe { import_reference(array, data_type, path) }
}

/// [`import`] through arrow-rs' importer and `validate::validate` alone:
/// the reference `direct.rs` agrees with, and what names the problem of an
/// input the direct path does not take.
///
/// # Safety
///
/// As [`import`].
pub(crate) unsafe fn import_reference(
    array: &ArrowArray,
    data_type: &DataType,
    path: &dyn Display,
) -> Result<ArrayRef, Failure> {
    // SAFETY: `ArrowArray` and `FFI_ArrowArray` are both `#[repr(C)]`
    // declarations of the spec's `struct ArrowArray`; the copy is a plain
    // bitwise read of a live, aligned struct, and its `release` is replaced
    // at once (nothing between can panic), so the producer's callback is
    // never called through it.
    let mut copy =
        unsafe { core::ptr::read((array as *const ArrowArray).cast::<FFI_ArrowArray>()) };
    // SAFETY: `release_nothing` frees nothing and matches any private data.
    unsafe { copy.set_release(Some(release_nothing)) };
    // SAFETY: the structure was checked by `check_array`; the buffer sizes
    // are the caller's promise (bitbytes.h).
    let data = unsafe { from_ffi_and_data_type(copy, data_type.clone()) }
        .map_err(|e| fail(Status::ArrowStructure, format!("{path}: {e}")))?;
    crate::validate::validate(&data)
        .map_err(|e| fail(Status::ArrowData, format!("{path}: {e}")))?;
    Ok(make_array(data))
}

/// Checks that a struct array (a batch, statistics) has no null rows: a
/// NULL validity buffer, a null_count of 0, or a bitmap with every row in
/// `[offset, offset + length)` set.
///
/// # Safety
///
/// `array` passed [`check_array`] as a struct; a non-NULL validity buffer
/// holds `ceil((offset + length) / 8)` bytes.
pub(crate) unsafe fn check_no_null_rows(
    array: &ArrowArray,
    path: &dyn Display,
) -> Result<(), Failure> {
    let (offset, length) = offset_length(array, path)?;
    // SAFETY: a struct has one buffer (checked), the validity bitmap.
    let validity = unsafe { *array.buffers };
    if array.null_count == 0 || validity.is_null() || length == 0 {
        return Ok(());
    }
    let bytes = (offset + length).div_ceil(8);
    // SAFETY: the validity bitmap covers `offset + length` bits (the
    // producer's contract).
    let bits = unsafe { core::slice::from_raw_parts(validity.cast::<u8>(), bytes) };
    let valid = bitbytes::count_selected(bits, None, offset, length, false)
        .map_err(|e| fail(Status::ArrowStructure, format!("{path}: {e}")))?;
    if valid != length {
        return Err(fail(
            Status::ArrowStructure,
            format!(
                "{path}: the struct has {} null rows; a record batch or statistics struct has none",
                length - valid
            ),
        ));
    }
    Ok(())
}
