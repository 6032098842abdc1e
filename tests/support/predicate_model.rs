//! A model of predicate trees over plain Rust values, for the predicate
//! proptest (tests/arrow_predicate.rs) and the `predicate` fuzz target: a
//! table of four columns (Int64, Float64 with NaNs and nulls, Utf8, a
//! dictionary of Utf8), a tree decoded from bytes (depth at most 3), and a
//! row-by-row evaluator written from SEMANTICS.md without arrow: Java's float
//! order (every NaN one value above +inf, -0.0 < 0.0), null rows 0 except
//! under IsNull, a null literal selects nothing, NOT IN with a null literal
//! selects nothing, Like as Java's. Negation is the model's own table.
//! Included by path (`#[path = ".../tests/support/predicate_model.rs"]`).
#![allow(dead_code)]

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, DictionaryArray, Float64Array, Int64Array, RecordBatch, StringArray,
};
use bitbytes::arrow::{CompareOp, Function, Leaf, Predicate, Transform};
use std::cmp::Ordering;
use std::sync::Arc;

/// Column names, in schema order.
pub const COLUMNS: [&str; 4] = ["i", "f", "s", "d"];

/// Float values: both zeros, both infinities, NaNs of both signs and with a
/// payload.
pub const FLOATS: [f64; 9] = [
    f64::NEG_INFINITY,
    -1.5,
    -0.0,
    0.0,
    2.0,
    f64::INFINITY,
    f64::NAN,
    -f64::NAN,
    f64::from_bits(0x7ff0_0000_0000_0001),
];

/// String values: prefixes of each other, Like's wildcards as data, a line
/// terminator, multi-byte code points.
pub const WORDS: [&str; 10] = [
    "", "a", "ab", "ba", "abc", "a_c", "a%c", "中", "中文", "a\nb",
];

/// String literals of StartsWith / EndsWith / Contains.
pub const NEEDLES: [&str; 6] = ["", "a", "b", "ab", "c", "中"];

/// Like patterns (all valid; escapes, `_` against multi-byte and newline).
pub const PATTERNS: [&str; 14] = [
    "a%", "%a", "%", "%%", "", "_", "a_c", r"a\_c", r"a\%c", "%b%", "a%c", "_%", "中_", "a_b",
];

/// One plain value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    I(i64),
    F(f64),
    S(&'static str),
}

/// The rows of the four columns as plain values.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub i: Vec<Option<i64>>,
    pub f: Vec<Option<f64>>,
    pub s: Vec<Option<&'static str>>,
    pub d: Vec<Option<&'static str>>,
}

/// A tree of the model: leaves name a column by index.
#[derive(Debug, Clone)]
pub enum Spec {
    Leaf {
        function: Function,
        column: usize,
        literals: Vec<Option<Val>>,
    },
    And(Vec<Spec>),
    Or(Vec<Spec>),
}

/// Bytes read one at a time; 0 once exhausted.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }
    pub fn next(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
}

impl Table {
    /// `rows` rows from `seed` (splitmix64); about one row in six of each
    /// column is null.
    pub fn random(rows: usize, seed: u64) -> Table {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut t = Table::default();
        for _ in 0..rows {
            let r = next();
            let some = |k: u64| !(r >> k).is_multiple_of(6);
            t.i.push(some(0).then_some((r >> 8) as i64 % 4));
            t.f.push(some(16).then(|| FLOATS[(r >> 24) as usize % FLOATS.len()]));
            t.s.push(some(32).then(|| WORDS[(r >> 40) as usize % WORDS.len()]));
            t.d.push(some(48).then(|| WORDS[(r >> 56) as usize % WORDS.len()]));
        }
        t
    }

    pub fn len(&self) -> usize {
        self.i.len()
    }

    /// Row `row` of column `column`.
    pub fn value(&self, column: usize, row: usize) -> Option<Val> {
        match column {
            0 => self.i[row].map(Val::I),
            1 => self.f[row].map(Val::F),
            2 => self.s[row].map(Val::S),
            _ => self.d[row].map(Val::S),
        }
    }

    /// The rows whose byte in `mask` is non-zero.
    pub fn select(&self, mask: &[u8]) -> Table {
        let keep = |k: usize| mask[k] != 0;
        Table {
            i: (0..self.len())
                .filter(|&k| keep(k))
                .map(|k| self.i[k])
                .collect(),
            f: (0..self.len())
                .filter(|&k| keep(k))
                .map(|k| self.f[k])
                .collect(),
            s: (0..self.len())
                .filter(|&k| keep(k))
                .map(|k| self.s[k])
                .collect(),
            d: (0..self.len())
                .filter(|&k| keep(k))
                .map(|k| self.d[k])
                .collect(),
        }
    }

