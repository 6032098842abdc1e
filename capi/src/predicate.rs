//! The predicate API of `bitbytes.h` (feature `predicate`): Paimon JSON in,
//! record batches and statistics through the Arrow C Data Interface, masks /
//! row indices / verdicts out.
//!
//! A thin layer over bitbytes' `Predicate::from_paimon_json`,
//! `to_paimon_json`, `test_into` and `test_stats_into`. Each call borrows the
//! caller's structs (see `import::import`): only the columns the predicate
//! reads are imported, each validated in full, and every imported array is
//! dropped before the call returns. A predicate of comparisons and null
//! tests over primitive columns (under And / Or) skips the arrow-rs arrays:
//! `borrowed.rs` reads the values in place after the same checks.

use crate::arrow::{ArrowArray, ArrowSchema};
use crate::borrowed::{self, Plan};
use crate::ffi::{guard, input, output, output_ref, set_last_error};
use crate::import::{
    c_str_is, check_array, check_child_schema, check_no_null_rows, check_struct_schema,
    checked_schema_type, fail, find_child, import, offset_length, schema_children, schema_metadata,
    schema_type, Failure, Path,
};
use crate::status::Status;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{
    make_array, Array, ArrayRef, RecordBatch, RecordBatchOptions, StructArray, UInt64Array,
};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
use bitbytes::arrow::{ColumnStats, Predicate, StatsBatch, StatsVerdict};
use core::ffi::CStr;
use core::ffi::{c_char, c_int};
use std::borrow::Cow;
use std::boxed::Box;
use std::ffi::CString;
use std::format;
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec;
use std::vec::Vec;

/// A parsed predicate (`bitbytes_predicate` in C): the predicate, the schema
/// it was parsed against, and the columns it reads. Immutable once made, so
/// one handle may serve many threads.
#[derive(Debug)]
pub struct BitbytesPredicate {
    predicate: Predicate,
    schema: Schema,
    /// The fields the predicate reads, with their parse-time types.
    pub(crate) columns: Vec<(String, DataType)>,
    /// For each of `columns`, its format string in the parse-time schema
    /// when that alone names its type (no dictionary, not nested): a batch
    /// column with the same format and no dictionary has that type, without
    /// converting its schema again.
    formats: Vec<Option<Vec<u8>>>,
    /// `columns` as an all-nullable schema: the batch handed to the
    /// predicate when the caller's types are exactly the parse-time ones.
    columns_schema: SchemaRef,
    /// The predicate for `borrowed::test`, when all its leaves are ones it
    /// runs.
    pub(crate) plan: Option<Plan>,
}

/// Runs a predicate entry point: `guard`'s panic and code handling, then
/// `what: detail` as this thread's `bitbytes_last_error`.
fn guard_detailed(what: &str, body: impl FnOnce() -> Result<(), Failure>) -> c_int {
    let mut detail = None;
    let code = guard(|| {
        body().map_err(|f| {
            detail = Some(f.detail);
            f.status
        })
    });
    if let Some(detail) = detail {
        set_last_error(&format!("{what}: {detail}"));
    }
    code
}

/// A required pointer argument as a reference.
///
/// # Safety
///
/// A non-NULL `ptr` points to a live, aligned `T` that nothing writes during
/// the call.
unsafe fn required<'a, T>(ptr: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller's contract; `as_ref` maps NULL to `None`.
    unsafe { ptr.as_ref() }.ok_or_else(|| fail(Status::NullArgument, format!("{name} is NULL")))
}

/// The fields of a struct schema (a batch's or the statistics').
///
/// # Safety
///
/// `schema` follows the C Data Interface.
unsafe fn struct_fields(schema: &ArrowSchema, name: &str) -> Result<Fields, Failure> {
    // SAFETY: forwarded.
    match unsafe { schema_type(schema, &name) }? {
        DataType::Struct(fields) => Ok(fields),
        other => Err(fail(
            Status::ArrowStructure,
            format!("{name}: a struct schema (format \"+s\") is needed, got {other}"),
        )),
    }
}

/// `t` without a dictionary around it.
fn value_type(t: &DataType) -> &DataType {
    match t {
        DataType::Dictionary(_, v) => v,
        t => t,
    }
}

/// Parses Paimon predicate JSON against a struct schema; see `bitbytes.h`.
///
/// # Safety
///
/// `json` (when not NULL) points to `json_len` readable bytes; `schema` (when
/// not NULL) is a live C Data Interface schema; `out` (when not NULL) is a
/// writable `bitbytes_predicate *`.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_predicate_parse(
    json: *const c_char,
    json_len: usize,
    schema: *const ArrowSchema,
    out: *mut *mut BitbytesPredicate,
) -> c_int {
    guard_detailed("bitbytes_predicate_parse", || {
        if json.is_null() {
            return Err(fail(Status::NullArgument, "json is NULL"));
        }
        // SAFETY: `json` covers `json_len` readable bytes.
        let json = unsafe { input(json.cast::<u8>(), json_len, Status::NullArgument) }?;
        // SAFETY: the caller's contract.
        let schema = unsafe { required(schema, "schema") }?;
        // SAFETY: a non-NULL `out` is writable.
        let out = unsafe { output_ref(out) }
            .map_err(|s| fail(s, "out (the bitbytes_predicate ** to set) is NULL"))?;
        let c_schema = schema;
        // SAFETY: a live schema (the caller's contract).
        let fields = unsafe { struct_fields(schema, "schema") }?;
        let json = core::str::from_utf8(json)
            .map_err(|e| fail(Status::Json, format!("the JSON is not UTF-8: {e}")))?;
        let schema = Schema::new(fields);
        let predicate = Predicate::from_paimon_json(json, &schema)
            .map_err(|e| fail(Status::Json, e.to_string()))?;
        let mut columns = Vec::new();
        let mut formats = Vec::new();
        for name in predicate.fields() {
            let index = schema
                .index_of(name)
                .map_err(|e| fail(Status::Json, e.to_string()))?;
            columns.push((name.to_string(), schema.field(index).data_type().clone()));
            // SAFETY: `struct_fields` checked the schema tree: `children`
            // holds one checked schema per field, in order.
            let child = unsafe { &**c_schema.children.add(index) };
            // SAFETY: a checked schema's format is non-NULL, NUL-terminated.
            let format = unsafe { CStr::from_ptr(child.format) }.to_bytes();
            formats.push(
                (child.dictionary.is_null() && !format.starts_with(b"+")).then(|| format.to_vec()),
            );
        }
        let columns_schema = Arc::new(Schema::new(
            columns
                .iter()
                .map(|(n, t)| Field::new(n, t.clone(), true))
                .collect::<Vec<_>>(),
        ));
        let plan = Plan::new(&predicate, &columns);
        *out = Box::into_raw(Box::new(BitbytesPredicate {
            plan,
            predicate,
            schema,
            columns,
            formats,
            columns_schema,
        }));
        Ok(())
    })
}

/// Frees a predicate of `bitbytes_predicate_parse`; NULL does nothing.
///
/// # Safety
///
/// `p` is NULL or a predicate of `bitbytes_predicate_parse` not yet freed,
/// used by no other call.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_predicate_free(p: *mut BitbytesPredicate) {
    if !p.is_null() {
        // `guard` keeps a panic of a destructor (none is known) from
        // unwinding into C.
        guard(|| {
            // SAFETY: `p` came from `Box::into_raw` in
            // `bitbytes_predicate_parse` and is freed once (the caller's
            // contract).
            drop(unsafe { Box::from_raw(p) });
            Ok(())
        });
    }
}

