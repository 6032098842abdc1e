//! StartsWith, EndsWith, Contains and Like (and their `Not…` forms) over
//! string columns: Utf8, LargeUtf8, Utf8View, and dictionaries or run-end
//! encodings of them, with one literal in any string layout.
//!
//! StartsWith, EndsWith and Contains are the crate's own kernels
//! ([`string_kernels`](super::string_kernels)), byte-wise as Paimon's (an
//! empty literal selects every non-null row of StartsWith, EndsWith and
//! Contains). Like is parsed by [`like`](super::like) and run as one of
//! those kernels (its plain-text shapes: `=`, prefix, suffix, substring) or
//! by the crate's own matcher; never by arrow-string's `like`, whose
//! wildcard and escape rules are not Java's.

use super::like::{Chain, LikePattern};
use super::logical::per_value;
use super::stats::{
    bytes_rule, cut_key, cut_rule, cuttable, CutPrefix, RuleBits, StatsColumn, CUT_MAX,
};
use super::string_kernels::{string_match, StringMatch};
use arrow_array::cast::AsArray;
use arrow_array::Array;
use arrow_buffer::BooleanBuffer;
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::vec::Vec;

/// The positive string functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringFunction {
    StartsWith,
    EndsWith,
    Contains,
    Like,
}

/// Whether `t` is a string layout the string functions accept.
pub(crate) fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// The first literal as text: `Ok(None)` when it is null.
pub(crate) fn string_literal(literals: &dyn Array) -> Result<Option<&str>, ArrowError> {
    if literals.is_empty() {
        return Err(ArrowError::InvalidArgumentError(
            "a string function needs one literal, got none".into(),
        ));
    }
    if literals.is_null(0) {
        return Ok(None);
    }
    Ok(Some(match literals.data_type() {
        DataType::Utf8 => literals.as_string::<i32>().value(0),
        DataType::LargeUtf8 => literals.as_string::<i64>().value(0),
        DataType::Utf8View => literals.as_string_view().value(0),
        t => {
            return Err(ArrowError::InvalidArgumentError(format!(
                "a string function needs a string literal (Utf8, LargeUtf8 or Utf8View), got {t}"
            )))
        }
    }))
}

/// `function(column[i], text)`, one bit per row (bits of null rows
/// unspecified). `text` is the non-null literal.
pub(crate) fn string_bits(
    column: &dyn Array,
    function: StringFunction,
    text: &str,
) -> Result<BooleanBuffer, ArrowError> {
    match function {
        StringFunction::StartsWith => string_match(column, StringMatch::StartsWith, text),
        StringFunction::EndsWith => string_match(column, StringMatch::EndsWith, text),
        StringFunction::Contains => string_match(column, StringMatch::Contains, text),
        StringFunction::Like => match LikePattern::parse(text)? {
            LikePattern::Equal(t) => string_match(column, StringMatch::Equal, &t),
            LikePattern::StartsWith(t) => string_match(column, StringMatch::StartsWith, &t),
            LikePattern::EndsWith(t) => string_match(column, StringMatch::EndsWith, &t),
            LikePattern::Contains(t) => string_match(column, StringMatch::Contains, &t),
            LikePattern::Any => Ok(BooleanBuffer::new_set(column.len())),
            LikePattern::Chain(chain) => per_value(column, &mut |values| matcher(values, &chain)),
        },
    }
}

/// The general Like matcher over every stored value.
fn matcher(values: &dyn Array, chain: &Chain) -> Result<BooleanBuffer, ArrowError> {
    let len = values.len();
    Ok(match values.data_type() {
        DataType::Utf8 => {
            let a = values.as_string::<i32>();
            BooleanBuffer::collect_bool(len, |i| chain.matches(a.value(i).as_bytes()))
        }
        DataType::LargeUtf8 => {
            let a = values.as_string::<i64>();
            BooleanBuffer::collect_bool(len, |i| chain.matches(a.value(i).as_bytes()))
        }
        DataType::Utf8View => {
            let a = values.as_string_view();
            BooleanBuffer::collect_bool(len, |i| chain.matches(a.value(i).as_bytes()))
        }
        t => {
            return Err(ArrowError::InvalidArgumentError(format!(
                "Like needs a string column, got {t}"
            )))
        }
    })
}

/// The prefix a string function's statistics rule prunes by, and whether it
/// is the `Not…` form: StartsWith's literal, and Like's when the pattern is
/// `'prefix%'` (more than Java, which never prunes Like by value; listed in
/// the contract). `Some((None, _))`: a Like of only `%`, every string.
fn stats_prefix(function: StringFunction, text: &str) -> Option<Option<Vec<u8>>> {
    match function {
        StringFunction::StartsWith => Some(Some(text.as_bytes().to_vec())),
        StringFunction::Like => match LikePattern::parse(text).ok()? {
            LikePattern::StartsWith(p) => Some(Some(p.into_bytes())),
            LikePattern::Any => Some(None),
            _ => None,
        },
        _ => None,
    }
}

/// The least byte string above every string that starts with `prefix`:
/// `None` when there is none (an empty prefix, or only `0xFF` bytes).
fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut s = prefix.to_vec();
    while let Some(last) = s.pop() {
        if last != 0xFF {
            s.push(last + 1);
            return Some(s);
        }
    }
    None
}

/// A string function's verdict bits over `column`'s statistics.
///
/// StartsWith (and Like `'prefix%'`) as Paimon Java: may match unless min
/// and max both exclude the prefix (`min < successor(prefix)` and `max >=
/// prefix`, the strings with the prefix being that interval); every row
/// matches when `[min, max]` lies inside it (bounds need not be exact). The
/// `Not…` forms never prune (as Java) but are AllMatch where the positive
/// form is NoMatch. The other functions prune only all-null containers.
pub(crate) fn string_stats(
    function: super::Function,
    column: &StatsColumn,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    let Some((positive, negated)) = function.string_function() else {
        return Ok(column.by_nulls_only());
    };
    let Some(text) = string_literal(literals)? else {
        return Ok(column.null_literal());
    };
    let Some(prefix) = stats_prefix(positive, text) else {
        return Ok(column.by_nulls_only());
    };
    let (min, max) = (column.min.as_ref(), column.max.as_ref());
    let bits = match prefix {
        None => bytes_rule(min, max, active, |_, _| (true, !negated)),
        // Cut to the prefix's length, a string is below succ(p) when its
        // cut is at most p, and at least p when its cut is: one key
        // compare per bound.
        Some(p) if p.len() <= CUT_MAX && cuttable(min.data_type()) => {
            // A min cut above p is at least succ(p): no row has the prefix
            // (`CutPrefix::none`, which then leaves the max unread).
            let key = cut_key(&p, p.len());
            cut_rule(min, max, active, p.len(), CutPrefix { key, negated })
        }
        Some(p) => {
            let succ = prefix_successor(&p);
            let below = |s: &[u8]| succ.as_deref().is_none_or(|succ| s < succ);
            bytes_rule(min, max, active, |min, max| {
                let may = below(min) && max >= p.as_slice();
                let all = min >= p.as_slice() && below(max);
                if negated {
                    (true, !may)
                } else {
                    (may, all)
                }
            })
        }
    };
    Ok(match bits {
        Some(bits) => column.finish(bits, false),
        None => column.by_nulls_only(),
    })
}
