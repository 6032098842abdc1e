//! `bitbytes_predicate_test` without arrow-rs arrays, for the predicates
//! most calls carry: comparisons (`=` `<>` `<` `<=` `>` `>=`), Between /
//! NotBetween and null tests over primitive columns, under And / Or.
//!
//! The general path imports each column the predicate reads as an arrow-rs
//! array (an `Arc` per buffer and per array, a record batch) and hands the
//! batch to `Predicate::test_into`. At 4 Ki rows that import cost a quarter
//! of the call. Here the caller's values are read in place as a slice, the
//! comparison runs the crate's kernel ([`compare_slice`], the one a
//! comparison leaf runs over a primitive column), its bits are ANDed with
//! the column's validity bitmap (a comparison selects no null row, as
//! Paimon's `NullFalseLeafBinaryFunction`), the leaves' words combine by
//! And / Or, and the result is unpacked into the caller's bytes.
//!
//! The batch passes the same checks as on the general path (the same
//! functions: `check_batch`, `read_column`, the validity's null count). What
//! this path does not take it hands back (`None`), before anything is
//! written, and the general path runs and names any problem: a column of
//! another type than at parse time (a dictionary, say), a values buffer
//! that is NULL or not aligned to its type, a null count that disagrees
//! with the bitmap, a column shorter than the batch.

use crate::arrow::{ArrowArray, ArrowSchema};
use crate::direct::{buffer, checked_validity};
use crate::import::{offset_length, Failure};
use crate::predicate::{check_batch, read_column, BitbytesPredicate};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType,
};
use arrow_array::Array;
use arrow_buffer::bit_chunk_iterator::BitChunks;
use arrow_buffer::{Buffer, MutableBuffer};
use arrow_schema::{DataType, TimeUnit};
use bitbytes::arrow::{between_slice, compare_slice, CompareOp, Function, Predicate};
use std::boxed::Box;
use std::vec::Vec;

/// A predicate this path evaluates: leaves over the columns
/// (`BitbytesPredicate::columns`, by index) under And / Or.
#[derive(Debug)]
pub(crate) enum Plan {
    /// A leaf over column `.0`.
    Leaf(usize, Test),
    /// Every child selects the row.
    And(Box<[Plan]>),
    /// Some child selects the row.
    Or(Box<[Plan]>),
}

/// A leaf's function.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Test {
    /// The row is null.
    IsNull,
    /// The row is not null.
    IsNotNull,
    /// The row is valid and `value <op> literal` in Java's order.
    Compare(CompareOp, Literal),
    /// The row is valid and `lower <= value <= upper` (`.2`: not) in Java's
    /// order; both bounds of one variant.
    Between(Literal, Literal, bool),
}

/// A comparison's literal, as the native type of its column's values.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Literal {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
}

/// Literal `i` of a leaf over a column of type `column`: that value as the
/// column's native type, when the literal has that very type, is not null,
/// and the type is one this path reads: the types Paimon's JSON gives
/// literals of that are primitive (TINYINT to BIGINT, FLOAT, DOUBLE, DATE,
/// TIMESTAMP; there are no unsigned Paimon types).
fn literal(literals: &dyn Array, column: &DataType, i: usize) -> Option<Literal> {
    if literals.data_type() != column || literals.len() <= i || literals.is_null(i) {
        return None;
    }
    let l = literals;
    Some(match column {
        DataType::Int8 => Literal::I8(l.as_primitive::<Int8Type>().value(i)),
        DataType::Int16 => Literal::I16(l.as_primitive::<Int16Type>().value(i)),
        DataType::Int32 => Literal::I32(l.as_primitive::<Int32Type>().value(i)),
        DataType::Int64 => Literal::I64(l.as_primitive::<Int64Type>().value(i)),
        DataType::Float32 => Literal::F32(l.as_primitive::<Float32Type>().value(i)),
        DataType::Float64 => Literal::F64(l.as_primitive::<Float64Type>().value(i)),
        DataType::Date32 => Literal::I32(l.as_primitive::<Date32Type>().value(i)),
        DataType::Timestamp(unit, _) => Literal::I64(match unit {
            TimeUnit::Second => l.as_primitive::<TimestampSecondType>().value(i),
            TimeUnit::Millisecond => l.as_primitive::<TimestampMillisecondType>().value(i),
            TimeUnit::Microsecond => l.as_primitive::<TimestampMicrosecondType>().value(i),
            TimeUnit::Nanosecond => l.as_primitive::<TimestampNanosecondType>().value(i),
        }),
        _ => return None,
    })
}

