//! Java-compatible LIKE: the pattern parser, its reduction to plain string
//! functions, and the matcher for the general case.
//!
//! Paimon's `Like` follows Java: the whole string must match, case
//! sensitively; `%` is any sequence of characters, newlines included; `_` is
//! exactly one code point that is not a line terminator (`\n`, `\r`, U+0085,
//! U+2028, U+2029); `\` escapes, and only `\%`, `\_` and `\\` are valid.
//!
//! arrow-string's `like` kernel is not used: it translates `_` to a regex `.`
//! with `dot_matches_new_line`, so `_` matches `\n`; it accepts any `\x` as
//! `x` and a trailing `\` as a literal backslash, where Java rejects both.
//! Instead the pattern is parsed here ([`LikePattern::parse`]) and reduced,
//! as Paimon's `LikeOptimization` does: a pattern without `_` is an equality,
//! a prefix, a suffix, a substring (each run by the arrow kernels), every
//! row, or a chain of `%`-separated literal segments. The rest goes to
//! [`Chain`], a matcher without regex: the first segment is matched at the
//! start, the last one backwards from the end, and the middle ones leftmost
//! in between (a `memmem` finder locates each candidate). Each segment has a
//! fixed number of code points, so the leftmost match of a middle segment
//! also ends first, and greedy search is exact.

use arrow_schema::ArrowError;
use memchr::memmem::Finder;
use std::format;
use std::string::String;
use std::vec::Vec;

/// A parsed LIKE pattern, reduced to the cheapest equivalent test.
#[derive(Debug)]
pub(crate) enum LikePattern {
    /// No wildcard: the string equals this text.
    Equal(String),
    /// `text%`.
    StartsWith(String),
    /// `%text`.
    EndsWith(String),
    /// `%text%`.
    Contains(String),
    /// Only `%`s: every string, `""` included.
    Any,
    /// Anything else.
    Chain(Chain),
}

/// One piece of a segment: literal bytes, or `_`.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(Vec<u8>),
    One,
}

/// The pieces between two `%`.
#[derive(Debug, Default, Clone)]
struct Segment {
    pieces: Vec<Piece>,
}

impl Segment {
    fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The segment's text when it has no `_`.
    fn text(&self) -> Option<String> {
        let mut bytes = Vec::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => bytes.extend_from_slice(t),
                Piece::One => return None,
            }
        }
        // Built from a `&str` split at ASCII characters only.
        String::from_utf8(bytes).ok()
    }

    /// Where a match of the segment starting at byte `start` of `s` ends.
    fn match_at(&self, s: &[u8], mut pos: usize) -> Option<usize> {
        for p in &self.pieces {
            match p {
                Piece::Text(t) => {
                    if !bytes_equal(s.get(pos..pos + t.len())?, t) {
                        return None;
                    }
                    pos += t.len();
                }
                Piece::One => pos = one_forward(s, pos)?,
            }
        }
        Some(pos)
    }

    /// Where a match of the segment that ends at byte `end` of `s` starts.
    fn match_before(&self, s: &[u8], mut end: usize) -> Option<usize> {
        for p in self.pieces.iter().rev() {
            match p {
                Piece::Text(t) => {
                    let start = end.checked_sub(t.len())?;
                    if !bytes_equal(&s[start..end], t) {
                        return None;
                    }
                    end = start;
                }
                Piece::One => end = one_backward(s, end)?,
            }
        }
        Some(end)
    }
}

