//! Filters a 1 Mi-row `RecordBatch` with four Paimon-style predicate leaves
//! and ANDs their byte masks:
//!
//! ```text
//! city IN ('Paris', 'Oslo', 'Lima')  AND  price BETWEEN 10.0 AND 50.0
//!   AND  id NOT IN (...1,000 ids)  AND  name STARTS WITH 'Ka'
//! ```
//!
//! and shows `price < 50.0` and `name LIKE 'K_r%'` on their own. Each leaf is
//! timed next to the baseline it replaces: the arrow-rs kernels followed by a
//! per-row `is_null` / `value` loop (for the short IN list, the OR of `eq`
//! kernels and then that loop; for Between, `gt_eq` AND `lt_eq`; for the
//! 1,000-id NOT IN, which has no arrow-rs kernel, a per-row loop probing a
//! `std` `HashSet`; for Like, arrow-string's `like`, whose `_` is not Java's
//! but agrees on these names).
//!
//! `cargo run --release --features arrow --example filter_batch`

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int64Array, RecordBatch, Scalar,
    StringArray,
};
use arrow_ord::cmp;
use bitbytes::arrow::{
    CompareOp, Function, LeafFunction, MultiLiteralsLeafFunction, NullFalseLeafBinaryFunction,
};
use std::collections::HashSet;
use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;
const CITIES: [&str; 8] = [
    "Paris", "Oslo", "Lima", "Tokyo", "Cairo", "Quito", "Perth", "Dakar",
];
const NAMES: [&str; 8] = [
    "Karin", "Kai", "Mara", "Kerstin", "Ola", "Kurt", "Ines", "Karl",
];

fn batch() -> Result<RecordBatch, Box<dyn Error>> {
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let id: Int64Array = (0..ROWS as i64).collect();
    let city: DictionaryArray<Int32Type> =
        (0..ROWS).map(|_| CITIES[(next() % 8) as usize]).collect();
    let price: Float64Array = (0..ROWS)
        .map(|_| {
            let r = next();
            (r % 20 != 0).then(|| (r >> 16) as f64 % 10_000.0 / 100.0)
        })
        .collect();
    let name: StringArray = (0..ROWS)
        .map(|i| {
            let r = next();
            (r % 50 != 0).then(|| format!("{}{}", NAMES[(r >> 8) as usize % 8], i % 1000))
        })
        .collect();
    Ok(RecordBatch::try_from_iter([
        ("id", Arc::new(id) as ArrayRef),
        ("city", Arc::new(city) as ArrayRef),
        ("price", Arc::new(price) as ArrayRef),
        ("name", Arc::new(name) as ArrayRef),
    ])?)
}

/// The loop the leaf functions replace.
fn per_row(result: &BooleanArray, negate: bool) -> Vec<u8> {
    (0..result.len())
        .map(|i| u8::from(!result.is_null(i) && result.value(i) != negate))
        .collect()
}

/// Best of five runs.
fn time<T>(mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..5 {
        let start = Instant::now();
        let r = f();
        best = best.min(start.elapsed());
        out = Some(r);
    }
    (out.expect("ran five times"), best)
}

/// IN by `eq` kernels OR-ed with arrow's boolean `or`, then the per-row loop.
fn in_baseline(column: &dyn Array, literals: &dyn Array, negate: bool) -> Vec<u8> {
    let mut acc: Option<BooleanArray> = None;
    for i in 0..literals.len() {
        let eq = cmp::eq(&column, &Scalar::new(literals.slice(i, 1))).expect("eq");
        acc = Some(match acc {
            None => eq,
            Some(a) => BooleanArray::new(a.values() | eq.values(), eq.nulls().cloned()),
        });
    }
    per_row(&acc.expect("non-empty list"), negate)
}

/// IN by a per-row loop probing a `HashSet` of the literals.
fn hash_baseline(column: &dyn Array, literals: &dyn Array, negate: bool) -> Vec<u8> {
    let column = column.as_primitive::<Int64Type>();
    let set: HashSet<i64> = literals
        .as_primitive::<Int64Type>()
        .iter()
        .flatten()
        .collect();
    (0..column.len())
        .map(|i| u8::from(!column.is_null(i) && set.contains(&column.value(i)) != negate))
        .collect()
}

fn report(name: &str, leaf: Duration, baseline: Duration, selected: usize) {
    println!(
        "{name:<24} {selected:>8} rows  leaf {:>7.3} ms  baseline {:>7.3} ms  ({:.1}x faster)",
        leaf.as_secs_f64() * 1e3,
        baseline.as_secs_f64() * 1e3,
        baseline.as_secs_f64() / leaf.as_secs_f64()
    );
}

