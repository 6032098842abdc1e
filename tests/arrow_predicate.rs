//! Predicate trees over a RecordBatch: a model-based proptest (random trees of
//! depth up to 3 over Int64, Float64 with NaNs and nulls, Utf8 and a
//! dictionary column, against the row-by-row model of
//! tests/support/predicate_model.rs, under every `Narrowing`, negated, and
//! filtered), each builder error with its message, Paimon's cases, and
//! validation that runs even when no row is left undecided.
#![cfg(feature = "arrow")]

#[path = "support/predicate_model.rs"]
mod model;

use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use bitbytes::arrow::{CompareOp, Function, Leaf, Narrowing, Predicate, PredicateBuilder};
use model::{Bytes, Spec, Table};
use proptest::prelude::*;
use std::sync::Arc;

const NARROWINGS: [Narrowing; 3] = [Narrowing::Auto, Narrowing::Gather, Narrowing::Whole];

/// Evaluates `predicate` on `batch` every way and checks each against `want`.
fn check_all_ways(predicate: &Predicate, batch: &RecordBatch, want: &[u8]) {
    for narrowing in NARROWINGS {
        let got = predicate.test_with(batch, narrowing).unwrap();
        assert_eq!(got, want, "{narrowing:?} {predicate:?}");
        let mut out = vec![7u8; batch.num_rows() + 3];
        predicate
            .test_into_with(batch, &mut out, narrowing)
            .unwrap();
        assert_eq!(&out[..batch.num_rows()], want);
        assert_eq!(&out[batch.num_rows()..], [7, 7, 7], "bytes past the batch");
    }
}

fn model_case(seed: u64, rows: usize, offset: usize, tree: &[u8]) {
    let table = Table::random(rows, seed);
    let offset = offset.min(rows);
    let spec = Spec::decode(&mut Bytes::new(tree), 0);
    let predicate = spec.predicate();
    let want = spec.eval(&table);

    let batch = table.batch();
    check_all_ways(&predicate, &batch, &want);
    // A sliced batch: every column starts at `offset`.
    let sliced = batch.slice(offset, rows - offset);
    check_all_ways(&predicate, &sliced, &want[offset..]);

    // filter keeps exactly the rows whose byte is 1, in order.
    let kept = predicate.filter(&batch).unwrap();
    assert_eq!(kept.schema(), batch.schema());
    assert!(Table::from_batch(&kept).same(&table.select(&want)));
    // test_indices names exactly those rows, ascending.
    let indices = predicate.test_indices(&batch).unwrap();
    let want_indices: Vec<u32> = (0..rows as u32)
        .filter(|&i| want[i as usize] == 1)
        .collect();
    assert_eq!(indices.values().as_ref(), &want_indices[..]);

    // The negation: None exactly when the model has none; else its bytes.
    match (predicate.negate(), spec.negate()) {
        (None, None) => {}
        (Some(negated), Some(model)) => {
            assert_eq!(negated, model.predicate(), "De Morgan structure");
            check_all_ways(&negated, &batch, &model.eval(&table));
        }
        (got, want) => panic!("negate: {got:?}, the model: {want:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn trees_match_the_row_model(
        seed in any::<u64>(),
        rows in 0usize..300,
        offset in 0usize..80,
        tree in proptest::collection::vec(any::<u8>(), 0..160),
    ) {
        model_case(seed, rows, offset, &tree);
    }
}

/// Deeper data: 5,000 rows, so that `Auto` takes both paths within one tree.
#[test]
fn trees_on_a_large_batch() {
    let mut rng = 0x1234_5678_9abc_def1u64;
    for case in 0..60u64 {
        let tree: Vec<u8> = (0..120)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng as u8
            })
            .collect();
        model_case(case, 5000, 37, &tree);
    }
}

fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("x", DataType::Int64, true),
        Field::new("f", DataType::Float64, true),
        Field::new("s", DataType::Utf8, true),
        Field::new(
            "d",
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            true,
        ),
    ]))
}

fn message(r: Result<Predicate, ArrowError>) -> String {
    match r {
        Err(ArrowError::InvalidArgumentError(m)) => m,
        other => panic!("expected an invalid-argument error, got {other:?}"),
    }
}

