//! Test columns for the leaf functions, with a row-by-row reference that
//! never touches arrow: each row is `None` (null) or an index into a small
//! domain of plain Rust values, compared with the type's own `cmp`
//! (Java's `Double.compare` for floats, written below from its definition;
//! byte order for strings and binaries).
#![allow(dead_code)]

use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_schema::ArrowError;
use std::cmp::Ordering;
use std::sync::Arc;

/// A column under test and its independent reference.
pub trait Case {
    /// Type name for messages.
    fn name(&self) -> String;
    /// Rows in the full column.
    fn len(&self) -> usize;
    /// Distinct values literals can take.
    fn domain_len(&self) -> usize;
    /// The arrow column (dictionary-encoded for dictionary cases).
    fn column(&self) -> ArrayRef;
    /// A literal array of the column's value type: `None` is a null literal,
    /// `Some(j)` the `j`-th domain value.
    fn literals(&self, list: &[Option<usize>]) -> ArrayRef;
    /// `None` for a null row, else how row `row` compares with domain value `lit`.
    fn cmp_row(&self, row: usize, lit: usize) -> Option<Ordering>;
    /// `None` for a null row, else whether row `row` is a float NaN.
    fn nan_row(&self, row: usize) -> Option<bool>;
}

/// Rows as domain indices, a builder for arrays of `T`, and `T`'s order.
pub struct TypedCase<T> {
    pub name: &'static str,
    pub rows: Vec<Option<usize>>,
    pub domain: Vec<T>,
    pub build: fn(Vec<Option<T>>) -> ArrayRef,
    pub cmp: fn(&T, &T) -> Ordering,
    /// Encode the column as Dictionary(Int32, T), with nulls both as null
    /// keys and as valid keys pointing at a null dictionary value.
    pub dictionary: bool,
    /// Whether a value is a float NaN.
    pub is_nan: fn(&T) -> bool,
}

impl<T: Clone> Case for TypedCase<T> {
    fn name(&self) -> String {
        if self.dictionary {
            format!("Dictionary(Int32, {})", self.name)
        } else {
            self.name.to_string()
        }
    }
    fn len(&self) -> usize {
        self.rows.len()
    }
    fn domain_len(&self) -> usize {
        self.domain.len()
    }
    fn column(&self) -> ArrayRef {
        if self.dictionary {
            let null_value = self.domain.len() as i32;
            let keys: Int32Array = self
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| match r {
                    Some(j) => Some(*j as i32),
                    None if i % 2 == 0 => None,
                    None => Some(null_value),
                })
                .collect();
            let mut values: Vec<Option<T>> = self.domain.iter().cloned().map(Some).collect();
            values.push(None);
            Arc::new(DictionaryArray::<Int32Type>::new(
                keys,
                (self.build)(values),
            ))
        } else {
            (self.build)(
                self.rows
                    .iter()
                    .map(|r| r.map(|j| self.domain[j].clone()))
                    .collect(),
            )
        }
    }
    fn literals(&self, list: &[Option<usize>]) -> ArrayRef {
        (self.build)(
            list.iter()
                .map(|l| l.map(|j| self.domain[j].clone()))
                .collect(),
        )
    }
    fn cmp_row(&self, row: usize, lit: usize) -> Option<Ordering> {
        self.rows[row].map(|j| (self.cmp)(&self.domain[j], &self.domain[lit]))
    }
    fn nan_row(&self, row: usize) -> Option<bool> {
        self.rows[row].map(|j| (self.is_nan)(&self.domain[j]))
    }
}

/// Whether `op` holds for a value that compares `ord` with the literal.
pub fn holds(op: bitbytes::arrow::CompareOp, ord: Ordering) -> bool {
    use bitbytes::arrow::CompareOp;
    match op {
        CompareOp::Equal => ord == Ordering::Equal,
        CompareOp::NotEqual => ord != Ordering::Equal,
        CompareOp::LessThan => ord == Ordering::Less,
        CompareOp::LessOrEqual => ord != Ordering::Greater,
        CompareOp::GreaterThan => ord == Ordering::Greater,
        CompareOp::GreaterOrEqual => ord != Ordering::Less,
    }
}

/// Java's `Double.compare`: every NaN is one value above `+inf`; the other
/// values in IEEE totalOrder (`-0.0 < +0.0`).
pub fn java_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.total_cmp(&b),
    }
}

/// Java's `Float.compare` (exact through `f64`, which keeps NaN-ness and
/// every other value).
pub fn java_cmp32(a: &f32, b: &f32) -> Ordering {
    java_cmp(f64::from(*a), f64::from(*b))
}

