//! Statistics verdicts: soundness against the containers' actual rows, the
//! Java rules, and errors.
#![cfg(feature = "arrow")]

use arrow_array::types::Int64Type;
use arrow_array::{
    ArrayRef, Float32Array, Float64Array, Int32Array, Int64Array, ListArray, RecordBatch,
    StringArray, UInt64Array,
};
use arrow_schema::{DataType, Field};
use bitbytes::arrow::{
    ColumnStats, CompareOp, Function, Leaf, Predicate, StatsBatch, StatsVerdict, StatsVerdict::*,
};
use proptest::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;

/// Java's `Double.compare`.
fn java_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.total_cmp(&b),
    }
}

/// One container's rows: (i, f, s).
type Row = (Option<i64>, Option<f64>, Option<String>);

/// The list column `a` of a row, derived from its `i`: null with it, else
/// `[i, i + 1]` with the second element null for odd `i`.
fn list_of(row: &Row) -> Option<Vec<Option<i64>>> {
    row.0.map(|i| vec![Some(i), (i % 2 == 0).then_some(i + 1)])
}

fn lists<'r>(rows: impl IntoIterator<Item = Option<&'r Row>>) -> ListArray {
    ListArray::from_iter_primitive::<Int64Type, _, _>(rows.into_iter().map(|r| r.and_then(list_of)))
}

const FLOATS: [f64; 7] = [-1.0, -0.0, 0.0, 1.0, 2.5, f64::INFINITY, f64::NAN];
const STRINGS: [&str; 10] = [
    "", "a", "ab", "abc", "abd", "b", "ba", "c", "abcdefg", "abcdefgh",
];

fn row() -> impl Strategy<Value = Row> {
    (
        proptest::option::weighted(0.8, -3i64..=3),
        proptest::option::weighted(0.8, 0..FLOATS.len()).prop_map(|o| o.map(|i| FLOATS[i])),
        proptest::option::weighted(0.8, 0..STRINGS.len())
            .prop_map(|o| o.map(|i| STRINGS[i].to_string())),
    )
}

/// How each container's stats are known: (min/max dropped, null count
/// dropped, row count dropped).
fn unknowns() -> impl Strategy<Value = (bool, bool, bool)> {
    (
        proptest::bool::weighted(0.1),
        proptest::bool::weighted(0.2),
        proptest::bool::weighted(0.1),
    )
}

