//! The arrow leaf functions against the bare arrow-rs kernels they wrap (and
//! against the per-row loop they replace).
//!
//! `cargo bench --features arrow --bench arrow`. 1 Mi rows, about 10% nulls:
//! - `compare`: Int64 `lt` kernel alone, `LessThan` leaf, kernel + per-row loop;
//! - `float_compare`: Float64 without NaN: arrow-ord `lt` alone, the leaf
//!   before the Java-order fix (arrow-ord `lt`, then unpack), and the leaf now;
//! - `null_tests`: IsNull / IsNotNull / IsNaN next to `fill` of the same
//!   bytes (the limit) and one `lt` pass;
//! - `between`: Int64 and Float64, arrow-ord `gt_eq` + `lt_eq` + AND against
//!   the Between leaf;
//! - `strings`: Utf8 and Utf8View, arrow-string `starts_with` / `ends_with`
//!   / `contains` against the leaves, and Like in its reduced shapes;
//! - `like`: the general Like matcher against a regex of the same pattern
//!   (as arrow-string would run it) and against arrow-string's `like`;
//! - `in_1000`: IN with 1,000 literals next to one `lt` pass, literals in
//!   `[0, 1,000,000)` (range bitmap) and over the whole `i64` range (hash);
//! - `in_crossover`: OR-of-`eq` vs set over list sizes 1..64.

