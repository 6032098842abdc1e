//! Random predicates for Paimon's predicate JSON, decoded from bytes: trees
//! (And / Or of one to three children, depth at most 3) of every leaf
//! function ([`Function::ALL`]) over every transform (Field, Cast, Upper,
//! Lower, Concat, ConcatWs, Substring, Trim, Null), over a fixed schema of
//! many types ([`schema`]), with literals from small per-type domains of
//! edge values (type limits, `-0.0`, NaN, infinities, subnormals, 38-digit
//! decimals, far dates and timestamps, unicode and control characters) and
//! nulls; and a batch of that schema whose rows come from the same domains,
//! so that the leaves select something.
//!
//! Used by the round-trip proptest (tests/json_props.rs) and the `json` fuzz
//! target (fuzz/fuzz_targets/json.rs). Included by path
//! (`#[path = ".../tests/support/json_gen.rs"]`).
#![allow(dead_code)]

use arrow_array::new_empty_array;
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, DictionaryArray,
    FixedSizeBinaryArray, FixedSizeListArray, Float32Array, Float64Array, Int16Array, Int32Array,
    Int64Array, Int8Array, LargeListArray, LargeStringArray, ListArray, RecordBatch,
    RecordBatchOptions, StringArray, StringViewArray, Time32MillisecondArray,
    Time64NanosecondArray, TimestampMicrosecondArray, TimestampMillisecondArray,
    TimestampNanosecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use bitbytes::arrow::{
    FieldRef, Function, Leaf, PaimonType, PositionInput, Predicate, Transform, TransformInput,
    TrimSide,
};
use std::sync::Arc;

/// Bytes read one at a time; 0 once exhausted.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }
    pub fn next(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.next()) % n
    }
    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }
}

/// Strings of the domain: empty, case pairs whose mappings change length
/// (`ß`, `ǅ`, `İ`, `ﬃ`), CJK, a supplementary code point, spaces to trim,
/// JSON escapes and control characters, Like's wildcards and an escaped
/// backslash (every string is a valid Like pattern), texts that CAST reads as
/// numbers, booleans, dates and times.
pub const STRINGS: [&str; 24] = [
    "",
    "a",
    "ab",
    "AB",
    "abc",
    "Straße",
    "ǅ",
    "İi",
    "ﬃ",
    "中文",
    "😀x",
    " a ",
    "a\"b\\\\c\n\u{1}\u{7f}\u{2028}",
    "%_",
    "a\\_c",
    "AB%",
    "x-y",
    "123",
    "-7",
    "1.50",
    "true",
    "2024-01-15",
    "10:20:30.5",
    "2024-01-15 10:20:30.123",
];

const BINARIES: [&[u8]; 5] = [b"", b"\0", b"\xff\xfe", b"abc", b"\x00\x7f\x80"];
const FIXED: [&[u8]; 3] = [b"abc", b"\0\0\0", b"\xff\x00\x01"];

/// The non-nullable column (its default Paimon type says `NOT NULL`).
const NOT_NULL: &str = "l";

/// The columns of [`schema`]: one of each integer, float, decimal, string,
/// binary and temporal layout, lists, a dictionary; and `f0`..`f3` of
/// Paimon's `PredicateJsonSerdeTest`.
pub fn schema() -> SchemaRef {
    let item = |t: DataType| Arc::new(Field::new("item", t, true));
    let fields = [
        ("b", DataType::Boolean),
        ("t8", DataType::Int8),
        ("t16", DataType::Int16),
        ("i", DataType::Int32),
        ("l", DataType::Int64),
        ("f", DataType::Float32),
        ("d", DataType::Float64),
        ("dec", DataType::Decimal128(38, 10)),
        ("dec2", DataType::Decimal128(10, 2)),
        ("s", DataType::Utf8),
        ("ls", DataType::LargeUtf8),
        ("sv", DataType::Utf8View),
        (
            "ds",
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        ),
        ("bin", DataType::Binary),
        ("fbin", DataType::FixedSizeBinary(3)),
        ("day", DataType::Date32),
        ("tm", DataType::Time32(TimeUnit::Millisecond)),
        ("tn", DataType::Time64(TimeUnit::Nanosecond)),
        ("ts", DataType::Timestamp(TimeUnit::Microsecond, None)),
        (
            "tz",
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
        ),
        ("ai", DataType::List(item(DataType::Int32))),
        ("as", DataType::LargeList(item(DataType::Utf8))),
        ("af", DataType::FixedSizeList(item(DataType::Float64), 2)),
        ("f0", DataType::Int32),
        ("f1", DataType::Utf8),
        ("f2", DataType::Utf8),
        ("f3", DataType::Int32),
    ];
    Arc::new(Schema::new(
        fields
            .into_iter()
            .map(|(name, t)| Field::new(name, t, name != NOT_NULL))
            .collect::<Vec<_>>(),
    ))
}