    /// The table as a batch (`d` dictionary-encoded with Int32 keys).
    pub fn batch(&self) -> RecordBatch {
        let d: DictionaryArray<Int32Type> = self.d.iter().copied().collect();
        RecordBatch::try_from_iter([
            ("i", Arc::new(Int64Array::from(self.i.clone())) as ArrayRef),
            (
                "f",
                Arc::new(Float64Array::from(self.f.clone())) as ArrayRef,
            ),
            ("s", Arc::new(StringArray::from(self.s.clone())) as ArrayRef),
            ("d", Arc::new(d) as ArrayRef),
        ])
        .expect("four columns of one length")
    }

    /// Reads a batch of this shape back into plain values (floats by bits,
    /// so NaNs compare equal to themselves in `same`).
    pub fn from_batch(batch: &RecordBatch) -> Table {
        let strings = |a: &dyn Array| -> Vec<Option<&'static str>> {
            let a = arrow_cast_strings(a);
            a.into_iter()
                .map(|v| v.map(|v| *WORDS.iter().find(|w| **w == v).expect("a known word")))
                .collect()
        };
        Table {
            i: batch.column(0).as_primitive::<Int64Type>().iter().collect(),
            f: batch
                .column(1)
                .as_primitive::<Float64Type>()
                .iter()
                .collect(),
            s: strings(batch.column(2).as_ref()),
            d: strings(batch.column(3).as_ref()),
        }
    }

    /// Same rows (floats compared by bits).
    pub fn same(&self, other: &Table) -> bool {
        let bits = |v: &[Option<f64>]| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
        self.i == other.i
            && bits(&self.f) == bits(&other.f)
            && self.s == other.s
            && self.d == other.d
    }
}