use arrow_array::{
    Array, ArrayRef, BooleanArray, Float64Array, Int64Array, Scalar, StringArray, StringViewArray,
};
use arrow_ord::cmp;
use bitbytes::arrow::{
    unpack_boolean_array, CompareOp, Function, InStrategy, LeafFunction, MultiLiteralsLeafFunction,
    NullFalseLeafBinaryFunction,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
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

/// Float64 values in `[0, 10,000)`, no NaN, 10% nulls.
fn float_column() -> Float64Array {
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    (0..ROWS)
        .map(|_| {
            let r = rng.next_u64();
            (!r.is_multiple_of(10)).then_some((r >> 11) as f64 / (1u64 << 53) as f64 * 1e4)
        })
        .collect()
}

/// Short words (3 to 24 bytes) from a small alphabet, 10% nulls.
fn strings() -> Vec<Option<String>> {
    let mut rng = XorShift::new(0x1234_5678_9abc_def1);
    (0..ROWS)
        .map(|_| {
            let r = rng.next_u64();
            let len = 3 + (r % 22) as usize;
            (!(r >> 8).is_multiple_of(10)).then(|| {
                (0..len)
                    .map(|_| (b'a' + (rng.next_u64() % 6) as u8) as char)
                    .collect()
            })
        })
        .collect()
}

/// The loop the leaf replaces: one accessor call pair per row.
fn per_row(result: &BooleanArray, out: &mut [u8]) {
    for (i, o) in out.iter_mut().enumerate().take(result.len()) {
        *o = u8::from(!result.is_null(i) && result.value(i));
    }
}

fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
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

fn float_compare(c: &mut Criterion) {
    let col = float_column();
    let lit = Float64Array::from(vec![5000.0]);
    let scalar = Scalar::new(lit.clone());
    let leaf = Function::Compare(CompareOp::LessThan);
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("float_compare");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.bench_function("lt_kernel", |b| {
        b.iter(|| cmp::lt(black_box(&col), &scalar).unwrap())
    });
    // What the leaf did before the NaN fix: the arrow-ord kernel, then unpack.
    g.bench_function("lt_leaf_before_fix", |b| {
        b.iter(|| {
            let r = cmp::lt(black_box(&col), &scalar).unwrap();
            unpack_boolean_array(&r, false, &mut out).unwrap()
        })
    });
    g.bench_function("lt_leaf", |b| {
        b.iter(|| leaf.test_into(black_box(&col), &lit, &mut out).unwrap())
    });
    g.finish();
}

fn null_tests(c: &mut Criterion) {
    let col = float_column();
    let none = Float64Array::from(Vec::<f64>::new());
    let scalar = Scalar::new(Float64Array::from(vec![5000.0]));
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("null_tests");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.bench_function("fill", |b| b.iter(|| black_box(&mut out[..]).fill(1)));
    g.bench_function("lt_kernel", |b| {
        b.iter(|| cmp::lt(black_box(&col), &scalar).unwrap())
    });
    for f in [Function::IsNull, Function::IsNotNull, Function::IsNaN] {
        g.bench_function(format!("{f:?}_leaf"), |b| {
            b.iter(|| f.test_into(black_box(&col), &none, &mut out).unwrap())
        });
    }
    g.finish();
}

fn between(c: &mut Criterion) {
    let ints: ArrayRef = Arc::new(column());
    let floats: ArrayRef = Arc::new(float_column());
    let int_bounds: ArrayRef = Arc::new(Int64Array::from(vec![250_000, 750_000]));
    let float_bounds: ArrayRef = Arc::new(Float64Array::from(vec![2500.0, 7500.0]));
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("between");
    g.throughput(Throughput::Elements(ROWS as u64));
    for (name, col, bounds) in [
        ("Int64", &ints, &int_bounds),
        ("Float64", &floats, &float_bounds),
    ] {
        let (lo, hi) = (
            Scalar::new(bounds.slice(0, 1)),
            Scalar::new(bounds.slice(1, 1)),
        );
        g.bench_function(format!("{name}/gt_eq_and_lt_eq_kernels"), |b| {
            b.iter(|| {
                let a = cmp::gt_eq(black_box(col), &lo).unwrap();
                let z = cmp::lt_eq(black_box(col), &hi).unwrap();
                a.values() & z.values()
            })
        });
        g.bench_function(format!("{name}/between_leaf"), |b| {
            b.iter(|| {
                Function::Between
                    .test_into(black_box(col.as_ref()), bounds.as_ref(), &mut out)
                    .unwrap()
            })
        });
    }
    g.finish();
}

type StringKernel = fn(
    &dyn arrow_array::Datum,
    &dyn arrow_array::Datum,
) -> Result<BooleanArray, arrow_schema::ArrowError>;

fn strings_group(c: &mut Criterion) {
    let values = strings();
    let utf8: ArrayRef = Arc::new(StringArray::from_iter(values.iter().map(|v| v.as_deref())));
    let view: ArrayRef = Arc::new(StringViewArray::from_iter(
        values.iter().map(|v| v.as_deref()),
    ));
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("strings");
    g.throughput(Throughput::Elements(ROWS as u64));
    let cases: [(&str, StringKernel, Function, &str, &str); 3] = [
        (
            "starts_with",
            arrow_string::like::starts_with,
            Function::StartsWith,
            "ab",
            "ab%",
        ),
        (
            "ends_with",
            arrow_string::like::ends_with,
            Function::EndsWith,
            "ab",
            "%ab",
        ),
        (
            "contains",
            arrow_string::like::contains,
            Function::Contains,
            "abc",
            "%abc%",
        ),
    ];
    for (layout, col) in [("Utf8", &utf8), ("Utf8View", &view)] {
        for (name, kernel, f, text, like) in cases {
            let lit: ArrayRef = if layout == "Utf8" {
                Arc::new(StringArray::from(vec![text]))
            } else {
                Arc::new(StringViewArray::from(vec![text]))
            };
            let scalar = Scalar::new(lit.clone());
            g.bench_function(format!("{layout}/{name}_kernel"), |b| {
                b.iter(|| kernel(black_box(col), &scalar).unwrap())
            });
            g.bench_function(format!("{layout}/{name}_leaf"), |b| {
                b.iter(|| {
                    f.test_into(black_box(col.as_ref()), lit.as_ref(), &mut out)
                        .unwrap()
                })
            });
            let pattern = StringArray::from(vec![like]);
            g.bench_function(format!("{layout}/like_{like}_leaf"), |b| {
                b.iter(|| {
                    Function::Like
                        .test_into(black_box(col.as_ref()), &pattern, &mut out)
                        .unwrap()
                })
            });
        }
    }
    g.finish();
}

/// The general Like case: the crate's matcher against a regex of the same
/// Java semantics, run per row as arrow-string runs its regexes, and against
/// arrow-string's own `like` of the same text (whose `_` also matches line
/// terminators, so it is a speed reference, not a replacement).
fn like(c: &mut Criterion) {
    let values = strings();
    let utf8 = StringArray::from_iter(values.iter().map(|v| v.as_deref()));
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("like");
    g.throughput(Throughput::Elements(ROWS as u64));
    // (LIKE pattern, the equivalent Java-semantics regex)
    let patterns = [
        ("%a_c%", r"(?s)\A.*a[^\n\r\x{85}\x{2028}\x{2029}]c.*\z"),
        ("a%b%c", r"(?s)\Aa.*b.*c\z"),
        ("_b%", r"(?s)\A[^\n\r\x{85}\x{2028}\x{2029}]b.*\z"),
        ("%ab%ba%", r"(?s)\A.*ab.*ba.*\z"),
    ];
    for (like, re) in patterns {
        let pattern = StringArray::from(vec![like]);
        let regex = regex::Regex::new(re).unwrap();
        g.bench_function(format!("{like}/leaf"), |b| {
            b.iter(|| {
                Function::Like
                    .test_into(black_box(&utf8), &pattern, &mut out)
                    .unwrap()
            })
        });
        g.bench_function(format!("{like}/regex"), |b| {
            b.iter(|| {
                let col = black_box(&utf8);
                arrow_buffer::BooleanBuffer::collect_bool(col.len(), |i| {
                    regex.is_match(col.value(i))
                })
            })
        });
        let scalar = Scalar::new(StringArray::from(vec![like]));
        g.bench_function(format!("{like}/arrow_string_like"), |b| {
            b.iter(|| arrow_string::like::like(black_box(&utf8), &scalar).unwrap())
        });
    }
    g.finish();
}

fn in_1000(c: &mut Criterion) {
    let col = column();
    let lit = Int64Array::from(vec![500_000]);
    let scalar = Scalar::new(lit);
    let small: Int64Array = (0..1000i64).map(|i| i * 997).collect();
    let mut rng = XorShift::new(7);
    let wide: Int64Array = (0..1000).map(|_| rng.next_u64() as i64).collect();
    let leaf = MultiLiteralsLeafFunction::new(false);
    let mut out = vec![0u8; ROWS];
    let mut g = c.benchmark_group("in_1000");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.bench_function("lt_kernel", |b| {
        b.iter(|| cmp::lt(black_box(&col), &scalar).unwrap())
    });
    g.bench_function("in_leaf_small_range", |b| {
        b.iter(|| leaf.test_into(black_box(&col), &small, &mut out).unwrap())
    });
    g.bench_function("in_leaf_whole_i64_range", |b| {
        b.iter(|| leaf.test_into(black_box(&col), &wide, &mut out).unwrap())
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

criterion_group! {
    name = benches;
    config = criterion();
    targets = compare, float_compare, null_tests, between, strings_group, like, in_1000, in_crossover
}
criterion_main!(benches);
