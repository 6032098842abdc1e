//! Parquet: a file's row-group and page statistics as [`StatsBatch`]es, and
//! from a predicate's verdicts the row groups, pages and rows to read
//! (feature `parquet`).
//!
//! - [`ParquetStats::row_groups`]: one container per row group, from the
//!   column chunks' statistics, through arrow-rs's `StatisticsConverter`.
//! - [`ParquetStats::pages`]: one container per data page of one column in
//!   one row group, from the page index (column index + offset index).
//! - [`ParquetStats::prune`]: a [`PrunePlan`]: the row groups to read
//!   (`with_row_groups`), a `RowSelection` of the pages to read
//!   (`with_row_selection`), and which of the rows read need no row filter
//!   ([`PrunePlan::filter`]).
//!
//! Pages differ per column (each column chunk cuts its pages where it likes),
//! so a page verdict is a verdict on a range of rows of one column. The plan
//! evaluates each leaf on its own column's pages, turns the page verdicts
//! into runs of rows, and combines the runs through the tree at every row
//! where any of them changes: And takes the lowest verdict (NoMatch <
//! MayMatch < AllMatch), Or the highest. That is sound because a row lies in
//! exactly one page of each column and each page verdict holds for all of
//! its rows.
//!
//! What the statistics are trusted for (everything else is unknown, so
//! MayMatch, never an error):
//! - min / max only in the order the Predicate compares (Paimon's): the
//!   file's column order must be type-defined (or IEEE 754 total order for
//!   floats); a legacy (undefined) order, where strings, binaries, decimals
//!   in bytes and unsigned integers were compared as signed, and
//!   statistics in the deprecated `min` / `max` fields for those types are
//!   dropped;
//! - float min / max are `nan_excluded`, a NaN bound is dropped (a
//!   total-order bound of NaN would sort a negative NaN below -inf), a zero
//!   min is read as `-0.0` and a zero max as `+0.0` (legacy writers did not
//!   order the zeros; Java's order does);
//! - row-group min / max are [`truncated`](ColumnStats::truncated) unless
//!   every known one is flagged exact (`is_min_value_exact` /
//!   `is_max_value_exact`); page min / max of byte arrays (strings, binaries,
//!   decimals in bytes) are always truncated (the column index has no
//!   exactness flags, and truncates byte arrays to 64 bytes by default),
//!   those of fixed-width types (integers, floats, dates, ...) exact;
//! - null counts: a missing count is unknown (not 0), except on a required
//!   column, where it is 0;
//! - a column order is trusted only for the types it is defined for (IEEE
//!   754 total order for floats, the INT96 order for INT96);
//! - decimal bounds stored as bytes must have 1 to the decimal type's width
//!   of bytes (arrow-rs's converter would panic on others): where one has
//!   not, the field's statistics in that row group list or page index are
//!   unknown.
//!
//! Metadata that contradicts itself is an error naming the row group (and
//! column): a negative row count, row counts whose sum overflows a
//! `usize`, an offset index whose pages do not cover their row group's
//! rows, a negative size ([`PrunePlan::io`]). A schema whose fields are not
//! the file's columns in order is an error too: arrow-rs maps each field to
//! the column at its position.

use super::Predicate;
use super::{ColumnStats, StatsBatch, StatsVerdict};
use ::parquet::arrow::arrow_reader::statistics::StatisticsConverter;
use ::parquet::arrow::arrow_reader::{RowSelection, RowSelector};
use ::parquet::basic::{ColumnOrder, LogicalType, SortOrder, Type as PhysicalType};
use ::parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use ::parquet::file::page_index::column_index::ColumnIndexMetaData;
use ::parquet::file::page_index::offset_index::PageLocation;
use arrow_array::{Array, ArrayRef, BooleanArray, RecordBatch, UInt64Array};
use arrow_schema::{ArrowError, DataType, Schema};
use std::collections::HashMap;
use std::format;
use std::ops::Range;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// A Parquet file's statistics: its metadata (with the page index, for
/// pages) and the Arrow schema it is read with.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Int64Array, RecordBatch};
/// use arrow_schema::{DataType, Field, Schema};
/// use bitbytes::arrow::{ParquetStats, PredicateBuilder, StatsVerdict::*};
/// use parquet::arrow::ArrowWriter;
/// use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
/// use parquet::file::metadata::PageIndexPolicy;
/// use parquet::file::properties::WriterProperties;
///
/// // Three row groups of 1000 rows: x in 0..1000, 1000..2000, 2000..3000.
/// let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)]));
/// let path = std::env::temp_dir().join(format!("bitbytes-doc-{}.parquet", std::process::id()));
/// let props = WriterProperties::builder().set_max_row_group_row_count(Some(1000)).build();
/// let mut writer = ArrowWriter::try_new(std::fs::File::create(&path)?, schema.clone(), Some(props))?;
/// let x = Int64Array::from_iter_values(0..3000);
/// writer.write(&RecordBatch::try_new(schema.clone(), vec![Arc::new(x)])?)?;
/// writer.close()?;
///
/// let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
/// let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(std::fs::File::open(&path)?, options)?;
/// let pred = PredicateBuilder::new(schema.clone()).less_than("x", &Int64Array::new_scalar(1500))?;
/// let plan = ParquetStats::new(builder.metadata(), builder.schema()).prune(&pred)?;
/// assert_eq!(plan.row_group_verdicts(), [AllMatch, MayMatch, NoMatch]);
/// assert_eq!(plan.row_groups(), [0, 1]);
/// let selection = plan.row_selection();
/// let reader = builder.with_row_groups(plan.row_groups().to_vec()).with_row_selection(selection).build()?;
/// let mut filter = plan.filter(&pred);
/// let mut rows = 0;
/// for batch in reader {
///     for piece in filter.filter(&batch?)? {
///         rows += piece.num_rows();
///     }
/// }
/// assert_eq!(rows, 1500);
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ParquetStats<'a> {
    metadata: &'a ParquetMetaData,
    schema: &'a Schema,
}

