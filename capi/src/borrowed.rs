//! `bitbytes_predicate_test` without arrow-rs arrays, for the predicates
//! most calls carry: comparisons (`=` `<>` `<` `<=` `>` `>=`), Between /
//! NotBetween, In / NotIn and null tests over primitive columns, and `=` / `<>`,
//! StartsWith, EndsWith, Contains (and their `Not…` forms) and null tests
//! over Utf8 / LargeUtf8 columns, under And / Or.
//!
//! The general path imports each column the predicate reads as an arrow-rs
//! array (an `Arc` per buffer and per array, a record batch) and hands the
//! batch to `Predicate::test_into`. At 4 Ki rows that import cost a quarter
//! of the call. Here the caller's values are read in place as a slice, the
//! comparison runs the crate's kernel ([`compare_slice`], the one a
//! comparison leaf runs over a primitive column; a string leaf
//! [`string_match_utf8`] over the offsets and bytes, which checks them as
//! it reads them), its bits are ANDed with the column's validity
//! bitmap (these leaves select no null row, as Paimon's
//! `NullFalseLeafBinaryFunction`), the leaves' words combine by And / Or,
//! and the result is unpacked into the caller's bytes.
//!
//! The batch passes the same checks as on the general path (the same
//! functions: `check_batch`, `read_column`, the validity's null count, and
//! for strings the importer's `validate::offsets_in`: offsets in order and
//! in the data, the bytes valid UTF-8 on character boundaries, over all the
//! child's rows; those of the call's rows inside the string leaves'
//! kernel, [`strings`]). What
//! this path does not take it hands back (`None`), before anything is
//! written, and the general path runs and names any problem: a column of
//! another type than at parse time (a dictionary, say), a values buffer
//! that is NULL or not aligned to its type, a null count that disagrees
//! with the bitmap, a column shorter than the batch, strings that fail a
//! check.

use crate::arrow::{ArrowArray, ArrowSchema};
use crate::direct::{buffer, byte_buffers, byte_buffers_unchecked, checked_validity};
use crate::import::{offset_length, Failure};
use crate::predicate::{check_batch, read_column, BitbytesPredicate};
use crate::validate::offsets_in;
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
use bitbytes::arrow::{
    between_slice, compare_slice, in_slice, string_match_utf8, CompareOp, Function, Predicate,
    StringMatch,
};
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
#[derive(Debug, Clone)]
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
    /// The row is valid and (`.1`: not) equal in Java's order to one of the
    /// literals (all non-null: a NOT IN whose list holds a null, which
    /// selects nothing, goes the general path).
    In(Literals, bool),
    /// The row is valid and `test(value, literal)` holds (`negate`: does
    /// not hold), byte-wise, over a Utf8 / LargeUtf8 column.
    Str {
        /// The kernel's test.
        test: StringMatch,
        /// The literal's bytes.
        literal: Box<[u8]>,
        /// The `Not…` form (or `<>`).
        negate: bool,
    },
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

/// An IN list's non-null literals, as the native type of its column's
/// values.
#[derive(Debug, Clone)]
pub(crate) enum Literals {
    I8(Box<[i8]>),
    I16(Box<[i16]>),
    I32(Box<[i32]>),
    I64(Box<[i64]>),
    F32(Box<[f32]>),
    F64(Box<[f64]>),
}

/// The non-null literals of an IN (`negate`: NOT IN) over a column of type
/// `column`, when they have that type and it is one [`literal`] reads, there
/// is at least one, and (NOT IN) none is null. (An empty list, rare, goes
/// the general path.)
fn in_literals(literals: &dyn Array, column: &DataType, negate: bool) -> Option<Literals> {
    if literals.data_type() != column || negate && literals.null_count() > 0 {
        return None;
    }
    let all: Vec<Literal> = (0..literals.len())
        .filter(|&i| literals.is_valid(i))
        .map(|i| literal(literals, column, i))
        .collect::<Option<_>>()?;
    macro_rules! typed {
        ($($v:ident),*) => {
            match all.first()? {
                $(Literal::$v(_) => Literals::$v(
                    all.iter()
                        .map(|l| match l {
                            Literal::$v(x) => Some(*x),
                            _ => None,
                        })
                        .collect::<Option<_>>()?,
                ),)*
            }
        };
    }
    Some(typed!(I8, I16, I32, I64, F32, F64))
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
/// it reads for comparisons and string leaves (their validity is buffer 0).
fn null_test_type(t: &DataType) -> bool {
    is_utf8(t)
        || t.is_primitive()
            && t.primitive_width().is_some_and(|w| w <= 8)
            && *t != DataType::Float16
}

/// Whether this path reads a column of type `t` for a string leaf.
fn is_utf8(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8)
}

