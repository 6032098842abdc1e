//! The crate's string kernels (`string_match`: `=`, StartsWith, EndsWith,
//! Contains) and the leaves that run them (the string functions, Like's
//! plain-text shapes, string `=` / `<>`) against a row-by-row oracle over
//! `Option<&str>`: every string length 0..40 and the literal's length ±1,
//! empty literals, multi-byte UTF-8, nulls, slices, buffers of exactly the
//! size the offsets need, Utf8View with inline and out-of-line strings over
//! several data buffers, dictionaries with null keys and null values, and
//! run-end encodings; then a proptest over random columns and literals.
#![cfg(feature = "arrow")]

#[path = "support/string_columns.rs"]
mod string_columns;
#[path = "support/xorshift.rs"]
mod xorshift;

use arrow_array::{Array, ArrayRef, StringArray};
use bitbytes::arrow::{
    string_match, CompareOp, Function, LeafFunction, NullFalseLeafBinaryFunction, StringMatch,
};
use proptest::prelude::*;
use string_columns::{layouts, like_pattern, oracle};
use xorshift::XorShift;

/// A string of exactly `n` bytes from `a`, `b`, `é` (2 bytes) and `中` (3
/// bytes): many near-matches, and prefixes that end inside a character.
fn random_string(rng: &mut XorShift, n: usize) -> String {
    let mut s = String::with_capacity(n);
    while s.len() < n {
        let left = n - s.len();
        match rng.next_u64() % 8 {
            0 if left >= 3 => s.push('中'),
            1 if left >= 2 => s.push('é'),
            2..=4 => s.push('a'),
            _ => s.push('b'),
        }
    }
    s
}

/// Literals: empty, around the 4-byte view prefix, the 8-byte word and the
/// 12-byte inline limit, and multi-byte.
fn literals() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        "a",
        "b",
        "ab",
        "ba",
        "aab",
        "abab",
        "ababa",
        "abababa",
        "abababab",
        "ababababa",
        "abababababab",
        "ababababababa",
        "abababababababab",
        "aaaaaaaaaaaaaaaaaaaa",
        "中",
        "a中",
        "中a",
        "é",
        "aé中b",
        "é中é中é中",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let long = "ab中".repeat(6);
    out.push(long.clone());
    out.push(long[..long.len() - 3].to_string());
    // 64 and 65 bytes: the longest literal a masked load of 64 bytes
    // compares, and one past it.
    out.push("ab".repeat(32));
    out.push("ab中".repeat(13));
    out
}

/// Rows for one literal: every length 0..40 and the literal's length ±1,
/// each random, and with the literal at the start, the end, in the middle
/// and with its last byte changed; some nulls; short rows first and last
/// (the ends of the values buffer take the safe paths).
fn rows_for(lit: &str, rng: &mut XorShift) -> Vec<Option<String>> {
    let l = lit.len();
    let mut lengths: Vec<usize> = (0..40).collect();
    lengths.extend([l.saturating_sub(1), l, l + 1]);
    let mut rows = vec![Some(String::new()), Some("a".into()), None];
    for &n in &lengths {
        rows.push(Some(random_string(rng, n)));
        if n >= l {
            let pad = random_string(rng, n - l);
            let half = pad.len() / 2;
            let half = (0..=half).rev().find(|&i| pad.is_char_boundary(i)).unwrap();
            rows.push(Some(format!("{lit}{pad}")));
            rows.push(Some(format!("{pad}{lit}")));
            rows.push(Some(format!("{}{lit}{}", &pad[..half], &pad[half..])));
            if let Some(c) = lit.chars().last() {
                // The literal with its last character replaced.
                let cut = &lit[..l - c.len_utf8()];
                let other = if c == 'a' { 'b' } else { 'a' };
                rows.push(Some(format!("{cut}{other}{pad}")));
                rows.push(Some(format!("{pad}{cut}{other}")));
            }
        }
        if rng.next_u64().is_multiple_of(5) {
            rows.push(None);
        }
    }
    rows.push(Some(lit.to_string()));
    rows.push(Some("b".into()));
    rows.push(Some(String::new()));
    rows
}

