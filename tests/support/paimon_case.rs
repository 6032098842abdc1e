//! Reads the Paimon oracle's case format (`../shared/paimon-oracle/README.md`,
//! committed cases under `tests/data/paimon/`): a schema of Paimon types and
//! rows as JSON values, turned into an Arrow `RecordBatch`, plus Paimon's
//! answers for it.
//!
//! Written apart from the crate's JSON literal reader on purpose: the values
//! here follow the oracle's encodings (DATE as days or ISO, TIMESTAMP as
//! epoch millis, `{"millis", "nanos"}` or ISO, floats as `"NaN"` / raw bits,
//! strings as text or `{"hex"}`), and a test that reused the code under test
//! to build its input could not catch that code's mistakes.

#![allow(dead_code)]

use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Decimal128Builder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, Int8Builder,
};
use arrow_array::types::Int32Type;
use arrow_array::{
    Array, ArrayRef, Date32Array, DictionaryArray, LargeStringArray, ListArray, RecordBatch,
    RecordBatchOptions, StringArray, StringViewArray, Time32MillisecondArray,
    TimestampMicrosecondArray, TimestampMillisecondArray, TimestampNanosecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use bitbytes::arrow::{PaimonType, PaimonTypeRoot};
use serde_json::Value;
use std::sync::Arc;

/// One case line and Paimon's answer line.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's id (`<group>/<nnnn>-<what>`).
    pub id: String,
    /// The whole case object (bare `NaN` / `Infinity` number tokens read as
    /// the strings `"NaN"` / `"Infinity"`, see [`quote_non_finite`]).
    pub case: Value,
    /// Paimon's answer object.
    pub expected: Value,
    /// The case line as written.
    pub line: String,
    /// The answer line as written.
    pub expected_line: String,
}

impl Case {
    /// The predicate JSON text of the case, exactly as written, except that
    /// bare `NaN` / `Infinity` / `-Infinity` number tokens (which only the
    /// oracle's lenient mapper reads) become the strings Paimon writes for
    /// them.
    pub fn predicate_text(&self) -> String {
        quote_non_finite(&raw_field(&self.line, "predicate").expect("case has a predicate"))
    }

    /// The Paimon types of the schema, in order.
    pub fn paimon_types(&self) -> Result<Vec<PaimonType>, String> {
        self.case["schema"]
            .as_array()
            .expect("schema array")
            .iter()
            .map(|f| paimon_type(&f["type"]))
            .collect()
    }

    /// The raw text of a field of Paimon's answer (`"json"`, `"negate"`).
    pub fn expected_raw(&self, name: &str) -> Option<String> {
        raw_field(&self.expected_line, name)
    }
}

/// Reads `<group>.cases.jsonl` and `<group>.expected.jsonl` from
/// `tests/data/paimon/`, pairing lines by order (and checking their ids).
pub fn read_cases(group: &str) -> Vec<Case> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/paimon/");
    let cases = std::fs::read_to_string(format!("{dir}{group}.cases.jsonl"))
        .unwrap_or_else(|e| panic!("{group}.cases.jsonl: {e}"));
    let expected = std::fs::read_to_string(format!("{dir}{group}.expected.jsonl"))
        .unwrap_or_else(|e| panic!("{group}.expected.jsonl: {e}"));
    let cases: Vec<&str> = cases.lines().filter(|l| !l.trim().is_empty()).collect();
    let expected: Vec<&str> = expected.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        cases.len(),
        expected.len(),
        "{group}: cases and answers differ in count"
    );
    cases
        .iter()
        .zip(&expected)
        .map(|(c, e)| {
            let case: Value = serde_json::from_str(&quote_non_finite(c)).expect("case line");
            let answer: Value = serde_json::from_str(e).expect("answer line");
            assert_eq!(case["id"], answer["id"], "{group}: ids out of order");
            let id = match &case["id"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Case {
                id,
                case,
                expected: answer,
                line: c.to_string(),
                expected_line: e.to_string(),
            }
        })
        .collect()
}