/// A string leaf over a column of type `column` with these literals:
/// `=` / `<>`, StartsWith, EndsWith, Contains or their `Not…` forms with a
/// non-null string literal, over Utf8 / LargeUtf8. (Like, the orders and
/// In go the general path.)
fn string_test(function: Function, literals: &dyn Array, column: &DataType) -> Option<Test> {
    if !is_utf8(column) || literals.is_empty() || literals.is_null(0) {
        return None;
    }
    let (test, negate) = match function {
        Function::Compare(CompareOp::Equal) => (StringMatch::Equal, false),
        Function::Compare(CompareOp::NotEqual) => (StringMatch::Equal, true),
        Function::StartsWith => (StringMatch::StartsWith, false),
        Function::NotStartsWith => (StringMatch::StartsWith, true),
        Function::EndsWith => (StringMatch::EndsWith, false),
        Function::NotEndsWith => (StringMatch::EndsWith, true),
        Function::Contains => (StringMatch::Contains, false),
        Function::NotContains => (StringMatch::Contains, true),
        _ => return None,
    };
    let literal = match literals.data_type() {
        DataType::Utf8 => literals.as_string::<i32>().value(0),
        DataType::LargeUtf8 => literals.as_string::<i64>().value(0),
        DataType::Utf8View => literals.as_string_view().value(0),
        _ => return None,
    };
    Some(Test::Str {
        test,
        literal: literal.as_bytes().into(),
        negate,
    })
}

impl Plan {
    /// Whether a string leaf ([`Test::Str`]) reads column `i`.
    fn reads_strings(&self, i: usize) -> bool {
        match self {
            Plan::Leaf(c, test) => *c == i && matches!(test, Test::Str { .. }),
            Plan::And(children) | Plan::Or(children) => children.iter().any(|p| p.reads_strings(i)),
        }
    }

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
                if let Some(test) = string_test(leaf.function, leaf.literals.as_ref(), t) {
                    return Some(Plan::Leaf(column, test));
                }
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
                    Function::In | Function::NotIn => {
                        let negate = leaf.function == Function::NotIn;
                        Test::In(in_literals(leaf.literals.as_ref(), t, negate)?, negate)
                    }
                    _ => return None,
                };
                Some(Plan::Leaf(column, test))
            }
        }
    }
}

/// A column read in place: its values, the row of the batch's first row in
/// them, and its validity bitmap (`None`: no null row).
struct Column<'a> {
    values: Values<'a>,
    start: usize,
    validity: Option<&'a [u8]>,
}

/// A column's values.
enum Values<'a> {
    /// A primitive column's values buffer.
    Fixed(*const core::ffi::c_void),
    /// A Utf8 column's offsets (from the buffer's first) and data, checked
    /// over the child's rows (`direct::byte_buffers`).
    Utf8(&'a [i32], &'a [u8]),
    /// A LargeUtf8 column's, as `Utf8`.
    LargeUtf8(&'a [i64], &'a [u8]),
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
        // The strings of all the child's rows are checked, as the general
        // path checks them: the call's rows by the string leaves' kernel as
        // it reads them (`string_match_utf8`, when a string leaf reads the
        // column), the others here.
        let (start, window) = (child_offset + offset, plan.reads_strings(i));
        let window = window.then_some(start..start + length);
        // SAFETY: `child` passed `check_array` with its type, `child_length`
        // rows from `child_offset`; its buffers hold what the spec says for
        // the call (the caller's promise).
        let values = unsafe {
            match &p.columns[i].1 {
                DataType::Utf8 => match strings(child, child_offset, child_length, window) {
                    Some((o, d)) => Values::Utf8(o, d),
                    None => return Ok(None),
                },
                DataType::LargeUtf8 => match strings(child, child_offset, child_length, window) {
                    Some((o, d)) => Values::LargeUtf8(o, d),
                    None => return Ok(None),
                },
                // A primitive type's buffer 1 is its values (checked); a
                // NULL one goes to the general path, which names it (no
                // leaf here may read it, IS NULL would not).
                _ => match buffer(child, 1) {
                    v if v.is_null() => return Ok(None),
                    v => Values::Fixed(v),
                },
            }
        };
        columns.push(Column {
            values,
            start,
            validity: validity.map(|(bits, _)| bits),
        });
    }
    // A comparison at the root leaves its validity to the unpack into the
    // caller's bytes (one pass less) when it starts on a byte.
    let root_validity = match plan {
        Plan::Leaf(i, test) if !matches!(test, Test::IsNull | Test::IsNotNull) => columns[*i]
            .validity
            .filter(|_| columns[*i].start.is_multiple_of(8))
            .map(|v| &v[columns[*i].start / 8..]),
        _ => None,
    };
    // SAFETY: `columns` hold `start + length` values each (the caller's
    // promise, `child_length >= offset + length`), readable for the call;
    // a string leaf checks the offsets and bytes it reads.
    let Some(words) = (unsafe { eval(plan, &columns, length, root_validity.is_none()) }) else {
        return Ok(None);
    };
    Ok(Some(Bits {
        bits: words.into(),
        validity: root_validity,
        rows: length,
    }))
}