/// The page statistics of one column in one row group: one container per
/// data page, and each page's rows within the row group.
#[derive(Debug, Clone)]
pub struct PageStats {
    stats: StatsBatch,
    rows: Vec<Range<usize>>,
}

impl PageStats {
    /// One container per page, with the column's stats under its field name.
    pub fn stats(&self) -> &StatsBatch {
        &self.stats
    }

    /// The rows of each page, within the row group, ascending and adjacent.
    pub fn rows(&self) -> &[Range<usize>] {
        &self.rows
    }
}

/// A run of consecutive rows with one verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowRun {
    /// The number of rows.
    pub len: usize,
    /// Their verdict.
    pub verdict: StatsVerdict,
}

/// What to read of a Parquet file for a predicate, from [`ParquetStats::prune`].
#[derive(Debug, Clone)]
pub struct PrunePlan {
    row_group_verdicts: Vec<StatsVerdict>,
    row_groups: Vec<usize>,
    /// Runs over the rows of `row_groups`, concatenated in their order.
    runs: Vec<RowRun>,
}

impl<'a> ParquetStats<'a> {
    /// The statistics of the file of `metadata`, read with `schema` (the
    /// reader builder's `schema()`). Load the page index
    /// (`ArrowReaderOptions::with_page_index_policy`) for page statistics.
    pub fn new(metadata: &'a ParquetMetaData, schema: &'a Schema) -> Self {
        ParquetStats { metadata, schema }
    }

    /// One container per row group of the file, with the statistics of the
    /// top-level fields named in `fields` that the file has; a field not in
    /// the schema or the file is left out (a predicate's leaves over it are
    /// MayMatch).
    ///
    /// # Errors
    ///
    /// [`ArrowError::ParquetError`] when the metadata's statistics cannot be
    /// read as the field's Arrow type, or a row group's row count is
    /// negative (or the file's does not fit a `usize`);
    /// [`ArrowError::InvalidArgumentError`] when a field of `schema` is not
    /// the file's column at that position (a schema other than the file's).
    pub fn row_groups(&self, fields: &[&str]) -> Result<StatsBatch, ArrowError> {
        let groups = self.metadata.row_groups();
        let rows = file_rows(self.metadata)?;
        let rows = UInt64Array::from_iter_values(rows.iter().map(|&r| r as u64));
        let mut batch = StatsBatch::new(rows);
        for &name in fields {
            let Some(column) = self.column(name)? else {
                continue;
            };
            if !column.decimal_bytes_fit(groups.iter().filter_map(|g| {
                let stats = g.column(column.index).statistics()?;
                Some([stats.min_bytes_opt(), stats.max_bytes_opt()])
            })) {
                // Bounds arrow-rs cannot read as the field's decimal type
                // (it would panic): the field's stats unknown.
                continue;
            }
            let c = &column.converter;
            let mut min = c.row_group_mins(groups)?;
            let mut max = c.row_group_maxes(groups)?;
            // Statistics in the deprecated `min` / `max` fields, for types
            // old writers compared as signed where the order is unsigned.
            if !column.legacy_ok {
                let deprecated = BooleanArray::from_iter(groups.iter().map(|g| {
                    let stats = g.column(column.index).statistics();
                    Some(stats.is_some_and(|s| s.is_min_max_deprecated()))
                }));
                min = arrow_select::nullif::nullif(&min, &deprecated)?;
                max = arrow_select::nullif::nullif(&max, &deprecated)?;
            }
            let exact = |flags: BooleanArray, bound: &ArrayRef| {
                (0..bound.len()).all(|i| bound.is_null(i) || (flags.is_valid(i) && flags.value(i)))
            };
            let truncated = !(exact(c.row_group_is_min_value_exact(groups)?, &min)
                && exact(c.row_group_is_max_value_exact(groups)?, &max));
            let stats = column.finish(
                min,
                max,
                c.row_group_null_counts(groups)?,
                c.row_group_nan_counts(groups)?,
                truncated,
            )?;
            batch = batch.with_column(name, stats)?;
        }
        Ok(batch)
    }