/// The strings of a Utf8 or dictionary-of-Utf8 column, row by row.
fn arrow_cast_strings(a: &dyn Array) -> Vec<Option<String>> {
    if let Some(d) = a.as_dictionary_opt::<Int32Type>() {
        let values = d.values().as_string::<i32>();
        return d
            .keys()
            .iter()
            .map(|k| k.map(|k| values.value(k as usize).to_string()))
            .collect();
    }
    a.as_string::<i32>()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

impl Spec {
    /// A tree of depth at most `3 - depth` decoded from `bytes`.
    pub fn decode(bytes: &mut Bytes<'_>, depth: usize) -> Spec {
        let b = bytes.next();
        if depth >= 3 || b.is_multiple_of(3) {
            return Spec::leaf(bytes);
        }
        let n = usize::from(b >> 2) % 4 + 1;
        let children = (0..n).map(|_| Spec::decode(bytes, depth + 1)).collect();
        if b & 1 == 0 {
            Spec::And(children)
        } else {
            Spec::Or(children)
        }
    }

    /// A valid leaf decoded from `bytes`.
    fn leaf(bytes: &mut Bytes<'_>) -> Spec {
        let column = usize::from(bytes.next()) % 4;
        let mut function = Function::ALL[usize::from(bytes.next()) % Function::ALL.len()];
        let string_fn = is_string_function(function);
        if string_fn && column < 2 {
            function = Function::Compare(CompareOp::ALL[usize::from(bytes.next()) % 6]);
        }
        if matches!(
            function,
            Function::ArrayContains | Function::ArrayContainsAll | Function::ArraysOverlap
        ) {
            // No list column here (tests/arrow_arrays.rs has them): a
            // constant instead, so TRUE / FALSE meet null rows in trees.
            function = if bytes.next().is_multiple_of(2) {
                Function::AlwaysTrue
            } else {
                Function::AlwaysFalse
            };
        }
        let literal = |bytes: &mut Bytes<'_>| -> Option<Val> {
            let b = bytes.next();
            if b.is_multiple_of(7) {
                return None;
            }
            let k = usize::from(b >> 3);
            Some(match column {
                0 => Val::I(k as i64 % 5 - 1),
                1 => Val::F(FLOATS[k % FLOATS.len()]),
                _ => Val::S(WORDS[k % WORDS.len()]),
            })
        };
        let literals = match function {
            Function::IsNull
            | Function::IsNotNull
            | Function::IsNaN
            | Function::AlwaysTrue
            | Function::AlwaysFalse => vec![],
            Function::Compare(_) => vec![literal(bytes)],
            Function::In | Function::NotIn => {
                let n = usize::from(bytes.next()) % 5;
                (0..n).map(|_| literal(bytes)).collect()
            }
            Function::Between | Function::NotBetween => vec![literal(bytes), literal(bytes)],
            Function::Like | Function::NotLike => {
                let b = bytes.next();
                vec![(!b.is_multiple_of(9))
                    .then(|| Val::S(PATTERNS[usize::from(b) % PATTERNS.len()]))]
            }
            _ => {
                let b = bytes.next();
                vec![(!b.is_multiple_of(9)).then(|| Val::S(NEEDLES[usize::from(b) % NEEDLES.len()]))]
            }
        };
        Spec::Leaf {
            function,
            column,
            literals,
        }
    }

    /// The predicate the spec describes (leaves built by hand, not by the
    /// builder: the literals are arrays of the column's value type).
    pub fn predicate(&self) -> Predicate {
        match self {
            Spec::Leaf {
                function,
                column,
                literals,
            } => {
                let array: ArrayRef = match column {
                    0 => Arc::new(Int64Array::from_iter(literals.iter().map(|v| v.map(as_i)))),
                    1 => Arc::new(Float64Array::from_iter(
                        literals.iter().map(|v| v.map(as_f)),
                    )),
                    _ => Arc::new(StringArray::from_iter(literals.iter().map(|v| v.map(as_s)))),
                };
                if matches!(function, Function::AlwaysTrue | Function::AlwaysFalse) {
                    // Paimon's TRUE / FALSE read the NullTransform.
                    return Predicate::Leaf(Leaf::with_transform(
                        *function,
                        Transform::Null,
                        array,
                    ));
                }
                Predicate::Leaf(Leaf::new(*function, COLUMNS[*column], array))
            }
            Spec::And(c) => Predicate::And(c.iter().map(Spec::predicate).collect()),
            Spec::Or(c) => Predicate::Or(c.iter().map(Spec::predicate).collect()),
        }
    }

    /// De Morgan with the model's own table of negations; `None` when an
    /// IsNaN leaf is in the tree.
    pub fn negate(&self) -> Option<Spec> {
        use Function::*;
        Some(match self {
            Spec::Leaf {
                function,
                column,
                literals,
            } => {
                let negated = match *function {
                    IsNull => IsNotNull,
                    IsNotNull => IsNull,
                    IsNaN => return None,
                    Compare(op) => Compare(match op {
                        CompareOp::Equal => CompareOp::NotEqual,
                        CompareOp::NotEqual => CompareOp::Equal,
                        CompareOp::LessThan => CompareOp::GreaterOrEqual,
                        CompareOp::GreaterOrEqual => CompareOp::LessThan,
                        CompareOp::LessOrEqual => CompareOp::GreaterThan,
                        CompareOp::GreaterThan => CompareOp::LessOrEqual,
                    }),
                    In => NotIn,
                    NotIn => In,
                    Between => NotBetween,
                    NotBetween => Between,
                    StartsWith => NotStartsWith,
                    NotStartsWith => StartsWith,
                    EndsWith => NotEndsWith,
                    NotEndsWith => EndsWith,
                    Contains => NotContains,
                    NotContains => Contains,
                    Like => NotLike,
                    NotLike => Like,
                    AlwaysTrue => AlwaysFalse,
                    AlwaysFalse => AlwaysTrue,
                    ArrayContains | ArrayContainsAll | ArraysOverlap => return None,
                };
                Spec::Leaf {
                    function: negated,
                    column: *column,
                    literals: literals.clone(),
                }
            }
            Spec::And(c) => Spec::Or(c.iter().map(Spec::negate).collect::<Option<_>>()?),
            Spec::Or(c) => Spec::And(c.iter().map(Spec::negate).collect::<Option<_>>()?),
        })
    }

    /// The reference: one byte per row of `table`.
    pub fn eval(&self, table: &Table) -> Vec<u8> {
        (0..table.len())
            .map(|row| u8::from(self.eval_row(table, row)))
            .collect()
    }

    /// Whether the spec selects row `row`.
    pub fn eval_row(&self, table: &Table, row: usize) -> bool {
        match self {
            Spec::Leaf {
                function,
                column,
                literals,
            } => leaf(*function, table.value(*column, row), literals),
            Spec::And(c) => c.iter().all(|s| s.eval_row(table, row)),
            Spec::Or(c) => c.iter().any(|s| s.eval_row(table, row)),
        }
    }
}

