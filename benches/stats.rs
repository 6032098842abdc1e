//! Statistics verdicts over 1 Mi containers: `cargo bench --features arrow
//! --bench stats`. The figures measured with it, each with the CPU it ran
//! on (Zen 4 with AVX-512, Zen 1 with AVX2 only), are in docs/stats.md.
//!
//! - `lt`: one Int64 `x < k` leaf (`Predicate::test_stats`) against
//!   arrow-ord's `lt` over the min array alone;
//! - `and3`: `x BETWEEN lo AND hi AND s LIKE 'k1%' (StartsWith) AND y IN (100
//!   Int64s)` against a per-container loop over boxed values, Java's shape
//!   (each container's min / max / null count as an enum per field, each
//!   leaf's Java rule called in turn, IN looping over its literal list).
//!
//! - `and3` with `test_stats_into` a reused output (no 1 MiB allocation
//!   per call), against the same loop;
//! - `in`: the IN of 100 alone, `test_stats_into`, against the boxed IN;
//! - `starts`: the StartsWith `'k1'` alone over all 1 Mi containers,
//!   `test_stats_into`, against the boxed StartsWith;
//! - `indices`: and3's `test_stats_indices` (read off the bits) against
//!   `test_stats` with the kept containers' indices collected from it.
//!
//! `STATS_INTERLEAVED=20 STATS_CASES=and3,lt cargo bench --features arrow
//! --bench stats -- zzz` times only those pairs, alternately, least times
//! (`zzz` skips criterion's groups). `STATS_N=65536` runs 64 Ki containers
//! spread as the 1 Mi are (the same leaves keep the same shares): their
//! stats fit the cache, so the times are the compute cost per container
//! without the memory's, and steadier from run to run. `STATS_PROFILE=500`
//! adds 500 calls of and3's `test_stats` alone, for `perf record`.
//!
//! Containers: `x` files of a clustered key (min rising, width 0..2000),
//! `s` strings `k<n>...` clustered likewise, `y` min / max random in
//! 0..1e6 with width 0..1000.

