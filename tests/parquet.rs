//! Parquet pruning on real files written by arrow-rs's `ArrowWriter`:
//! random tables (Int64, Float64 with NaNs of both signs and both zeros,
//! Utf8, a dictionary of Utf8; nulls in each) of many row groups and small
//! pages cut at different rows per column, truncated string statistics, and
//! random predicate trees (tests/support/predicate_model.rs). Every NoMatch
//! row group / run of rows holds no row the row-by-row model selects, every
//! AllMatch one no row it rejects, and the pruned read (row groups, row
//! selection, row filter only on MayMatch rows) equals the full scan
//! filtered by the model.
#![cfg(feature = "parquet")]

#[path = "support/predicate_model.rs"]
mod model;

use arrow_array::{Array, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use bitbytes::arrow::{
    CompareOp, Function, Leaf, ParquetStats, Predicate, PredicateBuilder, StatsVerdict,
    StatsVerdict::*,
};
use model::{Bytes, Spec, Table};
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use proptest::prelude::*;
use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A Parquet file in the temp dir, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new() -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        TempFile(std::env::temp_dir().join(format!(
            "bitbytes-parquet-test-{}-{n}.parquet",
            std::process::id()
        )))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// How the file is cut: rows per row group, per page of each column (i, f,
/// s, d), and the truncation of string statistics.
#[derive(Debug, Clone)]
struct Layout {
    row_group_rows: usize,
    page_rows: [usize; 4],
    truncate: Option<usize>,
}

fn write(batch: &RecordBatch, layout: &Layout) -> TempFile {
    let file = TempFile::new();
    let mut props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(layout.row_group_rows))
        .set_write_batch_size(1)
        .set_statistics_truncate_length(layout.truncate)
        .set_column_index_truncate_length(layout.truncate);
    for (name, &rows) in batch.schema().fields().iter().zip(&layout.page_rows) {
        props = props
            .set_column_data_page_row_count_limit(ColumnPath::from(name.name().as_str()), rows);
    }
    let mut writer = ArrowWriter::try_new(
        File::create(&file.0).unwrap(),
        batch.schema(),
        Some(props.build()),
    )
    .unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    file
}

fn builder(file: &TempFile) -> ParquetRecordBatchReaderBuilder<File> {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
    ParquetRecordBatchReaderBuilder::try_new_with_options(File::open(&file.0).unwrap(), options)
        .unwrap()
}

/// The table sorted by the column `by` (nulls first, Java's order), so
/// that row groups and pages have narrow bounds.
fn sorted(table: &Table, by: usize) -> Table {
    let mut order: Vec<usize> = (0..table.len()).collect();
    order.sort_by(|&a, &b| match (table.value(by, a), table.value(by, b)) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, _) => std::cmp::Ordering::Less,
        (_, None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => model::order(x, y),
    });
    Table {
        i: order.iter().map(|&r| table.i[r]).collect(),
        f: order.iter().map(|&r| table.f[r]).collect(),
        s: order.iter().map(|&r| table.s[r]).collect(),
        d: order.iter().map(|&r| table.d[r]).collect(),
    }
}

