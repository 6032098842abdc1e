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
//!
//! IN over strings, groups `in/{lengths}_{mix}_{n}` (`n` = 2, 4, 16 or 100
//! distinct literals drawn like the rows; `few` / `many` = 1% / 50% of the
//! rows are a literal), Utf8 and Utf8View, all four to bytes:
//! - `{layout}/arrow_eq`: arrow-ord `eq` per literal, OR-ed (the arrow-rs
//!   peer), then unpacked;
//! - `{layout}/hashset`: the previous set path, a `HashSet<&[u8]>` (ahash)
//!   and `BooleanBuffer::collect_bool` over `value(i)`, then unpacked;
//! - `{layout}/or_of_eq` and `{layout}/set`: `MultiLiteralsLeafFunction`
//!   with `InStrategy::OrOfEq` (the crate's `=` kernel per literal) and
//!   `InStrategy::Hash` (the string set kernel).
//!
//! With `BITBYTES_MIN_OF=N` in the environment the IN groups are timed as
//! the minimum of `N` alternating calls of each side instead (less noisy on
//! a shared machine than criterion's medians), printed as a table;
//! `BITBYTES_IN_GROUPS=a,b` keeps the groups whose name contains `a` or `b`.
//!
//! The `=` / StartsWith / EndsWith / Contains groups likewise: with
//! `BITBYTES_MIN_OF=N`, each group and layout is timed as the minimum of
//! `N` alternating calls of arrow-rs's kernel and ours (ms, ratio =
//! arrow-rs / ours), printed as a table, with (Utf8 and LargeUtf8) a
//! floor: the least time of reading one byte of each 64-byte line any
//! kernel must fetch (`must_read`: for `=` the offsets and the lines of
//! the rows of the literal's length, else every line of offsets and
//! values), timed in the same rounds; `BITBYTES_GROUPS=a,b` keeps the
//! groups (`eq/short_few`, …) whose name contains `a` or `b`, and
//! `BITBYTES_GROUPS=none` skips them (the IN groups only;
//! `BITBYTES_IN_GROUPS=none` skips the IN groups). Criterion's filter
//! (`-- <filter>`) does not apply in this mode. For a
//! before / after comparison run two builds of this bench in turn several
//! times and keep each row's least time.

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BooleanArray, Datum, LargeStringArray, Scalar, StringArray, StringViewArray,
};
use arrow_buffer::BooleanBuffer;
use arrow_schema::ArrowError;
use bitbytes::arrow::{
    string_match, unpack_boolean_array, InStrategy, LeafFunction, MultiLiteralsLeafFunction,
    StringMatch,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::collections::HashSet;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

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

/// Every `=` / StartsWith / EndsWith / Contains case: (test, group name,
/// literal, the Utf8, LargeUtf8 and Utf8View columns).
fn match_cases(mut each: impl FnMut(StringMatch, String, &'static str, [&ArrayRef; 3])) {
    let keep = std::env::var("BITBYTES_GROUPS").unwrap_or_default();
    for test in StringMatch::ALL {
        for paths in [false, true] {
            for (mix, percent) in [("few", 1), ("many", 50)] {
                let lengths = if paths { "paths" } else { "short" };
                let group = format!("{}/{lengths}_{mix}", name(test));
                if !keep.is_empty() && !keep.split(',').any(|k| group.contains(k)) {
                    continue;
                }
                let rows = rows(test, paths, percent);
                let lit = literal(test, paths);
                let utf8: ArrayRef = Arc::new(StringArray::from_iter_values(&rows));
                let large: ArrayRef = Arc::new(LargeStringArray::from_iter_values(&rows));
                let view: ArrayRef = Arc::new(StringViewArray::from_iter_values(&rows));
                drop(rows);
                each(test, group, lit, [&utf8, &large, &view]);
            }
        }
    }
}

/// The literal in the column's layout.
fn literal_array(layout: &str, lit: &str) -> ArrayRef {
    match layout {
        "Utf8" => Arc::new(StringArray::from(vec![lit])),
        "LargeUtf8" => Arc::new(LargeStringArray::from(vec![lit])),
        _ => Arc::new(StringViewArray::from(vec![lit])),
    }
}

/// The lines a kernel of `test` must read from a Utf8 / LargeUtf8 column
/// whose offsets and values are `offsets` and `values` (bytes). `=` must
/// read the offsets and the rows of the literal's length (their first and
/// last byte's lines: `Some`, the values' line indices, in order);
/// StartsWith and EndsWith every row's head or tail, Contains every byte:
/// every line of both buffers (`None`).
fn must_read(test: StringMatch, starts: &[usize], lit: usize) -> Option<Vec<u32>> {
    if test != StringMatch::Equal {
        return None;
    }
    let mut lines: Vec<u32> = starts
        .windows(2)
        .filter(|w| w[1] - w[0] == lit && lit > 0)
        .flat_map(|w| [(w[0] / 64) as u32, ((w[1] - 1) / 64) as u32])
        .collect();
    lines.dedup();
    Some(lines)
}

/// One byte of each line of `offsets`, and of each line of `values` that
/// `lines` names (all without), summed: the least time to fetch the lines
/// a kernel must read ([`must_read`]), each line read on its own.
fn touch(offsets: &[u8], values: &[u8], lines: Option<&[u32]>) -> u64 {
    let every = |b: &[u8]| {
        b.iter()
            .step_by(64)
            .fold(0u64, |s, &x| s.wrapping_add(u64::from(x)))
    };
    let sum = every(offsets);
    match lines {
        None => sum.wrapping_add(every(values)),
        Some(lines) => lines.iter().fold(sum, |s, &l| {
            s.wrapping_add(u64::from(values[64 * l as usize]))
        }),
    }
}

/// The offsets (as bytes), values and row starts of a Utf8 / LargeUtf8
/// column; `None` for Utf8View.
fn flat_buffers(column: &ArrayRef) -> Option<(&[u8], &[u8], Vec<usize>)> {
    if let Some(a) = column.as_string_opt::<i32>() {
        let o = a.offsets();
        let starts = o.iter().map(|&x| x as usize).collect();
        return Some((o.inner().inner().as_slice(), a.values().as_slice(), starts));
    }
    let a = column.as_string_opt::<i64>()?;
    let o = a.offsets();
    let starts = o.iter().map(|&x| x as usize).collect();
    Some((o.inner().inner().as_slice(), a.values().as_slice(), starts))
}

/// The match groups as the minimum of `n` alternating calls of each side,
/// and of a read of the lines any kernel must fetch (`must_read`; Utf8 and
/// LargeUtf8 only): a floor when the column is read from memory.
fn match_min_of(n: usize) {
    println!(
        "| group | layout | arrow ms | ours ms | ratio | floor ms | ours / floor | arrow / floor |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    match_cases(|test, group, lit, columns| {
        for (layout, column) in ["Utf8", "LargeUtf8", "Utf8View"].into_iter().zip(columns) {
            let kernel = arrow_kernel(test);
            let scalar = Scalar::new(literal_array(layout, lit));
            let want = kernel(column, &scalar).unwrap();
            let got = string_match(column.as_ref(), test, lit).unwrap();
            assert_eq!(want.values(), &got, "{test:?} {layout}");
            let flat = flat_buffers(column);
            let lines = flat
                .as_ref()
                .map(|(_, _, starts)| must_read(test, starts, lit.len()));
            let (mut arrow, mut ours, mut floor) = (f64::MAX, f64::MAX, f64::MAX);
            for _ in 0..n {
                let t = Instant::now();
                black_box(kernel(black_box(column), &scalar).unwrap());
                arrow = arrow.min(t.elapsed().as_secs_f64() * 1e3);
                let t = Instant::now();
                black_box(string_match(black_box(column.as_ref()), test, lit).unwrap());
                ours = ours.min(t.elapsed().as_secs_f64() * 1e3);
                if let (Some((o, v, _)), Some(lines)) = (&flat, &lines) {
                    let t = Instant::now();
                    black_box(touch(black_box(o), v, lines.as_deref()));
                    floor = floor.min(t.elapsed().as_secs_f64() * 1e3);
                }
            }
            let floor = if lines.is_some() {
                format!("{floor:.3} | {:.2} | {:.2}", ours / floor, arrow / floor)
            } else {
                "- | - | -".to_string()
            };
            println!(
                "| {group} | {layout} | {arrow:.3} | {ours:.3} | {:.2}x | {floor} |",
                arrow / ours
            );
        }
    });
}

fn bench(c: &mut Criterion) {
    if let Some(n) = std::env::var("BITBYTES_MIN_OF")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        if std::env::var("BITBYTES_GROUPS").as_deref() != Ok("none") {
            match_min_of(n);
        }
        return;
    }
    match_cases(|test, group, lit, [utf8, large, view]| {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(ROWS as u64));
        for (layout, column, literal) in [
            ("Utf8", utf8, literal_array("Utf8", lit)),
            ("LargeUtf8", large, literal_array("LargeUtf8", lit)),
            ("Utf8View", view, literal_array("Utf8View", lit)),
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
    });
}

