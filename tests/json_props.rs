//! Round trip of Paimon's predicate JSON on random predicates (feature
//! `json`): trees of every leaf function and every transform over a schema
//! of many types, with literals from edge-value domains and nulls
//! (tests/support/json_gen.rs). For each:
//! - `from_paimon_json(to_paimon_json(p)) == p`, and writing the parsed
//!   predicate gives the same bytes;
//! - without the Paimon types of its field references (as built by hand),
//!   the written JSON reads back to the same predicate up to those types,
//!   and writes the same bytes again;
//! - the parsed predicate selects the same rows as the original on a random
//!   batch (or fails with the same error: a CAST of a value it cannot cast).

#[path = "support/json_gen.rs"]
mod json_gen;

use bitbytes::arrow::{Function, Predicate};
use json_gen::{batch, predicate, schema, untyped, Bytes};
use proptest::prelude::*;

/// Writes `p`, reads it back, and checks the bytes are stable; returns the
/// predicate read.
fn round_trip(p: &Predicate) -> Predicate {
    let schema = schema();
    let json = p
        .to_paimon_json(&schema)
        .unwrap_or_else(|e| panic!("{p:?}: {e}"));
    let back = Predicate::from_paimon_json(&json, &schema)
        .unwrap_or_else(|e| panic!("{json}\n  does not read back: {e}"));
    assert_eq!(
        back.to_paimon_json(&schema).unwrap(),
        json,
        "writing again differs"
    );
    back
}

/// The two predicates select the same rows of `batch`, or fail alike.
fn same_rows(a: &Predicate, b: &Predicate, batch: &arrow_array::RecordBatch) {
    match (a.test(batch), b.test(batch)) {
        (Ok(x), Ok(y)) => assert_eq!(x, y),
        (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string()),
        (x, y) => panic!("{x:?} vs {y:?}"),
    }
}

fn leaves(p: &Predicate, out: &mut Vec<Function>) {
    match p {
        Predicate::Leaf(l) => out.push(l.function),
        Predicate::And(c) | Predicate::Or(c) => c.iter().for_each(|c| leaves(c, out)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn from_json_of_to_json_is_the_predicate(
        tree in proptest::collection::vec(any::<u8>(), 0..160),
        rows in 0usize..24,
        data in proptest::collection::vec(any::<u8>(), 0..1200),
    ) {
        let p = predicate(&mut Bytes::new(&tree), 0);
        let back = round_trip(&p);
        prop_assert_eq!(&back, &p);

        let bare = untyped(&p);
        let read = round_trip(&bare);
        prop_assert_eq!(untyped(&read), bare.clone());

        let batch = batch(&mut Bytes::new(&data), rows);
        same_rows(&p, &back, &batch);
        same_rows(&bare, &read, &batch);
    }
}

/// The generator reaches every function and every transform: a round trip
/// that never saw one would prove nothing about it.
#[test]
fn the_generator_covers_every_function_and_transform() {
    let mut functions = Vec::new();
    let mut transforms = std::collections::BTreeSet::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..4000 {
        let bytes: Vec<u8> = (0..64)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        let p = predicate(&mut Bytes::new(&bytes), 0);
        leaves(&p, &mut functions);
        let json = p.to_paimon_json(&schema()).unwrap();
        for name in [
            "FIELD_REF",
            "CAST",
            "UPPER",
            "LOWER",
            "CONCAT",
            "CONCAT_WS",
            "SUBSTRING",
            "TRIM",
            "NULL",
        ] {
            if json.contains(&format!("\"name\":\"{name}\"")) {
                transforms.insert(name);
            }
        }
    }
    for f in Function::ALL {
        assert!(functions.contains(&f), "{f:?} never generated");
    }
    assert_eq!(transforms.len(), 9, "{transforms:?}");
}
