//! `Display` of predicates: every function, every literal type, quoting,
//! and the parentheses of nested trees.
#![cfg(feature = "arrow")]

use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_schema::{DataType, Field, Schema};
use bitbytes::arrow::{CompareOp, Function, Leaf, Predicate, PredicateBuilder};

fn leaf(function: Function, field: &str, literals: ArrayRef) -> Predicate {
    Predicate::Leaf(Leaf::new(function, field, literals))
}

fn ints(v: &[i64]) -> ArrayRef {
    Arc::new(Int64Array::from(v.to_vec()))
}

fn text(v: &str) -> ArrayRef {
    Arc::new(StringArray::from(vec![v]))
}

#[test]
fn every_function() {
    let none: ArrayRef = Arc::new(NullArray::new(0));
    let cases: Vec<(Predicate, &str)> = vec![
        (leaf(Function::IsNull, "a", none.clone()), "a IS NULL"),
        (
            leaf(Function::IsNotNull, "a", none.clone()),
            "a IS NOT NULL",
        ),
        (leaf(Function::IsNaN, "a", none), "is_nan(a)"),
        (
            leaf(Function::Compare(CompareOp::Equal), "a", ints(&[3])),
            "a = 3",
        ),
        (
            leaf(Function::Compare(CompareOp::NotEqual), "a", ints(&[3])),
            "a <> 3",
        ),
        (
            leaf(Function::Compare(CompareOp::LessThan), "a", ints(&[-3])),
            "a < -3",
        ),
        (
            leaf(Function::Compare(CompareOp::LessOrEqual), "a", ints(&[3])),
            "a <= 3",
        ),
        (
            leaf(Function::Compare(CompareOp::GreaterThan), "a", ints(&[3])),
            "a > 3",
        ),
        (
            leaf(
                Function::Compare(CompareOp::GreaterOrEqual),
                "a",
                ints(&[3]),
            ),
            "a >= 3",
        ),
        (leaf(Function::In, "a", ints(&[1, 2, 3])), "a IN (1, 2, 3)"),
        (leaf(Function::NotIn, "a", ints(&[1])), "a NOT IN (1)"),
        (leaf(Function::In, "a", ints(&[])), "a IN ()"),
        (
            leaf(Function::Between, "a", ints(&[1, 9])),
            "a BETWEEN 1 AND 9",
        ),
        (
            leaf(Function::NotBetween, "a", ints(&[1, 9])),
            "a NOT BETWEEN 1 AND 9",
        ),
        (
            leaf(Function::StartsWith, "s", text("ab")),
            "starts_with(s, 'ab')",
        ),
        (
            leaf(Function::EndsWith, "s", text("ab")),
            "ends_with(s, 'ab')",
        ),
        (
            leaf(Function::Contains, "s", text("ab")),
            "contains(s, 'ab')",
        ),
        (leaf(Function::Like, "s", text("A%_")), "s LIKE 'A%_'"),
        (
            leaf(Function::NotStartsWith, "s", text("ab")),
            "NOT starts_with(s, 'ab')",
        ),
        (
            leaf(Function::NotEndsWith, "s", text("ab")),
            "NOT ends_with(s, 'ab')",
        ),
        (
            leaf(Function::NotContains, "s", text("ab")),
            "NOT contains(s, 'ab')",
        ),
        (leaf(Function::NotLike, "s", text("A%")), "s NOT LIKE 'A%'"),
        (leaf(Function::AlwaysTrue, "a", ints(&[])), "TRUE"),
        (leaf(Function::AlwaysFalse, "a", ints(&[])), "FALSE"),
        (
            leaf(Function::ArrayContains, "tags", text("ab")),
            "ARRAY_CONTAINS(tags, 'ab')",
        ),
        (
            leaf(Function::ArrayContainsAll, "tags", ints(&[1, 2])),
            "ARRAY_CONTAINS_ALL(tags, ARRAY[1, 2])",
        ),
        (
            leaf(Function::ArraysOverlap, "tags", ints(&[])),
            "ARRAYS_OVERLAP(tags, ARRAY[])",
        ),
        // A hand-built leaf with too few literals still displays.
        (
            leaf(Function::Between, "a", ints(&[1])),
            "a BETWEEN 1 AND <missing>",
        ),
    ];
    for (p, want) in cases {
        assert_eq!(p.to_string(), want);
    }
    // Every function was shown above (the enum has no other variant).
    assert_eq!(Function::ALL.len(), 26);
}