/// `text` with every bare `NaN`, `Infinity` and `-Infinity` token outside
/// strings replaced by the JSON string of the same name.
pub fn quote_non_finite(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'"' {
            let end = string_end(bytes, i);
            out.push_str(&text[i..end]);
            i = end;
            continue;
        }
        let token = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|t| text[i..].starts_with(t));
        match token {
            Some(t) => {
                out.push('"');
                out.push_str(t);
                out.push('"');
                i += t.len();
            }
            None => {
                let c = text[i..].chars().next().expect("char");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// The exact source text of the top-level field `name` of a JSON object
/// line (so a test hands the parser the bytes Paimon's oracle read).
pub fn raw_field(line: &str, name: &str) -> Option<String> {
    // A small scanner: find `"name":` at depth 1, then take the value up to
    // its matching end, skipping strings.
    let bytes = line.as_bytes();
    let key = format!("\"{name}\"");
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                if depth == 1 && line[i..].starts_with(&key) {
                    let mut j = i + key.len();
                    while bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if bytes[j] == b':' {
                        j += 1;
                        while bytes[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        let end = value_end(bytes, j);
                        return Some(line[j..end].to_string());
                    }
                }
                i = string_end(bytes, i);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while bytes[i] != b'"' {
        if bytes[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}

fn value_end(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0i32;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = string_end(bytes, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// A schema entry's Paimon type: a type string or `{"type": "ARRAY",
/// "element": ...}` (`"ARRAY NOT NULL"` for a non-nullable array). An
/// error for a type string the crate does not parse (the case then expects
/// the crate to reject it).
pub fn paimon_type(v: &Value) -> Result<PaimonType, String> {
    match v {
        Value::String(s) => s.parse().map_err(|e| format!("type {s}: {e}")),
        Value::Object(o) => {
            let root = o["type"].as_str().ok_or("nested type without a name")?;
            let upper = root.trim().to_ascii_uppercase();
            let (name, nullable) = match upper.strip_suffix("NOT NULL") {
                Some(rest) => (rest.trim_end().to_string(), false),
                None => (upper, true),
            };
            if name != "ARRAY" {
                return Err(format!("unsupported nested type {v}"));
            }
            Ok(PaimonType {
                root: PaimonTypeRoot::Array(Box::new(paimon_type(&o["element"])?)),
                nullable,
            })
        }
        other => Err(format!("bad type {other}")),
    }
}

/// How string columns are laid out in the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringLayout {
    /// `Utf8`.
    Utf8,
    /// `LargeUtf8`.
    LargeUtf8,
    /// `Utf8View`.
    Utf8View,
    /// `Dictionary(Int32, Utf8)`.
    Dictionary,
}

/// The Arrow type this reader gives a Paimon type (strings as Utf8).
pub fn arrow_type(t: &PaimonType) -> DataType {
    use PaimonTypeRoot as R;
    match &t.root {
        R::Boolean => DataType::Boolean,
        R::TinyInt => DataType::Int8,
        R::SmallInt => DataType::Int16,
        R::Int => DataType::Int32,
        R::BigInt => DataType::Int64,
        R::Float => DataType::Float32,
        R::Double => DataType::Float64,
        R::Decimal { precision, scale } => DataType::Decimal128(*precision, *scale as i8),
        R::Char(_) | R::VarChar(_) => DataType::Utf8,
        R::Binary(_) | R::VarBinary(_) => DataType::Binary,
        R::Date => DataType::Date32,
        R::Time(_) => DataType::Time32(TimeUnit::Millisecond),
        R::Timestamp(p) => DataType::Timestamp(unit(*p), None),
        R::TimestampLtz(p) => DataType::Timestamp(unit(*p), Some("UTC".into())),
        R::Array(e) => DataType::List(Arc::new(Field::new("item", arrow_type(e), true))),
    }
}

fn unit(precision: u8) -> TimeUnit {
    match precision {
        0..=3 => TimeUnit::Millisecond,
        4..=6 => TimeUnit::Microsecond,
        _ => TimeUnit::Nanosecond,
    }
}

/// The case's rows as a batch (string columns in `layout`), or why the
/// crate cannot represent its schema.
pub fn batch(case: &Value, layout: StringLayout) -> Result<RecordBatch, String> {
    let schema = case["schema"].as_array().expect("schema");
    let rows: Vec<&Vec<Value>> = case["rows"]
        .as_array()
        .map(|r| r.iter().map(|row| row.as_array().expect("row")).collect())
        .unwrap_or_default();
    let mut fields = Vec::new();
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (i, f) in schema.iter().enumerate() {
        let t = paimon_type(&f["type"])?;
        let values: Vec<&Value> = rows.iter().map(|r| &r[i]).collect();
        let column = column(&t, &values, layout);
        fields.push(Field::new(
            f["name"].as_str().expect("name"),
            column.data_type().clone(),
            t.nullable,
        ));
        columns.push(column);
    }
    let schema = Arc::new(Schema::new(fields));
    let options = RecordBatchOptions::new().with_row_count(Some(rows.len()));
    Ok(RecordBatch::try_new_with_options(schema, columns, &options).expect("batch"))
}

/// One column of `values` of Paimon type `t`.
pub fn column(t: &PaimonType, values: &[&Value], layout: StringLayout) -> ArrayRef {
    use PaimonTypeRoot as R;
    let null = |v: &Value| v.is_null();
    match &t.root {
        R::Boolean => {
            let mut b = BooleanBuilder::new();
            values.iter().for_each(|v| b.append_option(v.as_bool()));
            Arc::new(b.finish())
        }
        R::TinyInt => {
            let mut b = Int8Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| integral(v) as i8)));
            Arc::new(b.finish())
        }
        R::SmallInt => {
            let mut b = Int16Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| integral(v) as i16)));
            Arc::new(b.finish())
        }
        R::Int => {
            let mut b = Int32Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| integral(v) as i32)));
            Arc::new(b.finish())
        }
        R::BigInt => {
            let mut b = Int64Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| integral(v))));
            Arc::new(b.finish())
        }
        R::Float => {
            let mut b = Float32Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| to_f32(v))));
            Arc::new(b.finish())
        }
        R::Double => {
            let mut b = Float64Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| to_f64(v))));
            Arc::new(b.finish())
        }
        R::Decimal { precision, scale } => {
            let mut b = Decimal128Builder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| decimal(v, *scale))));
            Arc::new(
                b.finish()
                    .with_precision_and_scale(*precision, *scale as i8)
                    .expect("decimal type"),
            )
        }
        R::Char(_) | R::VarChar(_) => {
            let strings: Vec<Option<String>> = values
                .iter()
                .map(|v| (!null(v)).then(|| string(v)))
                .collect();
            string_column(&strings, layout)
        }
        R::Binary(_) | R::VarBinary(_) => {
            let mut b = BinaryBuilder::new();
            values
                .iter()
                .for_each(|v| b.append_option((!null(v)).then(|| hex(v.as_str().expect("hex")))));
            Arc::new(b.finish())
        }
        R::Date => Arc::new(Date32Array::from(
            values
                .iter()
                .map(|v| {
                    (!null(v)).then(|| match v {
                        Value::String(s) => days_from_iso(s),
                        _ => integral(v) as i32,
                    })
                })
                .collect::<Vec<_>>(),
        )),
        R::Time(_) => Arc::new(Time32MillisecondArray::from(
            values
                .iter()
                .map(|v| (!null(v)).then(|| integral(v) as i32))
                .collect::<Vec<_>>(),
        )),
        R::Timestamp(p) | R::TimestampLtz(p) => {
            let tz = matches!(t.root, R::TimestampLtz(_)).then(|| "UTC".to_string());
            let nanos: Vec<Option<i128>> = values
                .iter()
                .map(|v| (!null(v)).then(|| timestamp_nanos(v)))
                .collect();
            let array: ArrayRef = match unit(*p) {
                TimeUnit::Millisecond => Arc::new(
                    TimestampMillisecondArray::from(
                        nanos
                            .iter()
                            .map(|n| n.map(|n| n.div_euclid(1_000_000) as i64))
                            .collect::<Vec<_>>(),
                    )
                    .with_timezone_opt(tz),
                ),
                TimeUnit::Microsecond => Arc::new(
                    TimestampMicrosecondArray::from(
                        nanos
                            .iter()
                            .map(|n| n.map(|n| n.div_euclid(1_000) as i64))
                            .collect::<Vec<_>>(),
                    )
                    .with_timezone_opt(tz),
                ),
                _ => Arc::new(
                    TimestampNanosecondArray::from(
                        nanos
                            .iter()
                            .map(|n| n.map(|n| n as i64))
                            .collect::<Vec<_>>(),
                    )
                    .with_timezone_opt(tz),
                ),
            };
            array
        }
        R::Array(element) => list_column(element, values, layout),
    }
}

