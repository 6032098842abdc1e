//! The crate's string kernels (`string_match`) against arrow-rs's kernels
//! for the same question, both producing a bitmap and nothing more:
//! arrow-ord `eq` for `=`, arrow-string `starts_with` / `ends_with` /
//! `contains`.
//!
//! `cargo bench --features arrow --bench strings -- --warm-up-time 1 --measurement-time 2`.
//! 1 Mi rows, no nulls, in groups `{test}/{lengths}_{mix}` with benches
//! `{layout}/arrow` and `{layout}/ours`:
//! - lengths `short`: random lowercase strings of 0-16 bytes, literal
//!   `"abcd"` (for `=`: rows are the literal or random);
//! - lengths `paths`: `https://…` paths of 24-64 bytes, literal a 30-byte
//!   host prefix, a `.html` suffix, a `/img/` infix or a whole path;
//! - mix `few`: 1% of the rows are made to match; `many`: 50%;
//! - layouts Utf8, LargeUtf8 and Utf8View.

use arrow_array::{
    Array, ArrayRef, BooleanArray, Datum, LargeStringArray, Scalar, StringArray, StringViewArray,
};
use arrow_schema::ArrowError;
use bitbytes::arrow::{string_match, StringMatch};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;

type ArrowKernel = fn(&dyn Datum, &dyn Datum) -> Result<BooleanArray, ArrowError>;

fn eq(a: &dyn Datum, b: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    arrow_ord::cmp::eq(a, b)
}

/// `n` random bytes of `a..=z`.
fn letters(rng: &mut XorShift, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'a' + (rng.next_u64() % 26) as u8))
        .collect()
}

/// A random row of the length class, not made to match.
fn random_row(rng: &mut XorShift, paths: bool) -> String {
    if paths {
        // https:// (8) + host (8..=14) + '/' + path: 24..=64 bytes in all.
        let total = 24 + (rng.next_u64() % 41) as usize;
        let host = 8 + (rng.next_u64() % 7) as usize;
        let host = letters(rng, host);
        let path = letters(rng, total - 9 - host.len());
        format!("https://{host}/{path}")
    } else {
        let n = (rng.next_u64() % 17) as usize;
        letters(rng, n)
    }
}

/// The literal of a test and length class.
fn literal(test: StringMatch, paths: bool) -> &'static str {
    match (test, paths) {
        (StringMatch::Equal, true) => "https://www.example.com/img/logo.png",
        (StringMatch::StartsWith, true) => "https://www.example.com/assets",
        (StringMatch::EndsWith, true) => ".html",
        (StringMatch::Contains, true) => "/img/",
        (_, false) => "abcd",
    }
}

/// 1 Mi rows of which about `percent`% are made to match `test` of `lit`.
fn rows(test: StringMatch, paths: bool, percent: u64) -> Vec<String> {
    let lit = literal(test, paths);
    let mut rng = XorShift::new(0x5eed ^ percent ^ (u64::from(paths) << 8));
    (0..ROWS)
        .map(|_| {
            let r = random_row(&mut rng, paths);
            if rng.next_u64() % 100 >= percent {
                return r;
            }
            // Keep the length class: cut the random row to make room.
            let keep = r.len().saturating_sub(lit.len());
            let r = &r[..keep];
            match test {
                StringMatch::Equal => lit.to_string(),
                StringMatch::StartsWith => format!("{lit}{r}"),
                StringMatch::EndsWith => format!("{r}{lit}"),
                StringMatch::Contains => {
                    let half = r.len() / 2;
                    format!("{}{lit}{}", &r[..half], &r[half..])
                }
            }
        })
        .collect()
}

fn arrow_kernel(test: StringMatch) -> ArrowKernel {
    match test {
        StringMatch::Equal => eq,
        StringMatch::StartsWith => arrow_string::like::starts_with,
        StringMatch::EndsWith => arrow_string::like::ends_with,
        StringMatch::Contains => arrow_string::like::contains,
    }
}

fn name(test: StringMatch) -> &'static str {
    match test {
        StringMatch::Equal => "eq",
        StringMatch::StartsWith => "starts_with",
        StringMatch::EndsWith => "ends_with",
        StringMatch::Contains => "contains",
    }
}

fn bench(c: &mut Criterion) {
    for test in StringMatch::ALL {
        for paths in [false, true] {
            for (mix, percent) in [("few", 1), ("many", 50)] {
                let rows = rows(test, paths, percent);
                let lit = literal(test, paths);
                let utf8: ArrayRef = Arc::new(StringArray::from_iter_values(&rows));
                let large: ArrayRef = Arc::new(LargeStringArray::from_iter_values(&rows));
                let view: ArrayRef = Arc::new(StringViewArray::from_iter_values(&rows));
                drop(rows);
                let lengths = if paths { "paths" } else { "short" };
                let mut g = c.benchmark_group(format!("{}/{lengths}_{mix}", name(test)));
                g.throughput(Throughput::Elements(ROWS as u64));
                for (layout, column, literal) in [
                    (
                        "Utf8",
                        &utf8,
                        Arc::new(StringArray::from(vec![lit])) as ArrayRef,
                    ),
                    (
                        "LargeUtf8",
                        &large,
                        Arc::new(LargeStringArray::from(vec![lit])) as ArrayRef,
                    ),
                    (
                        "Utf8View",
                        &view,
                        Arc::new(StringViewArray::from(vec![lit])) as ArrayRef,
                    ),
                ] {
                    let kernel = arrow_kernel(test);
                    let scalar = Scalar::new(literal);
                    g.bench_function(format!("{layout}/arrow"), |b| {
                        b.iter(|| kernel(black_box(column), &scalar).unwrap())
                    });
                    g.bench_function(format!("{layout}/ours"), |b| {
                        b.iter(|| string_match(black_box(column.as_ref()), test, lit).unwrap())
                    });
                    // Both give the same bits.
                    let want = kernel(column, &scalar).unwrap();
                    let got = string_match(column.as_ref(), test, lit).unwrap();
                    assert_eq!(want.values(), &got, "{test:?} {layout}");
                    assert_eq!(want.len(), column.len());
                }
                g.finish();
            }
        }
    }
}

fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = criterion();
    targets = bench
}
criterion_main!(benches);