    /// The pages of top-level field `field` in row group `row_group`, from
    /// the page index: `None` when the field is not in the file, or the
    /// page index (column index and offset index) of its column chunk was
    /// not loaded or written.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] when `row_group` is out of range,
    /// or as [`row_groups`](ParquetStats::row_groups);
    /// [`ArrowError::ParquetError`] when the page index cannot be read as
    /// the field's Arrow type, its pages do not cover the row group's rows,
    /// or the row group's row count is negative.
    pub fn pages(&self, field: &str, row_group: usize) -> Result<Option<PageStats>, ArrowError> {
        let groups = self.metadata.row_groups();
        if row_group >= groups.len() {
            return Err(ArrowError::InvalidArgumentError(format!(
                "row group {row_group} of a file of {} row groups",
                groups.len()
            )));
        }
        let Some(column) = self.column(field)? else {
            return Ok(None);
        };
        let Some(index) = self.metadata.page_index() else {
            return Ok(None);
        };
        let (Some(offsets), Some(bounds)) = (
            index.offset_index(row_group, column.index),
            index.column_index(row_group, column.index),
        ) else {
            return Ok(None);
        };
        let rows = page_rows(
            offsets.page_locations(),
            group_rows(row_group, &groups[row_group])?,
        )?;
        let byte_bounds = match bounds {
            ColumnIndexMetaData::BYTE_ARRAY(b) => Some(b),
            ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(b) => Some(b),
            _ => None,
        };
        if let Some(b) = byte_bounds {
            if !column.decimal_bytes_fit(
                b.min_values_iter()
                    .zip(b.max_values_iter())
                    .map(|(a, b)| [a, b]),
            ) {
                // As in `row_groups`: bounds arrow-rs cannot read.
                return Ok(None);
            }
        }
        let c = &column.converter;
        let at = [row_group];
        let (min, max) = (
            c.data_page_mins(index.as_ref(), &at)?,
            c.data_page_maxes(index.as_ref(), &at)?,
        );
        let (nulls, nans) = (
            c.data_page_null_counts(index.as_ref(), &at)?,
            c.data_page_nan_counts(index.as_ref(), &at)?,
        );
        if [min.len(), max.len(), nulls.len(), nans.len()]
            .iter()
            .any(|&n| n != rows.len())
        {
            // A column index that disagrees with the offset index: unknown.
            return Ok(None);
        }
        let counts = UInt64Array::from_iter_values(rows.iter().map(|r| r.len() as u64));
        // The column index has no exactness flags: byte arrays may be
        // truncated there, fixed-width values have nothing to truncate.
        let stats = column.finish(min, max, nulls, nans, column.bytes)?;
        let stats = StatsBatch::new(counts).with_column(field, stats)?;
        Ok(Some(PageStats { stats, rows }))
    }

