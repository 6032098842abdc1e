//! `NullFalseLeafBinaryFunction` against a row-by-row reference over every
//! listed type, sliced columns, null literals and every error case.
#![cfg(feature = "arrow")]

mod common;

use arrow_array::*;
use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use bitbytes::arrow::{CompareOp, LeafFunction, NullFalseLeafBinaryFunction};
use common::{all_cases, holds, invalid_argument, slices, Case};
use std::sync::Arc;

fn reference(case: &dyn Case, offset: usize, len: usize, op: CompareOp, lit: usize) -> Vec<u8> {
    (offset..offset + len)
        .map(|r| u8::from(case.cmp_row(r, lit).is_some_and(|o| holds(op, o))))
        .collect()
}

#[test]
fn every_comparison_over_every_type_and_slice() {
    for case in all_cases() {
        let column = case.column();
        for (offset, len) in slices(case.len()) {
            let sliced = column.slice(offset, len);
            for op in CompareOp::ALL {
                let leaf = NullFalseLeafBinaryFunction::new(op);
                for lit in 0..case.domain_len() {
                    // A second literal is ignored: only literals[0] counts.
                    let literals = case.literals(&[Some(lit), Some(0)]);
                    let got = leaf.test(&sliced, &literals).unwrap();
                    let want = reference(case.as_ref(), offset, len, op, lit);
                    assert_eq!(
                        got,
                        want,
                        "{} {op:?} lit #{lit} slice {offset}+{len}",
                        case.name()
                    );
                    // The negation selects the other non-null rows.
                    let neg = leaf.negate().test(&sliced, &literals).unwrap();
                    let want_neg = reference(case.as_ref(), offset, len, op.negate(), lit);
                    assert_eq!(neg, want_neg, "{} negated {op:?}", case.name());
                    // test_into leaves the bytes past the column alone.
                    let mut out = vec![0xA5u8; len + 3];
                    leaf.test_into(&sliced, &literals, &mut out).unwrap();
                    assert_eq!(&out[..len], &want[..]);
                    assert_eq!(&out[len..], &[0xA5; 3]);
                }
                // A null literal selects nothing, for the function and its negation.
                let null = case.literals(&[None, Some(0)]);
                assert!(leaf.test(&sliced, &null).unwrap().iter().all(|&b| b == 0));
                assert!(leaf
                    .negate()
                    .test(&sliced, &null)
                    .unwrap()
                    .iter()
                    .all(|&b| b == 0));
            }
        }
    }
}

