//! `unpack` against the per-row loop it replaces (`unpack_naive`) and the
//! store-bandwidth limit (`slice::fill` of the same output), per size, side by
//! side in one group so the ratios come from one run.
//!
//! ```text
//! cargo bench --bench unpack
//! ```
//!
//! Groups: `unpack/<rows>` with validity and negate on, offsets 0 and 3, each
//! kernel; `unpack_variants/64Ki` for the no-validity and negate-off cases,
//! with `fill` again in the same group.

use bitbytes::raw::{unpack_with, Kernel};
use bitbytes::{unpack, unpack_naive, Error};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use std::time::Duration;
use xorshift::XorShift;

fn bytes(n: usize, seed: u64) -> Vec<u8> {
    XorShift::new(seed | 1).bytes(n)
}

fn sizes(c: &mut Criterion) {
    for (rows, label) in [
        (4usize << 10, "4Ki"),
        (64 << 10, "64Ki"),
        (1 << 20, "1Mi"),
        (16 << 20, "16Mi"),
    ] {
        let values = bytes(rows / 8 + 16, 1);
        let validity = XorShift::new(2).validity(rows / 8 + 16);
        let mut out = vec![0u8; rows];
        let mut g = c.benchmark_group(format!("unpack/{label}"));
        g.throughput(Throughput::Elements(rows as u64));
        if rows >= 1 << 20 {
            g.sample_size(10).measurement_time(Duration::from_secs(2));
        } else {
            g.measurement_time(Duration::from_secs(1));
        }
        g.warm_up_time(Duration::from_millis(300));
        g.bench_function("fill", |b| {
            b.iter(|| black_box(&mut out[..]).fill(black_box(1)))
        });
        for off in [0usize, 3] {
            g.bench_function(BenchmarkId::new("naive", off), |b| {
                b.iter(|| {
                    unpack_naive(
                        black_box(&values),
                        Some(&validity),
                        off,
                        rows,
                        true,
                        black_box(&mut out),
                    )
                    .unwrap()
                })
            });
            // `None` is the dispatched `unpack`, `Some(k)` one forced kernel.
            for kernel in std::iter::once(None).chain(Kernel::available().map(Some)) {
                let name = kernel.map_or("unpack", |k| k.name());
                g.bench_function(BenchmarkId::new(name, off), |b| {
                    b.iter(|| {
                        let (values, out) = (black_box(&values), black_box(&mut out));
                        match kernel {
                            None => unpack(values, Some(&validity), off, rows, true, out),
                            Some(k) => {
                                unpack_with(k, values, Some(&validity), off, rows, true, out)
                            }
                        }
                        .unwrap()
                    })
                });
            }
        }
        g.finish();
    }
}

fn variants(c: &mut Criterion) {
    let rows = 64 << 10;
    let values = bytes(rows / 8 + 16, 1);
    let validity = XorShift::new(2).validity(rows / 8 + 16);
    let mut out = vec![0u8; rows];
    let mut g = c.benchmark_group("unpack_variants/64Ki");
    g.throughput(Throughput::Elements(rows as u64));
    g.measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300));
    // The limit again, in this group, so that its ratios come from one run.
    g.bench_function("fill", |b| {
        b.iter(|| black_box(&mut out[..]).fill(black_box(1)))
    });
    type Unpack = fn(&[u8], Option<&[u8]>, usize, usize, bool, &mut [u8]) -> Result<(), Error>;
    for (name, valid, negate) in [
        ("no_validity/negate_off", None, false),
        ("no_validity/negate_on", None, true),
        ("validity/negate_off", Some(&validity[..]), false),
    ] {
        for (f, run) in [("naive", unpack_naive as Unpack), ("unpack", unpack)] {
            g.bench_function(BenchmarkId::new(f, name), |b| {
                b.iter(|| {
                    run(
                        black_box(&values),
                        valid,
                        0,
                        rows,
                        negate,
                        black_box(&mut out),
                    )
                    .unwrap()
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, sizes, variants);
criterion_main!(benches);