fn is_string(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Dictionary(..)
    )
}

fn is_list(t: &DataType) -> bool {
    matches!(
        t,
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..)
    )
}

/// A value of the domain of `t` for each pick (`None`: null). The float
/// edge values are written as Java prints them (more digits than needed).
#[allow(clippy::excessive_precision)]
pub fn values(t: &DataType, picks: &[Option<u8>]) -> ArrayRef {
    fn pick<T: Copy>(domain: &[T], picks: &[Option<u8>]) -> Vec<Option<T>> {
        picks
            .iter()
            .map(|p| p.map(|k| domain[usize::from(k) % domain.len()]))
            .collect()
    }
    let strings = pick(&STRINGS, picks);
    let scaled = |per_second: i64| -> Vec<i64> {
        // 1970, just before it, 2024-01-15T10:20:30.123456789, 0001-01-01,
        // 9999-12-31T23:59:59, the far years past 9999, the type's limits.
        let seconds: [i64; 5] = [0, -1, 1_705_314_030, -62_135_596_800, 253_402_300_799];
        let mut v: Vec<i64> = seconds
            .iter()
            .map(|s| s.saturating_mul(per_second))
            .collect();
        v.push(1_705_314_030 * per_second + 123_456_789 / (1_000_000_000 / per_second));
        v.push(300_000_000_000 * per_second.min(1_000_000));
        v.extend([i64::MIN, i64::MAX, 1]);
        v
    };
    match t {
        DataType::Boolean => Arc::new(BooleanArray::from(pick(&[false, true], picks))),
        DataType::Int8 => Arc::new(Int8Array::from(pick(
            &[i8::MIN, -1, 0, 1, 44, i8::MAX],
            picks,
        ))),
        DataType::Int16 => Arc::new(Int16Array::from(pick(
            &[i16::MIN, -300, 0, 1, 300, i16::MAX],
            picks,
        ))),
        DataType::Int32 => Arc::new(Int32Array::from(pick(
            &[i32::MIN, -7, 0, 1, 10, 11, 123, i32::MAX],
            picks,
        ))),
        DataType::Int64 => Arc::new(Int64Array::from(pick(
            &[i64::MIN, -7, 0, 1, 10, 11, 1 << 53, i64::MAX],
            picks,
        ))),
        DataType::Float32 => Arc::new(Float32Array::from(pick(
            &[
                -0.0,
                0.0,
                1.5,
                0.1,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::MAX,
                f32::MIN_POSITIVE,
                1e-45,
                9.671_406_5e24,
                16_777_216.0,
            ],
            picks,
        ))),
        DataType::Float64 => Arc::new(Float64Array::from(pick(
            &[
                -0.0,
                0.0,
                1.5,
                0.1,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::MAX,
                4.9e-324,
                1e23,
                1e10,
                1.878_984_439_875_973_9e18,
                -123.0,
            ],
            picks,
        ))),
        DataType::Decimal128(p, s) => {
            let max = 10i128.pow(u32::from(*p)) - 1;
            let domain = [0, 1, -1, 150, max, -max, max / 7, 12_345 % max];
            Arc::new(
                Decimal128Array::from(pick(&domain, picks))
                    .with_precision_and_scale(*p, *s)
                    .unwrap(),
            )
        }
        DataType::Utf8 => Arc::new(StringArray::from(strings)),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(strings)),
        DataType::Utf8View => Arc::new(StringViewArray::from(strings)),
        DataType::Dictionary(..) => {
            Arc::new(strings.into_iter().collect::<DictionaryArray<Int32Type>>())
        }
        DataType::Binary => Arc::new(BinaryArray::from(pick(&BINARIES, picks))),
        DataType::FixedSizeBinary(n) => Arc::new(
            FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                pick(&FIXED, picks).into_iter(),
                *n,
            )
            .unwrap(),
        ),
        DataType::Date32 => Arc::new(Date32Array::from(pick(
            &[-719_162, -1, 0, 19_737, 2_932_896, 3_000_000, -800_000],
            picks,
        ))),
        DataType::Time32(TimeUnit::Millisecond) => Arc::new(Time32MillisecondArray::from(pick(
            &[0, 1, 37_230_500, 37_230_000, 86_399_999],
            picks,
        ))),
        DataType::Time64(TimeUnit::Nanosecond) => Arc::new(Time64NanosecondArray::from(pick(
            &[
                0,
                1,
                37_230_123_456_789,
                37_200_000_000_000,
                86_399_999_999_999,
            ],
            picks,
        ))),
        DataType::Timestamp(TimeUnit::Millisecond, tz) => Arc::new(
            TimestampMillisecondArray::from(pick(&scaled(1_000), picks))
                .with_timezone_opt(tz.clone()),
        ),
        DataType::Timestamp(TimeUnit::Microsecond, tz) => Arc::new(
            TimestampMicrosecondArray::from(pick(&scaled(1_000_000), picks))
                .with_timezone_opt(tz.clone()),
        ),
        DataType::Timestamp(TimeUnit::Nanosecond, tz) => Arc::new(
            TimestampNanosecondArray::from(pick(&scaled(1_000_000_000), picks))
                .with_timezone_opt(tz.clone()),
        ),
        other => panic!("no domain for {other}"),
    }
}