/// Min and max of `values` in `cmp`'s order.
fn bounds<T: Clone>(values: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Option<(T, T)> {
    let min = values.iter().min_by(|a, b| cmp(a, b))?.clone();
    let max = values.iter().max_by(|a, b| cmp(a, b))?.clone();
    Some((min, max))
}

/// A string truncated to one byte as a lower / upper bound (Paimon's
/// `truncate`: the max's last kept character incremented).
fn truncate(s: &str, upper: bool) -> String {
    if s.len() <= 1 {
        return s.to_string();
    }
    let first = s.as_bytes()[0];
    String::from_utf8(vec![if upper { first + 1 } else { first }]).unwrap()
}

#[derive(Debug)]
struct Case {
    containers: Vec<(Vec<Row>, (bool, bool, bool))>,
    nan_excluded: bool,
    truncated: bool,
    /// With `nan_excluded`: zero bounds written with the narrowing sign, as
    /// an IEEE-ordered writer may (a zero min as `+0.0`, a zero max as
    /// `-0.0`, whatever zeros the container holds).
    ieee_zeros: bool,
}

impl Case {
    fn batch(&self) -> RecordBatch {
        let rows: Vec<&Row> = self.containers.iter().flat_map(|(r, _)| r).collect();
        RecordBatch::try_from_iter([
            (
                "i",
                Arc::new(rows.iter().map(|r| r.0).collect::<Int64Array>()) as ArrayRef,
            ),
            (
                "f",
                Arc::new(rows.iter().map(|r| r.1).collect::<Float64Array>()) as ArrayRef,
            ),
            (
                "s",
                Arc::new(rows.iter().map(|r| r.2.clone()).collect::<StringArray>()) as ArrayRef,
            ),
            (
                "a",
                Arc::new(lists(rows.iter().map(|r| Some(*r)))) as ArrayRef,
            ),
        ])
        .unwrap()
    }

    fn stats(&self) -> StatsBatch {
        let row_counts: UInt64Array = self
            .containers
            .iter()
            .map(|(r, (_, _, no_rows))| (!no_rows).then_some(r.len() as u64))
            .collect();
        let null_counts = |nulls: &dyn Fn(&Row) -> bool| -> UInt64Array {
            self.containers
                .iter()
                .map(|(r, (_, no_nulls, _))| {
                    (!no_nulls).then(|| r.iter().filter(|x| nulls(x)).count() as u64)
                })
                .collect()
        };
        let (mut imin, mut imax, mut fmin, mut fmax, mut smin, mut smax) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        let mut nan_counts = vec![];
        for (rows, (no_bounds, _, _)) in &self.containers {
            let ints: Vec<i64> = rows.iter().filter_map(|r| r.0).collect();
            let floats: Vec<f64> = rows
                .iter()
                .filter_map(|r| r.1)
                .filter(|f| !(self.nan_excluded && f.is_nan()))
                .collect();
            nan_counts.push(rows.iter().filter(|r| r.1.is_some_and(f64::is_nan)).count() as u64);
            let strings: Vec<String> = rows.iter().filter_map(|r| r.2.clone()).collect();
            let (i, f, s) = if *no_bounds {
                (None, None, None)
            } else {
                (
                    bounds(&ints, Ord::cmp),
                    bounds(&floats, |a, b| java_cmp(*a, *b)),
                    bounds(&strings, Ord::cmp),
                )
            };
            imin.push(i.map(|b| b.0));
            imax.push(i.map(|b| b.1));
            let ieee = self.nan_excluded && self.ieee_zeros;
            let zero = |v: f64, sign: f64| if ieee && v == 0.0 { sign * 0.0 } else { v };
            fmin.push(f.map(|b| zero(b.0, 1.0)));
            fmax.push(f.map(|b| zero(b.1, -1.0)));
            let s = s.map(|(lo, hi)| {
                if self.truncated {
                    (truncate(&lo, false), truncate(&hi, true))
                } else {
                    (lo, hi)
                }
            });
            smin.push(s.as_ref().map(|b| b.0.clone()));
            smax.push(s.map(|b| b.1));
        }
        let ints = ColumnStats::new(
            Arc::new(Int64Array::from(imin)),
            Arc::new(Int64Array::from(imax)),
        )
        .with_null_counts(null_counts(&|r| r.0.is_none()));
        let mut floats = ColumnStats::new(
            Arc::new(Float64Array::from(fmin)),
            Arc::new(Float64Array::from(fmax)),
        )
        .with_null_counts(null_counts(&|r| r.1.is_none()));
        if self.nan_excluded {
            floats = floats
                .nan_excluded()
                .with_nan_counts(UInt64Array::from(nan_counts));
        }
        let mut strings = ColumnStats::new(
            Arc::new(StringArray::from(smin)),
            Arc::new(StringArray::from(smax)),
        )
        .with_null_counts(null_counts(&|r| r.2.is_none()));
        if self.truncated {
            strings = strings.truncated();
        }
        // The list column's bounds carry no order the rules read: known (a
        // row's list as both) or unknown, to reach both of Java's paths.
        let list_bounds = lists(self.containers.iter().map(|(rows, (no_bounds, _, _))| {
            (!no_bounds)
                .then(|| rows.iter().find(|r| r.0.is_some()))
                .flatten()
        }));
        let arrays = ColumnStats::new(Arc::new(list_bounds.clone()), Arc::new(list_bounds))
            .with_null_counts(null_counts(&|r| r.0.is_none()));
        StatsBatch::new(row_counts)
            .with_column("a", arrays)
            .unwrap()
            .with_column("i", ints)
            .unwrap()
            .with_column("f", floats)
            .unwrap()
            .with_column("s", strings)
            .unwrap()
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        // Up to three words of 64: whole active words, partial and sparse ones.
        proptest::collection::vec((proptest::collection::vec(row(), 0..5), unknowns()), 1..160),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(containers, nan_excluded, truncated, ieee_zeros)| Case {
            containers,
            nan_excluded,
            truncated,
            ieee_zeros,
        })
}

fn ordered_function() -> impl Strategy<Value = Function> {
    prop_oneof![
        Just(Function::IsNull),
        Just(Function::IsNotNull),
        Just(Function::IsNaN),
        proptest::sample::select(CompareOp::ALL.to_vec()).prop_map(Function::Compare),
        Just(Function::In),
        Just(Function::NotIn),
        Just(Function::Between),
        Just(Function::NotBetween),
    ]
}

fn literal_count(function: Function) -> std::ops::Range<usize> {
    match function {
        Function::Compare(_) => 1..2,
        Function::Between | Function::NotBetween => 2..3,
        // Up to 16: from 8 distinct literals on, IN searches a rank table.
        Function::In | Function::NotIn => 0..16,
        _ => 0..1,
    }
}

fn leaf() -> impl Strategy<Value = Predicate> {
    let int = ordered_function().prop_flat_map(|f| {
        proptest::collection::vec(proptest::option::weighted(0.9, -4i64..=4), literal_count(f))
            .prop_map(move |l| Leaf::new(f, "i", Arc::new(Int64Array::from(l))))
    });
    let float = ordered_function().prop_flat_map(|f| {
        proptest::collection::vec(
            proptest::option::weighted(0.9, 0..FLOATS.len()).prop_map(|o| o.map(|i| FLOATS[i])),
            literal_count(f),
        )
        .prop_map(move |l| Leaf::new(f, "f", Arc::new(Float64Array::from(l))))
    });
    // The string column takes every function but the array functions,
    // which need a list column.
    let string_fn = proptest::sample::select(
        Function::ALL
            .iter()
            .copied()
            .filter(|f| {
                !matches!(
                    f,
                    Function::ArrayContains | Function::ArrayContainsAll | Function::ArraysOverlap
                )
            })
            .collect::<Vec<_>>(),
    );
    let string = string_fn.prop_flat_map(|f| {
        let literals: BoxedStrategy<Vec<Option<String>>> = match f {
            Function::Compare(_)
            | Function::Between
            | Function::NotBetween
            | Function::In
            | Function::NotIn => proptest::collection::vec(
                proptest::option::weighted(0.9, proptest::sample::select(STRINGS.to_vec()))
                    .prop_map(|o| o.map(str::to_string)),
                literal_count(f),
            )
            .boxed(),
            Function::IsNull | Function::IsNotNull | Function::IsNaN => Just(vec![]).boxed(),
            _ => proptest::option::weighted(
                0.9,
                proptest::sample::select(vec![
                    "",
                    "a",
                    "ab",
                    "b",
                    "a%",
                    "ab%",
                    "abc%",
                    "%",
                    "%b",
                    "a_",
                    "_b%",
                    "b%",
                    "abcdefg",
                    "abcdefgh",
                    "abcdefg%",
                    "abcdefgh%",
                ]),
            )
            .prop_map(|o| vec![o.map(str::to_string)])
            .boxed(),
        };
        literals.prop_map(move |l| Leaf::new(f, "s", Arc::new(StringArray::from(l))))
    });
    let array = proptest::sample::select(vec![
        Function::ArrayContains,
        Function::ArrayContainsAll,
        Function::ArraysOverlap,
    ])
    .prop_flat_map(|f| {
        let count = if f == Function::ArrayContains {
            1..2
        } else {
            0..4
        };
        proptest::collection::vec(proptest::option::weighted(0.8, -4i64..=4), count)
            .prop_map(move |l| Leaf::new(f, "a", Arc::new(Int64Array::from(l))))
    });
    prop_oneof![int, float, string, array].prop_map(Predicate::Leaf)
}

fn tree() -> impl Strategy<Value = Predicate> {
    leaf().prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 1..4).prop_map(Predicate::And),
            proptest::collection::vec(inner, 1..4).prop_map(Predicate::Or),
        ]
    })
}

