//! The string transforms' columnar kernels against a per-row oracle written
//! with Rust `String` operations on Java's semantics (UTF-16 units for
//! SUBSTRING and TRIM), over Utf8, LargeUtf8, Utf8View and dictionaries,
//! with nulls and sliced columns; leaves over transforms in And / Or trees;
//! errors.
#![cfg(feature = "arrow")]

use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, DictionaryArray, Int32Array, Int64Array, LargeStringArray, RecordBatch, StringArray,
    StringViewArray,
};
use bitbytes::arrow::{
    CompareOp, Function, Leaf, Narrowing, PositionInput, Predicate, Transform, TransformInput,
    TrimSide,
};
use proptest::prelude::*;
use std::sync::Arc;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

/// Java's `String.substring` on UTF-16 units, a lone surrogate written `?`.
fn units_to_string(units: &[u16]) -> String {
    char::decode_utf16(units.iter().copied())
        .map(|c| c.unwrap_or('?'))
        .collect()
}

/// `SubstringTransform` per row; `Err` where Java throws.
fn oracle_substring(s: &str, pos: i32, len: Option<i32>) -> Result<String, ()> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let n = units.len() as i64;
    let pos = i64::from(pos);
    if pos > n {
        return Ok(String::new());
    }
    let end = len.map_or(n, |l| pos + i64::from(l) - 1).min(n);
    let begin = pos - 1;
    if begin < 0 || begin >= end {
        return Err(());
    }
    Ok(units_to_string(&units[begin as usize..end as usize]))
}

/// `StringUtils.ltrim` / `rtrim` per row, unit by unit.
fn oracle_trim(s: &str, chars: &str, side: TrimSide) -> String {
    let set: Vec<u16> = chars.encode_utf16().collect();
    let mut units: Vec<u16> = s.encode_utf16().collect();
    if side != TrimSide::Trailing {
        while !units.is_empty() && set.contains(&units[0]) {
            units.remove(0);
        }
    }
    if side != TrimSide::Leading {
        while units.last().is_some_and(|u| set.contains(u)) {
            units.pop();
        }
    }
    units_to_string(&units)
}

/// The oracle of one transform on one row of `a`, `b` (string columns)
/// and `p` (an Int32 column); `Err` where Java throws.
fn oracle(
    t: &Transform,
    a: Option<&str>,
    b: Option<&str>,
    p: Option<i32>,
) -> Result<Option<String>, ()> {
    let input = |i: &TransformInput| match i {
        TransformInput::Field(f) if f.name == "a" => a.map(str::to_string),
        TransformInput::Field(_) => b.map(str::to_string),
        TransformInput::Literal(s) => s.clone(),
    };
    let position = |i: &PositionInput| match i {
        PositionInput::Field(_) => p,
        PositionInput::Literal(v) => *v,
    };
    Ok(match t {
        Transform::Upper(i) => input(i).map(|s| s.to_uppercase()),
        Transform::Lower(i) => input(i).map(|s| s.to_lowercase()),
        Transform::Concat(xs) => xs
            .iter()
            .map(input)
            .collect::<Option<Vec<_>>>()
            .map(|v| v.concat()),
        Transform::ConcatWs { separator, inputs } => input(separator).map(|sep| {
            inputs
                .iter()
                .filter_map(input)
                .collect::<Vec<_>>()
                .join(&sep)
        }),
        Transform::Substring { input: i, pos, len } => {
            let (Some(s), Some(pos)) = (input(i), position(pos)) else {
                return Ok(None);
            };
            let len = match len {
                None => None,
                Some(l) => match position(l) {
                    None => return Ok(None),
                    l => l,
                },
            };
            Some(oracle_substring(&s, pos, len)?)
        }
        Transform::Trim {
            input: i,
            chars,
            side,
        } => {
            let chars = chars.as_ref().map_or(Some(" ".to_string()), input);
            match (input(i), chars) {
                (Some(s), Some(c)) => Some(oracle_trim(&s, &c, *side)),
                _ => None,
            }
        }
        _ => unreachable!(),
    })
}

