//! `MultiLiteralsLeafFunction` (IN / NOT IN) against a row-by-row reference:
//! the table of SEMANTICS.md, every listed type with both strategies, and
//! thousands of literals against a `HashSet`.
#![cfg(feature = "arrow")]

mod common;
#[path = "support/string_columns.rs"]
mod string_columns;

use arrow_array::*;
use bitbytes::arrow::{InStrategy, LeafFunction, MultiLiteralsLeafFunction, IN_HASH_MIN_LITERALS};
use common::{all_cases, invalid_argument, slices, Case, Rng};
use std::cmp::Ordering;
use std::collections::HashSet;

const STRATEGIES: [InStrategy; 3] = [InStrategy::Auto, InStrategy::OrOfEq, InStrategy::Hash];

fn leaf(negate: bool, strategy: InStrategy) -> MultiLiteralsLeafFunction {
    MultiLiteralsLeafFunction::new(negate).with_strategy(strategy)
}

/// The table: null row 0; IN = equals a non-null literal; NOT IN = valid, equals
/// none, and no null literal.
fn reference(
    case: &dyn Case,
    offset: usize,
    len: usize,
    list: &[Option<usize>],
    negate: bool,
) -> Vec<u8> {
    let has_null = list.contains(&None);
    (offset..offset + len)
        .map(|r| {
            if case.cmp_row(r, 0).is_none() {
                return 0;
            }
            let hit = list
                .iter()
                .flatten()
                .any(|&l| case.cmp_row(r, l) == Some(Ordering::Equal));
            u8::from(if negate { !hit && !has_null } else { hit })
        })
        .collect()
}

#[test]
fn the_semantics_table_examples() {
    let column = Int64Array::from(vec![Some(1), Some(2), Some(3), None]);
    let lits = |v: Vec<Option<i64>>| Int64Array::from(v);
    for s in STRATEGIES {
        let (is_in, not_in) = (leaf(false, s), leaf(true, s));
        let with_null = lits(vec![Some(1), None, Some(3)]);
        assert_eq!(is_in.test(&column, &with_null).unwrap(), [1, 0, 1, 0]);
        assert_eq!(not_in.test(&column, &with_null).unwrap(), [0, 0, 0, 0]);
        assert_eq!(is_in.test(&column, &lits(vec![])).unwrap(), [0, 0, 0, 0]);
        assert_eq!(not_in.test(&column, &lits(vec![])).unwrap(), [1, 1, 1, 0]);
        assert_eq!(
            not_in.test(&column, &lits(vec![Some(2), Some(5)])).unwrap(),
            [1, 0, 1, 0]
        );
        // Only null literals: IN selects nothing, NOT IN selects nothing.
        assert_eq!(
            is_in.test(&column, &lits(vec![None])).unwrap(),
            [0, 0, 0, 0]
        );
        assert_eq!(
            not_in.test(&column, &lits(vec![None])).unwrap(),
            [0, 0, 0, 0]
        );
        assert_eq!(is_in.negate(), not_in);
        assert!(not_in.is_negated() && !is_in.is_negated());
        assert_eq!(is_in.strategy(), s);
    }
}

