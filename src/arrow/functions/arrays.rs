//! The array functions: ARRAY_CONTAINS, ARRAY_CONTAINS_ALL and
//! ARRAYS_OVERLAP (Paimon's `ArrayContains`, `ArrayContainsAll`,
//! `ArraysOverlap`) over List, LargeList and FixedSizeList columns.
//!
//! No row is materialised: the elements the column's rows reference (one
//! contiguous range of the child array) are tested against the literals
//! once, by the IN machinery ([`membership`]: a set or OR of `eq` bitmaps,
//! Java's float order, dictionaries through their values), into one bit per
//! element; null elements are cleared from it with the child's validity.
//! Then each row reduces its element range (from the offsets) to one bit:
//! "any bit set" over a few `u64` words. ARRAY_CONTAINS_ALL does one such
//! pass per literal and ANDs the row bitmaps. The column's own nulls are
//! applied on the way to bytes.

use super::in_list::{membership, InStrategy};
use super::literals::value_type;
use super::stats::{RuleBits, StatsColumn};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, OffsetSizeTrait};
use arrow_buffer::{BooleanBuffer, Buffer};
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::vec::Vec;

/// Which array function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArrayFunction {
    /// Some non-null element equals the one literal.
    Contains,
    /// Every literal is an element (any null literal: no row).
    ContainsAll,
    /// Some non-null literal is an element.
    Overlap,
}

/// The element type of a List, LargeList or FixedSizeList column type.
pub(crate) fn element_type(column: &DataType) -> Option<&DataType> {
    match column {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            Some(f.data_type())
        }
        _ => None,
    }
}

/// A list column's elements: the child array sliced to the range the rows
/// reference, and row `i`'s elements at `offsets[i]..offsets[i + 1]` of
/// that slice.
struct Elements {
    /// The referenced elements.
    child: ArrayRef,
    /// Offsets rebased to the sliced child, one more than the rows.
    offsets: Vec<usize>,
}

fn offset_elements<O: OffsetSizeTrait>(
    offsets: &[O],
    values: &ArrayRef,
) -> Result<Elements, ArrowError> {
    let first = offsets.first().map_or(0, |o| o.as_usize());
    let last = offsets.last().map_or(0, |o| o.as_usize());
    if last < first || last > values.len() {
        return Err(ArrowError::InvalidArgumentError(format!(
            "list offsets {first}..{last} outside the child of {} values",
            values.len()
        )));
    }
    Ok(Elements {
        child: values.slice(first, last - first),
        offsets: offsets.iter().map(|o| o.as_usize() - first).collect(),
    })
}

fn elements(column: &dyn Array) -> Result<Elements, ArrowError> {
    match column.data_type() {
        DataType::List(_) => {
            let list = column.as_list::<i32>();
            offset_elements(list.value_offsets(), list.values())
        }
        DataType::LargeList(_) => {
            let list = column.as_list::<i64>();
            offset_elements(list.value_offsets(), list.values())
        }
        DataType::FixedSizeList(_, _) => {
            let list = column.as_fixed_size_list();
            let size = list.value_length().max(0) as usize;
            let first = if list.is_empty() {
                0
            } else {
                list.value_offset_at(0)
            };
            let len = list.len() * size;
            if first + len > list.values().len() {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "fixed-size list of {} rows of {size} outside its child of {} values",
                    list.len(),
                    list.values().len()
                )));
            }
            Ok(Elements {
                child: list.values().slice(first, len),
                offsets: (0..=list.len()).map(|i| i * size).collect(),
            })
        }
        other => Err(ArrowError::InvalidArgumentError(format!(
            "array functions need a List, LargeList or FixedSizeList column, got {other}"
        ))),
    }
}

/// One bit per element: it is non-null and equals one of the non-null
/// `literals` (`non_null` of them, at least one), as `u64` words.
fn element_words(
    child: &dyn Array,
    literals: &dyn Array,
    non_null: usize,
) -> Result<Vec<u64>, ArrowError> {
    let mut member = membership(child, literals, non_null, InStrategy::Auto)?;
    if let Some(nulls) = child.logical_nulls() {
        member = &member & nulls.inner();
    }
    Ok(member.bit_chunks().iter_padded().collect())
}