fn list_column(element: &PaimonType, values: &[&Value], layout: StringLayout) -> ArrayRef {
    // Build the flat child column once, then offsets over it.
    let mut flat: Vec<&Value> = Vec::new();
    let mut lengths: Vec<Option<usize>> = Vec::new();
    for v in values {
        match v {
            Value::Array(items) => {
                lengths.push(Some(items.len()));
                flat.extend(items.iter());
            }
            _ => lengths.push(None),
        }
    }
    let child = column(element, &flat, layout);
    let offsets = OffsetBuffer::from_lengths(lengths.iter().map(|l| l.unwrap_or(0)));
    let nulls = NullBuffer::from(lengths.iter().map(Option::is_some).collect::<Vec<_>>());
    let field = Arc::new(Field::new(
        "item",
        child.data_type().clone(),
        element.nullable,
    ));
    Arc::new(ListArray::new(field, offsets, child, Some(nulls)))
}

/// Strings in the given layout.
pub fn string_column(strings: &[Option<String>], layout: StringLayout) -> ArrayRef {
    let refs: Vec<Option<&str>> = strings.iter().map(|s| s.as_deref()).collect();
    match layout {
        StringLayout::Utf8 => Arc::new(StringArray::from(refs)),
        StringLayout::LargeUtf8 => Arc::new(LargeStringArray::from(refs)),
        StringLayout::Utf8View => Arc::new(StringViewArray::from(refs)),
        StringLayout::Dictionary => {
            Arc::new(refs.into_iter().collect::<DictionaryArray<Int32Type>>())
        }
    }
}