#[test]
fn builder_errors_name_the_problem() {
    let p = PredicateBuilder::new(schema());
    let five = Int64Array::new_scalar(5);

    let m = message(p.equal("nope", &five));
    assert!(
        m.contains("unknown field `nope`") && m.contains("x, f, s, d"),
        "{m}"
    );
    let m = message(p.is_null("nope"));
    assert!(m.contains("`nope`"), "{m}");

    // Literal type against the field type: both named.
    let m = message(p.less_than("f", &five));
    assert!(
        m.contains("field `f`") && m.contains("Float64") && m.contains("Int64"),
        "{m}"
    );
    let m = message(p.is_in("x", &StringArray::from(vec!["a"])));
    assert!(
        m.contains("field `x`") && m.contains("Int64") && m.contains("Utf8"),
        "{m}"
    );
    // A dictionary field takes its value type, and says so.
    let m = message(p.equal("d", &five));
    assert!(
        m.contains("field `d`") && m.contains("whose values are Utf8") && m.contains("Int64"),
        "{m}"
    );
    let m = message(p.between("x", &five, &Float64Array::new_scalar(1.0)));
    assert!(m.contains("field `x`") && m.contains("Float64"), "{m}");
    // A literal must be one value.
    let m = message(p.equal("x", &Int64Array::from(vec![1, 2])));
    assert!(m.contains("one value"), "{m}");
    // String functions need a string field.
    let m = message(p.starts_with("x", "a"));
    assert!(
        m.contains("field `x`") && m.contains("string column"),
        "{m}"
    );
    // A bad Like escape.
    let m = message(p.like("s", r"a\b"));
    assert!(m.contains("field `s`") && m.contains("escape"), "{m}");
    let m = message(p.not_like("d", "ab\\"));
    assert!(m.contains("field `d`"), "{m}");
    // Between needs two literals when built by hand.
    let m = message(p.leaf(Function::Between, "x", Arc::new(Int64Array::from(vec![1]))));
    assert!(m.contains("exactly two"), "{m}");
    // Empty And / Or.
    assert!(message(p.and(vec![])).contains("empty And"));
    assert!(message(p.or(vec![])).contains("empty Or"));
    // A child built by hand over a field the schema lacks.
    let stray = Predicate::Leaf(Leaf::new(
        Function::IsNull,
        "zz",
        Arc::new(Int64Array::from(Vec::<i64>::new())),
    ));
    let m = message(p.and(vec![p.is_null("x").unwrap(), stray]));
    assert!(m.contains("child of this And") && m.contains("`zz`"), "{m}");
    let m = message(p.or(vec![Predicate::And(vec![])]));
    assert!(m.contains("empty And"), "{m}");
}

#[test]
fn builder_accepts_every_constructor() {
    let p = PredicateBuilder::new(schema());
    let one = Int64Array::new_scalar(1);
    let nine = Int64Array::new_scalar(9);
    let null = Scalar::new(Int64Array::new_null(1));
    let built = [
        p.is_null("x"),
        p.is_not_null("f"),
        p.is_nan("f"),
        p.equal("x", &one),
        p.not_equal("x", &null),
        p.less_than("x", &one),
        p.less_or_equal("x", &one),
        p.greater_than("x", &one),
        p.greater_or_equal("x", &one),
        p.equal("d", &StringArray::new_scalar("a")),
        p.is_in("x", &Int64Array::from(vec![Some(1), None])),
        p.is_not_in("d", &StringArray::from(vec!["a"])),
        p.between("x", &one, &nine),
        p.not_between("x", &one, &null),
        p.starts_with("s", "a"),
        p.ends_with("d", "a"),
        p.contains("s", "a"),
        p.like("s", "a%"),
        p.not_starts_with("s", "a"),
        p.not_ends_with("s", "a"),
        p.not_contains("d", "a"),
        p.not_like("s", "_"),
    ];
    let functions: Vec<Function> = built
        .into_iter()
        .map(|r| match r.unwrap() {
            Predicate::Leaf(leaf) => leaf.function,
            other => panic!("{other:?}"),
        })
        .collect();
    use CompareOp::*;
    use Function::*;
    assert_eq!(
        functions,
        [
            IsNull,
            IsNotNull,
            IsNaN,
            Compare(Equal),
            Compare(NotEqual),
            Compare(LessThan),
            Compare(LessOrEqual),
            Compare(GreaterThan),
            Compare(GreaterOrEqual),
            Compare(Equal),
            In,
            NotIn,
            Between,
            NotBetween,
            StartsWith,
            EndsWith,
            Contains,
            Like,
            NotStartsWith,
            NotEndsWith,
            NotContains,
            NotLike,
        ]
    );
}