/// NoMatch hides no selected row, AllMatch covers no rejected one.
fn check_sound(case: &Case, predicate: &Predicate) {
    let selected = predicate.test(&case.batch()).unwrap();
    let verdicts = predicate.test_stats(&case.stats()).unwrap();
    // The other two outputs say the same.
    let mut into = vec![MayMatch; verdicts.len() + 1];
    predicate.test_stats_into(&case.stats(), &mut into).unwrap();
    assert_eq!(&into[..verdicts.len()], &verdicts[..], "{predicate}");
    assert_eq!(into[verdicts.len()], MayMatch, "past the batch: left alone");
    let kept: Vec<usize> = (0..verdicts.len())
        .filter(|&c| verdicts[c] != NoMatch)
        .collect();
    assert_eq!(
        predicate.test_stats_indices(&case.stats()).unwrap(),
        kept,
        "{predicate}"
    );
    let mut at = 0;
    for (c, ((rows, _), verdict)) in case.containers.iter().zip(&verdicts).enumerate() {
        let bytes = &selected[at..at + rows.len()];
        at += rows.len();
        match verdict {
            NoMatch => assert!(
                bytes.iter().all(|&b| b == 0),
                "container {c} NoMatch but rows {rows:?} give {bytes:?} for {predicate}"
            ),
            AllMatch => assert!(
                bytes.iter().all(|&b| b == 1),
                "container {c} AllMatch but rows {rows:?} give {bytes:?} for {predicate}"
            ),
            MayMatch => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn leaves_are_sound(case in case(), predicate in leaf()) {
        check_sound(&case, &predicate);
    }

    #[test]
    fn trees_are_sound(case in case(), predicate in tree()) {
        check_sound(&case, &predicate);
    }
}

/// One container of an Int64 field: (min, max, null count, row count).
type IntContainer = (Option<i64>, Option<i64>, Option<u64>, Option<u64>);

/// Stats of one Int64 field `x`.
fn int_stats(c: &[IntContainer]) -> StatsBatch {
    StatsBatch::new(c.iter().map(|c| c.3).collect())
        .with_column(
            "x",
            ColumnStats::new(
                Arc::new(c.iter().map(|c| c.0).collect::<Int64Array>()),
                Arc::new(c.iter().map(|c| c.1).collect::<Int64Array>()),
            )
            .with_null_counts(c.iter().map(|c| c.2).collect()),
        )
        .unwrap()
}

fn leaf_x(function: Function, literals: Vec<Option<i64>>) -> Predicate {
    Predicate::Leaf(Leaf::new(
        function,
        "x",
        Arc::new(Int64Array::from(literals)),
    ))
}

fn kept(p: &Predicate, s: &StatsBatch) -> Vec<bool> {
    p.test_stats(s)
        .unwrap()
        .iter()
        .map(|v| *v != NoMatch)
        .collect()
}

/// `test_stats_indices` and `test_stats_into` against `test_stats` on
/// batches that end inside a word, on a word's edge and past it, with
/// NoMatch, MayMatch, AllMatch and unknown containers mixed.
#[test]
fn indices_and_into_agree_across_words() {
    for n in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 200, 1000] {
        let containers: Vec<IntContainer> = (0..n as i64)
            .map(|i| match i % 7 {
                0 => (None, None, Some(0), Some(5)),
                1 | 4 => (Some(100 + i), Some(200 + i), Some(0), Some(5)),
                2 => (Some(i), Some(i), Some(0), Some(5)),
                _ => (Some(i % 50), Some(60 + i % 50), Some(1), Some(5)),
            })
            .collect();
        let stats = int_stats(&containers);
        for p in [
            leaf_x(Function::Compare(CompareOp::LessThan), vec![Some(40)]),
            leaf_x(Function::IsNull, vec![]),
        ] {
            let verdicts = p.test_stats(&stats).unwrap();
            assert_eq!(verdicts.len(), n);
            let kept: Vec<usize> = (0..n).filter(|&c| verdicts[c] != NoMatch).collect();
            assert_eq!(p.test_stats_indices(&stats).unwrap(), kept, "{p}, {n}");
            // Some of each verdict once there are enough containers.
            if n >= 7 {
                assert!(kept.len() < n, "{p}, {n}: nothing pruned");
                assert!(!kept.is_empty(), "{p}, {n}: everything pruned");
            }
            let mut into = vec![AllMatch; n + 3];
            p.test_stats_into(&stats, &mut into).unwrap();
            assert_eq!(&into[..n], &verdicts[..], "{p}, {n}");
            assert_eq!(&into[n..], &[AllMatch; 3], "{p}, {n}");
        }
    }
}

#[test]
fn java_rules_by_function() {
    // [0, 10] with no null, [0, 10] with nulls, [5, 5], all null, unknown bounds, unknown null count.
    let s = int_stats(&[
        (Some(0), Some(10), Some(0), Some(4)),
        (Some(0), Some(10), Some(1), Some(4)),
        (Some(5), Some(5), Some(0), Some(4)),
        (None, None, Some(4), Some(4)),
        (None, None, Some(0), Some(4)),
        (Some(0), Some(10), None, Some(4)),
    ]);
    let cmp = |op| leaf_x(Function::Compare(op), vec![Some(5)]);
    use CompareOp::*;
    assert_eq!(kept(&cmp(Equal), &s), [true, true, true, false, true, true]);
    assert_eq!(
        kept(&cmp(NotEqual), &s),
        [true, true, false, false, true, true]
    );
    let lt0 = leaf_x(Function::Compare(LessThan), vec![Some(0)]);
    assert_eq!(kept(&lt0, &s), [false, false, false, false, true, false]);
    let le0 = leaf_x(Function::Compare(LessOrEqual), vec![Some(0)]);
    assert_eq!(kept(&le0, &s), [true, true, false, false, true, true]);
    let gt10 = leaf_x(Function::Compare(GreaterThan), vec![Some(10)]);
    assert_eq!(kept(&gt10, &s), [false, false, false, false, true, false]);
    let in_ = leaf_x(Function::In, vec![Some(20), None, Some(5)]);
    assert_eq!(kept(&in_, &s), [true, true, true, false, true, true]);
    let not_in = leaf_x(Function::NotIn, vec![Some(5)]);
    assert_eq!(kept(&not_in, &s), [true, true, false, false, true, true]);
    let not_in_null = leaf_x(Function::NotIn, vec![Some(50), None]);
    assert_eq!(
        kept(&not_in_null, &s),
        [false, false, false, false, true, false]
    );
    let between = leaf_x(Function::Between, vec![Some(6), Some(9)]);
    assert_eq!(kept(&between, &s), [true, true, false, false, true, true]);
    let not_between = leaf_x(Function::NotBetween, vec![Some(0), Some(10)]);
    assert_eq!(
        kept(&not_between, &s),
        [false, false, false, false, true, false]
    );
    // IsNull: Java keeps unknown bounds; a known null count of 0 prunes (listed).
    let is_null = leaf_x(Function::IsNull, vec![]);
    assert_eq!(kept(&is_null, &s), [false, true, false, true, false, true]);
    assert_eq!(
        is_null.test_stats(&s).unwrap()[3],
        AllMatch,
        "an all-null container is AllMatch for IsNull"
    );
    let is_not_null = leaf_x(Function::IsNotNull, vec![]);
    assert_eq!(
        kept(&is_not_null, &s),
        [true, true, true, false, true, true]
    );
    // A null literal: pruned where the null count is known (and the bounds),
    // MayMatch where Java throws (unknown null count).
    let null_lit = leaf_x(Function::Compare(Equal), vec![None]);
    assert_eq!(
        kept(&null_lit, &s),
        [false, false, false, false, true, true]
    );
}

#[test]
fn all_match_needs_known_nulls_and_exact_equality() {
    let s = int_stats(&[
        (Some(5), Some(5), Some(0), Some(4)),
        (Some(5), Some(5), Some(1), Some(4)),
        (Some(5), Some(5), None, Some(4)),
    ]);
    let eq = leaf_x(Function::Compare(CompareOp::Equal), vec![Some(5)]);
    assert_eq!(eq.test_stats(&s).unwrap(), [AllMatch, MayMatch, MayMatch]);
    // Truncated bounds: min = max = literal proves nothing.
    let t = StatsBatch::new(UInt64Array::from(vec![3]))
        .with_column(
            "s",
            ColumnStats::new(
                Arc::new(StringArray::from(vec!["ab"])),
                Arc::new(StringArray::from(vec!["ab"])),
            )
            .with_null_counts(UInt64Array::from(vec![0]))
            .truncated(),
        )
        .unwrap();
    let s_leaf =
        |f, l: &str| Predicate::Leaf(Leaf::new(f, "s", Arc::new(StringArray::from(vec![l]))));
    assert_eq!(
        s_leaf(Function::Compare(CompareOp::Equal), "ab")
            .test_stats(&t)
            .unwrap(),
        [MayMatch]
    );
    assert_eq!(
        s_leaf(Function::Compare(CompareOp::NotEqual), "ab")
            .test_stats(&t)
            .unwrap(),
        [MayMatch]
    );
    assert_eq!(
        s_leaf(Function::NotIn, "ab").test_stats(&t).unwrap(),
        [MayMatch]
    );
    assert_eq!(
        s_leaf(Function::StartsWith, "a").test_stats(&t).unwrap(),
        [AllMatch]
    );
    assert_eq!(
        s_leaf(Function::Like, "b%").test_stats(&t).unwrap(),
        [NoMatch]
    );
    assert_eq!(
        s_leaf(Function::EndsWith, "z").test_stats(&t).unwrap(),
        [MayMatch]
    );
}

/// An IEEE-ordered writer (Parquet) may write `+0.0` as the min of a
/// container holding `-0.0`, and `-0.0` as the max of one holding `+0.0`;
/// in Java's order `-0.0 < +0.0`, so such bounds are widened before use.
#[test]
fn nan_excluded_zero_bounds_are_widened() {
    let stats = |min: f64, max: f64, nan_excluded: bool| {
        let column = ColumnStats::new(
            Arc::new(Float32Array::from(vec![min as f32])),
            Arc::new(Float32Array::from(vec![max as f32])),
        )
        .with_null_counts(UInt64Array::from(vec![0]))
        .with_nan_counts(UInt64Array::from(vec![0]));
        let column = if nan_excluded {
            column.nan_excluded()
        } else {
            column
        };
        StatsBatch::new(UInt64Array::from(vec![2]))
            .with_column("f", column)
            .unwrap()
    };
    let leaf = |op, l: f32| {
        Predicate::Leaf(Leaf::new(
            Function::Compare(op),
            "f",
            Arc::new(Float32Array::from(vec![l])),
        ))
    };
    // Rows {-0.0, 1.0}, min written as +0.0: the row -0.0 satisfies x < 0.0.
    let lt = leaf(CompareOp::LessThan, 0.0);
    assert_eq!(lt.test_stats(&stats(0.0, 1.0, true)).unwrap(), [MayMatch]);
    // Rows {-1.0, +0.0}, max written as -0.0: the row +0.0 satisfies x > -0.0.
    let gt = leaf(CompareOp::GreaterThan, -0.0);
    assert_eq!(gt.test_stats(&stats(-1.0, -0.0, true)).unwrap(), [MayMatch]);
    // Rows {+0.0}, written min = max = -0.0 by an IEEE writer: not AllMatch
    // for x = -0.0 (Java: +0.0 != -0.0), nor NoMatch for x = +0.0.
    let eq = |l| leaf(CompareOp::Equal, l);
    assert_eq!(
        eq(-0.0).test_stats(&stats(-0.0, -0.0, true)).unwrap(),
        [MayMatch]
    );
    assert_eq!(
        eq(0.0).test_stats(&stats(-0.0, -0.0, true)).unwrap(),
        [MayMatch]
    );
    // Paimon's own (Java-ordered) bounds are values: pruned as Java does.
    assert_eq!(lt.test_stats(&stats(0.0, 1.0, false)).unwrap(), [NoMatch]);
    assert_eq!(gt.test_stats(&stats(-1.0, -0.0, false)).unwrap(), [NoMatch]);
    // Bounds away from zero are untouched.
    assert_eq!(lt.test_stats(&stats(0.5, 1.0, true)).unwrap(), [NoMatch]);
}

#[test]
fn nan_excluded_bounds_keep_nan_rows() {
    let stats = |nan_counts: Option<u64>| {
        StatsBatch::new(UInt64Array::from(vec![3]))
            .with_column(
                "f",
                ColumnStats::new(
                    Arc::new(Float64Array::from(vec![1.0])),
                    Arc::new(Float64Array::from(vec![2.0])),
                )
                .with_null_counts(UInt64Array::from(vec![0]))
                .with_nan_counts(UInt64Array::from(vec![nan_counts]))
                .nan_excluded(),
            )
            .unwrap()
    };
    let gt = |l: f64| {
        Predicate::Leaf(Leaf::new(
            Function::Compare(CompareOp::GreaterThan),
            "f",
            Arc::new(Float64Array::from(vec![l])),
        ))
    };
    // NaN > 5 in Java's order: NaN rows may match.
    assert_eq!(gt(5.0).test_stats(&stats(None)).unwrap(), [MayMatch]);
    assert_eq!(gt(5.0).test_stats(&stats(Some(0))).unwrap(), [NoMatch]);
    // 0 < every value, and NaN > 0 too.
    assert_eq!(gt(0.0).test_stats(&stats(None)).unwrap(), [AllMatch]);
    let lt = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::LessThan),
        "f",
        Arc::new(Float64Array::from(vec![5.0])),
    ));
    assert_eq!(lt.test_stats(&stats(Some(1))).unwrap(), [MayMatch]);
    assert_eq!(lt.test_stats(&stats(Some(0))).unwrap(), [AllMatch]);
    // Paimon's own order: a max of NaN means NaN rows.
    let paimon = StatsBatch::new(UInt64Array::from(vec![3]))
        .with_column(
            "f",
            ColumnStats::new(
                Arc::new(Float64Array::from(vec![1.0])),
                Arc::new(Float64Array::from(vec![f64::NAN])),
            ),
        )
        .unwrap();
    assert_eq!(gt(5.0).test_stats(&paimon).unwrap(), [MayMatch]);

    // A NaN bound under `nan_excluded` (a legacy writer's): unknown bounds.
    // Rows {1.0, NaN} with min = max = NaN: 1.0 < 5, so not NoMatch; with
    // the bounds unknown, only the null counts decide (no row is null).
    let legacy = |min: f64, max: f64| {
        StatsBatch::new(UInt64Array::from(vec![2, 2]))
            .with_column(
                "f",
                ColumnStats::new(
                    Arc::new(Float64Array::from(vec![min, 1.0])),
                    Arc::new(Float64Array::from(vec![max, 2.0])),
                )
                .with_null_counts(UInt64Array::from(vec![0, 0]))
                .with_nan_counts(UInt64Array::from(vec![1, 0]))
                .nan_excluded(),
            )
            .unwrap()
    };
    let is_null = Predicate::Leaf(Leaf::new(
        Function::IsNull,
        "f",
        Arc::new(Float64Array::from(Vec::<f64>::new())),
    ));
    for (min, max) in [(f64::NAN, f64::NAN), (1.0, f64::NAN), (f64::NAN, 2.0)] {
        let s = legacy(min, max);
        // The second container's bounds stay known.
        assert_eq!(
            lt.test_stats(&s).unwrap(),
            [MayMatch, AllMatch],
            "[{min}, {max}]"
        );
        assert_eq!(gt(5.0).test_stats(&s).unwrap(), [MayMatch, NoMatch]);
        assert_eq!(gt(0.0).test_stats(&s).unwrap(), [MayMatch, AllMatch]);
        assert_eq!(is_null.test_stats(&s).unwrap(), [NoMatch, NoMatch]);
    }
}