#[test]
fn floats_follow_the_total_order() {
    let column = Float64Array::from(vec![-0.0, 0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
    let lit = |v: f64| Float64Array::from(vec![v]);
    let run = |op, v| {
        NullFalseLeafBinaryFunction::new(op)
            .test(&column, &lit(v))
            .unwrap()
    };
    assert_eq!(
        run(CompareOp::LessThan, 0.0),
        [1, 0, 0, 0, 1],
        "-0.0 < +0.0"
    );
    assert_eq!(
        run(CompareOp::Equal, -0.0),
        [1, 0, 0, 0, 0],
        "-0.0 only equals itself"
    );
    assert_eq!(
        run(CompareOp::Equal, f64::NAN),
        [0, 0, 1, 0, 0],
        "NaN == NaN"
    );
    assert_eq!(
        run(CompareOp::GreaterThan, f64::INFINITY),
        [0, 0, 1, 0, 0],
        "NaN > +inf"
    );
    let column = Float32Array::from(vec![-0.0f32, 0.0, f32::NAN]);
    let leaf = NullFalseLeafBinaryFunction::new(CompareOp::GreaterOrEqual);
    assert_eq!(
        leaf.test(&column, &Float32Array::from(vec![0.0f32]))
            .unwrap(),
        [0, 1, 1]
    );
}

#[test]
fn values_and_nulls_with_different_offsets_in_the_kernel_result() {
    // A column whose null buffer has its own offset: the kernel passes it
    // through to the result, so the unpack must honour both offsets.
    let values: ScalarBuffer<i64> = (0..200i64).collect();
    let validity = BooleanBuffer::from_iter((0..300).map(|i| i % 3 != 0));
    for nulls_offset in [0, 1, 5, 64, 77] {
        let nulls = NullBuffer::new(validity.slice(nulls_offset, 200));
        let column = Int64Array::new(values.clone(), Some(nulls.clone())).slice(3, 150);
        let got = NullFalseLeafBinaryFunction::new(CompareOp::LessThan)
            .test(&column, &Int64Array::from(vec![100]))
            .unwrap();
        let want: Vec<u8> = (3..153)
            .map(|i| u8::from(nulls.is_valid(i) && (i as i64) < 100))
            .collect();
        assert_eq!(got, want, "nulls offset {nulls_offset}");
    }
}

#[test]
fn no_nulls_and_all_nulls() {
    let no_nulls = Int32Array::from((0..100).collect::<Vec<i32>>());
    let all_nulls = Int32Array::new_null(100);
    let leaf = NullFalseLeafBinaryFunction::new(CompareOp::GreaterOrEqual);
    let lit = Int32Array::from(vec![40]);
    let got = leaf.test(&no_nulls, &lit).unwrap();
    assert_eq!(got, (0..100).map(|i| u8::from(i >= 40)).collect::<Vec<_>>());
    assert_eq!(leaf.test(&all_nulls, &lit).unwrap(), vec![0; 100]);
    assert_eq!(leaf.negate().test(&all_nulls, &lit).unwrap(), vec![0; 100]);
}

#[test]
fn errors_never_panic_and_write_nothing() {
    let column = Int64Array::from(vec![Some(1), None, Some(3)]);
    let leaf = NullFalseLeafBinaryFunction::new(CompareOp::Equal);
    let mut out = [7u8; 3];

    // No literal at all.
    let msg = invalid_argument(
        leaf.test_into(&column, &Int64Array::from(Vec::<i64>::new()), &mut out)
            .unwrap_err(),
    );
    assert!(msg.contains("none"), "{msg}");

    // Literal type differs from the column's.
    let msg = invalid_argument(
        leaf.test_into(&column, &StringArray::from(vec!["1"]), &mut out)
            .unwrap_err(),
    );
    assert_eq!(
        msg,
        "literal type Utf8 does not match column value type Int64"
    );
    let msg = invalid_argument(leaf.test(&column, &Int32Array::from(vec![1])).unwrap_err());
    assert!(msg.contains("Int32") && msg.contains("Int64"), "{msg}");
    // Even a null literal of the wrong type is an error.
    assert!(leaf
        .test(&column, &Float64Array::from(vec![None::<f64>]))
        .is_err());
    // Decimal precision and timestamp time zones are part of the type.
    let dec = Decimal128Array::from(vec![1i128])
        .with_precision_and_scale(10, 2)
        .unwrap();
    let dec_lit = Decimal128Array::from(vec![1i128])
        .with_precision_and_scale(12, 2)
        .unwrap();
    assert!(leaf.test(&dec, &dec_lit).is_err());

    // A dictionary column takes value-type literals, not dictionary ones.
    let dict: DictionaryArray<types::Int32Type> = vec!["a", "b"].into_iter().collect();
    let dict_lit: DictionaryArray<types::Int32Type> = vec!["a"].into_iter().collect();
    assert!(leaf.test(&dict, &dict_lit).is_err());
    assert_eq!(
        leaf.test(&dict, &StringArray::from(vec!["b"])).unwrap(),
        [0, 1]
    );

    // Output too short.
    let mut short = [7u8; 2];
    let msg = invalid_argument(
        leaf.test_into(&column, &Int64Array::from(vec![1]), &mut short)
            .unwrap_err(),
    );
    assert!(msg.contains("output too short"), "{msg}");
    assert_eq!(short, [7, 7]);

    // A type the kernels cannot compare (nested) is an error, not a panic.
    let list = ListArray::from_iter_primitive::<types::Int32Type, _, _>(vec![Some(vec![Some(1)])]);
    let list_lit: ArrayRef = Arc::new(list.clone());
    assert!(leaf.test(&list, &list_lit).is_err());

    assert_eq!(out, [7, 7, 7], "nothing written on error");
}

#[test]
fn negation_pairs() {
    for op in CompareOp::ALL {
        assert_eq!(op.negate().negate(), op);
        let leaf = NullFalseLeafBinaryFunction::new(op);
        assert_eq!(leaf.negate().op(), op.negate());
    }
    assert_eq!(CompareOp::Equal.negate(), CompareOp::NotEqual);
    assert_eq!(CompareOp::LessThan.negate(), CompareOp::GreaterOrEqual);
    assert_eq!(CompareOp::LessOrEqual.negate(), CompareOp::GreaterThan);
}