use arrow_array::{Int64Array, StringArray, UInt64Array};
use arrow_ord::cmp;
use bitbytes::arrow::{
    ColumnStats, CompareOp, Function, Leaf, Predicate, StatsBatch, StatsVerdict,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

/// Containers: 1 Mi, or `STATS_N` (e.g. 65536, whose stats fit the cache:
/// the compute cost per container without the memory's).
static N: LazyLock<usize> = LazyLock::new(|| {
    std::env::var("STATS_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 20)
});

fn n() -> usize {
    *N
}

/// Java's boxed values.
#[derive(Clone, PartialEq, PartialOrd)]
enum Value {
    Long(i64),
    Str(String),
}

/// One field of one container, as Java holds it: boxed min, max, null count.
type Boxed = (Option<Box<Value>>, Option<Box<Value>>, Option<u64>);

struct Data {
    stats: StatsBatch,
    /// Per container: per field (x, s, y) `(min, max, null count)`.
    rows: Vec<Vec<Boxed>>,
    x: (Vec<i64>, Vec<i64>),
}

fn data() -> Data {
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let (mut xmin, mut xmax, mut smin, mut smax, mut ymin, mut ymax) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let scale = ((1 << 20) / n() as i64).max(1);
    for i in 0..n() as i64 {
        // Spread as over 1 Mi containers whatever `STATS_N`.
        let lo = i * 1000 * scale + (next() % 500) as i64;
        xmin.push(lo);
        xmax.push(lo + (next() % 2000) as i64);
        let k = i * 256 / n() as i64;
        smin.push(format!("k{k}{:05}", next() % 50000));
        smax.push(format!("k{k}{:05}", 50000 + next() % 49999));
        let y = (next() % 1_000_000) as i64;
        ymin.push(y);
        ymax.push(y + (next() % 1000) as i64);
    }
    let counts = UInt64Array::from(vec![0u64; n()]);
    let col = |min: Arc<dyn arrow_array::Array>, max| {
        ColumnStats::new(min, max).with_null_counts(counts.clone())
    };
    let stats = StatsBatch::new(UInt64Array::from(vec![10_000u64; n()]))
        .with_column(
            "x",
            col(
                Arc::new(Int64Array::from(xmin.clone())),
                Arc::new(Int64Array::from(xmax.clone())),
            ),
        )
        .unwrap()
        .with_column(
            "s",
            col(
                Arc::new(StringArray::from(smin.clone())),
                Arc::new(StringArray::from(smax.clone())),
            ),
        )
        .unwrap()
        .with_column(
            "y",
            col(
                Arc::new(Int64Array::from(ymin.clone())),
                Arc::new(Int64Array::from(ymax.clone())),
            ),
        )
        .unwrap();
    let boxed = |v: Value| Some(Box::new(v));
    let rows = (0..n())
        .map(|i| {
            vec![
                (
                    boxed(Value::Long(xmin[i])),
                    boxed(Value::Long(xmax[i])),
                    Some(0),
                ),
                (
                    boxed(Value::Str(smin[i].clone())),
                    boxed(Value::Str(smax[i].clone())),
                    Some(0),
                ),
                (
                    boxed(Value::Long(ymin[i])),
                    boxed(Value::Long(ymax[i])),
                    Some(0),
                ),
            ]
        })
        .collect();
    Data {
        stats,
        rows,
        x: (xmin, xmax),
    }
}

fn and3(lits: &[i64]) -> Predicate {
    let leaf =
        |f, field: &str, l: Arc<dyn arrow_array::Array>| Predicate::Leaf(Leaf::new(f, field, l));
    Predicate::And(vec![
        leaf(
            Function::Between,
            "x",
            Arc::new(Int64Array::from(vec![100_000_000, 700_000_000])),
        ),
        leaf(
            Function::StartsWith,
            "s",
            Arc::new(StringArray::from(vec!["k1"])),
        ),
        leaf(Function::In, "y", Arc::new(Int64Array::from(lits.to_vec()))),
    ])
}

/// Java's `LeafPredicate.test` for the IN leaf alone, one container at a time.
fn scalar_in(row: &[Boxed], lits: &[Value]) -> bool {
    match (&row[2].0, &row[2].1) {
        (Some(min), Some(max)) => lits.iter().any(|l| l >= &**min && l <= &**max),
        _ => true,
    }
}

/// Java's `LeafPredicate.test` for the StartsWith leaf alone, one container
/// at a time.
fn scalar_starts(row: &[Boxed]) -> bool {
    let prefix = "k1";
    match (&row[1].0, &row[1].1) {
        (Some(a), Some(b)) => match (&**a, &**b) {
            (Value::Str(a), Value::Str(b)) => {
                (a.starts_with(prefix) || a.as_str() <= prefix)
                    && (b.starts_with(prefix) || b.as_str() > prefix)
            }
            _ => true,
        },
        _ => true,
    }
}

/// Java's `LeafPredicate.test` for the three leaves, one container at a time.
fn scalar_and3(row: &[Boxed], lits: &[Value]) -> bool {
    let (lo, hi) = (Value::Long(100_000_000), Value::Long(700_000_000));
    let prefix = "k1";
    let leaf = |(min, max, _): &Boxed, f: &dyn Fn(&Value, &Value) -> bool| match (min, max) {
        (Some(a), Some(b)) => f(a, b),
        _ => true,
    };
    leaf(&row[0], &|min, max| lo <= *max && hi >= *min)
        && leaf(&row[1], &|min, max| match (min, max) {
            (Value::Str(a), Value::Str(b)) => {
                (a.starts_with(prefix) || a.as_str() <= prefix)
                    && (b.starts_with(prefix) || b.as_str() > prefix)
            }
            _ => true,
        })
        && leaf(&row[2], &|min, max| {
            lits.iter().any(|l| l >= min && l <= max)
        })
}

/// The least time of `f` over `rounds` calls.
fn least(rounds: usize, mut f: impl FnMut()) -> Duration {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// A named pair of runs: ours, then the one it is measured against.
type Pair<'a> = (&'a str, &'a mut dyn FnMut(), &'a mut dyn FnMut());

/// With `STATS_INTERLEAVED=<rounds>`: each pair timed alternately, round
/// after round, and the ratio of their least times printed. On a shared,
/// loaded machine the least of many interleaved runs is the steadiest
/// ratio; criterion's estimates follow.
fn interleaved(pairs: &mut [Pair<'_>]) {
    let Some(rounds) = std::env::var("STATS_INTERLEAVED")
        .ok()
        .and_then(|r| r.parse::<usize>().ok())
    else {
        return;
    };
    // `STATS_CASES=lt,in`: only the pairs whose name starts with one of these.
    let cases = std::env::var("STATS_CASES").unwrap_or_default();
    let wanted = |name: &str| cases.is_empty() || cases.split(',').any(|c| name.starts_with(c));
    for (name, ours, theirs) in pairs.iter_mut() {
        if !wanted(name) {
            continue;
        }
        let (mut a, mut b) = (Duration::MAX, Duration::MAX);
        for _ in 0..rounds {
            a = a.min(least(1, &mut **ours));
            b = b.min(least(1, &mut **theirs));
        }
        println!(
            "{name}: ours {a:?}, theirs {b:?}, ours / theirs {:.2}",
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
}

fn bench(c: &mut Criterion) {
    let d = data();
    let mut g = c.benchmark_group("stats");
    g.throughput(Throughput::Elements(n() as u64));
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(2));
    let lt = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::LessThan),
        "x",
        Arc::new(Int64Array::from(vec![500_000_000])),
    ));
    let min = Int64Array::from(d.x.0.clone());
    let _ = &d.x.1;
    g.bench_function("lt/test_stats", |b| {
        b.iter(|| black_box(lt.test_stats(&d.stats).unwrap()))
    });
    let mut out = vec![StatsVerdict::MayMatch; n()];
    g.bench_function("lt/test_stats_into", |b| {
        b.iter(|| lt.test_stats_into(&d.stats, &mut out).unwrap())
    });
    g.bench_function("lt/arrow_ord_lt_min", |b| {
        b.iter(|| black_box(cmp::lt(&min, &Int64Array::new_scalar(500_000_000)).unwrap()))
    });
    let mut rng = XorShift::new(7);
    let lits: Vec<i64> = (0..100)
        .map(|_| (rng.next_u64() % 1_000_000) as i64)
        .collect();
    let pred = and3(&lits);
    let boxed: Vec<Value> = lits.iter().map(|&l| Value::Long(l)).collect();
    // Both sides agree on which containers are kept.
    let kept: Vec<bool> = pred
        .test_stats(&d.stats)
        .unwrap()
        .iter()
        .map(|v| *v != StatsVerdict::NoMatch)
        .collect();
    let java: Vec<bool> = d.rows.iter().map(|r| scalar_and3(r, &boxed)).collect();
    assert_eq!(kept, java);
    let lit = Int64Array::new_scalar(500_000_000);
    let in100 = Predicate::Leaf(Leaf::new(
        Function::In,
        "y",
        Arc::new(Int64Array::from(lits.clone())),
    ));
    let starts = Predicate::Leaf(Leaf::new(
        Function::StartsWith,
        "s",
        Arc::new(StringArray::from(vec!["k1"])),
    ));
    let mut reused_starts = vec![StatsVerdict::MayMatch; n()];
    let mut reused = vec![StatsVerdict::MayMatch; n()];
    let mut reused_in = vec![StatsVerdict::MayMatch; n()];
    interleaved(&mut [
        (
            "lt: test_stats / arrow-ord lt",
            &mut || {
                black_box(lt.test_stats(&d.stats).unwrap());
            },
            &mut || {
                black_box(cmp::lt(&min, &lit).unwrap());
            },
        ),
        (
            "indices: and3's test_stats_indices / test_stats, then the kept indices collected",
            &mut || {
                black_box(pred.test_stats_indices(&d.stats).unwrap());
            },
            &mut || {
                let verdicts = pred.test_stats(&d.stats).unwrap();
                black_box(
                    (0..verdicts.len())
                        .filter(|&c| verdicts[c] != StatsVerdict::NoMatch)
                        .collect::<Vec<usize>>(),
                );
            },
        ),
        (
            "and3: test_stats_into (output reused) / scalar boxed",
            &mut || {
                pred.test_stats_into(&d.stats, &mut reused).unwrap();
            },
            &mut || {
                black_box(d.rows.iter().filter(|r| scalar_and3(r, &boxed)).count());
            },
        ),
        (
            "in: IN of 100 alone, test_stats_into (output reused) / scalar boxed",
            &mut || {
                in100.test_stats_into(&d.stats, &mut reused_in).unwrap();
            },
            &mut || {
                black_box(d.rows.iter().filter(|r| scalar_in(r, &boxed)).count());
            },
        ),
        (
            "starts: StartsWith alone, test_stats_into (output reused) / scalar boxed",
            &mut || {
                starts
                    .test_stats_into(&d.stats, &mut reused_starts)
                    .unwrap();
            },
            &mut || {
                black_box(d.rows.iter().filter(|r| scalar_starts(r)).count());
            },
        ),
        (
            "and3: test_stats / scalar boxed",
            &mut || {
                black_box(pred.test_stats(&d.stats).unwrap());
            },
            &mut || {
                black_box(d.rows.iter().filter(|r| scalar_and3(r, &boxed)).count());
            },
        ),
    ]);
    // `STATS_PROFILE=<calls>`: only and3's `test_stats`, that many times, for
    // a profiler to see the kernels rather than the data's construction.
    if let Some(calls) = std::env::var("STATS_PROFILE")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
    {
        for _ in 0..calls {
            black_box(pred.test_stats(&d.stats).unwrap());
        }
    }
    g.bench_function("in/test_stats_into", |b| {
        b.iter(|| in100.test_stats_into(&d.stats, &mut reused_in).unwrap())
    });
    g.bench_function("and3/test_stats", |b| {
        b.iter(|| black_box(pred.test_stats(&d.stats).unwrap()))
    });
    g.bench_function("and3/scalar_boxed", |b| {
        b.iter(|| black_box(d.rows.iter().filter(|r| scalar_and3(r, &boxed)).count()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
