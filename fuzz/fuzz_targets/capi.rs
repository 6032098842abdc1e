//! The C ABI's predicate calls (`bitbytes_predicate_test` and
//! `bitbytes_predicate_test_indices`) on record batches built by hand from
//! the input, the way a C producer would: an Int32 column `x`, a Utf8
//! column `s` and a dictionary column `d` (Int8 keys over Utf8 values), each
//! with its own offset and length, a validity bitmap or none, a null count
//! that is right, unknown (-1), 0 (no null: the bitmap is not read) or
//! wrong, string offsets that are sometimes out of order or past the data,
//! bytes that are sometimes not UTF-8, keys sometimes out of range, and a
//! batch offset and length. Every buffer is exactly as long as the C Data
//! Interface requires (no padding: AddressSanitizer sees a read past it),
//! which is all the caller promises (`bitbytes.h`).
//!
//! Checked against arrow-rs' validating `ArrayData::try_new` and bitbytes'
//! `Predicate::test_into` on the same data:
//! - where arrow-rs refuses a column the predicate reads, its null count
//!   contradicts its bitmap, or it is shorter than the batch, both calls
//!   fail (no panic code) and write nothing;
//! - otherwise both succeed: the mask is the Rust one, the indices are its
//!   selected rows, and nothing past them is written.
#![no_main]

use arrow_array::{make_array, new_empty_array, ArrayRef, RecordBatch};
use arrow_buffer::Buffer;
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Schema};
use bitbytes::arrow::Predicate;
use bitbytes_capi::arrow::{ArrowArray, ArrowSchema};
use bitbytes_capi::status::Status;
use bitbytes_capi::{
    bitbytes_last_error, bitbytes_predicate_free, bitbytes_predicate_parse,
    bitbytes_predicate_test, bitbytes_predicate_test_indices,
};
use core::ffi::{c_char, c_void};
use core::ptr::{null, null_mut};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// The input, read a byte at a time (0 once it is used up).
struct Input<'a>(core::slice::Iter<'a, u8>);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        self.0.next().copied().unwrap_or(0)
    }
    fn below(&mut self, n: u8) -> usize {
        usize::from(self.byte() % n)
    }
}

/// Strings are spelt from these pieces (multi-byte ones included, so that a
/// wrong offset can fall inside a character).
const PIECES: [&str; 6] = ["a", "b", "ab", "é", "中", "abc"];

fn spell(input: &mut Input, n: usize) -> String {
    (0..n)
        .map(|_| PIECES[input.below(PIECES.len() as u8)])
        .collect()
}

unsafe extern "C" fn release_schema(_: *mut ArrowSchema) {}
unsafe extern "C" fn release_array(_: *mut ArrowArray) {}

/// One hand-built column: its buffers (owned, exact sizes), the pointers the
/// `ArrowArray` points to, and what arrow-rs makes of the same bytes.
struct Column {
    /// Keeps the buffers alive (their pointers are in `pointers`).
    _owned: Vec<Owned>,
    pointers: Box<[*const c_void]>,
    /// The dictionary's values, for `d`.
    dictionary: Option<Box<Column>>,
    array: ArrowArray,
    /// arrow-rs' validated array, or why there is none: it refuses the
    /// bytes, or the null count contradicts the bitmap.
    reference: Result<ArrayRef, String>,
}

/// A buffer of one of the element types (each allocation exactly its size
/// and aligned for its type).
enum Owned {
    Bytes(Box<[u8]>),
    Ints(Box<[i32]>),
    Keys(Box<[i8]>),
}

impl Owned {
    fn pointer(&self) -> *const c_void {
        match self {
            Owned::Bytes(b) => b.as_ptr().cast(),
            Owned::Ints(b) => b.as_ptr().cast(),
            Owned::Keys(b) => b.as_ptr().cast(),
        }
    }
    fn buffer(&self) -> Buffer {
        match self {
            Owned::Bytes(b) => Buffer::from_slice_ref(b),
            Owned::Ints(b) => Buffer::from_slice_ref(b),
            Owned::Keys(b) => Buffer::from_slice_ref(b),
        }
    }
}