/// The IN data: 1 Mi rows of a length class of which `percent`% are one of
/// `n` distinct literals drawn like the rows, and the literals.
fn in_rows(paths: bool, percent: u64, n: usize) -> (Vec<String>, Vec<String>) {
    let mut rng = XorShift::new(0x1ee7 ^ percent ^ ((n as u64) << 16) ^ (u64::from(paths) << 8));
    let mut lits: Vec<String> = Vec::new();
    while lits.len() < n {
        let r = random_row(&mut rng, paths);
        if !lits.contains(&r) {
            lits.push(r);
        }
    }
    let rows = (0..ROWS)
        .map(|_| {
            let r = random_row(&mut rng, paths);
            if rng.next_u64() % 100 < percent {
                lits[(rng.next_u64() % n as u64) as usize].clone()
            } else {
                r
            }
        })
        .collect();
    (rows, lits)
}

/// The arrow-rs peer: arrow-ord `eq` per literal, the bitmaps OR-ed, then
/// unpacked to bytes.
fn in_arrow_eq(column: &dyn Array, literals: &dyn Array, out: &mut [u8]) {
    let mut acc = BooleanBuffer::new_unset(column.len());
    for i in 0..literals.len() {
        let eq = arrow_ord::cmp::eq(&column, &Scalar::new(literals.slice(i, 1))).unwrap();
        acc = &acc | eq.values();
    }
    unpack_boolean_array(&BooleanArray::new(acc, None), false, out).unwrap();
}