/// Prunes `table` written with `layout` by `spec` and checks soundness and
/// the pruned read against the model.
fn check(table: &Table, layout: &Layout, spec: &Spec) {
    let predicate = spec.predicate();
    let want = spec.eval(table);
    let file = write(&table.batch(), layout);
    let builder = builder(&file);
    let metadata = builder.metadata().clone();
    let plan = ParquetStats::new(&metadata, builder.schema())
        .prune(&predicate)
        .unwrap();

    // Row groups: NoMatch hides no selected row, AllMatch no rejected one.
    let mut start = 0;
    let mut group_start = Vec::new();
    for (g, verdict) in plan.row_group_verdicts().iter().enumerate() {
        let rows = metadata.row_group(g).num_rows() as usize;
        group_start.push(start);
        assert_sound(
            &want[start..start + rows],
            *verdict,
            &predicate,
            &format!("row group {g}"),
        );
        start += rows;
    }
    assert_eq!(start, table.len());
    let kept: Vec<usize> = (0..metadata.num_row_groups())
        .filter(|&g| plan.row_group_verdicts()[g] != NoMatch)
        .collect();
    assert_eq!(plan.row_groups(), kept);

    // Runs over the kept row groups' rows.
    let kept_rows: Vec<usize> = kept
        .iter()
        .flat_map(|&g| {
            let s = group_start[g];
            s..s + metadata.row_group(g).num_rows() as usize
        })
        .collect();
    let mut at = 0;
    for (k, run) in plan.runs().iter().enumerate() {
        let rows: Vec<u8> = kept_rows[at..at + run.len]
            .iter()
            .map(|&r| want[r])
            .collect();
        assert_sound(&rows, run.verdict, &predicate, &format!("run {k} at {at}"));
        at += run.len;
    }
    assert_eq!(at, kept_rows.len(), "the runs cover the kept row groups");
    let counts = plan.row_counts(&metadata);
    assert_eq!(counts.total, table.len());
    assert_eq!(counts.in_row_groups, kept_rows.len());

    // The pruned read, filtered only on MayMatch rows, equals the model.
    let reader = builder
        .with_row_groups(plan.row_groups().to_vec())
        .with_row_selection(plan.row_selection())
        .build()
        .unwrap();
    let mut filter = plan.filter(&predicate);
    let mut got = Vec::new();
    let mut read = 0;
    for batch in reader {
        let batch = batch.unwrap();
        read += batch.num_rows();
        got.extend(filter.filter(&batch).unwrap());
    }
    assert!(filter.is_done());
    assert_eq!(read, counts.selected);
    let got = Table::from_batch(
        &arrow_select::concat::concat_batches(&table.batch().schema(), &got).unwrap(),
    );
    assert!(
        got.same(&table.select(&want)),
        "pruned read differs from the model for {predicate}"
    );
    let io = plan.io(&metadata, &[0, 1, 2, 3]).unwrap();
    assert!(io.read_bytes <= io.total_bytes && io.read_pages <= io.total_pages);
}