/// A validity bitmap for rows `[0, end)` (or none), and the null count the
/// producer reports with it; the bitmap arrow-rs gets (none when the
/// producer says 0 nulls: the bitmap is then not read) and whether the
/// report contradicts the bitmap.
fn validity(
    input: &mut Input,
    offset: usize,
    len: usize,
) -> (Option<Owned>, i64, Option<Buffer>, bool) {
    let end = offset + len;
    if input.byte() % 3 == 0 {
        // No bitmap: no null, whatever is reported (0 or unknown).
        return (
            None,
            if input.byte() % 2 == 0 { 0 } else { -1 },
            None,
            false,
        );
    }
    let bits: Box<[u8]> = (0..end.div_ceil(8)).map(|_| input.byte() | 0x11).collect();
    let nulls = (offset..end)
        .filter(|&i| bits[i / 8] >> (i % 8) & 1 == 0)
        .count() as i64;
    let reported = match input.byte() % 8 {
        0 => -1,
        1 => 0,
        2 => nulls + 1,
        3 if nulls > 0 => nulls - 1,
        _ => nulls,
    };
    let reference = (reported != 0).then(|| Buffer::from_slice_ref(&bits));
    // A bitmap of no bytes (no row at all) has nothing to contradict.
    let wrong = end > 0 && reported != -1 && reported != 0 && reported != nulls;
    (Some(Owned::Bytes(bits)), reported, reference, wrong)
}

fn array(len: usize, offset: usize, null_count: i64, pointers: &mut [*const c_void]) -> ArrowArray {
    ArrowArray {
        length: len as i64,
        null_count,
        offset: offset as i64,
        n_buffers: pointers.len() as i64,
        n_children: 0,
        buffers: pointers.as_mut_ptr(),
        children: null_mut(),
        dictionary: null_mut(),
        release: Some(release_array),
        private_data: null_mut(),
    }
}

/// arrow-rs' fully validated array of these parts, sliced as the batch.
fn reference(
    data_type: DataType,
    len: usize,
    offset: usize,
    nulls: Option<Buffer>,
    buffers: Vec<Buffer>,
    children: Vec<ArrayData>,
) -> Result<ArrayRef, String> {
    ArrayData::try_new(data_type, len, nulls, offset, buffers, children)
        .map(make_array)
        .map_err(|e| e.to_string())
}

/// `reference`, or an error when the producer's null count is wrong.
fn unless_wrong(reference: Result<ArrayRef, String>, wrong: bool) -> Result<ArrayRef, String> {
    if wrong {
        return Err("the null count contradicts the bitmap".into());
    }
    reference
}

/// The Int32 column `x`.
fn int_column(input: &mut Input, len: usize) -> Column {
    let offset = input.below(9);
    let (bits, null_count, nulls, wrong) = validity(input, offset, len);
    let values: Box<[i32]> = (0..offset + len)
        .map(|_| i32::from(input.byte() as i8))
        .collect();
    let values = Owned::Ints(values);
    let reference = reference(
        DataType::Int32,
        len,
        offset,
        nulls,
        vec![values.buffer()],
        vec![],
    );
    Column::new(
        bits,
        vec![values],
        len,
        offset,
        null_count,
        unless_wrong(reference, wrong),
    )
}

/// A Utf8 array of `len` rows after `offset`: its offsets (sometimes one
/// of them wrong) and data (sometimes a byte that breaks UTF-8), the data
/// exactly as long as the last offset says.
fn string_parts(input: &mut Input, offset: usize, len: usize, corrupt: bool) -> (Owned, Owned) {
    let mut text = String::new();
    let mut offsets = vec![0i32];
    for _ in 0..offset + len {
        let n = input.below(4);
        text.push_str(&spell(input, n));
        offsets.push(text.len() as i32);
    }
    let mut data = text.into_bytes();
    if corrupt && input.byte() % 4 == 0 {
        let i = input.below(offsets.len() as u8 + 1).min(offsets.len() - 1);
        offsets[i] += i32::from(input.byte() as i8 % 4);
    }
    if corrupt && !data.is_empty() && input.byte() % 4 == 0 {
        let i = usize::from(input.byte()) % data.len();
        data[i] = [0xff, 0x80, 0xc3][input.below(3)];
    }
    // The caller's promise: as many data bytes as the last offset says.
    let last = usize::try_from(offsets[offset + len]).unwrap_or(0);
    data.resize(last, b'a');
    (
        Owned::Ints(offsets.into_boxed_slice()),
        Owned::Bytes(data.into_boxed_slice()),
    )
}

