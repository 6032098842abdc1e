//! ARRAY_CONTAINS / ARRAY_CONTAINS_ALL / ARRAYS_OVERLAP against a row-by-row
//! oracle (plain Rust over `Vec<Option<Vec<Option<_>>>>`, SEMANTICS.md "More
//! leaf functions"), over every list layout, many element types, nulls at
//! both levels, sliced lists and sliced children; TRUE / FALSE in trees; the
//! errors.
#![cfg(feature = "arrow")]

use arrow_array::types::Int16Type;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, DictionaryArray,
    FixedSizeListArray, Float32Array, Float64Array, Int16Array, Int32Array, Int64Array, Int8Array,
    LargeListArray, LargeStringArray, ListArray, RecordBatch, StringArray, StringViewArray,
    UInt64Array, UInt8Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field};
use bitbytes::arrow::{Function, Narrowing, Predicate, PredicateBuilder};
use proptest::prelude::*;
use std::sync::Arc;

/// Rows of a list column in the oracle's terms: element values are small
/// integers, mapped to each element type by [`build`].
type Rows = Vec<Option<Vec<Option<i64>>>>;

/// The floats the integers map to: NaNs of several signs and payloads, both
/// zeros, infinities.
const FLOATS: [f64; 9] = [
    f64::NAN,
    -f64::NAN,
    0.0,
    -0.0,
    1.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    2.0,
    0.0, // replaced by a NaN with a payload in `float`
];

fn float(v: i64) -> f64 {
    let i = v.rem_euclid(FLOATS.len() as i64) as usize;
    if i == 8 {
        f64::from_bits(f64::NAN.to_bits() | 1)
    } else {
        FLOATS[i]
    }
}

/// The element types under test.
fn element_types() -> Vec<DataType> {
    vec![
        DataType::Int8,
        DataType::Int16,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt64,
        DataType::Float32,
        DataType::Float64,
        DataType::Utf8,
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Boolean,
        DataType::Date32,
        DataType::Decimal128(10, 2),
        DataType::Binary,
        DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
    ]
}

/// `vals` as an array of type `t`.
fn build(t: &DataType, vals: &[Option<i64>]) -> ArrayRef {
    let it = || vals.iter().copied();
    let word = |v: i64| format!("w{v}");
    match t {
        DataType::Int8 => Arc::new(it().map(|v| v.map(|v| v as i8)).collect::<Int8Array>()),
        DataType::Int16 => Arc::new(it().map(|v| v.map(|v| v as i16)).collect::<Int16Array>()),
        DataType::Int32 => Arc::new(it().map(|v| v.map(|v| v as i32)).collect::<Int32Array>()),
        DataType::Int64 => Arc::new(it().collect::<Int64Array>()),
        DataType::UInt8 => Arc::new(it().map(|v| v.map(|v| v as u8)).collect::<UInt8Array>()),
        DataType::UInt64 => Arc::new(it().map(|v| v.map(|v| v as u64)).collect::<UInt64Array>()),
        DataType::Float32 => Arc::new(
            it().map(|v| v.map(|v| float(v) as f32))
                .collect::<Float32Array>(),
        ),
        DataType::Float64 => Arc::new(it().map(|v| v.map(float)).collect::<Float64Array>()),
        DataType::Utf8 => Arc::new(it().map(|v| v.map(word)).collect::<StringArray>()),
        DataType::LargeUtf8 => Arc::new(it().map(|v| v.map(word)).collect::<LargeStringArray>()),
        DataType::Utf8View => Arc::new(
            it().map(|v| v.map(|v| format!("a long view string {v}")))
                .collect::<StringViewArray>(),
        ),
        DataType::Boolean => Arc::new(
            it().map(|v| v.map(|v| v % 2 == 1))
                .collect::<BooleanArray>(),
        ),
        DataType::Date32 => Arc::new(
            it().map(|v| v.map(|v| v as i32 - 3))
                .collect::<Date32Array>(),
        ),
        DataType::Decimal128(p, s) => Arc::new(
            it().map(|v| v.map(|v| i128::from(v) * 37))
                .collect::<Decimal128Array>()
                .with_precision_and_scale(*p, *s)
                .unwrap(),
        ),
        DataType::Binary => Arc::new(BinaryArray::from_iter(
            it().map(|v| v.map(|v| vec![v as u8; (v % 3) as usize + 1])),
        )),
        DataType::Dictionary(_, _) => Arc::new(
            it().map(|v| v.map(word))
                .collect::<Vec<_>>()
                .iter()
                .map(Option::as_deref)
                .collect::<DictionaryArray<Int16Type>>(),
        ),
        other => panic!("no builder for {other}"),
    }
}