/// A pick: null one time in eight (never for a non-nullable column).
fn pick_or_null(g: &mut Bytes<'_>, nullable: bool) -> Option<u8> {
    let b = g.next();
    (!nullable || !b.is_multiple_of(8)).then_some(b / 8)
}

/// A list column of `rows` rows: each null or of 0..=3 elements (exactly
/// the size of a FixedSizeList), elements from the element's domain.
fn list_column(t: &DataType, g: &mut Bytes<'_>, rows: usize) -> ArrayRef {
    let (field, fixed) = match t {
        DataType::List(f) | DataType::LargeList(f) => (f.clone(), None),
        DataType::FixedSizeList(f, n) => (f.clone(), Some(*n as usize)),
        other => panic!("not a list: {other}"),
    };
    let mut picks = Vec::new();
    let mut lengths = Vec::new();
    let mut valid = Vec::new();
    for _ in 0..rows {
        let null = g.below(6) == 0;
        let len = fixed.unwrap_or_else(|| if null { 0 } else { g.below(4) });
        valid.push(!null);
        lengths.push(len);
        for _ in 0..len {
            picks.push(pick_or_null(g, true));
        }
    }
    let elements = values(field.data_type(), &picks);
    let nulls = Some(NullBuffer::from(valid));
    match (t, fixed) {
        (_, Some(n)) => Arc::new(FixedSizeListArray::new(field, n as i32, elements, nulls)),
        (DataType::List(_), None) => Arc::new(ListArray::new(
            field,
            OffsetBuffer::from_lengths(lengths),
            elements,
            nulls,
        )),
        _ => Arc::new(LargeListArray::new(
            field,
            OffsetBuffer::from_lengths(lengths),
            elements,
            nulls,
        )),
    }
}