/// Checks the kernel and the leaves on `column` (logical rows `rows`).
fn check(name: &str, column: &dyn Array, rows: &[Option<String>], lit: &str) {
    for test in StringMatch::ALL {
        let bits = string_match(column, test, lit).unwrap();
        assert_eq!(bits.len(), rows.len());
        for (i, r) in rows.iter().enumerate() {
            if let Some(want) = oracle(test, r.as_deref(), lit) {
                assert_eq!(bits.value(i), want, "{name} {test:?} {lit:?} row {i} {r:?}");
            }
        }
        // The leaves and their negations, bytes with nulls applied.
        let (pos, neg) = match test {
            StringMatch::Equal => (Function::Compare(CompareOp::Equal), None),
            StringMatch::StartsWith => (Function::StartsWith, Some(Function::NotStartsWith)),
            StringMatch::EndsWith => (Function::EndsWith, Some(Function::NotEndsWith)),
            StringMatch::Contains => (Function::Contains, Some(Function::NotContains)),
        };
        let like = like_pattern(test, lit);
        let want: Vec<u8> = rows
            .iter()
            .map(|r| u8::from(oracle(test, r.as_deref(), lit) == Some(true)))
            .collect();
        let want_not: Vec<u8> = rows
            .iter()
            .map(|r| u8::from(oracle(test, r.as_deref(), lit) == Some(false)))
            .collect();
        let literal = literal_of(column, lit);
        if test == StringMatch::Equal {
            let eq = NullFalseLeafBinaryFunction::new(CompareOp::Equal);
            assert_eq!(eq.test(column, &literal).unwrap(), want, "{name} = {lit:?}");
            let ne = eq.negate();
            assert_eq!(
                ne.test(column, &literal).unwrap(),
                want_not,
                "{name} <> {lit:?}"
            );
        } else {
            assert_eq!(
                pos.test(column, &literal).unwrap(),
                want,
                "{name} {pos:?} {lit:?}"
            );
            let neg = neg.unwrap();
            assert_eq!(
                neg.test(column, &literal).unwrap(),
                want_not,
                "{name} {neg:?} {lit:?}"
            );
        }
        let lp = StringArray::from(vec![like.as_str()]);
        assert_eq!(
            Function::Like.test(column, &lp).unwrap(),
            want,
            "{name} Like {like:?}"
        );
        assert_eq!(
            Function::NotLike.test(column, &lp).unwrap(),
            want_not,
            "{name} NotLike {like:?}"
        );
    }
}

/// The literal in the column's value layout (a comparison wants the same
/// type; the string functions take any).
fn literal_of(column: &dyn Array, lit: &str) -> ArrayRef {
    string_columns::literals_of(column, &[Some(lit.to_string())])
}

/// Every layout, whole and sliced.
fn check_all_layouts(rows: &[Option<String>], lit: &str) {
    for (name, column) in layouts(rows) {
        check(name, column.as_ref(), rows, lit);
        let n = rows.len();
        for (offset, len) in [
            (1, n - 1),
            (3, n - 5),
            (n / 2, n - n / 2),
            (n - 1, 1),
            (n, 0),
        ] {
            let sliced = column.slice(offset, len);
            check(name, sliced.as_ref(), &rows[offset..offset + len], lit);
        }
    }
}

#[test]
fn every_length_every_literal_every_layout() {
    let mut rng = XorShift::new(20);
    for lit in literals() {
        let rows = rows_for(&lit, &mut rng);
        check_all_layouts(&rows, &lit);
        // Reversed: other rows at the ends of the buffers.
        let rev: Vec<_> = rows.iter().rev().cloned().collect();
        check_all_layouts(&rev, &lit);
    }
}

#[test]
fn more_than_one_word_of_rows() {
    // Several 64-row words, long rows and long literals.
    let mut rng = XorShift::new(7);
    for lit in ["ab", "abab中", "ababababab", "https://example.com/"] {
        let rows: Vec<Option<String>> = (0..300)
            .map(|i| {
                if i % 17 == 0 {
                    return None;
                }
                let n = (rng.next_u64() % 80) as usize;
                let s = random_string(&mut rng, n);
                Some(match i % 4 {
                    0 => format!("{lit}{s}"),
                    1 => format!("{s}{lit}"),
                    2 => s,
                    _ => lit.to_string(),
                })
            })
            .collect();
        check_all_layouts(&rows, lit);
    }
}