/// The special cases of the contract, checked on single values.
#[test]
fn case_mappings_are_javas() {
    let cases = [
        (Transform::Upper(TransformInput::field("a")), "ß", "SS"),
        (Transform::Upper(TransformInput::field("a")), "ǅ", "Ǆ"),
        (Transform::Upper(TransformInput::field("a")), "ﬁ", "FI"),
        (Transform::Lower(TransformInput::field("a")), "ΟΣ", "ος"),
        (
            Transform::Lower(TransformInput::field("a")),
            "İ",
            "i\u{307}",
        ),
        (Transform::Lower(TransformInput::field("a")), "ǅ", "ǆ"),
    ];
    for (t, input, want) in cases {
        let batch = batch_of(vec![Some(input)], vec![None], vec![None], Layout::Utf8);
        let leaf = Leaf::with_transform(
            Function::Compare(CompareOp::Equal),
            t.clone(),
            Arc::new(StringArray::from(vec![want])),
        );
        assert_eq!(
            Predicate::Leaf(leaf).test(&batch).unwrap(),
            [1],
            "{t} of {input}"
        );
    }
}

#[derive(Debug, Clone, Copy)]
enum Layout {
    Utf8,
    Large,
    View,
    Dict,
}

fn column(values: &[Option<&str>], layout: Layout) -> ArrayRef {
    match layout {
        Layout::Utf8 => Arc::new(StringArray::from(values.to_vec())),
        Layout::Large => Arc::new(LargeStringArray::from(values.to_vec())),
        Layout::View => Arc::new(StringViewArray::from(values.to_vec())),
        Layout::Dict => Arc::new(
            values
                .iter()
                .copied()
                .collect::<DictionaryArray<Int32Type>>(),
        ),
    }
}

fn batch_of(
    a: Vec<Option<&str>>,
    b: Vec<Option<&str>>,
    p: Vec<Option<i32>>,
    layout: Layout,
) -> RecordBatch {
    RecordBatch::try_from_iter([
        ("a", column(&a, layout)),
        ("b", column(&b, Layout::Utf8)),
        ("p", Arc::new(Int32Array::from(p)) as ArrayRef),
        (
            "n",
            Arc::new(Int64Array::from(vec![1i64; a.len()])) as ArrayRef,
        ),
    ])
    .unwrap()
}

const ALPHABET: &[&str] = &[
    "a", "B", " ", "x", "ß", "Σ", "σ", "ǅ", "ﬁ", "İ", "é", "中", "😀", "😁", "-", "\u{307}",
];

fn text() -> impl Strategy<Value = Option<String>> {
    prop::option::weighted(
        0.85,
        prop::collection::vec(prop::sample::select(ALPHABET), 0..6).prop_map(|v| v.concat()),
    )
}