/// A batch of [`schema`] with `rows` rows from the domains.
pub fn batch(g: &mut Bytes<'_>, rows: usize) -> RecordBatch {
    let schema = schema();
    let columns = schema
        .fields()
        .iter()
        .map(|f| {
            if is_list(f.data_type()) {
                list_column(f.data_type(), g, rows)
            } else {
                let picks: Vec<_> = (0..rows)
                    .map(|_| pick_or_null(g, f.is_nullable()))
                    .collect();
                values(f.data_type(), &picks)
            }
        })
        .collect();
    let options = RecordBatchOptions::new().with_row_count(Some(rows));
    RecordBatch::try_new_with_options(schema, columns, &options).unwrap()
}

/// A reference to the column `name`, with the Paimon type of its Arrow type
/// mostly, sometimes another type of the same column (`VARCHAR(5)` /
/// `CHAR(3)` for a string, a `NOT NULL` that the column is not).
fn field_ref(g: &mut Bytes<'_>, field: &Field) -> FieldRef {
    let mut paimon = PaimonType::from_arrow(field.data_type(), field.is_nullable()).unwrap();
    match g.below(8) {
        0 if is_string(field.data_type()) => paimon = "VARCHAR(5)".parse().unwrap(),
        1 if is_string(field.data_type()) => paimon = "CHAR(3) NOT NULL".parse().unwrap(),
        2 => paimon.nullable = !paimon.nullable,
        _ => {}
    }
    FieldRef::typed(field.name().as_str(), paimon)
}

/// Fields of the schema whose type passes `keep`.
fn some_field(g: &mut Bytes<'_>, keep: impl Fn(&DataType) -> bool) -> FieldRef {
    let schema = schema();
    let fields: Vec<&Field> = schema
        .fields()
        .iter()
        .map(|f| f.as_ref())
        .filter(|f| keep(f.data_type()))
        .collect();
    let field = fields[g.below(fields.len())];
    field_ref(g, field)
}

/// A string transform input: a string column, a string literal or null.
fn string_input(g: &mut Bytes<'_>) -> TransformInput {
    match g.below(6) {
        0..=2 => TransformInput::Field(some_field(g, is_string)),
        3 => TransformInput::Literal(None),
        _ => TransformInput::literal(STRINGS[g.below(STRINGS.len())]),
    }
}

fn string_inputs(g: &mut Bytes<'_>, min: usize) -> Vec<TransformInput> {
    let n = min + g.below(3);
    (0..n).map(|_| string_input(g)).collect()
}

/// A SUBSTRING position: the INT column `i`, a small integer (negative
/// too) or null.
fn position(g: &mut Bytes<'_>) -> PositionInput {
    match g.below(8) {
        0 => PositionInput::Field(FieldRef::typed("i", "INT".parse().unwrap())),
        1 => PositionInput::Literal(None),
        2 => PositionInput::Literal(Some(i32::MIN)),
        _ => PositionInput::Literal(Some(g.below(9) as i32 - 2)),
    }
}