fn integral(v: &Value) -> i64 {
    match v {
        Value::Number(n) => n.as_i64().unwrap_or_else(|| panic!("integer {n}")),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("integer {s}")),
        other => panic!("integer {other}"),
    }
}

fn to_f64(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().expect("f64"),
        Value::String(s) => {
            let s = s.trim();
            if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                f64::from_bits(u64::from_str_radix(h, 16).expect("hex bits"))
            } else if s == "-NaN" {
                f64::from_bits(0xfff8000000000000)
            } else if s == "+NaN" || s == "NaN" {
                f64::NAN
            } else {
                s.parse().unwrap_or_else(|_| panic!("double {s}"))
            }
        }
        other => panic!("double {other}"),
    }
}

fn to_f32(v: &Value) -> f32 {
    match v {
        // Java: Float.parseFloat of the number's text (rounds once).
        Value::Number(n) => n.to_string().parse().expect("f32"),
        Value::String(s) => {
            let s = s.trim();
            if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                f32::from_bits(u32::from_str_radix(h, 16).expect("hex bits"))
            } else if s == "-NaN" {
                f32::from_bits(0xffc00000)
            } else if s == "+NaN" || s == "NaN" {
                f32::NAN
            } else {
                s.parse().unwrap_or_else(|_| panic!("float {s}"))
            }
        }
        other => panic!("float {other}"),
    }
}