fn transform() -> impl Strategy<Value = Transform> {
    let lit = prop_oneof![
        4 => text().prop_map(TransformInput::Literal),
        1 => Just(TransformInput::Literal(None)),
    ];
    let field = prop_oneof![
        Just(TransformInput::field("a")),
        Just(TransformInput::field("b"))
    ];
    let input = prop_oneof![3 => field.clone(), 1 => lit];
    let pos = prop_oneof![
        3 => (1i32..8).prop_map(|v| PositionInput::Literal(Some(v))),
        1 => Just(PositionInput::Literal(None)),
        1 => Just(PositionInput::Field("p".into())),
    ];
    let side = prop_oneof![
        Just(TrimSide::Both),
        Just(TrimSide::Leading),
        Just(TrimSide::Trailing)
    ];
    prop_oneof![
        field.clone().prop_map(Transform::Upper),
        field.clone().prop_map(Transform::Lower),
        prop::collection::vec(input.clone(), 0..6).prop_map(Transform::Concat),
        (input.clone(), prop::collection::vec(input.clone(), 1..4))
            .prop_map(|(separator, inputs)| Transform::ConcatWs { separator, inputs }),
        (field.clone(), pos.clone(), prop::option::of(pos))
            .prop_map(|(input, pos, len)| Transform::Substring { input, pos, len }),
        (field, prop::option::of(input), side).prop_map(|(input, chars, side)| Transform::Trim {
            input,
            chars,
            side
        }),
    ]
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Utf8),
        Just(Layout::Large),
        Just(Layout::View),
        Just(Layout::Dict)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `IsNull(t)` and `t = literal` for each row's oracle value, on a
    /// sliced batch: the leaf sees exactly the oracle's column.
    #[test]
    fn kernels_match_the_oracle(
        rows in prop::collection::vec((text(), text(), prop::option::weighted(0.9, 1i32..8)), 1..24),
        t in transform(),
        layout in layout(),
        offset in 0usize..3,
    ) {
        let a: Vec<Option<&str>> = rows.iter().map(|r| r.0.as_deref()).collect();
        let b: Vec<Option<&str>> = rows.iter().map(|r| r.1.as_deref()).collect();
        let p: Vec<Option<i32>> = rows.iter().map(|r| r.2).collect();
        let batch = batch_of(a.clone(), b.clone(), p.clone(), layout);
        let offset = offset.min(rows.len() - 1);
        let batch = batch.slice(offset, rows.len() - offset);
        let want: Result<Vec<Option<String>>, ()> = (offset..rows.len())
            .map(|i| oracle(&t, a[i], b[i], p[i]))
            .collect();
        let is_null = Predicate::Leaf(Leaf::with_transform(
            Function::IsNull, t.clone(), Arc::new(StringArray::from(Vec::<&str>::new()))));
        match want {
            Err(()) => prop_assert!(is_null.test(&batch).is_err()),
            Ok(want) => {
                let got = is_null.test(&batch).unwrap();
                let nulls: Vec<u8> = want.iter().map(|w| u8::from(w.is_none())).collect();
                prop_assert_eq!(got, nulls);
                for probe in want.iter().flatten() {
                    let eq = Predicate::Leaf(Leaf::with_transform(
                        Function::Compare(CompareOp::Equal),
                        t.clone(),
                        Arc::new(StringArray::from(vec![probe.as_str()])),
                    ));
                    let expect: Vec<u8> = want
                        .iter()
                        .map(|w| u8::from(w.as_deref() == Some(probe.as_str())))
                        .collect();
                    prop_assert_eq!(eq.test(&batch).unwrap(), expect, "{} = {:?}", t, probe);
                }
            }
        }
    }
}

