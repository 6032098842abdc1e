//! Paimon's predicate JSON parser (`Predicate::from_paimon_json`) on
//! arbitrary bytes and on mutated valid predicates: never a panic; on what
//! parses, writing and reading back gives the same predicate, writing is
//! stable, and evaluating the predicate on a small batch (and on a slice of
//! it) returns, an `Err` or a mask, without a panic.
//!
//! The first byte picks the input:
//! - raw: the rest of the input as text, against the fixed schema of
//!   tests/support/json_gen.rs (27 columns of every type);
//! - generated: a random predicate of every function and transform decoded
//!   from the input (tests/support/json_gen.rs), written, then mutated
//!   (below), against the fixed schema;
//! - seed: one predicate of Paimon's own `PredicateJsonSerdeTest` (fixed
//!   schema, whose `f0`..`f3` are that test's columns) or of the committed
//!   oracle cases (tests/data/paimon/*.cases.jsonl, against the case's own
//!   schema and rows), mutated.
//!
//! The mutations are JSON-aware, driven by the input: delete a range,
//! insert a token (null, NaN, huge and negative numbers, brackets, type
//! strings, function and transform names, far dates, lone surrogates),
//! replace a string or a number with a token, duplicate a range, or splice
//! in a range of another seed.
#![no_main]

#[path = "../../tests/support/json_gen.rs"]
mod json_gen;
#[path = "../../tests/support/paimon_case.rs"]
mod paimon_case;

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use bitbytes::arrow::Predicate;
use json_gen::Bytes;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const SERDE_TEST: &str = include_str!("../../tests/data/paimon/predicate_json_serde_test.jsonl");
const CASES: [&str; 6] = [
    include_str!("../../tests/data/paimon/json.cases.jsonl"),
    include_str!("../../tests/data/paimon/transforms.cases.jsonl"),
    include_str!("../../tests/data/paimon/leaves.cases.jsonl"),
    include_str!("../../tests/data/paimon/arrays.cases.jsonl"),
    include_str!("../../tests/data/paimon/constants.cases.jsonl"),
    include_str!("../../tests/data/paimon/stats.cases.jsonl"),
];

/// Tokens the mutations insert or put in place of a string or a number.
const TOKENS: [&str; 44] = [
    "null",
    "true",
    "\"NaN\"",
    "\"-Infinity\"",
    "-0",
    "-0.0",
    "1e400",
    "-1e-400",
    "4.9E-324",
    "18446744073709551616",
    "-9223372036854775809",
    "2147483648",
    "300",
    "99999999999999999999999999999999999999.5",
    "0.00000000001",
    "\"12345678901234567890.0123456789\"",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "\"\"",
    "[]",
    "{}",
    "[2024,2,30]",
    "[2024,1,15,25,0]",
    "\"+10000-01-01T00:00\"",
    "\"-0001-12-31\"",
    "\"1970-01-01T00:00:00+18:00\"",
    "\"23:59:60\"",
    "\"INT NOT NULL\"",
    "\"DECIMAL(38, 10)\"",
    "\"TIMESTAMP(9) WITH LOCAL TIME ZONE\"",
    "{\"type\":\"ARRAY\",\"element\":\"INT\"}",
    "\"FIELD_REF\"",
    "\"CAST\"",
    "\"CONCAT_WS\"",
    "\"SUBSTRING\"",
    "\"TRIM\"",
    "\"NULL\"",
    "\"ARRAY_CONTAINS\"",
    "\"LIKE\"",
    "\"a\\\\\"",
    "\"COMPOUND\"",
    "{\"index\":0,\"name\":\"s\",\"type\":\"STRING\"}",
    "[",
    "}",
];

/// A seed: predicate text, and the schema and rows it is evaluated on.
struct Seed {
    text: String,
    batch: RecordBatch,
}

fn seeds() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let fixed = fixed_batch(&[]);
        let mut seeds: Vec<Seed> = SERDE_TEST
            .lines()
            .map(|line| Seed {
                text: line.to_string(),
                batch: fixed.clone(),
            })
            .collect();
        for line in CASES.iter().flat_map(|c| c.lines()) {
            let line = paimon_case::quote_non_finite(line);
            let Ok(case) = serde_json::from_str::<serde_json::Value>(&line) else {
                continue;
            };
            let (Some(text), Ok(batch)) = (
                paimon_case::raw_field(&line, "predicate"),
                paimon_case::batch(&case, paimon_case::StringLayout::Utf8),
            ) else {
                continue;
            };
            seeds.push(Seed { text, batch });
        }
        seeds
    })
}