/// The Utf8 column `s`.
fn string_column(input: &mut Input, len: usize) -> Column {
    let offset = input.below(9);
    let (bits, null_count, nulls, wrong) = validity(input, offset, len);
    let (offsets, data) = string_parts(input, offset, len, true);
    let buffers = vec![offsets.buffer(), data.buffer()];
    let reference = reference(DataType::Utf8, len, offset, nulls, buffers, vec![]);
    Column::new(
        bits,
        vec![offsets, data],
        len,
        offset,
        null_count,
        unless_wrong(reference, wrong),
    )
}

/// The dictionary column `d`: Int8 keys (sometimes out of range) over a
/// valid Utf8 dictionary of 0 to 4 strings.
fn dictionary_column(input: &mut Input, len: usize) -> Column {
    let values_len = input.below(5);
    let (offsets, data) = string_parts(input, 0, values_len, false);
    let values_data = reference(
        DataType::Utf8,
        values_len,
        0,
        None,
        vec![offsets.buffer(), data.buffer()],
        vec![],
    )
    .expect("valid by construction")
    .to_data();
    let values = Column::new(
        None,
        vec![offsets, data],
        values_len,
        0,
        0,
        Err("not a column".into()),
    );
    let offset = input.below(9);
    let (bits, null_count, nulls, wrong) = validity(input, offset, len);
    let keys: Box<[i8]> = (0..offset + len)
        .map(|_| input.byte() as i8 % (values_len as i8 + 2))
        .collect();
    let keys = Owned::Keys(keys);
    let data_type = DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8));
    let reference = reference(
        data_type,
        len,
        offset,
        nulls,
        vec![keys.buffer()],
        vec![values_data],
    );
    let mut column = Column::new(
        bits,
        vec![keys],
        len,
        offset,
        null_count,
        unless_wrong(reference, wrong),
    );
    column.dictionary = Some(Box::new(values));
    column
}

impl Column {
    fn new(
        validity: Option<Owned>,
        buffers: Vec<Owned>,
        len: usize,
        offset: usize,
        null_count: i64,
        reference: Result<ArrayRef, String>,
    ) -> Column {
        let mut pointers: Box<[*const c_void]> = [validity.as_ref().map_or(null(), Owned::pointer)]
            .into_iter()
            .chain(buffers.iter().map(Owned::pointer))
            .collect();
        let array = array(len, offset, null_count, &mut pointers);
        Column {
            _owned: validity.into_iter().chain(buffers).collect(),
            pointers,
            dictionary: None,
            array,
            reference,
        }
    }

    /// The `ArrowArray`, its dictionary linked.
    fn link(&mut self) -> *mut ArrowArray {
        self.array.buffers = self.pointers.as_mut_ptr();
        if let Some(d) = &mut self.dictionary {
            self.array.dictionary = d.link();
        }
        &mut self.array
    }
}

fn schema(format: &'static [u8], name: &'static [u8]) -> ArrowSchema {
    ArrowSchema {
        format: format.as_ptr().cast::<c_char>(),
        name: name.as_ptr().cast::<c_char>(),
        metadata: null(),
        flags: 2, // nullable
        n_children: 0,
        children: null_mut(),
        dictionary: null_mut(),
        release: Some(release_schema),
        private_data: null_mut(),
    }
}

/// This thread's `bitbytes_last_error`.
fn last_error() -> String {
    // SAFETY: a NUL-terminated thread-local string.
    unsafe { core::ffi::CStr::from_ptr(bitbytes_last_error()) }
        .to_string_lossy()
        .into_owned()
}

const X: &str = r#"{"name":"FIELD_REF","fieldRef":{"index":0,"name":"x","type":"INT"}}"#;
const S: &str = r#"{"name":"FIELD_REF","fieldRef":{"index":1,"name":"s","type":"STRING"}}"#;
const D: &str = r#"{"name":"FIELD_REF","fieldRef":{"index":2,"name":"d","type":"STRING"}}"#;

fn leaf(field: &str, function: &str, literals: &str) -> String {
    format!(
        r#"{{"kind":"LEAF","transform":{field},"function":"{function}","literals":[{literals}]}}"#
    )
}