/// A batch longer than the evaluator's block of rows (CONCAT, CONCAT_WS,
/// SUBSTRING and TRIM leaves are evaluated 16 Ki rows at a time): every
/// row's byte is the oracle's, on every layout, sliced at an odd offset,
/// for `=` with one literal, IN with many (a longer block), and IsNull; a
/// row SUBSTRING fails on only in the last block is still the error.
#[test]
fn blocks_of_rows_give_the_bytes_of_one_pass() {
    let rows = 40_000 + 37;
    let mut rng = XorShift::new(0x5eed_b10c);
    let text = |rng: &mut XorShift| {
        (!rng.next_u64().is_multiple_of(10)).then(|| {
            let n = rng.next_u64() % 4;
            (0..n)
                .map(|_| ALPHABET[(rng.next_u64() % 6) as usize])
                .collect::<String>()
        })
    };
    let a: Vec<Option<String>> = (0..rows).map(|_| text(&mut rng)).collect();
    let b: Vec<Option<String>> = (0..rows).map(|_| text(&mut rng)).collect();
    let p: Vec<Option<i32>> = (0..rows).map(|i| Some(1 + (i % 3) as i32)).collect();
    let a_ref: Vec<Option<&str>> = a.iter().map(Option::as_deref).collect();
    let b_ref: Vec<Option<&str>> = b.iter().map(Option::as_deref).collect();
    let transforms = [
        Transform::Concat(vec![
            TransformInput::field("a"),
            TransformInput::literal("-"),
            TransformInput::field("b"),
        ]),
        // Five pieces (the two-pass kernel), one a literal of 40 bytes.
        Transform::Concat(vec![
            TransformInput::field("a"),
            TransformInput::literal("=".repeat(40)),
            TransformInput::field("b"),
            TransformInput::field("a"),
            TransformInput::literal("."),
        ]),
        Transform::ConcatWs {
            separator: TransformInput::literal("/"),
            inputs: vec![TransformInput::field("a"), TransformInput::field("b")],
        },
        Transform::Substring {
            input: TransformInput::field("a"),
            pos: PositionInput::Field("p".into()),
            len: Some(PositionInput::Literal(Some(2))),
        },
        Transform::Trim {
            input: TransformInput::field("a"),
            chars: Some(TransformInput::literal("a")),
            side: TrimSide::Both,
        },
    ];
    let offset = 5;
    for layout in [Layout::Utf8, Layout::Large, Layout::View, Layout::Dict] {
        let batch = batch_of(a_ref.clone(), b_ref.clone(), p.clone(), layout);
        let batch = batch.slice(offset, rows - offset);
        for t in &transforms {
            let want: Vec<Option<String>> = (offset..rows)
                .map(|i| oracle(t, a_ref[i], b_ref[i], p[i]).unwrap())
                .collect();
            // The most frequent value, and many distinct ones for IN.
            let mut values: Vec<&str> = want.iter().flatten().map(String::as_str).collect();
            values.sort_unstable();
            values.dedup();
            let probe = want.iter().flatten().next().unwrap().clone();
            // At most 300 literals: a block of 64 x 300 rows, two blocks.
            let some: Vec<&str> = values.iter().step_by(2).take(300).copied().collect();
            let cases: [(Function, Vec<&str>); 3] = [
                (Function::Compare(CompareOp::Equal), vec![probe.as_str()]),
                (Function::In, some.clone()),
                (Function::IsNull, vec![]),
            ];
            for (function, literals) in cases {
                let set: std::collections::HashSet<&str> = literals.iter().copied().collect();
                let expect: Vec<u8> = want
                    .iter()
                    .map(|w| match (function, w) {
                        (Function::IsNull, w) => u8::from(w.is_none()),
                        (_, Some(w)) => u8::from(set.contains(w.as_str())),
                        (_, None) => 0,
                    })
                    .collect();
                let leaf = Predicate::Leaf(Leaf::with_transform(
                    function,
                    t.clone(),
                    Arc::new(StringArray::from(literals.clone())),
                ));
                let got = leaf.test(&batch).unwrap();
                let first_wrong = (0..expect.len()).find(|&i| got.get(i) != Some(&expect[i]));
                assert_eq!(
                    (got.len(), first_wrong),
                    (expect.len(), None),
                    "{layout:?} {t} {function:?} of {} literals",
                    literals.len()
                );
            }
        }
        // SUBSTRING from position 0 fails in Java: only at the last row.
        let mut p_bad = p.clone();
        p_bad[rows - 1] = Some(0);
        let bad = batch_of(a_ref.clone(), b_ref.clone(), p_bad, layout);
        let mut a_last = a_ref.clone();
        a_last[rows - 1] = Some("xyz");
        let bad = RecordBatch::try_new(bad.schema(), {
            let mut c = bad.columns().to_vec();
            c[0] = column(&a_last, layout);
            c
        })
        .unwrap();
        let substring = Predicate::Leaf(Leaf::with_transform(
            Function::IsNull,
            transforms[3].clone(),
            Arc::new(StringArray::from(Vec::<&str>::new())),
        ));
        let err = substring.test(&bad).unwrap_err().to_string();
        assert!(err.contains("SUBSTRING('xyz', 0, 2)"), "{layout:?}: {err}");
    }
}