/// Whether this path reads a column of type `t` for a null test: the types
/// it reads for comparisons (their validity is buffer 0).
fn null_test_type(t: &DataType) -> bool {
    t.is_primitive() && t.primitive_width().is_some_and(|w| w <= 8) && *t != DataType::Float16
}

impl Plan {
    /// The plan of `predicate` over `columns` (the fields it reads, with
    /// their parse-time types), when every leaf is one this path runs: a
    /// comparison with a non-null literal of its column's type, or a null
    /// test, over a plain field of a primitive type ([`literal`]); And / Or
    /// not empty.
    pub(crate) fn new(
        predicate: &Predicate,
        columns: &[(std::string::String, DataType)],
    ) -> Option<Plan> {
        let children = |c: &[Predicate]| -> Option<Box<[Plan]>> {
            if c.is_empty() {
                return None;
            }
            c.iter().map(|p| Plan::new(p, columns)).collect()
        };
        match predicate {
            Predicate::And(c) => Some(Plan::And(children(c)?)),
            Predicate::Or(c) => Some(Plan::Or(children(c)?)),
            Predicate::Leaf(leaf) => {
                let name = leaf.field()?;
                let column = columns.iter().position(|(n, _)| n == name)?;
                let t = &columns[column].1;
                let test = match leaf.function {
                    Function::IsNull if null_test_type(t) => Test::IsNull,
                    Function::IsNotNull if null_test_type(t) => Test::IsNotNull,
                    Function::Compare(op) => {
                        Test::Compare(op, literal(leaf.literals.as_ref(), t, 0)?)
                    }
                    Function::Between | Function::NotBetween => Test::Between(
                        literal(leaf.literals.as_ref(), t, 0)?,
                        literal(leaf.literals.as_ref(), t, 1)?,
                        leaf.function == Function::NotBetween,
                    ),
                    _ => return None,
                };
                Some(Plan::Leaf(column, test))
            }
        }
    }
}

/// A column read in place: its values buffer, the row of the batch's first
/// row in it, and its validity bitmap (`None`: no null row).
struct Column<'a> {
    values: *const core::ffi::c_void,
    start: usize,
    validity: Option<&'a [u8]>,
}

/// The predicate's bits over a batch (one per row, LSB first, the last
/// word's high bits arbitrary) and the number of rows; `Ok(None)` when the
/// batch is one the general path must take (see the module's comment).
///
/// # Safety
///
/// As `bitbytes_predicate_test`: `batch` and `schema` are live C Data
/// Interface structs whose buffers hold what the spec promises; the
/// returned buffer is dropped before the call returns (it holds no
/// pointer to them, but the bits were read from them).
pub(crate) unsafe fn test<'a>(
    p: &BitbytesPredicate,
    plan: &Plan,
    batch: &'a ArrowArray,
    schema: &ArrowSchema,
) -> Result<Option<Bits<'a>>, Failure> {
    // SAFETY: forwarded.
    let (offset, length) = unsafe { check_batch(batch, schema) }?;
    let mut columns = Vec::with_capacity(p.columns.len());
    for i in 0..p.columns.len() {
        // SAFETY: `batch` and `schema` passed `check_batch`.
        let (child, _, same) = unsafe { read_column(p, i, batch, schema) }?;
        let (child_offset, child_length) = offset_length(child, &"")?;
        if !same || child_length == 0 || child_length < offset + length {
            return Ok(None);
        }
        // SAFETY: `child` passed `check_array` with a primitive type (the
        // parse-time one, `same`), whose buffer 0 is the validity; its
        // bitmap covers `offset + length` bits for the call (the caller's
        // promise).
        let Some(validity) = (unsafe { checked_validity(child, child_offset, child_length) })
        else {
            return Ok(None);
        };
        // SAFETY: a primitive type's buffer 1 is its values (checked).
        let values = unsafe { buffer(child, 1) };
        columns.push(Column {
            values,
            start: child_offset + offset,
            validity: validity.map(|(bits, _)| bits),
        });
    }
    // A comparison at the root leaves its validity to the unpack into the
    // caller's bytes (one pass less) when it starts on a byte.
    let root_validity = match plan {
        Plan::Leaf(i, Test::Compare(..) | Test::Between(..)) => columns[*i]
            .validity
            .filter(|_| columns[*i].start.is_multiple_of(8))
            .map(|v| &v[columns[*i].start / 8..]),
        _ => None,
    };
    // SAFETY: `columns` hold `start + length` values each (the caller's
    // promise, `child_length >= offset + length`), readable for the call.
    let Some(words) = (unsafe { eval(plan, &columns, length, root_validity.is_none()) }) else {
        return Ok(None);
    };
    Ok(Some(Bits {
        bits: words.into(),
        validity: root_validity,
        rows: length,
    }))
}