#[test]
fn and_or_flatten_and_keep_a_single_child() {
    let p = PredicateBuilder::new(schema());
    let a = p.is_null("x").unwrap();
    let b = p.is_not_null("f").unwrap();
    let c = p.equal("x", &Int64Array::new_scalar(2)).unwrap();
    assert_eq!(p.and(vec![a.clone()]).unwrap(), a);
    assert_eq!(p.or(vec![a.clone()]).unwrap(), a);
    // Nested at every depth, also when built by hand.
    let nested = Predicate::And(vec![
        a.clone(),
        Predicate::And(vec![b.clone(), Predicate::And(vec![c.clone()])]),
    ]);
    assert_eq!(
        p.and(vec![nested]).unwrap(),
        Predicate::And(vec![a.clone(), b.clone(), c.clone()])
    );
    // An Or inside an And stays.
    let or = p.or(vec![b.clone(), c.clone()]).unwrap();
    assert_eq!(
        p.and(vec![a.clone(), or.clone()]).unwrap(),
        Predicate::And(vec![a.clone(), or.clone()])
    );
    assert_eq!(
        p.or(vec![or, a.clone()]).unwrap(),
        Predicate::Or(vec![b, c, a])
    );
}

fn batch_x(values: Vec<Option<i64>>) -> RecordBatch {
    RecordBatch::try_from_iter([("x", Arc::new(Int64Array::from(values)) as ArrayRef)]).unwrap()
}

#[test]
fn paimon_or_selects_a_row_with_a_null() {
    // Or(f0 = 3, f1 = 5) on the row (null, 5) selects it.
    let batch = RecordBatch::try_from_iter([
        ("f0", Arc::new(Int64Array::from(vec![None])) as ArrayRef),
        ("f1", Arc::new(Int64Array::from(vec![Some(5)])) as ArrayRef),
    ])
    .unwrap();
    let p = PredicateBuilder::new(batch.schema());
    let pred = p
        .or(vec![
            p.equal("f0", &Int64Array::new_scalar(3)).unwrap(),
            p.equal("f1", &Int64Array::new_scalar(5)).unwrap(),
        ])
        .unwrap();
    check_all_ways(&pred, &batch, &[1]);
}

#[test]
fn paimon_negation_of_an_and_with_is_nan_is_none() {
    let p = PredicateBuilder::new(schema());
    let pred = p
        .and(vec![
            p.greater_than("x", &Int64Array::new_scalar(1)).unwrap(),
            p.is_nan("f").unwrap(),
        ])
        .unwrap();
    assert_eq!(pred.negate(), None);
    assert_eq!(p.is_nan("f").unwrap().negate(), None);
    // Deep inside an Or too.
    let deep = p.or(vec![p.is_null("x").unwrap(), pred]).unwrap();
    assert_eq!(deep.negate(), None);
}

#[test]
fn paimon_negation_of_starts_with_and_greater() {
    // NOT (StartsWith AND x > 1) is NotStartsWith OR x <= 1.
    let p = PredicateBuilder::new(schema());
    let one = Int64Array::new_scalar(1);
    let pred = p
        .and(vec![
            p.starts_with("s", "ab").unwrap(),
            p.greater_than("x", &one).unwrap(),
        ])
        .unwrap();
    let want = p
        .or(vec![
            p.not_starts_with("s", "ab").unwrap(),
            p.less_or_equal("x", &one).unwrap(),
        ])
        .unwrap();
    assert_eq!(pred.negate().unwrap(), want);
    assert_eq!(want.negate().unwrap(), pred);
}

