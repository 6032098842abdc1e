//! Building bitmaps, side by side with the limit and with arrow-rs:
//!
//! - `append`: `BitmapBuilder::append` over 1 Mi bits vs arrow-buffer's
//!   `BooleanBufferBuilder::append`;
//! - `pack`: `pack` at 1 Mi rows (offsets 0 and 3, and each kernel) vs the
//!   naive per-byte loop, `BooleanBuffer::collect_bool`, and the read limit
//!   (an OR-fold over the bytes);
//! - `append_packed_range`: 1 Mi bits from bit offset 3 vs arrow-rs's.
//!
//! Run: `cargo bench --bench pack`. Kept short (2 shared cores).

use std::hint::black_box;
use std::time::Duration;

use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder};
use bitbytes::raw::{pack_with, Kernel};
use bitbytes::{pack, pack_naive, BitmapBuilder};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const N: usize = 1 << 20;

/// xorshift bytes, about half 0 and half 1.
fn mask(n: usize) -> Vec<u8> {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    (0..n).map(|_| (rng.next_u64() >> 40) as u8 & 1).collect()
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(15)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
}

fn append(c: &mut Criterion) {
    let bools: Vec<bool> = mask(N).into_iter().map(|b| b != 0).collect();
    let mut g = c.benchmark_group("append");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("bitbytes_builder", N), |b| {
        b.iter(|| {
            let mut bb = BitmapBuilder::with_capacity(N);
            for &v in black_box(&bools) {
                bb.append(v);
            }
            bb.finish()
        })
    });
    g.bench_function(BenchmarkId::new("arrow_boolean_buffer_builder", N), |b| {
        b.iter(|| {
            let mut ab = BooleanBufferBuilder::new(N);
            for &v in black_box(&bools) {
                ab.append(v);
            }
            ab.finish()
        })
    });
    g.finish();
}

fn pack_group(c: &mut Criterion) {
    let bytes = mask(N);
    let mut out = vec![0u8; N / 8 + 1];
    let mut g = c.benchmark_group("pack");
    g.throughput(Throughput::Bytes(N as u64));
    for off in [0usize, 3] {
        g.bench_function(BenchmarkId::new(format!("pack/off{off}"), N), |b| {
            b.iter(|| pack(black_box(&bytes), &mut out, off).unwrap())
        });
    }
    for kernel in Kernel::available() {
        g.bench_function(BenchmarkId::new(format!("pack_with/{kernel}"), N), |b| {
            b.iter(|| pack_with(kernel, black_box(&bytes), &mut out, 0).unwrap())
        });
    }
    g.bench_function(BenchmarkId::new("naive", N), |b| {
        b.iter(|| pack_naive(black_box(&bytes), &mut out, 0).unwrap())
    });
    g.bench_function(BenchmarkId::new("arrow_collect_bool", N), |b| {
        b.iter(|| {
            let bytes = black_box(&bytes);
            BooleanBuffer::collect_bool(bytes.len(), |i| bytes[i] != 0)
        })
    });
    g.bench_function(BenchmarkId::new("read_limit_or_fold", N), |b| {
        b.iter(|| black_box(&bytes).iter().fold(0u8, |a, &x| a | x))
    });
    g.finish();
}

fn append_packed_range(c: &mut Criterion) {
    let mut src = vec![0u8; N / 8 + 1];
    pack(&mask(N), &mut src, 3).unwrap();
    let mut g = c.benchmark_group("append_packed_range");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("bitbytes_builder/off3", N), |b| {
        b.iter(|| {
            let mut bb = BitmapBuilder::with_capacity(N);
            bb.append_packed_range(black_box(&src), 3..3 + N);
            bb.finish()
        })
    });
    g.bench_function(
        BenchmarkId::new("arrow_boolean_buffer_builder/off3", N),
        |b| {
            b.iter(|| {
                let mut ab = BooleanBufferBuilder::new(N);
                ab.append_packed_range(3..3 + N, black_box(&src));
                ab.finish()
            })
        },
    );
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = append, pack_group, append_packed_range
}
criterion_main!(benches);
