//! `unpack_boolean_array` / `boolean_array_to_bytes` against the row-by-row
//! definition through the accessors they replace:
//! `out[i] = array.is_valid(i) && array.value(i) != negate`.
#![cfg(feature = "arrow")]

use arrow_array::{Array, BooleanArray};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use bitbytes::arrow::{boolean_array_to_bytes, unpack_boolean_array};
use bitbytes::Error;
use proptest::prelude::*;

/// The definition, through the per-row accessors.
fn reference(array: &BooleanArray, negate: bool) -> Vec<u8> {
    (0..array.len())
        .map(|i| u8::from(array.is_valid(i) && array.value(i) != negate))
        .collect()
}

/// Checks both entry points on `array`, with guard bytes after the output.
fn check(array: &BooleanArray) {
    for negate in [false, true] {
        let want = reference(array, negate);
        assert_eq!(boolean_array_to_bytes(array, negate), want);
        let mut out = vec![0xA5u8; array.len() + 5];
        unpack_boolean_array(array, negate, &mut out).unwrap();
        assert_eq!(&out[..array.len()], &want[..]);
        assert!(out[array.len()..].iter().all(|&b| b == 0xA5));
    }
}

/// Values with period 7 and nulls with period 5: neither divides 8, so every
/// slice starts at a different phase of both.
fn periodic(len: usize) -> BooleanArray {
    (0..len)
        .map(|i| (i % 5 != 3).then_some(i % 7 < 3 || i % 11 == 0))
        .collect()
}

#[test]
fn every_slice_of_a_200_row_array_with_nulls() {
    let array = periodic(200);
    assert!(array.null_count() > 0);
    for offset in 0..=200 {
        for len in 0..=200 - offset {
            check(&array.slice(offset, len));
        }
    }
}

#[test]
fn values_and_nulls_with_different_offsets() {
    let values = BooleanBuffer::from_iter((0..300).map(|i| i % 7 < 3 || i % 13 == 1));
    let validity = BooleanBuffer::from_iter((0..300).map(|i| i % 5 != 2));
    for values_offset in 0..70 {
        for nulls_offset in [0, 1, 3, 8, 13, 63, 64, 65, 99] {
            for len in [0, 1, 7, 8, 9, 63, 64, 65, 130, 200] {
                let array = BooleanArray::new(
                    values.slice(values_offset, len),
                    Some(NullBuffer::new(validity.slice(nulls_offset, len))),
                );
                check(&array);
                // And sliced again on top.
                if len > 2 {
                    check(&array.slice(1, len - 2));
                }
            }
        }
    }
}

#[test]
fn no_nulls_and_all_nulls() {
    let values: Vec<bool> = (0..200).map(|i| i % 3 == 0).collect();
    let no_nulls = BooleanArray::from(values.clone());
    assert!(no_nulls.nulls().is_none());
    let all_nulls = BooleanArray::new(BooleanBuffer::from(values), Some(NullBuffer::new_null(200)));
    for offset in [0, 1, 5, 64, 77] {
        for len in [0, 1, 60, 123 - offset / 2] {
            check(&no_nulls.slice(offset, len));
            check(&all_nulls.slice(offset, len));
            assert!(boolean_array_to_bytes(&all_nulls.slice(offset, len), true)
                .iter()
                .all(|&b| b == 0));
        }
    }
    check(&BooleanArray::new_null(100));
    check(&BooleanArray::from(Vec::<bool>::new()));
}

#[test]
fn output_too_short_is_an_error_and_writes_nothing() {
    let array = periodic(70);
    let mut out = vec![7u8; 69];
    assert_eq!(
        unpack_boolean_array(&array, false, &mut out),
        Err(Error::OutputTooShort {
            needed: 70,
            actual: 69
        })
    );
    assert!(out.iter().all(|&b| b == 7));
}

proptest! {
    #[test]
    fn random_arrays_match_the_accessors(
        rows in proptest::collection::vec((any::<bool>(), any::<bool>()), 0..400),
        values_offset in 0usize..80,
        nulls_offset in 0usize..80,
        with_nulls in any::<bool>(),
    ) {
        let len = rows.len();
        let pad = |off: usize, bits: Vec<bool>| {
            let mut all = vec![true; off];
            all.extend(bits);
            BooleanBuffer::from(all).slice(off, len)
        };
        let values = pad(values_offset, rows.iter().map(|r| r.0).collect());
        let nulls = with_nulls
            .then(|| NullBuffer::new(pad(nulls_offset, rows.iter().map(|r| r.1).collect())));
        let array = BooleanArray::new(values, nulls);
        for negate in [false, true] {
            prop_assert_eq!(boolean_array_to_bytes(&array, negate), reference(&array, negate));
        }
    }
}