/// Leaves over transforms inside And / Or, against the oracle, and a
/// SUBSTRING that Java would throw on only where the first child lets it
/// through.
#[test]
fn transform_leaves_in_trees() {
    let a = vec![
        Some("ab"),
        Some("Abc"),
        None,
        Some("xy"),
        Some("aB😀"),
        Some("b"),
    ];
    let b = vec![Some("x"), None, Some("y"), Some("y"), Some("z"), Some("b")];
    let p = vec![Some(1), Some(0), Some(2), Some(1), Some(3), Some(0)];
    for layout in [Layout::Utf8, Layout::Large, Layout::View, Layout::Dict] {
        let batch = batch_of(a.clone(), b.clone(), p.clone(), layout);
        let upper = Leaf::with_transform(
            Function::Like,
            Transform::Upper(TransformInput::field("a")),
            Arc::new(StringArray::from(vec!["AB%"])),
        );
        let concat = Leaf::with_transform(
            Function::Compare(CompareOp::Equal),
            Transform::Concat(vec![
                TransformInput::field("a"),
                TransformInput::literal("-"),
                TransformInput::field("b"),
            ]),
            Arc::new(StringArray::from(vec!["xy-y"])),
        );
        let p_positive = Leaf::new(
            Function::Compare(CompareOp::GreaterOrEqual),
            "p",
            Arc::new(Int32Array::from(vec![1])),
        );
        let substring = Leaf::with_transform(
            Function::Compare(CompareOp::Equal),
            Transform::Substring {
                input: TransformInput::field("a"),
                pos: PositionInput::Field("p".into()),
                len: Some(PositionInput::Literal(Some(1))),
            },
            Arc::new(StringArray::from(vec!["?"])),
        );
        let or = Predicate::Or(vec![
            Predicate::Leaf(upper.clone()),
            Predicate::Leaf(concat),
        ]);
        assert_eq!(or.test(&batch).unwrap(), [1, 1, 0, 1, 1, 0], "{layout:?}");
        let and = Predicate::And(vec![
            Predicate::Leaf(p_positive.clone()),
            Predicate::Leaf(substring.clone()),
        ]);
        // Row 4: 'aB😀' from 3 for 1 unit is the high surrogate alone: '?'.
        for narrowing in [Narrowing::Auto, Narrowing::Gather, Narrowing::Whole] {
            let got = and.test_with(&batch, narrowing).unwrap();
            assert_eq!(got, [0, 0, 0, 0, 1, 0], "{layout:?} {narrowing:?}");
        }
        // Without the guard, row 1 (p = 0) fails as in Java.
        let err = Predicate::Leaf(substring).test(&batch).unwrap_err();
        assert!(err.to_string().contains("SUBSTRING('Abc', 0, 1)"), "{err}");
    }
}

#[test]
fn errors_name_the_field() {
    let batch = batch_of(
        vec![Some("a")],
        vec![Some("b")],
        vec![Some(1)],
        Layout::Utf8,
    );
    let leaf = |t: Transform| {
        Predicate::Leaf(Leaf::with_transform(
            Function::Compare(CompareOp::Equal),
            t,
            Arc::new(StringArray::from(vec!["x"])),
        ))
    };
    let missing = leaf(Transform::Upper(TransformInput::field("zz")))
        .test(&batch)
        .unwrap_err();
    assert!(
        missing.to_string().contains("`zz` is not in the batch"),
        "{missing}"
    );
    let not_string = leaf(Transform::Lower(TransformInput::field("n")))
        .test(&batch)
        .unwrap_err();
    assert!(
        not_string.to_string().contains("`n` is Int64"),
        "{not_string}"
    );
    let bad_pos = leaf(Transform::Substring {
        input: TransformInput::field("a"),
        pos: PositionInput::Field("a".into()),
        len: None,
    })
    .test(&batch)
    .unwrap_err();
    assert!(bad_pos.to_string().contains("`a` is Utf8"), "{bad_pos}");
    // The function is checked against the output type (Utf8): an Int64 literal fails.
    let wrong_literal = Predicate::Leaf(Leaf::with_transform(
        Function::Compare(CompareOp::Equal),
        Transform::Upper(TransformInput::field("a")),
        Arc::new(Int64Array::from(vec![1])),
    ));
    assert!(wrong_literal.validate(batch.schema_ref()).is_err());
    // CAST(a AS INT) gives Int32: the Utf8 literal 'x' is the wrong type.
    let cast = leaf(Transform::Cast {
        field: "a".into(),
        to: "INT".parse().unwrap(),
    });
    let err = cast.test(&batch).unwrap_err();
    assert!(err.to_string().contains("Int32"), "{err}");
}

