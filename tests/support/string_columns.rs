//! String columns in every layout the string kernels read, built from plain
//! `Option<String>` rows, and the row-by-row oracle over `&str`. Included by
//! path from tests/arrow_string_kernels.rs, tests/arrow_in.rs and the
//! `strings` / `strings_chunks` fuzz targets (fuzz/fuzz_targets/strings_check.rs).
//!
//! Utf8 and LargeUtf8 are assembled by hand from exact `Vec`s (offsets and
//! values of exactly the size the rows need, no slack), as a buffer imported
//! through the C Data Interface may be; Utf8View spreads its out-of-line
//! strings over several small data buffers, or holds them back to back in
//! one.
#![allow(dead_code)]

use arrow_array::builder::StringViewBuilder;
use arrow_array::types::{Int32Type, Int8Type};
use arrow_array::{
    ArrayRef, DictionaryArray, GenericStringArray, Int32Array, Int8Array, OffsetSizeTrait, RunArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use bitbytes::arrow::StringMatch;
use std::collections::HashMap;
use std::sync::Arc;

/// `test(row, lit)` over plain strings: `None` for a null row.
pub fn oracle(test: StringMatch, row: Option<&str>, lit: &str) -> Option<bool> {
    Some(test.matches(row?.as_bytes(), lit.as_bytes()))
}

/// The value type of a column: through dictionaries and run-end encodings.
pub fn value_type(column: &dyn arrow_array::Array) -> &arrow_schema::DataType {
    let mut t = column.data_type();
    loop {
        match t {
            arrow_schema::DataType::Dictionary(_, v) => t = v,
            arrow_schema::DataType::RunEndEncoded(_, v) => t = v.data_type(),
            _ => return t,
        }
    }
}

/// The literals as an array of `column`'s value type (a string or binary
/// layout).
pub fn literals_of(column: &dyn arrow_array::Array, list: &[Option<String>]) -> ArrayRef {
    use arrow_array::{
        BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
        StringViewArray,
    };
    use arrow_schema::DataType;
    let strs: Vec<Option<&str>> = list.iter().map(|s| s.as_deref()).collect();
    let bytes: Vec<Option<&[u8]>> = strs.iter().map(|s| s.map(str::as_bytes)).collect();
    match value_type(column) {
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(strs)),
        DataType::Utf8View => Arc::new(StringViewArray::from(strs)),
        DataType::Binary => Arc::new(BinaryArray::from(bytes)),
        DataType::LargeBinary => Arc::new(LargeBinaryArray::from(bytes)),
        DataType::BinaryView => Arc::new(BinaryViewArray::from(bytes)),
        _ => Arc::new(StringArray::from(strs)),
    }
}

/// Utf8 (`O = i32`) or LargeUtf8 (`O = i64`) from exact buffers.
pub fn exact<O: OffsetSizeTrait>(rows: &[Option<String>]) -> GenericStringArray<O> {
    let mut offsets: Vec<O> = Vec::with_capacity(rows.len() + 1);
    let total: usize = rows.iter().flatten().map(String::len).sum();
    let mut values: Vec<u8> = Vec::with_capacity(total);
    offsets.push(O::usize_as(0));
    for r in rows {
        if let Some(s) = r {
            values.extend_from_slice(s.as_bytes());
        }
        offsets.push(O::usize_as(values.len()));
    }
    values.shrink_to_fit();
    assert_eq!(values.len(), total);
    let nulls = NullBuffer::from_iter(rows.iter().map(Option::is_some));
    let nulls = (nulls.null_count() > 0).then_some(nulls);
    GenericStringArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Buffer::from_vec(values),
        nulls,
    )
    .expect("valid string array")
}

/// Utf8View with out-of-line strings over data buffers of at most 64 bytes.
pub fn view(rows: &[Option<String>]) -> ArrayRef {
    let mut b = StringViewBuilder::new().with_fixed_block_size(64);
    for r in rows {
        b.append_option(r.as_deref());
    }
    Arc::new(b.finish())
}