/// CAST pairs Paimon has a rule for and this crate evaluates: the column,
/// the target type, and the Arrow type of the result.
fn casts() -> Vec<(&'static str, &'static str, DataType)> {
    use DataType as D;
    let ms = TimeUnit::Millisecond;
    vec![
        ("i", "BIGINT", D::Int64),
        ("i", "STRING", D::Utf8),
        ("i", "DECIMAL(12, 2)", D::Decimal128(12, 2)),
        ("i", "BOOLEAN", D::Boolean),
        ("i", "DOUBLE", D::Float64),
        ("i", "TIMESTAMP(3)", D::Timestamp(ms, None)),
        ("l", "INT", D::Int32),
        ("t8", "SMALLINT", D::Int16),
        ("s", "INT", D::Int32),
        ("s", "DECIMAL(10, 2)", D::Decimal128(10, 2)),
        ("s", "DATE", D::Date32),
        ("s", "BOOLEAN", D::Boolean),
        ("s", "VARCHAR(3)", D::Utf8),
        ("s", "CHAR(5)", D::Utf8),
        ("sv", "DOUBLE", D::Float64),
        (
            "s",
            "TIMESTAMP(6)",
            D::Timestamp(TimeUnit::Microsecond, None),
        ),
        ("s", "TIME(3)", D::Time32(ms)),
        ("d", "FLOAT", D::Float32),
        ("d", "DECIMAL(38, 10)", D::Decimal128(38, 10)),
        ("d", "STRING", D::Utf8),
        ("f", "DOUBLE", D::Float64),
        ("dec", "DOUBLE", D::Float64),
        ("dec", "DECIMAL(10, 2)", D::Decimal128(10, 2)),
        ("dec2", "BIGINT", D::Int64),
        ("dec2", "STRING", D::Utf8),
        (
            "day",
            "TIMESTAMP(9)",
            D::Timestamp(TimeUnit::Nanosecond, None),
        ),
        ("day", "STRING", D::Utf8),
        ("ts", "DATE", D::Date32),
        ("ts", "BIGINT", D::Int64),
        ("ts", "TIME(0)", D::Time32(ms)),
        ("ts", "STRING", D::Utf8),
        ("tm", "STRING", D::Utf8),
        ("b", "INT", D::Int32),
        ("b", "STRING", D::Utf8),
        ("tz", "BIGINT", D::Int64),
    ]
}

/// A transform and the Arrow type of its values.
fn transform(g: &mut Bytes<'_>) -> (Transform, DataType) {
    let utf8 = DataType::Utf8;
    match g.below(13) {
        0..=3 => {
            let field = some_field(g, |_| true);
            let t = schema()
                .field_with_name(&field.name)
                .unwrap()
                .data_type()
                .clone();
            (Transform::Field(field), t)
        }
        4 | 5 => {
            let casts = casts();
            let (name, to, output) = casts[g.below(casts.len())].clone();
            let schema = schema();
            let field = field_ref(g, schema.field_with_name(name).unwrap());
            (
                Transform::Cast {
                    field,
                    to: to.parse().unwrap(),
                },
                output,
            )
        }
        6 => (Transform::Upper(string_input(g)), utf8),
        7 => (Transform::Lower(string_input(g)), utf8),
        8 => (Transform::Concat(string_inputs(g, 1)), utf8),
        9 => (
            Transform::ConcatWs {
                separator: string_input(g),
                inputs: string_inputs(g, 1),
            },
            utf8,
        ),
        10 => {
            let input = string_input(g);
            let pos = position(g);
            let len = (g.below(2) == 0).then(|| position(g));
            (Transform::Substring { input, pos, len }, utf8)
        }
        11 => {
            let input = string_input(g);
            let chars = (g.below(2) == 0).then(|| string_input(g));
            let side = [TrimSide::Both, TrimSide::Leading, TrimSide::Trailing][g.below(3)];
            (Transform::Trim { input, chars, side }, utf8)
        }
        _ => (Transform::Null, DataType::Boolean),
    }
}

fn is_array_function(f: Function) -> bool {
    matches!(
        f,
        Function::ArrayContains | Function::ArrayContainsAll | Function::ArraysOverlap
    )
}

fn is_string_function(f: Function) -> bool {
    matches!(
        f,
        Function::StartsWith
            | Function::EndsWith
            | Function::Contains
            | Function::Like
            | Function::NotStartsWith
            | Function::NotEndsWith
            | Function::NotContains
            | Function::NotLike
    )
}

/// The functions a leaf over values of type `t` can have.
fn functions(t: &DataType) -> Vec<Function> {
    Function::ALL
        .into_iter()
        .filter(|&f| match f {
            _ if is_array_function(f) => is_list(t),
            _ if is_string_function(f) => is_string(t),
            Function::IsNull
            | Function::IsNotNull
            | Function::IsNaN
            | Function::AlwaysTrue
            | Function::AlwaysFalse => true,
            // Compare, In, Between.
            _ => !is_list(t),
        })
        .collect()
}