fn assert_sound(selected: &[u8], verdict: StatsVerdict, predicate: &Predicate, what: &str) {
    match verdict {
        NoMatch => assert!(
            selected.iter().all(|&b| b == 0),
            "{what} NoMatch but selects rows {selected:?}: {predicate}"
        ),
        AllMatch => assert!(
            selected.iter().all(|&b| b == 1),
            "{what} AllMatch but rejects rows {selected:?}: {predicate}"
        ),
        MayMatch => {}
    }
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        1usize..60,
        proptest::array::uniform4(1usize..12),
        proptest::option::of(1usize..4),
    )
        .prop_map(|(row_group_rows, page_rows, truncate)| Layout {
            row_group_rows,
            page_rows,
            truncate,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random trees over random tables, sorted by a random column or not.
    #[test]
    fn pruning_is_sound_and_reads_the_same_rows(
        seed in any::<u64>(),
        rows in 0usize..250,
        by in proptest::option::of(0usize..4),
        layout in layout(),
        tree in proptest::collection::vec(any::<u8>(), 1..48),
    ) {
        let table = Table::random(rows, seed);
        let table = by.map_or(table.clone(), |by| sorted(&table, by));
        check(&table, &layout, &Spec::decode(&mut Bytes::new(&tree), 0));
    }
}

/// Sorted Int64 and Utf8 columns with pages cut at different rows: an And
/// across them is NoMatch exactly where either column's pages rule it out,
/// AllMatch where both columns' pages prove it, and the reader skips pages.
#[test]
fn and_across_columns_with_different_pages() {
    let n = 1000i64;
    let schema = Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int64, false),
        Field::new("b", DataType::Utf8, true),
    ]));
    let a = Int64Array::from_iter_values(0..n);
    let b = StringArray::from_iter((0..n).map(|v| (v % 10 != 0).then(|| format!("k{:04}", v))));
    let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(a), Arc::new(b)]).unwrap();
    let file = TempFile::new();
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(500))
        .set_write_batch_size(1)
        .set_column_data_page_row_count_limit(ColumnPath::from("a"), 30)
        .set_column_data_page_row_count_limit(ColumnPath::from("b"), 70)
        .build();
    let mut writer =
        ArrowWriter::try_new(File::create(&file.0).unwrap(), schema.clone(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();

    let builder = builder(&file);
    let p = PredicateBuilder::new(schema.clone());
    // a in [100, 400) and b >= "k0200": rows 200..400 where b is not null.
    let pred = Predicate::And(vec![
        p.between(
            "a",
            &Int64Array::new_scalar(100),
            &Int64Array::new_scalar(399),
        )
        .unwrap(),
        p.greater_or_equal("b", &StringArray::new_scalar("k0200"))
            .unwrap(),
    ]);
    let stats = ParquetStats::new(builder.metadata(), builder.schema());
    let pages_a = stats.pages("a", 0).unwrap().unwrap();
    let pages_b = stats.pages("b", 0).unwrap().unwrap();
    assert_eq!(pages_a.rows().len(), 17, "500 rows in pages of 30");
    assert_eq!(pages_b.rows().len(), 8, "500 rows in pages of 70");
    assert_eq!(
        stats.pages("missing", 0).unwrap().map(|p| p.rows().len()),
        None
    );
    let plan = stats.prune(&pred).unwrap();
    assert_eq!(plan.row_group_verdicts(), [MayMatch, NoMatch]);
    assert_eq!(plan.row_groups(), [0]);
    // Selected: the a pages overlapping [100, 400) (90..420) intersected
    // with the b pages that may hold values >= k0200 (140..500).
    let selection = plan.row_selection();
    let selected: usize = selection
        .iter()
        .filter(|s| !s.skip)
        .map(|s| s.row_count)
        .sum();
    assert_eq!(selected, 420 - 140);
    // No row is AllMatch: b has nulls in every page.
    assert!(plan.runs().iter().all(|r| r.verdict != AllMatch));
    let counts = plan.row_counts(builder.metadata());
    assert_eq!(
        (counts.total, counts.in_row_groups, counts.selected),
        (1000, 500, 280)
    );
    let io = plan.io(builder.metadata(), &[0, 1]).unwrap();
    // Pages of a: 34 in the file, 10 over rows 140..420 of row group 0
    // (120..150 to 390..420); of b: 16, 4 over 140..420 (140..210 to 350..420).
    assert_eq!((io.total_pages, io.read_pages), (34 + 16, 10 + 4));
    assert!(io.read_bytes < io.total_bytes / 2, "{io:?}");
    assert!(plan.io(builder.metadata(), &[2]).is_err());

    let reader = builder
        .with_row_groups(plan.row_groups().to_vec())
        .with_row_selection(selection)
        .build()
        .unwrap();
    let mut filter = plan.filter(&pred);
    let mut a_values = Vec::new();
    for batch in reader {
        for piece in filter.filter(&batch.unwrap()).unwrap() {
            let col = piece
                .column(0)
                .as_any()
                .downcast_ref::<Int64Array>()
                .unwrap();
            a_values.extend(col.values().iter().copied());
        }
    }
    let want: Vec<i64> = (200..400).filter(|v| v % 10 != 0).collect();
    assert_eq!(a_values, want);
}

/// A row group whose non-NaN floats are all small but that holds NaN rows:
/// Parquet leaves NaN out of min / max, so `f > 10` (which NaN satisfies in
/// Java's order) must read it, and `f < 10` must not be AllMatch there.
#[test]
fn nan_rows_hidden_from_float_bounds() {
    let schema = Arc::new(Schema::new(vec![Field::new("f", DataType::Float64, false)]));
    let f = Float64Array::from(vec![1.0, f64::NAN, 2.0, 3.0, 1.0, 2.0]);
    let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(f)]).unwrap();
    let file = TempFile::new();
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(3))
        .build();
    let mut writer =
        ArrowWriter::try_new(File::create(&file.0).unwrap(), schema.clone(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let builder = builder(&file);
    let stats = ParquetStats::new(builder.metadata(), builder.schema());
    let p = PredicateBuilder::new(schema.clone());
    let gt = p
        .greater_than("f", &Float64Array::new_scalar(10.0))
        .unwrap();
    let lt = p.less_than("f", &Float64Array::new_scalar(10.0)).unwrap();
    let groups = stats.row_groups(&["f"]).unwrap();
    let gt_verdicts = gt.test_stats(&groups).unwrap();
    let lt_verdicts = lt.test_stats(&groups).unwrap();
    assert_eq!(gt_verdicts[0], MayMatch, "the NaN row satisfies f > 10");
    assert_ne!(lt_verdicts[0], AllMatch, "the NaN row fails f < 10");
    // The second row group has no NaN: NoMatch for f > 10 whatever the
    // writer says of its NaN count; AllMatch for f < 10 only if it says 0.
    assert_eq!(gt_verdicts[1], NoMatch);
    assert_ne!(lt_verdicts[1], NoMatch);
    // IsNaN never prunes a non-null row group.
    let is_nan = Predicate::Leaf(Leaf::new(
        Function::IsNaN,
        "f",
        Arc::new(Float64Array::from(Vec::<f64>::new())),
    ));
    assert_eq!(is_nan.test_stats(&groups).unwrap(), [MayMatch, MayMatch]);
}

/// Long strings truncated to 2 bytes in the statistics still bound the
/// values: the truncated max is above every value, so nothing is lost.
#[test]
fn truncated_string_statistics_stay_sound() {
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, false)]));
    let values = ["abcdef", "abcdeg", "abzzzz", "b", "bcd", "bcdzzz"];
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(StringArray::from(values.to_vec()))],
    )
    .unwrap();
    let layout = Layout {
        row_group_rows: 3,
        page_rows: [1; 4],
        truncate: Some(2),
    };
    let file = write(&batch, &layout);
    let builder = builder(&file);
    let stats = ParquetStats::new(builder.metadata(), builder.schema());
    let groups = stats.row_groups(&["s"]).unwrap();
    let p = PredicateBuilder::new(schema.clone());
    let eq = |v: &str| {
        p.equal("s", &StringArray::new_scalar(v))
            .unwrap()
            .test_stats(&groups)
            .unwrap()
    };
    // "abzzzz" is the first group's max; its bound "ac" is above it.
    assert_eq!(eq("abzzzz"), [MayMatch, NoMatch]);
    assert_eq!(eq("bcdzzz"), [NoMatch, MayMatch]);
    assert_eq!(
        eq("ac"),
        [MayMatch, NoMatch],
        "bound, not value: may, never AllMatch"
    );
    let lt = p.less_than("s", &StringArray::new_scalar("b")).unwrap();
    assert_eq!(lt.test_stats(&groups).unwrap(), [AllMatch, NoMatch]);
    // Pages of one row: the page index truncates to 2 bytes as well, so
    // each page's bounds are ["ab", "ac"]: "abcdef" may be in any of them
    // (in the first it is), "b" in none.
    let pages = stats.pages("s", 0).unwrap().unwrap();
    assert_eq!(pages.rows(), [0..1, 1..2, 2..3]);
    let on_pages = |v: &str| {
        p.equal("s", &StringArray::new_scalar(v))
            .unwrap()
            .test_stats(pages.stats())
            .unwrap()
    };
    assert_eq!(on_pages("abcdef"), [MayMatch; 3]);
    assert_eq!(on_pages("b"), [NoMatch; 3]);
}