    /// What to read for `predicate`: the verdict of every row group, and in
    /// the row groups to read, the verdict of every run of rows from the
    /// page index (where loaded), each leaf on its own column's pages.
    ///
    /// # Errors
    ///
    /// As [`Predicate::test_stats`] (a leaf's literals of another type than
    /// its field's, an empty And / Or), and as
    /// [`row_groups`](ParquetStats::row_groups) and [`pages`](ParquetStats::pages).
    pub fn prune(&self, predicate: &Predicate) -> Result<PrunePlan, ArrowError> {
        let mut fields = predicate.fields();
        fields.sort_unstable();
        fields.dedup();
        let groups = self.row_groups(&fields)?;
        let row_group_verdicts = predicate.test_stats(&groups)?;
        let mut leaves = Vec::new();
        collect_leaves(predicate, &mut leaves);
        // Each leaf's verdict per row group (a leaf decided there needs no page).
        let leaf_groups = leaves
            .iter()
            .map(|leaf| leaf.test_stats(&groups))
            .collect::<Result<Vec<_>, _>>()?;
        let mut row_groups = Vec::new();
        let mut runs = Vec::new();
        let group_rows = file_rows(self.metadata)?;
        for (g, &verdict) in row_group_verdicts.iter().enumerate() {
            let rows = group_rows[g];
            if verdict == StatsVerdict::NoMatch {
                continue;
            }
            row_groups.push(g);
            if verdict == StatsVerdict::AllMatch || rows == 0 {
                push_run(&mut runs, rows, verdict);
                continue;
            }
            let mut leaf_runs = Vec::with_capacity(leaves.len());
            // Each column's pages read once for all the leaves over it.
            let mut pages = HashMap::new();
            for (leaf, verdicts) in leaves.iter().zip(&leaf_groups) {
                leaf_runs.push(self.leaf_runs(leaf, g, verdicts[g], rows, &mut pages)?);
            }
            let mut next = leaf_runs.into_iter();
            let combined = combine(predicate, &mut next);
            // Every leaf's runs cover the row group (`page_rows` checks the
            // pages do), so the combined runs do: checked all the same, as
            // runs that fell short would shift every later row group's.
            let covered: usize = combined.iter().map(|r| r.len).sum();
            if covered != rows {
                return Err(ArrowError::ParquetError(format!(
                    "row group {g}: the page verdicts cover {covered} of its {rows} rows"
                )));
            }
            for run in combined {
                // The row group's own verdict is MayMatch here; the pages
                // refine it.
                push_run(&mut runs, run.len, run.verdict);
            }
        }
        Ok(PrunePlan {
            row_group_verdicts,
            row_groups,
            runs,
        })
    }

    /// One leaf's runs over the rows of row group `g`: its row-group verdict
    /// when that decides, else its verdicts on its column's pages.
    fn leaf_runs(
        &self,
        leaf: &Predicate,
        g: usize,
        verdict: StatsVerdict,
        rows: usize,
        pages: &mut HashMap<String, Option<PageStats>>,
    ) -> Result<Vec<RowRun>, ArrowError> {
        let whole = vec![RowRun { len: rows, verdict }];
        let field = match leaf {
            Predicate::Leaf(l) => l.field(),
            _ => None,
        };
        let (StatsVerdict::MayMatch, Some(field)) = (verdict, field) else {
            return Ok(whole);
        };
        if !pages.contains_key(field) {
            pages.insert(field.into(), self.pages(field, g)?);
        }
        let Some(Some(pages)) = pages.get(field) else {
            return Ok(whole);
        };
        let mut runs = Vec::new();
        for (v, r) in leaf.test_stats(&pages.stats)?.into_iter().zip(&pages.rows) {
            push_run(&mut runs, r.len(), v);
        }
        Ok(runs)
    }

    /// The converter and trust rules of top-level field `name`, when the
    /// schema and the file have it.
    fn column(&self, name: &str) -> Result<Option<Column<'a>>, ArrowError> {
        if self.schema.column_with_name(name).is_none() {
            return Ok(None);
        }
        let parquet_schema = self.metadata.file_metadata().schema_descr();
        let converter = StatisticsConverter::try_new(name, self.schema, parquet_schema)?
            .with_missing_null_counts_as_zero(false)
            .with_column_orders(
                self.metadata
                    .file_metadata()
                    .column_orders()
                    .map(|o| o.as_slice()),
            );
        let Some(index) = converter.parquet_column_index() else {
            return Ok(None);
        };
        let descr = parquet_schema.column(index);
        // arrow-rs maps a field to a column by its position among the
        // schema's fields, not by name.
        if descr.path().parts() != [name] {
            return Err(ArrowError::InvalidArgumentError(format!(
                "field `{name}` is at the position of the file's column `{}`: pass the \
                 schema the file is read with (the reader builder's `schema()`)",
                descr.path().string()
            )));
        }
        let physical = descr.physical_type();
        let defined = ColumnOrder::column_order_for_type(
            descr.logical_type_ref(),
            descr.converted_type(),
            physical,
        )
        .sort_order();
        // Types whose legacy (signed) order agrees with their defined one.
        let legacy_ok = match physical {
            PhysicalType::BOOLEAN | PhysicalType::FLOAT | PhysicalType::DOUBLE => true,
            PhysicalType::INT32 | PhysicalType::INT64 => defined == SortOrder::SIGNED,
            _ => false,
        };
        // A file's column orders come one per column (arrow-rs checks this
        // when it reads a footer; metadata built by hand may not have them).
        let order = self
            .metadata
            .file_metadata()
            .column_orders()
            .and_then(|orders| orders.get(index).copied())
            .unwrap_or(ColumnOrder::UNDEFINED);
        let floats = matches!(physical, PhysicalType::FLOAT | PhysicalType::DOUBLE)
            || matches!(descr.logical_type_ref(), Some(LogicalType::Float16));
        let trusted = match order {
            ColumnOrder::TYPE_DEFINED_ORDER(order) => order != SortOrder::UNDEFINED,
            // Orders that mean something only for their types.
            ColumnOrder::IEEE_754_TOTAL_ORDER => floats,
            ColumnOrder::INT96_TIMESTAMP_ORDER => physical == PhysicalType::INT96,
            ColumnOrder::UNDEFINED => legacy_ok,
            ColumnOrder::UNKNOWN => false,
        };
        let bytes = matches!(
            physical,
            PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY
        );
        let value_type = match self.schema.field_with_name(name)?.data_type() {
            DataType::Dictionary(_, value) => value.as_ref().clone(),
            other => other.clone(),
        };
        let decimal_width = match value_type {
            DataType::Decimal32(..) => Some(4),
            DataType::Decimal64(..) => Some(8),
            DataType::Decimal128(..) => Some(16),
            DataType::Decimal256(..) => Some(32),
            _ => None,
        }
        .filter(|_| bytes);
        Ok(Some(Column {
            converter,
            index,
            required: descr.max_def_level() == 0,
            trusted,
            legacy_ok,
            bytes,
            decimal_width,
        }))
    }
}

