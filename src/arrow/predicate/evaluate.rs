//! Evaluating a [`Predicate`] on the rows still undecided.
//!
//! The tree is first resolved against the batch's schema ([`resolve`]): every
//! leaf's field becomes a column index and its literals are checked
//! ([`Function::validate`]), every And / Or must have a child. Only then is
//! any row read, so an invalid predicate is an error whatever the data.
//!
//! An And evaluates its first child on every row of its input, then each
//! further child only where the bytes so far are `1` (a row some child
//! rejected needs no more children); an Or, dually, only where they are `0`.
//! For each further child it counts those undecided rows and:
//!
//! - none left: stops (the remaining children cannot change a byte);
//! - few ([`GATHER_MAX_FRACTION`] of the rows or fewer, or
//!   [`GATHER_MAX_FRACTION_BYTES`] when the child reads a string or binary
//!   column; [`Narrowing::Auto`]):
//!   packs the undecided rows into a bitmap, gathers the columns the child
//!   reads with one arrow-select [`FilterPredicate`] shared by those
//!   columns, evaluates the child (recursively, the same way) on the
//!   gathered rows, and scatters its bytes back to the undecided rows (an
//!   assignment: under And they were `1`, under Or `0`);
//! - many: evaluates the child on every row into a scratch buffer and
//!   combines it with a byte-wise AND / OR ([`and_bytes`], [`or_bytes`],
//!   plain loops LLVM vectorises to 32-byte `vpand` / `vpor`).
//!
//! Both give exactly the bytes of evaluating every child on every row: each
//! child's null rows are already `0`, so And / Or are byte-wise.

use super::literals::{check_out, message};
use super::predicate::{bytes_to_bits, check_depth};
use super::transform::cast::{cast_column, check_cast};
use super::transform::eval::{literals_for, Resolved};
use super::{Function, Leaf, PaimonType, Predicate, Transform};
use arrow_array::{Array, ArrayRef, BooleanArray};
use arrow_buffer::BooleanBuffer;
use arrow_schema::{ArrowError, DataType, Schema};
use arrow_select::filter::{FilterBuilder, FilterPredicate};
use std::format;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

/// How an And / Or evaluates its children after the first on the rows still
/// undecided. Every choice gives the same bytes; only the time differs.
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::{Narrowing, GATHER_MAX_FRACTION, GATHER_MAX_FRACTION_BYTES};
///
/// assert_eq!(Narrowing::default(), Narrowing::Auto);
/// assert!(0.0 < GATHER_MAX_FRACTION && GATHER_MAX_FRACTION < GATHER_MAX_FRACTION_BYTES);
/// assert!(GATHER_MAX_FRACTION_BYTES < 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Narrowing {
    /// Gather when at most [`GATHER_MAX_FRACTION`] of the rows are
    /// undecided ([`GATHER_MAX_FRACTION_BYTES`] for a child that reads a
    /// string or binary column), evaluate on every row otherwise.
    #[default]
    Auto,
    /// Always gather the undecided rows (while any is left).
    Gather,
    /// Always evaluate on every row and combine the bytes (while any row is
    /// undecided): the older Paimon `And::Test`, plus an early stop.
    Whole,
}

/// With [`Narrowing::Auto`], an And / Or child that reads only fixed-width
/// columns (integers, floats, decimals, temporals, booleans, dictionaries:
/// a dictionary is gathered by its keys) is evaluated on the gathered
/// undecided rows when they are at most this fraction of its input's rows,
/// and on every row otherwise.
///
/// Measured with `cargo bench --features arrow --bench predicate`, group
/// `crossover` (1 Mi rows, AMD EPYC family 25 model 17 (Zen 4), 2 shared
/// cores, 2026-11-30): `a < k AND x < 500` with both Int64, the cheapest
/// leaf (about 0.5 ns a row on every row, so gathering pays least), gathered
/// against whole: 1.32 / 1.67 ms at 1% undecided, 1.38 / 1.87 ms at 2%,
/// 2.8 / 2.0 ms at 5%, 2.2 / 1.8 ms at 10%, 2.6 / 1.7 ms at 30%. The
/// gather's cost per undecided row (arrow-select's filter, the scatter) is
/// several times the leaf's cost per row, so it wins only below a few
/// percent. (DataFusion pre-selects below 0.2 and arrow-rs's filter moves
/// from indices to slices at 0.8; both trade other costs.)
pub const GATHER_MAX_FRACTION: f64 = 0.03;