/// Whether any bit in `start..end` of `words` is set.
#[inline]
fn any_set(words: &[u64], start: usize, end: usize) -> bool {
    if start >= end {
        return false;
    }
    let (first, last) = (start / 64, (end - 1) / 64);
    let head = u64::MAX << (start % 64);
    let tail = u64::MAX >> (63 - (end - 1) % 64);
    if first == last {
        return words[first] & head & tail != 0;
    }
    words[first] & head != 0
        || words[first + 1..last].iter().any(|&w| w != 0)
        || words[last] & tail != 0
}

/// One bit per row: its element range holds a set bit of `words`.
fn rows_any(offsets: &[usize], words: &[u64]) -> BooleanBuffer {
    BooleanBuffer::collect_bool(offsets.len() - 1, |i| {
        any_set(words, offsets[i], offsets[i + 1])
    })
}

/// The function's bit per row of `column`; bits of null rows are
/// unspecified (the caller applies the column's nulls). The literals have
/// been validated: their type is the element's value type, and
/// [`Contains`](ArrayFunction::Contains) has exactly one.
pub(crate) fn array_bits(
    function: ArrayFunction,
    column: &dyn Array,
    literals: &dyn Array,
) -> Result<BooleanBuffer, ArrowError> {
    let rows = column.len();
    let null_literals = literals.logical_null_count();
    let non_null = literals.len() - null_literals;
    match function {
        ArrayFunction::Contains | ArrayFunction::Overlap => {
            if non_null == 0 {
                return Ok(BooleanBuffer::new_unset(rows));
            }
            let e = elements(column)?;
            let words = element_words(e.child.as_ref(), literals, non_null)?;
            Ok(rows_any(&e.offsets, &words))
        }
        ArrayFunction::ContainsAll => {
            if null_literals > 0 {
                return Ok(BooleanBuffer::new_unset(rows));
            }
            let e = elements(column)?;
            let mut acc: Vec<u64> = BooleanBuffer::new_set(rows)
                .bit_chunks()
                .iter_padded()
                .collect();
            for i in 0..literals.len() {
                let words = element_words(e.child.as_ref(), literals.slice(i, 1).as_ref(), 1)?;
                let row = rows_any(&e.offsets, &words);
                for (a, w) in acc.iter_mut().zip(row.bit_chunks().iter_padded()) {
                    *a &= w;
                }
                if acc.iter().all(|&w| w == 0) {
                    break;
                }
            }
            Ok(BooleanBuffer::new(Buffer::from_vec(acc), 0, rows))
        }
    }
}

/// An array function leaf's verdict bits over `column`'s statistics, as
/// Paimon Java's `test(rowCount, min, max, nullCount, literals)`: min and
/// max of a list column say nothing about which elements it holds, so no
/// value prunes. ArrayContains with a null literal prunes as a comparison's
/// null literal does (where the null count is known). ArrayContainsAll with a null literal and ArraysOverlap with
/// no non-null literal select no row; Java prunes them where it reaches the
/// function (bounds known, or an all-null container), and so do we. Any
/// other leaf is NoMatch only on an all-null container (the contract's
/// shared rule: a null row satisfies no array function).
pub(crate) fn array_stats(
    function: ArrayFunction,
    column: &StatsColumn,
    literals: &dyn Array,
) -> RuleBits {
    let nulls = literals.logical_null_count();
    match function {
        // Java's LeafBinaryFunction: a null literal prunes only with a
        // known null count, as a comparison's.
        ArrayFunction::Contains if nulls > 0 => column.null_literal(),
        ArrayFunction::ContainsAll if nulls > 0 => column.no_row(),
        ArrayFunction::Overlap if nulls == literals.len() => column.no_row(),
        _ => column.by_nulls_only(),
    }
}

/// `Err` naming the function, the column type and the literal type unless
/// the column is a list whose elements are orderable and the literals have
/// the elements' value type.
pub(crate) fn check_array(
    name: &str,
    column: &DataType,
    literals: &dyn Array,
) -> Result<(), ArrowError> {
    let Some(element) = element_type(column) else {
        return Err(ArrowError::InvalidArgumentError(format!(
            "{name} needs a List, LargeList or FixedSizeList column, got {column}"
        )));
    };
    let want = value_type(element);
    if want.is_nested() || matches!(want, DataType::Dictionary(..) | DataType::RunEndEncoded(..)) {
        return Err(ArrowError::InvalidArgumentError(format!(
            "{name} cannot compare elements of type {element} (column {column})"
        )));
    }
    if literals.data_type() != want {
        return Err(ArrowError::InvalidArgumentError(format!(
            "{name}: literal type {} does not match the element type {want} of column {column}",
            literals.data_type()
        )));
    }
    Ok(())
}