/// A top-level field's converter and what its statistics are trusted for.
struct Column<'a> {
    converter: StatisticsConverter<'a>,
    /// Its leaf column in the Parquet schema.
    index: usize,
    /// A required column: no row is null.
    required: bool,
    /// Min / max are in the order the predicate compares.
    trusted: bool,
    /// Deprecated `min` / `max` fields are in that order too.
    legacy_ok: bool,
    /// A byte array (variable or fixed length): bounds may be truncated.
    bytes: bool,
    /// A decimal field stored as bytes: the most bytes a bound may have
    /// (4, 8, 16 or 32, the decimal type's width).
    decimal_width: Option<usize>,
}

impl Column<'_> {
    /// Whether arrow-rs can read these min / max bytes as the field's
    /// type: a decimal's must have 1 to its width's bytes (arrow-rs's
    /// `StatisticsConverter` asserts so, a panic on a corrupt file);
    /// anything else is read (or dropped) by arrow-rs itself.
    fn decimal_bytes_fit<'b>(
        &self,
        mut bounds: impl Iterator<Item = [Option<&'b [u8]>; 2]>,
    ) -> bool {
        let Some(width) = self.decimal_width else {
            return true;
        };
        bounds.all(|pair| {
            pair.iter()
                .flatten()
                .all(|b| (1..=width).contains(&b.len()))
        })
    }

    /// The stats of one field, from the converter's arrays, sanitised.
    fn finish(
        &self,
        min: ArrayRef,
        max: ArrayRef,
        null_counts: UInt64Array,
        nan_counts: UInt64Array,
        truncated: bool,
    ) -> Result<ColumnStats, ArrowError> {
        // Float bounds are made sound (NaN unknown, zeros widened) by
        // `nan_excluded` below, as for any NaN-excluded stats.
        let (min, max) = if self.trusted {
            (min, max)
        } else {
            let n = min.len();
            let t = min.data_type().clone();
            (
                arrow_array::new_null_array(&t, n),
                arrow_array::new_null_array(&t, n),
            )
        };
        let null_counts = if self.required {
            UInt64Array::from(vec![0; null_counts.len()])
        } else {
            null_counts
        };
        let stats = ColumnStats::new(min, max)
            .with_null_counts(null_counts)
            .with_nan_counts(nan_counts)
            .nan_excluded();
        Ok(if truncated { stats.truncated() } else { stats })
    }
}

/// The row count of row group `g`, `group`.
fn group_rows(g: usize, group: &RowGroupMetaData) -> Result<usize, ArrowError> {
    // At most `i64::MAX`, so that `page_rows` compares it as an `i64`.
    usize::try_from(group.num_rows()).map_err(|_| {
        ArrowError::ParquetError(format!(
            "row group {g} has {} rows by its metadata",
            group.num_rows()
        ))
    })
}

/// The row count of every row group of the file of `metadata`; their sum
/// fits a `usize` (so no count of rows of the file overflows).
fn file_rows(metadata: &ParquetMetaData) -> Result<Vec<usize>, ArrowError> {
    let rows = metadata
        .row_groups()
        .iter()
        .enumerate()
        .map(|(g, group)| group_rows(g, group))
        .collect::<Result<Vec<_>, _>>()?;
    if rows
        .iter()
        .try_fold(0usize, |a, &r| a.checked_add(r))
        .is_none()
    {
        return Err(ArrowError::ParquetError(
            "the row groups' row counts add up to more than a usize".into(),
        ));
    }
    Ok(rows)
}

