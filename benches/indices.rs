//! Selection vectors against arrow-rs and the scalar loops they replace, side
//! by side in one group per case so the ratios come from one run.
//!
//! ```text
//! cargo bench --bench indices
//! ```
//!
//! Groups (1 Mi rows, no validity, offset 0, throughput in rows):
//! - `indices/<density>`: `unpack_indices` (dispatched and each kernel),
//!   arrow-rs `BooleanBuffer::set_indices_u32()` collected into a
//!   preallocated `Vec<u32>`, and the oracle `unpack_indices_naive`;
//! - `indices_2Ki/<density>`: one 2048-row batch, against arrow-rs;
//! - `mask_to_indices/50%`: against a branch-free scalar loop;
//! - `counts`: `count_selected` and `mask_count` against reading their input
//!   once (an OR-fold over the bytes, vectorised with AVX2 where the CPU has
//!   it).

use arrow_buffer::BooleanBuffer;
use bitbytes::raw::{
    count_selected_with, mask_count_with, mask_to_indices_with, unpack_indices_naive,
    unpack_indices_with, IndicesKernel,
};
use bitbytes::{count_selected, mask_count, mask_to_indices, unpack_indices};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;

/// `ROWS` bits, each set with probability `percent / 100`.
fn bitmap(percent: u64, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut b = vec![0u8; ROWS / 8];
    for i in 0..ROWS {
        if rng.next_u64() % 10_000 < percent * 100 {
            b[i / 8] |= 1 << (i % 8);
        }
    }
    b
}

fn short(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    g.throughput(Throughput::Elements(ROWS as u64));
    g.sample_size(20)
        .measurement_time(Duration::from_millis(1500))
        .warm_up_time(Duration::from_millis(300));
}

/// The OR of every byte, 64 bytes a round into eight `u64` lanes: reading
/// the input once, vectorised, with AVX2 where the CPU has it (the read
/// bandwidth of AVX-512 on Zen 4 is the same: two 32-byte loads a cycle).
fn or_fold(bytes: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the only feature `or_fold_avx2` enables.
        return unsafe { or_fold_avx2(bytes) };
    }
    or_fold_lanes(bytes)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn or_fold_avx2(bytes: &[u8]) -> u64 {
    or_fold_lanes(bytes)
}

#[inline(always)]
fn or_fold_lanes(bytes: &[u8]) -> u64 {
    let mut acc = [0u64; 8];
    let chunks = bytes.chunks_exact(64);
    let rest = chunks.remainder().iter().fold(0, |a, &b| a | u64::from(b));
    for c in chunks {
        for (a, w) in acc.iter_mut().zip(c.chunks_exact(8)) {
            *a |= u64::from_le_bytes(w.try_into().unwrap());
        }
    }
    acc.iter().fold(rest, |a, &b| a | b)
}

fn indices(c: &mut Criterion) {
    let mut out = vec![0u32; ROWS];
    for percent in [1u64, 10, 50, 90] {
        let values = bitmap(percent, 7);
        let buffer = BooleanBuffer::new(values.clone().into(), 0, ROWS);
        let mut g = c.benchmark_group(format!("indices/{percent}%"));
        short(&mut g);
        g.bench_function("arrow_set_indices_u32", |b| {
            b.iter(|| {
                let out = black_box(&mut out);
                out.clear();
                out.extend(black_box(&buffer).set_indices_u32());
                out.len()
            })
        });
        out.resize(ROWS, 0);
        g.bench_function("naive", |b| {
            b.iter(|| unpack_indices_naive(black_box(&values), None, 0, ROWS, false, 0, &mut out))
        });
        g.bench_function("unpack_indices", |b| {
            b.iter(|| unpack_indices(black_box(&values), None, 0, ROWS, false, 0, &mut out))
        });
        for k in IndicesKernel::available() {
            g.bench_function(BenchmarkId::new("kernel", k), |b| {
                b.iter(|| {
                    unpack_indices_with(k, black_box(&values), None, 0, ROWS, false, 0, &mut out)
                })
            });
        }
        g.finish();
    }
}