/// The predicate as Paimon Java's JSON; see `bitbytes.h`.
///
/// # Safety
///
/// `p` is NULL or a live predicate; `out` and `out_len`, when not NULL, are
/// writable.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_predicate_to_json(
    p: *const BitbytesPredicate,
    out: *mut *mut c_char,
    out_len: *mut usize,
) -> c_int {
    guard_detailed("bitbytes_predicate_to_json", || {
        // SAFETY: the caller's contract.
        let p = unsafe { required(p, "p") }?;
        // SAFETY: non-NULL out-parameters are writable.
        let (out, out_len) = unsafe { (output_ref(out), output_ref(out_len)) };
        let (Ok(out), Ok(out_len)) = (out, out_len) else {
            return Err(fail(Status::NullArgument, "out or out_len is NULL"));
        };
        let json = p
            .predicate
            .to_paimon_json(&p.schema)
            .map_err(|e| fail(Status::Predicate, e.to_string()))?;
        let json =
            CString::new(json).map_err(|_| fail(Status::Predicate, "the JSON holds a NUL byte"))?;
        *out_len = json.as_bytes().len();
        *out = json.into_raw();
        Ok(())
    })
}

/// Frees a string of `bitbytes_predicate_to_json`; NULL does nothing.
///
/// # Safety
///
/// `s` is NULL or a string of `bitbytes_predicate_to_json` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: `s` came from `CString::into_raw` and is freed once.
        drop(unsafe { CString::from_raw(s) });
    }
}

/// The batch's own checks: its schema's top (a live struct with non-NULL
/// children), its structure (one buffer, `n_fields` non-NULL children), no
/// null rows; its `offset` and `length`. Of the children, only those the
/// predicate reads are checked in full, by [`read_column`]: the others are
/// passed by name.
///
/// # Safety
///
/// `batch` and `schema` are live C Data Interface structs.
pub(crate) unsafe fn check_batch(
    batch: &ArrowArray,
    schema: &ArrowSchema,
) -> Result<(usize, usize), Failure> {
    // SAFETY: forwarded.
    unsafe { check_struct_schema(schema, &"schema") }?;
    let n_fields = schema.n_children as usize;
    // SAFETY: forwarded; a struct array's own structure (one buffer, one
    // child per field) is checked here, the children by `read_column`.
    unsafe { check_shallow_struct(batch, n_fields, &"batch") }?;
    // SAFETY: checked as a struct just above.
    unsafe { check_no_null_rows(batch, &"batch") }?;
    offset_length(batch, &"batch")
}

/// Column `i` of `p.columns` in a batch that passed [`check_batch`]: its
/// array, checked against its type in the batch's schema, that type (the
/// parse-time one, borrowed, when the formats say they are the same), and
/// whether it equals the parse-time type (else only their value types do).
///
/// # Safety
///
/// `batch` and `schema` passed [`check_batch`].
pub(crate) unsafe fn read_column<'a>(
    p: &'a BitbytesPredicate,
    i: usize,
    batch: &'a ArrowArray,
    schema: &'a ArrowSchema,
) -> Result<(&'a ArrowArray, Cow<'a, DataType>, bool), Failure> {
    let ((name, want), format) = (&p.columns[i], &p.formats[i]);
    // SAFETY: `schema` passed `check_struct_schema`.
    let index = unsafe { find_child(schema, name, &"schema") }?.ok_or_else(|| {
        fail(
            Status::SchemaMismatch,
            format!("the predicate reads field `{name}`, which the batch's schema does not have"),
        )
    })?;
    // SAFETY: `check_struct_schema` saw `children` holding `n_children`
    // non-NULL pointers.
    let child_schema = unsafe { &**schema.children.add(index) };
    // SAFETY: a child of the export (the caller's contract).
    unsafe { check_child_schema(child_schema, &Path::Child(&"schema", index)) }?;
    // SAFETY: a checked schema's format is non-NULL, NUL-terminated.
    let same_format = |f: &[u8]| unsafe { c_str_is(child_schema.format, f) };
    let got = if child_schema.dictionary.is_null() && format.as_deref().is_some_and(same_format) {
        // The format string of a type that is neither nested nor a
        // dictionary names it whole: the parse-time type.
        Cow::Borrowed(want)
    } else {
        // SAFETY: as above.
        Cow::Owned(unsafe { checked_schema_type(child_schema, &Path::Child(&"schema", index)) }?)
    };
    let same = core::ptr::eq(got.as_ref(), want) || got.as_ref() == want;
    if !same && value_type(&got) != value_type(want) {
        return Err(fail(
            Status::SchemaMismatch,
            format!("field `{name}` has type {got} in the batch, {want} in the schema the predicate was parsed against"),
        ));
    }
    // SAFETY: `check_shallow_struct` saw `children` holding `n_children`
    // non-NULL pointers.
    let child = unsafe { &**batch.children.add(index) };
    // SAFETY: forwarded.
    unsafe { check_array(child, &got, &Path::Column(name), 1) }?;
    Ok((child, got, same))
}

/// The columns `p` reads of a batch, as a record batch of arrow-rs arrays.
///
/// The returned batch borrows the caller's buffers: drop it before the
/// call returns (see `import::import`).
///
/// # Safety
///
/// `batch` and `schema` are live C Data Interface structs whose buffers hold
/// what the spec promises.
unsafe fn import_batch(
    p: &BitbytesPredicate,
    batch: &ArrowArray,
    schema: &ArrowSchema,
) -> Result<RecordBatch, Failure> {
    // SAFETY: forwarded.
    let (offset, length) = unsafe { check_batch(batch, schema) }?;
    let mut columns: Vec<ArrayRef> = Vec::with_capacity(p.columns.len());
    let mut same_types = true;
    let owner = crate::direct::owner();
    for (i, (name, _)) in p.columns.iter().enumerate() {
        // SAFETY: `batch` and `schema` passed `check_batch`.
        let (child, got, same) = unsafe { read_column(p, i, batch, schema) }?;
        same_types &= same;
        let path = Path::Column(name);
        // SAFETY: checked; buffer sizes are the caller's promise.
        let column = unsafe { import(child, &got, &path, &owner) }?;
        // A struct's offset applies to its children.
        if column.len() < offset + length {
            return Err(fail(
                Status::ArrowData,
                format!(
                    "{path} has {} rows, the batch needs offset + length = {}",
                    column.len(),
                    offset + length
                ),
            ));
        }
        columns.push(if offset == 0 && column.len() == length {
            column
        } else {
            column.slice(offset, length)
        });
    }
    if same_types {
        // SAFETY: `columns_schema` has one field per column, each of the
        // type `got` the column was imported as (equal to `want`), and every
        // column has `length` rows (sliced so, or checked): what
        // `RecordBatch::try_new_with_options` would check.
        return Ok(unsafe {
            RecordBatch::new_unchecked(p.columns_schema.clone(), columns, length)
        });
    }
    let columns_schema = {
        Arc::new(Schema::new(
            p.columns
                .iter()
                .zip(&columns)
                .map(|((n, _), c)| Field::new(n, c.data_type().clone(), true))
                .collect::<Vec<_>>(),
        ))
    };
    let options = RecordBatchOptions::new().with_row_count(Some(length));
    RecordBatch::try_new_with_options(columns_schema, columns, &options)
        .map_err(|e| fail(Status::ArrowData, e.to_string()))
}

/// The structure of a struct array itself: live, one buffer (the validity),
/// `n` non-NULL children (each checked later against its type).
///
/// # Safety
///
/// `array` is a live C Data Interface array.
unsafe fn check_shallow_struct(
    array: &ArrowArray,
    n: usize,
    path: &dyn core::fmt::Display,
) -> Result<(), Failure> {
    if array.release.is_none() {
        return Err(fail(
            Status::ArrowReleased,
            format!("{path}: the ArrowArray is released (release is NULL)"),
        ));
    }
    offset_length(array, path)?;
    let bad = |detail: String| Err(fail(Status::ArrowStructure, format!("{path}: {detail}")));
    if array.n_buffers != 1 || array.buffers.is_null() {
        return bad(format!(
            "a struct array has 1 buffer, n_buffers is {} (buffers {:?})",
            array.n_buffers, array.buffers
        ));
    }
    if usize::try_from(array.n_children) != Ok(n) || (n > 0 && array.children.is_null()) {
        return bad(format!(
            "the schema has {n} fields, the array has n_children {} (children {:?})",
            array.n_children, array.children
        ));
    }
    if !array.dictionary.is_null() {
        return bad("a struct array has no dictionary".into());
    }
    for i in 0..n {
        // SAFETY: `children` holds `n_children` pointers.
        if unsafe { *array.children.add(i) }.is_null() {
            return bad(format!("child {i} is NULL"));
        }
    }
    Ok(())
}