/// `a == b` for slices of equal length, by a byte loop: the texts of a
/// pattern are short, and a `memcmp` call costs more than comparing them
/// (as arrow-string found, apache/arrow-rs#6107).
#[inline(always)]
fn bytes_equal(a: &[u8], b: &[u8]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Whether the code point starting at `s[i]` (a char boundary) is a line
/// terminator, which `_` does not match.
fn is_line_terminator(s: &[u8], i: usize) -> bool {
    match s[i] {
        b'\n' | b'\r' => true,
        0xC2 => s.get(i + 1) == Some(&0x85),
        0xE2 => s.get(i + 1) == Some(&0x80) && matches!(s.get(i + 2), Some(0xA8 | 0xA9)),
        _ => false,
    }
}

/// `_` at char boundary `i`: the end of that code point.
fn one_forward(s: &[u8], i: usize) -> Option<usize> {
    let lead = *s.get(i)?;
    if is_line_terminator(s, i) {
        return None;
    }
    let width = match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    Some((i + width).min(s.len()))
}

/// `_` ending at char boundary `end`: the start of that code point.
fn one_backward(s: &[u8], end: usize) -> Option<usize> {
    let mut i = end.checked_sub(1)?;
    while i > 0 && s[i] & 0xC0 == 0x80 {
        i -= 1;
    }
    (!is_line_terminator(s, i)).then_some(i)
}

/// Below this many bytes left to search, a byte loop finds a segment's
/// first byte faster than a `memmem` call, whose setup then dominates.
const FINDER_MIN_BYTES: usize = 64;

/// A middle segment with its search accelerator.
#[derive(Debug)]
struct Middle {
    segment: Segment,
    /// Finds the segment's leading text, and its first byte, when the
    /// segment starts with text.
    finder: Option<(Finder<'static>, u8)>,
}

impl Middle {
    /// The end of the leftmost match of the segment in `s[from..limit]`.
    fn find(&self, s: &[u8], mut from: usize, limit: usize) -> Option<usize> {
        let hay = &s[..limit];
        loop {
            let start = match &self.finder {
                Some((f, _)) if hay.len() - from >= FINDER_MIN_BYTES => {
                    from + f.find(&hay[from..])?
                }
                Some((_, first)) => from + hay[from..].iter().position(|b| b == first)?,
                None => from,
            };
            if let Some(end) = self.segment.match_at(hay, start) {
                return Some(end);
            }
            // Next candidate: the next char boundary.
            from = start + 1;
            while from < limit && hay[from] & 0xC0 == 0x80 {
                from += 1;
            }
            if from >= limit {
                // Only a segment that can match empty text would match at
                // `limit`, and middle segments are never empty.
                return None;
            }
        }
    }
}

/// The general LIKE matcher: `first % middle % ... % last`, or `first` alone.
#[derive(Debug)]
pub(crate) struct Chain {
    first: Segment,
    middles: Vec<Middle>,
    /// `None` when the pattern has no `%`: `first` must match the whole string.
    last: Option<Segment>,
}

impl Chain {
    /// Whether the whole of `s` (valid UTF-8) matches.
    pub(crate) fn matches(&self, s: &[u8]) -> bool {
        let Some(pos) = self.first.match_at(s, 0) else {
            return false;
        };
        let Some(last) = &self.last else {
            return pos == s.len();
        };
        let Some(limit) = last.match_before(s, s.len()) else {
            return false;
        };
        if limit < pos {
            return false;
        }
        let mut pos = pos;
        for m in &self.middles {
            match m.find(s, pos, limit) {
                Some(end) => pos = end,
                None => return false,
            }
        }
        true
    }
}

impl LikePattern {
    /// Parses a Java LIKE pattern.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] for a `\` followed by anything but
    /// `%`, `_` or `\`, or at the end of the pattern.
    pub(crate) fn parse(pattern: &str) -> Result<Self, ArrowError> {
        let mut segments = vec_of_one();
        let mut text = String::new();
        let flush = |text: &mut String, seg: &mut Segment| {
            if !text.is_empty() {
                seg.pieces
                    .push(Piece::Text(core::mem::take(text).into_bytes()));
            }
        };
        let mut chars = pattern.char_indices();
        while let Some((at, c)) = chars.next() {
            let seg = segments.last_mut().expect("never empty");
            match c {
                '\\' => match chars.next() {
                    Some((_, e @ ('%' | '_' | '\\'))) => text.push(e),
                    Some((_, e)) => {
                        return Err(ArrowError::InvalidArgumentError(format!(
                        "invalid Like pattern {pattern:?}: `\\{e}` at byte {at} is not an escape \
                             (only `\\%`, `\\_` and `\\\\` are)"
                    )))
                    }
                    None => {
                        return Err(ArrowError::InvalidArgumentError(format!(
                        "invalid Like pattern {pattern:?}: it ends with an escape character `\\`"
                    )))
                    }
                },
                '%' => {
                    flush(&mut text, seg);
                    segments.push(Segment::default());
                }
                '_' => {
                    flush(&mut text, seg);
                    seg.pieces.push(Piece::One);
                }
                c => text.push(c),
            }
        }
        flush(&mut text, segments.last_mut().expect("never empty"));
        Ok(Self::reduce(segments))
    }

    fn reduce(mut segments: Vec<Segment>) -> Self {
        let first = segments.remove(0);
        let Some(last) = segments.pop() else {
            return match first.text() {
                Some(t) => LikePattern::Equal(t),
                None => LikePattern::Chain(Chain {
                    first,
                    middles: Vec::new(),
                    last: None,
                }),
            };
        };
        // `%%` is `%`: drop the empty middles.
        let middles: Vec<Segment> = segments.into_iter().filter(|s| !s.is_empty()).collect();
        let texts = (first.text(), last.text());
        match (first.is_empty(), middles.as_slice(), last.is_empty(), texts) {
            (true, [], true, _) => return LikePattern::Any,
            (false, [], true, (Some(f), _)) => return LikePattern::StartsWith(f),
            (true, [], false, (_, Some(l))) => return LikePattern::EndsWith(l),
            (true, [m], true, _) => {
                if let Some(t) = m.text() {
                    return LikePattern::Contains(t);
                }
            }
            _ => {}
        }
        let middles = middles
            .into_iter()
            .map(|segment| {
                let finder = match segment.pieces.first() {
                    Some(Piece::Text(t)) => Some((Finder::new(t).into_owned(), t[0])),
                    _ => None,
                };
                Middle { segment, finder }
            })
            .collect();
        LikePattern::Chain(Chain {
            first,
            middles,
            last: Some(last),
        })
    }
}

fn vec_of_one() -> Vec<Segment> {
    std::vec![Segment::default()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn shape(p: &str) -> String {
        match LikePattern::parse(p).unwrap() {
            LikePattern::Equal(t) => format!("eq {t}"),
            LikePattern::StartsWith(t) => format!("prefix {t}"),
            LikePattern::EndsWith(t) => format!("suffix {t}"),
            LikePattern::Contains(t) => format!("contains {t}"),
            LikePattern::Any => "any".into(),
            LikePattern::Chain(_) => "chain".into(),
        }
    }

    #[test]
    fn reductions() {
        assert_eq!(shape(""), "eq ");
        assert_eq!(shape("abc"), "eq abc");
        assert_eq!(shape(r"a\%b\_c\\"), r"eq a%b_c\");
        assert_eq!(shape("a%"), "prefix a");
        assert_eq!(shape("a%%"), "prefix a");
        assert_eq!(shape(r"a\%%"), "prefix a%");
        assert_eq!(shape("%a"), "suffix a");
        assert_eq!(shape("%%a"), "suffix a");
        assert_eq!(shape("%a%"), "contains a");
        assert_eq!(shape("%%a%%"), "contains a");
        assert_eq!(shape("%"), "any");
        assert_eq!(shape("%%%"), "any");
        assert_eq!(shape("a%b"), "chain");
        assert_eq!(shape("%a%b%"), "chain");
        assert_eq!(shape("_"), "chain");
        assert_eq!(shape("a_%"), "chain");
    }

    #[test]
    fn bad_escapes() {
        for p in [r"\", r"a\", r"\a", r"%\n", r"\中"] {
            let err = LikePattern::parse(p).unwrap_err().to_string();
            assert!(err.contains("invalid Like pattern"), "{p}: {err}");
        }
    }
}
