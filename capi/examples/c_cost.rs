//! What `bitbytes_predicate_test` costs over `Predicate::test_into` on the
//! same batch (the bench's batch and predicates), for callgrind and for an
//! interleaved least-time measure on a loaded machine:
//!
//!     c_cost count <x_gt|x_gt_and_s_starts> <rows> <calls>
//!         runs `calls` Rust calls (`rust_calls`), then `calls` C calls
//!         (`c_calls`): read their inclusive instructions with
//!         `valgrind --tool=callgrind` and `callgrind_annotate --inclusive=yes`
//!     c_cost time <predicate> <rows> <rounds>
//!         alternates a block of Rust calls and a block of C calls `rounds`
//!         times; prints the least time per call of each and C / Rust
//!     c_cost
//!         `time` of each predicate on 4 Ki rows, 5 rounds (what CI runs:
//!         the C call's bytes are checked equal to Rust's first)
//!
//! `C_COST_UNREAD=n` appends `n` Int64 columns the predicates do not read
//! to the batch (a wide table's batch: what an unread column costs).

use arrow_array::ffi::{to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{ArrayRef, Int64Array, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, Schema};
use bitbytes::arrow::Predicate;
use bitbytes_capi::{
    bitbytes_predicate_free, bitbytes_predicate_parse, bitbytes_predicate_test, BitbytesPredicate,
};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

#[path = "../benches/shared/predicate_data.rs"]
mod data;

struct Case {
    batch: RecordBatch,
    rust: Predicate,
    handle: *mut BitbytesPredicate,
    array: FFI_ArrowArray,
    schema: FFI_ArrowSchema,
    out: Vec<u8>,
}

#[inline(never)]
fn rust_calls(case: &mut Case, calls: usize) {
    for _ in 0..calls {
        case.rust
            .test_into(black_box(&case.batch), &mut case.out)
            .unwrap();
    }
}

#[inline(never)]
fn c_calls(case: &mut Case, calls: usize) {
    let rows = case.out.len();
    for _ in 0..calls {
        // SAFETY: a live predicate, exported batch and `rows` bytes.
        let rc = unsafe {
            bitbytes_predicate_test(
                case.handle,
                black_box((&case.array as *const FFI_ArrowArray).cast()),
                (&case.schema as *const FFI_ArrowSchema).cast(),
                case.out.as_mut_ptr(),
                rows,
            )
        };
        assert_eq!(rc, 0);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.as_slice() {
        // Without arguments (as CI runs every example): each predicate on
        // 4 Ki rows, C checked equal to Rust, a short timing.
        [_] => {
            for (name, _) in data::predicates() {
                run("time", name, 4096, 5);
            }
        }
        [_, mode, name, rows, n] => match (rows.parse(), n.parse()) {
            (Ok(rows), Ok(n)) => run(mode, name, rows, n),
            _ => {
                eprintln!("c_cost: <rows> and <calls | rounds> are numbers");
                std::process::exit(2);
            }
        },
        _ => {
            eprintln!("usage: c_cost [<count | time> <predicate> <rows> <calls | rounds>]");
            std::process::exit(2);
        }
    }
}

/// One predicate of the bench on `rows` rows: C checked equal to Rust on
/// one call, then `n` calls of each (`count`) or `n` rounds (`time`).
fn run(mode: &str, name: &str, rows: usize, n: usize) {
    let Some((_, json)) = data::predicates().into_iter().find(|(n, _)| *n == name) else {
        panic!("unknown predicate {name}");
    };
    let batch = with_unread_columns(data::batch(rows));
    let (array, schema) = to_ffi(&StructArray::from(batch.clone()).into()).unwrap();
    let rust = Predicate::from_paimon_json(&json, &batch.schema()).unwrap();
    let mut handle = std::ptr::null_mut();
    // SAFETY: live JSON bytes, schema and out-parameter.
    let rc = unsafe {
        bitbytes_predicate_parse(
            json.as_ptr().cast(),
            json.len(),
            (&schema as *const FFI_ArrowSchema).cast(),
            &mut handle,
        )
    };
    assert_eq!(rc, 0);
    let mut case = Case {
        batch,
        rust,
        handle,
        array,
        schema,
        out: vec![0; rows],
    };
    rust_calls(&mut case, 1);
    let want = case.out.clone();
    c_calls(&mut case, 1);
    assert_eq!(case.out, want, "C and Rust disagree");
    match mode {
        "count" => {
            rust_calls(&mut case, n);
            c_calls(&mut case, n);
        }
        "time" => {
            // About 2 ms a block.
            let block = (2_000_000 / rows.max(1)).clamp(1, 1000);
            let (mut best_rust, mut best_c) = (f64::MAX, f64::MAX);
            for _ in 0..n {
                let t = Instant::now();
                rust_calls(&mut case, block);
                best_rust = best_rust.min(t.elapsed().as_secs_f64() / block as f64);
                let t = Instant::now();
                c_calls(&mut case, block);
                best_c = best_c.min(t.elapsed().as_secs_f64() / block as f64);
            }
            println!(
                "{name} {rows}: rust {:.3} us, c {:.3} us, c/rust {:.3}",
                best_rust * 1e6,
                best_c * 1e6,
                best_c / best_rust
            );
        }
        other => panic!("unknown mode {other}"),
    }
    // SAFETY: freed once.
    unsafe { bitbytes_predicate_free(case.handle) };
}

/// `batch` with the `C_COST_UNREAD` columns `u0`, `u1`, ... appended.
fn with_unread_columns(batch: RecordBatch) -> RecordBatch {
    let n: usize = std::env::var("C_COST_UNREAD")
        .ok()
        .map(|v| v.parse().expect("C_COST_UNREAD is a number"))
        .unwrap_or(0);
    let column: ArrayRef = Arc::new(Int64Array::from_iter_values(0..batch.num_rows() as i64));
    let mut fields: Vec<_> = batch.schema().fields().iter().cloned().collect();
    let mut columns = batch.columns().to_vec();
    for i in 0..n {
        fields.push(Arc::new(Field::new(
            format!("u{i}"),
            DataType::Int64,
            false,
        )));
        columns.push(column.clone());
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap()
}