/// `p` over a batch, into the slice `out(rows)` gives.
///
/// # Safety
///
/// As `bitbytes_predicate_test`.
unsafe fn test_into<'o>(
    p: *const BitbytesPredicate,
    batch: *const ArrowArray,
    schema: *const ArrowSchema,
    out: impl FnOnce(usize) -> Result<&'o mut [u8], Failure>,
) -> Result<(), Failure> {
    // SAFETY: the caller's contract.
    let (p, batch, schema) = unsafe {
        (
            required(p, "p")?,
            required(batch, "batch")?,
            required(schema, "schema")?,
        )
    };
    // The output first: a too short one (or, for indices, too many rows)
    // is refused before anything is evaluated or allocated for the rows.
    if batch.release.is_none() {
        return Err(fail(
            Status::ArrowReleased,
            "batch: the ArrowArray is released (release is NULL)",
        ));
    }
    let (_, rows) = offset_length(batch, &"batch")?;
    let out = out(rows)?;
    if let Some(plan) = &p.plan {
        // SAFETY: live structs (the caller's contract); `bits` holds no
        // pointer to them.
        if let Some(b) = unsafe { borrowed::test(p, plan, batch, schema) }? {
            return bitbytes::unpack(b.bits.as_slice(), b.validity, 0, b.rows, false, out)
                .map_err(|e| fail(Status::from(e.clone()), e.to_string()));
        }
    }
    // SAFETY: live structs (the caller's contract).
    let imported = unsafe { import_batch(p, batch, schema) }?;
    // The batch's length is its rows (checked by the import).
    p.predicate
        .test_into(&imported, &mut out[..imported.num_rows()])
        .map_err(|e| fail(Status::Predicate, e.to_string()))
}

/// One byte per row of the batch; see `bitbytes.h`.
///
/// # Safety
///
/// `p` is NULL or a live predicate; `batch` and `schema` are NULL or live
/// C Data Interface structs whose buffers hold what the spec promises
/// (bitbytes.h, "What the caller promises"); `out` (when not NULL) points to
/// `out_len` writable bytes overlapping no input.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_predicate_test(
    p: *const BitbytesPredicate,
    batch: *const ArrowArray,
    schema: *const ArrowSchema,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard_detailed("bitbytes_predicate_test", || {
        // SAFETY: `out` covers `out_len` writable bytes.
        let out = unsafe { output(out, out_len, Status::NullOutput) }?;
        // SAFETY: forwarded.
        unsafe {
            test_into(p, batch, schema, move |rows| {
                check_out_len(rows, out.len())?;
                Ok(&mut out[..rows])
            })
        }
    })
}

/// `OutputTooShort` unless `have >= need`.
fn check_out_len(need: usize, have: usize) -> Result<(), Failure> {
    if have < need {
        return Err(fail(
            Status::OutputTooShort,
            format!("out_len is {have}, the call writes {need}"),
        ));
    }
    Ok(())
}

/// The selected rows as ascending indices; see `bitbytes.h`.
///
/// # Safety
///
/// As `bitbytes_predicate_test`, with `out` pointing to `out_len` writable
/// `uint32_t` and `count` (when not NULL) a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_predicate_test_indices(
    p: *const BitbytesPredicate,
    batch: *const ArrowArray,
    schema: *const ArrowSchema,
    out: *mut u32,
    out_len: usize,
    count: *mut usize,
) -> c_int {
    guard_detailed("bitbytes_predicate_test_indices", || {
        // SAFETY: `out` covers `out_len` writable, aligned u32.
        let out = unsafe { output(out, out_len, Status::NullOutput) }?;
        // SAFETY: a non-NULL `count` is writable.
        let count = unsafe { output_ref(count) }.map_err(|s| fail(s, "count is NULL"))?;
        let mut mask = Vec::new();
        let scratch = &mut mask;
        // SAFETY: forwarded.
        unsafe {
            test_into(p, batch, schema, move |rows| {
                // Row indices are `uint32_t`: refused before the mask of a
                // batch that could not be answered is allocated.
                if rows > u32::MAX as usize + 1 {
                    return Err(fail(
                        Status::IndexOverflow,
                        format!("the batch has {rows} rows, more than uint32_t indices address"),
                    ));
                }
                scratch.try_reserve_exact(rows).map_err(|_| {
                    fail(
                        Status::Predicate,
                        format!("no memory for the mask of {rows} rows"),
                    )
                })?;
                scratch.resize(rows, 0);
                Ok(&mut scratch[..])
            })
        }?;
        let n = bitbytes::mask_to_indices(&mask, 0, out).map_err(|e| {
            let status = Status::from(e.clone());
            fail(status, e.to_string())
        })?;
        *count = n;
        Ok(())
    })
}

/// The verdict per container of a statistics struct; see `bitbytes.h`.
///
/// # Safety
///
/// As `bitbytes_predicate_test`, with `stats` / `stats_schema` for the batch.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_predicate_test_stats(
    p: *const BitbytesPredicate,
    stats: *const ArrowArray,
    stats_schema: *const ArrowSchema,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard_detailed("bitbytes_predicate_test_stats", || {
        // SAFETY: the caller's contract.
        let (p, stats, schema) = unsafe {
            (
                required(p, "p")?,
                required(stats, "stats")?,
                required(stats_schema, "stats_schema")?,
            )
        };
        // SAFETY: `out` covers `out_len` writable bytes.
        let out = unsafe { output(out, out_len, Status::NullOutput) }?;
        // SAFETY: live structs (the caller's contract).
        let batch = unsafe { import_stats(p, stats, schema) }?;
        check_out_len(batch.len(), out.len())?;
        let mut verdicts = vec![StatsVerdict::MayMatch; batch.len()];
        p.predicate
            .test_stats_into(&batch, &mut verdicts)
            .map_err(|e| fail(Status::Predicate, e.to_string()))?;
        for (o, v) in out.iter_mut().zip(&verdicts) {
            *o = *v as u8;
        }
        Ok(())
    })
}