/// Fields the file lacks are unknown, not errors; literals of another type
/// than the file's column are errors naming the field.
#[test]
fn missing_fields_and_type_errors() {
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(Int64Array::from(vec![Some(1), None, Some(3)]))],
    )
    .unwrap();
    let layout = Layout {
        row_group_rows: 2,
        page_rows: [1; 4],
        truncate: None,
    };
    let file = write(&batch, &layout);
    let builder = builder(&file);
    let stats = ParquetStats::new(builder.metadata(), builder.schema());
    let missing = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::Equal),
        "nope",
        Arc::new(Int64Array::from(vec![1])),
    ));
    let plan = stats.prune(&missing).unwrap();
    assert_eq!(plan.row_group_verdicts(), [MayMatch, MayMatch]);
    assert_eq!(plan.row_groups(), [0, 1]);
    let wrong = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::Equal),
        "x",
        Arc::new(StringArray::from(vec!["1"])),
    ));
    let err: ArrowError = stats.prune(&wrong).unwrap_err();
    assert!(err.to_string().contains("`x`"), "{err}");
    assert!(stats.pages("x", 2).is_err());
    // x = 3: the first row group (1, null) is NoMatch; IsNull on the
    // second (3) is NoMatch by its null count.
    let eq = Predicate::Leaf(Leaf::new(
        Function::Compare(CompareOp::Equal),
        "x",
        Arc::new(Int64Array::from(vec![3])),
    ));
    assert_eq!(
        stats.prune(&eq).unwrap().row_group_verdicts(),
        [NoMatch, AllMatch]
    );
    let is_null = Predicate::Leaf(Leaf::new(
        Function::IsNull,
        "x",
        Arc::new(Int64Array::from(Vec::<i64>::new())),
    ));
    assert_eq!(
        stats.prune(&is_null).unwrap().row_group_verdicts(),
        [MayMatch, NoMatch]
    );
}