/// The NaNs of the table: positive, negative, and with payload 1.
pub const NANS64: [f64; 3] = [
    f64::NAN,
    f64::from_bits(0xfff8_0000_0000_0000),
    f64::from_bits(0x7ff8_0000_0000_0001),
];

#[path = "../support/xorshift.rs"]
mod xorshift;

/// A deterministic xorshift generator (the shared one, with `below`).
pub struct Rng(xorshift::XorShift);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(xorshift::XorShift::new(seed))
    }
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `len` rows over a domain of `domain` values, about one in six null.
pub fn rows(seed: u64, len: usize, domain: usize) -> Vec<Option<usize>> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (0..len)
        .map(|_| (rng.below(6) != 0).then(|| rng.below(domain)))
        .collect()
}

fn typed<T: Clone + 'static>(
    seed: u64,
    name: &'static str,
    domain: Vec<T>,
    build: fn(Vec<Option<T>>) -> ArrayRef,
    cmp: fn(&T, &T) -> Ordering,
) -> TypedCase<T> {
    TypedCase {
        name,
        rows: rows(seed, 150, domain.len()),
        domain,
        build,
        cmp,
        dictionary: false,
        is_nan: |_| false,
    }
}

const STRINGS: [&str; 7] = [
    "",
    "a",
    "ab",
    "b",
    "exactly12byt",
    "a string longer than twelve bytes",
    "a string longer than twelve bytez",
];

fn nan_aware<T>(mut case: TypedCase<T>, is_nan: fn(&T) -> bool) -> TypedCase<T> {
    case.is_nan = is_nan;
    case
}