/// Reads the statistics struct of `bitbytes.h` into a [`StatsBatch`].
///
/// # Safety
///
/// As `bitbytes_predicate_test_stats`.
unsafe fn import_stats(
    p: &BitbytesPredicate,
    stats: &ArrowArray,
    schema: &ArrowSchema,
) -> Result<StatsBatch, Failure> {
    let layout = |detail: String| fail(Status::StatsLayout, detail);
    // SAFETY: forwarded.
    let fields = unsafe { struct_fields(schema, "stats_schema") }?;
    let data_type = DataType::Struct(fields.clone());
    // SAFETY: forwarded.
    unsafe { check_array(stats, &data_type, &"stats", 0) }?;
    // SAFETY: checked as a struct.
    unsafe { check_no_null_rows(stats, &"stats") }?;
    // SAFETY: checked; buffer sizes are the caller's promise.
    let array = unsafe { import(stats, &data_type, &"stats", &crate::direct::owner()) }?;
    let array: &StructArray = array.as_struct();
    let row_count = array.column_by_name("row_count").ok_or_else(|| {
        layout("no child \"row_count\" (uint64, the containers' row counts)".into())
    })?;
    let row_counts = uint64(row_count, "row_count")?;
    let mut batch = StatsBatch::new(row_counts);
    // SAFETY: `schema` passed `check_schema` through `struct_fields`.
    let children: Vec<&ArrowSchema> = unsafe { schema_children(schema) }.collect();
    let mut seen: Vec<&str> = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let name = field.name().as_str();
        if seen.contains(&name) {
            return Err(layout(format!("child `{name}` appears twice")));
        }
        seen.push(name);
        if name == "row_count" {
            continue;
        }
        let Ok(column_field) = p.schema.field_with_name(name) else {
            return Err(layout(format!(
                "child `{name}` is neither \"row_count\" nor a field of the predicate's schema"
            )));
        };
        let DataType::Struct(parts) = field.data_type() else {
            return Err(layout(format!(
                "child `{name}` is a {}, not a struct of min, max, null_count, nan_count",
                field.data_type()
            )));
        };
        for part in parts {
            if !["min", "max", "null_count", "nan_count"].contains(&part.name().as_str()) {
                return Err(layout(format!(
                    "`{name}` has a child `{}`; only min, max, null_count and nan_count are known",
                    part.name()
                )));
            }
        }
        // SAFETY: `schema` passed `check_schema`.
        let metadata =
            unsafe { schema_metadata(children[i], &format_args!("stats_schema.{name}")) }?;
        let flag = |key: &str| match metadata.get(key).map(String::as_str) {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(other) => Err(layout(format!(
                "`{name}` has metadata {key} = \"{other}\"; \"true\" or \"false\" is needed"
            ))),
        };
        let entry = array.column(i).as_struct();
        let part = |part: &str| -> Result<Option<ArrayRef>, Failure> {
            entry
                .column_by_name(part)
                .map(|c| with_parent_nulls(c, entry))
                .transpose()
                .map_err(|e| layout(format!("`{name}`.{part}: {e}")))
        };
        let missing = |part: &str| layout(format!("`{name}` has no child \"{part}\""));
        let min = part("min")?.ok_or_else(|| missing("min"))?;
        let max = part("max")?.ok_or_else(|| missing("max"))?;
        let mut column = ColumnStats::new(min, max);
        if let Some(counts) = part("null_count")? {
            column = column.with_null_counts(uint64(&counts, &format!("{name}.null_count"))?);
        }
        if let Some(counts) = part("nan_count")? {
            column = column.with_nan_counts(uint64(&counts, &format!("{name}.nan_count"))?);
        }
        if flag("truncated")? {
            column = column.truncated();
        }
        if flag("nan_excluded")? {
            column = column.nan_excluded();
        }
        batch = batch
            .with_field(column_field, column)
            .map_err(|e| layout(e.to_string()))?;
    }
    Ok(batch)
}

/// A uint64 child of the statistics.
fn uint64(array: &ArrayRef, name: &str) -> Result<UInt64Array, Failure> {
    if array.data_type() != &DataType::UInt64 {
        return Err(fail(
            Status::StatsLayout,
            format!(
                "`{name}` is {}, uint64 (format \"L\") is needed",
                array.data_type()
            ),
        ));
    }
    Ok(array.as_primitive::<UInt64Type>().clone())
}