/// The offsets (from the buffer's first) and data of a string column of
/// `child_length` rows from `child_offset`, checked as the general path
/// checks them (`validate::offsets_in`: offsets in order and in the data,
/// the bytes valid UTF-8 on character boundaries) but for the rows of
/// `window` (indices into the offsets), which the string leaves' kernel
/// checks as it reads them ([`string_match_utf8`]); `None` when a check
/// fails or a buffer is NULL or misaligned.
///
/// Checked in a pass of their own, the call's rows cost 9-13% of the call
/// at 1 Mi rows on AMD EPYC family 25 model 17 (Zen 4; docs/c-abi.md): the
/// pass read the offsets and bytes from memory, and the kernel read them
/// again. (Checked block by block, in step with the leaves, they measured
/// slower still there: 1.22-1.53x the Rust call for blocks of 4 to 256 Ki
/// rows.)
///
/// # Safety
///
/// As [`byte_buffers`]: `child` passed `check_array` with a Utf8 (`i32`)
/// or LargeUtf8 (`i64`) type; its buffers hold what the spec says.
unsafe fn strings<'a, O>(
    child: &ArrowArray,
    child_offset: usize,
    child_length: usize,
    window: Option<core::ops::Range<usize>>,
) -> Option<(&'a [O], &'a [u8])>
where
    O: arrow_buffer::ArrowNativeType + arrow_array::ArrowNativeTypeOp + Ord + core::fmt::Display,
{
    let Some(window) = window else {
        // SAFETY: forwarded.
        return unsafe { byte_buffers(child, child_offset, child_length, true) };
    };
    // SAFETY: forwarded.
    let (all, data) = unsafe { byte_buffers_unchecked::<O>(child, child_offset, child_length) }?;
    // The rows before the window and after it (each part holds the offset
    // it shares with the window, so that the three chain).
    offsets_in(all.get(child_offset..=window.start)?, data, true).ok()?;
    offsets_in(all.get(window.end..)?, data, true).ok()?;
    Some((all, data))
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
            unsafe { leaf(&columns[*i], test, length, and_validity) }
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
    test: &Test,
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
        Test::Compare(..) | Test::Between(..) | Test::In(..) | Test::Str { .. } => {
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
    test: &Test,
) -> Option<arrow_buffer::BooleanBuffer> {
    /// The rows of `column` as `T`.
    ///
    /// # Safety
    ///
    /// As [`kernel`], with `T` the native type of the column's values.
    unsafe fn rows<'c, T>(column: &Column<'c>, length: usize) -> Option<&'c [T]> {
        let Values::Fixed(ptr) = column.values else {
            return None;
        };
        let ptr = ptr.cast::<T>();
        if ptr.is_null() || !ptr.is_aligned() {
            return None;
        }
        // SAFETY: non-NULL, aligned, and `start + length` values of `T`
        // stay readable for the call (the caller's promise).
        let values = unsafe { core::slice::from_raw_parts(ptr, column.start + length) };
        Some(&values[column.start..])
    }
    if let Test::Str {
        test,
        literal,
        negate,
    } = test
    {
        let rows = column.start..=column.start + length;
        // Checked as they are read (see [`strings`]); a column that fails
        // goes to the general path, which names the problem.
        let bits = match column.values {
            Values::Utf8(o, d) => string_match_utf8(o.get(rows)?, d, *test, literal).ok()?,
            Values::LargeUtf8(o, d) => string_match_utf8(o.get(rows)?, d, *test, literal).ok()?,
            Values::Fixed(_) => return None,
        };
        return Some(if *negate { !&bits } else { bits });
    }
    macro_rules! run {
        ($($v:ident),*) => {
            match *test {
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
                    Test::In(Literals::$v(ref list), not) => {
                        // SAFETY: as above.
                        let values = unsafe { rows(column, length) }?;
                        let bits = in_slice(values, list);
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
    use arrow_array::cast::AsArray;
    use arrow_array::{
        new_empty_array, Array, ArrayRef, Date32Array, Float32Array, Float64Array, Int16Array,
        Int32Array, Int64Array, Int8Array, LargeStringArray, RecordBatch, StringArray,
        TimestampMicrosecondArray, TimestampMillisecondArray, TimestampNanosecondArray,
        TimestampSecondArray,
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
            column!("utf8", v32, StringArray, |i| text(ints[i], i)),
            column!("large", vdate, LargeStringArray, |i| text(
                ints[i] + i as i64,
                i
            )),
        ];
        RecordBatch::try_from_iter(columns).unwrap()
    }

    /// Row `i`'s string of a string column: 0 to 40 bytes around the 8-byte
    /// head, of a few shared prefixes and suffixes, some multi-byte.
    fn text(k: i64, i: usize) -> std::string::String {
        let heads = ["", "ab", "abcdefgh", "abcdefghij", "é", "x/é/"];
        let tails = ["", "z", "yz", "ééz", "abcdefgh"];
        let mid = "0123456789".repeat(3);
        let head = heads[k.unsigned_abs() as usize % heads.len()];
        let tail = tails[i % tails.len()];
        std::format!("{head}{}{tail}", &mid[..i * 7 % 23])
    }

    /// A string leaf over string column `c`: `=` / `<>`, a prefix, suffix or
    /// substring test (or its `Not…` form) with a literal cut from a valid
    /// row (cut on character boundaries, empty at times).
    fn string_leaf(b: &RecordBatch, c: usize, rng: &mut Rng) -> Option<Predicate> {
        let column = b.column(c);
        let value = |i: usize| match column.data_type() {
            arrow_schema::DataType::Utf8 => column.as_string::<i32>().value(i),
            _ => column.as_string::<i64>().value(i),
        };
        let valid: Vec<usize> = (0..column.len()).filter(|&i| column.is_valid(i)).collect();
        let row = *valid.get(rng.next_u64() as usize % valid.len().max(1))?;
        let v = value(row);
        let cuts: Vec<usize> = (0..=v.len()).filter(|&j| v.is_char_boundary(j)).collect();
        let mut cut = || cuts[rng.next_u64() as usize % cuts.len()];
        let (x, y) = (cut(), cut());
        let functions = [
            (Function::Compare(CompareOp::Equal), v),
            (Function::Compare(CompareOp::NotEqual), v),
            (Function::StartsWith, &v[..x]),
            (Function::NotStartsWith, &v[..x]),
            (Function::EndsWith, &v[x..]),
            (Function::NotEndsWith, &v[x..]),
            (Function::Contains, &v[x.min(y)..x.max(y)]),
            (Function::NotContains, &v[x.min(y)..x.max(y)]),
        ];
        let (f, lit) = functions[rng.next_u64() as usize % functions.len()];
        let literals: ArrayRef = match column.data_type() {
            arrow_schema::DataType::Utf8 => Arc::new(StringArray::from(vec![lit])),
            _ => Arc::new(LargeStringArray::from(vec![lit])),
        };
        let field = b.schema().field(c).name().clone();
        Some(Predicate::Leaf(Leaf::new(f, field, literals)))
    }

    /// A random leaf over a random column: a comparison with a value of the
    /// column, Between / NotBetween two of its values, In / NotIn a few, or
    /// a null test; over
    /// a string column a string leaf ([`string_leaf`]) or a null test.
    fn random_leaf(b: &RecordBatch, rng: &mut Rng) -> Predicate {
        let c = rng.next_u64() as usize % b.num_columns();
        let (field, column) = (b.schema().field(c).name().clone(), b.column(c).clone());
        let k = rng.next_u64() as usize % 10;
        if k > 1 && column.data_type().is_string() {
            if let Some(leaf) = string_leaf(b, c, rng) {
                return leaf;
            }
        }
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
        if k == 4 || k == 5 {
            // IN / NOT IN 1 to 6 values from that (valid) row on (either
            // side of IN_HASH_MIN_LITERALS; IN's may hold nulls, NOT IN's
            // not: that one goes the general path).
            let n = 1 + (rng.next_u64() % 6) as usize;
            let list = column.slice(row, n.min(column.len() - row));
            let f = if k == 5 && list.null_count() == 0 {
                Function::NotIn
            } else {
                Function::In
            };
            return Predicate::Leaf(Leaf::new(f, field, list));
        }
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

    /// Strings that fail a check far into the column (invalid UTF-8, an
    /// offset that decreases, one inside a character) refuse the batch with
    /// the general path's error and write nothing, though the first rows
    /// pass; the same batch whole passes. The child's rows outside the
    /// batch's (a struct of fewer rows) are checked too.
    #[test]
    fn strings_that_fail_a_check_are_refused() {
        let rows: Vec<std::string::String> = (0..300)
            .map(|i| std::format!("{}é{i}", ["ab", "b", ""][i % 3]))
            .collect();
        let b = RecordBatch::try_from_iter([(
            "s",
            Arc::new(StringArray::from_iter_values(&rows)) as ArrayRef,
        )])
        .unwrap();
        let arrow_schema: Schema = b.schema().as_ref().clone();
        let predicate = Predicate::Or(vec![
            Predicate::Leaf(Leaf::new(
                Function::StartsWith,
                "s",
                Arc::new(StringArray::from(vec!["ab"])) as ArrayRef,
            )),
            Predicate::Leaf(Leaf::new(
                Function::NotContains,
                "s",
                Arc::new(StringArray::from(vec!["é2"])) as ArrayRef,
            )),
        ]);
        let json = predicate.to_paimon_json(&arrow_schema).unwrap();
        let want = predicate.test(&b).unwrap();
        let (array, schema) = export(&b);
        let p = parse(&json, &schema).unwrap();
        // SAFETY: a live predicate of `parse`.
        assert!(unsafe { &*p }.plan.is_some());
        let s = b.column(0).as_string::<i32>();
        let run = |offsets: &[i32], data: &[u8], offset: i64, length: i64| {
            // SAFETY: the exported struct as the C layout (same repr(C)).
            let base = unsafe { &*c_array(&array) };
            // SAFETY: the export has one child.
            let mut child = ArrowArray {
                ..*unsafe { &**base.children }
            };
            // SAFETY: a Utf8 child has 3 buffers.
            let validity = unsafe { *child.buffers };
            let mut buffers = [validity, offsets.as_ptr().cast(), data.as_ptr().cast()];
            child.buffers = buffers.as_mut_ptr();
            let mut kids = [&mut child as *mut ArrowArray];
            let mut top = ArrowArray { ..*base };
            top.children = kids.as_mut_ptr();
            (top.offset, top.length) = (offset, length);
            let mut out = vec![7u8; 300];
            // SAFETY: live structs whose buffers hold what they say.
            let rc = unsafe {
                bitbytes_predicate_test(p, &top, c_schema(&schema), out.as_mut_ptr(), 300)
            };
            (rc, out, last_error())
        };
        let (offsets, data) = (s.value_offsets().to_vec(), s.values().to_vec());
        let (rc, out, _) = run(&offsets, &data, 0, 300);
        assert_eq!((rc, out), (0, want.clone()));
        // Row 250's first byte not UTF-8; row 200 ending before it starts;
        // row 260 ending inside its `é`.
        let mut bad = data.clone();
        bad[offsets[250] as usize] = 0xFF;
        let mut back = offsets.clone();
        back[201] = back[199];
        // Row 260 is "é260": ending one byte in, inside its `é`.
        assert!(rows[260].starts_with('é'));
        let mut inside = offsets.clone();
        inside[261] = inside[260] + 1;
        for (o, d, what) in [
            (&offsets, &bad, "Invalid UTF8"),
            (&back, &data, "offset"),
            (&inside, &data, "Invalid UTF8"),
        ] {
            let (rc, out, msg) = run(o, d, 0, 300);
            assert_eq!(rc, crate::status::Status::ArrowData.code(), "{msg}");
            assert!(msg.contains(what), "{msg}");
            assert_eq!(out, [7u8; 300], "{msg}");
            // A batch of the first 150 rows of that struct: its rows pass,
            // the child's others do not (the general path's answer too).
            let (rc, out, msg) = run(o, d, 0, 150);
            assert_eq!(rc, crate::status::Status::ArrowData.code(), "{msg}");
            assert_eq!(out, [7u8; 300], "{msg}");
            // And one of its last 30 rows: the child's earlier rows fail.
            let (rc, out, msg) = run(o, d, 270, 30);
            assert_eq!(rc, crate::status::Status::ArrowData.code(), "{msg}");
            assert_eq!(out, [7u8; 300], "{msg}");
        }
        // The good column in those windows: the Rust answer.
        for (offset, length) in [(0, 150), (270, 30), (64, 1)] {
            let (rc, out, msg) = run(&offsets, &data, offset as i64, length as i64);
            assert_eq!(rc, 0, "{msg}");
            assert_eq!(out[..length], want[offset..offset + length], "{offset}");
        }
        // SAFETY: freed once.
        unsafe { bitbytes_predicate_free(p) };
    }
}