/// Utf8View with every out-of-line string in one data buffer, back to back
/// in row order (as a builder writes a small column); the buffer's length
/// is what they need (its allocation may be larger).
pub fn view_one_buffer(rows: &[Option<String>]) -> ArrayRef {
    let total: usize = rows.iter().flatten().map(String::len).sum();
    let mut b = StringViewBuilder::new().with_fixed_block_size(total.max(1) as u32);
    for r in rows {
        b.append_option(r.as_deref());
    }
    Arc::new(b.finish())
}

/// Dictionary(Int32, values) of the rows: each distinct string once, plus a
/// null value; null rows alternate between a null key and a key of the null
/// value.
pub fn dictionary(rows: &[Option<String>], values: fn(&[Option<String>]) -> ArrayRef) -> ArrayRef {
    let mut distinct: Vec<Option<String>> = Vec::new();
    let mut index: HashMap<&str, i32> = HashMap::new();
    for s in rows.iter().flatten() {
        index.entry(s.as_str()).or_insert_with(|| {
            distinct.push(Some(s.clone()));
            distinct.len() as i32 - 1
        });
    }
    let null_value = distinct.len() as i32;
    distinct.push(None);
    let keys: Int32Array = rows
        .iter()
        .enumerate()
        .map(|(i, r)| match r {
            Some(s) => Some(index[s.as_str()]),
            None if i % 2 == 0 => None,
            None => Some(null_value),
        })
        .collect();
    Arc::new(DictionaryArray::<Int32Type>::new(keys, values(&distinct)))
}

/// Run-end encoded (Int32 ends) over Utf8 values, one run per row.
pub fn run_end(rows: &[Option<String>]) -> ArrayRef {
    let ends = Int32Array::from_iter_values(1..=rows.len() as i32);
    Arc::new(RunArray::try_new(&ends, &exact::<i32>(rows)).expect("valid run array"))
}

/// A small dictionary with Int8 keys, for rows of few distinct values.
pub fn small_dictionary(rows: &[Option<String>]) -> Option<ArrayRef> {
    let mut distinct: Vec<&str> = rows.iter().flatten().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() > 100 {
        return None;
    }
    let keys: Int8Array = rows
        .iter()
        .map(|r| {
            r.as_deref()
                .map(|s| distinct.binary_search(&s).expect("present") as i8)
        })
        .collect();
    let values = GenericStringArray::<i32>::from_iter_values(distinct);
    Some(Arc::new(DictionaryArray::<Int8Type>::new(
        keys,
        Arc::new(values),
    )))
}

/// Every layout of the rows, named.
pub fn layouts(rows: &[Option<String>]) -> Vec<(&'static str, ArrayRef)> {
    let mut out: Vec<(&'static str, ArrayRef)> = vec![
        ("Utf8", Arc::new(exact::<i32>(rows))),
        ("LargeUtf8", Arc::new(exact::<i64>(rows))),
        ("Utf8View", view(rows)),
        ("Utf8View (one buffer)", view_one_buffer(rows)),
        (
            "Dictionary(Int32, Utf8)",
            dictionary(rows, |v| Arc::new(exact::<i32>(v))),
        ),
        ("Dictionary(Int32, Utf8View)", dictionary(rows, view)),
        ("RunEndEncoded(Int32, Utf8)", run_end(rows)),
    ];
    if let Some(d) = small_dictionary(rows) {
        out.push(("Dictionary(Int8, Utf8)", d));
    }
    out
}

/// The Like pattern that reduces to `test` of `lit` (escaping `%`, `_`, `\`).
pub fn like_pattern(test: StringMatch, lit: &str) -> String {
    let mut e = String::new();
    for c in lit.chars() {
        if matches!(c, '%' | '_' | '\\') {
            e.push('\\');
        }
        e.push(c);
    }
    match test {
        StringMatch::Equal => e,
        StringMatch::StartsWith => format!("{e}%"),
        StringMatch::EndsWith => format!("%{e}"),
        StringMatch::Contains => format!("%{e}%"),
    }
}
