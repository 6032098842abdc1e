//! The arrow leaf functions against the arrow-ord kernel alone and against the
//! kernel followed by the per-row `is_null` / `value` loop they replace.
//!
//! `cargo bench --features arrow --bench arrow`. All on 1 Mi rows of Int64
//! with about 10% nulls:
//! - `compare`: `lt` kernel alone, `LessThan` leaf, kernel + per-row loop;
//! - `in_1000`: IN with 1,000 literals next to one `lt` pass;
//! - `in_crossover`: OR-of-`eq` vs hash set over list sizes 1..64.

use arrow_array::{Array, BooleanArray, Int64Array, Scalar};
use arrow_ord::cmp;
use bitbytes::arrow::{
    CompareOp, InStrategy, LeafFunction, MultiLiteralsLeafFunction, NullFalseLeafBinaryFunction,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;

fn column() -> Int64Array {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    (0..ROWS)
        .map(|_| {
            let r = rng.next_u64();
            (!r.is_multiple_of(10)).then_some((r >> 8) as i64 % 1_000_000)
        })
        .collect()
}

/// The loop the leaf replaces: one accessor call pair per row.
fn per_row(result: &BooleanArray, out: &mut [u8]) {
    for (i, o) in out.iter_mut().enumerate().take(result.len()) {
        *o = u8::from(!result.is_null(i) && result.value(i));
    }
}

fn compare(c: &mut Criterion) {
    let col = column();
    let lit = Int64Array::from(vec![500_000]);
    let scalar = Scalar::new(lit.clone());
    let leaf = NullFalseLeafBinaryFunction::new(CompareOp::LessThan);
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("compare");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.bench_function("lt_kernel", |b| {
        b.iter(|| cmp::lt(black_box(&col), &scalar).unwrap())
    });
    g.bench_function("lt_leaf", |b| {
        b.iter(|| leaf.test_into(black_box(&col), &lit, &mut out).unwrap())
    });
    g.bench_function("lt_kernel_then_row_loop", |b| {
        b.iter(|| per_row(&cmp::lt(black_box(&col), &scalar).unwrap(), &mut out))
    });
    g.finish();
}

fn in_1000(c: &mut Criterion) {
    let col = column();
    let lit = Int64Array::from(vec![500_000]);
    let scalar = Scalar::new(lit);
    let literals: Int64Array = (0..1000i64).map(|i| i * 997).collect();
    let leaf = MultiLiteralsLeafFunction::new(false);
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("in_1000");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.bench_function("lt_kernel", |b| {
        b.iter(|| cmp::lt(black_box(&col), &scalar).unwrap())
    });
    g.bench_function("in_leaf", |b| {
        b.iter(|| {
            leaf.test_into(black_box(&col), &literals, &mut out)
                .unwrap()
        })
    });
    g.finish();
}

fn in_crossover(c: &mut Criterion) {
    let col = column();
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("in_crossover");
    g.throughput(Throughput::Elements(ROWS as u64));
    for n in [1usize, 2, 4, 8, 16, 32, 64] {
        let literals: Int64Array = (0..n as i64).map(|i| i * 7919).collect();
        for (name, s) in [("or_of_eq", InStrategy::OrOfEq), ("hash", InStrategy::Hash)] {
            let leaf = MultiLiteralsLeafFunction::new(false).with_strategy(s);
            g.bench_with_input(BenchmarkId::new(name, n), &literals, |b, lits| {
                b.iter(|| leaf.test_into(black_box(&col), lits, &mut out).unwrap())
            });
        }
    }
    g.finish();
}

fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
}

criterion_group! {
    name = benches;
    config = criterion();
    targets = compare, in_1000, in_crossover
}
criterion_main!(benches);