#[test]
fn and_or_combine_and_missing_stats_are_may_match() {
    let s = int_stats(&[
        (Some(0), Some(4), Some(0), Some(4)),
        (Some(5), Some(9), Some(0), Some(4)),
        (Some(0), Some(9), Some(0), Some(4)),
    ]);
    let lt5 = leaf_x(Function::Compare(CompareOp::LessThan), vec![Some(5)]);
    let ge5 = leaf_x(Function::Compare(CompareOp::GreaterOrEqual), vec![Some(5)]);
    assert_eq!(lt5.test_stats(&s).unwrap(), [AllMatch, NoMatch, MayMatch]);
    let and = Predicate::And(vec![lt5.clone(), ge5.clone()]);
    assert_eq!(and.test_stats(&s).unwrap(), [NoMatch, NoMatch, MayMatch]);
    let or = Predicate::Or(vec![lt5.clone(), ge5]);
    assert_eq!(or.test_stats(&s).unwrap(), [AllMatch, AllMatch, MayMatch]);
    let other = Predicate::Leaf(Leaf::new(
        Function::IsNull,
        "y",
        Arc::new(Int64Array::from(Vec::<i64>::new())),
    ));
    assert_eq!(other.test_stats(&s).unwrap(), [MayMatch; 3]);
    let mut out = [StatsVerdict::MayMatch; 4];
    Predicate::And(vec![lt5, other])
        .test_stats_into(&s, &mut out)
        .unwrap();
    assert_eq!(out, [MayMatch, NoMatch, MayMatch, MayMatch]);
    assert!(Predicate::And(vec![]).test_stats(&s).is_err());
    assert!(leaf_x(Function::IsNull, vec![])
        .test_stats_into(&s, &mut out[..2])
        .is_err());
}

