//! Both leaf functions (comparison, IN / NOT IN with every strategy) on small
//! arrays built from the input, against a row-by-row reference that reads
//! plain Rust values: same bytes, never a panic.
#![no_main]

use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, Float64Array, Int32Array, StringArray};
use bitbytes::arrow::{
    CompareOp, InStrategy, LeafFunction, MultiLiteralsLeafFunction, NullFalseLeafBinaryFunction,
};
use libfuzzer_sys::fuzz_target;
use std::cmp::Ordering;
use std::sync::Arc;

const FLOATS: [f64; 8] = [
    f64::NEG_INFINITY,
    -1.0,
    -0.0,
    0.0,
    1.0,
    f64::INFINITY,
    f64::NAN,
    -f64::NAN,
];
const WORDS: [&str; 6] = [
    "",
    "a",
    "b",
    "ab",
    "twelve bytes",
    "a string past the inline prefix",
];
/// Builds `(column, literals)` of one type from value indices, and the order
/// of two indices under that type.
fn build(
    kind: u8,
    rows: &[Option<u8>],
    lits: &[Option<u8>],
) -> (ArrayRef, ArrayRef, fn(u8, u8) -> Ordering) {
    let int =
        |v: &[Option<u8>]| Int32Array::from_iter(v.iter().map(|x| x.map(|b| i32::from(b as i8))));
    let float = |v: &[Option<u8>]| {
        Float64Array::from_iter(v.iter().map(|x| x.map(|b| FLOATS[usize::from(b) % 8])))
    };
    let word = |x: &Option<u8>| x.map(|b| WORDS[usize::from(b) % 6]);
    match kind % 4 {
        0 => (Arc::new(int(rows)), Arc::new(int(lits)), |a, b| {
            (a as i8).cmp(&(b as i8))
        }),
        1 => (Arc::new(float(rows)), Arc::new(float(lits)), |a, b| {
            FLOATS[usize::from(a) % 8].total_cmp(&FLOATS[usize::from(b) % 8])
        }),
        2 => (
            Arc::new(rows.iter().map(word).collect::<StringArray>()),
            Arc::new(lits.iter().map(word).collect::<StringArray>()),
            |a, b| WORDS[usize::from(a) % 6].cmp(WORDS[usize::from(b) % 6]),
        ),
        _ => (
            Arc::new(rows.iter().map(word).collect::<DictionaryArray<Int8Type>>()),
            Arc::new(lits.iter().map(word).collect::<StringArray>()),
            |a, b| WORDS[usize::from(a) % 6].cmp(WORDS[usize::from(b) % 6]),
        ),
    }
}

fn holds(op: CompareOp, o: Ordering) -> bool {
    match op {
        CompareOp::Equal => o.is_eq(),
        CompareOp::NotEqual => o.is_ne(),
        CompareOp::LessThan => o.is_lt(),
        CompareOp::LessOrEqual => o.is_le(),
        CompareOp::GreaterThan => o.is_gt(),
        CompareOp::GreaterOrEqual => o.is_ge(),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, rest) = data.split_at(4);
    let n_lits = usize::from(head[1] % 12).min(rest.len());
    let (lit_bytes, row_bytes) = rest.split_at(n_lits);
    // Bit 7 of a byte makes it null; the low bits pick the value.
    let opt = |b: &u8| (b & 0x80 == 0).then_some(b & 0x7f);
    let rows: Vec<Option<u8>> = row_bytes.iter().map(opt).collect();
    let lits: Vec<Option<u8>> = lit_bytes.iter().map(opt).collect();
    let (column, literals, cmp) = build(head[0], &rows, &lits);
    let offset = usize::from(head[2]).min(rows.len());
    let len = rows.len() - offset;
    let column = column.slice(offset, len);
    let rows = &rows[offset..];

    // Comparison against literals[0].
    let op = CompareOp::ALL[usize::from(head[3]) % 6];
    let got = NullFalseLeafBinaryFunction::new(op).test(&column, &literals);
    match lits.first() {
        None => assert!(got.is_err()),
        Some(lit) => {
            let want: Vec<u8> = rows
                .iter()
                .map(|r| u8::from(matches!((r, lit), (Some(r), Some(l)) if holds(op, cmp(*r, *l)))))
                .collect();
            assert_eq!(got.unwrap(), want, "{op:?}");
        }
    }

    // IN / NOT IN with every strategy.
    let has_null = lits.contains(&None);
    for negate in [false, true] {
        let want: Vec<u8> = rows
            .iter()
            .map(|r| match r {
                None => 0,
                Some(r) => {
                    let hit = lits.iter().flatten().any(|l| cmp(*r, *l).is_eq());
                    u8::from(if negate { !hit && !has_null } else { hit })
                }
            })
            .collect();
        for s in [InStrategy::Auto, InStrategy::OrOfEq, InStrategy::Hash] {
            let leaf = MultiLiteralsLeafFunction::new(negate).with_strategy(s);
            assert_eq!(
                leaf.test(&column, &literals).unwrap(),
                want,
                "negate {negate} {s:?}"
            );
        }
    }
});
