//! Statistics verdicts (`Predicate::test_stats`) on containers cut from a
//! random table, against the rows themselves: a tree decoded from the input
//! (tests/support/predicate_model.rs) over an Int64, a Float64 with NaNs, a
//! Utf8 and a dictionary column; each container's stats computed from its
//! rows, exact or with the strings' bounds truncated, NaN in the float
//! bounds (Paimon's order) or left out of them (Parquet's, with or without
//! NaN counts), some bounds, null counts and row counts unknown. NoMatch
//! must hide no selected row and AllMatch cover no rejected one;
//! `test_stats_into` and `test_stats_indices` agree with `test_stats`;
//! never a panic. Up to 300 containers, so the kernels that take 64
//! containers a word (with AVX-512 where the CPU has it) run on whole,
//! partial and sparse words.
#![no_main]

#[path = "../../tests/support/predicate_model.rs"]
mod model;

use arrow_array::{ArrayRef, Float64Array, Int64Array, StringArray, UInt64Array};
use bitbytes::arrow::{ColumnStats, StatsBatch, StatsVerdict};
use libfuzzer_sys::fuzz_target;
use model::{order, Bytes, Spec, Table, Val};
use std::sync::Arc;

/// How the stats of the batch are written (one byte of the input).
struct Shape {
    /// String bounds cut to their first character (the max's incremented).
    truncated: bool,
    /// Float bounds leave NaN out (Parquet); else NaN is the largest value.
    nan_excluded: bool,
    /// With `nan_excluded`: NaN counts given (else unknown).
    nan_counts: bool,
    /// One container in `1 << unknown` has its bounds, its null count or
    /// its row count unknown (each drawn on its own).
    unknown: u32,
}

/// Least and greatest of `values` in Java's order (`None` when empty).
fn bounds(values: impl Iterator<Item = Val> + Clone) -> Option<(Val, Val)> {
    let min = values.clone().min_by(|a, b| order(*a, *b))?;
    let max = values.max_by(|a, b| order(*a, *b))?;
    Some((min, max))
}

/// A string bound cut to its first character: the min as it is, the max
/// with that character incremented (Paimon's `truncate`), so still a bound.
fn cut(s: &str, upper: bool) -> String {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), Some(_)) if upper => char::from_u32(c as u32 + 1)
            .expect("the model's words have no character before a gap")
            .to_string(),
        (Some(c), Some(_)) => c.to_string(),
        _ => s.to_string(),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let (head, tree) = data.split_at(6);
    let rows = usize::from(u16::from_le_bytes([head[0], head[1]]) % 1200);
    let table = Table::random(rows, u64::from(u16::from_le_bytes([head[2], head[3]])));
    let shape = Shape {
        truncated: head[4] & 1 != 0,
        nan_excluded: head[4] & 2 != 0,
        nan_counts: head[4] & 4 != 0,
        unknown: u32::from(head[4] >> 3 & 7) + 1,
    };
    // Container sizes 0..=max_rows, from a generator seeded by the input.
    let max_rows = u64::from(head[5] % 9);
    let mut state = u64::from(head[5]) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut containers = vec![];
    let mut at = 0;
    while at < rows && containers.len() < 300 {
        let n = (next() % (max_rows + 1)) as usize;
        let n = n.min(rows - at);
        containers.push(at..at + n);
        at += n;
    }
    let mut unknown = || next().is_multiple_of(1 << shape.unknown);
    let spec = Spec::decode(&mut Bytes::new(tree), 0);
    let predicate = spec.predicate();
    let selected = spec.eval(&table);
    let full: Vec<bool> = containers.iter().map(|_| unknown()).collect();
    let row_counts: UInt64Array = containers
        .iter()
        .zip(&full)
        .map(|(c, &dropped)| (!dropped).then_some(c.len() as u64))
        .collect();
    let mut stats = StatsBatch::new(row_counts);
    for (column, name) in model::COLUMNS.iter().enumerate() {
        let (mut mins, mut maxes, mut nulls, mut nans) = (vec![], vec![], vec![], vec![]);
        for c in &containers {
            let values = c.clone().filter_map(|r| table.value(column, r));
            let is_nan = |v: &Val| matches!(v, Val::F(f) if f.is_nan());
            let b = if unknown() {
                None
            } else if shape.nan_excluded {
                bounds(values.clone().filter(|v| !is_nan(v)))
            } else {
                bounds(values.clone())
            };
            mins.push(b.map(|b| b.0));
            maxes.push(b.map(|b| b.1));
            let known_nulls = !unknown();
            nulls.push(known_nulls.then(|| (c.len() - values.clone().count()) as u64));
            nans.push(
                shape
                    .nan_counts
                    .then(|| values.filter(is_nan).count() as u64),
            );
        }
        // The bounds as an array of the column's type (the dictionary's
        // values for `d`), strings maybe cut.
        let array = |v: &[Option<Val>], upper: bool| -> ArrayRef {
            let v = v.iter().copied();
            match column {
                0 => Arc::new(Int64Array::from_iter(v.map(|x| match x {
                    Some(Val::I(i)) => Some(i),
                    _ => None,
                }))),
                1 => Arc::new(Float64Array::from_iter(v.map(|x| match x {
                    Some(Val::F(f)) => Some(f),
                    _ => None,
                }))),
                _ => Arc::new(StringArray::from_iter(v.map(|x| match x {
                    Some(Val::S(s)) if shape.truncated => Some(cut(s, upper)),
                    Some(Val::S(s)) => Some(s.to_string()),
                    _ => None,
                }))),
            }
        };
        let mut column_stats = ColumnStats::new(array(&mins, false), array(&maxes, true));
        if column == 1 && shape.nan_excluded {
            column_stats = column_stats
                .nan_excluded()
                .with_nan_counts(UInt64Array::from(nans));
        }
        if column >= 2 && shape.truncated {
            column_stats = column_stats.truncated();
        }
        stats = stats
            .with_column(
                name,
                column_stats.with_null_counts(UInt64Array::from(nulls)),
            )
            .expect("stats of the column's type and the batch's length");
    }
    let verdicts = predicate.test_stats(&stats).expect("a valid predicate");
    assert_eq!(verdicts.len(), containers.len());
    for (k, (c, verdict)) in containers.iter().zip(&verdicts).enumerate() {
        let bytes = &selected[c.clone()];
        match verdict {
            StatsVerdict::NoMatch => assert!(
                bytes.iter().all(|&b| b == 0),
                "container {k} NoMatch, its rows select {bytes:?}: {predicate}"
            ),
            StatsVerdict::AllMatch => assert!(
                bytes.iter().all(|&b| b == 1),
                "container {k} AllMatch, its rows select {bytes:?}: {predicate}"
            ),
            StatsVerdict::MayMatch => {}
        }
    }
    let mut into = vec![StatsVerdict::AllMatch; containers.len()];
    predicate.test_stats_into(&stats, &mut into).unwrap();
    assert_eq!(into, verdicts);
    let kept: Vec<usize> = (0..verdicts.len())
        .filter(|&k| verdicts[k] != StatsVerdict::NoMatch)
        .collect();
    assert_eq!(predicate.test_stats_indices(&stats).unwrap(), kept);
});
