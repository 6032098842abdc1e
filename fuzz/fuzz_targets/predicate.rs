//! Predicate trees (depth up to 3) decoded from the input over a batch of an
//! Int64, a Float64 with NaNs and nulls, a Utf8 and a dictionary column,
//! against the row-by-row model of tests/support/predicate_model.rs: the
//! same bytes under every `Narrowing`, on a sliced batch, negated, and
//! filtered; never a panic.
#![no_main]

#[path = "../../tests/support/predicate_model.rs"]
mod model;

use bitbytes::arrow::Narrowing;
use libfuzzer_sys::fuzz_target;
use model::{Bytes, Spec, Table};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, tree) = data.split_at(4);
    let rows = usize::from(u16::from_le_bytes([head[0], head[1]]) % 600);
    let offset = usize::from(head[2]).min(rows);
    let table = Table::random(rows, u64::from(head[3]));
    let spec = Spec::decode(&mut Bytes::new(tree), 0);
    let predicate = spec.predicate();
    let want = spec.eval(&table);
    let batch = table.batch();
    let sliced = batch.slice(offset, rows - offset);
    for narrowing in [Narrowing::Auto, Narrowing::Gather, Narrowing::Whole] {
        assert_eq!(
            predicate.test_with(&batch, narrowing).unwrap(),
            want,
            "{predicate:?}"
        );
        assert_eq!(
            predicate.test_with(&sliced, narrowing).unwrap(),
            want[offset..]
        );
    }
    let kept = predicate.filter(&batch).unwrap();
    assert!(Table::from_batch(&kept).same(&table.select(&want)));
    match (predicate.negate(), spec.negate()) {
        (None, None) => {}
        (Some(negated), Some(model)) => {
            assert_eq!(negated, model.predicate());
            assert_eq!(negated.test(&batch).unwrap(), model.eval(&table));
        }
        (got, model) => panic!("negate: {got:?}, the model: {model:?}"),
    }
});