fn cast_leaf(op: CompareOp, field: &str, to: &str, literal: ArrayRef) -> Predicate {
    Predicate::Leaf(Leaf::with_transform(
        Function::Compare(op),
        Transform::Cast {
            field: field.into(),
            to: to.parse().unwrap(),
        },
        literal,
    ))
}

/// CAST leaves in trees: Paimon's rules per row (STRING to INT drops the
/// fraction, INT to TINYINT wraps, INT to STRING prints), a value that
/// cannot be cast fails only where the tree evaluates it (Java's And / Or
/// stop early), and a pair with no Paimon rule fails before any row.
#[test]
fn cast_leaves_in_trees() {
    let batch = RecordBatch::try_from_iter([
        (
            "s",
            Arc::new(StringArray::from(vec![
                Some("1"),
                Some("2.5"),
                None,
                Some("x"),
                Some("+7"),
            ])) as ArrayRef,
        ),
        (
            "i",
            Arc::new(Int32Array::from(vec![
                Some(1),
                Some(200),
                None,
                Some(-5),
                Some(3),
            ])),
        ),
    ])
    .unwrap();
    let s_gt_1 = cast_leaf(
        CompareOp::GreaterThan,
        "s",
        "INT",
        Arc::new(Int32Array::from(vec![1])),
    );
    let guard = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::GreaterThan),
        "i",
        Arc::new(Int32Array::from(vec![0])),
    ));
    let guarded = Predicate::And(vec![guard, s_gt_1.clone()]);
    for narrowing in [Narrowing::Auto, Narrowing::Gather, Narrowing::Whole] {
        assert_eq!(
            guarded.test_with(&batch, narrowing).unwrap(),
            [0, 1, 0, 0, 1],
            "{narrowing:?}"
        );
    }
    let err = s_gt_1.test(&batch).unwrap_err();
    assert!(
        err.to_string()
            .contains("CAST from STRING to INT: row 3: cannot cast 'x'"),
        "{err}"
    );

    let tiny = cast_leaf(
        CompareOp::Equal,
        "i",
        "TINYINT",
        Arc::new(arrow_array::Int8Array::from(vec![-56])),
    );
    assert_eq!(tiny.test(&batch).unwrap(), [0, 1, 0, 0, 0]);
    let text = cast_leaf(
        CompareOp::Equal,
        "i",
        "STRING",
        Arc::new(StringArray::from(vec!["200"])),
    );
    assert_eq!(text.test(&batch).unwrap(), [0, 1, 0, 0, 0]);
    let no_rule = cast_leaf(
        CompareOp::Equal,
        "i",
        "DATE",
        Arc::new(arrow_array::Date32Array::from(vec![0])),
    );
    let err = no_rule.test(&batch).unwrap_err();
    assert!(err.to_string().contains("no cast rule"), "{err}");
}