/// Every column type the issue lists, plus Float16, Decimal256, Time64,
/// Duration, and dictionaries of strings and of integers.
pub fn all_cases() -> Vec<Box<dyn Case>> {
    let mut cases: Vec<Box<dyn Case>> = vec![
        Box::new(typed(
            1,
            "Int8",
            vec![i8::MIN, -1, 0, 1, 5, i8::MAX],
            |v| Arc::new(Int8Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            2,
            "Int16",
            vec![i16::MIN, -300, 0, 1, 300, i16::MAX],
            |v| Arc::new(Int16Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            3,
            "Int32",
            vec![i32::MIN, -70000, -1, 0, 70000, i32::MAX],
            |v| Arc::new(Int32Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            4,
            "Int64",
            vec![i64::MIN, -5_000_000_000, -1, 0, 1, 5_000_000_000, i64::MAX],
            |v| Arc::new(Int64Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            5,
            "UInt8",
            vec![0u8, 1, 127, 128, u8::MAX],
            |v| Arc::new(UInt8Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            6,
            "UInt16",
            vec![0u16, 1, 300, 40000, u16::MAX],
            |v| Arc::new(UInt16Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            7,
            "UInt32",
            vec![0u32, 1, 70000, 3_000_000_000, u32::MAX],
            |v| Arc::new(UInt32Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            8,
            "UInt64",
            vec![0u64, 1, 5_000_000_000, 1 << 63, u64::MAX],
            |v| Arc::new(UInt64Array::from(v)),
            Ord::cmp,
        )),
        Box::new(nan_aware(
            typed(
                9,
                "Float32",
                vec![
                    f32::NEG_INFINITY,
                    -1.5,
                    -0.0,
                    0.0,
                    1.5,
                    f32::INFINITY,
                    f32::NAN,
                    -f32::NAN,
                    f32::from_bits(0x7fc0_0001),
                    f32::MIN_POSITIVE,
                ],
                |v| Arc::new(Float32Array::from(v)),
                java_cmp32,
            ),
            |v| v.is_nan(),
        )),
        Box::new(nan_aware(
            typed(
                10,
                "Float64",
                vec![
                    f64::NEG_INFINITY,
                    -1.5,
                    -0.0,
                    0.0,
                    1.5,
                    f64::INFINITY,
                    NANS64[0],
                    NANS64[1],
                    NANS64[2],
                    f64::MAX,
                ],
                |v| Arc::new(Float64Array::from(v)),
                |a, b| java_cmp(*a, *b),
            ),
            |v| v.is_nan(),
        )),
        Box::new(typed(
            11,
            "Decimal128(10, 2)",
            vec![-99_999_999i128, -100, 0, 1, 12345, 99_999_999],
            |v| {
                Arc::new(
                    Decimal128Array::from(v)
                        .with_precision_and_scale(10, 2)
                        .unwrap(),
                )
            },
            Ord::cmp,
        )),
        Box::new(typed(
            12,
            "Date32",
            vec![-719_162i32, -1, 0, 1, 19_000, 2_932_896],
            |v| Arc::new(Date32Array::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            13,
            "Timestamp(Microsecond)",
            vec![i64::MIN, -1, 0, 1_700_000_000_000_000, i64::MAX],
            |v| Arc::new(TimestampMicrosecondArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            14,
            "Boolean",
            vec![false, true],
            |v| Arc::new(BooleanArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            15,
            "Utf8",
            STRINGS.to_vec(),
            |v| Arc::new(StringArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            16,
            "LargeUtf8",
            STRINGS.to_vec(),
            |v| Arc::new(LargeStringArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            17,
            "Utf8View",
            STRINGS.to_vec(),
            |v| Arc::new(StringViewArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            18,
            "Binary",
            STRINGS.iter().map(|s| s.as_bytes()).collect(),
            |v| Arc::new(BinaryArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            19,
            "LargeBinary",
            STRINGS.iter().map(|s| s.as_bytes()).collect(),
            |v| Arc::new(LargeBinaryArray::from(v)),
            Ord::cmp,
        )),
        Box::new(typed(
            20,
            "BinaryView",
            STRINGS.iter().map(|s| s.as_bytes()).collect(),
            |v| Arc::new(BinaryViewArray::from(v)),
            Ord::cmp,
        )),
    ];
    cases.push(Box::new(nan_aware(
        typed(
            23,
            "Float16",
            [
                f32::NEG_INFINITY,
                -1.5,
                -0.0,
                0.0,
                1.5,
                f32::INFINITY,
                f32::NAN,
                -f32::NAN,
            ]
            .map(half::f16::from_f32)
            .to_vec(),
            |v| Arc::new(Float16Array::from(v)),
            |a, b| java_cmp(a.to_f64(), b.to_f64()),
        ),
        |v| v.is_nan(),
    )));
    let mut dict_f64 = nan_aware(
        typed(
            27,
            "Float64",
            vec![-1.0, NANS64[1], 0.0, NANS64[2]],
            |v| Arc::new(Float64Array::from(v)) as ArrayRef,
            |a, b| java_cmp(*a, *b),
        ),
        |v| v.is_nan(),
    );
    dict_f64.dictionary = true;
    cases.push(Box::new(dict_f64));
    cases.push(Box::new(typed(
        24,
        "Decimal256(40, 3)",
        [-(1i128 << 100), -1, 0, 7, 1 << 100]
            .map(arrow_buffer::i256::from_i128)
            .to_vec(),
        |v| {
            Arc::new(
                Decimal256Array::from(v)
                    .with_precision_and_scale(40, 3)
                    .unwrap(),
            )
        },
        Ord::cmp,
    )));
    cases.push(Box::new(typed(
        25,
        "Time64(Nanosecond)",
        vec![0i64, 1, 3_600_000_000_000, 86_399_999_999_999],
        |v| Arc::new(Time64NanosecondArray::from(v)),
        Ord::cmp,
    )));
    cases.push(Box::new(typed(
        26,
        "Duration(Second)",
        vec![i64::MIN, -60, 0, 60, i64::MAX],
        |v| Arc::new(DurationSecondArray::from(v)),
        Ord::cmp,
    )));
    let mut dict_utf8 = typed(
        21,
        "Utf8",
        STRINGS.to_vec(),
        |v| Arc::new(StringArray::from(v)) as ArrayRef,
        Ord::cmp,
    );
    dict_utf8.dictionary = true;
    cases.push(Box::new(dict_utf8));
    let mut dict_i64 = typed(
        22,
        "Int64",
        vec![-7i64, 0, 3, 1 << 40],
        |v| Arc::new(Int64Array::from(v)) as ArrayRef,
        Ord::cmp,
    );
    dict_i64.dictionary = true;
    cases.push(Box::new(dict_i64));
    cases
}

/// Slices `(offset, len)` of a 150-row column: whole, unaligned, word-crossing, empty.
pub fn slices(len: usize) -> Vec<(usize, usize)> {
    vec![
        (0, len),
        (3, len - 10),
        (65, 70),
        (1, 1),
        (9, 0),
        (len - 1, 1),
    ]
}

/// The message of an `InvalidArgumentError`; panics on any other error.
pub fn invalid_argument(err: ArrowError) -> String {
    match err {
        ArrowError::InvalidArgumentError(msg) => msg,
        other => panic!("expected InvalidArgumentError, got {other:?}"),
    }
}