fn compound(function: &str, a: &str, b: &str) -> String {
    format!(r#"{{"kind":"COMPOUND","function":"{function}","children":[{a},{b}]}}"#)
}

/// A predicate from the input, and the columns it reads (`x`, `s`, `d`).
fn predicate(input: &mut Input) -> (String, [bool; 3]) {
    let k = i32::from(input.byte() as i8);
    let n = input.below(4);
    let lit = format!("{:?}", spell(input, n));
    let n = input.below(4);
    let other = format!("{:?}", spell(input, n));
    let j = i32::from(input.byte() as i8);
    match input.below(10) {
        0 => (
            leaf(X, "GREATER_THAN", &k.to_string()),
            [true, false, false],
        ),
        1 => (leaf(X, "IS_NULL", ""), [true, false, false]),
        2 => (leaf(S, "STARTS_WITH", &lit), [false, true, false]),
        3 => (leaf(S, "EQUAL", &lit), [false, true, false]),
        4 => (
            leaf(D, "IN", &format!("{lit},{other}")),
            [false, false, true],
        ),
        // Every string leaf the borrowed path runs.
        5 => {
            let f = [
                "CONTAINS",
                "ENDS_WITH",
                "NOT_EQUAL",
                "NOT_STARTS_WITH",
                "NOT_ENDS_WITH",
                "NOT_CONTAINS",
            ][input.below(6)];
            (leaf(S, f, &lit), [false, true, false])
        }
        6 => (
            compound(
                "AND",
                &leaf(X, "GREATER_THAN", &k.to_string()),
                &leaf(S, "STARTS_WITH", &lit),
            ),
            [true, true, false],
        ),
        7 => (
            compound(
                "OR",
                &leaf(D, "EQUAL", &lit),
                &leaf(X, "LESS_THAN", &k.to_string()),
            ),
            [true, false, true],
        ),
        // Leaves the borrowed path of `bitbytes_predicate_test` runs
        // (comparisons, [NOT] BETWEEN, [NOT] IN, null tests under AND /
        // OR).
        8 => {
            let f = ["BETWEEN", "NOT_BETWEEN", "IN", "NOT_IN"][input.below(4)];
            let lits = match (f.ends_with("IN"), input.below(4)) {
                // Five literals (a set, past IN_HASH_MIN_LITERALS), or
                // with a null (NOT IN's then goes the general path).
                (true, 0) => format!("{k},{j},{},{},{}", k + 1, j - 1, k ^ j),
                (true, 1) => format!("{k},null,{j}"),
                _ => format!("{k},{j}"),
            };
            (leaf(X, f, &lits), [true, false, false])
        }
        _ => (
            compound(
                "OR",
                &leaf(X, "LESS_OR_EQUAL", &k.to_string()),
                &compound(
                    "AND",
                    &leaf(X, "IS_NOT_NULL", ""),
                    &leaf(X, "NOT_EQUAL", &j.to_string()),
                ),
            ),
            [true, false, false],
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data.iter());
    let rows = input.below(41);
    let batch_offset = input.below(4);
    // A column shorter than the batch needs is an error.
    let len = |input: &mut Input| {
        (batch_offset + rows + input.below(3)).saturating_sub(usize::from(input.byte() % 16 == 0))
    };
    let (lx, ls, ld) = (len(&mut input), len(&mut input), len(&mut input));
    let (json, reads) = predicate(&mut input);
    let mut columns = [
        int_column(&mut input, lx),
        string_column(&mut input, ls),
        dictionary_column(&mut input, ld),
    ];

    let names = ["x", "s", "d"];
    let types = [
        DataType::Int32,
        DataType::Utf8,
        DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
    ];
    let full = Schema::new(
        names
            .iter()
            .zip(&types)
            .map(|(n, t)| Field::new(*n, t.clone(), true))
            .collect::<Vec<_>>(),
    );
    let rust = Predicate::from_paimon_json(&json, &full).expect("the fuzz target's JSON parses");

    // The C structs: the batch schema, then the batch.
    let mut dictionary_schema = schema(b"u\0", b"\0");
    let mut children_schemas = [
        schema(b"i\0", b"x\0"),
        schema(b"u\0", b"s\0"),
        schema(b"c\0", b"d\0"),
    ];
    children_schemas[2].dictionary = &mut dictionary_schema;
    let mut schema_children: Vec<*mut ArrowSchema> =
        children_schemas.iter_mut().map(|s| s as *mut _).collect();
    let mut batch_schema = schema(b"+s\0", b"\0");
    batch_schema.n_children = 3;
    batch_schema.children = schema_children.as_mut_ptr();
    let mut array_children: Vec<*mut ArrowArray> = columns.iter_mut().map(Column::link).collect();
    let mut batch_buffers = [null::<c_void>()];
    let mut batch = array(rows, batch_offset, 0, &mut batch_buffers);
    batch.n_children = 3;
    batch.children = array_children.as_mut_ptr();

    let mut handle = null_mut();
    // SAFETY: live JSON bytes, schema and out-parameter.
    let rc = unsafe {
        bitbytes_predicate_parse(json.as_ptr().cast(), json.len(), &batch_schema, &mut handle)
    };
    assert_eq!(rc, 0, "{json}");

    // What arrow-rs and bitbytes' Rust API make of the columns read.
    let mut fields = Vec::new();
    let mut read = Vec::new();
    let mut invalid = Vec::new();
    let mut may_refuse = false;
    for (i, column) in columns.iter().enumerate() {
        if !reads[i] {
            continue;
        }
        // A column of no rows is not read, so not checked beyond its
        // structure (`import::import`; which refuses, say, a negative last
        // offset): it may pass where arrow-rs refuses it.
        let empty = Ok(new_empty_array(&types[i]));
        let reference = if column.array.length == 0 {
            may_refuse |= column.reference.is_err();
            &empty
        } else {
            &column.reference
        };
        match reference {
            Ok(a) if a.len() >= batch_offset + rows => {
                fields.push(Field::new(names[i], types[i].clone(), true));
                read.push(a.slice(batch_offset, rows));
            }
            Ok(a) => invalid.push(format!(
                "{}: {} rows, shorter than the batch",
                names[i],
                a.len()
            )),
            Err(e) => invalid.push(format!("{}: {e}", names[i])),
        }
    }
    let want = invalid.is_empty().then(|| {
        let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), read)
            .expect("columns of the batch's length");
        let mut out = vec![0u8; rows];
        rust.test_into(&batch, &mut out).map(|()| out)
    });

    let spare = 3;
    let mut out = vec![7u8; rows + spare];
    // SAFETY: live structs whose buffers hold what the spec promises, and
    // `out.len()` writable bytes.
    let rc = unsafe {
        bitbytes_predicate_test(handle, &batch, &batch_schema, out.as_mut_ptr(), out.len())
    };
    let mut indices = vec![u32::MAX; rows + spare];
    let mut count = usize::MAX;
    // SAFETY: as above, `indices.len()` writable slots and a count.
    let rc_indices = unsafe {
        bitbytes_predicate_test_indices(
            handle,
            &batch,
            &batch_schema,
            indices.as_mut_ptr(),
            indices.len(),
            &mut count,
        )
    };
    let refused = || {
        assert!(
            rc < 0 && rc != Status::Panic.code(),
            "{json}: accepted an invalid batch ({rc}): {invalid:?}"
        );
        assert!(out.iter().all(|&b| b == 7), "written on error");
        assert!(
            rc_indices < 0 && rc_indices != Status::Panic.code(),
            "{json}: indices accepted an invalid batch"
        );
        assert!(
            indices.iter().all(|&i| i == u32::MAX) && count == usize::MAX,
            "written on error"
        );
    };
    match want {
        Some(Ok(_)) if may_refuse && rc != 0 => refused(),
        Some(Ok(mask)) => {
            assert_eq!(rc, 0, "{json}: refused a valid batch: {}", last_error());
            assert_eq!(&out[..rows], &mask[..], "{json}");
            assert!(out[rows..].iter().all(|&b| b == 7), "written past the rows");
            assert_eq!(rc_indices, 0, "{json}");
            let selected: Vec<u32> = (0..rows as u32)
                .filter(|&i| mask[i as usize] == 1)
                .collect();
            assert_eq!(count, selected.len(), "{json}");
            assert_eq!(&indices[..count], &selected[..], "{json}");
            assert!(
                indices[count..].iter().all(|&i| i == u32::MAX),
                "written past the count"
            );
        }
        Some(Err(e)) => {
            assert_eq!(rc, Status::Predicate.code(), "{json}: Rust failed with {e}");
            assert_eq!(
                rc_indices,
                Status::Predicate.code(),
                "{json}: Rust failed with {e}"
            );
        }
        None => refused(),
    }
    // SAFETY: freed once.
    unsafe { bitbytes_predicate_free(handle) };
    // The caller still owns every struct: nothing was released.
    assert!(batch.release.is_some() && batch_schema.release.is_some());
});