#[test]
fn paimon_between() {
    let batch = batch_x(vec![Some(3), Some(4), Some(5), Some(100), Some(1), None]);
    let p = PredicateBuilder::new(batch.schema());
    let pred = p
        .between("x", &Int64Array::new_scalar(3), &Int64Array::new_scalar(5))
        .unwrap();
    check_all_ways(&pred, &batch, &[1, 1, 1, 0, 0, 0]);
    check_all_ways(&pred.negate().unwrap(), &batch, &[0, 0, 0, 1, 1, 0]);
}

/// Trees whose first child leaves no row undecided, followed by an invalid
/// child: the error comes anyway, and nothing is written.
#[test]
fn invalid_predicates_error_even_with_no_row_left() {
    let batch = batch_x(vec![Some(1), Some(2), None]);
    let p = PredicateBuilder::new(batch.schema());
    let none = p.is_in("x", &Int64Array::from(Vec::<i64>::new())).unwrap(); // selects nothing
    let all = p
        .or(vec![p.is_null("x").unwrap(), p.is_not_null("x").unwrap()])
        .unwrap();
    let invalid = [
        (
            Predicate::Leaf(Leaf::new(
                Function::IsNull,
                "missing",
                Arc::new(Int64Array::from(Vec::<i64>::new())),
            )),
            "`missing`",
        ),
        (
            Predicate::Leaf(Leaf::new(
                Function::Compare(CompareOp::Equal),
                "x",
                Arc::new(StringArray::from(vec!["1"])),
            )),
            "Utf8",
        ),
        (
            Predicate::Leaf(Leaf::new(
                Function::Compare(CompareOp::Equal),
                "x",
                Arc::new(Int64Array::from(Vec::<i64>::new())),
            )),
            "literal",
        ),
        (
            Predicate::Leaf(Leaf::new(
                Function::Between,
                "x",
                Arc::new(Int64Array::from(vec![1, 2, 3])),
            )),
            "exactly two",
        ),
        (
            Predicate::Leaf(Leaf::new(
                Function::Like,
                "x",
                Arc::new(StringArray::from(vec!["a%"])),
            )),
            "string column",
        ),
        (Predicate::Or(vec![]), "empty Or"),
        (Predicate::And(vec![]), "empty And"),
    ];
    for (bad, needle) in invalid {
        for tree in [
            Predicate::And(vec![none.clone(), bad.clone()]),
            Predicate::Or(vec![all.clone(), bad.clone()]),
            Predicate::And(vec![
                none.clone(),
                Predicate::Or(vec![all.clone(), bad.clone()]),
            ]),
            bad.clone(),
        ] {
            assert!(tree.validate(&batch.schema()).is_err());
            for narrowing in NARROWINGS {
                let mut out = [9u8; 3];
                let err = tree
                    .test_into_with(&batch, &mut out, narrowing)
                    .unwrap_err();
                assert!(err.to_string().contains(needle), "{err} lacks {needle}");
                assert_eq!(out, [9, 9, 9], "nothing written");
            }
            assert!(tree.filter(&batch).is_err());
            // Even on an empty batch.
            assert!(tree.test(&batch.slice(0, 0)).is_err());
        }
    }
    // A bad Like pattern in a Like leaf built by hand.
    let s = RecordBatch::try_from_iter([("s", Arc::new(StringArray::from(vec!["a"])) as ArrayRef)])
        .unwrap();
    let bad = Predicate::And(vec![
        Predicate::Leaf(Leaf::new(
            Function::IsNull,
            "s",
            Arc::new(StringArray::from(Vec::<&str>::new())),
        )),
        Predicate::Leaf(Leaf::new(
            Function::Like,
            "s",
            Arc::new(StringArray::from(vec![r"\x"])),
        )),
    ]);
    let err = bad.test(&s).unwrap_err().to_string();
    assert!(err.contains("field `s`") && err.contains("escape"), "{err}");
}

