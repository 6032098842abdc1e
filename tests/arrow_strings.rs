//! The string functions (StartsWith, EndsWith, Contains, Like and their
//! `Not…` forms) against row-by-row references written over plain `&str`,
//! on every string layout, dictionaries, run-end encodings, slices, null rows
//! and null literals in every literal layout; the Like table of SEMANTICS.md;
//! and a proptest of Like against a backtracking reference matcher.
#![cfg(feature = "arrow")]

mod common;

use arrow_array::types::Int32Type;
use arrow_array::*;
use bitbytes::arrow::Function;
use common::{invalid_argument, rows, slices};
use proptest::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

/// Values that exercise prefixes, suffixes, wildcard characters as data,
/// line terminators, multi-byte code points and the 12-byte view inline limit.
const VALUES: [&str; 16] = [
    "",
    "a",
    "ab",
    "abc",
    "a_c",
    "a%c",
    "ba",
    "中",
    "中文",
    "\n",
    "a\nb",
    "x\r\u{85}\u{2028}\u{2029}y",
    "a string longer than twelve bytes",
    "twelve bytes",
    r"back\slash",
    "ab_ab%abab",
];

/// A Like pattern token of the reference.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Lit(char),
    One,
    Many,
}

/// The reference parser: `None` for an invalid escape.
fn tokens(pattern: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\\' => match chars.next()? {
                e @ ('%' | '_' | '\\') => Tok::Lit(e),
                _ => return None,
            },
            '%' => Tok::Many,
            '_' => Tok::One,
            c => Tok::Lit(c),
        });
    }
    Some(out)
}

/// The reference matcher: plain backtracking over chars (remembering the
/// (pattern, text) suffix pairs that failed, so long texts stay cheap).
fn like(p: &[Tok], s: &[char]) -> bool {
    fn go(p: &[Tok], s: &[char], failed: &mut HashSet<(usize, usize)>) -> bool {
        if failed.contains(&(p.len(), s.len())) {
            return false;
        }
        let m = match p.first() {
            None => s.is_empty(),
            Some(Tok::Many) => (0..=s.len()).any(|i| go(&p[1..], &s[i..], failed)),
            Some(Tok::One) => match s.first() {
                Some(c) if !matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') => {
                    go(&p[1..], &s[1..], failed)
                }
                _ => false,
            },
            Some(Tok::Lit(l)) => s.first() == Some(l) && go(&p[1..], &s[1..], failed),
        };
        if !m {
            failed.insert((p.len(), s.len()));
        }
        m
    }
    go(p, s, &mut HashSet::new())
}

fn like_str(pattern: &str, s: &str) -> bool {
    let p = tokens(pattern).expect("valid pattern");
    like(&p, &s.chars().collect::<Vec<_>>())
}

/// The positive function and whether `f` is its `Not…` form.
fn reference(f: Function, value: &str, literal: &str) -> bool {
    match f {
        Function::StartsWith => value.starts_with(literal),
        Function::EndsWith => value.ends_with(literal),
        Function::Contains => value.contains(literal),
        Function::Like => like_str(literal, value),
        Function::NotStartsWith => !value.starts_with(literal),
        Function::NotEndsWith => !value.ends_with(literal),
        Function::NotContains => !value.contains(literal),
        Function::NotLike => !like_str(literal, value),
        other => unreachable!("{other:?}"),
    }
}

/// The string functions: the eight of `Function::ALL` from StartsWith on.
fn string_functions() -> &'static [Function] {
    let all = &Function::ALL[13..21];
    assert_eq!((all[0], all[7]), (Function::StartsWith, Function::NotLike));
    all
}