/// Several words of short rows (at most 16 bytes), as the word loop's head
/// paths of `=` and StartsWith see them: words with few candidates (each
/// candidate's head alone, the rows ahead prefetched) and with many (all 64
/// heads), rows of the literal's length +-1, near misses, and short rows
/// at the end of the values buffer (in the exact, unpadded layouts the
/// last heads cannot take an 8-byte load).
#[test]
fn short_rows_in_sparse_and_dense_words() {
    let mut rng = XorShift::new(33);
    for lit in [
        "",
        "a",
        "é",
        "ab",
        "abab",
        "a中",
        "abababa",
        "abababab",
        "aé中b",
        "ababababa",
    ] {
        let l = lit.len();
        for mode in 0..3 {
            let rows: Vec<Option<String>> = (0..400)
                .map(|i| {
                    if i % 29 == 0 {
                        return None;
                    }
                    let r = rng.next_u64();
                    let n = match mode {
                        0 => (r % 17) as usize,
                        1 => (l + (r % 3) as usize).saturating_sub(1),
                        _ if r.is_multiple_of(16) => l,
                        _ => (r % 17) as usize,
                    };
                    if n < l || (r >> 8) % 4 == 3 {
                        return Some(random_string(&mut rng, n));
                    }
                    let pad = random_string(&mut rng, n - l);
                    Some(match (r >> 8) % 4 {
                        0 => format!("{lit}{pad}"),
                        1 => format!("{pad}{lit}"),
                        // The literal with its first character replaced.
                        _ => match lit.chars().next() {
                            Some(c) => {
                                let other = if c == 'a' { 'b' } else { 'a' };
                                let rest = &lit[c.len_utf8()..];
                                let pad = random_string(&mut rng, n - 1 - rest.len());
                                format!("{other}{rest}{pad}")
                            }
                            None => pad,
                        },
                    })
                })
                .collect();
            check_all_layouts(&rows, lit);
        }
    }
}

/// Utf8View StartsWith of a rare prefix reads a chunk of 4096 rows' first
/// bytes at once after a chunk of few candidates, and prefetches the
/// candidates 8 words ahead. The word ahead may be the last, partial one:
/// that once sliced past the views and panicked (a column of more than
/// 4096 rows whose last chunk has 8 or more whole words before a partial
/// one).
#[test]
fn view_prefix_chunks_end_in_a_partial_word() {
    let mut rng = XorShift::new(5);
    let lit = "ababababababab";
    for extra in [1, 20, 63] {
        let rows: Vec<Option<String>> = (0..64 * 64 * 2 + 64 * 12 + extra)
            .map(|i| {
                let n = 24 + (rng.next_u64() % 40) as usize;
                let s = random_string(&mut rng, n);
                Some(if i % 300 == 0 { format!("{lit}{s}") } else { s })
            })
            .collect();
        check_all_layouts(&rows, lit);
    }
}

/// `=` of a literal of 9 to 64 bytes lists the rows of its length a block
/// of 4096 rows at a time and compares them in a second loop, one block
/// behind; a word of many candidates goes the word loop's way. So: columns
/// of more than two blocks (the lists alternate) and a partial last word,
/// runs of words with no candidate, a few and many (each word's count is
/// what picks the path), and candidates that differ from the literal in
/// the first, a middle or the last byte (the two loads cover all of them).
#[test]
fn equal_over_blocks_of_listed_rows() {
    let mut rng = XorShift::new(91);
    for lit in [
        "ababababa".to_string(),
        "ab".repeat(8),
        "a中".repeat(4) + "ab",
        "ab".repeat(16),
        "ab中".repeat(6) + "abc",
        "ab".repeat(32),
    ] {
        let l = lit.len();
        let near = |rng: &mut XorShift| -> String {
            // The literal with one byte changed (to another ASCII letter
            // where it was one, else a whole character replaced).
            let at = match rng.next_u64() % 3 {
                0 => 0,
                1 => l / 2,
                _ => l - 1,
            };
            let mut b = lit.clone().into_bytes();
            if b[at].is_ascii() {
                b[at] = if b[at] == b'a' { b'b' } else { b'a' };
                String::from_utf8(b).unwrap()
            } else {
                random_string(rng, l)
            }
        };
        let mut rows: Vec<Option<String>> = Vec::new();
        // Blocks of 64-row words: none, few, many candidates, in turn.
        for word in 0..140 {
            for _ in 0..64 {
                let r = rng.next_u64();
                let candidate = match word % 3 {
                    0 => false,
                    1 => r.is_multiple_of(40),
                    _ => !r.is_multiple_of(4),
                };
                rows.push(if r.is_multiple_of(37) {
                    None
                } else if !candidate {
                    let n = (r >> 8) as usize % 80;
                    let n = if n == l { n + 1 } else { n };
                    Some(random_string(&mut rng, n))
                } else {
                    Some(match (r >> 8) % 3 {
                        0 => lit.clone(),
                        1 => near(&mut rng),
                        _ => random_string(&mut rng, l),
                    })
                });
            }
        }
        // A partial last word, its last row the literal (at the very end
        // of the exact values buffer).
        rows.extend([Some(random_string(&mut rng, l)), None, Some(lit.clone())]);
        check_all_layouts(&rows, &lit);
    }
}