/// 16 rows of the fixed schema from `data`.
fn fixed_batch(data: &[u8]) -> RecordBatch {
    json_gen::batch(&mut Bytes::new(data), 16)
}

/// The largest char boundary of `text` at or below `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A position in `text` from two input bytes.
fn position(g: &mut Bytes<'_>, text: &str) -> usize {
    let at = usize::from(u16::from_le_bytes([g.next(), g.next()]));
    boundary(text, at % (text.len() + 1))
}

/// The end of the JSON string or number token starting at `start`.
fn token_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    if bytes[start] == b'"' {
        let mut i = start + 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        (i + 1).min(bytes.len())
    } else {
        let mut i = start;
        while i < bytes.len() && matches!(bytes[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        {
            i += 1;
        }
        i
    }
}

/// One to four JSON-aware mutations of `text`, driven by `g`.
fn mutate(g: &mut Bytes<'_>, text: &mut String) {
    for _ in 0..1 + g.below(4) {
        let at = position(g, text);
        let token = TOKENS[g.below(TOKENS.len())];
        match g.below(6) {
            0 => {
                let end = boundary(text, at + 1 + g.below(24));
                text.replace_range(at..end, "");
            }
            1 => text.insert_str(at, token),
            2 | 3 => {
                // The next string (2) or number (3) from `at`.
                let string = g.next() & 1 == 0;
                let want = |c: char| {
                    if string {
                        c == '"'
                    } else {
                        c.is_ascii_digit() || c == '-'
                    }
                };
                if let Some(start) = text[at..].find(want).map(|i| i + at) {
                    let end = token_end(text, start);
                    text.replace_range(start..end, token);
                }
            }
            4 => {
                let end = boundary(text, at + g.below(64));
                let copy = text[at..end].to_string();
                let to = position(g, text);
                text.insert_str(to, &copy);
            }
            _ => {
                let seeds = seeds();
                let other = &seeds[g.below(seeds.len())].text;
                let from = position(g, other);
                let end = boundary(other, from + g.below(128));
                text.insert_str(at, &other[from..end]);
            }
        }
    }
}

/// Parses `text`; on success the round trip and evaluation must hold.
fn check(text: &str, schema: &Schema, batch: &RecordBatch) {
    let Ok(p) = Predicate::from_paimon_json(text, schema) else {
        return;
    };
    let json = p
        .to_paimon_json(schema)
        .unwrap_or_else(|e| panic!("{text}\n  parsed but does not write: {e}"));
    let back = Predicate::from_paimon_json(&json, schema)
        .unwrap_or_else(|e| panic!("{text}\n  wrote {json}\n  which does not read back: {e}"));
    assert_eq!(back, p, "{text}\n  wrote {json}");
    assert_eq!(
        back.to_paimon_json(schema).unwrap(),
        json,
        "{text}: writing is not stable"
    );
    let _ = p.test(batch);
    if batch.num_rows() > 1 {
        let _ = p.test(&batch.slice(1, batch.num_rows() - 1));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut g = Bytes::new(rest);
    match mode % 3 {
        0 => {
            let batch = fixed_batch(rest);
            check(&String::from_utf8_lossy(rest), &json_gen::schema(), &batch);
        }
        1 => {
            let schema = json_gen::schema();
            let predicate = json_gen::predicate(&mut g, 0);
            let mut text = predicate.to_paimon_json(&schema).unwrap();
            if mode & 4 != 0 {
                mutate(&mut g, &mut text);
            }
            check(&text, &schema, &fixed_batch(g.rest()));
        }
        _ => {
            let seeds = seeds();
            let seed = &seeds[usize::from(u16::from_le_bytes([g.next(), g.next()])) % seeds.len()];
            let mut text = seed.text.clone();
            if mode & 4 != 0 {
                mutate(&mut g, &mut text);
            }
            check(&text, seed.batch.schema_ref(), &seed.batch);
        }
    }
});
