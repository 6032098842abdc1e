//! The string kernels (`string_match`: `=`, StartsWith, EndsWith,
//! Contains), Like's plain-text shapes over them and IN / NOT IN (every
//! `InStrategy`, a list of the literal and a few more, maybe a null), on
//! random columns in
//! every layout (Utf8 and LargeUtf8 from exact, unpadded buffers, Utf8View
//! over small data buffers, dictionaries with null keys and values,
//! run-end encodings), whole and sliced, against the row-by-row oracle.
//! And `string_match_offsets` (and `string_match_utf8`, which also checks
//! the bytes are UTF-8) over the rows' own offsets and exact-size
//! bytes, then with one offset moved (out of order, negative, past the
//! data, inside a character): an `Err` exactly when the offsets are bad,
//! else the byte-wise oracle's bits, never a read outside the bytes.
#![no_main]

#[path = "../../tests/support/string_columns.rs"]
mod string_columns;

use arrow_array::{Array, StringArray};
use bitbytes::arrow::{
    string_match, string_match_offsets, string_match_utf8, Function, InStrategy, LeafFunction,
    MultiLiteralsLeafFunction, StringMatch, StringOffset,
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

/// `string_match_offsets` over `offsets` and `values`, every test: an
/// `Err` exactly when the offsets are bad (negative, decreasing or past the
/// bytes), else each row's bit as the byte-wise test says.
fn check_offsets<O: StringOffset>(offsets: &[O], values: &[u8], lit: &[u8]) {
    let at = |o: O| o.to_usize();
    let ok = offsets.first().is_none_or(|&f| f >= O::usize_as(0))
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets
            .last()
            .is_none_or(|&l| at(l).is_some_and(|l| l <= values.len()));
    // `string_match_utf8` refuses exactly what `string_match_offsets`
    // refuses and the rows that are not UTF-8, and agrees with it
    // otherwise.
    let text = ok
        && offsets
            .windows(2)
            .all(|w| core::str::from_utf8(&values[at(w[0]).unwrap()..at(w[1]).unwrap()]).is_ok());
    for test in StringMatch::ALL {
        let utf8 = string_match_utf8(offsets, values, test, lit);
        assert_eq!(utf8.is_ok(), text, "{test:?} {lit:?}: {utf8:?}");
        if let Ok(bits) = utf8 {
            let offsets_only = string_match_offsets(offsets, values, test, lit);
            assert_eq!(bits, offsets_only.expect("offsets that passed"));
        }
        match string_match_offsets(offsets, values, test, lit) {
            Err(e) => assert!(!ok, "{test:?} {lit:?}: {e}"),
            Ok(bits) => {
                assert!(ok, "{test:?} {lit:?}: bad offsets taken");
                assert_eq!(bits.len(), offsets.len().saturating_sub(1));
                for (j, w) in offsets.windows(2).enumerate() {
                    let row = &values[at(w[0]).unwrap()..at(w[1]).unwrap()];
                    let want = test.matches(row, lit);
                    assert_eq!(bits.value(j), want, "{test:?} {lit:?} row {j}");
                }
            }
        }
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
    // The rows' offsets and their bytes in a buffer of exactly their size
    // (AddressSanitizer sees a read past it), then one offset moved by -8
    // to +7 (the data's first bytes pick which and by how much).
    let mut offsets = vec![0i32];
    let mut values = Vec::new();
    for r in &rows {
        values.extend_from_slice(r.as_deref().unwrap_or("").as_bytes());
        offsets.push(values.len() as i32);
    }
    let values = values.into_boxed_slice();
    let pick = usize::from(data.get(1).copied().unwrap_or(0));
    let by = i32::from(data.get(2).copied().unwrap_or(0) as i8) / 16;
    let mut moved = offsets.clone();
    moved[pick % offsets.len()] += by;
    // And one byte of the values set to a byte that is not UTF-8 where it
    // lands (or is: a continuation byte, a lead byte, 0xff), or left as it
    // is (the data's fourth byte picks which).
    let mut bent = values.clone();
    if let (false, Some(&b)) = (bent.is_empty(), data.get(3)) {
        let at = usize::from(b) * 7 % bent.len();
        bent[at] = [0x80, 0xc3, 0xff, bent[at]][usize::from(b % 4)];
    }
    for o in [&offsets, &moved] {
        let large: Vec<i64> = o.iter().map(|&x| i64::from(x)).collect();
        for v in [&values, &bent] {
            check_offsets(o, v, lit.as_bytes());
            check_offsets(&large, v, lit.as_bytes());
            check_offsets(&o[offset.min(o.len() - 1)..], v, lit.as_bytes());
        }
    }
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
