//! Predicate trees on 1 Mi rows: evaluation on the undecided rows against
//! evaluating every leaf on every row and combining the bytes.
//!
//! `cargo bench --features arrow --bench predicate`. The batch: `a` Int64
//! uniform in 0..1000 (no nulls), `price` Float64 in 0..100 with 5% nulls,
//! `name` Utf8 (16 names, 5% nulls), `x` Int64 uniform in 0..1000.
//! - `and`: `a < k AND price < 50 AND name LIKE 'A%'`, `a < k` selecting 1%
//!   and 100%: `all_leaves` (each leaf's `Function::test` on every row, bytes
//!   ANDed), `predicate` (`Predicate::test`, `Narrowing::Auto`), and the
//!   forced `gather` / `whole`;
//! - `or`: the same with Or, `a < k` selecting 99% and 0%;
//! - `and_int`: `a < 10 AND x < 500 AND x > 100`, three Int64 compares of the
//!   same cost (where 3x is the bound, not a target);
//! - `crossover`: `a < k AND x < 500` (second child the cheapest leaf, an
//!   Int64 `<`) and `a < k AND name LIKE 'A%'`, gathered against whole, for
//!   `a < k` selecting 1% .. 50%: where `GATHER_MAX_FRACTION` comes from.

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use bitbytes::arrow::{Narrowing, Predicate, PredicateBuilder};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;
const NAMES: [&str; 16] = [
    "Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Donald", "Edsger", "Frances", "Grace",
    "John", "Ken", "Leslie", "Margaret", "Niklaus", "Tony",
];

fn batch() -> RecordBatch {
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let a: Int64Array = (0..ROWS).map(|_| (next() % 1000) as i64).collect();
    let price: Float64Array = (0..ROWS)
        .map(|_| {
            let r = next();
            (!r.is_multiple_of(20)).then(|| (r >> 16) as f64 % 10_000.0 / 100.0)
        })
        .collect();
    let name: StringArray = (0..ROWS)
        .map(|_| {
            let r = next();
            (!r.is_multiple_of(20)).then(|| NAMES[(r >> 8) as usize % 16])
        })
        .collect();
    let x: Int64Array = (0..ROWS).map(|_| (next() % 1000) as i64).collect();
    RecordBatch::try_from_iter([
        ("a", Arc::new(a) as ArrayRef),
        ("price", Arc::new(price) as ArrayRef),
        ("name", Arc::new(name) as ArrayRef),
        ("x", Arc::new(x) as ArrayRef),
    ])
    .unwrap()
}

/// The older Paimon way: every leaf on every row, bytes combined.
fn all_leaves(pred: &Predicate, batch: &RecordBatch, and: bool) -> Vec<u8> {
    let (Predicate::And(children) | Predicate::Or(children)) = pred else {
        panic!("a group")
    };
    let mut acc: Option<Vec<u8>> = None;
    for child in children {
        let Predicate::Leaf(leaf) = child else {
            panic!("leaves")
        };
        let column = batch.column_by_name(leaf.field().unwrap()).unwrap();
        let bytes = leaf.function.test(column, &leaf.literals).unwrap();
        acc = Some(match acc {
            None => bytes,
            Some(mut a) => {
                for (o, b) in a.iter_mut().zip(&bytes) {
                    if and {
                        *o &= b;
                    } else {
                        *o |= b;
                    }
                }
                a
            }
        });
    }
    acc.unwrap()
}

fn a_less_than(p: &PredicateBuilder, k: i64) -> Predicate {
    p.less_than("a", &Int64Array::new_scalar(k)).unwrap()
}

/// One group: for each `(label, predicate)`, the all-leaves baseline and
/// every narrowing, side by side.
fn compare_ways(c: &mut Criterion, group: &str, batch: &RecordBatch, cases: &[(&str, Predicate)]) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(ROWS as u64));
    for (label, pred) in cases {
        let and = matches!(pred, Predicate::And(_));
        let want = all_leaves(pred, batch, and);
        g.bench_with_input(BenchmarkId::new("all_leaves", label), pred, |b, pred| {
            b.iter(|| all_leaves(black_box(pred), batch, and))
        });
        for (name, narrowing) in [
            ("predicate", Narrowing::Auto),
            ("gather", Narrowing::Gather),
            ("whole", Narrowing::Whole),
        ] {
            assert_eq!(pred.test_with(batch, narrowing).unwrap(), want);
            g.bench_with_input(BenchmarkId::new(name, label), pred, |b, pred| {
                b.iter(|| black_box(pred).test_with(batch, narrowing).unwrap())
            });
        }
    }
    g.finish();
}

fn and(c: &mut Criterion) {
    let batch = batch();
    let p = PredicateBuilder::new(batch.schema());
    let rest = [
        p.less_than("price", &Float64Array::new_scalar(50.0))
            .unwrap(),
        p.like("name", "A%").unwrap(),
    ];
    let tree = |k| {
        let mut children = vec![a_less_than(&p, k)];
        children.extend(rest.iter().cloned());
        p.and(children).unwrap()
    };
    compare_ways(
        c,
        "and",
        &batch,
        &[("a_1pct", tree(10)), ("a_100pct", tree(1000))],
    );
}

fn or(c: &mut Criterion) {
    let batch = batch();
    let p = PredicateBuilder::new(batch.schema());
    let tree = |k| {
        p.or(vec![
            a_less_than(&p, k),
            p.less_than("price", &Float64Array::new_scalar(50.0))
                .unwrap(),
            p.like("name", "A%").unwrap(),
        ])
        .unwrap()
    };
    compare_ways(
        c,
        "or",
        &batch,
        &[("a_99pct", tree(990)), ("a_0pct", tree(0))],
    );
}

fn and_int(c: &mut Criterion) {
    let batch = batch();
    let p = PredicateBuilder::new(batch.schema());
    let tree = p
        .and(vec![
            a_less_than(&p, 10),
            p.less_than("x", &Int64Array::new_scalar(500)).unwrap(),
            p.greater_than("x", &Int64Array::new_scalar(100)).unwrap(),
        ])
        .unwrap();
    compare_ways(c, "and_int", &batch, &[("a_1pct", tree)]);
}

fn crossover(c: &mut Criterion) {
    let batch = batch();
    let p = PredicateBuilder::new(batch.schema());
    let seconds = [
        (
            "int",
            p.less_than("x", &Int64Array::new_scalar(500)).unwrap(),
        ),
        ("like", p.like("name", "A%").unwrap()),
    ];
    let mut g = c.benchmark_group("crossover");
    g.throughput(Throughput::Elements(ROWS as u64));
    for (second, leaf) in &seconds {
        for permille in [10i64, 20, 50, 100, 150, 200, 300, 500] {
            let pred = p
                .and(vec![a_less_than(&p, permille), leaf.clone()])
                .unwrap();
            let label = format!("{second}_{}pct", permille as f64 / 10.0);
            for (name, narrowing) in [("gather", Narrowing::Gather), ("whole", Narrowing::Whole)] {
                g.bench_with_input(BenchmarkId::new(name, &label), &pred, |b, pred| {
                    b.iter(|| black_box(pred).test_with(&batch, narrowing).unwrap())
                });
            }
        }
    }
    g.finish();
}

fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000))
}

criterion_group! {
    name = benches;
    config = criterion();
    targets = and, or, and_int, crossover
}
criterion_main!(benches);
