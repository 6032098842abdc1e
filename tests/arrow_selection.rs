//! `selection_indices` against the row-by-row definition through the
//! accessors it replaces: the `i` with `array.is_valid(i) && array.value(i)
//! != negate`, and `take` with it against `filter`.
#![cfg(feature = "arrow")]

use arrow_array::{Array, BooleanArray, Int32Array, UInt32Array};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_select::{filter::filter, take::take};
use bitbytes::arrow::selection_indices;
use proptest::prelude::*;

/// The definition, through the per-row accessors.
fn reference(array: &BooleanArray, negate: bool) -> Vec<u32> {
    (0..array.len())
        .filter(|&i| array.is_valid(i) && array.value(i) != negate)
        .map(|i| i as u32)
        .collect()
}

fn check(array: &BooleanArray) {
    for negate in [false, true] {
        let got = selection_indices(array, negate).unwrap();
        assert_eq!(got.null_count(), 0);
        assert_eq!(got, UInt32Array::from(reference(array, negate)));
    }
}

#[test]
fn every_slice_of_a_300_row_array_with_nulls() {
    let array: BooleanArray = (0..300)
        .map(|i| (i % 5 != 3).then_some(i % 7 < 3 || i % 11 == 0))
        .collect();
    for offset in 0..=150 {
        for len in [0, 1, 7, 63, 64, 65, 128, 150] {
            check(&array.slice(offset, len));
        }
    }
}

#[test]
fn values_and_nulls_with_different_offsets() {
    let values = BooleanBuffer::from_iter((0..9000).map(|i| i % 7 < 3 || i % 13 == 1));
    let validity = BooleanBuffer::from_iter((0..9000).map(|i| i % 5 != 2));
    for values_offset in [0, 1, 5, 8, 63, 64, 100] {
        for nulls_offset in [0, 3, 8, 13, 64, 99] {
            for len in [0, 1, 9, 64, 65, 200, 4096, 8000] {
                let array = BooleanArray::new(
                    values.slice(values_offset, len),
                    Some(NullBuffer::new(validity.slice(nulls_offset, len))),
                );
                check(&array);
            }
        }
    }
}

#[test]
fn no_nulls_all_nulls_empty() {
    check(&BooleanArray::from(vec![true, false, true, true]));
    check(&BooleanArray::from(vec![None, None, None]));
    check(&BooleanArray::from(Vec::<bool>::new()));
    check(&BooleanArray::from(vec![true; 5000]));
}

proptest! {
    #[test]
    fn take_with_the_indices_equals_filter(
        rows in proptest::collection::vec(proptest::option::of(any::<bool>()), 0..3000),
        offset in 0usize..64,
    ) {
        let offset = offset.min(rows.len());
        let predicate = BooleanArray::from(rows.clone()).slice(offset, rows.len() - offset);
        let column = Int32Array::from_iter_values(0..predicate.len() as i32);
        let idx = selection_indices(&predicate, false).unwrap();
        let taken = take(&column, &idx, None).unwrap();
        // `filter` drops null predicate rows, as the indices do.
        let filtered = filter(&column, &predicate).unwrap();
        prop_assert_eq!(taken.as_ref(), filtered.as_ref());
        check(&predicate);
    }
}