fn main() -> Result<(), Box<dyn Error>> {
    let batch = batch()?;
    let (id, city, price, name) = (
        batch.column(0),
        batch.column(1),
        batch.column(2),
        batch.column(3),
    );
    println!("{} rows", batch.num_rows());

    // city IN ('Paris', 'Oslo', 'Lima'): the dictionary values are tested once.
    let cities = StringArray::from(vec!["Paris", "Oslo", "Lima"]);
    let is_in = MultiLiteralsLeafFunction::new(false);
    let (city_mask, t_leaf) = time(|| is_in.test(city, &cities));
    let city_mask = city_mask?;
    let (base, t_base) = time(|| in_baseline(city, &cities, false));
    assert_eq!(city_mask, base);
    report("city IN (3 cities)", t_leaf, t_base, count(&city_mask));

    // price < 50.0
    let fifty = Float64Array::from(vec![50.0]);
    let lt = NullFalseLeafBinaryFunction::new(CompareOp::LessThan);
    let (price_mask, t_leaf) = time(|| lt.test(price, &fifty));
    let price_mask = price_mask?;
    let (base, t_base) =
        time(|| per_row(&cmp::lt(price, &Scalar::new(&fifty)).expect("lt"), false));
    assert_eq!(price_mask, base);
    report("price < 50.0", t_leaf, t_base, count(&price_mask));

    // price BETWEEN 10.0 AND 50.0: one fused pass.
    let bounds = Float64Array::from(vec![10.0, 50.0]);
    let (price_mask, t_leaf) = time(|| Function::Between.test(price, &bounds));
    let price_mask = price_mask?;
    let (base, t_base) = time(|| {
        let lo = cmp::gt_eq(price, &Scalar::new(Float64Array::from(vec![10.0]))).expect("gt_eq");
        let hi = cmp::lt_eq(price, &Scalar::new(&fifty)).expect("lt_eq");
        per_row(
            &BooleanArray::new(lo.values() & hi.values(), lo.nulls().cloned()),
            false,
        )
    });
    assert_eq!(price_mask, base);
    report(
        "price BETWEEN 10 AND 50",
        t_leaf,
        t_base,
        count(&price_mask),
    );

    // name STARTS WITH 'Ka': arrow-string's kernel, then bytes.
    let ka = StringArray::from(vec!["Ka"]);
    let (name_mask, t_leaf) = time(|| Function::StartsWith.test(name, &ka));
    let name_mask = name_mask?;
    let (base, t_base) = time(|| {
        per_row(
            &arrow_string::like::starts_with(name, &Scalar::new(&ka)).expect("starts_with"),
            false,
        )
    });
    assert_eq!(name_mask, base);
    report("name STARTS WITH 'Ka'", t_leaf, t_base, count(&name_mask));

    // name LIKE 'K_r%': Java's Like, run by the crate's matcher (no regex).
    let pattern = StringArray::from(vec!["K_r%"]);
    let (like_mask, t_leaf) = time(|| Function::Like.test(name, &pattern));
    let like_mask = like_mask?;
    // The baseline: arrow-string's `like` and the row loop. Its `_` also
    // matches line terminators (Java's does not); these names have none.
    let (base, t_base) = time(|| {
        per_row(
            &arrow_string::like::like(name, &Scalar::new(&pattern)).expect("like"),
            false,
        )
    });
    assert_eq!(like_mask, base);
    report("name LIKE 'K_r%'", t_leaf, t_base, count(&like_mask));

    // id NOT IN (1,000 ids): the hash-set strategy.
    let ids: Int64Array = (0..1000i64).map(|i| i * 1009).collect();
    let not_in = MultiLiteralsLeafFunction::new(true);
    let (id_mask, t_leaf) = time(|| not_in.test(id, &ids));
    let id_mask = id_mask?;
    let (base, t_base) = time(|| hash_baseline(id, &ids, true));
    assert_eq!(id_mask, base);
    report("id NOT IN (1,000 ids)", t_leaf, t_base, count(&id_mask));

    // AND of the four byte masks.
    let selected: Vec<u8> = city_mask
        .iter()
        .zip(&price_mask)
        .zip(&id_mask)
        .zip(&name_mask)
        .map(|(((a, b), c), d)| a & b & c & d)
        .collect();
    println!("{:<24} {:>8} rows", "all four (AND)", count(&selected));
    Ok(())
}

fn count(mask: &[u8]) -> usize {
    mask.iter().map(|&b| usize::from(b)).sum()
}