/// The answer of [`test`]: one bit per row, ANDed with `validity` (when
/// there is one: rows from its first bit) as the bytes are written.
pub(crate) struct Bits<'a> {
    /// The predicate's bits, from bit 0.
    pub(crate) bits: Buffer,
    /// A validity bitmap the bits still need ANDing with.
    pub(crate) validity: Option<&'a [u8]>,
    /// The number of rows.
    pub(crate) rows: usize,
}

/// The bits of `plan` over `length` rows of `columns` (at least
/// `ceil(length / 8)` bytes); `None` when a values buffer is NULL or
/// misaligned.
///
/// # Safety
///
/// Each column's values buffer holds `start + length` values of the type
/// its leaves read, and its validity `start + length` bits.
unsafe fn eval(
    plan: &Plan,
    columns: &[Column<'_>],
    length: usize,
    and_validity: bool,
) -> Option<MutableBuffer> {
    match plan {
        Plan::Leaf(i, test) => {
            // SAFETY: forwarded.
            unsafe { leaf(&columns[*i], *test, length, and_validity) }
        }
        Plan::And(children) | Plan::Or(children) => {
            let and = matches!(plan, Plan::And(_));
            let (first, rest) = children.split_first()?;
            // SAFETY: forwarded.
            let mut bits = unsafe { eval(first, columns, length, true) }?;
            for child in rest {
                // SAFETY: forwarded.
                let other = unsafe { eval(child, columns, length, true) }?;
                let (b, o) = (&mut bits[..length.div_ceil(8)], other.as_slice());
                if and {
                    b.iter_mut().zip(o).for_each(|(b, o)| *b &= o);
                } else {
                    b.iter_mut().zip(o).for_each(|(b, o)| *b |= o);
                }
            }
            Some(bits)
        }
    }
}

/// `f` on each byte of `bits` and the validity's byte for the same rows,
/// over `length` rows from row `start` of the validity.
fn with_validity(
    bits: &mut [u8],
    validity: &[u8],
    start: usize,
    length: usize,
    f: impl Fn(&mut u8, u8),
) {
    let n = length.div_ceil(8);
    if start.is_multiple_of(8) {
        let v = &validity[start / 8..][..n];
        bits[..n].iter_mut().zip(v).for_each(|(b, &v)| f(b, v));
    } else {
        let words = BitChunks::new(validity, start, length).iter_padded();
        for (chunk, v) in bits[..n].chunks_mut(8).zip(words) {
            chunk
                .iter_mut()
                .zip(v.to_le_bytes())
                .for_each(|(b, v)| f(b, v));
        }
    }
}

/// One leaf's bits over `length` rows of `column`; a comparison's not
/// ANDed with the validity unless `and_validity`.
///
/// # Safety
///
/// As [`eval`].
unsafe fn leaf(
    column: &Column<'_>,
    test: Test,
    length: usize,
    and_validity: bool,
) -> Option<MutableBuffer> {
    let n = length.div_ceil(8);
    let mut bits = match test {
        Test::IsNull | Test::IsNotNull => {
            let null = matches!(test, Test::IsNull);
            let mut bits = MutableBuffer::from_len_zeroed(n);
            match column.validity {
                Some(v) => with_validity(&mut bits, v, column.start, length, |b, v| {
                    *b = if null { !v } else { v }
                }),
                None if !null => bits.as_slice_mut().fill(!0),
                None => {}
            }
            return Some(bits);
        }
        Test::Compare(..) | Test::Between(..) => {
            // SAFETY: forwarded.
            let bits = unsafe { kernel(column, length, test) }?;
            // The kernel's buffer is fresh (held once, at offset 0): taken
            // as is; a copy otherwise.
            let (offset, buffer) = (bits.offset(), bits.into_inner());
            match buffer.into_mutable() {
                Ok(m) if offset == 0 && m.len() >= n => m,
                Ok(m) => words(&arrow_buffer::BooleanBuffer::new(m.into(), offset, length)),
                Err(b) => words(&arrow_buffer::BooleanBuffer::new(b, offset, length)),
            }
        }
    };
    if let Some(v) = column.validity.filter(|_| and_validity) {
        with_validity(&mut bits, v, column.start, length, |b, v| *b &= v);
    }
    Some(bits)
}

/// A copy of `bits` from offset 0, whole words.
fn words(bits: &arrow_buffer::BooleanBuffer) -> MutableBuffer {
    let mut m = MutableBuffer::new(bits.len().div_ceil(64) * 8);
    bits.bit_chunks().iter_padded().for_each(|w| m.push(w));
    m
}

/// A comparison's or Between's bits over `length` rows of `column`, before
/// the validity (NotBetween negated); `None` when its values buffer is
/// NULL or not aligned to the literal's type, or for a null test.
///
/// # Safety
///
/// As [`eval`], with the literals of the native type of the column's values.
unsafe fn kernel(
    column: &Column<'_>,
    length: usize,
    test: Test,
) -> Option<arrow_buffer::BooleanBuffer> {
    /// The rows of `column` as `T`.
    ///
    /// # Safety
    ///
    /// As [`kernel`], with `T` the native type of the column's values.
    unsafe fn rows<'c, T>(column: &Column<'c>, length: usize) -> Option<&'c [T]> {
        let ptr = column.values.cast::<T>();
        if ptr.is_null() || !ptr.is_aligned() {
            return None;
        }
        // SAFETY: non-NULL, aligned, and `start + length` values of `T`
        // stay readable for the call (the caller's promise).
        let values = unsafe { core::slice::from_raw_parts(ptr, column.start + length) };
        Some(&values[column.start..])
    }
    macro_rules! run {
        ($($v:ident),*) => {
            match test {
                $(
                    Test::Compare(op, Literal::$v(l)) => {
                        // SAFETY: the literal's type is the column's native
                        // type (`Plan::new`).
                        let values = unsafe { rows(column, length) }?;
                        compare_slice(values, op, l)
                    }
                    Test::Between(Literal::$v(lo), Literal::$v(hi), not) => {
                        // SAFETY: as above.
                        let values = unsafe { rows(column, length) }?;
                        let bits = between_slice(values, lo, hi);
                        if not { !&bits } else { bits }
                    }
                )*
                _ => return None,
            }
        };
    }
    Some(run!(I8, I16, I32, I64, F32, F64))
}