/// Each page's rows within its row group of `rows` rows, from the offset
/// index.
fn page_rows(pages: &[PageLocation], rows: usize) -> Result<Vec<Range<usize>>, ArrowError> {
    if pages.is_empty() && rows > 0 {
        return Err(ArrowError::ParquetError(format!(
            "offset index: no page for a row group of {rows} rows"
        )));
    }
    let mut out = Vec::with_capacity(pages.len());
    for (i, page) in pages.iter().enumerate() {
        let start = page.first_row_index;
        let end = pages.get(i + 1).map_or(rows as i64, |p| p.first_row_index);
        if start < 0 || end < start || end > rows as i64 || (i == 0 && start != 0) {
            return Err(ArrowError::ParquetError(format!(
                "offset index: page {i} starts at row {start}, the next at {end}, of a row \
                 group of {rows} rows"
            )));
        }
        out.push(start as usize..end as usize);
    }
    Ok(out)
}

/// The leaves of `predicate`, each as a one-leaf predicate, depth first.
fn collect_leaves(predicate: &Predicate, out: &mut Vec<Predicate>) {
    match predicate {
        Predicate::Leaf(_) => out.push(predicate.clone()),
        Predicate::And(children) | Predicate::Or(children) => {
            children.iter().for_each(|c| collect_leaves(c, out))
        }
    }
}

/// Appends `len` rows of `verdict`, merging with the last run.
fn push_run(runs: &mut Vec<RowRun>, len: usize, verdict: StatsVerdict) {
    if len == 0 {
        return;
    }
    match runs.last_mut() {
        Some(last) if last.verdict == verdict => last.len += len,
        _ => runs.push(RowRun { len, verdict }),
    }
}

/// The tree's runs from its leaves' runs (taken depth first from `leaves`):
/// And the lowest verdict at every row, Or the highest.
fn combine(predicate: &Predicate, leaves: &mut impl Iterator<Item = Vec<RowRun>>) -> Vec<RowRun> {
    match predicate {
        Predicate::Leaf(_) => leaves.next().unwrap_or_default(),
        Predicate::And(children) | Predicate::Or(children) => {
            let and = matches!(predicate, Predicate::And(_));
            let mut acc: Option<Vec<RowRun>> = None;
            for child in children {
                let runs = combine(child, leaves);
                acc = Some(match acc {
                    None => runs,
                    Some(a) => merge(&a, &runs, |x, y| if and { x.min(y) } else { x.max(y) }),
                });
            }
            acc.unwrap_or_default()
        }
    }
}

/// Two run lists over the same rows, combined row by row with `f`.
fn merge(
    a: &[RowRun],
    b: &[RowRun],
    f: impl Fn(StatsVerdict, StatsVerdict) -> StatsVerdict,
) -> Vec<RowRun> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let (mut left_a, mut left_b) = (
        a.first().map_or(0, |r| r.len),
        b.first().map_or(0, |r| r.len),
    );
    while i < a.len() && j < b.len() {
        let len = left_a.min(left_b);
        push_run(&mut out, len, f(a[i].verdict, b[j].verdict));
        left_a -= len;
        left_b -= len;
        if left_a == 0 {
            i += 1;
            left_a = a.get(i).map_or(0, |r| r.len);
        }
        if left_b == 0 {
            j += 1;
            left_b = b.get(j).map_or(0, |r| r.len);
        }
    }
    out
}

impl PrunePlan {
    /// The verdict of every row group of the file, from its column chunks'
    /// statistics.
    pub fn row_group_verdicts(&self) -> &[StatsVerdict] {
        &self.row_group_verdicts
    }

    /// The row groups to read (not NoMatch), ascending: pass them to the
    /// reader's `with_row_groups`.
    pub fn row_groups(&self) -> &[usize] {
        &self.row_groups
    }

    /// The verdicts of the rows of [`row_groups`](PrunePlan::row_groups),
    /// concatenated in that order, as runs: NoMatch runs are pages no row
    /// of which can match, AllMatch runs rows that all match.
    pub fn runs(&self) -> &[RowRun] {
        &self.runs
    }

    /// The rows of [`row_groups`](PrunePlan::row_groups) to read: every run
    /// but the NoMatch ones. Pass it to the reader's `with_row_selection`
    /// (with the page index loaded, it skips the pages it does not select).
    pub fn row_selection(&self) -> RowSelection {
        let mut selectors: Vec<RowSelector> = Vec::new();
        for run in &self.runs {
            let skip = run.verdict == StatsVerdict::NoMatch;
            match selectors.last_mut() {
                Some(last) if last.skip == skip => last.row_count += run.len,
                _ => selectors.push(if skip {
                    RowSelector::skip(run.len)
                } else {
                    RowSelector::select(run.len)
                }),
            }
        }
        RowSelection::from(selectors)
    }