/// The type the literals of lists of `t` have.
fn literal_type(t: &DataType) -> DataType {
    match t {
        DataType::Dictionary(_, v) => v.as_ref().clone(),
        other => other.clone(),
    }
}

/// Java's equality of two elements mapped to type `t`.
fn java_eq(t: &DataType, a: i64, b: i64) -> bool {
    match t {
        DataType::Float32 => {
            let (a, b) = (float(a) as f32, float(b) as f32);
            (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
        }
        DataType::Float64 => {
            let (a, b) = (float(a), float(b));
            (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
        }
        DataType::Boolean => a % 2 == b % 2,
        _ => a == b,
    }
}

/// The oracle, one row at a time, from SEMANTICS.md.
fn oracle(f: Function, t: &DataType, row: &Option<Vec<Option<i64>>>, lits: &[Option<i64>]) -> u8 {
    let Some(elements) = row else { return 0 };
    let contains = |l: i64| elements.iter().flatten().any(|&e| java_eq(t, e, l));
    u8::from(match f {
        Function::ArrayContains => lits[0].is_some_and(contains),
        Function::ArrayContainsAll => lits.iter().all(|l| l.is_some_and(contains)),
        Function::ArraysOverlap => lits.iter().flatten().any(|&l| contains(l)),
        other => panic!("not an array function: {other:?}"),
    })
}

const ARRAY_FUNCTIONS: [Function; 3] = [
    Function::ArrayContains,
    Function::ArrayContainsAll,
    Function::ArraysOverlap,
];

/// The child of the list, `pad` junk values in front sliced off (so the
/// child has an offset of its own).
fn child(t: &DataType, elements: &[Option<i64>], pad: usize) -> ArrayRef {
    let junk: Vec<Option<i64>> = (0..pad as i64).map(|i| Some(i % 4)).collect();
    let all: Vec<Option<i64>> = junk.into_iter().chain(elements.iter().copied()).collect();
    build(t, &all).slice(pad, elements.len())
}

/// `rows` as a List, LargeList and FixedSizeList column (`size` elements a
/// row: rows padded with null elements or cut, returned with the rows as
/// the fixed-size column holds them). A null row keeps its elements (a
/// non-empty range under a null).
fn layouts(t: &DataType, rows: &Rows, pad: usize, size: usize) -> Vec<(ArrayRef, Rows)> {
    let field = Arc::new(Field::new("item", t.clone(), true));
    let nulls = NullBuffer::from(rows.iter().map(Option::is_some).collect::<Vec<_>>());
    // Offset lists: a null row holds one element.
    let ranges: Vec<Vec<Option<i64>>> = rows
        .iter()
        .map(|r| r.clone().unwrap_or_else(|| vec![Some(1)]))
        .collect();
    let flat: Vec<Option<i64>> = ranges.iter().flatten().copied().collect();
    let lengths = ranges.iter().map(Vec::len);
    let values = child(t, &flat, pad);
    let list = ListArray::new(
        field.clone(),
        OffsetBuffer::from_lengths(lengths.clone()),
        values.clone(),
        Some(nulls.clone()),
    );
    let large = LargeListArray::new(
        field.clone(),
        OffsetBuffer::from_lengths(lengths),
        values,
        Some(nulls.clone()),
    );
    let fixed_rows: Rows = rows
        .iter()
        .map(|r| {
            r.as_ref().map(|r| {
                let mut r = r.clone();
                r.resize(size, None);
                r
            })
        })
        .collect();
    let fixed_flat: Vec<Option<i64>> = fixed_rows
        .iter()
        .flat_map(|r| r.clone().unwrap_or_else(|| vec![Some(1); size]))
        .collect();
    let fixed =
        FixedSizeListArray::new(field, size as i32, child(t, &fixed_flat, pad), Some(nulls));
    vec![
        (Arc::new(list), rows.clone()),
        (Arc::new(large), rows.clone()),
        (Arc::new(fixed), fixed_rows),
    ]
}

/// Every function over every layout of `rows` of type `t`, sliced at
/// `offset`, against the oracle.
fn check(t: &DataType, rows: &Rows, lits: &[Option<i64>], pad: usize, size: usize, offset: usize) {
    let literals = build(&literal_type(t), lits);
    for (column, model) in layouts(t, rows, pad, size) {
        let offset = offset.min(column.len());
        let len = column.len() - offset;
        let sliced = column.slice(offset, len);
        for f in ARRAY_FUNCTIONS {
            let got = f.test(&sliced, &literals);
            if f == Function::ArrayContains && lits.len() != 1 {
                let err = got.unwrap_err().to_string();
                assert!(err.contains("exactly one literal"), "{err}");
                continue;
            }
            let want: Vec<u8> = model[offset..]
                .iter()
                .map(|r| oracle(f, t, r, lits))
                .collect();
            assert_eq!(
                got.unwrap(),
                want,
                "{f:?} {} {t} rows {model:?} lits {lits:?} offset {offset}",
                column.data_type()
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn kernels_match_the_oracle(
        rows in prop::collection::vec(
            prop::option::weighted(0.85, prop::collection::vec(prop::option::weighted(0.85, 0i64..9), 0..6)),
            0..30,
        ),
        lits in prop::collection::vec(prop::option::weighted(0.85, 0i64..10), 0..4),
        pad in 0usize..5,
        size in 0usize..4,
        offset in 0usize..6,
    ) {
        for t in element_types() {
            check(&t, &rows, &lits, pad, size, offset);
        }
    }
}

#[test]
fn nan_and_signed_zero() {
    // Index 0: NaN, 1: -NaN, 2: 0.0, 3: -0.0, 8: NaN with a payload.
    let rows: Rows = vec![
        Some(vec![Some(0)]),
        Some(vec![Some(1)]),
        Some(vec![Some(8)]),
        Some(vec![Some(2)]),
        Some(vec![Some(3)]),
        Some(vec![None, Some(4)]),
        Some(vec![]),
        None,
    ];
    for t in [DataType::Float32, DataType::Float64] {
        let list = &layouts(&t, &rows, 2, 2)[0].0;
        let lit = |v: i64| build(&t, &[Some(v)]);
        // Every NaN matches any NaN literal.
        assert_eq!(
            Function::ArrayContains.test(list, &lit(1)).unwrap(),
            [1, 1, 1, 0, 0, 0, 0, 0]
        );
        // 0.0 and -0.0 differ.
        assert_eq!(
            Function::ArrayContains.test(list, &lit(2)).unwrap(),
            [0, 0, 0, 1, 0, 0, 0, 0]
        );
        assert_eq!(
            Function::ArrayContains.test(list, &lit(3)).unwrap(),
            [0, 0, 0, 0, 1, 0, 0, 0]
        );
        check(&t, &rows, &[Some(0), Some(3)], 1, 2, 0);
    }
}

#[test]
fn literal_edge_cases() {
    let t = DataType::Int32;
    let rows: Rows = vec![
        Some(vec![Some(1), Some(2)]),
        Some(vec![None]),
        Some(vec![]),
        None,
    ];
    let list = &layouts(&t, &rows, 0, 2)[0].0;
    let ints = |v: &[Option<i32>]| Int32Array::from(v.to_vec());
    // A null literal: ArrayContains and ArrayContainsAll select nothing,
    // ArraysOverlap skips it.
    assert_eq!(
        Function::ArrayContains.test(list, &ints(&[None])).unwrap(),
        [0; 4]
    );
    assert_eq!(
        Function::ArrayContainsAll
            .test(list, &ints(&[Some(1), None]))
            .unwrap(),
        [0; 4]
    );
    assert_eq!(
        Function::ArraysOverlap
            .test(list, &ints(&[None, Some(2)]))
            .unwrap(),
        [1, 0, 0, 0]
    );
    // An empty list: ArrayContainsAll selects every non-null array (empty
    // ones too), ArraysOverlap none.
    assert_eq!(
        Function::ArrayContainsAll.test(list, &ints(&[])).unwrap(),
        [1, 1, 1, 0]
    );
    assert_eq!(
        Function::ArraysOverlap.test(list, &ints(&[])).unwrap(),
        [0; 4]
    );
    // Duplicates change nothing.
    assert_eq!(
        Function::ArrayContainsAll
            .test(list, &ints(&[Some(2), Some(1), Some(2)]))
            .unwrap(),
        [1, 0, 0, 0]
    );
    // Long lists take the set; the answer is the same.
    let many: Vec<Option<i32>> = (2..40).map(Some).collect();
    assert_eq!(
        Function::ArraysOverlap.test(list, &ints(&many)).unwrap(),
        [1, 0, 0, 0]
    );
    let mut out = [9u8; 6];
    Function::ArraysOverlap
        .test_into(list, &ints(&[Some(1)]), &mut out)
        .unwrap();
    assert_eq!(out, [1, 0, 0, 0, 9, 9]);
}

#[test]
fn empty_columns() {
    for t in [DataType::Int64, DataType::Utf8] {
        for (column, _) in layouts(&t, &vec![], 3, 2) {
            let literals = build(&literal_type(&t), &[Some(1)]);
            for f in ARRAY_FUNCTIONS {
                assert!(f.test(&column, &literals).unwrap().is_empty());
            }
        }
    }
}

/// `f` fails on `column` with `literals`, naming every needle, and
/// `validate` says the same.
fn rejects(f: Function, column: &dyn Array, literals: &dyn Array, needles: &[&str]) {
    let mut out = vec![7u8; column.len()];
    let err = f
        .test_into(column, literals, &mut out)
        .unwrap_err()
        .to_string();
    for needle in needles {
        assert!(err.contains(needle), "{f:?}: {err} lacks {needle}");
    }
    assert!(out.iter().all(|&b| b == 7), "wrote on error");
    let v = f
        .validate(column.data_type(), literals)
        .unwrap_err()
        .to_string();
    assert_eq!(v, err);
}

#[test]
fn errors() {
    let list = layouts(&DataType::Int32, &vec![Some(vec![Some(1)])], 0, 1)[0]
        .0
        .clone();
    let plain = Int32Array::from(vec![1, 2]);
    for f in ARRAY_FUNCTIONS {
        rejects(f, &plain, &Int32Array::from(vec![1]), &["List", "Int32"]);
        rejects(f, &list, &Int64Array::from(vec![1]), &["Int64", "Int32"]);
    }
    rejects(
        Function::ArrayContains,
        &list,
        &Int32Array::from(vec![1, 2]),
        &["exactly one"],
    );
    rejects(
        Function::ArrayContains,
        &list,
        &Int32Array::from(Vec::<i32>::new()),
        &["exactly one"],
    );
    // Nested elements have no order.
    let nested = ListArray::new(
        Arc::new(Field::new("item", list.data_type().clone(), true)),
        OffsetBuffer::from_lengths([1]),
        list.clone(),
        None,
    );
    rejects(
        Function::ArraysOverlap,
        &nested,
        list.as_ref(),
        &["cannot compare"],
    );
    // The builder names the field and both types.
    let batch = RecordBatch::try_from_iter([("tags", list)]).unwrap();
    let p = PredicateBuilder::new(batch.schema());
    let err = p
        .arrays_overlap("tags", &StringArray::from(vec!["a"]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("tags") && err.contains("Utf8") && err.contains("Int32"),
        "{err}"
    );
    assert!(p
        .array_contains("nope", &Int32Array::new_scalar(1))
        .is_err());
    let err = p
        .array_contains("tags", &Int32Array::from(vec![1, 2]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("one value"), "{err}");
}

#[test]
fn no_negation() {
    let list = layouts(&DataType::Int32, &vec![Some(vec![Some(1)])], 0, 1)[0]
        .0
        .clone();
    let batch = RecordBatch::try_from_iter([
        ("tags", list),
        ("x", Arc::new(Int32Array::from(vec![1])) as ArrayRef),
    ])
    .unwrap();
    let p = PredicateBuilder::new(batch.schema());
    for f in ARRAY_FUNCTIONS {
        assert_eq!(f.negate(), None);
        let leaf = p
            .leaf(f, "tags", Arc::new(Int32Array::from(vec![1])))
            .unwrap();
        let tree = p.or(vec![p.is_null("x").unwrap(), leaf]).unwrap();
        assert_eq!(tree.negate(), None);
    }
}

/// TRUE / FALSE and the array functions inside And / Or trees, on null
/// rows, under every narrowing, against the rows computed by hand.
#[test]
fn constants_and_arrays_in_trees() {
    let rows: Rows = (0..40)
        .map(|i| (i % 5 != 0).then(|| vec![Some(i % 7), (i % 3 != 0).then_some(i % 4)]))
        .collect();
    let x: Vec<Option<i32>> = (0..40).map(|i| (i % 4 != 1).then_some(i)).collect();
    let list = layouts(&DataType::Int64, &rows, 2, 2)[0].0.clone();
    let batch = RecordBatch::try_from_iter([
        ("tags", list),
        ("x", Arc::new(Int32Array::from(x.clone())) as ArrayRef),
    ])
    .unwrap();
    let p = PredicateBuilder::new(batch.schema());
    let has3 = p
        .array_contains("tags", &Int64Array::new_scalar(3))
        .unwrap();
    let x_null = p.is_null("x").unwrap();
    let x_lt = p.less_than("x", &Int32Array::new_scalar(30)).unwrap();
    let tag = |i: usize| {
        oracle(
            Function::ArrayContains,
            &DataType::Int64,
            &rows[i],
            &[Some(3)],
        ) == 1
    };
    type Case<'a> = (Predicate, Box<dyn Fn(usize) -> bool + 'a>);
    let cases: Vec<Case<'_>> = vec![
        (p.always_true(), Box::new(|_| true)),
        (p.always_false(), Box::new(|_| false)),
        // TRUE selects the null rows of x too.
        (
            p.and(vec![p.always_true(), x_null.clone()]).unwrap(),
            Box::new(|i| x[i].is_none()),
        ),
        (
            p.or(vec![x_lt.clone(), p.always_true()]).unwrap(),
            Box::new(|_| true),
        ),
        (
            p.and(vec![x_lt.clone(), p.always_false()]).unwrap(),
            Box::new(|_| false),
        ),
        (
            p.or(vec![p.always_false(), has3.clone()]).unwrap(),
            Box::new(&tag),
        ),
        (
            p.and(vec![x_lt.clone(), has3.clone(), p.always_true()])
                .unwrap(),
            Box::new(|i| x[i].is_some_and(|v| v < 30) && tag(i)),
        ),
        (
            p.or(vec![
                p.and(vec![x_null.clone(), p.always_true()]).unwrap(),
                has3.clone(),
            ])
            .unwrap(),
            Box::new(|i| x[i].is_none() || tag(i)),
        ),
        // FALSE negated is TRUE; (x < 30 AND FALSE) negated: x >= 30 OR TRUE.
        (p.always_false().negate().unwrap(), Box::new(|_| true)),
        (
            p.and(vec![x_lt, p.always_false()])
                .unwrap()
                .negate()
                .unwrap(),
            Box::new(|_| true),
        ),
    ];
    for (pred, want) in &cases {
        let want: Vec<u8> = (0..40).map(|i| u8::from(want(i))).collect();
        for narrowing in [Narrowing::Auto, Narrowing::Gather, Narrowing::Whole] {
            assert_eq!(
                pred.test_with(&batch, narrowing).unwrap(),
                want,
                "{pred} {narrowing:?}"
            );
        }
        assert_eq!(
            pred.filter(&batch).unwrap().num_rows(),
            want.iter().filter(|&&b| b == 1).count()
        );
    }
    assert_eq!(
        p.and(vec![p.always_true(), has3]).unwrap().to_string(),
        "TRUE AND ARRAY_CONTAINS(tags, 3)"
    );
    assert!(p.always_false().validate(batch.schema_ref()).is_ok());
}