/// A predicate built for one schema, evaluated on a batch whose column of
/// that name has another type: an error, not a cast.
#[test]
fn column_of_another_type_is_an_error() {
    let p = PredicateBuilder::new(schema());
    let pred = p.equal("x", &Int64Array::new_scalar(1)).unwrap();
    let other =
        RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1, 2])) as ArrayRef)])
            .unwrap();
    let err = pred.test(&other).unwrap_err().to_string();
    assert!(
        err.contains("field `x`") && err.contains("Int32") && err.contains("Int64"),
        "{err}"
    );
}

#[test]
fn test_into_checks_the_output_length() {
    let batch = batch_x(vec![Some(1), Some(2)]);
    let pred = PredicateBuilder::new(batch.schema()).is_null("x").unwrap();
    let mut out = [5u8; 1];
    assert!(pred.test_into(&batch, &mut out).is_err());
    assert_eq!(out, [5]);
}

#[test]
fn filter_keeps_selected_rows_of_every_column() {
    let keys = Int32Array::from(vec![Some(0), Some(1), None, Some(0)]);
    let dict =
        DictionaryArray::<Int32Type>::try_new(keys, Arc::new(StringArray::from(vec!["a", "b"])))
            .unwrap();
    let batch = RecordBatch::try_from_iter([
        (
            "x",
            Arc::new(Int64Array::from(vec![1, 2, 3, 4])) as ArrayRef,
        ),
        ("d", Arc::new(dict) as ArrayRef),
    ])
    .unwrap();
    let p = PredicateBuilder::new(batch.schema());
    let pred = p
        .or(vec![
            p.equal("d", &StringArray::new_scalar("a")).unwrap(),
            p.is_null("d").unwrap(),
        ])
        .unwrap();
    let kept = pred.filter(&batch).unwrap();
    assert_eq!(kept.num_rows(), 3);
    assert_eq!(
        kept.column(0).as_ref(),
        &Int64Array::from(vec![1, 3, 4]) as &dyn Array
    );
    // An empty selection and a batch of no rows.
    let none = p.is_in("x", &Int64Array::from(Vec::<i64>::new())).unwrap();
    assert_eq!(none.filter(&batch).unwrap().num_rows(), 0);
    assert_eq!(pred.filter(&batch.slice(0, 0)).unwrap().num_rows(), 0);
}

#[test]
fn fields_lists_each_column_once() {
    let p = PredicateBuilder::new(schema());
    let pred = p
        .and(vec![
            p.is_null("f").unwrap(),
            p.or(vec![p.is_null("x").unwrap(), p.is_not_null("f").unwrap()])
                .unwrap(),
        ])
        .unwrap();
    assert_eq!(pred.fields(), ["f", "x"]);
}