/// Metadata of a corrupt or hand-built file gives an error naming what is
/// wrong, or unknown statistics, never a panic nor a plan that loses rows.
mod corrupt_metadata {
    use super::*;
    use arrow_array::Decimal128Array;
    use parquet::basic::{ColumnOrder, Type as PhysicalType};
    use parquet::data_type::FixedLenByteArray;
    use parquet::file::metadata::page_index::PageIndexBuilder;
    use parquet::file::metadata::{
        ColumnIndexBuilder, FileMetaData, OffsetIndexBuilder, ParquetMetaData,
        ParquetMetaDataBuilder, RowGroupMetaData,
    };
    use parquet::file::statistics::Statistics;

    /// A file of `columns` (each of 4 rows), two row groups of two rows,
    /// pages of one row, with the page index; its metadata and schema.
    fn small(columns: Vec<(&str, Arc<dyn Array>)>) -> (TempFile, ParquetMetaData, Arc<Schema>) {
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let layout = Layout {
            row_group_rows: 2,
            page_rows: [1; 4],
            truncate: None,
        };
        let file = write(&batch, &layout);
        let b = builder(&file);
        let (metadata, schema) = (b.metadata().as_ref().clone(), b.schema().clone());
        (file, metadata, schema)
    }

    fn x() -> (TempFile, ParquetMetaData, Arc<Schema>) {
        small(vec![("x", Arc::new(Int64Array::from(vec![0, 1, 2, 3])))])
    }

    fn less_than(field: &str, k: i64) -> Predicate {
        Predicate::Leaf(Leaf::new(
            Function::Compare(CompareOp::LessThan),
            field,
            Arc::new(Int64Array::from(vec![k])),
        ))
    }

    /// `metadata` with its row groups passed through `f`.
    fn with_groups(
        metadata: &ParquetMetaData,
        f: impl FnOnce(Vec<RowGroupMetaData>) -> Vec<RowGroupMetaData>,
    ) -> ParquetMetaData {
        let mut b = metadata.clone().into_builder();
        let groups = f(b.take_row_groups());
        b.set_row_groups(groups).build()
    }

    fn rows(group: &RowGroupMetaData, n: i64) -> RowGroupMetaData {
        group
            .clone()
            .into_builder()
            .set_num_rows(n)
            .build()
            .unwrap()
    }