/// The previous set path: the literals' bytes in a `HashSet` (ahash), one
/// lookup of `value(i)` per row, then unpacked to bytes.
fn in_hashset(column: &dyn Array, literals: &dyn Array, out: &mut [u8]) {
    let bits = match column.data_type() {
        arrow_schema::DataType::Utf8 => {
            let (c, l) = (column.as_string::<i32>(), literals.as_string::<i32>());
            let set: HashSet<&[u8], ahash::RandomState> =
                l.iter().flatten().map(str::as_bytes).collect();
            BooleanBuffer::collect_bool(c.len(), |i| set.contains(c.value(i).as_bytes()))
        }
        _ => {
            let (c, l) = (column.as_string_view(), literals.as_string_view());
            let set: HashSet<&[u8], ahash::RandomState> =
                l.iter().flatten().map(str::as_bytes).collect();
            BooleanBuffer::collect_bool(c.len(), |i| set.contains(c.value(i).as_bytes()))
        }
    };
    unpack_boolean_array(&BooleanArray::new(bits, None), false, out).unwrap();
}

type InKernel = Box<dyn Fn(&dyn Array, &dyn Array, &mut [u8])>;

/// The four IN implementations, named.
fn in_kernels() -> Vec<(&'static str, InKernel)> {
    let leaf = |s: InStrategy| -> InKernel {
        let f = MultiLiteralsLeafFunction::new(false).with_strategy(s);
        Box::new(move |c: &dyn Array, l: &dyn Array, out: &mut [u8]| {
            f.test_into(c, l, out).unwrap()
        })
    };
    vec![
        ("arrow_eq", Box::new(in_arrow_eq) as InKernel),
        ("hashset", Box::new(in_hashset)),
        ("or_of_eq", leaf(InStrategy::OrOfEq)),
        ("set", leaf(InStrategy::Hash)),
    ]
}