/// Every narrowing on columns of other layouts (views, large offsets,
/// binaries, run-end encoded, dictionaries of integers, decimals, dates,
/// half floats): the gather path must take every column the leaves take.
#[test]
fn gather_handles_every_layout() {
    use arrow_array::types::Int8Type;
    use half::f16;
    let n = 500usize;
    let words = ["", "a", "ab", "abc", "b", "a string past twelve bytes"];
    let word = |i: usize| (i % 7 != 3).then(|| words[i % words.len()]);
    let ree_values = StringArray::from_iter((0..n / 5).map(word));
    let ree = RunArray::<Int32Type>::try_new(
        &Int32Array::from_iter_values((1..=n / 5).map(|k| (k * 5) as i32)),
        &ree_values,
    )
    .unwrap();
    let dict_int = DictionaryArray::<Int8Type>::try_new(
        Int8Array::from_iter((0..n).map(|i| (i % 9 != 0).then_some((i % 4) as i8))),
        Arc::new(Int64Array::from(vec![10, 11, 12, 13])),
    )
    .unwrap();
    let batch = RecordBatch::try_from_iter([
        (
            "sel",
            Arc::new(Int64Array::from_iter_values((0..n as i64).map(|i| i % 10))) as ArrayRef,
        ),
        (
            "view",
            Arc::new(StringViewArray::from_iter((0..n).map(word))) as ArrayRef,
        ),
        (
            "large",
            Arc::new(LargeStringArray::from_iter((0..n).map(word))) as ArrayRef,
        ),
        (
            "bin",
            Arc::new(BinaryArray::from_iter(
                (0..n).map(|i| word(i).map(str::as_bytes)),
            )) as ArrayRef,
        ),
        ("ree", Arc::new(ree) as ArrayRef),
        ("dict_int", Arc::new(dict_int) as ArrayRef),
        (
            "dec",
            Arc::new(
                Decimal128Array::from_iter((0..n).map(|i| (i % 5 != 0).then_some(i as i128 % 13)))
                    .with_precision_and_scale(10, 2)
                    .unwrap(),
            ) as ArrayRef,
        ),
        (
            "date",
            Arc::new(Date32Array::from_iter(
                (0..n).map(|i| (i % 6 != 0).then_some(i as i32 % 17)),
            )) as ArrayRef,
        ),
        (
            "half",
            Arc::new(Float16Array::from_iter((0..n).map(|i| {
                (i % 8 != 0).then(|| f16::from_f32((i % 5) as f32 - 2.0))
            }))) as ArrayRef,
        ),
        (
            "flag",
            Arc::new(BooleanArray::from_iter(
                (0..n).map(|i| (i % 4 != 0).then_some(i % 3 == 0)),
            )) as ArrayRef,
        ),
    ])
    .unwrap();
    let p = PredicateBuilder::new(batch.schema());
    let dec = Scalar::new(
        Decimal128Array::from(vec![7i128])
            .with_precision_and_scale(10, 2)
            .unwrap(),
    );
    let leaves = vec![
        p.starts_with("view", "a").unwrap(),
        p.like("large", "%b%").unwrap(),
        p.equal("bin", &BinaryArray::new_scalar(b"ab")).unwrap(),
        p.not_ends_with("ree", "c").unwrap(),
        p.is_in("dict_int", &Int64Array::from(vec![11, 13]))
            .unwrap(),
        p.less_than("dec", &dec).unwrap(),
        p.between(
            "date",
            &Date32Array::new_scalar(3),
            &Date32Array::new_scalar(9),
        )
        .unwrap(),
        p.greater_than("half", &Float16Array::new_scalar(f16::from_f32(-1.0)))
            .unwrap(),
        p.equal("flag", &BooleanArray::new_scalar(true)).unwrap(),
        p.is_null("ree").unwrap(),
    ];
    for (k, leaf) in leaves.into_iter().enumerate() {
        // `sel < 1` leaves 10% undecided for the And, `sel < 9` 10% for the Or.
        for (tree, and) in [
            (
                p.and(vec![
                    p.less_than("sel", &Int64Array::new_scalar(1)).unwrap(),
                    leaf.clone(),
                ])
                .unwrap(),
                true,
            ),
            (
                p.or(vec![
                    p.less_than("sel", &Int64Array::new_scalar(9)).unwrap(),
                    leaf.clone(),
                ])
                .unwrap(),
                false,
            ),
        ] {
            let Predicate::Leaf(l) = &leaf else { panic!() };
            let column = batch.column_by_name(l.field().unwrap()).unwrap();
            let alone = l
                .function
                .test(column.as_ref(), l.literals.as_ref())
                .unwrap();
            let sel: Vec<u8> = (0..n)
                .map(|i| u8::from(if and { i % 10 < 1 } else { i % 10 < 9 }))
                .collect();
            let want: Vec<u8> = sel
                .iter()
                .zip(&alone)
                .map(|(s, a)| if and { s & a } else { s | a })
                .collect();
            check_all_ways(&tree, &batch, &want);
            check_all_ways(&tree, &batch.slice(13, n - 13), &want[13..]);
            assert_eq!(
                tree.filter(&batch).unwrap().num_rows(),
                want.iter().filter(|&&b| b == 1).count(),
                "leaf {k}"
            );
        }
    }
}

/// `levels` levels of And(Or(And(..(leaf)))), built without recursion.
fn chain(leaf: &Predicate, levels: usize) -> Predicate {
    let mut p = leaf.clone();
    for level in 1..levels {
        p = if level % 2 == 0 {
            Predicate::And(vec![p])
        } else {
            Predicate::Or(vec![p])
        };
    }
    p
}

