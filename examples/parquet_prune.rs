//! Skips row groups and pages of a real Parquet file before reading them.
//!
//! Writes 4 Mi rows with arrow-rs's `ArrowWriter` to a temp file: `ts`
//! (Int64, ascending), `region` (Utf8, clustered: runs of one region),
//! `amount` (Float64, random, with nulls and NaNs); row groups of 128 Ki rows,
//! pages of 8 Ki rows, the page index on. Then, for
//!
//! ```text
//! ts BETWEEN 1_000_000_000 AND 2_400_000_000 AND region LIKE 'eu-%'
//! ```
//!
//! 1. prunes: `ParquetStats::prune` gives the row groups to read, the
//!    `RowSelection` of the pages to read, and the AllMatch rows;
//! 2. reads only those (`with_row_groups`, `with_row_selection`);
//! 3. runs the row filter only on the MayMatch rows (`PrunePlan::filter`);
//! 4. checks the rows against reading everything and filtering every row,
//!    and both against a plain Rust loop over the generated values; exits
//!    non-zero on any difference.
//!
//! It prints the row groups, pages, rows and bytes skipped, and the time of
//! each approach.
//!
//! `cargo run --release --features parquet --example parquet_prune`

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type};
use arrow_array::{Array, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bitbytes::arrow::{ParquetStats, Predicate, PredicateBuilder, StatsVerdict};
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use std::error::Error;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 4 << 20;
const ROW_GROUP_ROWS: usize = 128 << 10;
const PAGE_ROWS: usize = 8 << 10;
const REGIONS: [&str; 6] = [
    "ap-south", "eu-west", "sa-east", "us-east", "eu-north", "us-west",
];
/// The regions `region LIKE 'eu-%'` selects.
const PREFIX: &str = "eu-";
const TS_LO: i64 = 1_000_000_000;
const TS_HI: i64 = 2_400_000_000;

/// The generated rows, as plain values (the reference).
struct Rows {
    ts: Vec<i64>,
    region: Vec<&'static str>,
    amount: Vec<Option<f64>>,
}

fn rows() -> Rows {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    let mut ts = Vec::with_capacity(ROWS);
    let mut region = Vec::with_capacity(ROWS);
    let mut amount = Vec::with_capacity(ROWS);
    let mut t = 0i64;
    let mut r = 0usize;
    for _ in 0..ROWS {
        t += 1 + (rng.next_u64() % 1_500) as i64;
        // A new region about every 20 Ki rows: clustered, not sorted.
        if rng.next_u64().is_multiple_of(20_000) {
            r = (rng.next_u64() % REGIONS.len() as u64) as usize;
        }
        let x = rng.next_u64();
        ts.push(t);
        region.push(REGIONS[r]);
        amount.push(match x % 50 {
            0 => None,
            1 => Some(f64::NAN),
            _ => Some((x >> 20) as f64 % 100_000.0 / 100.0),
        });
    }
    Rows { ts, region, amount }
}

fn write(path: &Path, rows: &Rows, schema: Arc<Schema>) -> Result<(), Box<dyn Error>> {
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_data_page_row_count_limit(PAGE_ROWS)
        // Unique timestamps: a dictionary would only grow to its limit and
        // fall back, leaving a 1 MiB dictionary page in every chunk.
        .set_column_dictionary_enabled(ColumnPath::from("ts"), false)
        .build();
    let mut writer = ArrowWriter::try_new(File::create(path)?, schema.clone(), Some(props))?;
    for start in (0..ROWS).step_by(64 << 10) {
        let end = (start + (64 << 10)).min(ROWS);
        writer.write(&RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(Int64Array::from(rows.ts[start..end].to_vec())),
                Arc::new(StringArray::from(rows.region[start..end].to_vec())),
                Arc::new(Float64Array::from(rows.amount[start..end].to_vec())),
            ],
        )?)?;
    }
    writer.close()?;
    Ok(())
}

fn open(path: &Path) -> Result<ParquetRecordBatchReaderBuilder<File>, Box<dyn Error>> {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
    Ok(ParquetRecordBatchReaderBuilder::try_new_with_options(
        File::open(path)?,
        options,
    )?)
}

/// Reads everything and filters every row.
fn full_scan(path: &Path, predicate: &Predicate) -> Result<Vec<RecordBatch>, Box<dyn Error>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?.build()?;
    let mut out = Vec::new();
    for batch in reader {
        out.push(predicate.filter(&batch?)?);
    }
    Ok(out)
}