#[cfg(test)]
mod tests {
    use crate::arrow::ArrowArray;
    use crate::predicate::tests::{c_array, c_schema, export, last_error, parse};
    use crate::predicate::{bitbytes_predicate_free, bitbytes_predicate_test};
    use crate::xorshift::XorShift as Rng;
    use arrow_array::{
        new_empty_array, Array, ArrayRef, Date32Array, Float32Array, Float64Array, Int16Array,
        Int32Array, Int64Array, Int8Array, RecordBatch, TimestampMicrosecondArray,
        TimestampMillisecondArray, TimestampNanosecondArray, TimestampSecondArray,
    };
    use arrow_schema::Schema;
    use bitbytes::arrow::{CompareOp, Function, Leaf, Predicate};
    use std::sync::Arc;
    use std::vec;
    use std::vec::Vec;

    /// A batch of every column type the path reads, `n` rows, each column
    /// with its own share of nulls (none in `i16`), floats with NaN, -0.0,
    /// 0.0 and infinities.
    fn batch(n: usize, rng: &mut Rng) -> RecordBatch {
        let mut valid = |every: u64| -> Vec<bool> {
            (0..n)
                .map(|_| every == 0 || !rng.next_u64().is_multiple_of(every))
                .collect()
        };
        let (v8, v16, v32, v64, vf, vd, vdate, vts) = (
            valid(3),
            valid(0),
            valid(5),
            valid(2),
            valid(4),
            valid(7),
            valid(9),
            valid(11),
        );
        let mut small = || (rng.next_u64() % 9) as i64 - 4;
        let ints: Vec<i64> = (0..n).map(|_| small()).collect();
        let special = [
            f64::NAN,
            -0.0,
            0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1.5,
            -2.5,
        ];
        let floats: Vec<f64> = ints
            .iter()
            .map(|&i| {
                special[i.unsigned_abs() as usize % special.len()] * if i < 0 { -1.0 } else { 1.0 }
            })
            .collect();
        // A column of `$t` valid where `$valid`, row `i` holding `$f(i)`.
        macro_rules! column {
            ($name:expr, $valid:expr, $t:ty, $f:expr) => {
                (
                    $name,
                    Arc::new((0..n).map(|i| $valid[i].then(|| $f(i))).collect::<$t>()) as ArrayRef,
                )
            };
        }
        let columns: Vec<(&str, ArrayRef)> = vec![
            column!("i8", v8, Int8Array, |i| ints[i] as i8),
            column!("i16", v16, Int16Array, |i| ints[i] as i16 * 300),
            column!("i32", v32, Int32Array, |i| ints[i] as i32),
            column!("i64", v64, Int64Array, |i| ints[i] << 40),
            column!("f32", vf, Float32Array, |i| floats[i] as f32),
            column!("f64", vd, Float64Array, |i| floats[i]),
            column!("date", vdate, Date32Array, |i| ints[i] as i32 + 19000),
            column!("ts", vts, TimestampMicrosecondArray, |i| ints[i]
                * 1_000_000),
            column!("ts_s", v8, TimestampSecondArray, |i| ints[i] * 60),
            column!("ts_ms", v32, TimestampMillisecondArray, |i| ints[i] * 1000),
            column!("ts_ns", v64, TimestampNanosecondArray, |i| ints[i] << 30),
        ];
        RecordBatch::try_from_iter(columns).unwrap()
    }