/// A tree of `Predicate::MAX_DEPTH` levels evaluates on a thread of a
/// half the default 2 MiB stack (a debug build); one level more is
/// an error from every walk that recurses, and a tree 100 000 levels deep
/// is an error at once, not a stack overflow (`depth`, `fields` and
/// `Display` walk it without recursion).
#[test]
fn depth_is_bounded() {
    let run = || {
        let batch = batch_x(vec![Some(1), None, Some(3)]);
        let p = PredicateBuilder::new(batch.schema());
        let leaf = p.greater_than("x", &Int64Array::new_scalar(1)).unwrap();
        let stats = bitbytes::arrow::StatsBatch::new(UInt64Array::from(vec![2, 2]))
            .with_column(
                "x",
                bitbytes::arrow::ColumnStats::new(
                    Arc::new(Int64Array::from(vec![0, 5])),
                    Arc::new(Int64Array::from(vec![1, 9])),
                )
                .with_null_counts(UInt64Array::from(vec![0, 0])),
            )
            .unwrap();
        use bitbytes::arrow::StatsVerdict::{AllMatch, NoMatch};

        let deepest = chain(&leaf, Predicate::MAX_DEPTH);
        assert_eq!(deepest.depth(), Predicate::MAX_DEPTH);
        assert_eq!(deepest.test(&batch).unwrap(), [0, 0, 1]);
        assert_eq!(deepest.test_stats(&stats).unwrap(), [NoMatch, AllMatch]);
        deepest.validate(&batch.schema()).unwrap();
        #[cfg(feature = "json")]
        {
            let schema = batch.schema();
            let json = deepest.to_paimon_json(&schema).unwrap();
            assert_eq!(json.matches("COMPOUND").count(), Predicate::MAX_DEPTH - 1);
            // serde_json reads 128 levels of JSON: about 60 of And / Or.
            let err = Predicate::from_paimon_json(&json, &schema).unwrap_err();
            assert!(
                err.to_string().contains("about 60 levels of And / Or"),
                "{err}"
            );
            // Over a plain field: 63 levels read back, 64 do not.
            let json = chain(&leaf, 63).to_paimon_json(&schema).unwrap();
            let back = Predicate::from_paimon_json(&json, &schema).unwrap();
            assert_eq!(back.depth(), 63);
            assert_eq!(back.to_paimon_json(&schema).unwrap(), json);
            let json = chain(&leaf, 64).to_paimon_json(&schema).unwrap();
            assert!(Predicate::from_paimon_json(&json, &schema).is_err());
        }
        // The builder accepts it as a child, and refuses one level more.
        // (Its top is an Or: an Or with it flattens, an And adds a level.)
        assert!(matches!(deepest, Predicate::Or(_)));
        let or = p.or(vec![deepest.clone(), leaf.clone()]).unwrap();
        assert_eq!(or.depth(), Predicate::MAX_DEPTH);
        let err = p.and(vec![deepest.clone(), leaf.clone()]).unwrap_err();
        let want = format!("nested {} levels deep", Predicate::MAX_DEPTH + 1);
        assert!(err.to_string().contains(&want), "{err}");

        let over = chain(&leaf, Predicate::MAX_DEPTH + 1);
        for err in [
            over.test(&batch).map(drop),
            over.test_stats(&stats).map(drop),
            over.validate(&batch.schema()),
            #[cfg(feature = "json")]
            over.to_paimon_json(&batch.schema()).map(drop),
        ] {
            let err = err.unwrap_err().to_string();
            assert!(err.contains(&want), "{err}");
        }

        // Far deeper: checked before any walk that recurses. Not dropped:
        // `Drop` recurses once a level.
        let abyss = chain(&leaf, 100_000);
        assert_eq!(abyss.depth(), 100_000);
        assert_eq!(abyss.fields(), ["x"]);
        let text = abyss.to_string();
        assert!(
            text.starts_with("((((") && text.contains("x > 1"),
            "{}",
            &text[..40]
        );
        assert_eq!(text.matches('(').count(), 100_000 - 2);
        let err = abyss.test(&batch).unwrap_err().to_string();
        assert!(err.contains("nested 100000 levels deep"), "{err}");
        assert!(abyss.test_stats(&stats).is_err());
        std::mem::forget(abyss);
    };
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}