/// The literals of `function` over values of type `t`: `t`'s own type
/// (a dictionary's value type, a list's element type for the array
/// functions), each null one time in eight.
fn literals(g: &mut Bytes<'_>, function: Function, t: &DataType) -> ArrayRef {
    let literal_type = match t {
        DataType::Dictionary(_, v) => v.as_ref().clone(),
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _)
            if is_array_function(function) =>
        {
            f.data_type().clone()
        }
        other => other.clone(),
    };
    let n = match function {
        Function::IsNull
        | Function::IsNotNull
        | Function::IsNaN
        | Function::AlwaysTrue
        | Function::AlwaysFalse => 0,
        Function::Between | Function::NotBetween => 2,
        Function::In | Function::NotIn => g.below(6),
        Function::ArrayContainsAll | Function::ArraysOverlap => g.below(4),
        _ => 1,
    };
    if n == 0 {
        return new_empty_array(&literal_type);
    }
    let picks: Vec<_> = (0..n).map(|_| pick_or_null(g, true)).collect();
    values(&literal_type, &picks)
}

/// A leaf: a transform, a function its values suit, literals.
pub fn leaf(g: &mut Bytes<'_>) -> Leaf {
    let (transform, t) = transform(g);
    let functions = functions(&t);
    let function = functions[g.below(functions.len())];
    let literals = literals(g, function, &t);
    Leaf::with_transform(function, transform, literals)
}

/// A predicate tree of depth at most `3 - depth`.
pub fn predicate(g: &mut Bytes<'_>, depth: usize) -> Predicate {
    if depth < 3 && g.below(3) == 0 {
        let n = 1 + g.below(3);
        let children = (0..n).map(|_| predicate(g, depth + 1)).collect();
        if g.next() & 1 == 0 {
            Predicate::And(children)
        } else {
            Predicate::Or(children)
        }
    } else {
        Predicate::Leaf(leaf(g))
    }
}

/// `p` with every field reference's Paimon type dropped (as a predicate
/// built by hand has them): the writer then uses the column's own type.
pub fn untyped(p: &Predicate) -> Predicate {
    fn field(f: &FieldRef) -> FieldRef {
        FieldRef::from(f.name.as_str())
    }
    fn input(i: &TransformInput) -> TransformInput {
        match i {
            TransformInput::Field(f) => TransformInput::Field(field(f)),
            other => other.clone(),
        }
    }
    fn position(p: &PositionInput) -> PositionInput {
        match p {
            PositionInput::Field(f) => PositionInput::Field(field(f)),
            other => other.clone(),
        }
    }
    let transform = |t: &Transform| match t {
        Transform::Field(f) => Transform::Field(field(f)),
        Transform::Cast { field: f, to } => Transform::Cast {
            field: field(f),
            to: to.clone(),
        },
        Transform::Upper(i) => Transform::Upper(input(i)),
        Transform::Lower(i) => Transform::Lower(input(i)),
        Transform::Concat(xs) => Transform::Concat(xs.iter().map(input).collect()),
        Transform::ConcatWs { separator, inputs } => Transform::ConcatWs {
            separator: input(separator),
            inputs: inputs.iter().map(input).collect(),
        },
        Transform::Substring { input: i, pos, len } => Transform::Substring {
            input: input(i),
            pos: position(pos),
            len: len.as_ref().map(position),
        },
        Transform::Trim {
            input: i,
            chars,
            side,
        } => Transform::Trim {
            input: input(i),
            chars: chars.as_ref().map(input),
            side: *side,
        },
        Transform::Null => Transform::Null,
    };
    match p {
        Predicate::Leaf(l) => Predicate::Leaf(Leaf::with_transform(
            l.function,
            transform(&l.transform),
            l.literals.clone(),
        )),
        Predicate::And(c) => Predicate::And(c.iter().map(untyped).collect()),
        Predicate::Or(c) => Predicate::Or(c.iter().map(untyped).collect()),
    }
}