#[test]
fn errors_name_the_field_and_types() {
    let rows = UInt64Array::from(vec![1, 2]);
    let short = ColumnStats::new(
        Arc::new(Int64Array::from(vec![1])),
        Arc::new(Int64Array::from(vec![1])),
    );
    let err = StatsBatch::new(rows.clone())
        .with_column("x", short)
        .unwrap_err();
    assert!(
        err.to_string().contains("`x`") && err.to_string().contains("1 entries"),
        "{err}"
    );
    let mixed = ColumnStats::new(
        Arc::new(Int64Array::from(vec![1, 2])),
        Arc::new(Int32Array::from(vec![1, 2])),
    );
    let err = StatsBatch::new(rows.clone())
        .with_column("x", mixed)
        .unwrap_err();
    assert!(err.to_string().contains("Int32"), "{err}");
    let ints = ColumnStats::new(
        Arc::new(Int64Array::from(vec![1, 2])),
        Arc::new(Int64Array::from(vec![1, 2])),
    );
    let dict = Field::new(
        "d",
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Int64)),
        true,
    );
    assert!(StatsBatch::new(rows.clone())
        .with_field(&dict, ints.clone())
        .is_ok());
    // Under a run-end encoding of a dictionary: the innermost value type.
    let ree = Field::new(
        "r",
        DataType::RunEndEncoded(
            Arc::new(Field::new("run_ends", DataType::Int32, false)),
            Arc::new(Field::new("values", dict.data_type().clone(), true)),
        ),
        true,
    );
    assert!(StatsBatch::new(rows.clone())
        .with_field(&ree, ints.clone())
        .is_ok());
    let utf8 = Field::new("u", DataType::Utf8, true);
    let err = StatsBatch::new(rows.clone())
        .with_field(&utf8, ints.clone())
        .unwrap_err();
    assert!(
        err.to_string().contains("`u`") && err.to_string().contains("Int64"),
        "{err}"
    );
    // A literal of another type than the stats': an error naming the field.
    let s = StatsBatch::new(rows).with_column("x", ints).unwrap();
    let p = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::Equal),
        "x",
        Arc::new(Int32Array::from(vec![1])),
    ));
    let err = p.test_stats(&s).unwrap_err();
    assert!(
        err.to_string().contains("`x`") && err.to_string().contains("Int32"),
        "{err}"
    );

    // A leaf without stats (a field the batch lacks, a transform): what
    // needs no type is still checked, naming the field or transform.
    use bitbytes::arrow::{Transform, TransformInput};
    let upper = || Transform::Upper(TransformInput::field("x"));
    let strings = |v: &str| -> ArrayRef { Arc::new(StringArray::from(vec![v])) };
    let bad = [
        (
            Leaf::new(
                Function::Compare(CompareOp::Equal),
                "nope",
                Arc::new(Int64Array::from(Vec::<i64>::new())),
            ),
            "field `nope` (no statistics): comparison Equal needs one literal",
        ),
        (
            Leaf::new(
                Function::Between,
                "nope",
                Arc::new(Int64Array::from(vec![1])),
            ),
            "needs exactly two literals",
        ),
        (
            Leaf::new(Function::Like, "nope", strings(r"a\q")),
            "not an escape",
        ),
        (
            Leaf::new(
                Function::StartsWith,
                "nope",
                Arc::new(Int64Array::from(vec![1])),
            ),
            "StartsWith",
        ),
        (
            Leaf::with_transform(Function::Like, upper(), strings(r"a\q")),
            "UPPER(x)",
        ),
    ];
    for (leaf, want) in bad {
        let p = Predicate::Leaf(leaf);
        let err = p.test_stats(&s).unwrap_err().to_string();
        assert!(err.contains(want), "{p}: {err}");
    }
    // Good literals on a leaf without stats: MayMatch, as before.
    for leaf in [
        Leaf::new(Function::Like, "nope", strings("a%")),
        Leaf::with_transform(Function::StartsWith, upper(), strings("A")),
        Leaf::new(
            Function::In,
            "nope",
            Arc::new(Int64Array::from(Vec::<i64>::new())),
        ),
    ] {
        let p = Predicate::Leaf(leaf);
        assert_eq!(p.test_stats(&s).unwrap(), [MayMatch, MayMatch], "{p}");
    }
}