#[test]
fn every_literal_type() {
    let eq =
        |literals: ArrayRef| leaf(Function::Compare(CompareOp::Equal), "x", literals).to_string();
    assert_eq!(eq(Arc::new(BooleanArray::from(vec![true]))), "x = true");
    assert_eq!(eq(Arc::new(Int8Array::from(vec![-8i8]))), "x = -8");
    assert_eq!(
        eq(Arc::new(UInt64Array::from(vec![u64::MAX]))),
        format!("x = {}", u64::MAX)
    );
    assert_eq!(eq(Arc::new(Float64Array::from(vec![1.0]))), "x = 1.0");
    assert_eq!(eq(Arc::new(Float64Array::from(vec![-0.0]))), "x = -0.0");
    assert_eq!(eq(Arc::new(Float32Array::from(vec![f32::NAN]))), "x = NaN");
    assert_eq!(
        eq(Arc::new(Float64Array::from(vec![f64::NEG_INFINITY]))),
        "x = -inf"
    );
    assert_eq!(
        eq(Arc::new(Float16Array::from(vec![half::f16::from_f32(1.5)]))),
        "x = 1.5"
    );
    assert_eq!(eq(text("it's")), "x = 'it''s'");
    assert_eq!(eq(Arc::new(LargeStringArray::from(vec!["l"]))), "x = 'l'");
    assert_eq!(
        eq(Arc::new(StringViewArray::from(vec![
            "a view string longer than twelve"
        ]))),
        "x = 'a view string longer than twelve'"
    );
    assert_eq!(
        eq(Arc::new(BinaryArray::from(vec![&[0x0a, 0xff][..]]))),
        "x = X'0aff'"
    );
    assert_eq!(
        eq(Arc::new(BinaryViewArray::from(vec![&b""[..]]))),
        "x = X''"
    );
    assert_eq!(
        eq(Arc::new(
            Decimal128Array::from(vec![12345])
                .with_precision_and_scale(10, 2)
                .unwrap()
        )),
        "x = 123.45"
    );
    assert_eq!(
        eq(Arc::new(Date32Array::from(vec![0]))),
        "x = DATE '1970-01-01'"
    );
    assert_eq!(
        eq(Arc::new(Date64Array::from(vec![86_400_000]))),
        "x = DATE '1970-01-02'"
    );
    assert_eq!(
        eq(Arc::new(TimestampMicrosecondArray::from(vec![1_500_000]))),
        "x = TIMESTAMP '1970-01-01 00:00:01.500'"
    );
    assert_eq!(
        eq(Arc::new(Time32SecondArray::from(vec![3_661]))),
        "x = TIME '01:01:01'"
    );
    assert_eq!(
        eq(Arc::new(Int64Array::from(vec![None::<i64>]))),
        "x = NULL"
    );
    let dict: DictionaryArray<Int32Type> = vec!["b", "a", "b"].into_iter().collect();
    assert_eq!(eq(Arc::new(dict.slice(1, 1))), "x = 'a'");
    assert_eq!(eq(Arc::new(NullArray::new(1))), "x = NULL");
    // A type without a rendering names its type.
    let interval: ArrayRef = Arc::new(IntervalYearMonthArray::from(vec![1]));
    assert_eq!(eq(interval), "x = <Interval(YearMonth) literal>");
    // IN over nulls and values.
    let list: ArrayRef = Arc::new(StringArray::from(vec![Some("a"), None]));
    assert_eq!(
        leaf(Function::In, "x", list).to_string(),
        "x IN ('a', NULL)"
    );
}

#[test]
fn field_names_are_quoted_unless_plain() {
    let show = |name: &str| leaf(Function::IsNull, name, Arc::new(NullArray::new(0))).to_string();
    assert_eq!(show("price_2"), "price_2 IS NULL");
    assert_eq!(show("_x"), "_x IS NULL");
    assert_eq!(show("größe"), "größe IS NULL");
    assert_eq!(show("2x"), "\"2x\" IS NULL");
    assert_eq!(show("a b"), "\"a b\" IS NULL");
    assert_eq!(show("say \"hi\""), "\"say \"\"hi\"\"\" IS NULL");
    assert_eq!(show(""), "\"\" IS NULL");
}

#[test]
fn nested_trees_are_parenthesised() {
    let a = leaf(Function::Compare(CompareOp::LessThan), "a", ints(&[1]));
    let b = leaf(Function::Compare(CompareOp::GreaterThan), "b", ints(&[2]));
    let c = leaf(Function::Like, "c", text("x%"));
    let or = Predicate::Or(vec![b.clone(), c.clone()]);
    let tree = Predicate::And(vec![a.clone(), or.clone()]);
    assert_eq!(tree.to_string(), "a < 1 AND (b > 2 OR c LIKE 'x%')");
    let tree = Predicate::Or(vec![Predicate::And(vec![a.clone(), b.clone()]), c.clone()]);
    assert_eq!(tree.to_string(), "(a < 1 AND b > 2) OR c LIKE 'x%'");
    // Nested Ands (not flattened when built by hand) keep their structure.
    let tree = Predicate::And(vec![Predicate::And(vec![a.clone(), b]), c]);
    assert_eq!(tree.to_string(), "(a < 1 AND b > 2) AND c LIKE 'x%'");
    // The negation, as negate() builds it.
    assert_eq!(
        Predicate::And(vec![a, or]).negate().unwrap().to_string(),
        "a >= 1 OR (b <= 2 AND c NOT LIKE 'x%')"
    );
}

#[test]
fn built_by_the_builder() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("city", DataType::Utf8, true),
        Field::new("price", DataType::Float64, true),
        Field::new("name", DataType::Utf8, true),
    ]));
    let b = PredicateBuilder::new(schema);
    let p = b
        .and(vec![
            b.is_in("city", &StringArray::from(vec!["Oslo", "Rome"]))
                .unwrap(),
            b.or(vec![
                b.less_than("price", &Float64Array::new_scalar(50.0))
                    .unwrap(),
                b.like("name", "A%").unwrap(),
            ])
            .unwrap(),
        ])
        .unwrap();
    assert_eq!(
        p.to_string(),
        "city IN ('Oslo', 'Rome') AND (price < 50.0 OR name LIKE 'A%')"
    );
}