/// A widening CAST selects exactly what the plain column does, on every
/// narrowing, with nulls and a sliced batch.
#[test]
fn widening_cast_matches_the_plain_column() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let values: Vec<Option<i32>> = (0..1000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (!state.is_multiple_of(7)).then_some((state >> 40) as i32 % 100)
        })
        .collect();
    let batch = RecordBatch::try_from_iter([("i", Arc::new(Int32Array::from(values)) as ArrayRef)])
        .unwrap();
    for batch in [batch.clone(), batch.slice(3, 900)] {
        for k in [-50i64, 0, 10, 99] {
            let cast = cast_leaf(
                CompareOp::LessThan,
                "i",
                "BIGINT",
                Arc::new(Int64Array::from(vec![k])),
            );
            let plain = Predicate::Leaf(Leaf::new(
                Function::Compare(CompareOp::LessThan),
                "i",
                Arc::new(Int32Array::from(vec![k as i32])),
            ));
            let want = plain.test(&batch).unwrap();
            for narrowing in [Narrowing::Auto, Narrowing::Gather, Narrowing::Whole] {
                assert_eq!(
                    cast.test_with(&batch, narrowing).unwrap(),
                    want,
                    "{k} {narrowing:?}"
                );
            }
        }
    }
}

/// A row's answer from its value.
type RowTest = Box<dyn Fn(i64) -> bool>;

/// A leaf over a CAST that widens an integer type reads the column itself
/// when every literal is a value of the column's type, and keeps the CAST
/// otherwise: both give each row's answer on Java's values (a null row
/// selects nothing but IS NULL), for every integer column and wider target,
/// every comparison, IN, NOT IN, BETWEEN, NOT BETWEEN and the null tests,
/// with literals inside and outside the column's range, whole and sliced.
#[test]
fn widening_casts_read_the_column_itself() {
    use arrow_array::{Int16Array, Int8Array};
    let mut rng = XorShift::new(0x0ddc_a575);
    let values: Vec<Option<i64>> = (0..500)
        .map(|_| {
            let r = rng.next_u64();
            (!r.is_multiple_of(9)).then_some((r >> 8) as i8 as i64)
        })
        .collect();
    let column = |root: &str| -> ArrayRef {
        match root {
            "TINYINT" => Arc::new(
                values
                    .iter()
                    .map(|v| v.map(|v| v as i8))
                    .collect::<Int8Array>(),
            ),
            "SMALLINT" => Arc::new(
                values
                    .iter()
                    .map(|v| v.map(|v| v as i16))
                    .collect::<Int16Array>(),
            ),
            "INT" => Arc::new(
                values
                    .iter()
                    .map(|v| v.map(|v| v as i32))
                    .collect::<Int32Array>(),
            ),
            _ => Arc::new(values.iter().copied().collect::<Int64Array>()),
        }
    };
    let literal = |to: &str, v: &[i64]| -> ArrayRef {
        match to {
            "SMALLINT" => Arc::new(Int16Array::from(
                v.iter().map(|&x| x as i16).collect::<Vec<_>>(),
            )),
            "INT" => Arc::new(Int32Array::from(
                v.iter().map(|&x| x as i32).collect::<Vec<_>>(),
            )),
            _ => Arc::new(Int64Array::from(v.to_vec())),
        }
    };
    let types = ["TINYINT", "SMALLINT", "INT", "BIGINT"];
    for (i, from) in types.iter().enumerate() {
        let batch = RecordBatch::try_from_iter([("x", column(from))]).unwrap();
        for to in &types[i + 1..] {
            // 300 does not fit TINYINT; -40000 fits neither TINYINT nor
            // SMALLINT (the CAST is kept there), 7 and -3 fit every type.
            let mut sets: Vec<Vec<i64>> = vec![vec![7], vec![-3], vec![7, -3, 100], vec![300, 7]];
            if matches!(*to, "INT" | "BIGINT") {
                sets.push(vec![-40000, -3]);
            }
            for set in &sets {
                let mut cases: Vec<(Function, Vec<i64>, RowTest)> = Vec::new();
                for op in CompareOp::ALL {
                    let k = set[0];
                    let f: RowTest = match op {
                        CompareOp::Equal => Box::new(move |v| v == k),
                        CompareOp::NotEqual => Box::new(move |v| v != k),
                        CompareOp::LessThan => Box::new(move |v| v < k),
                        CompareOp::LessOrEqual => Box::new(move |v| v <= k),
                        CompareOp::GreaterThan => Box::new(move |v| v > k),
                        CompareOp::GreaterOrEqual => Box::new(move |v| v >= k),
                    };
                    cases.push((Function::Compare(op), vec![k], f));
                }
                let s = set.clone();
                cases.push((Function::In, set.clone(), Box::new(move |v| s.contains(&v))));
                let s = set.clone();
                cases.push((
                    Function::NotIn,
                    set.clone(),
                    Box::new(move |v| !s.contains(&v)),
                ));
                if set.len() >= 2 {
                    let (lo, hi) = (set[0].min(set[1]), set[0].max(set[1]));
                    cases.push((
                        Function::Between,
                        vec![lo, hi],
                        Box::new(move |v| lo <= v && v <= hi),
                    ));
                    cases.push((
                        Function::NotBetween,
                        vec![lo, hi],
                        Box::new(move |v| v < lo || v > hi),
                    ));
                }
                for (function, literals, f) in &cases {
                    let leaf = Predicate::Leaf(Leaf::with_transform(
                        *function,
                        Transform::Cast {
                            field: "x".into(),
                            to: to.parse().unwrap(),
                        },
                        literal(to, literals),
                    ));
                    for (start, rows) in [(0, values.len()), (3, 400)] {
                        let want: Vec<u8> = values[start..start + rows]
                            .iter()
                            .map(|v| u8::from(v.is_some_and(f)))
                            .collect();
                        let got = leaf.test(&batch.slice(start, rows)).unwrap();
                        assert_eq!(
                            got, want,
                            "CAST({from} AS {to}) {function:?} {literals:?} at {start}"
                        );
                    }
                }
            }
            for (function, null) in [(Function::IsNull, true), (Function::IsNotNull, false)] {
                let leaf = Predicate::Leaf(Leaf::with_transform(
                    function,
                    Transform::Cast {
                        field: "x".into(),
                        to: to.parse().unwrap(),
                    },
                    literal(to, &[]),
                ));
                let want: Vec<u8> = values
                    .iter()
                    .map(|v| u8::from(v.is_none() == null))
                    .collect();
                assert_eq!(
                    leaf.test(&batch).unwrap(),
                    want,
                    "CAST({from} AS {to}) {function:?}"
                );
            }
        }
    }
}

