//! Leaves over transforms on 1 Mi rows: the crate's columnar evaluation
//! (`Predicate::test` of one leaf: the transform computes a whole new
//! column, the leaf function runs on it) against a per-row loop that does
//! what Paimon Java does for each row: build the transformed value (a
//! `String` for the string transforms), then test it.
//!
//! `cargo bench --features arrow --bench transforms`. Side by side in each
//! group, `columnar` and `per_row`:
//! - `upper_like`: `UPPER(name) LIKE 'AB%'` (names of 4..16 ASCII letters,
//!   mixed case, 5% nulls; the per-row loop tests the prefix with
//!   `starts_with`, cheaper than a LIKE matcher);
//! - `upper_like_unicode`: the same on names with one non-ASCII letter in
//!   four (`ß`, `é`, `ǅ`), where the one-pass ASCII kernel cannot run;
//! - `lower_eq`: `LOWER(x) = 'abc'`;
//! - `concat_eq`: `CONCAT(a, '-', b) = 'x-y'` (`a`, `b` of 1..4 letters);
//! - `cast_bigint_gt`: `CAST(i AS BIGINT) > 10` (Int32, 5% nulls; the
//!   per-row loop widens each value and compares, no allocation);
//! - `cast_string_int`: `CAST(digits AS INT) > 500000` (decimal strings;
//!   the per-row loop parses each with `str::parse::<i32>`).
//!
//! Each per-row loop's output is checked equal to the columnar one before
//! timing. With `TRANSFORMS_INTERLEAVED=<rounds>`, each pair is first timed
//! alternately, call after call, and the ratio of the least times printed:
//! the steadiest ratio on a shared, loaded machine; where Linux reports
//! it, the least on-CPU time of each side as well (`tests/support/cpu_time.rs`:
//! the time the thread ran, page faults included, waits for a core left
//! out; the mean of a run of calls of about 200 ms, as that clock moves a
//! scheduler tick at a time). `TRANSFORMS_CASES=concat_eq,lower_eq` limits that timing to those
//! groups.

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use bitbytes::arrow::{CompareOp, Function, Leaf, Predicate, Transform, TransformInput};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "../tests/support/cpu_time.rs"]
mod cpu_time;
use cpu_time::on_cpu;
#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;

/// A string of `min..=max` letters, mixed case; with `unicode`, one row in
/// four gets a non-ASCII letter.
fn word(rng: &mut XorShift, min: u64, max: u64, unicode: bool) -> String {
    let len = min + rng.next_u64() % (max - min + 1);
    let mut s: String = (0..len)
        .map(|_| {
            let r = rng.next_u64();
            let c = b'a' + (r % 26) as u8;
            if r & 0x100 != 0 {
                c.to_ascii_uppercase() as char
            } else {
                c as char
            }
        })
        .collect();
    if unicode && rng.next_u64().is_multiple_of(4) {
        s.push(['ß', 'é', 'ǅ'][(rng.next_u64() % 3) as usize]);
    }
    s
}

fn strings(seed: u64, f: impl Fn(&mut XorShift) -> String) -> StringArray {
    let mut rng = XorShift::new(seed);
    (0..ROWS)
        .map(|_| {
            let null = rng.next_u64().is_multiple_of(20);
            let s = f(&mut rng);
            (!null).then_some(s)
        })
        .collect()
}

fn batch() -> RecordBatch {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    let i: Int32Array = (0..ROWS)
        .map(|_| {
            let r = rng.next_u64();
            (!r.is_multiple_of(20)).then_some((r >> 8) as i32 % 21)
        })
        .collect();
    let columns: [(&str, ArrayRef); 7] = [
        ("name", Arc::new(strings(1, |r| word(r, 4, 16, false)))),
        ("uname", Arc::new(strings(2, |r| word(r, 4, 16, true)))),
        (
            "x",
            Arc::new(strings(3, |r| {
                if r.next_u64().is_multiple_of(8) {
                    "AbC".to_string()
                } else {
                    word(r, 2, 8, false)
                }
            })),
        ),
        ("a", Arc::new(strings(4, |r| word(r, 1, 4, false)))),
        ("b", Arc::new(strings(5, |r| word(r, 1, 4, false)))),
        ("i", Arc::new(i)),
        (
            "digits",
            Arc::new(strings(6, |r| (r.next_u64() % 1_000_000).to_string())),
        ),
    ];
    RecordBatch::try_from_iter(columns).unwrap()
}

fn utf8(s: &str) -> ArrayRef {
    Arc::new(StringArray::from(vec![s]))
}

fn leaf(function: Function, transform: Transform, literals: ArrayRef) -> Predicate {
    Predicate::Leaf(Leaf::with_transform(function, transform, literals))
}

fn input(name: &str) -> TransformInput {
    TransformInput::field(name)
}

fn column<'b>(batch: &'b RecordBatch, name: &str) -> &'b StringArray {
    batch.column_by_name(name).unwrap().as_string::<i32>()
}

/// A per-row loop over one string column: the row's `String`, then a test.
fn per_row_string(
    values: &StringArray,
    build: impl Fn(&str) -> String,
    test: impl Fn(&str) -> bool,
) -> Vec<u8> {
    values
        .iter()
        .map(|v| v.is_some_and(|s| test(&build(s))) as u8)
        .collect()
}

type PerRow<'b> = Box<dyn Fn() -> Vec<u8> + 'b>;

