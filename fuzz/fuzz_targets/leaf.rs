//! Every leaf function (null tests, IsNaN, comparisons, IN / NOT IN with
//! every strategy, Between / NotBetween, the string functions and Like with
//! a fuzzed pattern) on small arrays built from the input, against a
//! row-by-row reference that reads plain Rust values: same bytes, never a
//! panic.
#![no_main]

use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, Float64Array, Int32Array, StringArray};
use bitbytes::arrow::{
    CompareOp, Function, InStrategy, LeafFunction, MultiLiteralsLeafFunction,
    NullFalseLeafBinaryFunction,
};
use libfuzzer_sys::fuzz_target;
use std::cmp::Ordering;
use std::sync::Arc;

const FLOATS: [f64; 9] = [
    f64::NEG_INFINITY,
    -1.0,
    -0.0,
    0.0,
    1.0,
    f64::INFINITY,
    f64::NAN,
    -f64::NAN,
    f64::from_bits(0x7ff8_0000_0000_0001),
];
const WORDS: [&str; 8] = [
    "",
    "a",
    "b",
    "ab",
    "twelve bytes",
    "a string past the inline prefix",
    "a\nb中",
    "%_\\",
];
/// Like patterns are spelt from these characters.
const PATTERN: [char; 8] = ['a', 'b', '%', '_', '\\', '\n', '中', ' '];

fn float(b: u8) -> f64 {
    FLOATS[usize::from(b) % FLOATS.len()]
}
fn word(b: u8) -> &'static str {
    WORDS[usize::from(b) % WORDS.len()]
}

/// Java's `Double.compare`: every NaN one value above `+inf`.
fn java_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.total_cmp(&b),
    }
}

/// `(column, literals, order of two value indices, is a string type)`.
type Built = (ArrayRef, ArrayRef, fn(u8, u8) -> Ordering, bool);

/// Builds `(column, literals)` of one type from value indices, the order of
/// two indices under that type, and whether the type is a string type.
fn build(kind: u8, rows: &[Option<u8>], lits: &[Option<u8>]) -> Built {
    let int =
        |v: &[Option<u8>]| Int32Array::from_iter(v.iter().map(|x| x.map(|b| i32::from(b as i8))));
    let floats = |v: &[Option<u8>]| Float64Array::from_iter(v.iter().map(|x| x.map(float)));
    let words = |x: &Option<u8>| x.map(word);
    match kind % 4 {
        0 => (
            Arc::new(int(rows)),
            Arc::new(int(lits)),
            |a, b| (a as i8).cmp(&(b as i8)),
            false,
        ),
        1 => (
            Arc::new(floats(rows)),
            Arc::new(floats(lits)),
            |a, b| java_cmp(float(a), float(b)),
            false,
        ),
        2 => (
            Arc::new(rows.iter().map(words).collect::<StringArray>()),
            Arc::new(lits.iter().map(words).collect::<StringArray>()),
            |a, b| word(a).cmp(word(b)),
            true,
        ),
        _ => (
            Arc::new(
                rows.iter()
                    .map(words)
                    .collect::<DictionaryArray<Int8Type>>(),
            ),
            Arc::new(lits.iter().map(words).collect::<StringArray>()),
            |a, b| word(a).cmp(word(b)),
            true,
        ),
    }
}

fn holds(op: CompareOp, o: Ordering) -> bool {
    match op {
        CompareOp::Equal => o.is_eq(),
        CompareOp::NotEqual => o.is_ne(),
        CompareOp::LessThan => o.is_lt(),
        CompareOp::LessOrEqual => o.is_le(),
        CompareOp::GreaterThan => o.is_gt(),
        CompareOp::GreaterOrEqual => o.is_ge(),
    }
}

/// Whether a Like pattern has only valid escapes (`\%`, `\_`, `\\`).
fn valid_pattern(p: &[char]) -> bool {
    let mut i = 0;
    while i < p.len() {
        if p[i] == '\\' {
            if !matches!(p.get(i + 1), Some('%' | '_' | '\\')) {
                return false;
            }
            i += 1;
        }
        i += 1;
    }
    true
}

/// Reference Like of a valid pattern: backtracking over chars.
fn like(p: &[char], s: &[char]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some('%') => (0..=s.len()).any(|i| like(&p[1..], &s[i..])),
        Some('_') => match s.first() {
            Some(c) if !matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') => {
                like(&p[1..], &s[1..])
            }
            _ => false,
        },
        Some('\\') => s.first() == p.get(1) && like(&p[2..], &s[1..]),
        Some(c) => s.first() == Some(c) && like(&p[1..], &s[1..]),
    }
}