/// One vector of a vectorised engine (DuckDB's 2048 rows): the fixed cost
/// per call shows.
fn batch(c: &mut Criterion) {
    const BATCH: usize = 2048;
    let mut out = vec![0u32; BATCH];
    for percent in [10u64, 50] {
        let values = bitmap(percent, 19)[..BATCH / 8].to_vec();
        let buffer = BooleanBuffer::new(values.clone().into(), 0, BATCH);
        let mut g = c.benchmark_group(format!("indices_2Ki/{percent}%"));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.sample_size(20)
            .measurement_time(Duration::from_millis(800))
            .warm_up_time(Duration::from_millis(200));
        g.bench_function("arrow_set_indices_u32", |b| {
            b.iter(|| {
                let out = black_box(&mut out);
                out.clear();
                out.extend(black_box(&buffer).set_indices_u32());
                out.len()
            })
        });
        out.resize(BATCH, 0);
        g.bench_function("unpack_indices", |b| {
            b.iter(|| unpack_indices(black_box(&values), None, 0, BATCH, false, 0, &mut out))
        });
        g.finish();
    }
}

fn masks(c: &mut Criterion) {
    let values = bitmap(50, 11);
    let mask: Vec<u8> = (0..ROWS).map(|i| (values[i / 8] >> (i % 8)) & 1).collect();
    let mut out = vec![0u32; ROWS];
    let mut g = c.benchmark_group("mask_to_indices/50%");
    short(&mut g);
    g.bench_function("branch_free_scalar", |b| {
        b.iter(|| {
            let (mask, out) = (black_box(&mask), black_box(&mut out));
            let mut n = 0;
            for (i, &m) in mask.iter().enumerate() {
                out[n] = i as u32;
                n += usize::from(m != 0);
            }
            n
        })
    });
    g.bench_function("mask_to_indices", |b| {
        b.iter(|| mask_to_indices(black_box(&mask), 0, &mut out))
    });
    for k in IndicesKernel::available() {
        g.bench_function(BenchmarkId::new("kernel", k), |b| {
            b.iter(|| mask_to_indices_with(k, black_box(&mask), 0, &mut out))
        });
    }
    g.finish();
}

fn counts(c: &mut Criterion) {
    let values = bitmap(50, 13);
    let validity = XorShift::new(17).validity(ROWS / 8);
    let mask: Vec<u8> = (0..ROWS).map(|i| (values[i / 8] >> (i % 8)) & 1).collect();
    let mut g = c.benchmark_group("counts");
    short(&mut g);
    g.bench_function("or_fold_values", |b| b.iter(|| or_fold(black_box(&values))));
    g.bench_function("count_selected", |b| {
        b.iter(|| count_selected(black_box(&values), None, 0, ROWS, false))
    });
    g.bench_function("or_fold_values_and_validity", |b| {
        b.iter(|| or_fold(black_box(&values)) | or_fold(black_box(&validity)))
    });
    g.bench_function("count_selected_validity", |b| {
        b.iter(|| count_selected(black_box(&values), Some(&validity), 0, ROWS, true))
    });
    g.bench_function("or_fold_mask", |b| b.iter(|| or_fold(black_box(&mask))));
    g.bench_function("mask_count", |b| b.iter(|| mask_count(black_box(&mask))));
    for k in IndicesKernel::available() {
        g.bench_function(BenchmarkId::new("count_selected", k), |b| {
            b.iter(|| count_selected_with(k, black_box(&values), None, 0, ROWS, false))
        });
        g.bench_function(BenchmarkId::new("mask_count", k), |b| {
            b.iter(|| mask_count_with(k, black_box(&mask)))
        });
    }
    g.finish();
}

criterion_group!(benches, indices, batch, masks, counts);
criterion_main!(benches);
