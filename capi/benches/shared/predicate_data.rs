//! The batch and the predicates of `capi/benches/predicate.rs`, shared with
//! `capi/examples/c_cost.rs` (included by `#[path]` in both).

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use std::sync::Arc;

#[path = "../../../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const FIELD_X: &str = r#"{"name":"FIELD_REF","fieldRef":{"index":0,"name":"x","type":"BIGINT"}}"#;
const FIELD_S: &str = r#"{"name":"FIELD_REF","fieldRef":{"index":1,"name":"s","type":"STRING"}}"#;

fn leaf(field: &str, function: &str, literals: &str) -> String {
    format!(
        r#"{{"kind":"LEAF","transform":{field},"function":"{function}","literals":[{literals}]}}"#
    )
}

/// `x` pseudo-random in [0, 1000) with 5% nulls, `s` short strings.
pub fn batch(rows: usize) -> RecordBatch {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next_u64();
    let x: Int64Array = (0..rows)
        .map(|_| {
            let r = next();
            (r % 20 != 0).then_some((r >> 8) as i64 % 1000)
        })
        .collect();
    let s: StringArray = (0..rows)
        .map(|_| Some(["ab", "abc", "b", "zz"][next() as usize % 4].to_string() + "xyz"))
        .collect();
    RecordBatch::try_from_iter([
        ("x", Arc::new(x) as ArrayRef),
        ("s", Arc::new(s) as ArrayRef),
    ])
    .unwrap()
}

/// The predicates by name: `x > 500`, `x > 500 AND s STARTS_WITH 'ab'`, and
/// `x IN` 8 values (about 0.8% of the rows).
pub fn predicates() -> [(&'static str, String); 3] {
    [
        ("x_gt", leaf(FIELD_X, "GREATER_THAN", "500")),
        (
            "x_gt_and_s_starts",
            format!(
                r#"{{"kind":"COMPOUND","function":"AND","children":[{},{}]}}"#,
                leaf(FIELD_X, "GREATER_THAN", "500"),
                leaf(FIELD_S, "STARTS_WITH", r#""ab""#)
            ),
        ),
        ("x_in", leaf(FIELD_X, "IN", "3,14,159,265,358,979,323,846")),
    ]
}