#[test]
fn every_type_and_slice_with_every_strategy() {
    let mut rng = Rng::new(0x1234_5678);
    for case in all_cases() {
        let column = case.column();
        let d = case.domain_len();
        let mut lists: Vec<Vec<Option<usize>>> = vec![
            vec![],
            vec![None],
            vec![Some(0)],
            vec![Some(d - 1), None, Some(0)],
            (0..d).map(Some).collect(),
        ];
        for _ in 0..6 {
            let n = 1 + rng.below(d + 3);
            lists.push(
                (0..n)
                    .map(|_| (rng.below(8) != 0).then(|| rng.below(d)))
                    .collect(),
            );
        }
        for (offset, len) in slices(case.len()) {
            let sliced = column.slice(offset, len);
            for list in &lists {
                let literals = case.literals(list);
                for negate in [false, true] {
                    let want = reference(case.as_ref(), offset, len, list, negate);
                    for s in STRATEGIES {
                        let got = leaf(negate, s).test(&sliced, &literals).unwrap();
                        assert_eq!(
                            got,
                            want,
                            "{} {} {list:?} {s:?} slice {offset}+{len}",
                            case.name(),
                            if negate { "NOT IN" } else { "IN" }
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn float_set_equality_is_the_total_order() {
    // -0.0 and +0.0 are different values; NaN equals NaN; both strategies agree.
    let column = Float64Array::from(vec![-0.0, 0.0, f64::NAN, 1.0]);
    for s in STRATEGIES {
        let got = leaf(false, s)
            .test(&column, &Float64Array::from(vec![0.0, f64::NAN]))
            .unwrap();
        assert_eq!(got, [0, 1, 1, 0], "{s:?}");
        let got = leaf(true, s)
            .test(&column, &Float64Array::from(vec![-0.0]))
            .unwrap();
        assert_eq!(got, [0, 1, 1, 1], "{s:?}");
    }
}

#[test]
fn thousands_of_int_literals_against_a_hash_set() {
    let mut rng = Rng::new(99);
    let rows: Vec<Option<i64>> = (0..5000)
        .map(|_| (rng.below(10) != 0).then(|| rng.below(20_000) as i64 - 10_000))
        .collect();
    let column = Int64Array::from(rows.clone()).slice(7, 4900);
    let rows = &rows[7..4907];
    for with_null in [false, true] {
        let mut list: Vec<Option<i64>> = (0..3000)
            .map(|_| Some(rng.below(20_000) as i64 - 10_000))
            .collect();
        if with_null {
            list.insert(1234, None);
        }
        let set: HashSet<i64> = list.iter().flatten().copied().collect();
        let literals = Int64Array::from(list);
        for negate in [false, true] {
            let want: Vec<u8> = rows
                .iter()
                .map(|r| match r {
                    None => 0,
                    Some(v) if negate => u8::from(!set.contains(v) && !with_null),
                    Some(v) => u8::from(set.contains(v)),
                })
                .collect();
            for s in STRATEGIES {
                assert_eq!(
                    leaf(negate, s).test(&column, &literals).unwrap(),
                    want,
                    "{s:?}"
                );
            }
        }
    }
}

#[test]
fn thousands_of_string_literals_against_a_hash_set() {
    let mut rng = Rng::new(7);
    let word = |rng: &mut Rng| format!("city-{}", rng.below(5000));
    let rows: Vec<Option<String>> = (0..3000)
        .map(|_| (rng.below(10) != 0).then(|| word(&mut rng)))
        .collect();
    let list: Vec<String> = (0..2000).map(|_| word(&mut rng)).collect();
    let set: HashSet<&str> = list.iter().map(String::as_str).collect();
    let want: Vec<u8> = rows
        .iter()
        .map(|r| u8::from(r.as_deref().is_some_and(|v| set.contains(v))))
        .collect();
    let utf8 = StringArray::from(rows.clone());
    let view = StringViewArray::from(rows.iter().map(|r| r.as_deref()).collect::<Vec<_>>());
    let dict: DictionaryArray<types::Int16Type> = rows.iter().map(|r| r.as_deref()).collect();
    let lits = StringArray::from(list.clone());
    let view_lits = StringViewArray::from(list.iter().map(String::as_str).collect::<Vec<_>>());
    for s in [InStrategy::Auto, InStrategy::Hash] {
        assert_eq!(leaf(false, s).test(&utf8, &lits).unwrap(), want);
        assert_eq!(leaf(false, s).test(&dict, &lits).unwrap(), want);
        assert_eq!(leaf(false, s).test(&view, &view_lits).unwrap(), want);
    }
}

#[test]
fn the_crossover_constant_is_sane() {
    assert!((1..=1000).contains(&IN_HASH_MIN_LITERALS));
}

#[test]
fn errors_never_panic_and_write_nothing() {
    let column = Int64Array::from(vec![Some(1), None, Some(3)]);
    for s in STRATEGIES {
        for negate in [false, true] {
            let f = leaf(negate, s);
            let mut out = [7u8; 3];
            let msg = invalid_argument(
                f.test_into(&column, &StringArray::from(vec!["1"]), &mut out)
                    .unwrap_err(),
            );
            assert_eq!(
                msg,
                "literal type Utf8 does not match column value type Int64"
            );
            // Even an empty or all-null list must have the right type.
            assert!(f
                .test(&column, &Int32Array::from(Vec::<i32>::new()))
                .is_err());
            assert!(f
                .test(&column, &Int32Array::from(vec![None::<i32>]))
                .is_err());
            let mut short = [7u8; 2];
            let msg = invalid_argument(
                f.test_into(&column, &Int64Array::from(vec![1]), &mut short)
                    .unwrap_err(),
            );
            assert!(msg.contains("output too short"), "{msg}");
            assert_eq!(short, [7, 7]);
            // Dictionary columns take value-type literals only.
            let dict: DictionaryArray<types::Int8Type> = vec!["a", "b"].into_iter().collect();
            let dict_lit: DictionaryArray<types::Int8Type> = vec!["a"].into_iter().collect();
            assert!(f.test(&dict, &dict_lit).is_err());
            // Types without a kernel are errors, not panics.
            let list =
                ListArray::from_iter_primitive::<types::Int32Type, _, _>(vec![Some(vec![Some(1)])]);
            assert!(f.test(&list, &list.clone()).is_err());
            assert_eq!(out, [7, 7, 7], "nothing written on error");
        }
    }
}

/// A string of exactly `n` bytes from `a`, `b`, `é` (2 bytes) and `中` (3
/// bytes).
fn random_string(rng: &mut Rng, n: usize) -> String {
    let mut s = String::with_capacity(n);
    while s.len() < n {
        let left = n - s.len();
        match rng.below(8) {
            0 if left >= 3 => s.push('中'),
            1 if left >= 2 => s.push('é'),
            2..=4 => s.push('a'),
            _ => s.push('b'),
        }
    }
    s
}

/// IN / NOT IN over strings and binaries, every strategy, against the row
/// oracle: lists of 0, 1, 3, 4, 5, 17 and 100 literals (duplicates, `""`,
/// lengths 0..40 and 64+, multi-byte, with and without a null literal),
/// rows of every length 0..40 and 64..70, nulls, every layout (Utf8 and
/// LargeUtf8 from exact unpadded buffers, Binary / LargeBinary over them,
/// Utf8View over small data buffers and BinaryView, dictionaries with null
/// keys and null values, run-end), whole and sliced.
#[test]
fn strings_in_every_layout_and_strategy_match_the_oracle() {
    let mut rng = Rng::new(0x57_1e);
    let mut pool: Vec<String> = (0..41).map(|n| random_string(&mut rng, n)).collect();
    pool.extend((64..72).map(|n| random_string(&mut rng, n)));
    // Sharing the first and last 8 bytes, differing inside.
    pool.push(format!("abcdefgh{}abcdefgh", "a".repeat(9)));
    pool.push(format!("abcdefgh{}abcdefgh", "b".repeat(9)));
    pool.push("中é".repeat(5));
    for size in [0, 1, 3, 4, 5, 17, 100] {
        for with_null in [false, true] {
            // Duplicates (below), and the empty string.
            let mut list: Vec<Option<String>> = (0..size)
                .map(|i| match i % 11 {
                    5 => Some(String::new()),
                    _ => Some(pool[rng.below(pool.len())].clone()),
                })
                .collect();
            if size > 2 {
                list[2] = list[0].clone();
            }
            if with_null {
                list.insert(size / 2, None);
            }
            let mut rows: Vec<Option<String>> = Vec::new();
            for n in (0..41).chain(64..71) {
                rows.push(Some(random_string(&mut rng, n)));
                if rng.below(5) == 0 {
                    rows.push(None);
                }
                if let Some(Some(l)) = list.get(rng.below(list.len().max(1))) {
                    rows.push(Some(l.clone()));
                    if let Some(c) = l.chars().last() {
                        // The literal with its last character replaced.
                        let other = if c == 'a' { 'b' } else { 'a' };
                        rows.push(Some(format!("{}{other}", &l[..l.len() - c.len_utf8()])));
                    }
                }
            }
            rows.push(Some("b".into()));
            let set: HashSet<&str> = list.iter().flatten().map(String::as_str).collect();
            let mut columns = string_columns::layouts(&rows);
            let exact = string_columns::exact::<i32>(&rows);
            let large = string_columns::exact::<i64>(&rows);
            let view = string_columns::view(&rows);
            columns.push(("Binary", std::sync::Arc::new(BinaryArray::from(exact))));
            columns.push((
                "LargeBinary",
                std::sync::Arc::new(LargeBinaryArray::from(large)),
            ));
            columns.push((
                "BinaryView",
                std::sync::Arc::new(
                    view.as_any()
                        .downcast_ref::<StringViewArray>()
                        .unwrap()
                        .clone()
                        .to_binary_view(),
                ),
            ));
            for (name, column) in columns {
                let literals = string_columns::literals_of(column.as_ref(), &list);
                let n = rows.len();
                for (offset, len) in [(0, n), (1, n - 1), (3, n - 5), (n - 1, 1)] {
                    let sliced = column.slice(offset, len);
                    for negate in [false, true] {
                        let want: Vec<u8> = rows[offset..offset + len]
                            .iter()
                            .map(|r| match r {
                                None => 0,
                                Some(v) if negate => {
                                    u8::from(!set.contains(v.as_str()) && !with_null)
                                }
                                Some(v) => u8::from(set.contains(v.as_str())),
                            })
                            .collect();
                        for s in STRATEGIES {
                            assert_eq!(
                                leaf(negate, s).test(&sliced, &literals).unwrap(),
                                want,
                                "{name} {size} literals, null {with_null}, {s:?}, negate {negate}, slice {offset}+{len}"
                            );
                        }
                    }
                }
            }
        }
    }
}