fn rows_where(rows: &[Option<u8>], f: impl Fn(u8) -> bool) -> Vec<u8> {
    rows.iter().map(|r| u8::from(r.is_some_and(&f))).collect()
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let (head, rest) = data.split_at(5);
    let n_lits = usize::from(head[1] % 12).min(rest.len());
    let (lit_bytes, rest) = rest.split_at(n_lits);
    let n_pattern = usize::from(head[4] % 10).min(rest.len());
    let (pattern_bytes, row_bytes) = rest.split_at(n_pattern);
    // Bit 7 of a byte makes it null; the low bits pick the value.
    let opt = |b: &u8| (b & 0x80 == 0).then_some(b & 0x7f);
    let rows: Vec<Option<u8>> = row_bytes.iter().map(opt).collect();
    let lits: Vec<Option<u8>> = lit_bytes.iter().map(opt).collect();
    let (column, literals, cmp, is_string) = build(head[0], &rows, &lits);
    let offset = usize::from(head[2]).min(rows.len());
    let len = rows.len() - offset;
    let column = column.slice(offset, len);
    let rows = &rows[offset..];

    // Null tests and IsNaN ignore the literals.
    let nulls: Vec<u8> = rows.iter().map(|r| u8::from(r.is_none())).collect();
    assert_eq!(Function::IsNull.test(&column, &literals).unwrap(), nulls);
    let valid: Vec<u8> = nulls.iter().map(|n| 1 - n).collect();
    assert_eq!(Function::IsNotNull.test(&column, &literals).unwrap(), valid);
    let nan = rows_where(rows, |r| head[0] % 4 == 1 && float(r).is_nan());
    assert_eq!(Function::IsNaN.test(&column, &literals).unwrap(), nan);

    // Comparison against literals[0].
    let op = CompareOp::ALL[usize::from(head[3]) % 6];
    let got = NullFalseLeafBinaryFunction::new(op).test(&column, &literals);
    match lits.first() {
        None => assert!(got.is_err()),
        Some(None) => assert!(got.unwrap().iter().all(|&b| b == 0)),
        Some(Some(l)) => assert_eq!(got.unwrap(), rows_where(rows, |r| holds(op, cmp(r, *l)))),
    }

    // IN / NOT IN with every strategy.
    let has_null = lits.contains(&None);
    for negate in [false, true] {
        let want = rows_where(rows, |r| {
            let hit = lits.iter().flatten().any(|l| cmp(r, *l).is_eq());
            if negate {
                !hit && !has_null
            } else {
                hit
            }
        });
        for s in [InStrategy::Auto, InStrategy::OrOfEq, InStrategy::Hash] {
            let leaf = MultiLiteralsLeafFunction::new(negate).with_strategy(s);
            assert_eq!(
                leaf.test(&column, &literals).unwrap(),
                want,
                "negate {negate} {s:?}"
            );
        }
    }

    // Between / NotBetween: exactly two literals.
    for f in [Function::Between, Function::NotBetween] {
        let got = f.test(&column, &literals);
        match lits[..] {
            [Some(lo), Some(hi)] => {
                let want = rows_where(rows, |r| {
                    let inside = cmp(r, lo).is_ge() && cmp(r, hi).is_le();
                    inside == (f == Function::Between)
                });
                assert_eq!(got.unwrap(), want, "{f:?}");
            }
            [_, _] => assert!(got.unwrap().iter().all(|&b| b == 0)),
            _ => assert!(got.is_err()),
        }
    }

    // String functions: one literal, a word or a fuzzed Like pattern.
    let pattern: String = pattern_bytes
        .iter()
        .map(|&b| PATTERN[usize::from(b) % PATTERN.len()])
        .collect();
    let pattern_chars: Vec<char> = pattern.chars().collect();
    let text = lits.first().map(|l| l.map(word));
    for f in Function::ALL {
        let Some((positive, negate)) = (match f {
            Function::StartsWith | Function::EndsWith | Function::Contains | Function::Like => {
                Some((f, false))
            }
            Function::NotStartsWith
            | Function::NotEndsWith
            | Function::NotContains
            | Function::NotLike => Some((f.negate().unwrap(), true)),
            _ => None,
        }) else {
            continue;
        };
        let (literal, lit): (ArrayRef, Option<Option<&str>>) = if positive == Function::Like {
            (
                Arc::new(StringArray::from(vec![pattern.as_str()])),
                Some(Some(pattern.as_str())),
            )
        } else {
            (literals.clone(), text)
        };
        let got = f.test(&column, &literal);
        if !is_string || lits.len() != 1 && positive != Function::Like {
            assert!(got.is_err(), "{f:?}");
            continue;
        }
        let Some(Some(lit)) = lit else {
            assert!(got.unwrap().iter().all(|&b| b == 0));
            continue;
        };
        if positive == Function::Like && !valid_pattern(&pattern_chars) {
            assert!(got.is_err(), "{pattern:?}");
            continue;
        }
        let want = rows_where(rows, |r| {
            let v = word(r);
            let hit = match positive {
                Function::StartsWith => v.starts_with(lit),
                Function::EndsWith => v.ends_with(lit),
                Function::Contains => v.contains(lit),
                _ => like(&pattern_chars, &v.chars().collect::<Vec<_>>()),
            };
            hit != negate
        });
        assert_eq!(got.unwrap(), want, "{f:?} {lit:?}");
    }
});