    /// The number of rows in the file's row groups, in the row groups to
    /// read, selected by [`row_selection`](PrunePlan::row_selection), and of
    /// those AllMatch (no row filter needed).
    pub fn row_counts(&self, metadata: &ParquetMetaData) -> PruneCounts {
        let (mut selected, mut all_match) = (0, 0);
        for run in &self.runs {
            if run.verdict != StatsVerdict::NoMatch {
                selected += run.len;
            }
            if run.verdict == StatsVerdict::AllMatch {
                all_match += run.len;
            }
        }
        // A negative count (`prune` refuses those) counts as 0.
        let rows = |g: &RowGroupMetaData| usize::try_from(g.num_rows()).unwrap_or(0);
        PruneCounts {
            total: metadata
                .row_groups()
                .iter()
                .fold(0usize, |n, g| n.saturating_add(rows(g))),
            in_row_groups: self.runs.iter().map(|r| r.len).sum(),
            selected,
            all_match,
        }
    }

    /// The pages and compressed bytes of the column chunks of `columns`
    /// (leaf column indices of the Parquet schema) in the whole file, and
    /// those the plan reads: the row groups it keeps, and there, where the
    /// offset index is loaded, only the data pages holding selected rows
    /// (plus the dictionary page). Pages are counted where the offset
    /// index is loaded.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] when a column index is out of
    /// range, or `metadata` is not of the file the plan was made for (another
    /// number of row groups or rows); [`ArrowError::ParquetError`] on an
    /// offset index whose pages do not cover their row group, or a negative
    /// size or offset.
    pub fn io(&self, metadata: &ParquetMetaData, columns: &[usize]) -> Result<PruneIo, ArrowError> {
        let n = metadata.file_metadata().schema_descr().num_columns();
        if let Some(c) = columns.iter().find(|&&c| c >= n) {
            return Err(ArrowError::InvalidArgumentError(format!(
                "column {c} of a file of {n} leaf columns"
            )));
        }
        let group_rows = file_rows(metadata)?;
        let planned: usize = self.runs.iter().map(|r| r.len).sum();
        let kept = self
            .row_groups
            .iter()
            .try_fold(0usize, |n, &g| group_rows.get(g).map(|&r| n + r));
        if group_rows.len() != self.row_group_verdicts.len() || kept != Some(planned) {
            return Err(ArrowError::InvalidArgumentError(format!(
                "io: the plan was made for a file of {} row groups ({planned} rows kept), this \
                 metadata has {} row groups",
                self.row_group_verdicts.len(),
                group_rows.len()
            )));
        }
        let size = |what: &str, g: usize, c: usize, v: i64| {
            u64::try_from(v).map_err(|_| {
                ArrowError::ParquetError(format!("row group {g}, column {c}: {what} {v}"))
            })
        };
        let mut io = PruneIo::default();
        let offsets = |g: usize, c: usize| {
            metadata
                .page_index()
                .and_then(|i| i.offset_index(g, c))
                .map(|o| o.page_locations())
        };
        for (g, group) in metadata.row_groups().iter().enumerate() {
            for &c in columns {
                let bytes = size("compressed size", g, c, group.column(c).compressed_size())?;
                io.total_bytes = io.total_bytes.saturating_add(bytes);
                io.total_pages += offsets(g, c).map_or(0, |p| p.len());
            }
        }
        let mut runs = self.runs.iter().copied();
        let mut run = runs.next();
        let mut run_left = run.map_or(0, |r| r.len);
        for &g in &self.row_groups {
            let group = metadata.row_group(g);
            let rows = group_rows[g];
            // The selected rows of this row group, as ranges within it.
            let mut selected = Vec::new();
            let mut at = 0usize;
            while let (true, Some(r)) = (at < rows, run) {
                let len = run_left.min(rows - at);
                if r.verdict != StatsVerdict::NoMatch {
                    selected.push(at..at + len);
                }
                at += len;
                run_left -= len;
                if run_left == 0 {
                    run = runs.next();
                    run_left = run.map_or(0, |r| r.len);
                }
            }
            for &c in columns {
                let chunk = group.column(c);
                let Some(pages) = offsets(g, c) else {
                    let bytes = size("compressed size", g, c, chunk.compressed_size())?;
                    io.read_bytes = io.read_bytes.saturating_add(bytes);
                    continue;
                };
                let first_data = pages.first().map_or(chunk.data_page_offset(), |p| p.offset);
                let start = chunk
                    .dictionary_page_offset()
                    .unwrap_or(chunk.data_page_offset());
                // The dictionary page: the bytes before the first data page.
                let head = u64::try_from(first_data.saturating_sub(start)).unwrap_or(0);
                io.read_bytes = io.read_bytes.saturating_add(head);
                // Both ascending: one pass over the pages and the selection.
                let mut s = 0;
                for (page, r) in pages.iter().zip(page_rows(pages, rows)?) {
                    while selected.get(s).is_some_and(|sel| sel.end <= r.start) {
                        s += 1;
                    }
                    if selected.get(s).is_some_and(|sel| sel.start < r.end) {
                        let bytes = size("page size", g, c, page.compressed_page_size.into())?;
                        io.read_bytes = io.read_bytes.saturating_add(bytes);
                        io.read_pages += 1;
                    }
                }
            }
        }
        Ok(io)
    }