    #[test]
    fn negative_or_overflowing_row_counts() {
        let (_file, metadata, schema) = x();
        let bad = with_groups(&metadata, |g| vec![rows(&g[0], -1), g[1].clone()]);
        let stats = ParquetStats::new(&bad, &schema);
        let err = stats.row_groups(&["x"]).unwrap_err().to_string();
        assert!(err.contains("row group 0 has -1 rows"), "{err}");
        assert!(stats.prune(&less_than("x", 1)).is_err());
        let err = stats.pages("x", 0).unwrap_err().to_string();
        assert!(err.contains("row group 0 has -1 rows"), "{err}");
        // Three row groups of i64::MAX rows: more than a 64-bit usize.
        let huge = with_groups(&metadata, |g| vec![rows(&g[0], i64::MAX); 3]);
        let err = ParquetStats::new(&huge, &schema)
            .prune(&less_than("x", 1))
            .unwrap_err()
            .to_string();
        assert!(err.contains("add up"), "{err}");
        // The plan of the good file, counted against the bad metadata: no
        // panic, and `io` refuses metadata that is not the plan's file's.
        let plan = ParquetStats::new(&metadata, &schema)
            .prune(&less_than("x", 3))
            .unwrap();
        assert_eq!(plan.row_counts(&bad).total, 2);
        assert!(plan.io(&bad, &[0]).is_err());
        let three = with_groups(&metadata, |g| {
            vec![g[0].clone(), g[1].clone(), g[1].clone()]
        });
        let err = plan.io(&three, &[0]).unwrap_err().to_string();
        assert!(
            err.contains("2 row groups") && err.contains("3 row groups"),
            "{err}"
        );
        assert!(plan.io(&metadata, &[0]).is_ok());
        // Negative sizes: an error, not a wrapped count.
        let negative = with_groups(&metadata, |g| {
            g.into_iter()
                .map(|g| {
                    let c = g.column(0).clone().into_builder();
                    let c = c.set_total_compressed_size(-1).build().unwrap();
                    g.into_builder()
                        .set_column_metadata(vec![c])
                        .build()
                        .unwrap()
                })
                .collect()
        });
        let err = plan.io(&negative, &[0]).unwrap_err().to_string();
        assert!(err.contains("compressed size -1"), "{err}");
    }

    /// An offset index of no page for a row group of rows is an error: its
    /// runs would cover none of the row group's rows, and shift the rows
    /// of the row groups after it.
    #[test]
    fn an_offset_index_without_pages() {
        let (_file, metadata, schema) = x();
        let mut index = PageIndexBuilder::new(2, 1);
        index.put_offset_index(OffsetIndexBuilder::new().build(), 0, 0);
        index.put_column_index(
            ColumnIndexBuilder::new(PhysicalType::INT64)
                .build()
                .unwrap(),
            0,
            0,
        );
        let bad = ParquetMetaDataBuilder::new_from_metadata(metadata)
            .set_page_index(Some(Arc::new(index.build())))
            .build();
        let stats = ParquetStats::new(&bad, &schema);
        let err = stats.pages("x", 0).unwrap_err().to_string();
        assert!(err.contains("no page for a row group of 2 rows"), "{err}");
        // x < 1: the first row group (0, 1) MayMatch, so its pages are read.
        assert!(stats.prune(&less_than("x", 1)).is_err());
        // The second row group has no page index: its row-group verdict.
        assert!(stats.pages("x", 1).unwrap().is_none());
    }

    /// A schema whose fields are not in the file's order: arrow-rs would
    /// map each field to the column at its position.
    #[test]
    fn a_schema_in_another_order() {
        let (_file, metadata, schema) = small(vec![
            ("a", Arc::new(Int64Array::from(vec![0, 1, 2, 3]))),
            ("b", Arc::new(Int64Array::from(vec![10, 11, 12, 13]))),
        ]);
        let swapped = Schema::new(vec![
            schema.field(1).as_ref().clone(),
            schema.field(0).as_ref().clone(),
        ]);
        let stats = ParquetStats::new(&metadata, &swapped);
        let err = stats.prune(&less_than("b", 11)).unwrap_err().to_string();
        assert!(err.contains("`b`") && err.contains("`a`"), "{err}");
        assert!(stats.pages("a", 0).is_err());
        let plan = ParquetStats::new(&metadata, &schema)
            .prune(&less_than("b", 11))
            .unwrap();
        assert_eq!(plan.row_group_verdicts(), [MayMatch, NoMatch]);
    }