/// Every IN case: (group name, layout, column, literals).
fn in_cases(mut each: impl FnMut(String, &'static str, &ArrayRef, &ArrayRef)) {
    let keep = std::env::var("BITBYTES_IN_GROUPS").unwrap_or_default();
    for paths in [false, true] {
        for (mix, percent) in [("few", 1), ("many", 50)] {
            for n in [2, 4, 16, 100] {
                let lengths = if paths { "paths" } else { "short" };
                let group = format!("in/{lengths}_{mix}_{n}");
                if !keep.is_empty() && !keep.split(',').any(|k| group.contains(k)) {
                    continue;
                }
                let (rows, lits) = in_rows(paths, percent, n);
                let utf8: ArrayRef = Arc::new(StringArray::from_iter_values(&rows));
                let utf8_lits: ArrayRef = Arc::new(StringArray::from_iter_values(&lits));
                each(group.clone(), "Utf8", &utf8, &utf8_lits);
                drop(utf8);
                let view: ArrayRef = Arc::new(StringViewArray::from_iter_values(&rows));
                let view_lits: ArrayRef = Arc::new(StringViewArray::from_iter_values(&lits));
                each(group, "Utf8View", &view, &view_lits);
            }
        }
    }
}

fn bench_in(c: &mut Criterion) {
    if let Some(n) = std::env::var("BITBYTES_MIN_OF")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        return in_min_of(n);
    }
    let kernels = in_kernels();
    in_cases(|group, layout, column, literals| {
        let mut g = c.benchmark_group(format!("{group}/{layout}"));
        g.throughput(Throughput::Elements(ROWS as u64));
        let mut out = vec![0u8; ROWS];
        let mut want = vec![0u8; ROWS];
        kernels[0].1(column.as_ref(), literals.as_ref(), &mut want);
        for (name, kernel) in &kernels {
            g.bench_function(*name, |b| {
                b.iter(|| kernel(black_box(column.as_ref()), literals.as_ref(), &mut out))
            });
            // All give the same bytes.
            assert_eq!(out, want, "{group} {layout} {name}");
        }
        g.finish();
    });
}

/// The IN groups as the minimum of `n` alternating calls of each kernel,
/// in ms, with the ratios of the set kernel against the others.
fn in_min_of(n: usize) {
    let kernels = in_kernels();
    println!("| group | layout | arrow_eq | hashset | or_of_eq | set | set vs arrow_eq | vs hashset | vs or_of_eq |");
    println!("|---|---|---|---|---|---|---|---|---|");
    in_cases(|group, layout, column, literals| {
        let mut out = vec![0u8; ROWS];
        let mut best = vec![f64::MAX; kernels.len()];
        for _ in 0..n {
            for (k, (_, kernel)) in kernels.iter().enumerate() {
                let t = Instant::now();
                kernel(black_box(column.as_ref()), literals.as_ref(), &mut out);
                best[k] = best[k].min(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        let set = best[3];
        println!(
            "| {group} | {layout} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}x | {:.2}x | {:.2}x |",
            best[0],
            best[1],
            best[2],
            set,
            best[0] / set,
            best[1] / set,
            best[2] / set
        );
    });
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
    targets = bench, bench_in
}
criterion_main!(benches);
