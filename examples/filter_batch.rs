//! Filters a 1 Mi-row `RecordBatch` with a predicate tree built by
//! `PredicateBuilder`:
//!
//! ```text
//! city IN ('Paris', 'Oslo', 'Lima')  AND  price < 50.0  AND  name LIKE 'A%'
//! ```
//!
//! and times it against the per-row loop it replaces (each row's `is_valid`
//! / `value` accessors, the condition in plain Rust) and against evaluating
//! every leaf on every row and ANDing the bytes (the older Paimon
//! `And::Test`). The per-row loop is also the check: the example fails if
//! the predicate's bytes, or the rows `filter` keeps, differ from it.
//!
//! `cargo run --release --features arrow --example filter_batch`

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, DictionaryArray, Float64Array, Int64Array, RecordBatch, StringArray,
};
use bitbytes::arrow::{Narrowing, Predicate, PredicateBuilder};
use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 1 << 20;
/// 24 cities, so that `city IN` (three of them) selects one row in eight.
const CITIES: [&str; 24] = [
    "Paris", "Oslo", "Lima", "Tokyo", "Cairo", "Quito", "Perth", "Dakar", "Rome", "Bern", "Riga",
    "Kyiv", "Doha", "Male", "Suva", "Apia", "Baku", "Minsk", "Sofia", "Lagos", "Accra", "Hanoi",
    "Dhaka", "Seoul",
];
const NAMES: [&str; 12] = [
    "Ada", "Alan", "Anita", "Barbara", "Brian", "Claude", "Dennis", "Edsger", "Grace", "John",
    "Ken", "Tony",
];

fn batch() -> Result<RecordBatch, Box<dyn Error>> {
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let id: Int64Array = (0..ROWS as i64).collect();
    let city: DictionaryArray<Int32Type> =
        (0..ROWS).map(|_| CITIES[(next() % 24) as usize]).collect();
    let price: Float64Array = (0..ROWS)
        .map(|_| {
            let r = next();
            (r % 20 != 0).then(|| (r >> 16) as f64 % 10_000.0 / 100.0)
        })
        .collect();
    let name: StringArray = (0..ROWS)
        .map(|_| {
            let r = next();
            (r % 25 != 0).then(|| NAMES[(r >> 8) as usize % NAMES.len()])
        })
        .collect();
    Ok(RecordBatch::try_from_iter([
        ("id", Arc::new(id) as ArrayRef),
        ("city", Arc::new(city) as ArrayRef),
        ("price", Arc::new(price) as ArrayRef),
        ("name", Arc::new(name) as ArrayRef),
    ])?)
}

/// The loop the predicate replaces, and the example's reference: every row
/// through the arrays' accessors, the condition in plain Rust.
fn per_row(batch: &RecordBatch) -> Vec<u8> {
    let city = batch.column(1).as_dictionary::<Int32Type>();
    let city_names = city.values().as_string::<i32>();
    let price = batch.column(2).as_primitive::<Float64Type>();
    let name = batch.column(3).as_string::<i32>();
    (0..batch.num_rows())
        .map(|i| {
            let in_city = city.is_valid(i)
                && ["Paris", "Oslo", "Lima"]
                    .contains(&city_names.value(city.keys().value(i) as usize));
            let cheap = price.is_valid(i) && price.value(i) < 50.0;
            let a_name = name.is_valid(i) && name.value(i).starts_with('A');
            u8::from(in_city && cheap && a_name)
        })
        .collect()
}

/// Every leaf on every row, bytes ANDed (`Narrowing::Whole`; it stops early
/// only when no row is left).
fn all_leaves(pred: &Predicate, batch: &RecordBatch) -> Vec<u8> {
    pred.test_with(batch, Narrowing::Whole)
        .expect("a valid predicate")
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() -> Result<(), Box<dyn Error>> {
    let batch = batch()?;
    println!("{} rows", batch.num_rows());

    let p = PredicateBuilder::new(batch.schema());
    let pred = p.and(vec![
        p.is_in("city", &StringArray::from(vec!["Paris", "Oslo", "Lima"]))?,
        p.less_than("price", &Float64Array::new_scalar(50.0))?,
        p.like("name", "A%")?,
    ])?;

    let (bytes, t_pred) = time(|| pred.test(&batch));
    let bytes = bytes?;
    let (want, t_row) = time(|| per_row(&batch));
    assert_eq!(bytes, want, "the predicate differs from the per-row loop");
    let (whole, t_whole) = time(|| all_leaves(&pred, &batch));
    assert_eq!(whole, want);
    let (kept, t_filter) = time(|| pred.filter(&batch));
    let kept = kept?;
    let selected = want.iter().filter(|&&b| b == 1).count();
    assert_eq!(kept.num_rows(), selected);
    let ids = kept.column(0).as_primitive::<Int64Type>();
    let want_ids: Vec<i64> = (0..ROWS as i64)
        .filter(|&i| want[i as usize] == 1)
        .collect();
    assert_eq!(
        ids.values().as_ref(),
        want_ids.as_slice(),
        "filter kept other rows"
    );

    println!("{pred}");
    println!("{selected} rows selected");
    println!("Predicate::test            {:>8.3} ms", ms(t_pred));
    println!(
        "per-row loop (reference)   {:>8.3} ms  ({:.1}x the predicate's time)",
        ms(t_row),
        t_row.as_secs_f64() / t_pred.as_secs_f64()
    );
    println!(
        "whole columns (Whole)      {:>8.3} ms  ({:.1}x)",
        ms(t_whole),
        t_whole.as_secs_f64() / t_pred.as_secs_f64()
    );
    println!("Predicate::filter (4 cols) {:>8.3} ms", ms(t_filter));
    Ok(())
}
