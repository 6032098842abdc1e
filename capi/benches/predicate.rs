//! What the C entry point costs over calling bitbytes from Rust:
//! `bitbytes_predicate_test` on a batch exported through the Arrow C Data
//! Interface (structure checks, import of the columns the predicate reads,
//! full validation, evaluation) against `Predicate::test_into` on the same
//! `RecordBatch`, at 4 Ki and 1 Mi rows.
//!
//!     cargo bench -p bitbytes-capi --bench predicate -- --warm-up-time 1 --measurement-time 2

use arrow_array::ffi::to_ffi;
use arrow_array::StructArray;
use bitbytes::arrow::Predicate;
use bitbytes_capi::{bitbytes_predicate_free, bitbytes_predicate_parse, bitbytes_predicate_test};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

#[path = "shared/predicate_data.rs"]
mod data;

fn bench(c: &mut Criterion) {
    let predicates = data::predicates();
    let mut group = c.benchmark_group("capi_predicate_test");
    for rows in [4096usize, 1 << 20] {
        let b = data::batch(rows);
        let (array, schema) = to_ffi(&StructArray::from(b.clone()).into()).unwrap();
        let c_array = (&array as *const arrow_array::ffi::FFI_ArrowArray).cast();
        let c_schema = (&schema as *const arrow_array::ffi::FFI_ArrowSchema).cast();
        group.throughput(Throughput::Elements(rows as u64));
        for (name, json) in &predicates {
            let rust = Predicate::from_paimon_json(json, &b.schema()).unwrap();
            let mut handle = std::ptr::null_mut();
            // SAFETY: live JSON bytes, schema and out-parameter.
            let rc = unsafe {
                bitbytes_predicate_parse(json.as_ptr().cast(), json.len(), c_schema, &mut handle)
            };
            assert_eq!(rc, 0);
            let mut out = vec![0u8; rows];
            let mut want = vec![0u8; rows];
            rust.test_into(&b, &mut want).unwrap();
            // SAFETY: a live predicate, exported batch and `rows` bytes.
            let rc = unsafe {
                bitbytes_predicate_test(handle, c_array, c_schema, out.as_mut_ptr(), rows)
            };
            assert_eq!(
                (rc, &out),
                (0, &want),
                "the C entry point disagrees with Rust"
            );
            group.bench_function(BenchmarkId::new(format!("{name}/rust"), rows), |bench| {
                bench.iter(|| rust.test_into(black_box(&b), &mut out).unwrap())
            });
            group.bench_function(BenchmarkId::new(format!("{name}/c_abi"), rows), |bench| {
                bench.iter(|| {
                    // SAFETY: as above.
                    let rc = unsafe {
                        bitbytes_predicate_test(
                            handle,
                            black_box(c_array),
                            c_schema,
                            out.as_mut_ptr(),
                            rows,
                        )
                    };
                    assert_eq!(rc, 0);
                })
            });
            // SAFETY: freed once.
            unsafe { bitbytes_predicate_free(handle) };
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