fn string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => String::from_utf8(hex(o["hex"].as_str().expect("hex")))
            .expect("valid UTF-8 in test data"),
        other => panic!("string {other}"),
    }
}

fn hex(s: &str) -> Vec<u8> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// An exact decimal string (or integer) as an unscaled i128 at `scale`.
fn decimal(v: &Value, scale: u8) -> i128 {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("decimal {other}"),
    };
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d.to_string()),
        None => (false, text.trim_start_matches('+').to_string()),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    assert!(
        frac.len() <= scale as usize,
        "decimal {text} has more than {scale} digits"
    );
    let mut unscaled: i128 = 0;
    for c in int.chars().chain(frac.chars()) {
        unscaled = unscaled * 10 + c.to_digit(10).expect("digit") as i128;
    }
    for _ in frac.len()..scale as usize {
        unscaled *= 10;
    }
    if negative {
        -unscaled
    } else {
        unscaled
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn days_from_iso(s: &str) -> i32 {
    let parts: Vec<i64> = s
        .split('-')
        .map(|p| p.parse().expect("date part"))
        .collect();
    days_from_civil(parts[0], parts[1], parts[2]) as i32
}

/// Nanoseconds since the epoch of the oracle's TIMESTAMP encodings.
fn timestamp_nanos(v: &Value) -> i128 {
    match v {
        Value::Number(_) => integral(v) as i128 * 1_000_000,
        Value::Object(o) => {
            integral(&o["millis"]) as i128 * 1_000_000
                + o.get("nanos").map(integral).unwrap_or(0) as i128
        }
        Value::String(s) => {
            // YYYY-MM-DDTHH:MM[:SS[.fraction]]
            let (date, time) = s.split_once('T').expect("ISO date-time");
            let days = days_from_iso(date) as i128;
            let mut t = time.split(':');
            let h: i128 = t.next().unwrap().parse().unwrap();
            let mi: i128 = t.next().unwrap().parse().unwrap();
            let (sec, frac) = match t.next() {
                Some(sf) => match sf.split_once('.') {
                    Some((s, f)) => (s.parse::<i128>().unwrap(), f.to_string()),
                    None => (sf.parse::<i128>().unwrap(), String::new()),
                },
                None => (0, String::new()),
            };
            let mut nanos: i128 = 0;
            for c in frac.chars().chain("000000000".chars()).take(9) {
                nanos = nanos * 10 + c.to_digit(10).unwrap() as i128;
            }
            ((days * 86_400 + h * 3600 + mi * 60 + sec) * 1_000_000_000) + nanos
        }
        other => panic!("timestamp {other}"),
    }
}

/// The min or the max (`which`) of field `i` over the case's statistics
/// entries, as a column of the field's type in `layout` (a dictionary
/// field's statistics have the dictionary's value type).
pub fn stats_column(
    case: &Value,
    i: usize,
    which: &str,
    layout: StringLayout,
) -> Result<ArrayRef, String> {
    let t = paimon_type(&case["schema"][i]["type"])?;
    let entries = case["stats"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let values: Vec<&Value> = entries.iter().map(|s| &s[which][i]).collect();
    let layout = match layout {
        StringLayout::Dictionary => StringLayout::Utf8,
        other => other,
    };
    Ok(column(&t, &values, layout))
}

/// The row counts of the case's statistics entries.
pub fn stats_row_counts(case: &Value) -> Vec<u64> {
    let entries = case["stats"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    entries
        .iter()
        .map(|s| s["rowCount"].as_u64().expect("rowCount"))
        .collect()
}

/// The null counts of field `i` over the case's statistics entries (`None`:
/// unknown).
pub fn stats_null_counts(case: &Value, i: usize) -> Vec<Option<u64>> {
    let entries = case["stats"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    entries
        .iter()
        .map(|s| s["nullCounts"].get(i).and_then(Value::as_u64))
        .collect()
}