fn transforms(c: &mut Criterion) {
    let batch = batch();
    let gt = Function::Compare(CompareOp::GreaterThan);
    let eq = Function::Compare(CompareOp::Equal);
    let name = column(&batch, "name");
    let uname = column(&batch, "uname");
    let x = column(&batch, "x");
    let (a, b) = (column(&batch, "a"), column(&batch, "b"));
    let i = batch
        .column_by_name("i")
        .unwrap()
        .as_primitive::<Int32Type>();
    let digits = column(&batch, "digits");
    let cases: Vec<(&str, Predicate, PerRow<'_>)> = vec![
        (
            "upper_like",
            leaf(Function::Like, Transform::Upper(input("name")), utf8("AB%")),
            Box::new(|| per_row_string(name, str::to_uppercase, |s| s.starts_with("AB"))),
        ),
        (
            "upper_like_unicode",
            leaf(
                Function::Like,
                Transform::Upper(input("uname")),
                utf8("AB%"),
            ),
            Box::new(|| per_row_string(uname, str::to_uppercase, |s| s.starts_with("AB"))),
        ),
        (
            "lower_eq",
            leaf(eq, Transform::Lower(input("x")), utf8("abc")),
            Box::new(|| per_row_string(x, str::to_lowercase, |s| s == "abc")),
        ),
        (
            "concat_eq",
            leaf(
                eq,
                Transform::Concat(vec![input("a"), TransformInput::literal("-"), input("b")]),
                utf8("x-y"),
            ),
            Box::new(|| {
                a.iter()
                    .zip(b.iter())
                    .map(|(a, b)| match (a, b) {
                        (Some(a), Some(b)) => {
                            let mut s = String::with_capacity(a.len() + 1 + b.len());
                            s.push_str(a);
                            s.push('-');
                            s.push_str(b);
                            (s == "x-y") as u8
                        }
                        _ => 0,
                    })
                    .collect()
            }),
        ),
        (
            "cast_bigint_gt",
            leaf(
                gt,
                Transform::Cast {
                    field: "i".into(),
                    to: "BIGINT".parse().unwrap(),
                },
                Arc::new(Int64Array::from(vec![10])),
            ),
            Box::new(|| {
                i.iter()
                    .map(|v| v.is_some_and(|v| i64::from(v) > 10) as u8)
                    .collect()
            }),
        ),
        (
            "cast_string_int",
            leaf(
                gt,
                Transform::Cast {
                    field: "digits".into(),
                    to: "INT".parse().unwrap(),
                },
                Arc::new(Int32Array::from(vec![500_000])),
            ),
            Box::new(|| {
                digits
                    .iter()
                    .map(|v| v.is_some_and(|s| s.parse::<i32>().unwrap() > 500_000) as u8)
                    .collect()
            }),
        ),
    ];
    let rounds = std::env::var("TRANSFORMS_INTERLEAVED")
        .ok()
        .and_then(|r| r.parse::<u32>().ok());
    let only: Option<Vec<String>> = std::env::var("TRANSFORMS_CASES")
        .ok()
        .map(|c| c.split(',').map(str::to_string).collect());
    for (label, predicate, per_row) in &cases {
        let columnar = predicate.test(&batch).unwrap();
        assert_eq!(columnar, per_row(), "{label}: the per-row loop disagrees");
        assert!(columnar.contains(&1), "{label} selects nothing");
        if let Some(rounds) =
            rounds.filter(|_| only.as_ref().is_none_or(|o| o.iter().any(|c| c == label)))
        {
            let (mut ours, mut theirs) = (Duration::MAX, Duration::MAX);
            let (mut ours_cpu, mut theirs_cpu) = (Duration::MAX, Duration::MAX);
            // The on-CPU clock moves a scheduler tick (4 ms) at a time: each
            // on-CPU figure is the mean over calls taking about 200 ms.
            let t = Instant::now();
            black_box(predicate.test(black_box(&batch)).unwrap());
            let reps = (0.2 / t.elapsed().as_secs_f64()).clamp(1.0, 1000.0) as u32;
            for _ in 0..rounds {
                let t = Instant::now();
                black_box(predicate.test(black_box(&batch)).unwrap());
                ours = ours.min(t.elapsed());
                let t = Instant::now();
                black_box(per_row());
                theirs = theirs.min(t.elapsed());
                let cpu = on_cpu(|| {
                    for _ in 0..reps {
                        black_box(predicate.test(black_box(&batch)).unwrap());
                    }
                });
                ours_cpu = ours_cpu.min(cpu.map_or(Duration::MAX, |c| c / reps));
                let cpu = on_cpu(|| {
                    for _ in 0..reps {
                        black_box(per_row());
                    }
                });
                theirs_cpu = theirs_cpu.min(cpu.map_or(Duration::MAX, |c| c / reps));
            }
            println!(
                "{label}: columnar {ours:?}, per_row {theirs:?}, per_row / columnar {:.2}",
                theirs.as_secs_f64() / ours.as_secs_f64()
            );
            if ours_cpu != Duration::MAX {
                println!(
                    "{label} on-CPU: columnar {ours_cpu:?}, per_row {theirs_cpu:?}, per_row / columnar {:.2}",
                    theirs_cpu.as_secs_f64() / ours_cpu.as_secs_f64()
                );
            }
        }
        let mut g = c.benchmark_group(*label);
        g.throughput(Throughput::Elements(ROWS as u64));
        g.bench_function("columnar", |bench| {
            bench.iter(|| black_box(predicate.test(black_box(&batch)).unwrap()))
        });
        g.bench_function("per_row", |bench| bench.iter(|| black_box(per_row())));
        g.finish();
    }
}

fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = criterion();
    targets = transforms
}
criterion_main!(benches);
