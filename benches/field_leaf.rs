//! A plain Field leaf must not get slower with transforms: one leaf through
//! `Predicate::test` (validation, the transform's resolution, the leaf
//! path) against the leaf function's kernel called directly on the column
//! (`Function::test`), the floor any leaf path adds overhead to.
//!
//! `cargo bench --features arrow --bench field_leaf`. The file uses only API
//! that predates transforms (`Leaf::new`, `Predicate::test`,
//! `Function::test`), so that it builds unchanged at the commit before
//! `Leaf` read a `Transform` (be52958^) for a before / after run; see
//! docs/transforms.md for the numbers.
//!
//! Groups, each at 1 Mi rows and at 1 Ki rows (where a fixed per-call cost
//! would show): `int64_lt` (`a < 500`, Int64, no nulls: the cheapest
//! kernel) and `utf8_like` (`name LIKE 'A%'`, Utf8, 5% nulls).

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use bitbytes::arrow::{CompareOp, Function, Leaf, Predicate};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const NAMES: [&str; 8] = [
    "Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Grace", "Ken",
];

fn batch(rows: usize) -> RecordBatch {
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    let a: Int64Array = (0..rows).map(|_| (rng.next_u64() % 1000) as i64).collect();
    let name: StringArray = (0..rows)
        .map(|_| {
            let r = rng.next_u64();
            (!r.is_multiple_of(20)).then(|| NAMES[(r >> 8) as usize % NAMES.len()])
        })
        .collect();
    RecordBatch::try_from_iter([
        ("a", Arc::new(a) as ArrayRef),
        ("name", Arc::new(name) as ArrayRef),
    ])
    .unwrap()
}

fn field_leaf(c: &mut Criterion) {
    let cases: [(&str, Function, &str, ArrayRef); 2] = [
        (
            "int64_lt",
            Function::Compare(CompareOp::LessThan),
            "a",
            Arc::new(Int64Array::from(vec![500])),
        ),
        (
            "utf8_like",
            Function::Like,
            "name",
            Arc::new(StringArray::from(vec!["A%"])),
        ),
    ];
    for (label, function, field, literals) in cases {
        let mut g = c.benchmark_group(label);
        for rows in [1 << 20, 1 << 10] {
            let batch = batch(rows);
            let column = batch.column_by_name(field).unwrap().clone();
            let predicate = Predicate::Leaf(Leaf::new(function, field, literals.clone()));
            assert_eq!(
                predicate.test(&batch).unwrap(),
                function.test(&column, &literals).unwrap()
            );
            g.throughput(Throughput::Elements(rows as u64));
            g.bench_with_input(BenchmarkId::new("leaf", rows), &batch, |b, batch| {
                b.iter(|| black_box(predicate.test(black_box(batch)).unwrap()))
            });
            g.bench_with_input(BenchmarkId::new("kernel", rows), &column, |b, column| {
                b.iter(|| black_box(function.test(black_box(column), &literals).unwrap()))
            });
        }
        g.finish();
    }
}

fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = criterion();
    targets = field_leaf
}
criterion_main!(benches);