    /// A row filter for the batches a reader returns with this plan's
    /// [`row_groups`](PrunePlan::row_groups) and
    /// [`row_selection`](PrunePlan::row_selection): `predicate` runs only
    /// on the MayMatch rows.
    pub fn filter<'p>(&'p self, predicate: &'p Predicate) -> PrunedFilter<'p> {
        PrunedFilter {
            predicate,
            runs: self
                .runs
                .iter()
                .filter(|r| r.verdict != StatsVerdict::NoMatch)
                .copied()
                .collect(),
            run: 0,
            used: 0,
        }
    }
}

/// Pages and bytes of a [`PrunePlan`], from [`PrunePlan::io`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PruneIo {
    /// Data pages of the columns in the file (where the offset index is loaded).
    pub total_pages: usize,
    /// Of those, the pages read.
    pub read_pages: usize,
    /// Compressed bytes of the columns' chunks in the file.
    pub total_bytes: u64,
    /// Of those, the bytes read.
    pub read_bytes: u64,
}

/// Row counts of a [`PrunePlan`], from [`PrunePlan::row_counts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PruneCounts {
    /// Rows in the file.
    pub total: usize,
    /// Rows in the row groups read.
    pub in_row_groups: usize,
    /// Rows the row selection reads.
    pub selected: usize,
    /// Of those, rows that all match (no row filter).
    pub all_match: usize,
}

/// The row filter of a [`PrunePlan`] (from [`PrunePlan::filter`]): walks the
/// plan's selected rows as the reader's batches arrive, passes AllMatch rows
/// through as zero-copy slices and filters the MayMatch rows.
#[derive(Debug)]
pub struct PrunedFilter<'p> {
    predicate: &'p Predicate,
    /// The selected runs (MayMatch, AllMatch), in reading order.
    runs: Vec<RowRun>,
    run: usize,
    /// Rows of `runs[run]` already seen.
    used: usize,
}

impl PrunedFilter<'_> {
    /// The rows of the next `batch` that the predicate selects, as one or
    /// more batches (empty ones left out).
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] when the batches hold more rows
    /// than the plan selects; the predicate's errors on MayMatch rows.
    pub fn filter(&mut self, batch: &RecordBatch) -> Result<Vec<RecordBatch>, ArrowError> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < batch.num_rows() {
            let Some(run) = self.runs.get(self.run) else {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "pruned filter: the reader returned more rows than the plan selects ({} \
                     left in this batch)",
                    batch.num_rows() - at
                )));
            };
            let len = (run.len - self.used).min(batch.num_rows() - at);
            let piece = batch.slice(at, len);
            let piece = if run.verdict == StatsVerdict::AllMatch {
                piece
            } else {
                self.predicate.filter(&piece)?
            };
            if piece.num_rows() > 0 {
                out.push(piece);
            }
            at += len;
            self.used += len;
            if self.used == run.len {
                self.run += 1;
                self.used = 0;
            }
        }
        Ok(out)
    }

    /// Whether every selected row has been seen.
    pub fn is_done(&self) -> bool {
        self.run == self.runs.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_by_min_and_max() {
        use StatsVerdict::*;
        let run = |len, verdict| RowRun { len, verdict };
        let a = [run(3, NoMatch), run(5, AllMatch)];
        let b = [run(2, AllMatch), run(4, MayMatch), run(2, AllMatch)];
        assert_eq!(
            merge(&a, &b, |x, y| x.min(y)),
            [run(3, NoMatch), run(3, MayMatch), run(2, AllMatch)]
        );
        assert_eq!(
            merge(&a, &b, |x, y| x.max(y)),
            [run(2, AllMatch), run(1, MayMatch), run(5, AllMatch)]
        );
    }

    #[test]
    fn page_rows_reject_gaps() {
        let page = |first_row_index| PageLocation {
            offset: 0,
            compressed_page_size: 1,
            first_row_index,
        };
        assert_eq!(page_rows(&[page(0), page(4)], 10).unwrap(), [0..4, 4..10]);
        assert!(page_rows(&[page(1)], 10).is_err());
        assert!(page_rows(&[page(0), page(12)], 10).is_err());
        assert!(page_rows(&[page(0), page(5), page(3)], 10).is_err());
    }
}