/// With [`Narrowing::Auto`], the [`GATHER_MAX_FRACTION`] of a child that
/// reads a string or binary column (Utf8, LargeUtf8, Utf8View, Binary,
/// LargeBinary, BinaryView, not a dictionary of them): such leaves cost
/// several ns a row, so gathering pays up to a larger fraction.
///
/// Measured in the same run as [`GATHER_MAX_FRACTION`]: `a < k AND name
/// LIKE 'A%'` (Utf8 names), gathered against whole: 3.0 / 6.3 ms at 1%, 4.1
/// / 5.8 ms at 10%, 4.7 / 6.3 ms at 15%, 7.4 / 5.2 ms at 20%, 10.9 / 5.1 ms
/// at 50%.
pub const GATHER_MAX_FRACTION_BYTES: f64 = 0.15;

impl Narrowing {
    /// Whether `child` with `undecided` of `rows` rows left is gathered.
    fn gathers(self, child: &Node<'_>, undecided: usize, rows: usize) -> bool {
        if child.columns.is_empty() {
            // Reads no column (a constant): nothing to gather.
            return false;
        }
        match self {
            Narrowing::Auto if child.may_fail => true,
            Narrowing::Auto => {
                let fraction = if child.reads_bytes {
                    GATHER_MAX_FRACTION_BYTES
                } else {
                    GATHER_MAX_FRACTION
                };
                (undecided as f64) <= fraction * rows as f64
            }
            Narrowing::Gather => true,
            Narrowing::Whole if child.may_fail => true,
            Narrowing::Whole => false,
        }
    }
}

/// A predicate checked against a schema: leaves know their column index.
#[derive(Debug)]
pub(crate) struct Node<'p> {
    kind: Kind<'p>,
    /// The column indices the node reads, ascending, each once.
    columns: Vec<usize>,
    /// Whether one of them is a string or binary column (not a dictionary),
    /// or a transform computes strings.
    reads_bytes: bool,
    /// Whether evaluating a row can fail (a SUBSTRING that Java would
    /// throw on): the node then only sees the rows still undecided, the
    /// rows Java's short-circuiting And / Or would give it.
    may_fail: bool,
}

#[derive(Debug)]
enum Kind<'p> {
    Leaf {
        function: Function,
        literals: &'p dyn Array,
        input: LeafInput<'p>,
    },
    /// Every row the same byte (TRUE / FALSE over no column).
    Constant(u8),
    And(Vec<Node<'p>>),
    Or(Vec<Node<'p>>),
}

/// What a leaf's function reads.
#[derive(Debug)]
enum LeafInput<'p> {
    /// The node's one column.
    Column,
    /// A string transform (or NULL) of the node's columns.
    Strings(Resolved<'p>),
    /// The node's one column cast from `from` to `to` as Paimon's
    /// `CastExecutors` cast.
    Cast {
        from: PaimonType,
        to: &'p PaimonType,
    },
    /// The node's one column itself, under these literals: a leaf over a
    /// CAST that widens an integer type, whose literals are all values of
    /// the column's type (see [`narrowed_literals`]).
    Unwrapped(ArrayRef),
}

/// Checks the whole of `predicate` against `schema` (its depth first) and
/// resolves its fields to column indices; reads no row.
pub(crate) fn resolve<'p>(
    predicate: &'p Predicate,
    schema: &Schema,
) -> Result<Node<'p>, ArrowError> {
    check_depth(predicate)?;
    resolve_node(predicate, schema)
}

/// [`resolve`] below the depth check.
fn resolve_node<'p>(predicate: &'p Predicate, schema: &Schema) -> Result<Node<'p>, ArrowError> {
    match predicate {
        Predicate::Leaf(leaf) => resolve_leaf(leaf, schema),
        Predicate::And(children) | Predicate::Or(children) => {
            let and = matches!(predicate, Predicate::And(_));
            if children.is_empty() {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "empty {}: an And / Or needs at least one child",
                    if and { "And" } else { "Or" }
                )));
            }
            // A plain loop: iterator adapters would add a dozen frames a
            // level to the recursion in a debug build.
            let mut nodes = Vec::with_capacity(children.len());
            for child in children {
                nodes.push(resolve_node(child, schema)?);
            }
            let mut columns: Vec<usize> = nodes.iter().flat_map(|n| n.columns.clone()).collect();
            columns.sort_unstable();
            columns.dedup();
            let reads_bytes = nodes.iter().any(|n| n.reads_bytes);
            let may_fail = nodes.iter().any(|n| n.may_fail);
            let kind = if and {
                Kind::And(nodes)
            } else {
                Kind::Or(nodes)
            };
            Ok(Node {
                kind,
                columns,
                reads_bytes,
                may_fail,
            })
        }
    }
}