/// Every string layout of `values`, plain, dictionary-encoded (nulls both as
/// null keys and as keys of a null value) and run-end encoded.
fn columns(values: &[Option<&str>]) -> Vec<(String, ArrayRef)> {
    let mut out: Vec<(String, ArrayRef)> = vec![
        ("Utf8".into(), Arc::new(StringArray::from(values.to_vec()))),
        (
            "LargeUtf8".into(),
            Arc::new(LargeStringArray::from(values.to_vec())),
        ),
        (
            "Utf8View".into(),
            Arc::new(StringViewArray::from(values.to_vec())),
        ),
    ];
    let mut distinct: Vec<&str> = values.iter().flatten().copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let keys: Int32Array = values
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Some(v) => Some(distinct.binary_search(v).unwrap() as i32),
            None if i % 2 == 0 => None,
            None => Some(distinct.len() as i32),
        })
        .collect();
    let with_null = || distinct.iter().map(|&v| Some(v)).chain([None]);
    for (layout, dict_values) in [
        (
            "Utf8View",
            Arc::new(StringViewArray::from_iter(with_null())) as ArrayRef,
        ),
        (
            "Utf8",
            Arc::new(StringArray::from_iter(with_null())) as ArrayRef,
        ),
    ] {
        out.push((
            format!("Dictionary(Int32, {layout})"),
            Arc::new(DictionaryArray::<Int32Type>::new(keys.clone(), dict_values)),
        ));
    }
    // Run-end encoded: one run per row (runs of equal neighbours are fine).
    let ends = Int32Array::from((1..=values.len() as i32).collect::<Vec<_>>());
    let ree = RunArray::<Int32Type>::try_new(&ends, &LargeStringArray::from(values.to_vec()));
    out.push(("RunEndEncoded(LargeUtf8)".into(), Arc::new(ree.unwrap())));
    out
}

/// The literal `text` (or a null literal) in every string layout.
fn literal_layouts(text: Option<&str>) -> Vec<ArrayRef> {
    vec![
        Arc::new(StringArray::from(vec![text])),
        Arc::new(LargeStringArray::from(vec![text])),
        Arc::new(StringViewArray::from(vec![text])),
    ]
}

const LITERALS: [&str; 30] = [
    "", "a", "ab", "b", "中", "文", "\n", "bytes", "a_c", "a%", "%a", "%a%", "%%", "%", "_", "__",
    "___", "a_", "_b", "%_%", "a%c", "a%b%", "%b%a%", r"a\_c", r"a\%c", r"%\\%", "a%a", "中_",
    "_\n_", "%\r%y",
];

#[test]
fn every_string_function_over_every_layout_and_slice() {
    let values: Vec<Option<&str>> = rows(7, 150, VALUES.len())
        .into_iter()
        .map(|r| r.map(|j| VALUES[j]))
        .collect();
    for (name, column) in columns(&values) {
        for (offset, len) in slices(values.len()) {
            let sliced = column.slice(offset, len);
            for &f in string_functions() {
                for text in LITERALS {
                    let want: Vec<u8> = values[offset..offset + len]
                        .iter()
                        .map(|v| u8::from(v.is_some_and(|v| reference(f, v, text))))
                        .collect();
                    for literal in literal_layouts(Some(text)) {
                        let mut out = vec![0xA5u8; len + 1];
                        f.test_into(&sliced, &literal, &mut out).unwrap();
                        assert_eq!(
                            &out[..len],
                            &want[..],
                            "{name} {f:?} {text:?} ({}) slice {offset}+{len}",
                            literal.data_type()
                        );
                        assert_eq!(out[len], 0xA5);
                    }
                }
                // A null literal selects nothing, for the `Not…` forms too.
                for literal in literal_layouts(None) {
                    assert!(f.test(&sliced, &literal).unwrap().iter().all(|&b| b == 0));
                }
            }
        }
    }
}