/// Java's array functions at statistics: nothing prunes by value (a list
/// column's bounds say nothing about its elements); ArrayContainsAll with a
/// null literal and ArraysOverlap with no non-null literal select no row and
/// prune wherever Java reaches the function (bounds known, or all null).
#[test]
fn array_functions_prune_only_what_selects_no_row() {
    // Containers: bounds known; bounds unknown; all null (bounds unknown).
    let bounds =
        ListArray::from_iter_primitive::<Int64Type, _, _>(vec![Some(vec![Some(1)]), None, None]);
    let stats = StatsBatch::new(UInt64Array::from(vec![4, 4, 4]))
        .with_column(
            "a",
            ColumnStats::new(Arc::new(bounds.clone()), Arc::new(bounds))
                .with_null_counts(UInt64Array::from(vec![0, 0, 4])),
        )
        .unwrap();
    let leaf =
        |f, l: Vec<Option<i64>>| Predicate::Leaf(Leaf::new(f, "a", Arc::new(Int64Array::from(l))));
    let verdicts = |f, l| leaf(f, l).test_stats(&stats).unwrap();
    use Function::*;
    assert_eq!(
        verdicts(ArrayContains, vec![Some(9)]),
        [MayMatch, MayMatch, NoMatch]
    );
    // Java's LeafBinaryFunction: a null literal prunes with a known null count.
    assert_eq!(
        verdicts(ArrayContains, vec![None]),
        [NoMatch, MayMatch, NoMatch]
    );
    assert_eq!(
        verdicts(ArrayContainsAll, vec![Some(9)]),
        [MayMatch, MayMatch, NoMatch]
    );
    assert_eq!(
        verdicts(ArrayContainsAll, vec![Some(9), None]),
        [NoMatch, MayMatch, NoMatch]
    );
    assert_eq!(
        verdicts(ArraysOverlap, vec![None, Some(9)]),
        [MayMatch, MayMatch, NoMatch]
    );
    assert_eq!(
        verdicts(ArraysOverlap, vec![None]),
        [NoMatch, MayMatch, NoMatch]
    );
    assert_eq!(
        verdicts(ArraysOverlap, vec![]),
        [NoMatch, MayMatch, NoMatch]
    );
}