/// [`resolve_node`] of a leaf, out of line: the recursion's frames stay
/// small (a tree [`Predicate::MAX_DEPTH`] deep).
#[inline(never)]
fn resolve_leaf<'p>(leaf: &'p Leaf, schema: &Schema) -> Result<Node<'p>, ArrowError> {
    // TRUE / FALSE over Paimon's NullTransform: a constant, no column.
    if let (Transform::Null, Some(value)) = (&leaf.transform, leaf.function.constant()) {
        return Ok(Node {
            kind: Kind::Constant(u8::from(value)),
            columns: vec![],
            reads_bytes: false,
            may_fail: false,
        });
    }
    let Transform::Field(field) = &leaf.transform else {
        return resolve_transform(leaf, schema);
    };
    let column = field_index(schema, &field.name)?;
    let data_type = schema.field(column).data_type();
    leaf.function
        .validate(data_type, leaf.literals.as_ref())
        .map_err(|e| in_field(&field.name, data_type, e))?;
    Ok(Node {
        kind: Kind::Leaf {
            function: leaf.function,
            literals: leaf.literals.as_ref(),
            input: LeafInput::Column,
        },
        columns: vec![column],
        reads_bytes: is_bytes(data_type),
        may_fail: false,
    })
}

/// The column of `schema` named `name`, or an error listing the columns.
pub(crate) fn field_index(schema: &Schema, name: &str) -> Result<usize, ArrowError> {
    schema.index_of(name).map_err(|_| {
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        ArrowError::InvalidArgumentError(format!(
            "predicate field `{name}` is not in the batch (its columns: {})",
            names.join(", ")
        ))
    })
}

/// Resolves a leaf over a transform other than a plain field: checks the
/// fields it reads (they exist, with the types it takes) and the function
/// against the transform's output type.
fn resolve_transform<'p>(leaf: &'p Leaf, schema: &Schema) -> Result<Node<'p>, ArrowError> {
    let (input, columns, output_type, may_fail) = match &leaf.transform {
        Transform::Cast { field, to } => {
            let column = field_index(schema, &field.name)?;
            let arrow_field = schema.field(column);
            let data_type = arrow_field.data_type();
            let from = match &field.paimon_type {
                Some(from) if from.matches_arrow(data_type) => from.clone(),
                Some(from) => {
                    return Err(ArrowError::InvalidArgumentError(format!(
                        "{}: field `{}` is {data_type}, which is not the {from} the CAST reads",
                        leaf.transform, field.name
                    )))
                }
                None => PaimonType::from_arrow(data_type, arrow_field.is_nullable())
                    .map_err(|e| in_field(&field.name, data_type, e))?,
            };
            let output_type = check_cast(&from, to)
                .map_err(|e| in_field(&leaf.transform.to_string(), data_type, e))?;
            // A value that cannot be cast fails on its row, as in Java: the
            // node runs only on the rows still undecided.
            (
                LeafInput::Cast { from, to },
                vec![column],
                output_type,
                true,
            )
        }
        transform => {
            let resolved = Resolved::new(transform, schema, &field_index)?;
            let columns = resolved.columns.clone();
            let output_type = resolved.output_type.clone();
            let may_fail = resolved.may_fail;
            (LeafInput::Strings(resolved), columns, output_type, may_fail)
        }
    };
    leaf.function
        .validate(&output_type, leaf.literals.as_ref())
        .map_err(|e| in_field(&leaf.transform.to_string(), &output_type, e))?;
    let (input, may_fail) = match input {
        LeafInput::Cast { from, to } => {
            let column = schema.field(columns[0]).data_type();
            match narrowed_literals(&from, to, column, leaf.function, leaf.literals.as_ref()) {
                // A widening CAST cannot fail.
                Some(literals) => (LeafInput::Unwrapped(literals), false),
                None => (LeafInput::Cast { from, to }, may_fail),
            }
        }
        input => (input, may_fail),
    };
    Ok(Node {
        kind: Kind::Leaf {
            function: leaf.function,
            literals: leaf.literals.as_ref(),
            input,
        },
        reads_bytes: !columns.is_empty(),
        columns,
        may_fail,
    })
}