/// `child` with the null entries of its parent struct as nulls too (a null
/// entry of a field's statistics struct: everything unknown).
fn with_parent_nulls(child: &ArrayRef, parent: &StructArray) -> Result<ArrayRef, ArrowError> {
    let Some(parent) = parent.nulls().filter(|n| n.null_count() > 0) else {
        return Ok(child.clone());
    };
    let valid = match child.nulls() {
        Some(own) => parent.inner() & own.inner(),
        None => parent.inner().clone(),
    };
    let data = child
        .to_data()
        .into_builder()
        .nulls(Some(valid.into()))
        .build()?;
    Ok(make_array(data))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ffi::bitbytes_last_error;
    use arrow_array::ffi::{to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
    use arrow_array::types::Int32Type;
    use arrow_array::{DictionaryArray, Int32Array, Int64Array, StringArray};
    use core::ffi::CStr;
    use core::ptr::{null, null_mut};

    fn leaf(index: usize, name: &str, ty: &str, function: &str, literals: &str) -> String {
        format!(
            r#"{{"kind":"LEAF","transform":{{"name":"FIELD_REF","fieldRef":{{"index":{index},"name":"{name}","type":"{ty}"}}}},"function":"{function}","literals":[{literals}]}}"#
        )
    }

    fn and(a: &str, b: &str) -> String {
        format!(r#"{{"kind":"COMPOUND","function":"AND","children":[{a},{b}]}}"#)
    }

    fn or(a: &str, b: &str) -> String {
        format!(r#"{{"kind":"COMPOUND","function":"OR","children":[{a},{b}]}}"#)
    }

    /// Three columns: x INT (nulls), s STRING, d a dictionary of STRING, and
    /// an unread column of a type the predicate never imports.
    fn batch() -> RecordBatch {
        let n = 40;
        let x: Int32Array = (0..n).map(|i| (i % 7 != 3).then_some(i * 3 % 17)).collect();
        let y: Int64Array = (0..n).map(|i| Some(i as i64)).collect();
        let s: StringArray = (0..n)
            .map(|i| {
                (i % 5 != 1).then(|| format!("{}{}", ["ab", "b", "abc", "z"][i as usize % 4], i))
            })
            .collect();
        let d: DictionaryArray<Int32Type> = (0..n)
            .map(|i| (i % 6 != 0).then_some(["red", "green", "blue"][i as usize % 3]))
            .collect();
        RecordBatch::try_from_iter([
            ("x", Arc::new(x) as ArrayRef),
            ("y", Arc::new(y) as ArrayRef),
            ("s", Arc::new(s) as ArrayRef),
            ("d", Arc::new(d) as ArrayRef),
        ])
        .unwrap()
    }

    pub(crate) fn export(batch: &RecordBatch) -> (FFI_ArrowArray, FFI_ArrowSchema) {
        to_ffi(&StructArray::from(batch.clone()).to_data()).unwrap()
    }

    pub(crate) fn c_array(a: &FFI_ArrowArray) -> *const ArrowArray {
        (a as *const FFI_ArrowArray).cast()
    }

    pub(crate) fn c_schema(s: &FFI_ArrowSchema) -> *const ArrowSchema {
        (s as *const FFI_ArrowSchema).cast()
    }

    pub(crate) fn parse(
        json: &str,
        schema: &FFI_ArrowSchema,
    ) -> Result<*mut BitbytesPredicate, (c_int, String)> {
        let mut p = null_mut();
        // SAFETY: live buffers and structs.
        let rc = unsafe {
            bitbytes_predicate_parse(json.as_ptr().cast(), json.len(), c_schema(schema), &mut p)
        };
        if rc == 0 {
            Ok(p)
        } else {
            Err((rc, last_error()))
        }
    }

    pub(crate) fn last_error() -> String {
        // SAFETY: a NUL-terminated thread-local string.
        unsafe { CStr::from_ptr(bitbytes_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    fn predicates() -> Vec<String> {
        let x_gt = leaf(0, "x", "INT", "GREATER_THAN", "5");
        let s_sw = leaf(2, "s", "STRING", "STARTS_WITH", r#""ab""#);
        let d_in = leaf(3, "d", "STRING", "IN", r#""red","blue""#);
        vec![
            x_gt.clone(),
            leaf(0, "x", "INT", "IS_NULL", ""),
            s_sw.clone(),
            d_in.clone(),
            leaf(3, "d", "STRING", "NOT_EQUAL", r#""green""#),
            and(&x_gt, &s_sw),
            or(
                &d_in,
                &and(&x_gt, &leaf(2, "s", "STRING", "LIKE", r#""%1%""#)),
            ),
        ]
    }

    /// Every call against bitbytes' own evaluation of the same batch, whole
    /// and sliced (offsets in the struct), and the caller's structs still
    /// owned afterwards.
    #[test]
    fn test_and_indices_agree_with_rust() {
        let whole = batch();
        for (offset, len) in [(0, 40), (3, 30), (11, 0), (39, 1)] {
            let b = whole.slice(offset, len);
            let (array, schema) = export(&b);
            for json in predicates() {
                let p = parse(&json, &schema).unwrap();
                let want = Predicate::from_paimon_json(&json, &b.schema())
                    .unwrap()
                    .test(&b)
                    .unwrap();
                let mut got = vec![7u8; len + 2];
                // SAFETY: live structs, `got` holds len + 2 bytes.
                let rc = unsafe {
                    bitbytes_predicate_test(
                        p,
                        c_array(&array),
                        c_schema(&schema),
                        got.as_mut_ptr(),
                        got.len(),
                    )
                };
                assert_eq!(rc, 0, "{json}: {}", last_error());
                assert_eq!(&got[..len], &want[..], "{json} at {offset}+{len}");
                assert_eq!(&got[len..], [7, 7]);
                let want_idx: Vec<u32> =
                    (0..len as u32).filter(|&i| want[i as usize] == 1).collect();
                let mut idx = vec![u32::MAX; want_idx.len()];
                let mut count = 99;
                // SAFETY: as above, with exactly `count` slots.
                let rc = unsafe {
                    bitbytes_predicate_test_indices(
                        p,
                        c_array(&array),
                        c_schema(&schema),
                        idx.as_mut_ptr(),
                        idx.len(),
                        &mut count,
                    )
                };
                assert_eq!(rc, 0, "{json}: {}", last_error());
                assert_eq!((count, &idx), (want_idx.len(), &want_idx));
                // SAFETY: a predicate of parse, freed once.
                unsafe { bitbytes_predicate_free(p) };
            }
            assert!(!array.is_released() && schema.release().is_some());
        }
    }

    /// One handle may serve many threads (bitbytes.h says so).
    #[test]
    fn the_handle_is_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<BitbytesPredicate>();
    }

    #[test]
    fn to_json_round_trips() {
        let (_, schema) = export(&batch());
        for json in predicates() {
            let p = parse(&json, &schema).unwrap();
            let (mut s, mut n) = (null_mut(), 0usize);
            // SAFETY: a live predicate and out-parameters.
            assert_eq!(unsafe { bitbytes_predicate_to_json(p, &mut s, &mut n) }, 0);
            // SAFETY: a NUL-terminated string of n bytes.
            let text = unsafe { CStr::from_ptr(s) }.to_str().unwrap().to_string();
            assert_eq!((text.as_str(), n), (json.as_str(), json.len()));
            // SAFETY: freed once each.
            unsafe {
                bitbytes_string_free(s);
                bitbytes_predicate_free(p);
            }
        }
        // SAFETY: NULL is allowed.
        unsafe {
            bitbytes_predicate_free(null_mut());
            bitbytes_string_free(null_mut());
        }
    }

    #[test]
    fn stats_agree_with_rust() {
        let mins: ArrayRef = Arc::new(Int32Array::from(vec![Some(0), Some(10), None, Some(20)]));
        let maxs: ArrayRef = Arc::new(Int32Array::from(vec![Some(9), Some(19), None, Some(29)]));
        let nulls = UInt64Array::from(vec![Some(0), Some(2), Some(0), None]);
        let x_fields = Fields::from(vec![
            Field::new("min", DataType::Int32, true),
            Field::new("max", DataType::Int32, true),
            Field::new("null_count", DataType::UInt64, true),
        ]);
        let x = StructArray::new(
            x_fields.clone(),
            vec![mins.clone(), maxs.clone(), Arc::new(nulls.clone())],
            None,
        );
        let rows = UInt64Array::from(vec![10, 10, 10, 10]);
        let stats = StructArray::new(
            Fields::from(vec![
                Field::new("row_count", DataType::UInt64, false),
                Field::new("x", DataType::Struct(x_fields), true),
            ]),
            vec![Arc::new(rows.clone()), Arc::new(x)],
            None,
        );
        let (array, schema) = to_ffi(&stats.to_data()).unwrap();
        let (_, batch_schema) = export(&batch());
        let rust = StatsBatch::new(rows)
            .with_column("x", ColumnStats::new(mins, maxs).with_null_counts(nulls))
            .unwrap();
        for json in [
            leaf(0, "x", "INT", "GREATER_THAN", "12"),
            leaf(0, "x", "INT", "LESS_THAN", "30"),
            leaf(0, "x", "INT", "IS_NULL", ""),
            and(
                &leaf(0, "x", "INT", "GREATER_THAN", "5"),
                &leaf(2, "s", "STRING", "EQUAL", r#""q""#),
            ),
        ] {
            let p = parse(&json, &batch_schema).unwrap();
            let want: Vec<u8> = Predicate::from_paimon_json(&json, &batch().schema())
                .unwrap()
                .test_stats(&rust)
                .unwrap()
                .iter()
                .map(|v| *v as u8)
                .collect();
            let mut got = [9u8; 5];
            // SAFETY: live structs and a 5-byte output.
            let rc = unsafe {
                bitbytes_predicate_test_stats(
                    p,
                    c_array(&array),
                    c_schema(&schema),
                    got.as_mut_ptr(),
                    5,
                )
            };
            assert_eq!(rc, 0, "{}", last_error());
            assert_eq!(&got[..4], &want[..], "{json}");
            assert_eq!(got[4], 9);
            // SAFETY: freed once.
            unsafe { bitbytes_predicate_free(p) };
        }
        assert!(!array.is_released());
    }

    /// Structs arrow-rs' importer would panic on or read out of bounds with
    /// are refused with a code, and nothing is written.
    #[test]
    fn broken_structs_are_errors() {
        let b = batch();
        let (array, schema) = export(&b);
        let p = parse(&leaf(2, "s", "STRING", "STARTS_WITH", r#""ab""#), &schema).unwrap();
        let run = |a: &ArrowArray, s: *const ArrowSchema| {
            let mut out = [7u8; 40];
            // SAFETY: live structs (possibly inconsistent: that is the test).
            let rc = unsafe { bitbytes_predicate_test(p, a, s, out.as_mut_ptr(), 40) };
            assert_eq!(out, [7; 40], "written on error {rc}");
            (rc, last_error())
        };
        // SAFETY: the exported struct as the C layout (same repr(C) struct).
        let base = unsafe { &*c_array(&array) };
        let shallow = |a: &ArrowArray| ArrowArray { ..*a };
        let column = |i: usize| {
            // SAFETY: the export has 4 children.
            unsafe { &**base.children.add(i) }
        };
        // The string column with n_buffers 2, a NULL child, a misaligned
        // offsets buffer, decreasing offsets.
        let mut s_col = shallow(column(2));
        s_col.n_buffers = 2;
        let mut kids: Vec<*mut ArrowArray> =
            (0..4).map(|i| column(i) as *const _ as *mut _).collect();
        kids[2] = &mut s_col;
        let mut top = shallow(base);
        top.children = kids.as_mut_ptr();
        let (rc, msg) = run(&top, c_schema(&schema));
        assert_eq!(rc, Status::ArrowStructure.code(), "{msg}");
        assert!(
            msg.contains("`s`") && msg.contains("n_buffers is 2"),
            "{msg}"
        );

        kids[2] = null_mut();
        let (rc, msg) = run(&top, c_schema(&schema));
        assert_eq!(rc, Status::ArrowStructure.code());
        assert!(msg.contains("child 2 is NULL"), "{msg}");

        let offsets: Vec<i32> = (0..=41).map(|i| if i == 20 { 1000 } else { i }).collect();
        let data = [b'a'; 64];
        let mut bufs: [*const core::ffi::c_void; 3] =
            [null(), offsets.as_ptr().cast(), data.as_ptr().cast()];
        let mut bad_offsets = shallow(column(2));
        bad_offsets.buffers = bufs.as_mut_ptr();
        bad_offsets.null_count = 0;
        kids[2] = &mut bad_offsets;
        let (rc, msg) = run(&top, c_schema(&schema));
        assert_eq!(rc, Status::ArrowData.code(), "{msg}");
        assert!(msg.contains("offset"), "{msg}");

        let misaligned = [0u8; 200];
        // SAFETY: `buffers` points to `bufs`, alive.
        unsafe { *bad_offsets.buffers.add(1) = misaligned[1..].as_ptr().cast() };
        let (rc, msg) = run(&top, c_schema(&schema));
        assert_eq!(rc, Status::ArrowStructure.code(), "{msg}");
        assert!(msg.contains("not aligned"), "{msg}");

        let mut released = shallow(base);
        released.release = None;
        assert_eq!(
            run(&released, c_schema(&schema)).0,
            Status::ArrowReleased.code()
        );
        let mut negative = shallow(base);
        negative.offset = -1;
        assert_eq!(
            run(&negative, c_schema(&schema)).0,
            Status::ArrowOffsetLength.code()
        );
        // The caller's struct is untouched, still owned, still usable.
        assert!(!array.is_released());
        let (rc, msg) = run(base, null());
        assert_eq!(rc, Status::NullArgument.code());
        assert!(msg.contains("schema is NULL"), "{msg}");
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }

    /// Input that arrow-rs' importer would have panicked on, read out of
    /// bounds for, or read wrong, and a batch too long for its answer: error
    /// codes naming the problem, before anything is allocated for the rows.
    #[test]
    fn input_arrow_rs_would_take_on_trust() {
        let b = batch();
        let (array, schema) = export(&b);
        // SAFETY: the exported structs as the C layout.
        let (base, base_schema) = unsafe { (&*c_array(&array), &*c_schema(&schema)) };
        let shallow = |a: &ArrowArray| ArrowArray { ..*a };
        let column = |i: usize| {
            // SAFETY: the export has 4 children.
            unsafe { &**base.children.add(i) }
        };
        let run = |p: *mut BitbytesPredicate, a: &ArrowArray, s: &ArrowSchema| {
            let mut out = [7u8; 40];
            // SAFETY: live structs (inconsistent on purpose), 40 bytes.
            let rc = unsafe { bitbytes_predicate_test(p, a, s, out.as_mut_ptr(), 40) };
            assert_eq!(out, [7; 40], "written on error {rc}");
            (rc, last_error())
        };
        let with_column = |i: usize, col: &mut ArrowArray, kids: &mut Vec<*mut ArrowArray>| {
            *kids = (0..4).map(|j| column(j) as *const _ as *mut _).collect();
            kids[i] = col;
            let mut top = shallow(base);
            top.children = kids.as_mut_ptr();
            top
        };
        let mut kids = Vec::new();

        // A null count with no validity buffer: not "no null". IS NULL is
        // answered in place, a comparison through the import: both refuse.
        for function in ["IS_NULL", "GREATER_THAN"] {
            let literals = if function == "IS_NULL" { "" } else { "5" };
            let p = parse(&leaf(0, "x", "INT", function, literals), &schema).unwrap();
            let mut x = shallow(column(0));
            assert!(x.null_count > 0);
            let mut bufs: [*const core::ffi::c_void; 2] =
                // SAFETY: the Int32 column has two buffers.
                [null(), unsafe { *x.buffers.add(1) }];
            x.buffers = bufs.as_mut_ptr();
            let top = with_column(0, &mut x, &mut kids);
            let (rc, msg) = run(p, &top, base_schema);
            assert_eq!(rc, Status::ArrowData.code(), "{function}: {msg}");
            assert!(msg.contains("validity buffer is NULL"), "{msg}");
            // A NULL values buffer: IS NULL reads none, but it is refused
            // as on every other path.
            let mut x = shallow(column(0));
            // SAFETY: the Int32 column has two buffers.
            bufs = [unsafe { *x.buffers }, null()];
            x.buffers = bufs.as_mut_ptr();
            let top = with_column(0, &mut x, &mut kids);
            let (rc, msg) = run(p, &top, base_schema);
            assert_eq!(rc, Status::ArrowStructure.code(), "{function}: {msg}");
            // SAFETY: freed once.
            unsafe { bitbytes_predicate_free(p) };
        }

        // Dictionary keys of a type that is not an integer (format "u").
        let p = parse(&leaf(3, "d", "STRING", "IN", r#""red""#), &schema).unwrap();
        let mut schema_kids: Vec<*mut ArrowSchema> = (0..4)
            // SAFETY: the schema has 4 children.
            .map(|i| unsafe { *base_schema.children.add(i) })
            .collect();
        // SAFETY: child 3 is live.
        // SAFETY: child 3 is live; a bitwise copy of a struct with no `Drop`.
        let mut d = unsafe { core::ptr::read(schema_kids[3]) };
        d.format = c"u".as_ptr();
        schema_kids[3] = &mut d;
        // SAFETY: as above.
        let mut top_schema = unsafe { core::ptr::read(base_schema) };
        top_schema.children = schema_kids.as_mut_ptr();
        let (rc, msg) = run(p, base, &top_schema);
        assert_eq!(rc, Status::ArrowStructure.code(), "{msg}");
        assert!(msg.contains("keys must be integers"), "{msg}");
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };

        // Types arrow-rs' importer panics on, checked before any buffer.
        let field = |t: DataType| Arc::new(Field::new("f", t, true));
        let int = column(1);
        for (t, what) in [
            (
                DataType::RunEndEncoded(field(DataType::Utf8), field(DataType::Int32)),
                "run ends",
            ),
            (DataType::Map(field(DataType::Int32), false), "two fields"),
            (
                DataType::FixedSizeList(field(DataType::Int32), -1),
                "negative size",
            ),
            (
                DataType::Dictionary(Box::new(DataType::Float64), Box::new(DataType::Utf8)),
                "keys must be integers",
            ),
        ] {
            // SAFETY: a live array (of another type: the type is refused first).
            let e = unsafe { crate::import::check_array(int, &t, &"f", 0) }.unwrap_err();
            assert_eq!(e.status, Status::ArrowStructure, "{t}");
            assert!(e.detail.contains(what), "{t}: {}", e.detail);
        }
        // Rows whose bits overflow a usize in the importer (2^58 Decimal128
        // rows: 2^65 bits), with no buffer needed to say so.
        let mut wide = shallow(int);
        wide.length = 1 << 58;
        let t = DataType::Decimal128(38, 0);
        // SAFETY: the check reads no buffer before refusing the length.
        let e = unsafe { crate::import::check_array(&wide, &t, &"f", 0) }.unwrap_err();
        assert!(e.detail.contains("do not fit in memory"), "{}", e.detail);

        // A batch of 2^50 rows and no column, for a predicate that reads
        // none: more rows than uint32_t indices address, refused before a
        // mask of 2^50 bytes is asked for (that would abort the process).
        let empty = RecordBatch::try_new_with_options(
            Arc::new(Schema::empty()),
            vec![],
            &arrow_array::RecordBatchOptions::new().with_row_count(Some(4)),
        )
        .unwrap();
        let (none_array, none_schema) = export(&empty);
        let json = r#"{"kind":"LEAF","transform":{"name":"NULL"},"function":"TRUE","literals":[]}"#;
        let p = parse(json, &none_schema).unwrap();
        // SAFETY: the export as the C layout.
        let mut huge = shallow(unsafe { &*c_array(&none_array) });
        huge.length = 1 << 50;
        let (mut out, mut count) = ([0u32; 4], 0usize);
        // SAFETY: live structs, 4 writable u32, a writable count.
        let rc = unsafe {
            bitbytes_predicate_test_indices(
                p,
                &huge,
                c_schema(&none_schema),
                out.as_mut_ptr(),
                4,
                &mut count,
            )
        };
        assert_eq!(rc, Status::IndexOverflow.code(), "{}", last_error());
        // And the bytes of 2^50 rows into 40: too short, said first.
        // SAFETY: the export as the C layout.
        let (rc, msg) = run(p, &huge, unsafe { &*c_schema(&none_schema) });
        assert_eq!(rc, Status::OutputTooShort.code(), "{msg}");
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }

    /// A schema whose children alias (each level's two children the same
    /// struct): the walk stops at a node budget, not after 2^40 visits.
    #[test]
    fn aliasing_schema_children_are_bounded() {
        let leaf_schema = Box::leak(Box::new(ArrowSchema {
            format: c"i".as_ptr(),
            name: c"x".as_ptr(),
            metadata: null(),
            flags: 2,
            n_children: 0,
            children: null_mut(),
            dictionary: null_mut(),
            release: Some(release_leaked),
            private_data: null_mut(),
        }));
        let mut node: *mut ArrowSchema = leaf_schema;
        for _ in 0..40 {
            let kids: &mut [*mut ArrowSchema; 2] = Box::leak(Box::new([node, node]));
            node = Box::leak(Box::new(ArrowSchema {
                format: c"+s".as_ptr(),
                name: c"x".as_ptr(),
                metadata: null(),
                flags: 2,
                n_children: 2,
                children: kids.as_mut_ptr(),
                dictionary: null_mut(),
                release: Some(release_leaked),
                private_data: null_mut(),
            }));
        }
        let json = leaf(0, "x", "INT", "IS_NULL", "");
        let mut p = null_mut();
        // SAFETY: a live schema (leaked for the test), the JSON's bytes.
        let rc =
            unsafe { bitbytes_predicate_parse(json.as_ptr().cast(), json.len(), node, &mut p) };
        assert_eq!(rc, Status::ArrowStructure.code(), "{}", last_error());
        assert!(last_error().contains("nodes"), "{}", last_error());
    }

    /// The release callback of the leaked test schemas: marks them released.
    unsafe extern "C" fn release_leaked(schema: *mut ArrowSchema) {
        // SAFETY: called with a live leaked schema.
        if let Some(s) = unsafe { schema.as_mut() } {
            s.release = None;
        }
    }

    /// Of the batch schema's children, those the predicate does not read are
    /// looked at only by name (a broken one is no error); one passed on the
    /// way to a read column must be live; a read one is checked in full.
    #[test]
    fn unread_schemas_are_passed_by_name_only() {
        let b = batch();
        let (array, schema) = export(&b);
        let p = parse(&leaf(2, "s", "STRING", "STARTS_WITH", r#""ab""#), &schema).unwrap();
        let mut want = [0u8; 40];
        // SAFETY: live structs and 40 writable bytes.
        let rc = unsafe {
            bitbytes_predicate_test(p, c_array(&array), c_schema(&schema), want.as_mut_ptr(), 40)
        };
        assert_eq!(rc, 0);
        // SAFETY: the exported schema as the C layout (same repr(C) struct).
        let base = unsafe { &*c_schema(&schema) };
        let child = |i: usize| {
            // SAFETY: the export has 4 children.
            ArrowSchema {
                ..*unsafe { &**base.children.add(i) }
            }
        };
        let run = |kids: &mut [ArrowSchema; 4]| {
            let mut ptrs: Vec<*mut ArrowSchema> = kids.iter_mut().map(|k| k as *mut _).collect();
            let top = ArrowSchema {
                children: ptrs.as_mut_ptr(),
                ..*base
            };
            let mut out = [7u8; 40];
            // SAFETY: live structs (possibly broken: that is the test).
            let rc =
                unsafe { bitbytes_predicate_test(p, c_array(&array), &top, out.as_mut_ptr(), 40) };
            (rc, out, last_error())
        };
        let fresh = || [child(0), child(1), child(2), child(3)];

        // Unread children with a NULL format, a non-UTF-8 name, a negative
        // n_children, or released after the read column: not looked at.
        let mut kids = fresh();
        kids[0].format = null();
        kids[1].name = c"\xff".as_ptr();
        kids[1].n_children = -3;
        kids[3].release = None;
        let (rc, out, msg) = run(&mut kids);
        assert_eq!(rc, 0, "{msg}");
        assert_eq!(out, want);

        // A released child before the read one: its name cannot be read.
        let mut kids = fresh();
        kids[1].release = None;
        let (rc, out, msg) = run(&mut kids);
        assert_eq!(rc, Status::ArrowReleased.code(), "{msg}");
        assert!(
            msg.contains("schema.child 1") && msg.contains("released"),
            "{msg}"
        );
        assert_eq!(out, [7; 40]);

        // The read child is checked in full.
        let mut kids = fresh();
        kids[2].format = null();
        let (rc, out, msg) = run(&mut kids);
        assert_eq!(rc, Status::ArrowStructure.code(), "{msg}");
        assert!(
            msg.contains("schema.child 2") && msg.contains("format is NULL"),
            "{msg}"
        );
        assert_eq!(out, [7; 40]);
        let mut kids = fresh();
        kids[2].n_children = -1;
        let (rc, _, msg) = run(&mut kids);
        assert_eq!(rc, Status::ArrowStructure.code(), "{msg}");
        assert!(msg.contains("n_children is -1"), "{msg}");

        // A column the schema does not have, by name.
        let mut kids = fresh();
        kids[2].name = c"t".as_ptr();
        let (rc, _, msg) = run(&mut kids);
        assert_eq!(rc, Status::SchemaMismatch.code(), "{msg}");
        assert!(msg.contains("field `s`"), "{msg}");
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }

    /// An all-null string_view column with no data buffer and a NULL
    /// variadic-sizes buffer (how Arrow C++ 19 exports it) is a valid import;
    /// a NULL sizes buffer next to a data buffer is not.
    #[test]
    fn all_null_views_with_a_null_sizes_buffer() {
        use arrow_array::StringViewArray;
        let n = 9;
        let v: ArrayRef = Arc::new(StringViewArray::from(vec![None::<&str>; n]));
        let x: ArrayRef = Arc::new(Int32Array::from((0..n as i32).collect::<Vec<_>>()));
        let b = RecordBatch::try_from_iter([("x", x), ("v", v)]).unwrap();
        let (array, schema) = export(&b);
        // SAFETY: the exported struct as the C layout (same repr(C) struct).
        let base = unsafe { &*c_array(&array) };
        // SAFETY: the export has 2 children.
        let view = unsafe { &**base.children.add(1) };
        assert_eq!(view.n_buffers, 3, "validity, views, sizes: no data buffer");
        // SAFETY: 3 buffers.
        let mut bufs: Vec<*const core::ffi::c_void> =
            (0..3).map(|i| unsafe { *view.buffers.add(i) }).collect();
        bufs[2] = null();
        let mut col = ArrowArray { ..*view };
        col.buffers = bufs.as_mut_ptr();
        // The batch with `col` as its view column.
        let run = |json: &str, col: &mut ArrowArray| {
            let mut kids: Vec<*mut ArrowArray> = vec![
                // SAFETY: the export has 2 children.
                unsafe { *base.children },
                col,
            ];
            let mut top = ArrowArray { ..*base };
            top.children = kids.as_mut_ptr();
            let top = &top;
            let p = parse(json, &schema).unwrap();
            let mut out = vec![7u8; n];
            // SAFETY: live structs, `out` holds n bytes.
            let rc =
                unsafe { bitbytes_predicate_test(p, top, c_schema(&schema), out.as_mut_ptr(), n) };
            // SAFETY: freed once.
            unsafe { bitbytes_predicate_free(p) };
            (rc, out, last_error())
        };
        for (json, want) in [
            (leaf(1, "v", "STRING", "IS_NULL", ""), 1),
            (leaf(1, "v", "STRING", "IS_NOT_NULL", ""), 0),
            (leaf(1, "v", "STRING", "STARTS_WITH", r#""a""#), 0),
            (
                or(
                    &leaf(0, "x", "INT", "GREATER_THAN", "4"),
                    &leaf(1, "v", "STRING", "EQUAL", r#""q""#),
                ),
                2,
            ),
        ] {
            let (rc, out, msg) = run(&json, &mut col);
            assert_eq!(rc, 0, "{json}: {msg}");
            let want: Vec<u8> = (0..n)
                .map(|i| if want == 2 { u8::from(i > 4) } else { want })
                .collect();
            assert_eq!(out, want, "{json}");
        }
        // One data buffer (declared by n_buffers 4) with a NULL sizes buffer:
        // the size cannot be read.
        let data = [b'a'; 16];
        let mut four = [bufs[0], bufs[1], data.as_ptr().cast(), null()];
        col.n_buffers = 4;
        col.buffers = four.as_mut_ptr();
        let (rc, out, msg) = run(&leaf(1, "v", "STRING", "IS_NULL", ""), &mut col);
        assert_eq!(rc, Status::ArrowStructure.code(), "{msg}");
        assert!(
            msg.contains("variadic buffer sizes") && msg.contains("NULL"),
            "{msg}"
        );
        assert_eq!(out, vec![7; n]);
        assert!(!array.is_released());
    }

    /// The string checks of `validate.rs` through the C entry point: invalid
    /// UTF-8, an offset inside a character and decreasing offsets are
    /// ARROW_DATA naming the column, nothing written; a column sliced past
    /// its bad bytes (its own offset) passes.
    #[test]
    fn string_data_errors_through_the_c_entry_point() {
        let s: ArrayRef = Arc::new(StringArray::from(vec!["ab", "é€", "cd", "xy"]));
        let x: ArrayRef = Arc::new(Int32Array::from(vec![1, 2, 3, 4]));
        let b = RecordBatch::try_from_iter([("x", x), ("s", s)]).unwrap();
        let (array, schema) = export(&b);
        let p = parse(&leaf(1, "s", "STRING", "STARTS_WITH", r#""c""#), &schema).unwrap();
        // SAFETY: the exported struct as the C layout (same repr(C) struct).
        let base = unsafe { &*c_array(&array) };
        // SAFETY: the export has 2 children.
        let col = unsafe { &**base.children.add(1) };
        assert_eq!(col.n_buffers, 3);
        let good_offsets = [0i32, 2, 7, 9, 11];
        let good_data = "abé€cdxy".as_bytes().to_vec();
        // `s` over these offsets and bytes, the column at `col_offset` with
        // `rows` rows (the batch too).
        let run = |offsets: &[i32], data: &[u8], col_offset: i64, rows: i64| {
            // SAFETY: 3 buffers (checked above).
            let validity = unsafe { *col.buffers };
            let mut bufs = [validity, offsets.as_ptr().cast(), data.as_ptr().cast()];
            let mut s_col = ArrowArray { ..*col };
            s_col.buffers = bufs.as_mut_ptr();
            s_col.offset = col_offset;
            s_col.length = rows;
            let mut kids: Vec<*mut ArrowArray> = vec![
                // SAFETY: the export has 2 children.
                unsafe { *base.children },
                &mut s_col,
            ];
            let mut top = ArrowArray { ..*base };
            top.children = kids.as_mut_ptr();
            top.length = rows;
            let mut out = vec![7u8; rows as usize];
            // SAFETY: live structs, `out` holds `rows` bytes.
            let rc = unsafe {
                bitbytes_predicate_test(p, &top, c_schema(&schema), out.as_mut_ptr(), out.len())
            };
            (rc, out, last_error())
        };
        assert_eq!(run(&good_offsets, &good_data, 0, 4).0, 0);
        let mut bad_data = good_data.clone();
        bad_data[4] = 0xFF; // the second byte of "é"
        let (rc, out, msg) = run(&good_offsets, &bad_data, 0, 4);
        assert_eq!(rc, Status::ArrowData.code(), "{msg}");
        assert!(
            msg.contains("`s`") && msg.contains("Invalid UTF8 sequence at string index 1"),
            "{msg}"
        );
        assert_eq!(out, [7; 4]);
        // Offset 2 at 5, inside "€" (bytes 4..7): valid bytes, split strings.
        let (rc, out, msg) = run(&[0, 2, 5, 9, 11], &good_data, 0, 4);
        assert_eq!(rc, Status::ArrowData.code(), "{msg}");
        assert!(msg.contains("inside a multi-byte character"), "{msg}");
        assert_eq!(out, [7; 4]);
        let (rc, _, msg) = run(&[0, 2, 10, 9, 11], &good_data, 0, 4);
        assert_eq!(rc, Status::ArrowData.code(), "{msg}");
        assert!(msg.contains("non-monotonic offsets"), "{msg}");
        // The column sliced to "cd", "xy": the bad byte is out of its range.
        let (rc, out, msg) = run(&good_offsets, &bad_data, 2, 2);
        assert_eq!(rc, 0, "{msg}");
        assert_eq!(out, [1, 0]);
        assert!(!array.is_released());
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }

    /// A batch column whose format differs from the parse-time one: another
    /// type is a schema mismatch, the same values under a dictionary are
    /// read (the format fast path of `import_batch` is not taken for either).
    #[test]
    fn batch_types_other_than_the_parse_time_ones() {
        let n = 12;
        let plain = |x: ArrayRef| RecordBatch::try_from_iter([("x", x)]).unwrap();
        let parse_time = plain(Arc::new(Int32Array::from_iter_values(0..n)));
        let (_, schema) = export(&parse_time);
        let json = leaf(0, "x", "INT", "GREATER_THAN", "5");
        let p = parse(&json, &schema).unwrap();
        let run = |b: &RecordBatch| {
            let (array, schema) = export(b);
            let mut out = vec![7u8; n as usize];
            // SAFETY: live structs, `out` holds n bytes.
            let rc = unsafe {
                bitbytes_predicate_test(
                    p,
                    c_array(&array),
                    c_schema(&schema),
                    out.as_mut_ptr(),
                    out.len(),
                )
            };
            (rc, out, last_error())
        };
        let want: Vec<u8> = (0..n).map(|i| u8::from(i > 5)).collect();
        assert_eq!(run(&parse_time), (0, want.clone(), last_error()));
        let wider = plain(Arc::new(Int64Array::from_iter_values(0..n as i64)));
        let (rc, out, msg) = run(&wider);
        assert_eq!(rc, Status::SchemaMismatch.code(), "{msg}");
        assert!(msg.contains("Int64") && msg.contains("Int32"), "{msg}");
        assert_eq!(out, vec![7; n as usize]);
        let keys = Int32Array::from_iter_values((0..n).rev());
        let values: ArrayRef = Arc::new(Int32Array::from_iter_values((0..n).rev()));
        let dict = DictionaryArray::<Int32Type>::try_new(keys, values).unwrap();
        let (rc, out, msg) = run(&plain(Arc::new(dict)));
        assert_eq!(rc, 0, "{msg}");
        assert_eq!(out, want);
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }

    #[test]
    fn parse_errors_name_the_problem() {
        let (_, schema) = export(&batch());
        let (rc, msg) = parse("{\"kind\":", &schema).unwrap_err();
        assert_eq!(rc, Status::Json.code());
        assert!(msg.contains("malformed JSON"), "{msg}");
        let (rc, msg) = parse(&leaf(0, "nope", "INT", "IS_NULL", ""), &schema).unwrap_err();
        assert_eq!(rc, Status::Json.code());
        assert!(msg.contains("nope"), "{msg}");
        let (int_array, int_schema) = to_ffi(&Int32Array::from(vec![1]).to_data()).unwrap();
        drop(int_array);
        let (rc, msg) = parse(&leaf(0, "x", "INT", "IS_NULL", ""), &int_schema).unwrap_err();
        assert_eq!(rc, Status::ArrowStructure.code());
        assert!(msg.contains("struct schema"), "{msg}");
    }
}