    /// Decimal bounds in bytes that arrow-rs cannot read as the decimal type
    /// (it asserts 1 to 16 bytes for a Decimal128): the field's statistics
    /// are unknown.
    #[test]
    fn decimal_bounds_of_the_wrong_size() {
        let d = Decimal128Array::from(vec![0i128, 1, 2, 3])
            .with_precision_and_scale(38, 0)
            .unwrap();
        let (_file, metadata, schema) = small(vec![("d", Arc::new(d))]);
        let lit = Decimal128Array::from(vec![1i128])
            .with_precision_and_scale(38, 0)
            .unwrap();
        let pred = Predicate::Leaf(Leaf::new(
            Function::Compare(CompareOp::LessThan),
            "d",
            Arc::new(lit),
        ));
        let good = ParquetStats::new(&metadata, &schema).prune(&pred).unwrap();
        assert_eq!(good.row_group_verdicts(), [MayMatch, NoMatch]);
        for len in [0usize, 17] {
            let bytes = |b: u8| Some(FixedLenByteArray::from(vec![b; len]));
            let stats = Statistics::fixed_len_byte_array(bytes(0), bytes(1), None, Some(0), false);
            let bad = with_groups(&metadata, |g| {
                g.into_iter()
                    .map(|g| {
                        let c = g.column(0).clone().into_builder();
                        let c = c.set_statistics(stats.clone()).build().unwrap();
                        g.into_builder()
                            .set_column_metadata(vec![c])
                            .build()
                            .unwrap()
                    })
                    .collect()
            });
            let plan = ParquetStats::new(&bad, &schema).prune(&pred).unwrap();
            assert_eq!(
                plan.row_group_verdicts(),
                [MayMatch, MayMatch],
                "{len} bytes"
            );
            // The same bytes in the column index of the first row group.
            let mut index = PageIndexBuilder::new(2, 1);
            let mut column = ColumnIndexBuilder::new(PhysicalType::FIXED_LEN_BYTE_ARRAY);
            for _ in 0..2 {
                column.append(false, vec![0; len], vec![1; len], 0, None);
            }
            let mut offsets = OffsetIndexBuilder::new();
            for row in 0..2 {
                offsets.append_row_count(1);
                offsets.append_offset_and_size(4 + row, 1);
            }
            index.put_column_index(column.build().unwrap(), 0, 0);
            index.put_offset_index(offsets.build(), 0, 0);
            let paged = ParquetMetaDataBuilder::new_from_metadata(metadata.clone())
                .set_page_index(Some(Arc::new(index.build())))
                .build();
            let stats = ParquetStats::new(&paged, &schema);
            assert!(stats.pages("d", 0).unwrap().is_none(), "{len} bytes");
            let plan = stats.prune(&pred).unwrap();
            assert_eq!(plan.row_group_verdicts(), [MayMatch, NoMatch]);
            assert_eq!(plan.row_counts(&paged).selected, 2);
        }
    }

    /// Column orders: one for a type it does not fit (IEEE 754 total order
    /// on an Int64) makes the bounds unknown; too few orders (metadata
    /// built by hand) read as undefined, not a panic.
    #[test]
    fn column_orders_that_do_not_fit() {
        let (_file, metadata, schema) = x();
        let with_orders = |orders: Vec<ColumnOrder>| {
            let f = metadata.file_metadata();
            let file = FileMetaData::new(
                f.version(),
                f.num_rows(),
                f.created_by().map(Into::into),
                f.key_value_metadata().cloned(),
                f.schema_descr_ptr(),
                Some(orders),
            );
            ParquetMetaDataBuilder::new(file)
                .set_row_groups(metadata.row_groups().to_vec())
                .build()
        };
        let verdicts = |m: &ParquetMetaData| {
            let plan = ParquetStats::new(m, &schema).prune(&less_than("x", 2));
            plan.unwrap().row_group_verdicts().to_vec()
        };
        assert_eq!(verdicts(&metadata), [AllMatch, NoMatch]);
        assert_eq!(
            verdicts(&with_orders(vec![ColumnOrder::IEEE_754_TOTAL_ORDER])),
            [MayMatch, MayMatch]
        );
        assert_eq!(
            verdicts(&with_orders(vec![ColumnOrder::INT96_TIMESTAMP_ORDER])),
            [MayMatch, MayMatch]
        );
        // No order for the column: undefined, which Int64 statistics keep.
        assert_eq!(verdicts(&with_orders(vec![])), [AllMatch, NoMatch]);
    }
}