/// The literals of a leaf over `CAST(x AS to)`, as values of `x`'s own
/// type, when testing `x` itself gives the same bytes; `None` otherwise.
///
/// That holds when the CAST widens one integer type to another (TINYINT,
/// SMALLINT, INT, BIGINT: every value keeps its value, a null stays null),
/// `x` is a plain integer column, the function compares values (`=` to
/// `>=`, IN, NOT IN, BETWEEN, NOT BETWEEN) or tests nulls, and every
/// literal is a value of `x`'s type: `CAST(i AS BIGINT) > 10` is `i > 10`.
/// The leaf then reads `x` with no column built (DataFusion's "unwrap cast
/// in comparison"). The literals are narrowed by Paimon's CAST from `to` to
/// `x`'s type, which wraps a value out of range; widened back, such a value
/// differs from the literal (`CAST(i AS BIGINT) > 3000000000`), and the
/// CAST is kept.
fn narrowed_literals(
    from: &PaimonType,
    to: &PaimonType,
    column: &DataType,
    function: Function,
    literals: &dyn Array,
) -> Option<ArrayRef> {
    use super::PaimonTypeRoot::{BigInt, Int, SmallInt, TinyInt};
    let rank = |root: &super::PaimonTypeRoot| match root {
        TinyInt => Some(0),
        SmallInt => Some(1),
        Int => Some(2),
        BigInt => Some(3),
        _ => None,
    };
    if rank(&from.root)? > rank(&to.root)?
        || !matches!(
            column,
            DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64
        )
        || !(function.compares_values()
            || matches!(function, Function::IsNull | Function::IsNotNull))
    {
        return None;
    }
    let narrowed = cast_column(literals, to, from).ok()?;
    let back = cast_column(narrowed.as_ref(), from, to).ok()?;
    (back.to_data() == literals.to_data()).then_some(narrowed)
}

/// Whether a column of this type holds variable-width bytes (string or
/// binary), also under a run-end encoding.
fn is_bytes(data_type: &DataType) -> bool {
    match data_type {
        DataType::RunEndEncoded(_, values) => is_bytes(values.data_type()),
        t => matches!(
            t,
            DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
        ),
    }
}

/// `err` with the field and its type in front of its message.
pub(crate) fn in_field(
    field: &str,
    data_type: &arrow_schema::DataType,
    err: ArrowError,
) -> ArrowError {
    let message = message(err);
    ArrowError::InvalidArgumentError(format!("field `{field}` ({data_type}): {message}"))
}

/// Evaluates a resolved tree over `columns` (the batch's columns, indexed as
/// its schema) into `out`, which holds one byte per row (`rows` of them).
pub(crate) fn evaluate_into(
    node: &Node<'_>,
    columns: &[ArrayRef],
    rows: usize,
    out: &mut [u8],
    narrowing: Narrowing,
) -> Result<(), ArrowError> {
    let mut view: Vec<Option<ArrayRef>> = vec![None; columns.len()];
    for &c in &node.columns {
        view[c] = Some(columns[c].clone());
    }
    evaluate(node, &view, rows, out, narrowing)
}

/// The column `index` of a view (present for every index the node reads).
fn column(columns: &[Option<ArrayRef>], index: usize) -> Result<&ArrayRef, ArrowError> {
    columns.get(index).and_then(Option::as_ref).ok_or_else(|| {
        ArrowError::InvalidArgumentError(format!("internal: column {index} was not gathered"))
    })
}

/// Evaluates `node` on `rows` rows of the view `columns` into `out[..rows]`.
fn evaluate(
    node: &Node<'_>,
    columns: &[Option<ArrayRef>],
    rows: usize,
    out: &mut [u8],
    narrowing: Narrowing,
) -> Result<(), ArrowError> {
    check_out(rows, out)?;
    let out = &mut out[..rows];
    match &node.kind {
        Kind::Leaf {
            function,
            literals,
            input,
        } => evaluate_leaf(node, *function, *literals, input, columns, rows, out),
        Kind::Constant(byte) => {
            out.fill(*byte);
            Ok(())
        }
        Kind::And(children) => group(children, true, columns, rows, out, narrowing),
        Kind::Or(children) => group(children, false, columns, rows, out, narrowing),
    }
}