#[test]
fn like_table_of_the_contract() {
    // (pattern, value, matches)
    let table: &[(&str, &str, bool)] = &[
        ("a%", "a", true),
        ("a%", "abc", true),
        ("a%", "ba", false),
        ("%", "", true),
        ("%", "any\nthing", true),
        ("%%", "", true),
        ("%%", "x", true),
        ("", "", true),
        ("", "a", false),
        ("_", "中", true),
        ("_", "中文", false),
        ("_", "\n", false),
        ("_", "\r", false),
        ("_", "\u{85}", false),
        ("_", "\u{2028}", false),
        ("_", "\u{2029}", false),
        ("_", "", false),
        (r"a\_c", "a_c", true),
        (r"a\_c", "abc", false),
        (r"a\%c", "a%c", true),
        (r"a\%c", "abc", false),
        (r"a\\c", r"a\c", true),
        ("a%a", "a", false),
        ("a%a", "aa", true),
        ("a%a", "aba", true),
        ("ABC", "abc", false),
        ("a%", "xa", false),
        ("%a", "ax", false),
        ("%line%", "first\nline\nlast", true),
        ("first%last", "first\nline\nlast", true),
        ("a_b", "a\nb", false),
        ("%b_a%", "ab_ab%abab", true),
        ("%_%_%_%", "中文", false),
        ("%_%_%", "中文", true),
    ];
    for &(pattern, value, want) in table {
        assert_eq!(
            like_str(pattern, value),
            want,
            "reference: {pattern:?} on {value:?}"
        );
        for layout in columns(&[Some(value)]) {
            let got = Function::Like
                .test(&layout.1.slice(0, 1), &StringArray::from(vec![pattern]))
                .unwrap();
            assert_eq!(
                got,
                [u8::from(want)],
                "{} {pattern:?} LIKE {value:?}",
                layout.0
            );
        }
        let column = StringArray::from(vec![Some(value), None]);
        let got = Function::NotLike
            .test(&column, &StringArray::from(vec![pattern]))
            .unwrap();
        assert_eq!(
            got,
            [u8::from(!want), 0],
            "NOT LIKE {pattern:?} on {value:?}"
        );
    }
}

#[test]
fn invalid_like_patterns_are_errors() {
    let column = StringArray::from(vec!["a"]);
    for p in [r"\", r"a\", r"\a", r"\n", r"%\中", r"\\\", r"\%\x"] {
        assert!(tokens(p).is_none(), "reference accepts {p:?}");
        let err = invalid_argument(
            Function::Like
                .test(&column, &StringArray::from(vec![p]))
                .unwrap_err(),
        );
        assert!(err.contains("invalid Like pattern"), "{p:?}: {err}");
    }
}

const PATTERN_CHARS: [char; 7] = ['a', 'b', '%', '_', '\\', '\n', '中'];
const VALUE_CHARS: [char; 8] = ['a', 'b', '%', '_', '\\', '\n', '中', '\u{2028}'];

fn text(alphabet: &'static [char], max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(alphabet), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn like_matches_the_reference(
        pattern in text(&PATTERN_CHARS, 9),
        values in proptest::collection::vec(text(&VALUE_CHARS, 10), 1..12),
        repeat in 1usize..=12,
    ) {
        // Repeated values reach past 64 bytes, where the matcher searches
        // with `memmem` instead of a byte loop.
        let values: Vec<String> = values.iter().map(|v| v.repeat(repeat)).collect();
        let column = StringArray::from(values.iter().map(String::as_str).collect::<Vec<_>>());
        let literal = StringArray::from(vec![pattern.as_str()]);
        match tokens(&pattern) {
            None => prop_assert!(Function::Like.test(&column, &literal).is_err()),
            Some(p) => {
                let want: Vec<u8> = values
                    .iter()
                    .map(|v| u8::from(like(&p, &v.chars().collect::<Vec<_>>())))
                    .collect();
                prop_assert_eq!(Function::Like.test(&column, &literal).unwrap(), want.clone());
                let views = StringViewArray::from(values.iter().map(String::as_str).collect::<Vec<_>>());
                let not: Vec<u8> = want.iter().map(|b| 1 - b).collect();
                prop_assert_eq!(Function::NotLike.test(&views, &literal).unwrap(), not);
            }
        }
    }
}