/// Columns of more than two 4096-row chunks (the views' prefix pass and
/// the listed `=` go a chunk at a time, and look ahead 8 words) whose last
/// chunk ends in a partial word, over short rows and 24-64-byte paths,
/// literals of 1 to 20 bytes (around the 4-byte view prefix, the 8-byte
/// head and the 12-byte inline limit), the literal rare and frequent,
/// whole and sliced.
#[test]
fn columns_of_several_chunks() {
    let mut rng = XorShift::new(404);
    for lit in [
        "a",
        "abab",
        "ababa",
        "abababab",
        "ababababababa",
        "ab中ab中ab中ab中ab",
    ] {
        for (short, every) in [(true, 3), (true, 200), (false, 3), (false, 200)] {
            let rows: Vec<Option<String>> = (0..64 * 64 * 2 + 64 * 11 + 37)
                .map(|i| {
                    let r = rng.next_u64();
                    if r.is_multiple_of(41) {
                        return None;
                    }
                    let n = if short {
                        r as usize % 17
                    } else {
                        24 + r as usize % 41
                    };
                    let s = random_string(&mut rng, n.saturating_sub(lit.len()));
                    Some(if i % every == 0 {
                        match (r >> 8) % 3 {
                            0 => format!("{lit}{s}"),
                            1 => format!("{s}{lit}"),
                            _ => lit.to_string(),
                        }
                    } else {
                        random_string(&mut rng, n)
                    })
                })
                .collect();
            // Whole and sliced at both ends (the other slices of
            // `check_all_layouts` cost more time than they add here).
            for (name, column) in layouts(&rows) {
                check(name, column.as_ref(), &rows, lit);
                let n = rows.len();
                check(name, column.slice(3, n - 5).as_ref(), &rows[3..n - 2], lit);
            }
        }
    }
}

#[test]
fn contains_ignores_matches_across_rows() {
    // Rows whose concatenation holds the literal where no row does: the
    // finder's match spans two rows (and a valid match follows it).
    let rows: Vec<Option<String>> = ["xa", "aab", "b", "ab", "", "a", "b", "ba", "ab"]
        .iter()
        .map(|s| Some(s.to_string()))
        .collect();
    check_all_layouts(&rows, "aa");
    check_all_layouts(&rows, "ab");
    check_all_layouts(&rows, "aab");
    check_all_layouts(&rows, "bab");
}

#[test]
fn empty_and_all_null_columns() {
    for rows in [vec![], vec![None], vec![None, None, Some(String::new())]] {
        for lit in ["", "a", "abcdefghijklm"] {
            for (name, column) in layouts(&rows) {
                check(name, column.as_ref(), &rows, lit);
            }
        }
    }
}

#[test]
fn not_a_string_column_is_an_error() {
    let column = arrow_array::Int32Array::from(vec![1, 2]);
    let err = string_match(&column, StringMatch::Contains, "a").unwrap_err();
    assert!(err.to_string().contains("needs a string column"), "{err}");
}

fn row_strategy() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        1 => Just(None),
        8 => "[ab中é]{0,24}".prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn kernels_agree_with_the_oracle(
        rows in proptest::collection::vec(row_strategy(), 0..150),
        lit in "[ab中é]{0,14}",
        offset in 0usize..10,
    ) {
        let offset = offset.min(rows.len());
        for (name, column) in layouts(&rows) {
            let sliced = column.slice(offset, rows.len() - offset);
            check(name, sliced.as_ref(), &rows[offset..], &lit);
        }
    }
}
