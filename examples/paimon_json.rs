//! Take a predicate as Paimon Java sends it (JSON), evaluate it on a batch,
//! print the mask, and write the predicate back.
//!
//! `cargo run --example paimon_json --features json`

use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray};
use arrow_schema::ArrowError;
use bitbytes::arrow::Predicate;

fn main() -> Result<(), ArrowError> {
    let batch = RecordBatch::try_from_iter([
        (
            "f0",
            Arc::new(Int32Array::from(vec![Some(1), Some(7), None, Some(3)])) as ArrayRef,
        ),
        (
            "f2",
            Arc::new(StringArray::from(vec![
                Some("ab"),
                Some("xaby"),
                Some("b"),
                None,
            ])) as ArrayRef,
        ),
    ])?;
    // f0 = 7 OR f2 LIKE '%a%b%', as Paimon's JsonSerdeUtil writes it.
    let json = r#"{"kind":"COMPOUND","function":"OR","children":[{"kind":"LEAF","transform":{"name":"FIELD_REF","fieldRef":{"index":0,"name":"f0","type":"INT"}},"function":"EQUAL","literals":[7]},{"kind":"LEAF","transform":{"name":"FIELD_REF","fieldRef":{"index":1,"name":"f2","type":"STRING"}},"function":"LIKE","literals":["%a%b%"]}]}"#;
    let predicate = Predicate::from_paimon_json(json, batch.schema_ref())?;
    println!("predicate: {predicate}");
    println!("mask:      {:?}", predicate.test(&batch)?);
    let written = predicate.to_paimon_json(batch.schema_ref())?;
    println!("json:      {written}");
    assert_eq!(written, json);
    Ok(())
}