pub fn is_string_function(function: Function) -> bool {
    use Function::*;
    matches!(
        function,
        StartsWith
            | EndsWith
            | Contains
            | Like
            | NotStartsWith
            | NotEndsWith
            | NotContains
            | NotLike
    )
}

fn as_i(v: Val) -> i64 {
    match v {
        Val::I(x) => x,
        other => panic!("not an integer: {other:?}"),
    }
}
fn as_f(v: Val) -> f64 {
    match v {
        Val::F(x) => x,
        other => panic!("not a float: {other:?}"),
    }
}
fn as_s(v: Val) -> &'static str {
    match v {
        Val::S(x) => x,
        other => panic!("not a string: {other:?}"),
    }
}

/// Java's order: integers as integers, floats as `Double.compare` (every NaN
/// one value above +inf; -0.0 < 0.0), strings byte-wise.
pub fn order(a: Val, b: Val) -> Ordering {
    match (a, b) {
        (Val::I(a), Val::I(b)) => a.cmp(&b),
        (Val::F(a), Val::F(b)) => match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ if a == 0.0 && b == 0.0 => a.is_sign_positive().cmp(&b.is_sign_positive()),
            _ => a.partial_cmp(&b).expect("no NaN here"),
        },
        (Val::S(a), Val::S(b)) => a.as_bytes().cmp(b.as_bytes()),
        (a, b) => panic!("values of two types: {a:?} {b:?}"),
    }
}

/// One leaf on one row, from SEMANTICS.md.
pub fn leaf(function: Function, value: Option<Val>, literals: &[Option<Val>]) -> bool {
    use Function::*;
    match function {
        IsNull => return value.is_none(),
        IsNotNull => return value.is_some(),
        // Java's TRUE selects null rows too.
        AlwaysTrue => return true,
        AlwaysFalse => return false,
        _ => {}
    }
    let Some(v) = value else { return false };
    let first = literals.first().copied().flatten();
    match function {
        IsNaN => matches!(v, Val::F(x) if x.is_nan()),
        Compare(op) => first.is_some_and(|l| {
            let o = order(v, l);
            match op {
                CompareOp::Equal => o.is_eq(),
                CompareOp::NotEqual => o.is_ne(),
                CompareOp::LessThan => o.is_lt(),
                CompareOp::LessOrEqual => o.is_le(),
                CompareOp::GreaterThan => o.is_gt(),
                CompareOp::GreaterOrEqual => o.is_ge(),
            }
        }),
        In => literals.iter().flatten().any(|l| order(v, *l).is_eq()),
        NotIn => literals
            .iter()
            .all(|l| l.is_some_and(|l| order(v, l).is_ne())),
        Between | NotBetween => match (literals[0], literals[1]) {
            (Some(lo), Some(hi)) => {
                let inside = order(v, lo).is_ge() && order(v, hi).is_le();
                inside == (function == Between)
            }
            _ => false,
        },
        _ => {
            let Some(p) = first else { return false };
            let (s, p) = (as_s(v), as_s(p));
            let hit = match function {
                StartsWith | NotStartsWith => s.as_bytes().starts_with(p.as_bytes()),
                EndsWith | NotEndsWith => s.as_bytes().ends_with(p.as_bytes()),
                Contains | NotContains => s.contains(p),
                _ => like(s, p),
            };
            hit != matches!(
                function,
                NotStartsWith | NotEndsWith | NotContains | NotLike
            )
        }
    }
}

/// Java LIKE over a valid pattern: `%` any sequence, `_` one code point that
/// is not a line terminator, `\` escapes the next character.
pub fn like(s: &str, pattern: &str) -> bool {
    #[derive(Clone, Copy)]
    enum T {
        Any,
        One,
        Char(char),
    }
    let mut tokens = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        tokens.push(match c {
            '%' => T::Any,
            '_' => T::One,
            '\\' => T::Char(chars.next().expect("valid pattern")),
            c => T::Char(c),
        });
    }
    fn go(t: &[T], s: &[char]) -> bool {
        match t.split_first() {
            None => s.is_empty(),
            Some((T::Any, rest)) => (0..=s.len()).any(|k| go(rest, &s[k..])),
            Some((T::One, rest)) => s.split_first().is_some_and(|(c, tail)| {
                !matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') && go(rest, tail)
            }),
            Some((T::Char(c), rest)) => s.first() == Some(c) && go(rest, &s[1..]),
        }
    }
    go(&tokens, &s.chars().collect::<Vec<_>>())
}