/// [`evaluate`] of a leaf, out of line: the recursion's frames stay small
/// (a tree [`Predicate::MAX_DEPTH`] deep).
#[inline(never)]
fn evaluate_leaf(
    node: &Node<'_>,
    function: Function,
    literals: &dyn Array,
    input: &LeafInput<'_>,
    columns: &[Option<ArrayRef>],
    rows: usize,
    out: &mut [u8],
) -> Result<(), ArrowError> {
    let arrays = node
        .columns
        .iter()
        .map(|&c| column(columns, c).cloned())
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(array) = arrays.iter().find(|a| a.len() != rows) {
        return Err(ArrowError::InvalidArgumentError(format!(
            "internal: column of {} rows in a view of {rows}",
            array.len()
        )));
    }
    match input {
        LeafInput::Column => function.test_into(arrays[0].as_ref(), literals, out),
        LeafInput::Strings(transform) => {
            let blocks = transform.builds_offsets();
            in_blocks(&arrays, blocks, literals.len(), out, |arrays, rows, out| {
                let array = transform.evaluate(arrays, rows)?;
                let adapted = literals_for(literals, array.data_type());
                let literals = adapted.as_deref().unwrap_or(literals);
                function.test_into(array.as_ref(), literals, out)
            })
        }
        LeafInput::Cast { from, to } => {
            let array = cast_column(arrays[0].as_ref(), from, to)?;
            function.test_into(array.as_ref(), literals, out)
        }
        LeafInput::Unwrapped(literals) => {
            function.test_into(arrays[0].as_ref(), literals.as_ref(), out)
        }
    }
}

/// The rows of a block in which [`in_blocks`] evaluates a transform leaf
/// whose kernel builds new offsets.
///
/// Such a leaf (a CONCAT, a CONCAT_WS, a SUBSTRING, a TRIM) builds a new
/// string column and then tests it. Over a whole batch that column is
/// megabytes: written once to fresh memory (a page fault every 4 KiB, the
/// kernel zeroing each page) and read back from RAM. Built a block at a
/// time, it stays in the L2 cache and the allocator hands the same memory
/// back for every block: `CONCAT(a, '-', b) = 'x-y'` on 1 Mi rows took half
/// the time on an AMD EPYC family 25 model 17, Zen 4 (docs/transforms.md).
/// UPPER / LOWER keep their input's offsets and CAST builds fixed-width
/// columns; they run over the whole batch, where no gain was measured.
const TRANSFORM_BLOCK_ROWS: usize = 16 * 1024;

/// Runs `leaf(arrays, rows, out)` on `arrays` and `out` cut into blocks of
/// [`TRANSFORM_BLOCK_ROWS`] rows (more where the function has many
/// literals, whose set each call builds again), or once over everything when
/// `blocks` is false, when that is one block, or when an input is a
/// dictionary (whose values the transform maps once for all rows).
///
/// The bytes are those of one call over everything: each row's answer
/// depends on that row alone. So is an error: when a block fails, the leaf
/// runs again over everything, so that the error names the row of the
/// whole column (the blocks before it may have been written, as the
/// [`test_into`](Predicate::test_into) contract allows for errors raised
/// while evaluating).
fn in_blocks(
    arrays: &[ArrayRef],
    blocks: bool,
    literals: usize,
    out: &mut [u8],
    leaf: impl Fn(&[ArrayRef], usize, &mut [u8]) -> Result<(), ArrowError>,
) -> Result<(), ArrowError> {
    let rows = out.len();
    let block = TRANSFORM_BLOCK_ROWS.max(literals.saturating_mul(64));
    let dictionary = arrays
        .iter()
        .any(|a| matches!(a.data_type(), DataType::Dictionary(..)));
    if !blocks || rows <= block.saturating_add(block / 2) || dictionary {
        return leaf(arrays, rows, out);
    }
    let mut sliced = Vec::with_capacity(arrays.len());
    for start in (0..rows).step_by(block) {
        let len = block.min(rows - start);
        sliced.clear();
        sliced.extend(arrays.iter().map(|a| a.slice(start, len)));
        if leaf(&sliced, len, &mut out[start..start + len]).is_err() {
            return leaf(arrays, rows, out);
        }
    }
    Ok(())
}