    /// A random leaf over a random column: a comparison with a value of the
    /// column, Between / NotBetween two of its values, or a null test.
    fn random_leaf(b: &RecordBatch, rng: &mut Rng) -> Predicate {
        let c = rng.next_u64() as usize % b.num_columns();
        let (field, column) = (b.schema().field(c).name().clone(), b.column(c).clone());
        let k = rng.next_u64() as usize % 10;
        if k == 0 {
            return Predicate::Leaf(Leaf::new(
                Function::IsNull,
                field,
                new_empty_array(column.data_type()),
            ));
        }
        if k == 1 {
            return Predicate::Leaf(Leaf::new(
                Function::IsNotNull,
                field,
                new_empty_array(column.data_type()),
            ));
        }
        // A valid row's value as the literal.
        let valid: Vec<usize> = (0..column.len()).filter(|&i| column.is_valid(i)).collect();
        if valid.is_empty() {
            return Predicate::Leaf(Leaf::new(Function::IsNotNull, field, column.slice(0, 0)));
        }
        let row = valid[rng.next_u64() as usize % valid.len()];
        if k <= 3 && row + 1 < column.len() && column.is_valid(row + 1) {
            // Between / NotBetween the values of two rows (either order).
            let f = [Function::Between, Function::NotBetween][k - 2];
            return Predicate::Leaf(Leaf::new(f, field, column.slice(row, 2)));
        }
        let op = CompareOp::ALL[rng.next_u64() as usize % 6];
        Predicate::Leaf(Leaf::new(
            Function::Compare(op),
            field,
            column.slice(row, 1),
        ))
    }

    fn random_tree(b: &RecordBatch, rng: &mut Rng, depth: usize) -> Predicate {
        if depth == 0 || rng.next_u64().is_multiple_of(3) {
            return random_leaf(b, rng);
        }
        let children = (0..2 + rng.next_u64() as usize % 2)
            .map(|_| random_tree(b, rng, depth - 1))
            .collect();
        if rng.next_u64().is_multiple_of(2) {
            Predicate::And(children)
        } else {
            Predicate::Or(children)
        }
    }