/// CAST to binary types in a leaf (Paimon oracle cases transforms/1618..1659,
/// which Java answered): STRING to BINARY(n) zero-pads to `n` bytes, so
/// `CAST(s AS BINARY(3)) = X'610000'` selects `"a"`; in every string layout
/// and at a non-zero offset; a null stays null.
#[test]
fn cast_strings_to_binary_in_leaves() {
    let strings: Vec<Option<&str>> = vec![Some("zz"), Some("a"), None, Some("abcd"), Some("a\0")];
    let layouts: [ArrayRef; 3] = [
        Arc::new(StringArray::from(strings.clone())),
        Arc::new(LargeStringArray::from(strings.clone())),
        Arc::new(StringViewArray::from(strings)),
    ];
    let padded = cast_leaf(
        CompareOp::Equal,
        "s",
        "BINARY(3)",
        Arc::new(arrow_array::BinaryArray::from_vec(vec![b"a\0\0"])),
    );
    let cut = cast_leaf(
        CompareOp::Equal,
        "s",
        "VARBINARY(2)",
        Arc::new(arrow_array::BinaryArray::from_vec(vec![b"ab"])),
    );
    for column in layouts {
        let batch = RecordBatch::try_from_iter([("s", column)]).unwrap();
        assert_eq!(padded.test(&batch).unwrap(), [0, 1, 0, 0, 1]);
        assert_eq!(cut.test(&batch).unwrap(), [0, 0, 0, 1, 0]);
        assert_eq!(padded.test(&batch.slice(1, 4)).unwrap(), [1, 0, 0, 1]);
    }
}