/// An And (`and`) or Or of `children` into `out` (`rows` bytes).
fn group(
    children: &[Node<'_>],
    and: bool,
    columns: &[Option<ArrayRef>],
    rows: usize,
    out: &mut [u8],
    narrowing: Narrowing,
) -> Result<(), ArrowError> {
    let Some((first, rest)) = children.split_first() else {
        return Err(ArrowError::InvalidArgumentError(String::from(
            "empty And / Or",
        )));
    };
    evaluate(first, columns, rows, out, narrowing)?;
    let mut scratch: Vec<u8> = Vec::new();
    for child in rest {
        // The undecided rows (`1` bytes under And, `0` bytes under Or) as a
        // bitmap: the crate's SIMD `pack` and a popcount are about 25x
        // faster than counting the bytes (0.016 against 0.40 ms at 1 Mi
        // rows), and the gather needs the bitmap anyway.
        let bits = bytes_to_bits(out, !and)?;
        let undecided = bits.count_set_bits();
        if undecided == 0 {
            break;
        }
        if narrowing.gathers(child, undecided, rows) {
            gathered(
                child,
                bits,
                undecided,
                columns,
                out,
                &mut scratch,
                narrowing,
            )?;
        } else {
            if scratch.len() < rows {
                scratch.resize(rows, 0);
            }
            evaluate(child, columns, rows, &mut scratch, narrowing)?;
            if and {
                and_bytes(out, &scratch[..rows]);
            } else {
                or_bytes(out, &scratch[..rows]);
            }
        }
    }
    Ok(())
}

/// Evaluates `child` on the `undecided` rows set in `bits` only (their
/// columns gathered) and writes its bytes to those rows of `out`. Out of
/// [`group`]'s line: the recursion's frames stay small.
#[inline(never)]
fn gathered(
    child: &Node<'_>,
    bits: BooleanBuffer,
    undecided: usize,
    columns: &[Option<ArrayRef>],
    out: &mut [u8],
    scratch: &mut Vec<u8>,
    narrowing: Narrowing,
) -> Result<(), ArrowError> {
    let mask = BooleanArray::new(bits, None);
    let filter = gather_filter(&mask, child, columns)?;
    let mut view: Vec<Option<ArrayRef>> = vec![None; columns.len()];
    for &c in &child.columns {
        view[c] = Some(filter.filter(column(columns, c)?.as_ref())?);
    }
    if scratch.len() < undecided {
        scratch.resize(undecided, 0);
    }
    evaluate(child, &view, undecided, scratch, narrowing)?;
    for (row, &byte) in mask.values().set_indices().zip(scratch.iter()) {
        out[row] = byte;
    }
    Ok(())
}

/// One arrow-select filter for every column `child` reads, optimised (the
/// selected indices or slices computed once) as `filter_record_batch` does:
/// when it filters more than one column or a column with several buffers.
/// (Its safe constructor counts the mask's bits again: one popcount per 64
/// rows.)
fn gather_filter(
    mask: &BooleanArray,
    child: &Node<'_>,
    columns: &[Option<ArrayRef>],
) -> Result<FilterPredicate, ArrowError> {
    let builder = FilterBuilder::new(mask);
    let optimize = match child.columns.as_slice() {
        [] => false,
        [only] => FilterBuilder::is_optimize_beneficial(column(columns, *only)?.data_type()),
        _ => true,
    };
    Ok(if optimize {
        builder.optimize().build()
    } else {
        builder.build()
    })
}

/// `out[i] &= other[i]`, over the shorter of the two.
pub(crate) fn and_bytes(out: &mut [u8], other: &[u8]) {
    for (o, &b) in out.iter_mut().zip(other) {
        *o &= b;
    }
}

/// `out[i] |= other[i]`, over the shorter of the two.
pub(crate) fn or_bytes(out: &mut [u8], other: &[u8]) {
    for (o, &b) in out.iter_mut().zip(other) {
        *o |= b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_combiners_match_a_row_loop() {
        let mut rng = crate::xorshift::XorShift::new(7);
        for len in [0usize, 1, 31, 32, 33, 100, 1000] {
            let a: Vec<u8> = (0..len).map(|_| rng.next_u8() & 1).collect();
            let b: Vec<u8> = (0..len).map(|_| rng.next_u8() & 1).collect();
            let mut and = a.clone();
            and_bytes(&mut and, &b);
            let mut or = a.clone();
            or_bytes(&mut or, &b);
            for i in 0..len {
                assert_eq!(and[i], a[i] & b[i]);
                assert_eq!(or[i], a[i] | b[i]);
            }
        }
    }
}