    /// The path against `Predicate::test` on random trees of comparisons
    /// and null tests over every type it reads, on batches sliced at many
    /// offsets (bit offsets of the validity that are and are not whole
    /// bytes), and at lengths around word ends.
    #[test]
    fn borrowed_path_agrees_with_rust() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let whole = batch(300, &mut rng);
        let mut tried = 0;
        for (offset, len) in [
            (0, 300),
            (1, 64),
            (3, 130),
            (8, 63),
            (64, 65),
            (77, 200),
            (13, 1),
            (5, 0),
        ] {
            let b = whole.slice(offset, len);
            let (array, schema) = export(&b);
            let arrow_schema: Schema = b.schema().as_ref().clone();
            for _ in 0..60 {
                let predicate = random_tree(&b, &mut rng, 3);
                let json = predicate.to_paimon_json(&arrow_schema).unwrap();
                let p = parse(&json, &schema).unwrap();
                // SAFETY: a live predicate of `parse`.
                assert!(unsafe { &*p }.plan.is_some(), "{json}: no plan");
                let want = Predicate::from_paimon_json(&json, &arrow_schema)
                    .unwrap()
                    .test(&b)
                    .unwrap();
                let mut got = vec![9u8; len + 1];
                // SAFETY: live structs; `got` holds `len + 1` bytes.
                let rc = unsafe {
                    bitbytes_predicate_test(
                        p,
                        c_array(&array),
                        c_schema(&schema),
                        got.as_mut_ptr(),
                        got.len(),
                    )
                };
                assert_eq!(rc, 0, "{json}: {}", last_error());
                assert_eq!(&got[..len], &want[..], "{json} at {offset}+{len}");
                assert_eq!(got[len], 9);
                // SAFETY: freed once.
                unsafe { bitbytes_predicate_free(p) };
                tried += 1;
            }
        }
        assert_eq!(tried, 8 * 60);
    }

    /// What the path hands back runs the general path: a misaligned values
    /// buffer (read right), a null count of -1 (counted), a wrong null count
    /// (refused, nothing written, as before).
    #[test]
    fn what_the_path_does_not_take_runs_the_general_path() {
        let mut rng = Rng::new(7);
        let b = batch(100, &mut rng);
        let (array, schema) = export(&b);
        let arrow_schema: Schema = b.schema().as_ref().clone();
        // i64 (column 3) > its first non-null value, AND i32 (column 2) IS
        // NOT NULL.
        let row = (0..100).find(|&i| b.column(3).is_valid(i)).unwrap();
        let predicate = Predicate::And(vec![
            Predicate::Leaf(Leaf::new(
                Function::Compare(CompareOp::GreaterThan),
                "i64",
                b.column(3).slice(row, 1),
            )),
            Predicate::Leaf(Leaf::new(
                Function::IsNotNull,
                "i32",
                b.column(2).slice(0, 0),
            )),
        ]);
        let json = predicate.to_paimon_json(&arrow_schema).unwrap();
        let want = predicate.test(&b).unwrap();
        let p = parse(&json, &schema).unwrap();
        // SAFETY: a live predicate of `parse`.
        assert!(unsafe { &*p }.plan.is_some());
        let run = |a: &ArrowArray| {
            let mut out = vec![7u8; 100];
            // SAFETY: live structs.
            let rc =
                unsafe { bitbytes_predicate_test(p, a, c_schema(&schema), out.as_mut_ptr(), 100) };
            (rc, out)
        };
        // SAFETY: the exported struct as the C layout (same repr(C) struct).
        let base = unsafe { &*c_array(&array) };
        let shallow = |a: &ArrowArray| ArrowArray { ..*a };
        // SAFETY: the export has one child per column.
        let column = |i: usize| unsafe { &**base.children.add(i) };
        let mut kids: Vec<*mut ArrowArray> = (0..b.num_columns())
            .map(|i| column(i) as *const _ as *mut _)
            .collect();
        let mut top = shallow(base);
        top.children = kids.as_mut_ptr();
        assert_eq!(run(&top), (0, want.clone()));

        // The i64 values one byte off their alignment.
        let values = b.column(3).to_data().buffers()[0].clone();
        let mut bytes = vec![0u8; values.len() + 2];
        let at = if (bytes.as_ptr() as usize + 1).is_multiple_of(8) {
            2
        } else {
            1
        };
        bytes[at..at + values.len()].copy_from_slice(values.as_slice());
        let mut i64_col = shallow(column(3));
        // SAFETY: the export's i64 column has 2 buffers.
        let mut buffers = [unsafe { *i64_col.buffers }, bytes[at..].as_ptr().cast()];
        i64_col.buffers = buffers.as_mut_ptr();
        kids[3] = &mut i64_col;
        assert_eq!(run(&top), (0, want.clone()));

        // The i32 column's null count unknown, then wrong.
        let mut i32_col = shallow(column(2));
        i32_col.null_count = -1;
        kids[2] = &mut i32_col;
        assert_eq!(run(&top), (0, want.clone()));
        // SAFETY: `kids[2]` points to `i32_col`, which nothing else uses now.
        unsafe { (*kids[2]).null_count = column(2).null_count + 1 };
        let (rc, out) = run(&top);
        assert_eq!(rc, crate::status::Status::ArrowData.code());
        assert_eq!(out, [7u8; 100]);
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }
}