/// FALSE selects no row. Over its own input (the NULL transform) it prunes
/// every container; over a field it follows Java's `LeafPredicate.test`,
/// which asks the function only where it reaches it (bounds known, or an
/// all-null container) and keeps a container with an unknown bound or a
/// field without statistics.
#[test]
fn false_prunes_where_java_reaches_it() {
    let stats = int_stats(&[
        (Some(1), Some(5), Some(0), Some(10)), // bounds known
        (None, Some(5), Some(1), Some(10)),    // min unknown
        (Some(1), None, None, Some(10)),       // max unknown, null count unknown
        (None, None, Some(10), Some(10)),      // all null
    ]);
    let over_x = leaf_x(Function::AlwaysFalse, vec![]);
    assert_eq!(kept(&over_x, &stats), [false, true, true, false]);
    let over_y = Predicate::Leaf(Leaf::new(
        Function::AlwaysFalse,
        "y",
        Arc::new(Int64Array::from(Vec::<i64>::new())),
    ));
    assert_eq!(kept(&over_y, &stats), [true; 4]);
    let builder = bitbytes::arrow::PredicateBuilder::new(Arc::new(arrow_schema::Schema::empty()));
    assert_eq!(kept(&builder.always_false(), &stats), [false; 4]);
    let always = builder.always_true();
    assert_eq!(always.test_stats(&stats).unwrap(), [AllMatch; 4]);
    assert_eq!(
        leaf_x(Function::AlwaysTrue, vec![])
            .test_stats(&stats)
            .unwrap(),
        [AllMatch; 4]
    );
}