/// Reads what the statistics keep and filters only the MayMatch rows.
fn pruned_scan(
    path: &Path,
    predicate: &Predicate,
    report: bool,
) -> Result<Vec<RecordBatch>, Box<dyn Error>> {
    let builder = open(path)?;
    let metadata = builder.metadata().clone();
    let plan = ParquetStats::new(&metadata, builder.schema()).prune(predicate)?;
    if report {
        let groups = plan.row_group_verdicts();
        let count = |v: StatsVerdict| groups.iter().filter(|&&g| g == v).count();
        let rows = plan.row_counts(&metadata);
        let io = plan.io(&metadata, &[0, 1, 2])?;
        println!(
            "row groups: {} in the file, {} skipped (NoMatch), {} AllMatch, {} MayMatch",
            groups.len(),
            count(StatsVerdict::NoMatch),
            count(StatsVerdict::AllMatch),
            count(StatsVerdict::MayMatch)
        );
        println!(
            "pages:      {} in the file (3 columns), {} read, {} skipped",
            io.total_pages,
            io.read_pages,
            io.total_pages - io.read_pages
        );
        println!(
            "bytes:      {} in the file's column chunks, {} read ({:.1}%)",
            io.total_bytes,
            io.read_bytes,
            100.0 * io.read_bytes as f64 / io.total_bytes as f64
        );
        println!(
            "rows:       {} in the file, {} in the row groups read, {} read, {} of them AllMatch \
             (no row filter)",
            rows.total, rows.in_row_groups, rows.selected, rows.all_match
        );
    }
    let reader = builder
        .with_row_groups(plan.row_groups().to_vec())
        .with_row_selection(plan.row_selection())
        .build()?;
    let mut filter = plan.filter(predicate);
    let mut out = Vec::new();
    for batch in reader {
        out.extend(filter.filter(&batch?)?);
    }
    if !filter.is_done() {
        return Err("the reader returned fewer rows than the plan selects".into());
    }
    Ok(out)
}

/// The kept rows' `ts`, `region` and `amount` (by bits: NaN equals NaN), in order.
fn rows_of(batches: &[RecordBatch]) -> Vec<(i64, String, Option<u64>)> {
    let mut out = Vec::new();
    for b in batches {
        let ts = b.column(0).as_primitive::<Int64Type>();
        let region = b.column(1).as_string::<i32>();
        let amount = b.column(2).as_primitive::<Float64Type>();
        for i in 0..b.num_rows() {
            let a = amount.is_valid(i).then(|| amount.value(i).to_bits());
            out.push((ts.value(i), region.value(i).to_string(), a));
        }
    }
    out
}

/// The best of `runs` timings of `f`, in milliseconds.
fn best_ms<T>(
    runs: usize,
    mut f: impl FnMut() -> Result<T, Box<dyn Error>>,
) -> Result<f64, Box<dyn Error>> {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        std::hint::black_box(f()?);
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(best)
}

struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("ts", DataType::Int64, false),
        Field::new("region", DataType::Utf8, false),
        Field::new("amount", DataType::Float64, true),
    ]));
    let path = std::env::temp_dir().join(format!(
        "bitbytes-parquet-prune-{}.parquet",
        std::process::id()
    ));
    let _cleanup = Cleanup(path.clone());
    let data = rows();
    write(&path, &data, schema.clone())?;
    println!(
        "{} rows, {} bytes on disk, row groups of {} rows, pages of {} rows",
        ROWS,
        std::fs::metadata(&path)?.len(),
        ROW_GROUP_ROWS,
        PAGE_ROWS
    );

    let p = PredicateBuilder::new(schema.clone());
    let predicate = p.and(vec![
        p.between(
            "ts",
            &Int64Array::new_scalar(TS_LO),
            &Int64Array::new_scalar(TS_HI),
        )?,
        p.like("region", "eu-%")?,
    ])?;
    println!("predicate: {predicate}");

    // The checks: pruned = full scan = a plain loop over the values.
    let pruned = rows_of(&pruned_scan(&path, &predicate, true)?);
    let full = rows_of(&full_scan(&path, &predicate)?);
    let want: Vec<_> = (0..ROWS)
        .filter(|&i| (TS_LO..=TS_HI).contains(&data.ts[i]) && data.region[i].starts_with(PREFIX))
        .map(|i| {
            (
                data.ts[i],
                data.region[i].to_string(),
                data.amount[i].map(f64::to_bits),
            )
        })
        .collect();
    println!(
        "rows kept: {} (full scan {}, reference {})",
        pruned.len(),
        full.len(),
        want.len()
    );
    if full != want {
        eprintln!("MISMATCH: the full scan differs from the reference");
        std::process::exit(1);
    }
    if pruned != want {
        eprintln!("MISMATCH: the pruned read differs from the full scan");
        std::process::exit(1);
    }
    if want.is_empty() || pruned.len() == ROWS {
        eprintln!("MISMATCH: the predicate should keep some rows but not all");
        std::process::exit(1);
    }

    let full_ms = best_ms(3, || full_scan(&path, &predicate))?;
    let pruned_ms = best_ms(3, || pruned_scan(&path, &predicate, false))?;
    println!(
        "time (best of 3): full scan + filter {full_ms:.1} ms, pruned read {pruned_ms:.1} ms \
         ({:.1}x)",
        full_ms / pruned_ms
    );
    println!("ok: the pruned read equals the full scan and the reference");
    Ok(())
}
