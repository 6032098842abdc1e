//! The string kernels (`string_match`: `=`, StartsWith, EndsWith,
//! Contains), Like's plain-text shapes over them and IN / NOT IN (every
//! `InStrategy`, a list of the literal and a few more, maybe a null), on
//! random columns in
//! every layout (Utf8 and LargeUtf8 from exact, unpadded buffers, Utf8View
//! over small data buffers, dictionaries with null keys and values,
//! run-end encodings), whole and sliced, against the row-by-row oracle.
#![no_main]

#[path = "../../tests/support/string_columns.rs"]
mod string_columns;

use arrow_array::{Array, StringArray};
use bitbytes::arrow::{
    string_match, Function, InStrategy, LeafFunction, MultiLiteralsLeafFunction, StringMatch,
};
use libfuzzer_sys::fuzz_target;
use string_columns::{layouts, literals_of, oracle};

/// Rows and literals are spelt from these pieces (multi-byte included, so
/// prefixes end inside characters).
const PIECES: [&str; 8] = ["a", "b", "ab", "é", "中", "abcdefgh", "%", "_"];

/// A string from the bits of `code`, `n` pieces long.
fn spell(bytes: &mut impl Iterator<Item = u8>, n: usize) -> String {
    (0..n)
        .map(|_| PIECES[usize::from(bytes.next().unwrap_or(0)) % PIECES.len()])
        .collect()
}

/// The Like pattern that reduces to `test` of `lit`.
fn like_pattern(test: StringMatch, lit: &str) -> String {
    let mut e = String::new();
    for c in lit.chars() {
        if matches!(c, '%' | '_' | '\\') {
            e.push('\\');
        }
        e.push(c);
    }
    match test {
        StringMatch::Equal => e,
        StringMatch::StartsWith => format!("{e}%"),
        StringMatch::EndsWith => format!("%{e}"),
        StringMatch::Contains => format!("%{e}%"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let lit_len = usize::from(bytes.next().unwrap_or(0) % 8);
    let lit = spell(&mut bytes, lit_len);
    let offset = usize::from(bytes.next().unwrap_or(0) % 8);
    // The IN list: the literal, then up to 7 more (a null among them when
    // the count byte says so).
    let count = bytes.next().unwrap_or(0);
    let mut list = vec![Some(lit.clone())];
    for i in 0..usize::from(count % 8) {
        let n = usize::from(bytes.next().unwrap_or(0) % 12);
        list.push((count & 0x80 == 0 || i != 0).then(|| spell(&mut bytes, n)));
    }
    let mut rows: Vec<Option<String>> = Vec::new();
    while let Some(b) = bytes.next() {
        if rows.len() >= 300 {
            break;
        }
        rows.push(match b % 8 {
            0 => None,
            1 => Some(lit.clone()),
            2 => {
                let s = spell(&mut bytes, usize::from(b / 8 % 4));
                Some(format!("{lit}{s}"))
            }
            3 => {
                let s = spell(&mut bytes, usize::from(b / 8 % 4));
                Some(format!("{s}{lit}"))
            }
            4 => {
                // The literal inside a row (the Contains scan's candidates).
                let s = spell(&mut bytes, usize::from(b / 8 % 4));
                let t = spell(&mut bytes, usize::from(b / 32 % 4));
                Some(format!("{s}{lit}{t}"))
            }
            _ => Some(spell(&mut bytes, usize::from(b / 8 % 12))),
        });
    }
    let offset = offset.min(rows.len());
    for (name, column) in layouts(&rows) {
        let sliced = column.slice(offset, rows.len() - offset);
        for (column, rows) in [
            (column.as_ref(), &rows[..]),
            (sliced.as_ref(), &rows[offset..]),
        ] {
            for test in StringMatch::ALL {
                let bits = string_match(column, test, &lit).unwrap();
                assert_eq!(bits.len(), rows.len());
                for (i, r) in rows.iter().enumerate() {
                    if let Some(want) = oracle(test, r.as_deref(), &lit) {
                        assert_eq!(bits.value(i), want, "{name} {test:?} {lit:?} row {i} {r:?}");
                    }
                }
                let pattern = StringArray::from(vec![like_pattern(test, &lit)]);
                let got = Function::Like.test(column, &pattern).unwrap();
                let want: Vec<u8> = rows
                    .iter()
                    .map(|r| u8::from(oracle(test, r.as_deref(), &lit) == Some(true)))
                    .collect();
                assert_eq!(got, want, "{name} Like {test:?} {lit:?}");
            }
            let literals = literals_of(column, &list);
            let has_null = list.contains(&None);
            for negate in [false, true] {
                let want: Vec<u8> = rows
                    .iter()
                    .map(|r| match r {
                        None => 0,
                        Some(r) => {
                            let hit = list.iter().flatten().any(|l| l == r);
                            u8::from(if negate { !hit && !has_null } else { hit })
                        }
                    })
                    .collect();
                for s in [InStrategy::Auto, InStrategy::OrOfEq, InStrategy::Hash] {
                    let f = MultiLiteralsLeafFunction::new(negate).with_strategy(s);
                    let got = f.test(column, &literals).unwrap();
                    assert_eq!(got, want, "{name} IN {list:?} {s:?} negate {negate}");
                }
            }
        }
    }
});
