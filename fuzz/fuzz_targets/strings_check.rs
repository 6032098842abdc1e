//! The checks the `strings` and `strings_chunks` fuzz targets share
//! ([`run`]): the string kernels (`string_match`: `=`, StartsWith,
//! EndsWith, Contains), Like's plain-text shapes over them and IN / NOT IN
//! (every `InStrategy`, a list of the literal and a few more, maybe a
//! null), on random columns in every layout (Utf8 and LargeUtf8 from
//! exact, unpadded buffers, Utf8View over small data buffers,
//! dictionaries with null keys and values, run-end encodings), whole and
//! sliced, against the row-by-row oracle. And `string_match_offsets` (and
//! `string_match_utf8`, which also checks the bytes are UTF-8) over the
//! rows' own offsets and exact-size bytes, then with one offset moved (out
//! of order, negative, past the data, inside a character): an `Err`
//! exactly when the offsets are bad, else the byte-wise oracle's bits,
//! never a read outside the bytes.

#[path = "../../tests/support/string_columns.rs"]
mod string_columns;

use arrow_array::{Array, StringArray};
use bitbytes::arrow::{
    string_match, string_match_offsets, string_match_utf8, Function, InStrategy, LeafFunction,
    MultiLiteralsLeafFunction, StringMatch, StringOffset,
};
use string_columns::{layouts, like_pattern, literals_of, oracle};

/// Rows and literals are spelt from these pieces (multi-byte included, so
/// prefixes end inside characters).
const PIECES: [&str; 8] = ["a", "b", "ab", "é", "中", "abcdefgh", "%", "_"];

/// A string from the bits of `code`, `n` pieces long.
fn spell(bytes: &mut impl Iterator<Item = u8>, n: usize) -> String {
    (0..n)
        .map(|_| PIECES[usize::from(bytes.next().unwrap_or(0)) % PIECES.len()])
        .collect()
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

/// Checks every kernel, Like shape and IN strategy on the rows `data`
/// spells (at most 300), or with `chunks` on those rows repeated to
/// 8,192-9,095 rows (bits 3-4 of the first byte pick the length: on a
/// word's end or inside one).
pub fn run(data: &[u8], chunks: bool) {
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
    // With `chunks`: the rows repeated past two 4096-row chunks (the
    // kernels' blocks of 64 words: the listed `=`'s blocks, Utf8View's
    // prefetch a chunk ahead), ending where bits 3-4 of the first byte
    // pick: on a word's end or inside one.
    // The distinct rows: those before any repeat.
    let base = rows.len();
    let tiled = chunks && !rows.is_empty();
    if tiled {
        let total = 8192 + 301 * usize::from(data[0] >> 3 & 3);
        rows = rows.iter().cycle().take(total).cloned().collect();
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
    // Long (tiled) inputs check the unchecked-against-checked offsets once
    // each way, not with every bent copy (those paths do not depend on the
    // length), so that they take a fraction of a second under ASan.
    let (offset_sets, value_sets) = if tiled {
        (&[&offsets][..], &[&values][..])
    } else {
        (&[&offsets, &moved][..], &[&values, &bent][..])
    };
    for &o in offset_sets {
        let large: Vec<i64> = o.iter().map(|&x| i64::from(x)).collect();
        for &v in value_sets {
            check_offsets(o, v, lit.as_bytes());
            check_offsets(&large, v, lit.as_bytes());
            check_offsets(&o[offset.min(o.len() - 1)..], v, lit.as_bytes());
        }
    }
    // The oracle's answers per distinct row, looked up by index: a tiled
    // input asks the oracle 300 times, not 9,000.
    let answers: Vec<[Option<bool>; 4]> = rows[..base]
        .iter()
        .map(|r| StringMatch::ALL.map(|test| oracle(test, r.as_deref(), &lit)))
        .collect();
    let has_null = list.contains(&None);
    let listed: Vec<Option<bool>> = rows[..base]
        .iter()
        .map(|r| r.as_ref().map(|r| list.iter().flatten().any(|l| l == r)))
        .collect();
    for (name, column) in layouts(&rows) {
        let sliced = column.slice(offset, rows.len() - offset);
        for (column, from) in [(column.as_ref(), 0), (sliced.as_ref(), offset)] {
            let n = rows.len() - from;
            let at = |i: usize| (from + i) % base;
            for (t, test) in StringMatch::ALL.into_iter().enumerate() {
                let bits = string_match(column, test, &lit).unwrap();
                assert_eq!(bits.len(), n);
                for i in 0..n {
                    if let Some(want) = answers[at(i)][t] {
                        let r = &rows[from + i];
                        assert_eq!(bits.value(i), want, "{name} {test:?} {lit:?} row {i} {r:?}");
                    }
                }
                if tiled {
                    // Like maps onto the same kernels: checked on the
                    // short inputs.
                    continue;
                }
                let pattern = StringArray::from(vec![like_pattern(test, &lit)]);
                let got = Function::Like.test(column, &pattern).unwrap();
                let want: Vec<u8> = (0..n)
                    .map(|i| u8::from(answers[at(i)][t] == Some(true)))
                    .collect();
                assert_eq!(got, want, "{name} Like {test:?} {lit:?}");
            }
            let literals = literals_of(column, &list);
            for negate in [false, true] {
                let want: Vec<u8> = (0..n)
                    .map(|i| match listed[at(i)] {
                        None => 0,
                        Some(hit) => u8::from(if negate { !hit && !has_null } else { hit }),
                    })
                    .collect();
                // `Auto` picks one of the other two: checked on the short
                // inputs.
                let strategies = [InStrategy::OrOfEq, InStrategy::Hash, InStrategy::Auto];
                for &s in &strategies[..if tiled { 2 } else { 3 }] {
                    let f = MultiLiteralsLeafFunction::new(negate).with_strategy(s);
                    let got = f.test(column, &literals).unwrap();
                    assert_eq!(got, want, "{name} IN {list:?} {s:?} negate {negate}");
                }
            }
        }
    }
}
