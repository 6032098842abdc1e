//! The crate's own string kernels: `=`, StartsWith, EndsWith and Contains
//! of a string column against one literal, 64 rows to a `u64` word of the
//! result bitmap.
//!
//! Each kernel decides most rows from cheap data and touches the bytes only
//! for candidates:
//!
//! - **Utf8 / LargeUtf8**: the lengths come from the offsets first (`=`
//!   wants the literal's length, the prefix and suffix tests at least it), a
//!   whole word of 64 rows at a time (AVX2 where the CPU has it: a
//!   subtraction, compare and `movemask` per 8 rows; else a loop LLVM
//!   vectorises). Then the first (or last) 8 bytes are compared with the
//!   literal's as one masked `u64` load: for all 64 rows branch-free when
//!   the rows are short and at least 24 are candidates (4 heads to an AVX2
//!   compare) and always for EndsWith, else for each candidate (with no
//!   branch on the answer for a literal of at most 8 bytes, the rows of
//!   sparse short words fetched 8 words ahead); only the survivors
//!   compare the rest. Where the CPU has AVX-512 (F and BW), a word of
//!   short rows (at most 1 KiB in all) instead marks where the literal's
//!   first (or last) up to 8 bytes start in the word's bytes, 64 positions
//!   to a block, and picks each row's bit by its offset with a permute,
//!   16 rows to a step with the length test. With AVX-512 VBMI and a
//!   literal of 1 to 4 bytes (trusted offsets), the words of short rows are
//!   decided first, all in one loop: each row's 4 bytes picked into a lane
//!   from a 128-byte window by one byte permute, 16 rows a step. `=` of 9
//!   to 64 bytes compares each candidate with no branch on the answer: one
//!   masked load (AVX-512) in a dense word, two overlapping loads in a
//!   sparse one, whose candidates (over trusted offsets) are first listed
//!   a block of 64 words at a time and then compared in one loop
//!   ([`eq_listed`]). A load
//!   never reads outside the values buffer: a buffer imported through the C
//!   Data Interface has no padding, so a prefix load that would run past the
//!   end (the last rows) and a suffix load that would start before the
//!   buffer (the first bytes) compare slices instead.
//! - **Utf8View**: a view holds the length and the first 4 bytes inline, and
//!   a string of at most 12 bytes whole. StartsWith with a prefix of at most
//!   4 bytes is decided from the view alone; longer prefixes of inline
//!   strings from the view, out-of-line candidates from the data buffer.
//!   EndsWith with a suffix of at most 8 bytes compares the 8 view bytes
//!   ending where an inline string ends (branch-free over a word of mostly
//!   inline rows, 4 views to an AVX2 step where the CPU has it) and the last 8 bytes of out-of-line candidates; longer
//!   suffixes read the bytes of the rows long enough only. Contains with a
//!   literal of 1 to 8 bytes where the CPU has AVX-512 F and BW searches
//!   inline strings inside the views, 4 views to a register (a compare
//!   per literal byte, the masks shifted and and-ed, masked to each
//!   view's start positions), and out-of-line rows by one masked load of
//!   at most 64 bytes each, or (AVX-512 VBMI2, a word of mostly
//!   out-of-line rows lying back to back in one data buffer) as one
//!   Utf8 word over their bytes; with AVX2 only, 2 views to a register
//!   and the out-of-line rows in two steps of 32 start positions, or (a
//!   word of mostly out-of-line rows back to back in one data buffer) as
//!   one Utf8 word by the AVX2 word of Contains below. `=` of a literal of
//!   more than 12 bytes takes the views whose length and 4-byte prefix are
//!   the literal's and compares their bytes 8 at a time, branch-free (the
//!   candidates of sparse words prefetched ahead). `=` of a shorter
//!   literal and the other Contains on views run arrow-rs's kernels
//!   (arrow-ord `eq`, which compares whole views at the speed of reading
//!   them, and arrow-string `contains`): ours measured no faster there
//!   (docs/strings.md).
//! - **Contains** over Utf8 / LargeUtf8 searches the values buffer once (as
//!   ClickHouse searches a whole column's chars), 64 positions a step: a
//!   rare pair of the literal's bytes compared at every position (Muła's
//!   SIMD substring search, AVX2 where the CPU has it), each candidate
//!   mapped to its row by galloping forward over the offsets from the last
//!   candidate's row and compared there. A match that runs past its row's
//!   end spans two rows and does not count. Where the CPU has AVX-512 (F,
//!   BW and VBMI2), a literal of at most 8 bytes over rows of at most 48
//!   bytes on average goes a word of 64 rows at a time instead: the
//!   literal's positions in the word's bytes as a bitmap, and for each row
//!   the bits from its start to its end less the literal (a funnel shift
//!   of two bitmap words); a word whose rows span more than 4 KiB, or with
//!   a row longer than 63 bytes plus the literal, is searched row by row.
//!   With AVX2 only, the same words (each row's bits by two gathers and a
//!   funnel shift, 4 rows a step) take the chunks of 1024 rows that follow
//!   a chunk with many matches; chunks with few keep the `memmem` search.
//!
//! Dictionaries and run-end encodings go through
//! [`per_value`](super::logical::per_value): the kernel runs once on the
//! stored values, then the bits are mapped through the keys or runs.
//! All comparisons are byte-wise, as Paimon's: a prefix that ends inside a
//! multi-byte character matches no valid UTF-8 string, as it should.

use super::logical::per_value;
use arrow_array::cast::AsArray;
use arrow_array::{Array, OffsetSizeTrait, Scalar, StringViewArray};
use arrow_buffer::{BooleanBuffer, Buffer};
use arrow_schema::{ArrowError, DataType};
use memchr::arch::all::packedpair::Pair;
use memchr::memmem::Finder;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// `$f::<K>(args)` with `K = $n` for `$n` of 1 to 7, else 8: the copy of a
/// kernel compiled for a literal of `$n` bytes (at most 8).
#[cfg(target_arch = "x86_64")]
macro_rules! by_len {
    ($n:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $n {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            _ => $f::<8>($($arg),*),
        }
    };
}

/// What a string kernel tests of each row against the literal.
///
/// # Examples
///
/// ```
/// use arrow_array::StringArray;
/// use bitbytes::arrow::{string_match, StringMatch};
///
/// let column = StringArray::from(vec![Some("apple"), None, Some("grape")]);
/// let bits = string_match(&column, StringMatch::EndsWith, "pe")?;
/// assert!(!bits.value(0) && bits.value(2));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StringMatch {
    /// The row equals the literal.
    Equal,
    /// The row starts with the literal (every row starts with `""`).
    StartsWith,
    /// The row ends with the literal (every row ends with `""`).
    EndsWith,
    /// The literal occurs in the row (every row contains `""`).
    Contains,
}

impl StringMatch {
    /// Every test, in declaration order.
    pub const ALL: [StringMatch; 4] = [
        StringMatch::Equal,
        StringMatch::StartsWith,
        StringMatch::EndsWith,
        StringMatch::Contains,
    ];

    /// `test(value, literal)` of one value, byte-wise: the row-by-row
    /// answer every kernel of this module gives for each row (its tests
    /// and fuzz target check them against it). An empty literal is a
    /// prefix, suffix and part of every value, and equal only to an empty
    /// value.
    ///
    /// # Examples
    ///
    /// ```
    /// use bitbytes::arrow::StringMatch;
    ///
    /// assert!(StringMatch::StartsWith.matches(b"https://a.example", b"https"));
    /// assert!(StringMatch::Contains.matches(b"abc", b""));
    /// assert!(!StringMatch::Equal.matches(b"abc", b"ab"));
    /// ```
    pub fn matches(self, value: &[u8], literal: &[u8]) -> bool {
        match self {
            StringMatch::Equal => value == literal,
            StringMatch::StartsWith => value.starts_with(literal),
            StringMatch::EndsWith => value.ends_with(literal),
            StringMatch::Contains => {
                literal.is_empty() || value.windows(literal.len()).any(|w| w == literal)
            }
        }
    }
}

/// `test(column[i], literal)` for every row of a string column, one bit per
/// row; **the bits of null rows are unspecified** (apply the column's
/// [`Array::logical_nulls`]).
///
/// The column is Utf8, LargeUtf8 or Utf8View, or a dictionary or run-end
/// encoding of one; a dictionary is tested once per dictionary value. The
/// comparison is byte-wise. This is the kernel behind the string leaves of
/// [`Function`](crate::arrow::Function) and the string `=` / `<>` of
/// [`NullFalseLeafBinaryFunction`](crate::arrow::NullFalseLeafBinaryFunction).
///
/// # Errors
///
/// [`ArrowError::InvalidArgumentError`] when the column's values are not
/// strings.
///
/// # Examples
///
/// ```
/// use arrow_array::{Array, StringViewArray};
/// use bitbytes::arrow::{string_match, StringMatch};
///
/// let column = StringViewArray::from(vec!["https://a.example/x", "http://b", "https"]);
/// let bits = string_match(&column.slice(1, 2), StringMatch::StartsWith, "https")?;
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [false, true]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn string_match(
    column: &dyn Array,
    test: StringMatch,
    literal: &str,
) -> Result<BooleanBuffer, ArrowError> {
    per_value(column, &mut |values| flat(values, test, literal))
}

mod sealed {
    /// Seals [`StringOffset`](super::StringOffset).
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

/// The offset type of a string layout that [`string_match_offsets`] reads:
/// `i32` (Utf8, Binary) or `i64` (LargeUtf8, LargeBinary). Sealed:
/// implemented for exactly those two.
pub trait StringOffset: OffsetSizeTrait + core::fmt::Display + sealed::Sealed {
    /// [`string_match_offsets_unchecked`] over offsets of this type.
    ///
    /// # Safety
    ///
    /// As [`string_match_offsets_unchecked`].
    unsafe fn match_unchecked(
        offsets: &[Self],
        values: &[u8],
        test: StringMatch,
        literal: &[u8],
    ) -> BooleanBuffer;

    /// The kernel with the check of [`string_match_offsets`] (`utf8`: of
    /// [`string_match_utf8`]) done a word of 64 rows at a time, before the
    /// word is read; `false` when a word fails it (the bits are then
    /// unspecified).
    #[doc(hidden)]
    fn match_checked(
        offsets: &[Self],
        values: &[u8],
        test: StringMatch,
        literal: &[u8],
        utf8: bool,
    ) -> (BooleanBuffer, bool);
}

impl StringOffset for i32 {
    unsafe fn match_unchecked(
        offsets: &[i32],
        values: &[u8],
        test: StringMatch,
        literal: &[u8],
    ) -> BooleanBuffer {
        offsets_kernel(offsets, values, test, literal, Check::Trusted).0
    }

    fn match_checked(
        offsets: &[i32],
        values: &[u8],
        test: StringMatch,
        literal: &[u8],
        utf8: bool,
    ) -> (BooleanBuffer, bool) {
        offsets_kernel(offsets, values, test, literal, Check::of(utf8))
    }
}

impl StringOffset for i64 {
    unsafe fn match_unchecked(
        offsets: &[i64],
        values: &[u8],
        test: StringMatch,
        literal: &[u8],
    ) -> BooleanBuffer {
        offsets_kernel(offsets, values, test, literal, Check::Trusted).0
    }

    fn match_checked(
        offsets: &[i64],
        values: &[u8],
        test: StringMatch,
        literal: &[u8],
        utf8: bool,
    ) -> (BooleanBuffer, bool) {
        offsets_kernel(offsets, values, test, literal, Check::of(utf8))
    }
}

/// [`string_match`] over strings held as a plain offsets slice and values
/// buffer (the Arrow Utf8 / LargeUtf8 / Binary / LargeBinary layout) with no
/// arrow-rs array around them: a column of another format, or the buffers
/// of a C Data Interface array. Row `i` is `values[offsets[i]..offsets[i +
/// 1]]`; there are `offsets.len() - 1` rows (none for an empty slice).
/// One bit per row, LSB first, offset 0; nulls are the caller's (a string
/// leaf selects a row when it is valid and its bit is set). The comparison
/// is byte-wise, so the bytes need not be UTF-8.
///
/// The offsets are checked as the kernel goes, a word of 64 rows before
/// the word is read (the offsets are in cache for the kernel then, and no
/// pass of its own reads them); a caller that has checked them already can
/// skip that with [`string_match_offsets_unchecked`]. To check that the
/// bytes are UTF-8 too, in the same way, use [`string_match_utf8`].
///
/// # Errors
///
/// [`ArrowError::InvalidArgumentError`] naming the first bad offset when
/// the offsets are negative, decrease, or run past `values.len()`.
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::{string_match_offsets, StringMatch};
///
/// // "ab", "", "abc", "b"
/// let (offsets, values) = ([0i32, 2, 2, 5, 6], b"ababcb");
/// let bits = string_match_offsets(&offsets, values, StringMatch::StartsWith, b"ab")?;
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, false, true, false]);
///
/// let err = string_match_offsets(&[0i32, 4, 2], values, StringMatch::Equal, b"b").unwrap_err();
/// assert!(err.to_string().contains("offset 2 (2) is below offset 1 (4)"));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn string_match_offsets<O: StringOffset>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    literal: &[u8],
) -> Result<BooleanBuffer, ArrowError> {
    let (bits, sound) = O::match_checked(offsets, values, test, literal, false);
    if sound {
        return Ok(bits);
    }
    // A word failed: the whole check names the first bad offset.
    check_offsets(offsets, values.len())?;
    // SAFETY: just checked (the word checks and this one fail together, so
    // this is not reached).
    Ok(unsafe { O::match_unchecked(offsets, values, test, literal) })
}

/// [`string_match_offsets`] over the buffers of a **Utf8 / LargeUtf8**
/// column that nobody has checked yet (one imported through the C Data
/// Interface, or read from a file): besides the offsets, it checks what
/// arrow-rs's `GenericStringArray::try_new` checks of the bytes, that every
/// row is valid UTF-8 (which puts each offset on a character boundary).
///
/// Both checks run inside the kernel, a word of 64 rows at a time before
/// the word is read, so that its offsets and bytes are checked while they
/// are in cache for the kernel (the AVX-512 word of short rows ORs the
/// 64-byte blocks it loads anyway). Over 1 Mi short rows on AMD EPYC family
/// 25 model 17 (Zen 4), StartsWith took 1.21x the unchecked kernel this way,
/// against 1.39x for a separate `is_sorted` and `is_ascii` pass before it;
/// see `docs/c-abi.md`.
///
/// # Errors
///
/// [`ArrowError::InvalidArgumentError`] naming the first bad offset, as
/// [`string_match_offsets`], or the first row that is not valid UTF-8.
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::{string_match_utf8, StringMatch};
///
/// // "né", "", "nez"
/// let (offsets, values) = ([0i32, 3, 3, 6], "nénez".as_bytes());
/// let bits = string_match_utf8(&offsets, values, StringMatch::StartsWith, b"n")?;
/// assert_eq!(bits.iter().collect::<Vec<_>>(), [true, false, true]);
///
/// // The first row ends inside the `é` (bytes 1 and 2).
/// let err = string_match_utf8(&[0i32, 2, 6], values, StringMatch::Equal, b"n").unwrap_err();
/// assert!(err.to_string().contains("row 0 (bytes 0..2 of the values) is not valid UTF-8"));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn string_match_utf8<O: StringOffset>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    literal: &[u8],
) -> Result<BooleanBuffer, ArrowError> {
    let (bits, sound) = O::match_checked(offsets, values, test, literal, true);
    if sound {
        return Ok(bits);
    }
    check_offsets(offsets, values.len())?;
    check_utf8(offsets, values)?;
    // SAFETY: just checked (as in `string_match_offsets`, not reached).
    Ok(unsafe { O::match_unchecked(offsets, values, test, literal) })
}

/// [`string_match_offsets`] without the check of the offsets.
///
/// # Safety
///
/// The offsets are non-decreasing, the first is at least 0 and the last at
/// most `values.len()` (what an arrow-rs `OffsetBuffer` over `values`
/// guarantees). The kernels load a word of rows' bytes at once, bounded by
/// its first and last offset: an offset out of order would let them read
/// outside `values`.
pub unsafe fn string_match_offsets_unchecked<O: StringOffset>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    literal: &[u8],
) -> BooleanBuffer {
    // SAFETY: forwarded.
    unsafe { O::match_unchecked(offsets, values, test, literal) }
}

/// The check of [`string_match_offsets`]: offsets non-decreasing, from at
/// least 0, to at most `values_len`.
fn check_offsets<O: StringOffset>(offsets: &[O], values_len: usize) -> Result<(), ArrowError> {
    let (Some(first), Some(last)) = (offsets.first(), offsets.last()) else {
        return Ok(());
    };
    // Branch-free over blocks of 64, so that the compiler vectorizes it.
    let tail = &offsets[1..];
    let ordered = offsets
        .chunks(64)
        .zip(tail.chunks(64))
        .all(|(a, b)| a.iter().zip(b).fold(0u32, |n, (x, y)| n + u32::from(x > y)) == 0);
    let bad = |msg: String| Err(ArrowError::InvalidArgumentError(msg));
    if *first < O::usize_as(0) {
        return bad(format!("offset 0 ({first}) is negative"));
    }
    if !ordered {
        let i = offsets.windows(2).position(|w| w[0] > w[1]).unwrap_or(0) + 1;
        return bad(format!(
            "offset {i} ({}) is below offset {} ({}): offsets must not decrease",
            offsets[i],
            i - 1,
            offsets[i - 1]
        ));
    }
    if last.as_usize() > values_len {
        let i = offsets.len() - 1;
        return bad(format!(
            "offset {i} ({last}) is past the end of the {values_len} bytes of values"
        ));
    }
    Ok(())
}

/// The error of [`string_match_utf8`] once the offsets passed
/// [`check_offsets`]: the first row whose bytes are not UTF-8 (a row that
/// starts or ends inside a character is not). Only run when a word's check
/// failed.
#[cold]
fn check_utf8<O: StringOffset>(offsets: &[O], values: &[u8]) -> Result<(), ArrowError> {
    for (i, w) in offsets.windows(2).enumerate() {
        let (a, e) = (w[0].as_usize(), w[1].as_usize());
        if let Err(err) = core::str::from_utf8(&values[a..e]) {
            return Err(ArrowError::InvalidArgumentError(format!(
                "row {i} (bytes {a}..{e} of the values) is not valid UTF-8: {err}"
            )));
        }
    }
    Ok(())
}

/// What [`offsets_kernel`] checks of each word before it reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Nothing: the caller vouches for the offsets.
    Trusted,
    /// The offsets ([`string_match_offsets`]).
    Offsets,
    /// The offsets and that the bytes are UTF-8 ([`string_match_utf8`]).
    Utf8,
}

impl Check {
    fn of(utf8: bool) -> Self {
        if utf8 {
            Check::Utf8
        } else {
            Check::Offsets
        }
    }
}

/// Whether the rows of one word, its offsets `w` (65, or fewer for the last
/// word), are sound over `values`: the offsets at least 0, non-decreasing
/// and at most `values.len()`; with `utf8`, their bytes valid UTF-8 with
/// every offset on a character boundary. Words checked one after another
/// (each holding the last offset of the one before) check the whole
/// column.
#[inline(always)]
fn word_sound<O: OffsetSizeTrait>(w: &[O], values: &[u8], utf8: bool) -> bool {
    let (Some(&first), Some(&last)) = (w.first(), w.last()) else {
        return true;
    };
    let ordered = match <&[O; 65]>::try_from(w) {
        // Summed as integers, with no branch: the loop vectorises.
        Ok(w) => (0..64).fold(0u32, |n, j| n + u32::from(w[j] > w[j + 1])) == 0,
        Err(_) => w.windows(2).all(|p| p[0] <= p[1]),
    };
    if !(ordered && first >= O::usize_as(0) && last.to_usize().is_some_and(|l| l <= values.len())) {
        return false;
    }
    !utf8 || text_sound(w, first.as_usize(), last.as_usize(), values)
}

/// [`word_sound`] in a function of its own, compiled for AVX-512 (`X512`)
/// or AVX2 (`AVX2`) as the kernel that calls it: out of line, so that the
/// checked kernel's word stays small (its AVX-512 word over short rows
/// checks them itself and does not call it).
#[inline(always)]
fn word_sound_out_of_line<O: OffsetSizeTrait, const AVX2: bool, const X512: bool>(
    w: &[O],
    values: &[u8],
    utf8: bool,
) -> bool {
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    #[inline(never)]
    unsafe fn avx512<O: OffsetSizeTrait>(w: &[O], values: &[u8], utf8: bool) -> bool {
        word_sound(w, values, utf8)
    }
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    unsafe fn avx2<O: OffsetSizeTrait>(w: &[O], values: &[u8], utf8: bool) -> bool {
        word_sound(w, values, utf8)
    }
    #[cfg(target_arch = "x86_64")]
    if X512 {
        // SAFETY: `X512` only under `offsets_words_avx512`, whose caller
        // checked the CPU.
        return unsafe { avx512(w, values, utf8) };
    }
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: `AVX2` only under `offsets_words_avx2` or
        // `offsets_words_avx512`, whose callers checked the CPU.
        return unsafe { avx2(w, values, utf8) };
    }
    #[inline(never)]
    fn portable<O: OffsetSizeTrait>(w: &[O], values: &[u8], utf8: bool) -> bool {
        word_sound(w, values, utf8)
    }
    portable(w, values, utf8)
}

/// The UTF-8 half of [`word_sound`] (the offsets passed): every byte of
/// `values[first..end]` ASCII, else the span valid UTF-8 and no offset of
/// `w` on a continuation byte.
#[inline(always)]
fn text_sound<O: OffsetSizeTrait>(w: &[O], first: usize, end: usize, values: &[u8]) -> bool {
    let span = &values[first..end];
    ascii(span) || text_sound_slow(w, first, span)
}

/// Whether every byte of `b` is below 0x80: 64 bytes a step ORed into a
/// 64-byte lane array (one vector OR in an AVX-512 caller, two in an AVX2
/// one), the last 64 overlapping; below 64 bytes, 8 a step.
#[inline(always)]
fn ascii(b: &[u8]) -> bool {
    if b.len() < 64 {
        let mut any = 0u64;
        let mut words = b.chunks_exact(8);
        for c in &mut words {
            any |= load(c);
        }
        for &x in words.remainder() {
            any |= u64::from(x);
        }
        return any & HIGH == 0;
    }
    let mut lanes = [0u8; 64];
    let mut or = |c: &[u8]| {
        let c: &[u8; 64] = c.try_into().expect("64 bytes");
        for (l, x) in lanes.iter_mut().zip(c) {
            *l |= x;
        }
    };
    b.chunks_exact(64).for_each(&mut or);
    or(&b[b.len() - 64..]);
    lanes.iter().fold(0, |a, l| a | l) < 0x80
}

/// [`text_sound`] of a word with a byte above 0x7f.
#[cold]
#[inline(never)]
fn text_sound_slow<O: OffsetSizeTrait>(w: &[O], first: usize, span: &[u8]) -> bool {
    core::str::from_utf8(span).is_ok()
        && w.iter().all(|o| {
            span.get(o.as_usize() - first)
                .is_none_or(|&b| (b as i8) >= -0x40)
        })
}

/// [`word_sound`] of every word of `offsets` (the check of the paths that
/// do not go a word at a time).
fn all_sound<O: OffsetSizeTrait>(offsets: &[O], values: &[u8], utf8: bool) -> bool {
    let len = offsets.len().saturating_sub(1);
    if len == 0 {
        // No row, but a lone offset must lie in the buffer too.
        return word_sound(offsets, values, utf8);
    }
    (0..len)
        .step_by(64)
        .all(|b| word_sound(&offsets[b..=len.min(b + 64)], values, utf8))
}

/// The kernel on a flat string array.
fn flat(values: &dyn Array, test: StringMatch, literal: &str) -> Result<BooleanBuffer, ArrowError> {
    let lit = literal.as_bytes();
    Ok(match values.data_type() {
        DataType::Utf8 => {
            let a = values.as_string::<i32>();
            offsets_kernel(
                a.value_offsets(),
                a.values().as_slice(),
                test,
                lit,
                Check::Trusted,
            )
            .0
        }
        DataType::LargeUtf8 => {
            let a = values.as_string::<i64>();
            offsets_kernel(
                a.value_offsets(),
                a.values().as_slice(),
                test,
                lit,
                Check::Trusted,
            )
            .0
        }
        DataType::Utf8View => {
            let a = values.as_string_view();
            view_kernel(a, test, literal)?
        }
        t => {
            return Err(ArrowError::InvalidArgumentError(format!(
                "a string kernel needs a string column (Utf8, LargeUtf8 or Utf8View), got {t}"
            )))
        }
    })
}

/// A bitmap of `len` bits built a word at a time: `word(base, k)` gives the
/// bits of rows `base..base + k` (`k` is 64 but for the last word).
#[inline(always)]
pub(super) fn words(len: usize, mut word: impl FnMut(usize, usize) -> u64) -> BooleanBuffer {
    let mut out = Vec::with_capacity(len.div_ceil(64));
    let mut base = 0;
    while base < len {
        let k = (len - base).min(64);
        out.push(word(base, k));
        base += 64;
    }
    BooleanBuffer::new(Buffer::from_vec(out), 0, len)
}

/// Words of rows a block of [`eq_listed`] lists before it compares them.
const LIST_WORDS: usize = 64;

/// Blocks of [`eq_listed`] after a block of mostly dense words whose words
/// go to the word loop unlisted.
const DENSE_RUN: usize = 7;

/// `=` of a literal of 9 to 64 bytes over trusted offsets, a block of
/// [`LIST_WORDS`] words at a time. First the rows of the literal's length
/// are listed from the length masks (only the offsets are read; on AVX-512
/// 16 rows a compare, [`x512::len_mask`]), and a prefetch is issued for
/// each listed row's first and last byte. A word with [`DENSE`] or more
/// candidates is not listed: `dense` (the word loop's word) decides it;
/// after a block of mostly such words the next [`DENSE_RUN`] blocks go to
/// `dense` whole, with no length mask first. Then, one block behind (so
/// that the prefetches of a whole block go first), each listed row is
/// compared by two overlapping loads ([`eq_two_loads`]) in one loop over
/// the list, with no branch on the answer. A row whose bytes would pass
/// the end of `values` is false (never with valid offsets).
///
/// The word loop compared each sparse word's candidates in a loop of its
/// own, whose exit mispredicts every word. On AMD EPYC family 25 model 17
/// (Zen 4, 2026-12-07), 1 Mi rows, 1% of them the literal, least of 24
/// to 45 calls, the word loop (f92a6bb) against this: 24-64-byte rows and a
/// 36-byte literal 0.665-0.696 ms against 0.389-0.499; 0-20-byte rows and
/// a 12-byte literal 1.13-1.18 against 0.448. Half the rows the literal
/// (every word dense): 0-20-byte rows 3.19-3.24 against 3.19-3.26, paths
/// 1.63-1.72 against 1.56-1.64 (docs/strings.md).
#[inline(always)]
fn eq_listed<O: Offset, const AVX2: bool, const X512: bool>(
    offsets: &[O],
    values: &[u8],
    lit: &[u8],
    mut dense: impl FnMut(usize, usize) -> u64,
) -> BooleanBuffer {
    let len = offsets.len() - 1;
    let l = O::usize_as(lit.len());
    let mut bits = vec![0u64; len.div_ceil(64)];
    let blocks = bits.len().div_ceil(LIST_WORDS);
    // Per block, alternately: the rows (from the block's first) of the
    // literal's length, and how many.
    let mut lists = [[0u16; 64 * LIST_WORDS]; 2];
    let mut counts = [0usize; 2];
    // After a block of mostly dense words, the next [`DENSE_RUN`] blocks'
    // words all go to `dense`, without a length mask first (it cost 2-4%
    // of the time where every word is dense).
    let mut direct = 0;
    for b in 0..=blocks {
        if b < blocks {
            let first = 64 * LIST_WORDS * b;
            let list = &mut lists[b % 2];
            let mut n = 0;
            let words = LIST_WORDS.min(bits.len() - LIST_WORDS * b);
            if direct > 0 {
                direct -= 1;
                for w in 0..words {
                    let base = first + 64 * w;
                    bits[LIST_WORDS * b + w] = dense(base, (len - base).min(64));
                }
            } else {
                let mut dense_words = 0;
                for w in 0..words {
                    let base = first + 64 * w;
                    let k = (len - base).min(64);
                    let mut m = len_mask::<O, AVX2, X512>(offsets, base, k, l, false);
                    if m.count_ones() >= DENSE {
                        bits[LIST_WORDS * b + w] = dense(base, k);
                        dense_words += 1;
                        continue;
                    }
                    while m != 0 {
                        let j = m.trailing_zeros() as usize;
                        m &= m - 1;
                        list[n] = (64 * w + j) as u16;
                        n += 1;
                        #[cfg(target_arch = "x86_64")]
                        {
                            let p = values.as_ptr().wrapping_add(offsets[base + j].as_usize());
                            // SAFETY: a prefetch is a hint that reads
                            // nothing and never faults, whatever the
                            // address.
                            unsafe {
                                use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                                _mm_prefetch::<_MM_HINT_T0>(p.cast());
                                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(lit.len() - 1).cast());
                            }
                        }
                    }
                }
                if dense_words * 4 >= words * 3 {
                    direct = DENSE_RUN;
                }
            }
            counts[b % 2] = n;
        }
        if b > 0 {
            let p = b - 1;
            let first = 64 * LIST_WORDS * p;
            for &r in &lists[p % 2][..counts[p % 2]] {
                let s = offsets[first + usize::from(r)].as_usize();
                let hit = values
                    .get(s..s.saturating_add(lit.len()))
                    .is_some_and(|row| eq_two_loads(row, lit));
                bits[LIST_WORDS * p + usize::from(r / 64)] |= u64::from(hit) << (r % 64);
            }
        }
    }
    BooleanBuffer::new(Buffer::from_vec(bits), 0, len)
}

/// The words of a column decided before the word loop ([`x512::picked_words`]).
pub(super) struct Picked {
    /// The bits of each word that is not open.
    pub(super) bits: Vec<u64>,
    /// Bit `w % 64` of entry `w / 64`: word `w` is left to the word loop.
    pub(super) open: Vec<u64>,
}

/// [`words`], but the words `picked` decided are taken from it, and only
/// the open ones (all, without `picked`) run `word`.
#[inline(always)]
fn words_from(
    picked: Option<Picked>,
    len: usize,
    mut word: impl FnMut(usize, usize) -> u64,
) -> BooleanBuffer {
    let Some(Picked { mut bits, open }) = picked else {
        return words(len, word);
    };
    for (chunk, &o) in open.iter().enumerate() {
        let mut rest = o;
        while rest != 0 {
            let w = 64 * chunk + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bits[w] = word(64 * w, (len - 64 * w).min(64));
        }
    }
    BooleanBuffer::new(Buffer::from_vec(bits), 0, len)
}

/// Clears the bits of `m` whose row (bit index) fails `keep`, visiting only
/// the set bits.
#[inline(always)]
pub(super) fn refine(m: u64, mut keep: impl FnMut(usize) -> bool) -> u64 {
    let mut out = m;
    let mut rest = m;
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if !keep(j) {
            out &= !(1u64 << j);
        }
    }
    out
}

/// The set bits of `m` whose row (bit index) passes `keep`, each answer
/// or-ed in with no branch on it (so that a word's candidates overlap, and
/// answers that go either way cost no misprediction), unlike [`refine`].
#[inline(always)]
fn select(m: u64, mut keep: impl FnMut(usize) -> bool) -> u64 {
    let (mut out, mut rest) = (0u64, m);
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= u64::from(keep(j)) << j;
    }
    out
}

/// Whether at least one in 8 of a word's candidates `m` matched (`out`):
/// the next word's compare of a StartsWith literal of more than 8 bytes
/// then goes branch-free ([`Words8`]), an early exit mispredicting there.
#[inline(always)]
fn matching(m: u64, out: u64) -> bool {
    m != 0 && out.count_ones() * 8 >= m.count_ones()
}

/// The literal's first and last (up to) 8 bytes as masked words.
#[derive(Debug, Clone, Copy)]
struct Ends {
    /// The first `min(len, 8)` bytes, little-endian, zero above.
    head: u64,
    head_mask: u64,
    /// The last `min(len, 8)` bytes in the high bytes of a word: compared
    /// with the 8 bytes that end where the row ends.
    tail: u64,
    tail_mask: u64,
}

impl Ends {
    fn new(lit: &[u8]) -> Self {
        let k = lit.len().min(8);
        let mut head = [0u8; 8];
        head[..k].copy_from_slice(&lit[..k]);
        let mut tail = [0u8; 8];
        tail[8 - k..].copy_from_slice(&lit[lit.len() - k..]);
        let head_mask = low_bytes_mask(k);
        Self {
            head: u64::from_le_bytes(head),
            head_mask,
            tail: u64::from_le_bytes(tail),
            tail_mask: head_mask.reverse_bits(),
        }
    }
}

/// A `u64` with its low `k` bytes set (`k <= 8`).
pub(super) fn low_bytes_mask(k: usize) -> u64 {
    if k >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * k)) - 1
    }
}

/// A little-endian `u64` from 8 bytes.
#[inline(always)]
pub(super) fn load(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

/// `a == b` for slices of equal length: 8 bytes per compare, the last word
/// overlapping; a byte loop below 8. Cheaper than a `memcmp` call on the
/// short remainders this sees.
#[inline(always)]
pub(super) fn eq_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    debug_assert_eq!(n, b.len());
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    let mut i = 0;
    while i + 8 < n {
        if load(&a[i..]) != load(&b[i..]) {
            return false;
        }
        i += 8;
    }
    load(&a[n - 8..]) == load(&b[n - 8..])
}

/// `values[start..start + lit.len()] == lit` for a literal of more than 8
/// bytes whose first 8 the caller found equal: up to 16 bytes, the last 8
/// by one overlapping load; longer, [`eq_bytes`] from byte 8. The byte
/// loop [`eq_bytes`] runs on the 1-7 bytes left made `=` of a 12-byte
/// literal over rows of 0-20 bytes, half of them equal to it, slower than
/// of a 16-byte one: 3.21-3.24 ms against 2.67-2.69 per 1 Mi rows; with
/// the overlapping load 2.42-2.48 ms (arrow-ord's `eq` 5.37-5.54 ms; AMD
/// EPYC family 25 model 17, Zen 4, 2026-12-08).
#[inline(always)]
fn eq_after_head(values: &[u8], start: usize, lit: &[u8]) -> bool {
    let l = lit.len();
    if l <= 16 {
        load(&values[start + l - 8..start + l]) == load(&lit[l - 8..])
    } else {
        eq_bytes(&values[start + 8..start + l], &lit[8..])
    }
}

/// `values[end - lit.len()..end] == lit` for a literal of more than 8
/// bytes whose last 8 the caller found equal: [`eq_after_head`] mirrored.
#[inline(always)]
fn eq_before_tail(values: &[u8], end: usize, lit: &[u8]) -> bool {
    let l = lit.len();
    if l <= 16 {
        load(&values[end - l..end - l + 8]) == load(&lit[..8])
    } else {
        eq_bytes(&values[end - l..end - 8], &lit[..l - 8])
    }
}

/// A literal of at least 8 bytes as its 8-byte words at 0, 8, … below
/// `len - 8`, then at `len - 8` (overlapping): [`Words8::eq`] compares a
/// slice of the literal's length with it, every word loaded, xor-ed and
/// or-ed, with no branch on the bytes (so that the compares of a word's
/// candidates overlap, and a match, however rare or common, costs no
/// misprediction).
struct Words8 {
    at: Vec<usize>,
    want: Vec<u64>,
}

impl Words8 {
    /// The words of `lit` (at least 8 bytes).
    fn new(lit: &[u8]) -> Self {
        let l = lit.len();
        debug_assert!(l >= 8);
        let at: Vec<usize> = (0..l - 8).step_by(8).chain([l - 8]).collect();
        let want = at.iter().map(|&i| load(&lit[i..])).collect();
        Self { at, want }
    }

    /// `row == lit` for a `row` of the literal's length.
    #[inline(always)]
    fn eq(&self, row: &[u8]) -> bool {
        let mut diff = 0u64;
        for (&i, &w) in self.at.iter().zip(&self.want) {
            diff |= load(&row[i..]) ^ w;
        }
        diff == 0
    }
}

/// Whether `values[start..]` begins with `lit` (the caller checked that the
/// row is at least as long, so `start + lit.len() <= values.len()`).
#[inline(always)]
fn prefix_eq(values: &[u8], start: usize, lit: &[u8], ends: &Ends) -> bool {
    let l = lit.len();
    match values.get(start..start + 8) {
        Some(w) => {
            if load(w) & ends.head_mask != ends.head {
                return false;
            }
            l <= 8 || eq_after_head(values, start, lit)
        }
        // The last bytes of the buffer: no 8-byte load fits.
        None => eq_bytes(&values[start..start + l], lit),
    }
}

/// Whether `row == lit`, both of the same length, 8 to 64 bytes: the first
/// and the last 8, 16 or 32 bytes (overlapping) compared, with no branch on
/// the bytes. Two wide loads, not [`Words8::eq`]'s one per 8 bytes: `=`
/// over 1 Mi paths, 1% matching a 36-byte literal, took 0.67-0.68 ms this
/// way against 0.80-0.82 through `Words8` (AMD EPYC family 25 model 17,
/// Zen 4, 2026-12-07).
#[inline(always)]
fn eq_two_loads(row: &[u8], lit: &[u8]) -> bool {
    #[inline(always)]
    fn ends<const K: usize>(row: &[u8], lit: &[u8]) -> bool {
        let n = lit.len();
        (row[..K] == lit[..K]) & (row[n - K..n] == lit[n - K..n])
    }
    match lit.len() {
        n if n != row.len() => false,
        32.. => ends::<32>(row, lit),
        16.. => ends::<16>(row, lit),
        8.. => ends::<8>(row, lit),
        _ => row == lit,
    }
}

/// Whether `values[..end]` ends with `lit` (the caller checked
/// `lit.len() <= end`).
#[inline(always)]
fn suffix_eq(values: &[u8], end: usize, lit: &[u8], ends: &Ends) -> bool {
    let l = lit.len();
    if end >= 8 {
        if load(&values[end - 8..end]) & ends.tail_mask != ends.tail {
            return false;
        }
        l <= 8 || eq_before_tail(values, end, lit)
    } else {
        // The first bytes of the buffer: no 8-byte load ending at `end` fits.
        eq_bytes(&values[end - l..end], lit)
    }
}

/// The bits of rows `base..base + k` whose length (from the offsets) is `l`
/// (`at_least`: at least `l`). A whole word runs in AVX-512 when `X512`
/// ([`x512::len_mask`]), else in AVX2 when `AVX2` (the caller checked the
/// CPU), else as one subtraction and compare per row.
#[inline(always)]
fn len_mask<O: Offset, const AVX2: bool, const X512: bool>(
    offsets: &[O],
    base: usize,
    k: usize,
    l: O,
    at_least: bool,
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(w) = offsets.get(base..base + 65).filter(|_| X512 && k == 64) {
        // SAFETY: `X512` only under `offsets_words_avx512`, whose caller
        // checked AVX-512 F and BW.
        return unsafe { x512::len_mask(w.try_into().expect("65 offsets"), l, at_least) };
    }
    #[cfg(target_arch = "x86_64")]
    if AVX2 && k == 64 {
        let w: &[O; 65] = offsets[base..base + 65].try_into().expect("65 offsets");
        return O::len_mask_avx2(w, l, at_least);
    }
    len_word(offsets, base, k, |n| if at_least { n >= l } else { n == l })
}

/// The text check of consecutive [`short8`] words whose offsets passed but
/// whose bytes the kernel does not load all (the sparse words of `=` and
/// StartsWith): deferred, and run over up to [`LAZY_ROWS`] rows at once.
/// On AMD EPYC family 25 model 17 (Zen 4), AVX2 kernel, `=` over 1 Mi
/// short rows, few candidates: checked word by word (some 300 bytes each)
/// the check cost 1.78-1.85x the trusted kernel's time, more than one pass
/// over the column before it (1.65-1.70x); deferred, 1.36-1.46x. Deferring it is sound: what the kernel reads
/// of a word depends only on its offsets, which passed; its text decides
/// only whether the answer stands.
#[derive(Default)]
struct LazyText {
    /// The rows `from..to` not yet checked.
    from: usize,
    to: usize,
}

/// The most rows [`LazyText`] defers (20-32 KiB of [`short8`] rows).
const LAZY_ROWS: usize = 64 * 64;

impl LazyText {
    /// Defers the rows `base..base + k`, first checking those deferred
    /// before when they do not end at `base` or are [`LAZY_ROWS`] already.
    #[inline(always)]
    fn defer<O: Offset>(
        &mut self,
        base: usize,
        k: usize,
        offsets: &[O],
        values: &[u8],
        sound: &core::cell::Cell<bool>,
    ) {
        if self.to != base || self.to - self.from >= LAZY_ROWS {
            self.flush(offsets, values, sound);
            self.from = base;
        }
        self.to = base + k;
    }

    /// Checks the rows deferred, clearing `sound` when their text fails.
    #[inline(always)]
    fn flush<O: Offset>(&mut self, offsets: &[O], values: &[u8], sound: &core::cell::Cell<bool>) {
        if self.from < self.to {
            let w = &offsets[self.from..=self.to];
            let (first, end) = (w[0].as_usize(), w[w.len() - 1].as_usize());
            if !text_sound(w, first, end, values) {
                sound.set(false);
            }
        }
        self.from = self.to;
    }
}

/// The `lengths` of [`offsets_words_checked`], a function of its own that
/// is always inlined (as a closure it was not, and lost AVX2).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn lengths_checked<O: Offset, const AVX2: bool, const X512: bool, const CHECKED: bool>(
    offsets: &[O],
    values: &[u8],
    base: usize,
    k: usize,
    l: O,
    at_least: bool,
    utf8: bool,
    pending: &mut bool,
    checked: &impl Fn(usize, usize) -> bool,
) -> Option<u64> {
    if !CHECKED {
        return Some(len_mask::<O, AVX2, X512>(offsets, base, k, l, at_least));
    }
    let (m, short) = len_mask_short::<O, AVX2>(offsets, base, k, l, at_least, values.len());
    if short {
        *pending = utf8;
    } else if !checked(base, k) {
        return None;
    }
    Some(m.unwrap_or_else(|| len_mask::<O, AVX2, false>(offsets, base, k, l, at_least)))
}

/// For a word not yet checked (any offsets): whether it is [`short8`],
/// and its [`len_mask`] when that is known to be right: for a `short8`
/// word, and with `AVX2` for any whole word (its vector subtractions wrap,
/// and the mask is right once the word passes its check).
#[inline(always)]
fn len_mask_short<O: Offset, const AVX2: bool>(
    offsets: &[O],
    base: usize,
    k: usize,
    l: O,
    at_least: bool,
    values_len: usize,
) -> (Option<u64>, bool) {
    let Some(w) = offsets.get(base..base + 65).filter(|_| k == 64) else {
        return (None, false);
    };
    let w: &[O; 65] = w.try_into().expect("65 offsets");
    let short = short8::<O, AVX2>(w, values_len);
    // The AVX2 mask even in AVX-512 builds: with the AVX-512 one this
    // checked loop took 1.08-1.15x the time over paths, StartsWith (AMD
    // EPYC family 25 model 17, Zen 4, 2026-12-08, docs/strings.md).
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        return (Some(O::len_mask_avx2(w, l, at_least)), short);
    }
    (
        short.then(|| len_mask::<O, AVX2, false>(offsets, base, k, l, at_least)),
        short,
    )
}

/// The bits of rows `base..base + k` whose length (from the offsets) passes
/// `f`: one subtraction and test per row, over a fixed 65 offsets for a
/// whole word (a loop LLVM vectorises, wider in an AVX2 caller).
#[inline(always)]
pub(super) fn len_word<O: OffsetSizeTrait>(
    offsets: &[O],
    base: usize,
    k: usize,
    f: impl Fn(O) -> bool,
) -> u64 {
    let mut m = 0u64;
    if k == 64 {
        let w: &[O; 65] = offsets[base..base + 65].try_into().expect("65 offsets");
        for j in 0..64 {
            m |= u64::from(f(w[j + 1] - w[j])) << j;
        }
    } else {
        for j in 0..k {
            m |= u64::from(f(offsets[base + j + 1] - offsets[base + j])) << j;
        }
    }
    m
}

/// The bits of the 64 rows starting at the offsets `w[..64]` whose first 8
/// bytes, under the literal's head mask, are the literal's: one load per
/// row, no branch. The caller checked `w[64] + 8 <= values.len()`, so no
/// load leaves the buffer (a start is clamped to `values.len() - 8` all
/// the same, which takes the bounds checks out of the loop and changes
/// nothing for valid offsets). With `AVX2` (the caller checked the CPU)
/// the 64 heads are compared 4 to a vector. Not inlined: in its own
/// function the loop keeps the literal in registers (inlined into the word
/// loop it spilled; out of line measured 5-30% faster).
///
/// With `OR`, `or` is left nonzero when a byte of a loaded head is above
/// 0x7f, as zero as it was when none is: over a word whose rows hold at
/// most 8 bytes each ([`short8`]) the heads cover every byte of the word,
/// and that is its ASCII test.
#[inline(never)]
fn head_bits<O: Offset, const AVX2: bool, const OR: bool>(
    w: &[O; 65],
    values: &[u8],
    ends: &Ends,
    or: &mut u64,
) -> u64 {
    let Some(top) = values.len().checked_sub(8) else {
        return 0;
    };
    let (head, mask) = (ends.head, ends.head_mask);
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        let at = |j: usize| w[j].as_usize();
        // SAFETY: the caller checked that the CPU has AVX2.
        return unsafe { x86::match_loads::<OR>(values, at, head, mask, or) };
    }
    let mut m = 0u64;
    let mut any = 0u64;
    for c in 0..8 {
        let mut b = 0u64;
        for t in 0..8 {
            let s = w[8 * c + t].as_usize().min(top);
            let h = load(&values[s..s + 8]);
            if OR {
                any |= h;
            }
            b |= u64::from(h & mask == head) << t;
        }
        m |= b << (8 * c);
    }
    if OR {
        *or |= any & HIGH;
    }
    m
}

/// The high bit of each byte of a `u64`.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Whether the whole word `w` (of 64 rows) has sound and short offsets: the first at least 0, each row at most 8 bytes long,
/// and the last at most `values_len - 8`. Then the 8 bytes loaded at each
/// row's start (its head), or ending at each row's end (its tail, when the
/// first offset is at least 8), lie in the buffer and together cover every
/// byte of the word: the OR of those loads is the word's ASCII test
/// ([`head_bits`], [`tail_bits`]). Safe on any offsets: nothing here can
/// overflow, and `true` only for sound ones. Each step `w[j + 1] - w[j]`,
/// wrapping, is in `0..=8`, and `w[0]` and `w[64]` are at least 0: the
/// steps' true sum, at most 512, is `w[64] - w[0]` modulo `2^32` (`2^64`
/// for `i64`), which for two offsets at least 0 leaves only `w[64] - w[0]`
/// itself. So no offset wrapped, and all lie in `w[0]..=w[64]`.
/// With `AVX2` (the caller checked the CPU) the steps are tested by
/// [`Offset::short_steps_avx2`]; either way only where they can pass (a
/// word of more than 512 bytes has a longer row).
#[inline(always)]
fn short8<O: Offset, const AVX2: bool>(w: &[O; 65], values_len: usize) -> bool {
    if !in_buffer8(w, values_len) || w[64].as_usize().wrapping_sub(w[0].as_usize()) > 64 * 8 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: `AVX2` only under `offsets_words_avx2` or
        // `offsets_words_avx512`, whose callers checked the CPU.
        return unsafe { O::short_steps_avx2(w) };
    }
    O::short_steps(w)
}

/// The ends of a [`short8`] word: `w[0] >= 0` and `0 <= w[64] <=
/// values_len - 8` (with its steps, `w[0] <= w[64]` follows).
#[inline(always)]
fn in_buffer8<O: Offset>(w: &[O; 65], values_len: usize) -> bool {
    w[0] >= O::usize_as(0)
        && w[64]
            .to_usize()
            .is_some_and(|e| e.saturating_add(8) <= values_len)
}

/// The bits of the 64 rows ending at the offsets `w[1..]` whose last 8
/// bytes, under the literal's tail mask, are the literal's. The caller
/// checked `w[0] >= 8`; the offsets are valid (the kernels' contract), so
/// no load leaves `values`. Without `X512` each load's start is clamped to
/// `values.len() - 8` (no change for valid offsets) so that the loads need
/// no bounds check, and with `AVX2` the 64 tails are compared 4 a step, as
/// [`head_bits`] compares heads. `OR` and `or`: as for [`head_bits`].
#[inline(always)]
fn tail_bits<O: Offset, const AVX2: bool, const X512: bool, const OR: bool>(
    w: &[O; 65],
    values: &[u8],
    ends: &Ends,
    or: &mut u64,
) -> u64 {
    let Some(top) = values.len().checked_sub(8) else {
        return 0;
    };
    let start = |e: &O| e.as_usize().wrapping_sub(8).min(top);
    #[cfg(target_arch = "x86_64")]
    if AVX2 && !X512 {
        let at = |j: usize| w[j + 1].as_usize().wrapping_sub(8);
        // SAFETY: the caller checked that the CPU has AVX2.
        return unsafe { x86::match_loads::<OR>(values, at, ends.tail, ends.tail_mask, or) };
    }
    let mut m = 0u64;
    let mut any = 0u64;
    for (j, e) in w[1..].iter().enumerate() {
        let tail = if X512 {
            // Bounds-checked: with AVX-512 enabled LLVM turns the clamped
            // loads into gathers, and EndsWith over 24-64-byte rows ran
            // 2.5-3x slower on AMD EPYC family 25 model 17 (Zen 4). A load
            // by `values.get(..)` (a miss when out of range) was gathered
            // the same way and as slow.
            let e = e.as_usize();
            load(&values[e - 8..e])
        } else {
            let s = start(e);
            load(&values[s..s + 8])
        };
        if OR {
            any |= tail;
        }
        m |= u64::from(tail & ends.tail_mask == ends.tail) << j;
    }
    if OR {
        *or |= any & HIGH;
    }
    m
}

/// Below this many candidates in a word of short rows `=` and StartsWith
/// compare the candidates' heads one by one; from it on, all 64 rows'.
/// Either way branch-free on the answer.
const DENSE: u32 = 24;

/// How many words ahead [`prefetch_heads`] asks for the rows' bytes.
const AHEAD: usize = 8;

/// Asks the CPU to fetch the cache lines where the rows `row..row + 64`
/// start (every fourth row's: a line holds four rows of 16 bytes) when
/// they are short (at most [`SHORT_WORD`] bytes in all), so that the head
/// loads of that word, `AHEAD` words later, find them in cache (the
/// candidates of a sparse word are scattered over its bytes, and the
/// hardware prefetcher does not follow them). Prefetching only the
/// candidates' lines (a fixed 8 from the length mask, computed `AHEAD`
/// words early) measured slower. A hint only: a prefetch never faults,
/// and rows past the end are skipped.
#[inline(always)]
fn prefetch_heads<O: Offset>(offsets: &[O], values: &[u8], row: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(w) = offsets
        .get(row..row + 65)
        .filter(|w| w[64].as_usize().wrapping_sub(w[0].as_usize()) <= SHORT_WORD)
    {
        for t in 0..16 {
            let p = values.as_ptr().wrapping_add(w[4 * t].as_usize());
            // SAFETY: a prefetch is a hint that reads nothing and never
            // faults, whatever the address.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
            };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (offsets, values, row);
}

/// How many words ahead [`prefetch_candidates`] asks for the candidates'
/// bytes.
const AHEAD_LONG: usize = 8;

/// Asks the CPU to fetch the first and last cache line of each row of
/// `row..row + 64` whose length is `l` (the candidates of `=`), when those
/// rows are long (more than [`SHORT_WORD`] bytes in all) and the
/// candidates few (at most 16): each such candidate is a line of its own,
/// far from the last one, which the hardware prefetcher does not follow,
/// so that without this the compares of one word wait for their loads one
/// after another (a mismatch past the head mispredicts). A hint only: a
/// prefetch never faults, and rows past the end are skipped.
#[inline(always)]
fn prefetch_candidates<O: Offset, const AVX2: bool>(
    offsets: &[O],
    values: &[u8],
    row: usize,
    l: O,
) {
    // Only with AVX2: its length test is safe on the offsets of a word
    // not yet checked (its subtractions wrap), the portable one is not.
    #[cfg(target_arch = "x86_64")]
    if let Some(w) = offsets
        .get(row..row + 65)
        .filter(|w| AVX2 && w[64].as_usize().wrapping_sub(w[0].as_usize()) > SHORT_WORD)
    {
        let mut m = len_mask::<O, AVX2, false>(offsets, row, 64, l, false);
        if m.count_ones() > 16 {
            return;
        }
        let last = l.as_usize().saturating_sub(1);
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            let p = values.as_ptr().wrapping_add(w[j].as_usize());
            // SAFETY: a prefetch is a hint that reads nothing and never
            // faults, whatever the address.
            unsafe {
                use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(p.cast());
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(last).cast());
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (offsets, values, row, l);
}

/// The candidates (set bits of `m`, rows `base + j`) whose first
/// `min(lit.len(), 8)` bytes are the literal's: one masked 8-byte load
/// each, and no branch on the answer, so that the loads of a word's
/// candidates overlap (a branch on a loaded byte that mispredicts, as a
/// match does, waits for its load). The caller checked that each
/// candidate is at least `lit.len()` bytes long; a row too close to the
/// buffer's end for an 8-byte load compares the slice.
#[inline(always)]
fn head_refine<O: Offset>(
    offsets: &[O],
    base: usize,
    m: u64,
    values: &[u8],
    lit: &[u8],
    ends: &Ends,
) -> u64 {
    let k = lit.len().min(8);
    let mut out = m;
    let mut rest = m;
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let s = offsets[base + j].as_usize();
        let ok = match values.get(s..s + 8) {
            Some(w) => load(w) & ends.head_mask == ends.head,
            None => eq_bytes(&values[s..s + k], &lit[..k]),
        };
        out &= !(u64::from(!ok) << j);
    }
    out
}

/// The branch-free head compare of `=` and StartsWith pays for words whose
/// 64 rows hold at most this many bytes (16 a row on average); over longer
/// rows (24-64-byte paths) comparing the candidates one by one measured
/// faster (each row's head is its own cache line there).
const SHORT_WORD: usize = 64 * 16;

/// `=`, StartsWith, EndsWith or Contains over offsets and values: the
/// offsets of the (possibly sliced) rows, `len + 1` of them, and the whole
/// values buffer they index.
fn offsets_kernel<O: Offset>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    lit: &[u8],
    check: Check,
) -> (BooleanBuffer, bool) {
    let len = offsets.len().saturating_sub(1);
    let whole = len == 0
        || (lit.is_empty() && test != StringMatch::Equal)
        || O::from_usize(lit.len()).is_none();
    // The answers that read no word check first, in a pass of their own.
    let check = match check {
        Check::Trusted => Check::Trusted,
        c if whole => {
            if !all_sound(offsets, values, c == Check::Utf8) {
                return (BooleanBuffer::new_unset(len), false);
            }
            Check::Trusted
        }
        c => c,
    };
    if len == 0 {
        return (BooleanBuffer::new_unset(0), true);
    }
    if lit.is_empty() && test != StringMatch::Equal {
        return (BooleanBuffer::new_set(len), true);
    }
    if O::from_usize(lit.len()).is_none() {
        // Longer than any row can be.
        return (BooleanBuffer::new_unset(len), true);
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the CPU has AVX-512 F and BW (and so AVX2).
        return unsafe { offsets_words_avx512(offsets, values, test, lit, check) };
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_bits() {
        // SAFETY: the CPU has AVX2, POPCNT and BMI1.
        return unsafe { offsets_words_avx2(offsets, values, test, lit, check) };
    }
    offsets_words::<O, false>(offsets, values, test, lit, check)
}

/// Whether the CPU has what the AVX2 word kernels ([`offsets_words_avx2`],
/// [`view_suffix_avx2`]) are compiled with: AVX2, and POPCNT and BMI1 for
/// their candidate counts and bit scans. Without POPCNT enabled,
/// `count_ones` compiles to a dozen instructions (x86-64's baseline has
/// none): enabling it took StartsWith short few-match from 0.95 to 0.89 ms
/// over 1 Mi rows on AMD EPYC family 25 model 1 (Zen 3). Every AVX2 CPU
/// made has both, but a VM may hide them, so they are asked for too.
#[cfg(target_arch = "x86_64")]
fn avx2_bits() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
}

/// Defines `$name`: [`offsets_words`] compiled with `$features`, with the
/// AVX-512 word of short rows ([`x512`]) when `$x512`. The kernel is
/// compiled once per `CHECKED` (a nested `each`), so that the trusted
/// kernel's function holds what it held before the checked one existed,
/// with its own inlining.
macro_rules! offsets_words_for {
    ($(#[$doc:meta])* $name:ident, $features:literal, $x512:literal) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        unsafe fn $name<O: Offset>(
            offsets: &[O],
            values: &[u8],
            test: StringMatch,
            lit: &[u8],
            check: Check,
        ) -> (BooleanBuffer, bool) {
            /// # Safety
            ///
            /// As for the function it is nested in.
            #[target_feature(enable = $features)]
            unsafe fn each<O: Offset, const CHECKED: bool>(
                offsets: &[O],
                values: &[u8],
                test: StringMatch,
                lit: &[u8],
                utf8: bool,
            ) -> (BooleanBuffer, bool) {
                offsets_words_with::<O, true, $x512, CHECKED>(offsets, values, test, lit, utf8)
            }
            // SAFETY: as the caller promised.
            unsafe {
                match check {
                    Check::Trusted => each::<O, false>(offsets, values, test, lit, false),
                    c => each::<O, true>(offsets, values, test, lit, c == Check::Utf8),
                }
            }
        }
    };
}

offsets_words_for!(
    /// [`offsets_words`] compiled for AVX-512 F and BW, with the AVX-512
    /// word of short rows ([`x512`]).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW.
    offsets_words_avx512,
    "avx2,avx512f,avx512bw",
    true
);

offsets_words_for!(
    /// [`offsets_words`] compiled for AVX2, with POPCNT and BMI1 for the
    /// candidates' counts and scans.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, POPCNT and BMI1 ([`avx2_bits`]).
    offsets_words_avx2,
    "avx2,popcnt,bmi1",
    false
);

/// The kernel (`lit` fits `O`, and is not empty but for `=`). `=`,
/// StartsWith and EndsWith go a word of 64 rows at a time: the length test
/// first, then the first or last 8 bytes of the candidates, then the rest
/// of the survivors'. `check`: what is checked of each word before it is
/// read; the `bool` is `false` when a word failed.
#[inline(always)]
fn offsets_words<O: Offset, const AVX2: bool>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    lit: &[u8],
    check: Check,
) -> (BooleanBuffer, bool) {
    match check {
        Check::Trusted => {
            offsets_words_with::<O, AVX2, false, false>(offsets, values, test, lit, false)
        }
        c => {
            offsets_words_with::<O, AVX2, false, true>(offsets, values, test, lit, c == Check::Utf8)
        }
    }
}

/// [`offsets_words`], with the AVX-512 word of short rows when `X512` (the
/// caller checked the CPU), each word checked first when `CHECKED` (with
/// `utf8`, its text too).
#[inline(always)]
fn offsets_words_with<O: Offset, const AVX2: bool, const X512: bool, const CHECKED: bool>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    lit: &[u8],
    utf8: bool,
) -> (BooleanBuffer, bool) {
    // Contains does not go a word at a time on every path: it checks
    // first, in a pass of its own (it reads every byte anyway).
    if CHECKED && test == StringMatch::Contains {
        if !all_sound(offsets, values, utf8) {
            return (BooleanBuffer::new_unset(offsets.len() - 1), false);
        }
        return (contains_words::<O, AVX2, X512>(offsets, values, lit), true);
    }
    let sound = core::cell::Cell::new(true);
    let bits =
        offsets_words_checked::<O, AVX2, X512, CHECKED>(offsets, values, test, lit, utf8, &sound);
    (bits, sound.get())
}

/// [`offsets_words_with`] but for Contains' check, which sets `sound`.
#[inline(always)]
fn offsets_words_checked<O: Offset, const AVX2: bool, const X512: bool, const CHECKED: bool>(
    offsets: &[O],
    values: &[u8],
    test: StringMatch,
    lit: &[u8],
    utf8: bool,
    sound: &core::cell::Cell<bool>,
) -> BooleanBuffer {
    let len = offsets.len() - 1;
    let l = O::usize_as(lit.len());
    let ends = Ends::new(lit);
    // The words of a StartsWith literal of more than 8 bytes.
    let prefix8 = (test == StringMatch::StartsWith && lit.len() > 8).then(|| Words8::new(lit));
    let start = |i: usize| offsets[i].as_usize();
    // With `CHECKED`, whether the rows `base..base + k` are sound (their
    // offsets, and with `utf8` their text: [`word_sound`]), clearing
    // `sound` when not. A word is checked before any path reads it but
    // the AVX-512 word, which reads only inside the word's span whatever
    // the offsets, and answers for `i32` offsets itself (its loads of the
    // span and its lengths are what the check reads).
    let checked = |base: usize, k: usize| -> bool {
        if !CHECKED {
            return true;
        }
        let ok = word_sound_out_of_line::<O, AVX2, X512>(&offsets[base..=base + k], values, utf8);
        if !ok {
            sound.set(false);
        }
        ok
    };
    // The length mask of the rows `base..base + k` (`at_least`: of at
    // least `l` bytes, else of `l`). With `CHECKED` the word is checked
    // first (`None` when it fails), but a [`short8`] word only sets
    // `pending` (with `utf8`): its offsets passed, and its text is checked
    // by the caller, by the OR of its heads or tails when it loads them
    // all, else by `checked`.
    let lengths = |base: usize, k: usize, at_least: bool, pending: &mut bool| -> Option<u64> {
        lengths_checked::<O, AVX2, X512, CHECKED>(
            offsets, values, base, k, l, at_least, utf8, pending, &checked,
        )
    };
    // The whole word of rows `base..base + 64` when its rows are short
    // and its 8-byte head loads stay inside the values buffer.
    let heads_fit = |base: usize, k: usize| -> Option<&[O; 65]> {
        let w: &[O; 65] = offsets.get(base..base + 65)?.try_into().ok()?;
        let (first, end) = (w[0].as_usize(), w[64].as_usize());
        (k == 64 && end + 8 <= values.len() && end - first <= SHORT_WORD).then_some(w)
    };
    // The AVX-512 word (`X512`, the caller checked the CPU) of the rows
    // `base..base + 64` with `pat`, the literal's first (`at_end`: last) up
    // to 8 bytes, when they are short and their blocks lie in the buffer.
    let wide = |base: usize, k: usize, at_least: bool, at_end: bool| -> Option<(u64, bool)> {
        #[cfg(target_arch = "x86_64")]
        if X512 && k == 64 && !lit.is_empty() {
            let w: &[O; 65] = offsets.get(base..base + 65)?.try_into().ok()?;
            if !x512::fits(w[0].as_usize(), w[64].as_usize(), values.len()) {
                return None;
            }
            let n = lit.len().min(8);
            let pat = if at_end {
                &lit[lit.len() - n..]
            } else {
                &lit[..n]
            };
            // With `CHECKED`, the word is sound when its bytes are ASCII
            // (`fill` saw them all) and its offsets in order (`fits` put
            // `w[0]` and `w[64]` in the buffer).
            let mut ascii = false;
            // SAFETY: `X512` only under `offsets_words_avx512`, whose
            // caller checked the CPU; `fits` holds; `1 <= n <= 8` and
            // `n <= lit.len() = l` (the literal is not empty here).
            let m = unsafe { O::anchored_avx512(w, values, pat, l, at_least, at_end, &mut ascii) };
            return Some((
                m,
                CHECKED && ascii && (0..64).fold(true, |o, j| o & (w[j] <= w[j + 1])),
            ));
        }
        let _ = (base, k, at_least, at_end);
        None
    };
    // The survivors of the first 8 bytes compare the rest.
    let rest = |base: usize, m: u64| -> u64 {
        if lit.len() <= 8 {
            return m;
        }
        refine(m, |j| {
            let s = start(base + j);
            eq_after_head(values, s, lit)
        })
    };
    // Trusted offsets, AVX-512 with VBMI, and `=`, StartsWith or EndsWith
    // of 1 to 4 bytes: the words of short rows are decided first, all in
    // one loop ([`x512::picked_words`]); the word loop takes the rest.
    #[cfg(target_arch = "x86_64")]
    let picked = (X512
        && !CHECKED
        && (1..=x512::PICK).contains(&lit.len())
        && test != StringMatch::Contains
        && std::is_x86_feature_detected!("avx512vbmi"))
    .then(|| {
        // SAFETY: `X512` only under `offsets_words_avx512`, whose caller
        // checked AVX-512 F and BW, and VBMI was checked; `1 <= lit.len()
        // <= 4`; not Contains.
        unsafe { x512::picked_words(offsets, values, lit, test) }
    });
    #[cfg(not(target_arch = "x86_64"))]
    let picked = None;
    match test {
        StringMatch::Equal if lit.is_empty() => words(len, |base, k| {
            if !checked(base, k) {
                return 0;
            }
            len_mask::<O, AVX2, false>(offsets, base, k, l, false)
        }),
        StringMatch::Equal | StringMatch::StartsWith => {
            let at_least = test == StringMatch::StartsWith;
            // Whether the last word had few candidates: then the words
            // ahead likely have too, and their rows' bytes are fetched
            // early.
            let mut sparse = true;
            // Whether the last word was [`matching`] (StartsWith of more
            // than 8 bytes without AVX-512): then a compare that stops at
            // the first differing word would mispredict, and the
            // branch-free one runs. On AMD EPYC family
            // 25 model 1 (Zen 3), 1 Mi paths and a 30-byte literal: half
            // the rows matching, 8.2-8.3 ms -> 5.2-5.7; 1% matching, the
            // branch-free compare on every word took 5.2 ms against 3.6-3.9
            // with the early exit (docs/strings.md).
            let mut many = false;
            let mut lazy = LazyText::default();
            let word = |base: usize, k: usize| {
                // With `CHECKED`, whether the word's offsets are sound and
                // its rows short ([`short8`]) but its text is still to be
                // checked: by the OR of its heads when the dense path loads
                // them all, else by `lazy`.
                let mut pending = false;
                if !CHECKED {
                    if let Some((m, _)) = wide(base, k, at_least, false) {
                        return rest(base, m);
                    }
                } else {
                    match wide(base, k, at_least, false) {
                        Some((m, ok)) if ok || checked(base, k) => return rest(base, m),
                        Some(_) => return 0,
                        None => {}
                    }
                }
                if sparse {
                    prefetch_heads(offsets, values, base + 64 * AHEAD);
                    if !at_least {
                        prefetch_candidates::<O, AVX2>(offsets, values, base + 64 * AHEAD_LONG, l);
                    }
                }
                let Some(m) = lengths(base, k, at_least, &mut pending) else {
                    return 0;
                };
                sparse = m.count_ones() < DENSE;
                let dense = heads_fit(base, k).filter(|_| !sparse);
                if pending && dense.is_none() {
                    lazy.defer(base, k, offsets, values, sound);
                }
                let out = match dense {
                    Some(w) => {
                        let mut high = 0;
                        let h = head_bits::<O, AVX2, CHECKED>(w, values, &ends, &mut high);
                        if pending && high != 0 && !checked(base, k) {
                            return 0;
                        }
                        rest(base, m & h)
                    }
                    _ if lit.len() <= 8 => head_refine(offsets, base, m, values, lit, &ends),
                    // StartsWith of 9 to 64 bytes with AVX-512, and `=`
                    // in a dense word: one masked load a candidate, no
                    // branch on the answer (3x faster on paths
                    // many-match, where half the candidates match; `=`
                    // over paths many-match 1.94-2.24 ms against
                    // 2.74-2.93 with the early-exit compare, AMD EPYC
                    // family 25 model 17, Zen 4, 2026-12-07). A sparse
                    // `=` word takes the two loads below instead: the
                    // masked loads measured 1.2-1.65 ms against 0.88-0.90
                    // there.
                    // SAFETY: `X512` only under `offsets_words_avx512`,
                    // whose caller checked AVX-512 F and BW; `9 <= lit.len()
                    // <= 64`.
                    #[cfg(target_arch = "x86_64")]
                    _ if X512 && (at_least || !sparse) && lit.len() <= 64 => unsafe {
                        x512::refine_prefix(offsets, base, m, values, lit)
                    },
                    // StartsWith of more than 8 bytes without AVX-512,
                    // after a word where many candidates matched: the
                    // literal's 8-byte words against the row's first bytes,
                    // no branch on the answer (a row whose bytes would pass
                    // the end of `values`, offsets that are not valid, is
                    // false).
                    _ if at_least && many => {
                        let words8 = prefix8.as_ref().expect("a literal of more than 8 bytes");
                        select(m, |j| {
                            let s = start(base + j);
                            values
                                .get(s..s.saturating_add(lit.len()))
                                .is_some_and(|row| words8.eq(row))
                        })
                    }
                    // `=` of 9 to 64 bytes in a sparse word of checked
                    // offsets (trusted ones list their sparse words:
                    // [`eq_listed`]), and in every word without AVX-512:
                    // each candidate (of the literal's length) by two
                    // overlapping loads, no branch on the answer, so that
                    // the candidates' loads overlap.
                    _ if !at_least && lit.len() <= 64 => select(m, |j| {
                        let s = start(base + j);
                        values
                            .get(s..s.saturating_add(lit.len()))
                            .is_some_and(|row| eq_two_loads(row, lit))
                    }),
                    // A longer literal: one pass, the rest compared right
                    // after a head that matches (measured faster than two
                    // passes on 24-64-byte paths, whose heads all match).
                    _ => refine(m, |j| prefix_eq(values, start(base + j), lit, &ends)),
                };
                many = matching(m, out);
                out
            };
            // `=` of 9 to 64 bytes over trusted offsets: the candidates
            // of a block listed, then compared in one loop; the words of
            // many candidates by `word`.
            let bits = if !CHECKED && !at_least && (9..=64).contains(&lit.len()) {
                eq_listed::<O, AVX2, X512>(offsets, values, lit, word)
            } else {
                words_from(picked, len, word)
            };
            lazy.flush(offsets, values, sound);
            bits
        }
        StringMatch::EndsWith => words_from(picked, len, |base, k| {
            // As for StartsWith, with the tails for the heads.
            let mut pending = false;
            let wide = match wide(base, k, true, true) {
                Some((m, ok)) if ok || checked(base, k) => Some(m),
                Some(_) => return 0,
                None => None,
            };
            if let Some(m) = wide {
                if lit.len() <= 8 {
                    return m;
                }
                return refine(m, |j| {
                    let e = start(base + j + 1);
                    eq_before_tail(values, e, lit)
                });
            }
            let Some(m) = lengths(base, k, true, &mut pending) else {
                return 0;
            };
            let w = offsets
                .get(base..base + 65)
                .and_then(|w| <&[O; 65]>::try_from(w).ok())
                .filter(|w| k == 64 && w[0].as_usize() >= 8);
            if pending && (w.is_none() || m == 0) && !checked(base, k) {
                return 0;
            }
            match w {
                Some(w) if m != 0 => {
                    let mut high = 0;
                    let t = tail_bits::<O, AVX2, X512, CHECKED>(w, values, &ends, &mut high);
                    if pending && high != 0 && !checked(base, k) {
                        return 0;
                    }
                    let m = m & t;
                    if lit.len() <= 8 {
                        return m;
                    }
                    refine(m, |j| {
                        let e = start(base + j + 1);
                        eq_before_tail(values, e, lit)
                    })
                }
                _ => refine(m, |j| suffix_eq(values, start(base + j + 1), lit, &ends)),
            }
        }),
        StringMatch::Contains => contains_words::<O, AVX2, X512>(offsets, values, lit),
    }
}

/// Contains of [`offsets_words_with`] (valid offsets, `lit` not empty).
#[inline(always)]
fn contains_words<O: Offset, const AVX2: bool, const X512: bool>(
    offsets: &[O],
    values: &[u8],
    lit: &[u8],
) -> BooleanBuffer {
    let len = offsets.len() - 1;
    #[cfg(target_arch = "x86_64")]
    if X512 && contains_words_pay(offsets, lit) && x512_vbmi2() {
        let finder = Finder::new(lit);
        return words(len, |base, k| {
            let w = offsets
                .get(base..base + 65)
                .and_then(|w| <&[O; 65]>::try_from(w).ok())
                .filter(|_| k == 64);
            // SAFETY: `X512` only under `offsets_words_avx512`,
            // whose caller checked AVX-512 F and BW, and VBMI2
            // was checked above; `1 <= lit.len() <= 8` (by
            // `contains_words_pay`).
            if let Some(m) = w.and_then(|w| unsafe { O::contains_avx512(w, values, lit) }) {
                return m;
            }
            contains_rows(&offsets[base..base + k + 1], values, &finder)
        });
    }
    #[cfg(target_arch = "x86_64")]
    if AVX2 && contains_words_pay(offsets, lit) {
        // SAFETY: `AVX2` only under `offsets_words_avx2` or
        // `offsets_words_avx512`, whose callers checked the CPU;
        // `1 <= lit.len() <= 8` (by `contains_words_pay`).
        return unsafe { contains_words_avx2(offsets, values, lit, CONTAINS_CHUNK, None) };
    }
    contains_offsets::<O, AVX2>(offsets, values, lit)
}

/// The offsets of a Utf8 (`i32`) or LargeUtf8 (`i64`) array, with the length
/// test of a whole word of rows in AVX2 where the CPU has it.
trait Offset: OffsetSizeTrait {
    /// Whether each step `w[j + 1] - w[j]`, wrapping, is `0..=8` (one
    /// unsigned compare a row, no branch: the loop vectorises).
    fn short_steps(w: &[Self; 65]) -> bool;

    /// The bits of rows `0..64` whose length `w[j + 1] - w[j]` is `l`
    /// (`at_least`: at least `l`), in AVX2. `l` is at least 1.
    #[cfg(target_arch = "x86_64")]
    fn len_mask_avx2(w: &[Self; 65], l: Self, at_least: bool) -> u64;

    /// [`Offset::short_steps`] in AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    unsafe fn short_steps_avx2(w: &[Self; 65]) -> bool;

    /// [`x512::anchored_i32`] / [`x512::anchored_i64`].
    ///
    /// # Safety
    ///
    /// As for [`x512::anchored_i32`].
    #[cfg(target_arch = "x86_64")]
    unsafe fn anchored_avx512(
        w: &[Self; 65],
        values: &[u8],
        pat: &[u8],
        l: Self,
        at_least: bool,
        at_end: bool,
        ascii: &mut bool,
    ) -> u64;

    /// [`x512::contains_word`] of the rows of `w`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI2, and `1 <= pat.len() <=
    /// 8`.
    #[cfg(target_arch = "x86_64")]
    unsafe fn contains_avx512(w: &[Self; 65], values: &[u8], pat: &[u8]) -> Option<u64>;
}

impl Offset for i32 {
    #[inline(always)]
    fn short_steps(w: &[i32; 65]) -> bool {
        (0..64).fold(0u32, |n, j| {
            n | u32::from(w[j + 1].wrapping_sub(w[j]) as u32 > 8)
        }) == 0
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn len_mask_avx2(w: &[i32; 65], l: i32, at_least: bool) -> u64 {
        // SAFETY: only called from `offsets_kernel_avx2`, whose caller
        // checked that the CPU has AVX2.
        unsafe { x86::len_mask_i32(w, l, at_least) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn short_steps_avx2(w: &[i32; 65]) -> bool {
        // SAFETY: as the caller promised.
        unsafe { x86::short_steps_i32(w) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn anchored_avx512(
        w: &[i32; 65],
        values: &[u8],
        pat: &[u8],
        l: i32,
        at_least: bool,
        at_end: bool,
        ascii: &mut bool,
    ) -> u64 {
        // SAFETY: as the caller promised.
        unsafe { x512::anchored_i32(w, values, pat, l, at_least, at_end, ascii) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn contains_avx512(w: &[i32; 65], values: &[u8], pat: &[u8]) -> Option<u64> {
        // SAFETY: as the caller promised.
        unsafe { x512::contains_word(w, w[0] as usize, w[64] as usize, values, pat) }
    }
}

impl Offset for i64 {
    #[inline(always)]
    fn short_steps(w: &[i64; 65]) -> bool {
        (0..64).fold(0u32, |n, j| {
            n | u32::from(w[j + 1].wrapping_sub(w[j]) as u64 > 8)
        }) == 0
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn len_mask_avx2(w: &[i64; 65], l: i64, at_least: bool) -> u64 {
        // SAFETY: as for `i32`.
        unsafe { x86::len_mask_i64(w, l, at_least) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn short_steps_avx2(w: &[i64; 65]) -> bool {
        // SAFETY: as the caller promised.
        unsafe { x86::short_steps_i64(w) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn anchored_avx512(
        w: &[i64; 65],
        values: &[u8],
        pat: &[u8],
        l: i64,
        at_least: bool,
        at_end: bool,
        ascii: &mut bool,
    ) -> u64 {
        // SAFETY: as the caller promised.
        unsafe { x512::anchored_i64(w, values, pat, l, at_least, at_end, ascii) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn contains_avx512(w: &[i64; 65], values: &[u8], pat: &[u8]) -> Option<u64> {
        let (first, end) = (w[0] as usize, w[64] as usize);
        // SAFETY: as the caller promised; the offsets less `w[0]` as
        // `i32` (at most `SPAN_BIG` for valid rows of a word that fits).
        unsafe { x512::contains_word(&x512::narrow(w), first, end, values, pat) }
    }
}

/// The AVX2 length tests: two unaligned loads of the offsets (shifted by
/// one), a subtraction, a compare and a `movemask` per 8 (`i32`) or 4
/// (`i64`) rows.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    /// See [`Offset::len_mask_avx2`](super::Offset::len_mask_avx2).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn len_mask_i32(w: &[i32; 65], l: i32, at_least: bool) -> u64 {
        let want = _mm256_set1_epi32(if at_least { l - 1 } else { l });
        let p = w.as_ptr();
        let mut m = 0u64;
        for c in 0..8 {
            // SAFETY: lanes 8c..8c + 9 <= 65 of `w`.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(8 * c).cast()),
                    _mm256_loadu_si256(p.add(8 * c + 1).cast()),
                )
            };
            let n = _mm256_sub_epi32(b, a);
            let hit = if at_least {
                _mm256_cmpgt_epi32(n, want)
            } else {
                _mm256_cmpeq_epi32(n, want)
            };
            let bits = _mm256_movemask_ps(_mm256_castsi256_ps(hit)) as u32 as u64;
            m |= bits << (8 * c);
        }
        m
    }

    /// See [`Offset::short_steps`](super::Offset::short_steps).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn short_steps_i32(w: &[i32; 65]) -> bool {
        let p = w.as_ptr();
        // The largest step of each lane, unsigned (a negative one is
        // above 8).
        let mut top = _mm256_setzero_si256();
        for c in 0..8 {
            // SAFETY: lanes 8c..8c + 9 <= 65 of `w`.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(8 * c).cast()),
                    _mm256_loadu_si256(p.add(8 * c + 1).cast()),
                )
            };
            top = _mm256_max_epu32(top, _mm256_sub_epi32(b, a));
        }
        let eight = _mm256_set1_epi32(8);
        let le8 = _mm256_cmpeq_epi32(_mm256_max_epu32(top, eight), eight);
        _mm256_movemask_ps(_mm256_castsi256_ps(le8)) == 0xff
    }

    /// See [`Offset::short_steps`](super::Offset::short_steps).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn short_steps_i64(w: &[i64; 65]) -> bool {
        let p = w.as_ptr();
        let eight = _mm256_set1_epi64x(8);
        // The sign bit of a lane set when a step is negative or above 8.
        let mut bad = _mm256_setzero_si256();
        for c in 0..16 {
            // SAFETY: lanes 4c..4c + 5 <= 65 of `w`.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(4 * c).cast()),
                    _mm256_loadu_si256(p.add(4 * c + 1).cast()),
                )
            };
            let n = _mm256_sub_epi64(b, a);
            bad = _mm256_or_si256(bad, _mm256_or_si256(n, _mm256_cmpgt_epi64(n, eight)));
        }
        _mm256_movemask_pd(_mm256_castsi256_pd(bad)) == 0
    }

    /// The bits of the 64 heads `load(&values[at(j)..at(j) + 8])` (`at(j)`
    /// clamped to `values.len() - 8`, at least 8 bytes) that, under
    /// `mask`, are `want`, 4 a step; with `OR`, a bit in `or` set when a
    /// byte of a head is above 0x7f (`or` left as it was when none is).
    /// Each vector of 4 heads is built in registers (two `vmovq`, two
    /// `vpinsrq` and a `vinserti128`): storing the heads to an array and
    /// reloading them 4 at a time, as before, stalled on the reloads (the
    /// stores cannot forward to a wider load). AMD EPYC family 25 model 17
    /// (Zen 4), AVX2 kernel, 1 Mi short rows: StartsWith 754 -> 610 us.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn match_loads<const OR: bool>(
        values: &[u8],
        at: impl Fn(usize) -> usize,
        want: u64,
        mask: u64,
        or: &mut u64,
    ) -> u64 {
        let top = values.len() - 8;
        let ld = |j: usize| {
            let s = at(j).min(top);
            super::load(&values[s..s + 8]) as i64
        };
        let (want, keep) = (
            _mm256_set1_epi64x(want as i64),
            _mm256_set1_epi64x(mask as i64),
        );
        let mut m = 0u64;
        let mut any = _mm256_setzero_si256();
        for c in 0..16 {
            let j = 4 * c;
            let h = _mm256_set_epi64x(ld(j + 3), ld(j + 2), ld(j + 1), ld(j));
            if OR {
                any = _mm256_or_si256(any, h);
            }
            let hit = _mm256_cmpeq_epi64(_mm256_and_si256(h, keep), want);
            let bits = _mm256_movemask_pd(_mm256_castsi256_pd(hit)) as u32 as u64;
            m |= bits << j;
        }
        if OR {
            *or |= u64::from(_mm256_movemask_epi8(any) as u32);
        }
        m
    }

    /// [`suffix_classify`](super::suffix_classify) of a whole word, 4
    /// views a step: each view's 8 bytes ending where an inline string
    /// ends picked by a byte shuffle within its 128-bit lane (the shuffle
    /// index `min(len, 12) - 4 + k` for byte `k`, negative, so zero, below
    /// the string), the lengths from the views' low halves.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn suffix_classify(
        views: &[u128; 64],
        lit_len: u32,
        tail: u64,
        tail_mask: u64,
    ) -> (u64, u64) {
        let twelve = _mm256_set1_epi32(super::INLINE as i32);
        let zero = _mm256_setzero_si256();
        // Bytes 0..8: k - 4 (the shuffle index less min(len, 12)); bytes
        // 8..16: -128 (stays negative: zero).
        let iota = _mm256_setr_epi8(
            -4, -3, -2, -1, 0, 1, 2, 3, -128, -128, -128, -128, -128, -128, -128, -128, -4, -3, -2,
            -1, 0, 1, 2, 3, -128, -128, -128, -128, -128, -128, -128, -128,
        );
        let (want, keep) = (
            _mm256_set1_epi64x(tail as i64),
            _mm256_set1_epi64x(tail_mask as i64),
        );
        let low32 = _mm256_set1_epi64x(0xffff_ffff);
        let small_max = _mm256_set1_epi64x(super::INLINE as i64 + 1);
        let shortest = _mm256_set1_epi64x(i64::from(lit_len) - 1);
        // The 8 bytes ending where each of 2 views' inline string ends, in
        // the low half of its lane.
        let tails = |v: __m256i| {
            let at = _mm256_shuffle_epi8(_mm256_min_epu32(v, twelve), zero);
            _mm256_shuffle_epi8(v, _mm256_add_epi8(at, iota))
        };
        let p = views.as_ptr();
        let (mut inline, mut outside) = (0u64, 0u64);
        for c in 0..16 {
            // SAFETY: views 4c..4c + 4 <= 64.
            let (v0, v1) = unsafe {
                (
                    _mm256_loadu_si256(p.add(4 * c).cast()),
                    _mm256_loadu_si256(p.add(4 * c + 2).cast()),
                )
            };
            // Views 4c, 4c + 2, 4c + 1, 4c + 3 by the unpack, then in order.
            let t = _mm256_permute4x64_epi64::<0xd8>(_mm256_unpacklo_epi64(tails(v0), tails(v1)));
            let n = _mm256_and_si256(
                _mm256_permute4x64_epi64::<0xd8>(_mm256_unpacklo_epi64(v0, v1)),
                low32,
            );
            let small = _mm256_cmpgt_epi64(small_max, n);
            let hit = _mm256_and_si256(
                _mm256_and_si256(
                    _mm256_cmpeq_epi64(_mm256_and_si256(t, keep), want),
                    _mm256_cmpgt_epi64(n, shortest),
                ),
                small,
            );
            let bits = |x: __m256i| _mm256_movemask_pd(_mm256_castsi256_pd(x)) as u64;
            inline |= bits(hit) << (4 * c);
            outside |= (bits(small) ^ 0xf) << (4 * c);
        }
        (inline, outside)
    }

    /// See [`pair_mask`](super::pair_mask): 32 positions to a compare.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn pair_mask(a: &[u8; 64], b: &[u8; 64], b1: u8, b2: u8) -> u64 {
        let (v1, v2) = (_mm256_set1_epi8(b1 as i8), _mm256_set1_epi8(b2 as i8));
        let mut m = 0u64;
        for c in 0..2 {
            // SAFETY: bytes 32c..32c + 32 <= 64 of `a` and `b`.
            let (x, y) = unsafe {
                (
                    _mm256_loadu_si256(a.as_ptr().add(32 * c).cast()),
                    _mm256_loadu_si256(b.as_ptr().add(32 * c).cast()),
                )
            };
            let hit = _mm256_and_si256(_mm256_cmpeq_epi8(x, v1), _mm256_cmpeq_epi8(y, v2));
            m |= u64::from(_mm256_movemask_epi8(hit) as u32) << (32 * c);
        }
        m
    }

    /// See [`Offset::len_mask_avx2`](super::Offset::len_mask_avx2).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn len_mask_i64(w: &[i64; 65], l: i64, at_least: bool) -> u64 {
        let want = _mm256_set1_epi64x(if at_least { l - 1 } else { l });
        let p = w.as_ptr();
        let mut m = 0u64;
        for c in 0..16 {
            // SAFETY: lanes 4c..4c + 5 <= 65 of `w`.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(4 * c).cast()),
                    _mm256_loadu_si256(p.add(4 * c + 1).cast()),
                )
            };
            let n = _mm256_sub_epi64(b, a);
            let hit = if at_least {
                _mm256_cmpgt_epi64(n, want)
            } else {
                _mm256_cmpeq_epi64(n, want)
            };
            let bits = _mm256_movemask_pd(_mm256_castsi256_pd(hit)) as u32 as u64;
            m |= bits << (4 * c);
        }
        m
    }

    /// The bitmap words of [`contains_word`]: 64 blocks of 64 positions.
    pub(super) const CONTAINS_WORDS: usize = 64;

    /// Contains of the 64 rows of `w` (offsets into `values`) for a literal
    /// `pat` of 1 to 8 bytes: bit `p` of a bitmap over the word's bytes is
    /// whether `pat` starts at `w[0] + p` (32 positions to a `vpcmpeqb` a
    /// literal byte, and-ed); then, 4 rows a step, the bitmap's 64 bits
    /// from each row's start (two `vpgatherdq` and a funnel shift) masked
    /// to its `len - pat.len() + 1` start positions. `None` when the rows
    /// span more than `64 * CONTAINS_WORDS` bytes, the blocks covering them
    /// (plus 7 bytes) pass the end of `values`, or a row has more than `63
    /// + pat.len()` bytes. `bits` is scratch space (its contents do not
    /// matter). Offsets that are not valid give wrong bits, never a read
    /// outside `values` or `bits`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, and `1 <= pat.len() <= 8`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn contains_word<O: super::OffsetSizeTrait>(
        w: &[O; 65],
        values: &[u8],
        pat: &[u8],
        bits: &mut [u64; CONTAINS_WORDS],
    ) -> Option<u64> {
        let (first, end) = (w[0].as_usize(), w[64].as_usize());
        if !super::fits_in(first, end, values.len(), 64 * CONTAINS_WORDS) {
            return None;
        }
        let blocks = (end - first).div_ceil(64);
        // The offsets less the first, as `i32` (at most 4096 for valid
        // rows of a word that fits).
        let mut rel = [0i32; 65];
        for (r, o) in rel.iter_mut().zip(w) {
            *r = o.as_usize().wrapping_sub(first) as i32;
        }
        // SAFETY: `fits_in`: `first + 64 * blocks + 7 <= values.len()`
        // and `blocks <= CONTAINS_WORDS`; `1 <= pat.len() <= 8` (as the
        // caller promised).
        let any = unsafe { fill(values.as_ptr().add(first), pat, &mut bits[..blocks]) };
        if any == 0 {
            // The literal is nowhere in the word's bytes (whatever the
            // rows' lengths).
            return Some(0);
        }
        let last = _mm_set1_epi32(CONTAINS_WORDS as i32 - 1);
        let (k, one, low6, wide32) = (
            _mm_set1_epi32(pat.len() as i32 - 1),
            _mm_set1_epi32(1),
            _mm_set1_epi32(63),
            _mm_set1_epi32(64),
        );
        let (wide, ones, zero) = (
            _mm256_set1_epi64x(64),
            _mm256_set1_epi64x(-1),
            _mm256_setzero_si256(),
        );
        let (p, b) = (rel.as_ptr(), bits.as_ptr().cast::<i64>());
        let mut over = _mm_setzero_si128();
        let mut m = 0u64;
        for c in 0..16 {
            // SAFETY: lanes 4c..4c + 5 <= 65 of `rel`.
            let (s, e) = unsafe {
                (
                    _mm_loadu_si128(p.add(4 * c).cast()),
                    _mm_loadu_si128(p.add(4 * c + 1).cast()),
                )
            };
            // The positions a match may start at: len - k + 1 of them.
            let n = _mm_sub_epi32(_mm_sub_epi32(e, s), k);
            over = _mm_or_si128(over, _mm_cmpgt_epi32(n, wide32));
            // The bitmap words q and q + 1, clamped to the bitmap (a
            // `q + 1` clamped is above any row's positions: masked).
            let q = _mm_min_epu32(_mm_srli_epi32::<6>(s), last);
            let q1 = _mm_min_epu32(_mm_add_epi32(q, one), last);
            // SAFETY: indices at most CONTAINS_WORDS - 1 into `bits`.
            let (x, y) = unsafe {
                (
                    _mm256_i32gather_epi64::<8>(b, q),
                    _mm256_i32gather_epi64::<8>(b, q1),
                )
            };
            // Bits s.. of the bitmap (a left shift of 64 is zero).
            let r = _mm256_cvtepu32_epi64(_mm_and_si128(s, low6));
            let from = _mm256_or_si256(
                _mm256_srlv_epi64(x, r),
                _mm256_sllv_epi64(y, _mm256_sub_epi64(wide, r)),
            );
            // The low `n` bits (none for n <= 0: a shift of 64 or more is
            // zero).
            let keep = _mm256_srlv_epi64(ones, _mm256_sub_epi64(wide, _mm256_cvtepi32_epi64(n)));
            let none = _mm256_cmpeq_epi64(_mm256_and_si256(from, keep), zero);
            let hit = !_mm256_movemask_pd(_mm256_castsi256_pd(none)) as u32 & 0xf;
            m |= u64::from(hit) << (4 * c);
        }
        (_mm_testz_si128(over, over) == 1).then_some(m)
    }

    /// Bit `i` of `bits` (its `64 * bits.len()` positions) is whether the
    /// bytes at `p.add(i)` begin with `pat` (1 to 8 bytes). Returns the
    /// words or-ed (zero: no position).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, the `64 * bits.len() + 7` bytes from `p`
    /// must be readable, and `1 <= pat.len() <= 8`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn fill(p: *const u8, pat: &[u8], bits: &mut [u64]) -> u64 {
        // SAFETY: as the caller promised (`pat.len()` picks the copy).
        unsafe { by_len!(pat.len(), fill_k(p, pat, bits)) }
    }

    /// [`fill`] for a pattern of `K` bytes.
    ///
    /// # Safety
    ///
    /// As for [`fill`], and `pat.len() == K`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn fill_k<const K: usize>(p: *const u8, pat: &[u8], bits: &mut [u64]) -> u64 {
        let mut lits = [_mm256_setzero_si256(); K];
        for (v, &b) in lits.iter_mut().zip(pat) {
            *v = _mm256_set1_epi8(b as i8);
        }
        let mut any = 0u64;
        for (t, out) in bits.iter_mut().enumerate() {
            let mut word = 0u64;
            for h in 0..2 {
                let mut acc = _mm256_set1_epi8(-1);
                for (i, lit) in lits.iter().enumerate() {
                    // SAFETY: bytes 64t + 32h + i .. + 32 end at most at
                    // 64 * bits.len() + 7 (`i < K <= 8`), readable (as the
                    // caller promised).
                    let x = unsafe { _mm256_loadu_si256(p.add(64 * t + 32 * h + i).cast()) };
                    acc = _mm256_and_si256(acc, _mm256_cmpeq_epi8(x, *lit));
                }
                word |= u64::from(_mm256_movemask_epi8(acc) as u32) << (32 * h);
            }
            *out = word;
            any |= word;
        }
        any
    }
}

/// The AVX-512 word of `=`, StartsWith and EndsWith over short rows: the
/// positions in the word's bytes where the literal's first (or last)
/// `k <= 8` bytes start become a bitmap, 64 positions a block (`k` loads
/// or-ed as `x ^ byte`, one `vpternlogd` each, and a zero test); then
/// the length test of 16 rows to a step (`i64` offsets less the first
/// as `i32`), and each
/// candidate's bit picked from the bitmap by a permute at its start (or
/// end less `k`). Computing only the blocks that hold a candidate (from
/// the length test first) measured 1.3-1.9x slower: the blocks then wait
/// for the offsets, and the loop over them mispredicts.
#[cfg(target_arch = "x86_64")]
mod x512 {
    use core::arch::x86_64::*;

    /// The most bytes a word's rows may span (16 blocks of 64 positions:
    /// the bitmap is two 512-bit registers).
    pub(super) const SPAN: usize = 1024;

    /// Whether the word whose rows span `values[first..end]` fits: at most
    /// [`SPAN`] bytes, and the blocks of 64 positions covering them, plus
    /// 7 bytes, inside `values`.
    #[inline(always)]
    pub(super) fn fits(first: usize, end: usize, len: usize) -> bool {
        super::fits_in(first, end, len, SPAN)
    }

    /// The candidates (set bits of `m`, rows `base + j`) whose first
    /// `lit.len()` bytes are `lit` (StartsWith of a literal of 9 to 64
    /// bytes, after the length test): see [`prefix_each`]. A row whose
    /// bytes would pass the end of `values` (offsets that are not valid)
    /// is false.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW; `1 <= lit.len() <= 64`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) unsafe fn refine_prefix<O: super::OffsetSizeTrait>(
        offsets: &[O],
        base: usize,
        m: u64,
        values: &[u8],
        lit: &[u8],
    ) -> u64 {
        let l = lit.len();
        // SAFETY: as the caller promised.
        unsafe {
            prefix_each(m, lit, |j| {
                let s = offsets[base + j].as_usize();
                values.get(s..s.checked_add(l)?)
            })
        }
    }

    /// [`refine_prefix`] over views: the candidates (set bits of `m`,
    /// views `base + j`, out of line: the caller's literal is longer than
    /// 12 bytes) whose first `lit.len()` bytes are `lit`, read from the
    /// view's data buffer (`data`). A view whose first `lit.len()` bytes
    /// are not inside a data buffer (not a valid view) is false.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW; `1 <= lit.len() <= 64`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) unsafe fn refine_prefix_views(
        views: &[u128],
        base: usize,
        m: u64,
        data: &[&[u8]],
        lit: &[u8],
    ) -> u64 {
        // Only the literal's bytes are bounds-checked, not the whole row
        // as `view_bytes` does: through `view_bytes`, StartsWith over 1 Mi
        // paths (1% and half matching) took 3.13-3.34 ms against 2.76-2.95
        // (AMD EPYC family 25 model 17, Zen 4, three runs).
        // SAFETY: as the caller promised.
        unsafe {
            prefix_each(m, lit, |j| {
                let v = views[base + j];
                let (b, o) = ((v >> 64) as u32 as usize, (v >> 96) as u32 as usize);
                data.get(b)?.get(o..o.checked_add(lit.len())?)
            })
        }
    }

    /// The length mask of a whole word of rows, `w` its 65 offsets: bit
    /// `j` set when row `j` is `l` bytes long (`at_least`: at least `l`),
    /// 16 rows a compare (`i64` offsets: 8). With
    /// [`Offset::len_mask_avx2`] (eight rows a compare) instead,
    /// [`eq_listed`](super::eq_listed) took 0.56-0.64 ms against 0.47-0.49
    /// over 1 Mi paths, 1% matching (AMD EPYC family 25 model 17, Zen 4,
    /// 2026-12-07). The trusted word loop's `lengths` (StartsWith and
    /// EndsWith over rows its AVX-512 word does not take) uses it too:
    /// EndsWith over short rows, many matching, 0.80-0.83x the time with
    /// the AVX2 mask (2026-12-08, same CPU, docs/strings.md).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) unsafe fn len_mask<O: super::Offset>(w: &[O; 65], l: O, at_least: bool) -> u64 {
        let mut m = 0u64;
        if core::mem::size_of::<O>() == 8 {
            let p = w.as_ptr().cast::<i64>();
            let want = _mm512_set1_epi64(l.as_usize() as i64);
            for c in 0..8 {
                // SAFETY: offsets `8c..8c + 9 <= 65` of `w`, `i64`s (the
                // size says so): two loads of 8 inside `w`.
                let (a, b) = unsafe {
                    (
                        _mm512_loadu_si512(p.add(8 * c).cast()),
                        _mm512_loadu_si512(p.add(8 * c + 1).cast()),
                    )
                };
                let n = _mm512_sub_epi64(b, a);
                let hit = if at_least {
                    _mm512_cmpge_epi64_mask(n, want)
                } else {
                    _mm512_cmpeq_epi64_mask(n, want)
                };
                m |= u64::from(hit) << (8 * c);
            }
        } else {
            let p = w.as_ptr().cast::<i32>();
            let want = _mm512_set1_epi32(l.as_usize() as i32);
            for c in 0..4 {
                // SAFETY: offsets `16c..16c + 17 <= 65` of `w`, `i32`s
                // (the only other offset): two loads of 16 inside `w`.
                let (a, b) = unsafe {
                    (
                        _mm512_loadu_si512(p.add(16 * c).cast()),
                        _mm512_loadu_si512(p.add(16 * c + 1).cast()),
                    )
                };
                let n = _mm512_sub_epi32(b, a);
                let hit = if at_least {
                    _mm512_cmpge_epi32_mask(n, want)
                } else {
                    _mm512_cmpeq_epi32_mask(n, want)
                };
                m |= u64::from(hit) << (16 * c);
            }
        }
        m
    }

    /// The set bits `j` of `m` whose row's first `lit.len()` bytes,
    /// `row(j)` (`None` or shorter: false), are `lit`: one masked load of
    /// those bytes each, compared whole, no branch on the answer (so that
    /// the loads of a word's candidates overlap).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW; `1 <= lit.len() <= 64`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn prefix_each<'a>(m: u64, lit: &[u8], row: impl Fn(usize) -> Option<&'a [u8]>) -> u64 {
        let k = u64::MAX >> (64 - lit.len());
        // SAFETY: `k` selects `lit`'s bytes; masked-out bytes are not read
        // (and never fault).
        let want = unsafe { _mm512_maskz_loadu_epi8(k, lit.as_ptr().cast()) };
        let (mut out, mut rest) = (m, m);
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // (A `match`, not a closure: intrinsics in a closure may be
            // compiled without this function's target features.)
            let ok = match row(j) {
                Some(r) if r.len() >= lit.len() => {
                    // SAFETY: `r` has at least `lit.len()` bytes; the load
                    // reads only those (`k`).
                    let r = unsafe { _mm512_maskz_loadu_epi8(k, r.as_ptr().cast()) };
                    _mm512_cmpneq_epi8_mask(r, want) == 0
                }
                _ => false,
            };
            out &= !(u64::from(!ok) << j);
        }
        out
    }

    /// Bit `p` of the result is whether `values[first + p..]` begins with
    /// `pat` (1 to 8 bytes), for `p` in the `blocks` blocks of 64
    /// positions; the bits above are zero. As 32 `u32` lanes of two
    /// registers; `ascii` is set to whether the blocks' bytes are all
    /// ASCII.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW, `fits(first, end,
    /// values.len())` with `blocks = ceil((end - first) / 64)`, and
    /// `1 <= pat.len() <= 8`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn positions(
        values: &[u8],
        first: usize,
        blocks: usize,
        pat: &[u8],
        ascii: &mut bool,
    ) -> (__m512i, __m512i) {
        let mut bits = [0u64; 16];
        // SAFETY: as the caller promised; `blocks <= 16` (by `fits`).
        *ascii = unsafe { fill(values, first, pat, &mut bits[..blocks]) };
        // SAFETY: 16 `u64`, two 64-byte loads.
        unsafe {
            (
                _mm512_loadu_si512(bits.as_ptr().cast()),
                _mm512_loadu_si512(bits.as_ptr().add(8).cast()),
            )
        }
    }

    /// Bit `p` of `bits` (its `64 * bits.len()` positions) is whether
    /// `values[first + p..]` begins with `pat` (1 to 8 bytes). Returns
    /// whether the blocks' bytes, `values[first..first + 64 *
    /// bits.len()]`, are all ASCII (one OR a block).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW, `first + 64 * bits.len() + 7 <=
    /// values.len()` and `1 <= pat.len() <= 8`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn fill(values: &[u8], first: usize, pat: &[u8], bits: &mut [u64]) -> bool {
        // SAFETY: as the caller promised (`pat.len()` picks the copy).
        unsafe { by_len!(pat.len(), fill_k(values, first, pat, bits)) }
    }

    /// [`fill`] for a pattern of `K` bytes.
    ///
    /// # Safety
    ///
    /// As for [`fill`], and `pat.len() == K`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn fill_k<const K: usize>(
        values: &[u8],
        first: usize,
        pat: &[u8],
        bits: &mut [u64],
    ) -> bool {
        let mut lits = [_mm512_setzero_si512(); K];
        for (v, &b) in lits.iter_mut().zip(pat) {
            *v = _mm512_set1_epi8(b as i8);
        }
        // SAFETY: `first <= values.len()` (as the caller promised).
        let p = unsafe { values.as_ptr().add(first) };
        let mut bytes = _mm512_setzero_si512();
        for (t, out) in bits.iter_mut().enumerate() {
            let mut acc = _mm512_setzero_si512();
            for (i, lit) in lits.iter().enumerate() {
                // SAFETY: `t < bits.len()`, so bytes first + 64t + i .. + 64
                // end at most at first + 64 * bits.len() + 7 <=
                // values.len() (as the caller promised).
                let x = unsafe { _mm512_loadu_si512(p.add(64 * t + i).cast()) };
                if i == 0 {
                    bytes = _mm512_or_si512(bytes, x);
                }
                // acc | (x ^ lit)
                acc = _mm512_ternarylogic_epi32::<0xf6>(acc, x, *lit);
            }
            *out = _mm512_testn_epi8_mask(acc, acc);
        }
        _mm512_movepi8_mask(bytes) == 0
    }

    /// The bits of the 64 rows of `w` (offsets, `w[0]..w[64]` passing
    /// [`fits`]) whose length is `l` (`at_least`: at least `l`,
    /// `l >= pat.len()`) and whose first (`at_end`: last) `pat.len()`
    /// bytes are `pat`. `ascii` is set to whether the bytes of the blocks
    /// it read, which cover the rows' span, are ASCII (the UTF-8 half of
    /// [`word_sound`](super::word_sound), for free: one OR a block it
    /// loads anyway). Offsets that are not those of valid rows give wrong
    /// bits, never a read outside `values`.
    ///
    /// (`ascii` is an out parameter, not a second value returned: LLVM
    /// does not inline a function that calls one returning an aggregate
    /// into a caller whose target features are spelled differently, and
    /// a `(u64, bool)` kept the kernel's word closures out of line, the
    /// trusted StartsWith over 1 Mi short rows 10% slower on Zen 4.)
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW, `fits(w[0], w[64],
    /// values.len())`, `1 <= pat.len() <= 8` and `pat.len() <= l`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) unsafe fn anchored_i32(
        w: &[i32; 65],
        values: &[u8],
        pat: &[u8],
        l: i32,
        at_least: bool,
        at_end: bool,
        ascii: &mut bool,
    ) -> u64 {
        // SAFETY: as the caller promised.
        unsafe { anchored(w, w[0] as usize, values, pat, l, at_least, at_end, ascii) }
    }

    /// [`anchored_i32`] for `i64` offsets: the offsets less `w[0]` (at
    /// most [`SPAN`] for the offsets of valid rows) as `i32`.
    ///
    /// # Safety
    ///
    /// As for [`anchored_i32`].
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) unsafe fn anchored_i64(
        w: &[i64; 65],
        values: &[u8],
        pat: &[u8],
        l: i64,
        at_least: bool,
        at_end: bool,
        ascii: &mut bool,
    ) -> u64 {
        let rel = narrow(w);
        // `l` is at most a row's length here, or no row has it.
        let l = i32::try_from(l).unwrap_or(i32::MAX);
        // SAFETY: as the caller promised; `rel[0] = 0` and `w[0]` is the
        // first row's start.
        unsafe { anchored(&rel, w[0] as usize, values, pat, l, at_least, at_end, ascii) }
    }

    /// The longest pattern [`picked_words`] compares: a row's bytes are
    /// picked as one `u32` lane.
    pub(super) const PICK: usize = 4;

    /// The bytes a window of [`picked_words`] covers: two registers, the
    /// table of one `vpermt2b`.
    const WINDOW: usize = 128;

    /// The most bytes a word's rows may span for [`picked_words`] to try it
    /// (rows of 12 bytes on average): past that a half word's 8 rows often
    /// pass their [`WINDOW`], and the word loop's [`anchored`] takes it.
    const PICK_SPAN: usize = 768;

    /// `=`, StartsWith or EndsWith (`test`) of a literal of 1 to [`PICK`]
    /// bytes over every whole word of the column, before the word loop:
    /// 16 rows a step, the length test, then each row's first (EndsWith:
    /// last `lit.len()`) bytes picked into a `u32` lane by `vpermt2b` from a
    /// [`WINDOW`] of `values` at the start of its 8 rows, and compared with
    /// the literal 16 at once. No bitmap of the literal's positions (as
    /// [`anchored`] builds from every byte of the word), no store and
    /// reload. A word is left to the loop ([`Picked::open`]) when its rows
    /// span more than [`PICK_SPAN`] bytes, a window would pass the end of
    /// `values`, or a candidate's 4 bytes lie outside its window; so is the
    /// last word when it is not whole. Only windows inside `values` are
    /// read, whatever the offsets; offsets that are not those of valid
    /// rows give wrong bits.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI, `1 <= lit.len() <=
    /// PICK` and `test` is not Contains.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn picked_words<O: super::OffsetSizeTrait>(
        offsets: &[O],
        values: &[u8],
        lit: &[u8],
        test: super::StringMatch,
    ) -> super::Picked {
        use super::StringMatch::{Equal, StartsWith};
        // SAFETY: as the caller promised (the test picks the copy).
        unsafe {
            match test {
                Equal => picked_k::<O, false, false>(offsets, values, lit),
                StartsWith => picked_k::<O, true, false>(offsets, values, lit),
                _ => picked_k::<O, true, true>(offsets, values, lit),
            }
        }
    }

    /// [`picked_words`] for `AT_LEAST` (rows of at least the literal's
    /// length, else of it) and `AT_END` (the literal at the row's end).
    ///
    /// # Safety
    ///
    /// As for [`picked_words`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    unsafe fn picked_k<O: super::OffsetSizeTrait, const AT_LEAST: bool, const AT_END: bool>(
        offsets: &[O],
        values: &[u8],
        lit: &[u8],
    ) -> super::Picked {
        let rows = offsets.len().saturating_sub(1);
        // Offset `i` as `usize` (a negative one far past any buffer).
        let at = |i: usize| -> usize { arrow_buffer::ArrowNativeType::as_usize(offsets[i]) };
        let mut bits = std::vec![0u64; rows.div_ceil(64)];
        let mut open = std::vec![0u64; bits.len().div_ceil(64)];
        let k = lit.len();
        let mut bytes = [0u8; 4];
        bytes[..k].copy_from_slice(lit);
        let pat = _mm512_set1_epi32(i32::from_le_bytes(bytes));
        let keep = _mm512_set1_epi32((u32::MAX >> (8 * (4 - k))) as i32);
        let want = _mm512_set1_epi32(k as i32);
        let reach = _mm512_set1_epi32((WINDOW - 4) as i32);
        // Each lane's low byte to its four bytes, plus 0, 1, 2, 3: the
        // indices of the lane's 4 bytes in its window.
        let spread = _mm512_set_epi8(
            12, 12, 12, 12, 8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0, 12, 12, 12, 12, 8, 8, 8, 8, 4, 4,
            4, 4, 0, 0, 0, 0, 12, 12, 12, 12, 8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0, 12, 12, 12, 12,
            8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0,
        );
        let step = _mm512_set1_epi32(0x0302_0100);
        let wide = core::mem::size_of::<O>() == 8;
        let v = values.as_ptr();
        // The last start a window may have (none: every word is open).
        let last = values.len().checked_sub(WINDOW);
        for (word, out) in bits.iter_mut().enumerate() {
            let base = 64 * word;
            let whole = base + 64 <= rows;
            let origin = at(base);
            let span = at(base + usize::from(whole) * 64).wrapping_sub(origin);
            let Some(last) = last.filter(|_| whole && span <= PICK_SPAN) else {
                open[word / 64] |= 1 << (word % 64);
                continue;
            };
            // What the positions are measured from: the word's first
            // offset, plus the literal's length for the rows' ends.
            let datum = if AT_END {
                origin.wrapping_add(k)
            } else {
                origin
            };
            // The rows `i..i + 16`: the length test's mask, and where each
            // row's bytes are read (its start, or its end less the
            // literal) less `datum`, as `i32` (exact for the rows of a
            // word that spans at most `PICK_SPAN` bytes).
            let group = |i: usize| -> (u16, __m512i) {
                if wide {
                    let p = offsets.as_ptr().cast::<i64>();
                    // SAFETY: offsets `i..i + 17` and `i + 17 <= base + 65
                    // <= offsets.len()` (`i <= base + 48`, the word whole):
                    // four loads of 8 `i64` inside `offsets`.
                    let (a0, a1, b0, b1) = unsafe {
                        (
                            _mm512_loadu_si512(p.add(i).cast()),
                            _mm512_loadu_si512(p.add(i + 8).cast()),
                            _mm512_loadu_si512(p.add(i + 1).cast()),
                            _mm512_loadu_si512(p.add(i + 9).cast()),
                        )
                    };
                    let want = _mm512_set1_epi64(k as i64);
                    let test = |a: __m512i, b: __m512i| -> u16 {
                        let n = _mm512_sub_epi64(b, a);
                        u16::from(if AT_LEAST {
                            _mm512_cmpge_epi64_mask(n, want)
                        } else {
                            _mm512_cmpeq_epi64_mask(n, want)
                        })
                    };
                    let o = _mm512_set1_epi64(datum as i64);
                    let (p0, p1) = if AT_END { (b0, b1) } else { (a0, a1) };
                    let p0 = _mm512_cvtepi64_epi32(_mm512_sub_epi64(p0, o));
                    let p1 = _mm512_cvtepi64_epi32(_mm512_sub_epi64(p1, o));
                    (
                        test(a0, b0) | test(a1, b1) << 8,
                        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(p0), p1),
                    )
                } else {
                    let p = offsets.as_ptr().cast::<i32>();
                    // SAFETY: as above: offsets `i..i + 17`, two loads of
                    // 16 `i32` inside `offsets`.
                    let (a, b) = unsafe {
                        (
                            _mm512_loadu_si512(p.add(i).cast()),
                            _mm512_loadu_si512(p.add(i + 1).cast()),
                        )
                    };
                    let n = _mm512_sub_epi32(b, a);
                    let long = if AT_LEAST {
                        _mm512_cmpge_epi32_mask(n, want)
                    } else {
                        _mm512_cmpeq_epi32_mask(n, want)
                    };
                    let o = _mm512_set1_epi32(datum as i32);
                    (long, _mm512_sub_epi32(if AT_END { b } else { a }, o))
                }
            };
            let (mut m, mut outside) = (0u64, 0u16);
            for c in 0..4 {
                let i = base + 16 * c;
                // Each half's window: its first row's start.
                let (s0, s1) = (at(i), at(i + 8));
                if s0.max(s1) > last {
                    outside = 1;
                    break;
                }
                let (long, pos) = group(i);
                let from = _mm512_mask_blend_epi32(
                    0xFF00,
                    _mm512_set1_epi32(s0.wrapping_sub(origin) as i32),
                    _mm512_set1_epi32(s1.wrapping_sub(origin) as i32),
                );
                let r = _mm512_sub_epi32(pos, from);
                outside |= _mm512_mask_cmpgt_epu32_mask(long, r, reach);
                let index = _mm512_add_epi32(_mm512_shuffle_epi8(r, spread), step);
                // SAFETY: `s0, s1 <= values.len() - WINDOW`: four 64-byte
                // loads inside `values`.
                let x = unsafe {
                    _mm512_mask_blend_epi32(
                        0xFF00,
                        _mm512_permutex2var_epi8(
                            _mm512_loadu_si512(v.add(s0).cast()),
                            index,
                            _mm512_loadu_si512(v.add(s0 + 64).cast()),
                        ),
                        _mm512_permutex2var_epi8(
                            _mm512_loadu_si512(v.add(s1).cast()),
                            index,
                            _mm512_loadu_si512(v.add(s1 + 64).cast()),
                        ),
                    )
                };
                let hit = _mm512_mask_cmpeq_epi32_mask(long, _mm512_and_si512(x, keep), pat);
                m |= u64::from(hit) << (16 * c);
            }
            if outside == 0 {
                *out = m;
            } else {
                open[word / 64] |= 1 << (word % 64);
            }
        }
        super::Picked { bits, open }
    }

    /// The offsets less `w[0]` as `i32` (at most [`SPAN`] for the
    /// offsets of valid rows of a word that fits).
    #[inline(always)]
    pub(super) fn narrow(w: &[i64; 65]) -> [i32; 65] {
        let mut rel = [0i32; 65];
        for (r, &o) in rel.iter_mut().zip(w) {
            *r = o.wrapping_sub(w[0]) as i32;
        }
        rel
    }

    /// [`anchored_i32`] of the rows starting at `first + (w[j] - w[0])`.
    /// Offsets that are not those of valid rows give wrong bits, never a
    /// read outside `values`: the blocks read are those of
    /// `values[first..first + w[64] - w[0]]`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW, `fits(first, first + (w[64] -
    /// w[0]), values.len())`, `1 <= pat.len() <= 8` and `pat.len() <= l`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    #[allow(clippy::too_many_arguments)] // the word's shape, and `ascii` out
    unsafe fn anchored(
        w: &[i32; 65],
        first: usize,
        values: &[u8],
        pat: &[u8],
        l: i32,
        at_least: bool,
        at_end: bool,
        ascii: &mut bool,
    ) -> u64 {
        let blocks = (w[64].wrapping_sub(w[0]) as usize).div_ceil(64);
        // SAFETY: as the caller promised.
        let (lo, hi) = unsafe { positions(values, first, blocks, pat, ascii) };
        let want = _mm512_set1_epi32(l);
        // A row's bit: its start, or its end less the pattern, from `w[0]`.
        let at = _mm512_set1_epi32(if at_end {
            w[0].wrapping_add(pat.len() as i32)
        } else {
            w[0]
        });
        let (five, low5, one) = (
            _mm512_set1_epi32(5),
            _mm512_set1_epi32(31),
            _mm512_set1_epi32(1),
        );
        let p = w.as_ptr();
        let mut m = 0u64;
        for c in 0..4 {
            // SAFETY: lanes 16c..16c + 17 <= 65 of `w`.
            let (a, b) = unsafe {
                (
                    _mm512_loadu_si512(p.add(16 * c).cast()),
                    _mm512_loadu_si512(p.add(16 * c + 1).cast()),
                )
            };
            let n = _mm512_sub_epi32(b, a);
            let long = if at_least {
                _mm512_cmpge_epi32_mask(n, want)
            } else {
                _mm512_cmpeq_epi32_mask(n, want)
            };
            // The candidates' bit positions lie in the blocks; the other
            // lanes are masked off (a permute reads only the low 5 bits of
            // an index).
            let s = _mm512_sub_epi32(if at_end { b } else { a }, at);
            let d = _mm512_permutex2var_epi32(lo, _mm512_srlv_epi32(s, five), hi);
            let bit = _mm512_srlv_epi32(d, _mm512_and_si512(s, low5));
            m |= u64::from(_mm512_mask_test_epi32_mask(long, bit, one)) << (16 * c);
        }
        m
    }

    /// The bits of the 64 rows starting at `first + (w[j] - w[0])` that
    /// hold `pat` (1 to 8 bytes): the positions where `pat` starts as a
    /// bitmap, then for each row the 64 bits from its start (a funnel
    /// shift of two bitmap words, picked by a permute from two registers,
    /// or with `BIG` gathered from memory), 8 rows a step, of which the
    /// first `len - pat.len() + 1` (a match that ends inside the row) must
    /// not all be zero. `None` when a row is longer than `63 + pat.len()`
    /// bytes (its positions do not fit a word).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI2, `fits(first, first +
    /// (w[64] - w[0]), values.len())` (`BIG`: `fits_big`), and `1 <=
    /// pat.len() <= 8`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
    #[inline]
    pub(super) unsafe fn contains<const BIG: bool>(
        w: &[i32; 65],
        first: usize,
        values: &[u8],
        pat: &[u8],
    ) -> Option<u64> {
        let blocks = (w[64].wrapping_sub(w[0]) as usize).div_ceil(64);
        let mut bits = [0u64; BIG_WORDS];
        let (lo, hi) = if BIG {
            // SAFETY: as the caller promised; `blocks <= 64` (by
            // `fits_big`).
            unsafe { fill(values, first, pat, &mut bits[..blocks]) };
            (_mm512_setzero_si512(), _mm512_setzero_si512())
        } else {
            // SAFETY: as the caller promised.
            unsafe { positions(values, first, blocks, pat, &mut true) }
        };
        let at = _mm512_set1_epi64(i64::from(w[0]));
        let k = _mm512_set1_epi64(pat.len() as i64 - 1);
        let (six, low6, one, ones, wide) = (
            _mm512_set1_epi64(6),
            _mm512_set1_epi64(63),
            _mm512_set1_epi64(1),
            _mm512_set1_epi64(-1),
            _mm512_set1_epi64(64),
        );
        let last = _mm512_set1_epi64(BIG_WORDS as i64 - 1);
        let p = w.as_ptr();
        let (mut m, mut over) = (0u64, 0u8);
        for c in 0..8 {
            // SAFETY: lanes 8c..8c + 9 <= 65 of `w`.
            let (a, b) = unsafe {
                (
                    _mm512_cvtepi32_epi64(_mm256_loadu_si256(p.add(8 * c).cast())),
                    _mm512_cvtepi32_epi64(_mm256_loadu_si256(p.add(8 * c + 1).cast())),
                )
            };
            // The positions a match may start at: len - k + 1 of them.
            let n = _mm512_sub_epi64(_mm512_sub_epi64(b, a), k);
            over |= _mm512_cmpgt_epi64_mask(n, wide);
            let s = _mm512_sub_epi64(a, at);
            let q = _mm512_srlv_epi64(s, six);
            // The bitmap words q and q + 1 (the bits above the row's are
            // masked: a `q + 1` past the bitmap, wrapped or clamped, is
            // above any row's positions).
            let (x, y) = if BIG {
                // Clamped to the bitmap: offsets of rows that are not
                // valid give wrong bits, never a read outside it.
                let q0 = _mm512_min_epu64(q, last);
                let q1 = _mm512_min_epu64(_mm512_add_epi64(q, one), last);
                // SAFETY: indices at most BIG_WORDS - 1 into `bits`.
                unsafe {
                    (
                        _mm512_i64gather_epi64::<8>(q0, bits.as_ptr().cast()),
                        _mm512_i64gather_epi64::<8>(q1, bits.as_ptr().cast()),
                    )
                }
            } else {
                (
                    _mm512_permutex2var_epi64(lo, q, hi),
                    _mm512_permutex2var_epi64(lo, _mm512_add_epi64(q, one), hi),
                )
            };
            // Bits s.. of the bitmap.
            let from = _mm512_shrdv_epi64(x, y, _mm512_and_si512(s, low6));
            // Low `n` bits (none for n <= 0: a shift of 64 or more is 0).
            let keep = _mm512_srlv_epi64(ones, _mm512_sub_epi64(wide, n));
            let some = _mm512_cmpgt_epi64_mask(n, _mm512_setzero_si512());
            m |= u64::from(_mm512_mask_test_epi64_mask(some, from, keep)) << (8 * c);
        }
        (over == 0).then_some(m)
    }

    /// [`contains`] of the rows starting at `first + (w[j] - w[0])`, the
    /// last ending at `end`, when they fit ([`fits`], else [`fits_big`]).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI2, `w[64] - w[0] = end -
    /// first` when `end - first <= SPAN_BIG`, and `1 <= pat.len() <= 8`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
    #[inline]
    pub(super) unsafe fn contains_word(
        w: &[i32; 65],
        first: usize,
        end: usize,
        values: &[u8],
        pat: &[u8],
    ) -> Option<u64> {
        if fits(first, end, values.len()) {
            // SAFETY: as the caller promised, and `fits` holds.
            unsafe { contains::<false>(w, first, values, pat) }
        } else if fits_big(first, end, values.len()) {
            // SAFETY: as the caller promised, and `fits_big` holds.
            unsafe { contains::<true>(w, first, values, pat) }
        } else {
            None
        }
    }

    /// The most bytes a word's rows may span for `contains::<true>` (64
    /// blocks: the bitmap is 64 words in memory).
    pub(super) const SPAN_BIG: usize = 4096;

    /// The bitmap words of `contains::<true>`.
    const BIG_WORDS: usize = SPAN_BIG / 64;

    /// [`fits`] with [`SPAN_BIG`].
    #[inline(always)]
    pub(super) fn fits_big(first: usize, end: usize, len: usize) -> bool {
        super::fits_in(first, end, len, SPAN_BIG)
    }
}

/// Whether the word whose rows span `values[first..end]` (`len` bytes)
/// fits a bitmap of `span` positions: at most `span` bytes, and the blocks
/// of 64 positions covering them, plus 7 bytes, inside `values` (no
/// overflow whatever the offsets).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fits_in(first: usize, end: usize, len: usize, span: usize) -> bool {
    end >= first
        && end - first <= span
        && first
            .checked_add((end - first).div_ceil(64) * 64 + 7)
            .is_some_and(|e| e <= len)
}

/// Whether Contains takes the AVX-512 words ([`x512::contains_word`]): a
/// literal of 1 to 8 bytes and rows of at most 48 bytes on average (most
/// words then span at most [`x512::SPAN_BIG`] bytes; a word that does not
/// is searched row by row).
#[cfg(target_arch = "x86_64")]
fn contains_words_pay<O: OffsetSizeTrait>(offsets: &[O], lit: &[u8]) -> bool {
    let (Some(first), Some(last)) = (offsets.first(), offsets.last()) else {
        return false;
    };
    let rows = offsets.len() - 1;
    (1..=8).contains(&lit.len()) && (last.as_usize() - first.as_usize()) <= 48 * rows
}

/// Whether the CPU has AVX-512 VBMI2 (the funnel shifts of
/// [`x512::contains_word`]).
#[cfg(target_arch = "x86_64")]
fn x512_vbmi2() -> bool {
    std::is_x86_feature_detected!("avx512vbmi2")
}

/// Contains of each of the rows of `offsets` (at most 64), one `memmem`
/// search (`finder`, of the literal) a row.
#[cfg(target_arch = "x86_64")]
fn contains_rows<O: OffsetSizeTrait>(offsets: &[O], values: &[u8], finder: &Finder<'_>) -> u64 {
    let mut m = 0u64;
    for (j, w) in offsets.windows(2).enumerate() {
        let row = &values[w[0].as_usize()..w[1].as_usize()];
        m |= u64::from(finder.find(row).is_some()) << j;
    }
    m
}

/// Contains of a literal of 1 to 8 bytes over short rows
/// ([`contains_words_pay`]) with AVX2, in chunks of `chunk` words of 64
/// rows (the first chunk one word), each taken one of two ways by the
/// matches of the chunk before (the first by `memmem`; `force`: `Some(true)` every chunk the words,
/// `Some(false)` `memmem`, for the tests):
///
/// - few matches (fewer than one per [`contains_words_dense_rows`] rows):
///   memchr's `memmem` over the chunk's bytes ([`contains_memmem`]);
/// - many: the AVX2 word ([`x86::contains_word`]), branch-free, its cost
///   the same whatever the matches; a word it does not take (a row of
///   more than `63 + lit.len()` bytes, or the buffer's last bytes) is
///   searched row by row.
///
/// # Safety
///
/// The CPU must have AVX2, and `1 <= lit.len() <= 8`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn contains_words_avx2<O: OffsetSizeTrait>(
    offsets: &[O],
    values: &[u8],
    lit: &[u8],
    chunk: usize,
    force: Option<bool>,
) -> BooleanBuffer {
    let len = offsets.len() - 1;
    let mut out = vec![0u64; len.div_ceil(64)];
    let finder = Finder::new(lit);
    let mut bits = [0u64; x86::CONTAINS_WORDS];
    let mut dense = false;
    // The first chunk is one word, so that the choice is made early (and
    // on small columns too).
    let (mut at, mut size) = (0, 1);
    while at < out.len() {
        let out = &mut out[at..(at + size).min(len.div_ceil(64))];
        let base = 64 * at;
        let rows = (len - base).min(64 * out.len());
        let o = &offsets[base..=base + rows];
        let matches = if force.unwrap_or(dense) {
            let mut matches = 0;
            for (i, word) in out.iter_mut().enumerate() {
                let w = &o[64 * i..=(64 * i + 64).min(rows)];
                // SAFETY: the CPU has AVX2 and `1 <= lit.len() <= 8` (as
                // the caller promised).
                let m = <&[O; 65]>::try_from(w)
                    .ok()
                    .and_then(|w| unsafe { x86::contains_word(w, values, lit, &mut bits) })
                    .unwrap_or_else(|| contains_rows(w, values, &finder));
                matches += m.count_ones() as usize;
                *word = m;
            }
            matches
        } else {
            contains_memmem(o, values, lit.len(), &finder, out)
        };
        dense = matches * contains_words_dense_rows::<O>() >= rows;
        at += out.len();
        size = chunk;
    }
    BooleanBuffer::new(Buffer::from_vec(out), 0, len)
}

/// Sets in `out` the bits of the rows of `offsets` that contain the
/// literal of `n` bytes `finder` searches: one `memmem` search from each
/// match's row end to the next match, each match mapped to its row (one
/// whose literal runs past its row's end spans two rows and does not
/// count). Returns the rows set.
#[cfg(target_arch = "x86_64")]
fn contains_memmem<O: OffsetSizeTrait>(
    offsets: &[O],
    values: &[u8],
    n: usize,
    finder: &Finder<'_>,
    out: &mut [u64],
) -> usize {
    let last = offsets[offsets.len() - 1].as_usize();
    let (mut p, mut row, mut matches) = (offsets[0].as_usize(), 0, 0);
    while p + n <= last {
        let Some(at) = finder.find(&values[p..last]) else {
            break;
        };
        let q = p + at;
        row = row_of(offsets, row, q);
        let end = offsets[row + 1].as_usize();
        if q + n <= end {
            out[row / 64] |= 1u64 << (row % 64);
            matches += 1;
        }
        // Every later match starting in this row is the same.
        p = end.max(q + 1);
    }
    matches
}

/// The row `r >= row` whose bytes hold position `p`: the first with
/// `offsets[r + 1] > p`. `p` is below `offsets[len]`. Gallops from `row`,
/// so a scan over increasing positions costs little when matches are
/// dense and a binary search's worth when they are sparse.
#[inline(always)]
fn row_of<O: OffsetSizeTrait>(offsets: &[O], row: usize, p: usize) -> usize {
    let len = offsets.len() - 1;
    if offsets[row + 1].as_usize() > p {
        return row;
    }
    // offsets[lo + 1] <= p, and the answer is in lo + 1..=hi.
    let mut lo = row;
    let mut step = 1;
    let mut hi = lo + 1;
    while hi < len - 1 && offsets[hi + 1].as_usize() <= p {
        lo = hi;
        step *= 2;
        hi = (lo + step).min(len - 1);
    }
    lo + 1 + offsets[lo + 2..=hi + 1].partition_point(|o| o.as_usize() <= p)
}

/// Contains over offsets and values, in segments of [`CONTAINS_SEGMENT`]
/// bytes, each searched one of two ways, chosen by the matches of the
/// segment before (the first by `memmem`):
///
/// - few matches (fewer than one per [`CONTAINS_DENSE_BYTES`]): memchr's
///   `memmem` `Finder` from each match's row end to the next match, each
///   match mapped to its row;
/// - many: one pass over the bytes, 64 positions a step. At each position
///   two bytes of the literal (memchr's rare pair: the two bytes least
///   common in typical text; the one byte twice for a literal of 1) are
///   compared with the bytes at their distance from it (Wojciech Muła's
///   SIMD substring search, in AVX2 when `AVX2`, else 8 bytes a `u64`);
///   each candidate position is mapped to its row by galloping forward over
///   the offsets from the last candidate's row, and the literal compared
///   there.
///
/// Either way a match counts when it fits inside its row: one whose literal
/// runs past its row's end spans two rows and does not count. `lit` is not
/// empty.
#[inline(always)]
fn contains_offsets<O: OffsetSizeTrait, const AVX2: bool>(
    offsets: &[O],
    values: &[u8],
    lit: &[u8],
) -> BooleanBuffer {
    contains_segments::<O, AVX2>(offsets, values, lit, CONTAINS_SEGMENT, None)
}

/// Bytes of a [`contains_offsets`] segment.
const CONTAINS_SEGMENT: usize = 64 << 10;

/// A segment with at least one match per this many bytes makes the next
/// one take the one-pass scan. Measured 2026-12-03, AMD EPYC family 25
/// model 17 (Zen 4), 1 Mi rows: `memmem` was faster with a match per 4 KiB
/// (24-64-byte paths, 1% of rows), the scan with one per 90 bytes or fewer,
/// and both alike at one per 800 bytes (docs/strings.md).
const CONTAINS_DENSE_BYTES: usize = 2048;

/// [`contains_offsets`] with its segment size, and each segment's way
/// forced (`Some(true)`: the scan, `Some(false)`: `memmem`) for the tests.
#[inline(always)]
fn contains_segments<O: OffsetSizeTrait, const AVX2: bool>(
    offsets: &[O],
    values: &[u8],
    lit: &[u8],
    segment: usize,
    force: Option<bool>,
) -> BooleanBuffer {
    let len = offsets.len() - 1;
    let mut out = vec![0u64; len.div_ceil(64)];
    let n = lit.len();
    let finder = Finder::new(lit);
    let (i1, i2) = Pair::new(lit).map_or((0, 0), |p| {
        (usize::from(p.index1()), usize::from(p.index2()))
    });
    let (b1, b2) = (lit[i1], lit[i2]);
    let ends = Ends::new(lit);
    let last = offsets[len].as_usize();
    let mut row = 0;
    let mut matches = 0usize;
    // The row of each candidate `q` (at or after the last one's), its bit
    // set when the literal is there inside the row; gives the row's end.
    let mut candidate = |q: usize, matches: &mut usize| {
        row = row_of(offsets, row, q);
        let end = offsets[row + 1].as_usize();
        if q + n <= end && prefix_eq(values, q, lit, &ends) {
            out[row / 64] |= 1u64 << (row % 64);
            *matches += 1;
        }
        end
    };
    let mut p = offsets[0].as_usize();
    let mut dense = false;
    while p + n <= last {
        let stop = (p + segment).min(last + 1 - n);
        let (from, before) = (p, matches);
        if force.unwrap_or(dense) {
            // Whole blocks: the candidates `p..p + 64` and every byte their
            // literal could cover lie below `last`.
            while p + CONTAINS_BLOCK <= stop {
                let a: &[u8; CONTAINS_BLOCK] = values[p + i1..p + i1 + CONTAINS_BLOCK]
                    .try_into()
                    .expect("a block");
                let b: &[u8; CONTAINS_BLOCK] = values[p + i2..p + i2 + CONTAINS_BLOCK]
                    .try_into()
                    .expect("a block");
                let mut m = pair_mask::<AVX2>(a, b, b1, b2);
                while m != 0 {
                    candidate(p + m.trailing_zeros() as usize, &mut matches);
                    m &= m - 1;
                }
                p += CONTAINS_BLOCK;
            }
            // The segment's last positions, one at a time.
            for q in p..stop {
                if values[q + i1] == b1 && values[q + i2] == b2 {
                    candidate(q, &mut matches);
                }
            }
            p = stop;
        } else {
            // Starts below `stop`: the haystack ends `n - 1` bytes later.
            while p < stop {
                let Some(at) = finder.find(&values[p..stop + n - 1]) else {
                    p = stop;
                    break;
                };
                let q = p + at;
                // A match in the row, or one spanning into the next row:
                // every later one starting in this row is the same.
                p = candidate(q, &mut matches).max(q + 1);
            }
        }
        dense = (matches - before) * CONTAINS_DENSE_BYTES >= p.saturating_sub(from);
    }
    BooleanBuffer::new(Buffer::from_vec(out), 0, len)
}

/// The words (of 64 rows) of a [`contains_words_avx2`] chunk.
#[cfg(target_arch = "x86_64")]
const CONTAINS_CHUNK: usize = 16;

/// A [`contains_words_avx2`] chunk with at least one match per this many
/// rows makes the next one take the AVX2 words: 16 with `i32` offsets, 128
/// with `i64`. Measured 2026-12-05, AMD EPYC family 25 model 1 (Zen 3), 1
/// Mi rows, 1% of them matching, each way forced (ms, least of 9, three
/// runs):
///
/// | rows | words | `memmem`, `i32` | `memmem`, `i64` |
/// |---|---|---|---|
/// | 0-16 bytes | 1.9-2.2 | 1.1-1.3 | 1.7-2.8 |
/// | 24-64 bytes | 4.4-4.7 | 4.3-4.4 | 5.0-5.6 |
///
/// The words cost the same whatever the matches; `memmem` about 17 ns
/// more a match with `i32` offsets (so even at about 7% of the short rows
/// and 4% of the paths), more with `i64`, whose match-to-row galloping
/// over the offsets touches twice the cache lines.
#[cfg(target_arch = "x86_64")]
fn contains_words_dense_rows<O: OffsetSizeTrait>() -> usize {
    if O::IS_LARGE {
        128
    } else {
        16
    }
}

/// The positions [`contains_offsets`] tests a step.
const CONTAINS_BLOCK: usize = 64;

/// The bits of the positions `k < 64` with `a[k] == b1` and `b[k] == b2`:
/// two AVX2 compares per 32 positions when `AVX2` (the caller checked the
/// CPU), else 8 positions to a `u64` (an exact zero-byte test).
#[inline(always)]
fn pair_mask<const AVX2: bool>(
    a: &[u8; CONTAINS_BLOCK],
    b: &[u8; CONTAINS_BLOCK],
    b1: u8,
    b2: u8,
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: only instantiated with `AVX2` under `offsets_words_avx2`,
        // whose caller checked that the CPU has AVX2.
        return unsafe { x86::pair_mask(a, b, b1, b2) };
    }
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // 0x80 in each byte of `x` that is zero, and nothing else.
    let zero = |x: u64| !(((x & LOW) + LOW) | x | LOW);
    let (w1, w2) = (
        u64::from(b1) * 0x0101_0101_0101_0101,
        u64::from(b2) * 0x0101_0101_0101_0101,
    );
    let mut m = 0u64;
    for c in 0..8 {
        let z = zero(load(&a[8 * c..]) ^ w1) & zero(load(&b[8 * c..]) ^ w2);
        // Bit 8j + 7 of `z` to bit j of the top byte (no carries).
        m |= ((z >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * c);
    }
    m
}

/// The length of a view.
#[inline(always)]
pub(super) fn view_len(v: u128) -> usize {
    v as u32 as usize
}

/// The bytes of an out-of-line view (length above 12).
#[inline(always)]
fn out_of_line(v: u128, buffers: &[Buffer]) -> &[u8] {
    let n = view_len(v);
    let buffer = (v >> 64) as u32 as usize;
    let offset = (v >> 96) as u32 as usize;
    &buffers[buffer].as_slice()[offset..offset + n]
}

/// An out-of-line view's data buffer, its offset there and its bytes;
/// `None` for a view whose bytes are not inside a data buffer (not a valid
/// view). No closures here (`Option::and_then`): compiled on their own,
/// without the SIMD kernels' target features, they were a call (and
/// `vzeroupper`) a row.
#[inline(always)]
fn view_bytes<'a>(v: u128, data: &[&'a [u8]]) -> Option<(&'a [u8], usize, &'a [u8])> {
    let n = view_len(v);
    let (b, o) = ((v >> 64) as u32 as usize, (v >> 96) as u32 as usize);
    let d = *data.get(b)?;
    let row = d.get(o..o.checked_add(n)?)?;
    Some((d, o, row))
}

/// Rows a chunk of Utf8View StartsWith's candidate pass (64 words, 64
/// KiB of views: they stay in cache for the compares after it).
const VIEW_CHUNK: usize = 64 * 64;

/// The longest string a view holds inline.
pub(super) const INLINE: usize = 12;

/// The bits of views `base..base + k` that pass `f`.
#[inline(always)]
pub(super) fn view_mask(views: &[u128], base: usize, k: usize, f: impl Fn(u128) -> bool) -> u64 {
    let mut m = 0u64;
    if k == 64 {
        let w: &[u128; 64] = views[base..base + 64].try_into().expect("64 views");
        for (j, &v) in w.iter().enumerate() {
            m |= u64::from(f(v)) << j;
        }
    } else {
        for (j, &v) in views[base..base + k].iter().enumerate() {
            m |= u64::from(f(v)) << j;
        }
    }
    m
}

/// StartsWith over views for a prefix of at most 4 bytes, decided by each
/// view's low 64 bits alone: its length (at least `lit_len`) and its first
/// bytes under `mask` (`want`). A word of 64 views a step, branch-free; the
/// AVX2 copy where the CPU has it.
fn view_prefix(views: &[u128], lit_len: u32, mask: u64, want: u64) -> BooleanBuffer {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { view_prefix_avx2(views, lit_len, mask, want) };
    }
    view_prefix_words(views, lit_len, mask, want)
}

/// [`view_prefix_words`] compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn view_prefix_avx2(views: &[u128], lit_len: u32, mask: u64, want: u64) -> BooleanBuffer {
    view_prefix_words(views, lit_len, mask, want)
}

/// See [`view_prefix`].
#[inline(always)]
fn view_prefix_words(views: &[u128], lit_len: u32, mask: u64, want: u64) -> BooleanBuffer {
    let hit = |v: u128| {
        let low = v as u64;
        u64::from((low as u32 >= lit_len) & (low & mask == want))
    };
    words(views.len(), |base, k| {
        let mut m = 0u64;
        match views
            .get(base..base + 64)
            .and_then(|w| <&[u128; 64]>::try_from(w).ok())
        {
            Some(w) => {
                for (j, &v) in w.iter().enumerate() {
                    m |= hit(v) << j;
                }
            }
            None => {
                for (j, &v) in views[base..base + k].iter().enumerate() {
                    m |= hit(v) << j;
                }
            }
        }
        m
    })
}

/// Contains over views for a literal of 1 to 8 bytes where the CPU has
/// AVX-512 F and BW ([`v512::contains`]) or else AVX2
/// ([`v256::contains`]); `None` elsewhere (the caller runs arrow-rs's
/// kernel).
fn view_contains(views: &[u128], buffers: &[Buffer], lit: &[u8]) -> Option<BooleanBuffer> {
    #[cfg(target_arch = "x86_64")]
    if (1..=v512::MAX_LIT).contains(&lit.len())
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
    {
        let vbmi2 = x512_vbmi2();
        // SAFETY: the CPU has AVX-512 F and BW (and VBMI2 when `vbmi2`);
        // the literal has 1 to 8 bytes.
        return Some(unsafe { v512::contains(views, buffers, lit, vbmi2) });
    }
    #[cfg(target_arch = "x86_64")]
    if (1..=v256::MAX_LIT).contains(&lit.len()) && std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2; the literal has 1 to 8 bytes.
        return Some(unsafe { v256::contains(views, buffers, lit) });
    }
    let _ = (views, buffers, lit);
    None
}

/// The offsets of the out-of-line rows of `views` (at most 64; the bits
/// `outs`) less `first`, the offset of the first, into `w` (`w[j]` where
/// row `j` starts, `w[j + 1]` where it ends; an inline row, or a row after
/// the last view, is empty), one view a step, branch-free: the end of the
/// last row, and whether every out-of-line row lies in buffer `b0` right
/// after the one before (back to back, in view order). A `w` entry wraps
/// only when the rows span more than `i32::MAX` bytes, which the callers
/// refuse from the end.
#[cfg(target_arch = "x86_64")]
fn chained(views: &[u128], outs: u64, b0: u32, first: u64, w: &mut [i32; 65]) -> (u64, bool) {
    let (mut end, mut ok) = (first, true);
    for (j, &v) in views.iter().take(64).enumerate() {
        // 1 for an out-of-line row, else 0 (its length does not count, nor
        // its buffer and offset).
        let o = (outs >> j) & 1;
        let (b, at) = ((v >> 64) as u32, u64::from((v >> 96) as u32));
        ok &= (o == 0) | ((b == b0) & (at == end));
        end += o * u64::from(v as u32);
        w[j + 1] = end.wrapping_sub(first) as i32;
    }
    for j in views.len().min(64)..64 {
        w[j + 1] = w[j];
    }
    (end, ok)
}

/// Contains over string views with AVX-512 F and BW, a literal of 1 to 8
/// (`K`) bytes, a word of 64 views at a time:
///
/// - **Inline views** (at most 12 bytes): 4 views to a register. For each
///   literal byte `i`, a `vpcmpeqb` with the byte broadcast gives a 64-bit
///   mask, shifted right by `i` and and-ed; the result is and-ed with the
///   valid start positions of each 16-byte lane (bytes `4..4 + len - K +
///   1`, from the length broadcast over the lane by a byte shuffle and
///   compared with a constant; none for an out-of-line view). A lane with a
///   bit left matches: a 16-bit test over the word's 16 masks gives its 64
///   bits. Branch-free. A match cannot reach into the next lane: its last
///   byte is at most byte `4 + len - 1 <= 15` of its own.
/// - **Out-of-line views** (their bits from the same registers): each row
///   of at most 64 bytes is one masked load (`len` bytes) from its data
///   buffer and the same compare-and-shift, masked to the `len - K + 1`
///   start positions; longer rows a `memmem` search.
///
/// The views are not trusted: a null view's bytes may be anything (its bit
/// is unspecified and the caller ands the result with the validity), and
/// an array built with `new_unchecked` may hold any views at all. An
/// inline view is only read inside its own 16 bytes, and an out-of-line
/// view's buffer index and `offset + len` are checked against the data
/// buffers (a view that does not fit gives `false`, never a read outside a
/// buffer or a panic). Validated arrays (`StringViewArray::try_new`, which
/// checks every view, null or not) always pass the check; it is two
/// compares a row against a masked load.
#[cfg(target_arch = "x86_64")]
mod v512 {
    use super::{BooleanBuffer, Buffer, Finder, INLINE};
    use core::arch::x86_64::*;
    use std::vec::Vec;

    /// The longest literal taken (the masks are and-ed once per byte).
    pub(super) const MAX_LIT: usize = 8;

    /// See the module.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW (and VBMI2 when `vbmi2`), and
    /// `1 <= lit.len() <= 8`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn contains(
        views: &[u128],
        buffers: &[Buffer],
        lit: &[u8],
        vbmi2: bool,
    ) -> BooleanBuffer {
        // SAFETY: as the caller promised (`lit.len()` picks the copy).
        unsafe { by_len!(lit.len(), contains_k(views, buffers, lit, vbmi2)) }
    }

    /// Bit `p` of the result: whether the 64 bytes of `x` hold `lit` (`K`
    /// bytes, broadcast in `lits`) from byte `p` on; the bits of the last
    /// `K - 1` positions test the bytes that are there only.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn starts<const K: usize>(x: __m512i, lits: &[__m512i; K]) -> u64 {
        let mut acc = u64::MAX;
        for (i, lit) in lits.iter().enumerate() {
            acc &= _mm512_cmpeq_epi8_mask(x, *lit) >> i;
        }
        acc
    }

    /// [`contains`] for a literal of `K` bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW (and VBMI2 when `vbmi2`), and
    /// `lit.len() == K`, `1 <= K <= 8`.
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn contains_k<const K: usize>(
        views: &[u128],
        buffers: &[Buffer],
        lit: &[u8],
        vbmi2: bool,
    ) -> BooleanBuffer {
        let finder = Finder::new(lit);
        let data: Vec<&[u8]> = buffers.iter().map(|b| b.as_slice()).collect();
        let mut lits = [_mm512_setzero_si512(); K];
        for (v, &b) in lits.iter_mut().zip(lit) {
            *v = _mm512_set1_epi8(b as i8);
        }
        // Byte `p` of each 16-byte lane: `p - 4 + K` for a data byte (a
        // match may start there when it is at most the length), 0xff for
        // the length bytes (never).
        let mut first = [0u8; 64];
        for (i, b) in first.iter_mut().enumerate() {
            let p = i % 16;
            *b = if p < 4 { 0xff } else { (p - 4 + K) as u8 };
        }
        // SAFETY: 64 bytes.
        let first = unsafe { _mm512_loadu_si512(first.as_ptr().cast()) };
        let (inline, zero, ones) = (
            _mm512_set1_epi32(INLINE as i32),
            _mm512_setzero_si512(),
            _mm512_set1_epi32(-1),
        );
        // The length dword of each view.
        const LENS: __mmask16 = 0x1111;
        // Words tried back to back, and those that were not: after too
        // many misses (views not in order in their buffers, as after a
        // `take`) the rows go one by one.
        let (mut tried, mut misses) = (0usize, 0usize);
        let len = views.len();
        let mut out = Vec::with_capacity(len.div_ceil(64));
        let mut base = 0;
        while base < len {
            let k = (len - base).min(64);
            let (mut hits, mut outs) = ([0u64; 16], [0u64; 16]);
            for r in 0..16 {
                // The views of this register (4, fewer in the last word:
                // the missing ones load as zero, an empty inline view).
                let n = k.saturating_sub(4 * r).min(4);
                let lanes = ((1u16 << (2 * n)) - 1) as __mmask8;
                // SAFETY: the masked load reads views base + 4r .. + n,
                // which are inside `views` (`4r + n <= k`); masked-out
                // lanes are not read (no fault).
                let x = unsafe {
                    _mm512_maskz_loadu_epi64(lanes, views.as_ptr().add(base + 4 * r).cast())
                };
                let small = _mm512_mask_cmple_epu32_mask(LENS, x, inline);
                let big = _mm512_mask_cmpgt_epu32_mask(LENS, x, inline);
                // The length of each inline view (0 out of line) in every
                // byte of its lane.
                let len8 = _mm512_shuffle_epi8(_mm512_maskz_mov_epi32(small, x), zero);
                let valid = _mm512_cmple_epu8_mask(first, len8);
                hits[r] = starts::<K>(x, &lits) & valid;
                outs[r] = _mm512_movepi8_mask(_mm512_maskz_mov_epi32(big, ones));
            }
            // SAFETY: 16 `u64` each, two 64-byte loads each.
            let (h0, h1, o0, o1) = unsafe {
                (
                    _mm512_loadu_si512(hits.as_ptr().cast()),
                    _mm512_loadu_si512(hits.as_ptr().add(8).cast()),
                    _mm512_loadu_si512(outs.as_ptr().cast()),
                    _mm512_loadu_si512(outs.as_ptr().add(8).cast()),
                )
            };
            // A view's bit: its 16-bit group of the masks is not zero.
            let mut m = u64::from(_mm512_test_epi16_mask(h0, h0))
                | (u64::from(_mm512_test_epi16_mask(h1, h1)) << 32);
            let mut rest = u64::from(_mm512_test_epi16_mask(o0, o0))
                | (u64::from(_mm512_test_epi16_mask(o1, o1)) << 32);
            // Words of mostly out-of-line rows only: with a quarter of
            // them (short rows of 0-16 bytes) the scan of the views that
            // `back_to_back` adds measured slower than the rows one by one.
            if rest.count_ones() >= 32 && vbmi2 && misses <= 16 + tried / 16 {
                tried += 1;
                // SAFETY: the CPU has AVX-512 F, BW and VBMI2 (`vbmi2`, as
                // the caller promised); `1 <= lit.len() <= 8`.
                match unsafe { back_to_back(&views[base..base + k], rest, &data, lit) } {
                    Some(bits) => {
                        out.push(m | (bits & rest));
                        base += 64;
                        continue;
                    }
                    None => misses += 1,
                }
            }
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                m |= u64::from(outer::<K>(views[base + j], &data, &lits, &finder)) << j;
            }
            out.push(m);
            base += 64;
        }
        BooleanBuffer::new(Buffer::from_vec(out), 0, len)
    }

    /// The out-of-line rows (the bits `outs` of `views`, at most 64) when
    /// their bytes lie back to back in one data buffer in view order (as a
    /// builder writes them; checked 16 views a step by [`all_out`] when all
    /// 64 are out of line, else one a step, branch-free):
    /// [`x512::contains_word`] over those bytes, the inline rows as empty
    /// rows between them (their bits are zero).
    /// `None` when they do not, when they span more than
    /// [`x512::SPAN_BIG`] bytes or their blocks do not fit in the buffer,
    /// or a row is too long for a word.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI2, and `1 <= lit.len() <=
    /// 8`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
    pub(super) unsafe fn back_to_back(
        views: &[u128],
        outs: u64,
        data: &[&[u8]],
        lit: &[u8],
    ) -> Option<u64> {
        let v0 = *views.get(outs.trailing_zeros() as usize)?;
        let (b0, first) = ((v0 >> 64) as u32, u64::from((v0 >> 96) as u32));
        // Row j's offset less the first, the rows after the last view
        // empty.
        let mut w = [0i32; 65];
        let (end, ok) = match (<&[u128; 64]>::try_from(views), outs) {
            (Ok(all), u64::MAX) => all_out(all, b0, first as u32, &mut w),
            _ => super::chained(views, outs, b0, first, &mut w),
        };
        if !ok || end - first > super::x512::SPAN_BIG as u64 {
            return None;
        }
        let values = data.get(b0 as usize)?;
        // SAFETY: the CPU has AVX-512 F, BW and VBMI2 and `1 <= lit.len()
        // <= 8` (as the caller promised); `w[0] = 0` and `w[64] = end -
        // first` (at most SPAN_BIG, so no `i32` wrapped). `contains_word`
        // checks that the blocks over `first..end` lie inside `values`.
        unsafe { super::x512::contains_word(&w, first as usize, end as usize, values, lit) }
    }

    /// [`back_to_back`]'s offsets `w` for 64 out-of-line views, 16 a
    /// step: their lengths, buffer indices and offsets gathered from 4
    /// registers of views by permutes, each offset compared with the end
    /// (offset plus length, not wrapped) of the view before (`first` for
    /// the first) and each buffer with `b0`. The end of the last view, and
    /// whether all of them held.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
    #[inline]
    fn all_out(views: &[u128; 64], b0: u32, first: u32, w: &mut [i32; 65]) -> (u64, bool) {
        // Dword `4j + f` of the views is field `f` of view `j`.
        let idx = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
        let (two, three) = (_mm512_set1_epi32(2), _mm512_set1_epi32(3));
        let (b0, at) = (
            _mm512_set1_epi32(b0 as i32),
            _mm512_set1_epi32(first as i32),
        );
        let mut before = at;
        let mut bad: __mmask16 = 0;
        let p = views.as_ptr();
        for g in 0..4 {
            // SAFETY: views 16g .. 16g + 16 of 64, four 64-byte loads.
            let r = unsafe {
                [
                    _mm512_loadu_si512(p.add(16 * g).cast()),
                    _mm512_loadu_si512(p.add(16 * g + 4).cast()),
                    _mm512_loadu_si512(p.add(16 * g + 8).cast()),
                    _mm512_loadu_si512(p.add(16 * g + 12).cast()),
                ]
            };
            let lens = field(&r, idx);
            let bufs = field(&r, _mm512_add_epi32(idx, two));
            let offs = field(&r, _mm512_add_epi32(idx, three));
            let ends = _mm512_add_epi32(offs, lens);
            // The end of the view before each: the last lane of `before`,
            // then `ends` moved up a lane.
            let prev = _mm512_alignr_epi32::<15>(ends, before);
            bad |= _mm512_cmpneq_epi32_mask(bufs, b0)
                | _mm512_cmpneq_epi32_mask(offs, prev)
                | _mm512_cmplt_epu32_mask(ends, offs);
            // SAFETY: lanes 16g .. 16g + 16 of `w` (65 of them).
            unsafe {
                _mm512_storeu_si512(
                    w.as_mut_ptr().add(16 * g).cast(),
                    _mm512_sub_epi32(offs, at),
                )
            };
            before = ends;
        }
        let end = _mm512_cvtsi512_si32(_mm512_alignr_epi32::<15>(before, before)) as u32;
        w[64] = end.wrapping_sub(first) as i32;
        (u64::from(end), bad == 0)
    }

    /// Dword `ix` (of 0..32, lanes 0..8) of each of the 16 views in `r`
    /// (lanes 0..8 from `r[0..2]`, 8..16 from `r[2..4]`).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn field(r: &[__m512i; 4], ix: __m512i) -> __m512i {
        let lo = _mm512_permutex2var_epi32(r[0], ix, r[1]);
        let hi = _mm512_permutex2var_epi32(r[2], ix, r[3]);
        _mm512_shuffle_i64x2::<0x44>(lo, hi)
    }

    /// Whether the out-of-line view `v` holds the literal (`K` bytes,
    /// broadcast in `lits`; `finder` searches for it). `false` for a view
    /// whose bytes are not inside a data buffer (not a valid view).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn outer<const K: usize>(
        v: u128,
        data: &[&[u8]],
        lits: &[__m512i; K],
        finder: &Finder<'_>,
    ) -> bool {
        let Some((_, _, row)) = super::view_bytes(v, data) else {
            return false;
        };
        let n = row.len();
        if n > 64 {
            return finder.find(row).is_some();
        }
        if n < K {
            // Not for a view of more than 12 bytes (K <= 8); keeps the
            // shift below in range whatever the caller passes.
            return false;
        }
        // SAFETY: the load reads bytes 0..n of `row` (the mask's low `n`
        // bits, n <= 64), all inside it; masked-out bytes are not read
        // and never fault, so nothing outside the data buffer is touched
        // even for an unpadded buffer.
        let x = unsafe { _mm512_maskz_loadu_epi8(u64::MAX >> (64 - n), row.as_ptr().cast()) };
        // The n - K + 1 positions where a match ends inside the row.
        starts::<K>(x, lits) & (u64::MAX >> (64 - (n - K + 1))) != 0
    }
}

/// Contains over string views with AVX2 (no AVX-512), a literal of 1 to 8
/// (`K`) bytes, a word of 64 views at a time:
///
/// - **Inline views** (at most 12 bytes): 2 views to a register. For each
///   literal byte `i`, a `vpcmpeqb` with the byte broadcast, moved down `i`
///   bytes inside its 16-byte lane (`vpsrldq`) and and-ed; the result is
///   and-ed with the valid start positions of each lane (bytes
///   `4..4 + len - K + 1`, from the length broadcast over the lane by a
///   byte shuffle and compared with a constant; none for an out-of-line
///   view). A lane with a byte left matches. Branch-free. A match cannot
///   reach into the next lane: its last byte is at most byte
///   `4 + len - 1 <= 15` of its own.
/// - **Out-of-line views** (flagged by the same registers), row by row: a
///   row of at most 64 bytes is searched in two steps of 32 start
///   positions (both run, branch-free), each a `vpcmpeqb` of the 32 bytes
///   from position `i` with literal byte `i` for every `i < K`, and-ed,
///   masked to the `len - K + 1` start positions; longer rows a `memmem`
///   search. The loads read `64 + K - 1` bytes from the row's start, never
///   past its data buffer: a row too near the buffer's end (an unpadded
///   buffer, as the C Data Interface imports it) is copied to a zeroed
///   block on the stack first.
/// - **Words of out-of-line views back to back** (at least 32 of the 64
///   out of line, lying in one data buffer one after the other in view
///   order, as a builder writes them; `back_to_back`): the word's bytes
///   are searched once by the Utf8 word of [`x86::contains_word`] (a
///   bitmap of the literal's start positions, then each row's bits), the
///   inline views as empty rows. The check is 8 views a step
///   (`all_out`) when all 64 are out of line. After a word of
///   out-of-line views only, the next word's flags come first and the
///   inline test runs only when a view is inline. After too many words
///   that are not back to back (as after a `take`), the rows go one by
///   one. On AMD EPYC family 25 model 1 (Zen 3), 1 Mi paths of 24-64
///   bytes: 6.8 ms row by row, 4.9-5.2 ms so (docs/strings.md).
///
/// The views are not trusted, as in [`v512`]: an inline view is only read
/// inside its own 16 bytes, and an out-of-line view's buffer index and
/// `offset + len` are checked against the data buffers (a view that does
/// not fit gives `false`, never a read outside a buffer or a panic).
#[cfg(target_arch = "x86_64")]
mod v256 {
    use super::x86::{self, CONTAINS_WORDS};
    use super::{BooleanBuffer, Buffer, Finder};
    use core::arch::x86_64::*;
    use std::vec::Vec;

    /// The longest literal taken.
    pub(super) const MAX_LIT: usize = 8;

    /// See the module.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, and `1 <= lit.len() <= 8`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn contains(views: &[u128], buffers: &[Buffer], lit: &[u8]) -> BooleanBuffer {
        // SAFETY: as the caller promised (`lit.len()` picks the copy).
        unsafe { by_len!(lit.len(), contains_k(views, buffers, lit)) }
    }

    /// `x` with each 16-byte lane moved down `i` bytes (zeros shifted in),
    /// `i < 8`; the `match` folds away where `i` is a constant.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn down(x: __m256i, i: usize) -> __m256i {
        match i {
            0 => x,
            1 => _mm256_bsrli_epi128::<1>(x),
            2 => _mm256_bsrli_epi128::<2>(x),
            3 => _mm256_bsrli_epi128::<3>(x),
            4 => _mm256_bsrli_epi128::<4>(x),
            5 => _mm256_bsrli_epi128::<5>(x),
            6 => _mm256_bsrli_epi128::<6>(x),
            _ => _mm256_bsrli_epi128::<7>(x),
        }
    }

    /// [`contains`] for a literal of `K` bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, and `lit.len() == K`, `1 <= K <= 8`.
    #[target_feature(enable = "avx2")]
    unsafe fn contains_k<const K: usize>(
        views: &[u128],
        buffers: &[Buffer],
        lit: &[u8],
    ) -> BooleanBuffer {
        let finder = Finder::new(lit);
        let data: Vec<&[u8]> = buffers.iter().map(|b| b.as_slice()).collect();
        let mut lits = [_mm256_setzero_si256(); K];
        for (v, &b) in lits.iter_mut().zip(lit) {
            *v = _mm256_set1_epi8(b as i8);
        }
        // Byte `p` of each 16-byte lane: `p - 4 + K` for a data byte (a
        // match may start there when it is at most the length), 0xff for
        // the length bytes (never).
        let mut first = [0u8; 32];
        for (i, b) in first.iter_mut().enumerate() {
            let p = i % 16;
            *b = if p < 4 { 0xff } else { (p - 4 + K) as u8 };
        }
        // SAFETY: 32 bytes.
        let first = unsafe { _mm256_loadu_si256(first.as_ptr().cast()) };
        let (inline, zero) = (
            _mm256_set1_epi32(super::INLINE as i32),
            _mm256_setzero_si256(),
        );
        let len = views.len();
        let mut out = Vec::with_capacity(len.div_ceil(64));
        // The last word's views, the missing ones zero (empty inline
        // views: no match, not out of line).
        let mut tail = [0u128; 64];
        let mut bits = [0u64; CONTAINS_WORDS];
        // Words tried back to back, and those that were not.
        let (mut tried, mut misses) = (0usize, 0usize);
        let mut all_out = false;
        let mut base = 0;
        while base < len {
            let k = (len - base).min(64);
            let word: &[u128; 64] = match <&[u128; 64]>::try_from(&views[base..base + k]) {
                Ok(word) => word,
                Err(_) => {
                    tail[..k].copy_from_slice(&views[base..]);
                    &tail
                }
            };
            // After a word of out-of-line views only (paths, say), the
            // flags come first and the inline test runs only when a view
            // is inline; otherwise both in one pass.
            let (mut m, mut rest) = (0u64, u64::MAX);
            if all_out {
                rest = outs(word, inline);
            }
            if rest != u64::MAX || !all_out {
                (m, rest) = inline_hits::<K>(word, &lits, first, inline, zero);
            }
            all_out = rest == u64::MAX;
            // Words of mostly out-of-line rows only, as in the AVX-512
            // kernel; after too many misses (views not in buffer order, as
            // after a `take`) the rows go one by one.
            if rest.count_ones() >= 32 && misses <= 16 + tried / 16 {
                tried += 1;
                // SAFETY: the CPU has AVX2 and `1 <= lit.len() <= 8` (as
                // the caller promised).
                match unsafe { back_to_back(word, rest, &data, lit, &mut bits) } {
                    Some(b) => {
                        out.push(m | (b & rest));
                        base += 64;
                        continue;
                    }
                    None => misses += 1,
                }
            }
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                m |= u64::from(outer::<K>(word[j], &data, &lits, &finder)) << j;
            }
            out.push(m);
            base += 64;
        }
        BooleanBuffer::new(Buffer::from_vec(out), 0, len)
    }

    /// Bit `j`: whether view `j` of `word` is out of line (its length
    /// more than `inline`, broadcast).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn outs(word: &[u128; 64], inline: __m256i) -> u64 {
        let mut rest = 0u64;
        for r in 0..32 {
            // SAFETY: views 2r and 2r + 1 of the 64 in `word`.
            let x = unsafe { _mm256_loadu_si256(word.as_ptr().add(2 * r).cast()) };
            rest |= out_pair(small(x, inline)) << (2 * r);
        }
        rest
    }

    /// Dword 0 of each 16-byte lane of `x` (2 views): all ones for an
    /// inline view (length at most `inline`, broadcast).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn small(x: __m256i, inline: __m256i) -> __m256i {
        _mm256_cmpeq_epi32(_mm256_min_epu32(x, inline), x)
    }

    /// The 2 out-of-line bits (view 0, view 1) of a register's [`small`].
    #[target_feature(enable = "avx2")]
    #[inline]
    fn out_pair(small: __m256i) -> u64 {
        let s = !_mm256_movemask_ps(_mm256_castsi256_ps(small)) as u32;
        u64::from((s & 1) | ((s >> 3) & 2))
    }

    /// The inline views of `word` that hold the literal (`K` bytes,
    /// broadcast in `lits`), and the views that are out of line (as
    /// [`outs`]); `first` and `zero` as [`contains_k`] makes them.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn inline_hits<const K: usize>(
        word: &[u128; 64],
        lits: &[__m256i; K],
        first: __m256i,
        inline: __m256i,
        zero: __m256i,
    ) -> (u64, u64) {
        let (mut m, mut rest) = (0u64, 0u64);
        for r in 0..32 {
            // SAFETY: views 2r and 2r + 1 of the 64 in `word`.
            let x = unsafe { _mm256_loadu_si256(word.as_ptr().add(2 * r).cast()) };
            let mut acc = _mm256_cmpeq_epi8(x, lits[0]);
            for (i, l) in lits.iter().enumerate().skip(1) {
                acc = _mm256_and_si256(acc, down(_mm256_cmpeq_epi8(x, *l), i));
            }
            let small = small(x, inline);
            // The length of each inline view (0 out of line) in every
            // byte of its lane.
            let len8 = _mm256_shuffle_epi8(_mm256_and_si256(x, small), zero);
            let valid = _mm256_cmpeq_epi8(_mm256_min_epu8(first, len8), first);
            let h = _mm256_movemask_epi8(_mm256_and_si256(acc, valid)) as u32;
            m |= (u64::from(h & 0xffff != 0) | (u64::from(h >> 16 != 0) << 1)) << (2 * r);
            rest |= out_pair(small) << (2 * r);
        }
        (m, rest)
    }

    /// The out-of-line rows of `word` (the bits `outs`) when their bytes
    /// lie back to back in one data buffer in view order (as a builder
    /// writes them; checked one view a step, branch-free):
    /// [`x86::contains_word`] over those bytes, the inline rows as empty
    /// rows between them (their bits are zero). `None` when they do not,
    /// when they span more than `64 * CONTAINS_WORDS` bytes or their
    /// blocks do not fit in the buffer, or a row is longer than
    /// `63 + lit.len()` bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, and `1 <= lit.len() <= 8`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn back_to_back(
        word: &[u128; 64],
        outs: u64,
        data: &[&[u8]],
        lit: &[u8],
        bits: &mut [u64; CONTAINS_WORDS],
    ) -> Option<u64> {
        let v0 = *word.get(outs.trailing_zeros() as usize)?;
        let (b0, first) = ((v0 >> 64) as u32, u64::from((v0 >> 96) as u32));
        // Row j's offset less the first: an inline row is empty.
        let mut w = [0i32; 65];
        let (end, ok) = match outs {
            u64::MAX => all_out(word, b0, first as u32, &mut w),
            _ => super::chained(word, outs, b0, first, &mut w),
        };
        if !ok || end - first > (64 * CONTAINS_WORDS) as u64 {
            return None;
        }
        let values = data.get(b0 as usize)?.get(first as usize..)?;
        // SAFETY: the CPU has AVX2 and `1 <= lit.len() <= 8` (as the
        // caller promised); `w` runs from 0 to `end - first` (at most
        // 4096, so no `i32` wrapped) and `contains_word` checks that its
        // blocks lie inside `values`.
        unsafe { x86::contains_word(&w, values, lit, bits) }
    }

    /// [`back_to_back`]'s offsets `w` for 64 out-of-line views, 8 a step:
    /// their lengths, buffer indices and offsets from 4 registers of 2
    /// views each by a 4x4 dword transpose in each lane (and a permute back
    /// to view order), each offset compared with the end (offset plus
    /// length, not wrapped) of the view before (`first` for the first) and
    /// each buffer with `b0`. The end of the last view, and whether all of
    /// them held.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn all_out(word: &[u128; 64], b0: u32, first: u32, w: &mut [i32; 65]) -> (u64, bool) {
        // Views 0, 2, 4, 6 in the low lane and 1, 3, 5, 7 in the high one,
        // back to 0..8.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let (up, last) = (
            _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6),
            _mm256_set1_epi32(7),
        );
        let (b0, at) = (
            _mm256_set1_epi32(b0 as i32),
            _mm256_set1_epi32(first as i32),
        );
        let mut before = at;
        let mut bad = _mm256_setzero_si256();
        let p = word.as_ptr();
        for g in 0..8 {
            // SAFETY: views 8g .. 8g + 8 of 64, four 32-byte loads.
            let [r0, r1, r2, r3] = unsafe {
                [
                    _mm256_loadu_si256(p.add(8 * g).cast()),
                    _mm256_loadu_si256(p.add(8 * g + 2).cast()),
                    _mm256_loadu_si256(p.add(8 * g + 4).cast()),
                    _mm256_loadu_si256(p.add(8 * g + 6).cast()),
                ]
            };
            // Dwords (length, prefix, buffer, offset) of each view.
            let (t0, t1) = (_mm256_unpacklo_epi32(r0, r1), _mm256_unpacklo_epi32(r2, r3));
            let (t2, t3) = (_mm256_unpackhi_epi32(r0, r1), _mm256_unpackhi_epi32(r2, r3));
            let lens = _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi64(t0, t1), order);
            let bufs = _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi64(t2, t3), order);
            let offs = _mm256_permutevar8x32_epi32(_mm256_unpackhi_epi64(t2, t3), order);
            let ends = _mm256_add_epi32(offs, lens);
            // The end of the view before each: the last lane of `before`,
            // then `ends` moved up a lane.
            let prev = _mm256_blend_epi32::<1>(
                _mm256_permutevar8x32_epi32(ends, up),
                _mm256_permutevar8x32_epi32(before, last),
            );
            // Wrapped: `ends < offs`, that is `max(ends, offs) != ends`.
            let wrapped = _mm256_xor_si256(
                _mm256_cmpeq_epi32(_mm256_max_epu32(ends, offs), ends),
                _mm256_set1_epi32(-1),
            );
            bad = _mm256_or_si256(
                bad,
                _mm256_or_si256(
                    _mm256_xor_si256(
                        _mm256_and_si256(
                            _mm256_cmpeq_epi32(bufs, b0),
                            _mm256_cmpeq_epi32(offs, prev),
                        ),
                        _mm256_set1_epi32(-1),
                    ),
                    wrapped,
                ),
            );
            // SAFETY: lanes 8g .. 8g + 8 of `w` (65 of them).
            unsafe {
                _mm256_storeu_si256(w.as_mut_ptr().add(8 * g).cast(), _mm256_sub_epi32(offs, at))
            };
            before = ends;
        }
        let end = _mm256_extract_epi32::<7>(before) as u32;
        w[64] = end.wrapping_sub(first) as i32;
        (u64::from(end), _mm256_testz_si256(bad, bad) == 1)
    }

    /// Whether the out-of-line view `v` holds the literal (`K` bytes,
    /// broadcast in `lits`; `finder` searches for it). `false` for a view
    /// whose bytes are not inside a data buffer (not a valid view).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn outer<const K: usize>(
        v: u128,
        data: &[&[u8]],
        lits: &[__m256i; K],
        finder: &Finder<'_>,
    ) -> bool {
        let Some((d, o, row)) = super::view_bytes(v, data) else {
            return false;
        };
        let n = row.len();
        if n > 64 {
            return finder.find(row).is_some();
        }
        let Some(last) = n.checked_sub(K) else {
            return false;
        };
        // Both steps of 32 start positions run, branch-free. On AMD EPYC
        // family 25 model 1 (Zen 3), paths of 24-64 bytes (mixed lengths):
        // a branch on the second step took 8.6 ms against 6.6-7.0 ms, and
        // skipping it a word at a time where no row needs it 4% more time
        // (7% less on rows of 0-16 bytes); docs/strings.md.
        if d.len() - o >= 64 + K - 1 {
            // SAFETY: 64 + K - 1 bytes from the row's start lie inside `d`.
            unsafe { search::<K>(d.as_ptr().add(o), last, lits) }
        } else {
            // Near the buffer's end: the row (at most 64 bytes) on a
            // zeroed block of 64 + 8 bytes.
            let mut block = [0u8; 72];
            block[..n].copy_from_slice(row);
            // SAFETY: 64 + K - 1 <= 71 bytes of the 72 of `block`.
            unsafe { search::<K>(block.as_ptr(), last, lits) }
        }
    }

    /// Whether the literal (`K` bytes, broadcast in `lits`) starts at one of
    /// the positions `0..=last` (`last < 64`) of the bytes at `p`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2; `64 + K - 1` bytes from `p` must be
    /// readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn search<const K: usize>(p: *const u8, last: usize, lits: &[__m256i; K]) -> bool {
        // Bits 0..=last.
        let valid = u64::MAX >> (63 - last);
        // SAFETY: positions 0..64 read bytes 0 .. 64 + K - 1.
        let (lo, hi) = unsafe { (starts::<K>(p, lits), starts::<K>(p.add(32), lits)) };
        (u64::from(lo) | (u64::from(hi) << 32)) & valid != 0
    }

    /// Bit `j`: whether the literal starts at byte `j` of `p` (`j < 32`).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2; `32 + K - 1` bytes from `p` must be
    /// readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn starts<const K: usize>(p: *const u8, lits: &[__m256i; K]) -> u32 {
        let mut acc = _mm256_set1_epi8(-1);
        for (i, l) in lits.iter().enumerate() {
            // SAFETY: bytes i .. i + 32 of p, i <= K - 1 (the caller's
            // promise).
            let x = unsafe { _mm256_loadu_si256(p.add(i).cast()) };
            acc = _mm256_and_si256(acc, _mm256_cmpeq_epi8(x, *l));
        }
        _mm256_movemask_epi8(acc) as u32
    }
}

/// `=`, StartsWith, EndsWith or Contains over string views.
fn view_kernel(
    array: &StringViewArray,
    test: StringMatch,
    literal: &str,
) -> Result<BooleanBuffer, ArrowError> {
    let (views, buffers, lit) = (
        array.views().as_ref(),
        array.data_buffers(),
        literal.as_bytes(),
    );
    let len = views.len();
    let l = lit.len();
    if l == 0 && test != StringMatch::Equal {
        return Ok(BooleanBuffer::new_set(len));
    }
    if l > u32::MAX as usize {
        return Ok(BooleanBuffer::new_unset(len));
    }
    // The literal as a view: its length, then its first 12 bytes.
    let mut inline = [0u8; 16];
    inline[..4].copy_from_slice(&(l as u32).to_le_bytes());
    let k = l.min(INLINE);
    inline[4..4 + k].copy_from_slice(&lit[..k]);
    let lit_view = u128::from_le_bytes(inline);
    // Masks of the length and the first `n` data bytes of a view.
    let data_mask = |n: usize| -> u128 { ((1u128 << (8 * n)) - 1) << 32 };
    // Contains with a literal of 1 to 8 bytes where the CPU has AVX-512 F
    // and BW: inline views searched 4 to a register, out-of-line rows of at
    // most 64 bytes by one masked load each, or back to back as one Utf8
    // word (`v512`; 6-7x arrow-rs on short rows, 2.5-3.6x on paths, Zen 4,
    // docs/strings.md); with AVX2 only, 2 inline views to a register and
    // the out-of-line rows in two steps of 32 start positions (`v256`;
    // 7.4-8.8x on short rows, 1.98-2.9x on paths, Zen 3).
    if test == StringMatch::Contains {
        if let Some(bits) = view_contains(views, buffers, lit) {
            return Ok(bits);
        }
    }
    if test == StringMatch::Equal && l > INLINE {
        return Ok(view_eq_long(views, buffers, lit));
    }
    let ends = Ends::new(lit);
    Ok(match test {
        // Measured slower than arrow-rs's kernels (docs/strings.md): `=` of
        // a literal of at most 12 bytes (arrow-ord compares whole views,
        // vectorised, at the speed of reading them), and Contains without
        // AVX2 or with a longer literal (a row-by-row `memmem` measured
        // 0.8-1.1x; a portable view scan 0.6-1.2x), run arrow-rs's kernel.
        StringMatch::Equal | StringMatch::Contains => {
            let scalar = Scalar::new(StringViewArray::from(vec![literal]));
            let result = match test {
                StringMatch::Equal => arrow_ord::cmp::eq(array, &scalar)?,
                _ => arrow_string::like::contains(array, &scalar)?,
            };
            result.values().clone()
        }
        StringMatch::StartsWith => {
            // Length at least `l` and the inline prefix; decided here for
            // prefixes of at most 4 bytes.
            let mask = data_mask(l.min(4));
            let want = lit_view & mask;
            let lit_len = l as u32;
            let decided = l <= 4;
            let rest_mask = data_mask(k);
            if decided {
                return Ok(view_prefix(views, lit_len, mask as u64, want as u64));
            }
            // A literal of more than 8 bytes after a word where at least
            // one in 8 candidates matched: the out-of-line rows' first
            // bytes against the literal's 8-byte words, no branch on the
            // answer (as for Utf8).
            let prefix8 = (l > 8).then(|| Words8::new(lit));
            let mut many = false;
            // A literal of 13 to 64 bytes (every candidate out of line)
            // where the CPU has AVX-512 F and BW: one masked load a
            // candidate, no branch on the answer. 1 Mi paths, a 30-byte
            // literal, on AMD EPYC family 25 model 17 (Zen 4), least of
            // six runs: 1% matching 3.79 -> 2.84 ms, half 5.28 -> 3.02 ms
            // (docs/strings.md).
            #[cfg(target_arch = "x86_64")]
            let x512 = (INLINE + 1..=64).contains(&l)
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw");
            // The candidates (at least `l` bytes, the literal's first 4):
            // word by word, or after a chunk of few (at most 8 a word on
            // average) a chunk's at a time by the vectorised pass of the
            // short prefixes ([`view_prefix`]), which lets the candidates
            // `AHEAD_LONG` words ahead be prefetched at no cost. A rare
            // prefix (a candidate in 100 rows, 1 Mi 24-64-byte rows) on
            // AMD EPYC family 25 model 17 (Zen 4): 2.7-4.2 -> 1.3-1.6 ms
            // (arrow-string 2.5-2.7 ms: 0.95-1.06x -> 1.8-2.0x). Chunks of
            // many candidates keep the word loop: a chunked pass measured
            // 1.1-1.3x slower there (docs/strings.md).
            let candidate = |v: u128| v as u32 >= lit_len && v & mask == want;
            let data: Vec<&[u8]> = buffers.iter().map(|b| b.as_slice()).collect();
            let mut chunk = BooleanBuffer::new_unset(0);
            // Whether the chunk is read from `chunk`, and the candidates
            // of the chunk so far.
            let (mut few, mut count) = (false, 0usize);
            words(len, |base, k| {
                let at = base % VIEW_CHUNK;
                if at == 0 {
                    few = base > 0 && count <= 8 * (VIEW_CHUNK / 64);
                    count = 0;
                    if few {
                        let end = (base + VIEW_CHUNK).min(len);
                        chunk = view_prefix(&views[base..end], lit_len, mask as u64, want as u64);
                    }
                }
                let m = if few {
                    let masks: &[u64] = chunk.inner().typed_data();
                    if let Some(&ahead) = masks.get(at / 64 + AHEAD_LONG) {
                        // The word ahead may be the last, partial one.
                        let row = base + 64 * AHEAD_LONG;
                        prefetch_view_rows(&views[row..len.min(row + 64)], ahead, &data, l);
                    }
                    masks[at / 64]
                } else {
                    view_mask(views, base, k, candidate)
                };
                count += m.count_ones() as usize;
                #[cfg(target_arch = "x86_64")]
                if x512 {
                    if m == 0 {
                        return 0;
                    }
                    // SAFETY: the CPU has AVX-512 F and BW (checked above),
                    // and `13 <= l <= 64`.
                    return unsafe { x512::refine_prefix_views(views, base, m, &data, lit) };
                }
                let out = match &prefix8 {
                    Some(words8) if many => select(m, |j| {
                        let v = views[base + j];
                        if view_len(v) <= INLINE {
                            v & rest_mask == lit_view & rest_mask
                        } else {
                            words8.eq(&out_of_line(v, buffers)[..l])
                        }
                    }),
                    _ => refine(m, |j| {
                        let v = views[base + j];
                        if view_len(v) <= INLINE {
                            v & rest_mask == lit_view & rest_mask
                        } else {
                            prefix_eq(out_of_line(v, buffers), 0, lit, &ends)
                        }
                    }),
                };
                many = matching(m, out);
                out
            })
        }
        StringMatch::EndsWith if l <= 8 => {
            // One pass over a word of views: an inline row is decided by
            // the 8 view bytes ending where its string ends, branch-free;
            // the out-of-line rows (longer than 12 bytes, so at least 8 and
            // at least `l`) are collected and each decided by one 8-byte
            // load ending where its string ends in its data buffer.
            view_suffix(views, buffers, l as u32, &ends)
        }
        StringMatch::EndsWith => {
            long_enough(views, buffers, l, |s| suffix_eq(s, s.len(), lit, &ends))
        }
    })
}

/// `=` over views for a literal of more than 12 bytes (never inline): the
/// candidates are the views whose low 64 bits, the length and the 4-byte
/// prefix, are the literal's; each is compared with the literal from its
/// data buffer 8 bytes at a time, the last 8 overlapping, branch-free on
/// the bytes. After a word of at most 16 candidates, the candidates of
/// the word [`AHEAD_LONG`] words ahead are looked for and, when they too
/// are at most 16, the first and last line of each prefetched: a
/// candidate of a sparse word lies far from the one before, where the
/// hardware prefetcher does not look. On AMD EPYC family 25 model 1 (Zen
/// 3), 1 Mi paths of 24-64 bytes, a 36-byte literal: the look-ahead on
/// every word cost the many-match case 4.5-5.0 ms against 4.0-4.4 without
/// it, and without it the few-match case took up to 4.0 ms against up to
/// 2.7 (docs/strings.md). With AVX-512 and a literal of at most 64 bytes,
/// a word of more than 16 candidates compares each by one masked load
/// ([`x512::refine_prefix_views`]): 1 Mi paths, half matching, least of
/// six runs 3.20 -> 2.56 ms on AMD EPYC family 25 model 17 (Zen 4); a word of
/// fewer keeps the 8-byte words (the masked loads measured 1.06-1.15x
/// slower there). A view whose bytes are not inside a data buffer (not a
/// valid view) gives `false`.
fn view_eq_long(views: &[u128], buffers: &[Buffer], lit: &[u8]) -> BooleanBuffer {
    let data: Vec<&[u8]> = buffers.iter().map(|b| b.as_slice()).collect();
    let l = lit.len();
    debug_assert!(l > INLINE);
    let mut key = [0u8; 8];
    key[..4].copy_from_slice(&(l as u32).to_le_bytes());
    key[4..].copy_from_slice(&lit[..4]);
    let key = u64::from_le_bytes(key);
    // 16-byte words measured no faster (docs/strings.md).
    let words8 = Words8::new(lit);
    // Whether the word before had few candidates (at most 16): only then
    // are the candidates ahead looked for (many-match words skip the second
    // pass over the views).
    let mut sparse = true;
    // A literal of at most 64 bytes where the CPU has AVX-512 F and BW:
    // a word of more than 16 candidates compares each by one masked load.
    #[cfg(target_arch = "x86_64")]
    let x512 = l <= 64
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw");
    words(views.len(), |base, k| {
        if sparse {
            prefetch_view_candidates(views, &data, base + 64 * AHEAD_LONG, key, l);
        }
        let m = view_mask(views, base, k, |v| v as u64 == key);
        sparse = m.count_ones() <= 16;
        #[cfg(target_arch = "x86_64")]
        if x512 && !sparse {
            // SAFETY: the CPU has AVX-512 F and BW (checked above), and
            // `13 <= l <= 64`. A candidate is `l` bytes long, so its first
            // `l` bytes being the literal's is `=`.
            return unsafe { x512::refine_prefix_views(views, base, m, &data, lit) };
        }
        // Of length `l` (the key), so every word is inside the row.
        select(m, |j| {
            view_bytes(views[base + j], &data).is_some_and(|(_, _, row)| words8.eq(row))
        })
    })
}

/// Asks the CPU to fetch the first and last cache line of the candidates
/// of [`view_eq_long`] (views whose low 64 bits are `key`, `l` bytes long)
/// among the views `at..at + 64`: [`prefetch_view_rows`]. Views past the
/// end are skipped.
#[inline(always)]
fn prefetch_view_candidates(views: &[u128], data: &[&[u8]], at: usize, key: u64, l: usize) {
    if let Some(word) = views.get(at..at + 64) {
        let m = view_mask(word, 0, 64, |v| v as u64 == key);
        prefetch_view_rows(word, m, data, l);
    }
}

/// Asks the CPU to fetch the lines of the first and the `l`-th byte of the
/// rows of the views `word[j]`, bit `j` of `m`, when they are at most 16
/// (each such row a line of its own, far from the one before, where the
/// hardware prefetcher does not look). A hint only: a prefetch never
/// faults, and a view whose buffer is not there is skipped.
#[inline(always)]
fn prefetch_view_rows(word: &[u128], m: u64, data: &[&[u8]], l: usize) {
    #[cfg(target_arch = "x86_64")]
    if m.count_ones() <= 16 {
        let mut m = m;
        while m != 0 {
            let v = word[m.trailing_zeros() as usize];
            m &= m - 1;
            let Some(d) = data.get((v >> 64) as u32 as usize) else {
                continue;
            };
            let p = d.as_ptr().wrapping_add((v >> 96) as u32 as usize);
            // SAFETY: a prefetch is a hint that reads nothing and never
            // faults, whatever the address.
            unsafe {
                use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(p.cast());
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(l - 1).cast());
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (word, m, data, l);
}

/// EndsWith over views for a suffix of at most 8 bytes (`lit_len`, its
/// last bytes in `ends`): one pass over a word of views. An inline row is
/// decided branch-free by the 8 view bytes ending where its string ends,
/// taken from the view's two halves by shifts (so that the compiler can
/// run several views at once); the out-of-line rows (longer than 12
/// bytes, so at least 8 and at least `lit_len`) are collected and each
/// decided by one 8-byte load ending where its string ends in its data
/// buffer. The AVX2 copy where the CPU has it.
fn view_suffix(views: &[u128], buffers: &[Buffer], lit_len: u32, ends: &Ends) -> BooleanBuffer {
    #[cfg(target_arch = "x86_64")]
    if avx2_bits() {
        // SAFETY: the CPU has AVX2, POPCNT and BMI1.
        return unsafe { view_suffix_avx2(views, buffers, lit_len, ends) };
    }
    view_suffix_words::<false>(views, buffers, lit_len, ends)
}

/// [`view_suffix_words`] compiled for AVX2, with POPCNT and BMI1.
///
/// # Safety
///
/// The CPU must have AVX2, POPCNT and BMI1 ([`avx2_bits`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1")]
unsafe fn view_suffix_avx2(
    views: &[u128],
    buffers: &[Buffer],
    lit_len: u32,
    ends: &Ends,
) -> BooleanBuffer {
    view_suffix_words::<true>(views, buffers, lit_len, ends)
}

/// See [`view_suffix`]. With `AVX2` (the caller checked the CPU) a whole
/// word's views are classified 4 to a step.
#[inline(always)]
fn view_suffix_words<const AVX2: bool>(
    views: &[u128],
    buffers: &[Buffer],
    lit_len: u32,
    ends: &Ends,
) -> BooleanBuffer {
    let data: Vec<&[u8]> = buffers.iter().map(|b| b.as_slice()).collect();
    // An out-of-line row's last 8 bytes against the literal's (rows of more
    // than 12 bytes: at least 8 and at least the literal); `false` for a
    // view whose bytes are not inside a data buffer (not a valid view).
    let outer = |v: u128| {
        let end = view_len(v) + (v >> 96) as u32 as usize;
        data.get((v >> 64) as u32 as usize)
            .and_then(|d| d.get(end.wrapping_sub(8)..end))
            .is_some_and(|t| load(t) & ends.tail_mask == ends.tail)
    };
    // A plain loop, not `words` with a closure: the closure is compiled on
    // its own, without the caller's AVX2, unless the compiler inlines it.
    let len = views.len();
    let mut out = Vec::with_capacity(len.div_ceil(64));
    let mut base = 0;
    while base < len {
        let k = (len - base).min(64);
        let (inline, outside) = match views
            .get(base..base + 64)
            .and_then(|w| <&[u128; 64]>::try_from(w).ok())
        {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: only with `AVX2`, under `view_suffix_avx2`, whose
            // caller checked that the CPU has AVX2.
            Some(w) if AVX2 => unsafe {
                x86::suffix_classify(w, lit_len, ends.tail, ends.tail_mask)
            },
            Some(w) => suffix_classify(w, lit_len, ends),
            None => suffix_classify(&views[base..base + k], lit_len, ends),
        };
        let hits = if outside == u64::MAX {
            // A word of long rows (paths, URLs): a fixed 64-step loop, no
            // branch per row, and where all 64 are in one data buffer (as
            // a builder writes them) that buffer looked up once.
            let word = &views[base..base + 64];
            let b0 = (word[0] >> 64) as u32;
            let mut hits = 0u64;
            match data.get(b0 as usize) {
                Some(d) if word.iter().all(|&v| (v >> 64) as u32 == b0) => {
                    for (j, &v) in word.iter().enumerate() {
                        let end = view_len(v) + (v >> 96) as u32 as usize;
                        let hit = d
                            .get(end.wrapping_sub(8)..end)
                            .is_some_and(|t| load(t) & ends.tail_mask == ends.tail);
                        hits |= u64::from(hit) << j;
                    }
                }
                _ => {
                    for (j, &v) in word.iter().enumerate() {
                        hits |= u64::from(outer(v)) << j;
                    }
                }
            }
            hits
        } else {
            select(outside, |j| outer(views[base + j]))
        };
        out.push(inline | hits);
        base += 64;
    }
    BooleanBuffer::new(Buffer::from_vec(out), 0, len)
}

/// For up to 64 views: the bits of the inline rows that end with the
/// literal (at least `lit_len` bytes, their last 8 bytes under the tail
/// mask), and the bits of the out-of-line rows. Branch-free: the 8 view
/// bytes ending where an inline string ends come from the view's two
/// halves by shifts.
#[inline(always)]
fn suffix_classify(views: &[u128], lit_len: u32, ends: &Ends) -> (u64, u64) {
    let (mut inline, mut outside) = (0u64, 0u64);
    for (j, &v) in views.iter().enumerate() {
        let (lo, hi) = (v as u64, (v >> 64) as u64);
        let n = lo as u32;
        let small = n <= INLINE as u32;
        // The string ends at view byte `e`; the 8 bytes before it are
        // bytes `e - 8..e` (`s` bits in) when `e >= 8`, else the first 8
        // bytes moved up by the missing `8 - e`.
        let e = 4 + u64::from(n.min(INLINE as u32));
        let s = 8 * e.saturating_sub(8) as u32;
        let up = 8 * 8u64.saturating_sub(e) as u32;
        let tail = (lo.checked_shr(s).unwrap_or(0) | hi.checked_shl(64 - s).unwrap_or(0)) << up;
        let hit = (n >= lit_len) & (tail & ends.tail_mask == ends.tail);
        inline |= u64::from(small & hit) << j;
        outside |= u64::from(!small) << j;
    }
    (inline, outside)
}

/// The views at least `l` bytes long whose bytes pass `test`.
#[inline(always)]
fn long_enough(
    views: &[u128],
    buffers: &[Buffer],
    l: usize,
    test: impl Fn(&[u8]) -> bool,
) -> BooleanBuffer {
    let lit_len = l as u32;
    words(views.len(), |base, k| {
        let m = view_mask(views, base, k, |v| v as u32 >= lit_len);
        refine(m, |j| {
            let v = views[base + j];
            let n = view_len(v);
            if n <= INLINE {
                test(&v.to_le_bytes()[4..4 + n])
            } else {
                test(out_of_line(v, buffers))
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel under each [`Check`]: every one gives the trusted bits
    /// on these valid offsets, and the UTF-8 check passes exactly when
    /// every row's bytes are UTF-8. (Shadows the kernel's entry points for
    /// the tests below, which call them as before.)
    fn under_each_check<O: OffsetSizeTrait>(
        offsets: &[O],
        values: &[u8],
        f: impl Fn(Check) -> (BooleanBuffer, bool),
    ) -> BooleanBuffer {
        let (bits, ok) = f(Check::Trusted);
        assert!(ok, "nothing checked, yet refused");
        let (checked, ok) = f(Check::Offsets);
        assert!(ok, "valid offsets refused");
        assert_eq!(checked, bits, "the offsets' check changed the bits");
        let text = offsets
            .windows(2)
            .all(|w| core::str::from_utf8(&values[w[0].as_usize()..w[1].as_usize()]).is_ok());
        let (checked, ok) = f(Check::Utf8);
        assert_eq!(ok, text, "the UTF-8 check");
        if ok {
            assert_eq!(checked, bits, "the UTF-8 check changed the bits");
        }
        bits
    }

    fn offsets_kernel<O: Offset>(o: &[O], v: &[u8], t: StringMatch, l: &[u8]) -> BooleanBuffer {
        under_each_check(o, v, |c| super::offsets_kernel(o, v, t, l, c))
    }

    fn offsets_words<O: Offset, const AVX2: bool>(
        o: &[O],
        v: &[u8],
        t: StringMatch,
        l: &[u8],
    ) -> BooleanBuffer {
        under_each_check(o, v, |c| super::offsets_words::<O, AVX2>(o, v, t, l, c))
    }

    /// # Safety
    ///
    /// As [`super::offsets_words_avx2`].
    #[cfg(target_arch = "x86_64")]
    unsafe fn offsets_words_avx2<O: Offset>(
        o: &[O],
        v: &[u8],
        t: StringMatch,
        l: &[u8],
    ) -> BooleanBuffer {
        // SAFETY: forwarded.
        under_each_check(o, v, |c| unsafe {
            super::offsets_words_avx2(o, v, t, l, c)
        })
    }

    /// # Safety
    ///
    /// As [`super::offsets_words_avx512`].
    #[cfg(target_arch = "x86_64")]
    unsafe fn offsets_words_avx512<O: Offset>(
        o: &[O],
        v: &[u8],
        t: StringMatch,
        l: &[u8],
    ) -> BooleanBuffer {
        // SAFETY: forwarded.
        under_each_check(o, v, |c| unsafe {
            super::offsets_words_avx512(o, v, t, l, c)
        })
    }

    /// The portable word loop and the AVX2 one (where the CPU has it) give
    /// the same bits as a row-by-row compare, on rows of every length mix
    /// around the 8-byte head and the literal, with the last rows ending at
    /// the buffer's end (no padding).
    #[test]
    fn portable_and_avx2_agree_with_rows() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for lit in ["", "a", "ab", "abcdefgh", "abcdefghi", "abcdefghijklmnopq"] {
            let lit = lit.as_bytes();
            let mut offsets = vec![0i64];
            let mut values = Vec::new();
            for i in 0..300 {
                let n = (next() % 40) as usize;
                let keep = n.min(lit.len());
                match i % 3 {
                    0 => values.extend_from_slice(&lit[..keep]),
                    1 => values.extend_from_slice(&lit[lit.len() - keep..]),
                    _ => {}
                }
                let have = values.len() - *offsets.last().unwrap() as usize;
                values.extend((have..n).map(|_| b'a' + (next() % 3) as u8));
                offsets.push(values.len() as i64);
            }
            values.shrink_to_fit();
            let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
            for test in StringMatch::ALL {
                if lit.is_empty() && test != StringMatch::Equal {
                    // Answered before the word loop (every row).
                    continue;
                }
                let row = |i: usize| &values[offsets[i] as usize..offsets[i + 1] as usize];
                let want: Vec<bool> = (0..300).map(|i| test.matches(row(i), lit)).collect();
                for from in [0, 5] {
                    let portable =
                        offsets_words::<i64, false>(&offsets[from..], &values, test, lit);
                    let portable32 =
                        offsets_words::<i32, false>(&small[from..], &values, test, lit);
                    assert_eq!(
                        portable.iter().collect::<Vec<_>>(),
                        want[from..],
                        "{test:?} {lit:?}"
                    );
                    assert_eq!(portable, portable32);
                    #[cfg(target_arch = "x86_64")]
                    if avx2_bits() {
                        // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                        let (a, b) = unsafe {
                            (
                                offsets_words_avx2(&offsets[from..], &values, test, lit),
                                offsets_words_avx2(&small[from..], &values, test, lit),
                            )
                        };
                        assert_eq!(a, portable, "{test:?} {lit:?}");
                        assert_eq!(b, portable, "{test:?} {lit:?}");
                    }
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx512f")
                        && std::is_x86_feature_detected!("avx512bw")
                    {
                        // SAFETY: the CPU has AVX-512 F and BW.
                        let (a, b) = unsafe {
                            (
                                offsets_words_avx512(&offsets[from..], &values, test, lit),
                                offsets_words_avx512(&small[from..], &values, test, lit),
                            )
                        };
                        assert_eq!(a, portable, "{test:?} {lit:?} AVX-512");
                        assert_eq!(b, portable, "{test:?} {lit:?} AVX-512");
                    }
                }
            }
        }
    }

    /// `=` of 9 to 64 bytes ([`eq_listed`]) on every word kernel the CPU
    /// runs (portable, AVX2, AVX-512), `i32` and `i64` offsets, against a
    /// row-by-row compare: columns of many blocks of listed rows (the lists
    /// alternate), words with no candidate, a few and many (the word
    /// loop's), a block of dense words and the unlisted blocks after it,
    /// candidates one byte off the literal at its first, a
    /// middle and its last byte, a partial last word, values exactly as
    /// long as the offsets need, and sliced offsets.
    #[test]
    fn equal_lists_agree_with_rows_on_every_kernel() {
        let mut rng = crate::xorshift::XorShift::new(0x11_57ed);
        let mut next = move || rng.next_u64();
        for l in [9usize, 16, 17, 33, 64] {
            let lit: Vec<u8> = (0..l).map(|i| b'a' + (i % 5) as u8).collect();
            let mut offsets = vec![0i64];
            let mut values = Vec::new();
            let block = 64 * LIST_WORDS;
            let rows = block * (DENSE_RUN + 4) + 64 * 5 + 7;
            for i in 0..rows {
                let r = next();
                // The second block all dense words: the next `DENSE_RUN`
                // go to the word loop unlisted, then lists again.
                let candidate = match (i / 64) % 3 {
                    _ if i / block == 1 => !r.is_multiple_of(4),
                    0 => false,
                    1 => r.is_multiple_of(30),
                    _ => !r.is_multiple_of(4),
                };
                if candidate {
                    let at = [0, l / 2, l - 1][(r >> 8) as usize % 3];
                    values.extend_from_slice(&lit);
                    if (r >> 16) % 2 == 0 {
                        let k = values.len() - l + at;
                        values[k] ^= 1;
                    }
                } else {
                    let n = (r >> 8) as usize % 70;
                    let n = if n == l { n + 1 } else { n };
                    values.extend((0..n).map(|j| lit[j % l]));
                }
                offsets.push(values.len() as i64);
            }
            values.shrink_to_fit();
            let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
            let row = |i: usize| &values[offsets[i] as usize..offsets[i + 1] as usize];
            let want: Vec<bool> = (0..rows).map(|i| row(i) == lit.as_slice()).collect();
            let t = StringMatch::Equal;
            for from in [0, 3] {
                let want = &want[from..];
                let portable = offsets_words::<i64, false>(&offsets[from..], &values, t, &lit);
                assert_eq!(portable.iter().collect::<Vec<_>>(), want, "{l} bytes");
                let portable32 = offsets_words::<i32, false>(&small[from..], &values, t, &lit);
                assert_eq!(portable32, portable, "{l} bytes, i32");
                #[cfg(target_arch = "x86_64")]
                if avx2_bits() {
                    // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                    let (a, b) = unsafe {
                        (
                            offsets_words_avx2(&offsets[from..], &values, t, &lit),
                            offsets_words_avx2(&small[from..], &values, t, &lit),
                        )
                    };
                    assert_eq!(a, portable, "{l} bytes AVX2");
                    assert_eq!(b, portable, "{l} bytes AVX2, i32");
                }
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                {
                    // SAFETY: the CPU has AVX-512 F and BW.
                    let (a, b) = unsafe {
                        (
                            offsets_words_avx512(&offsets[from..], &values, t, &lit),
                            offsets_words_avx512(&small[from..], &values, t, &lit),
                        )
                    };
                    assert_eq!(a, portable, "{l} bytes AVX-512");
                    assert_eq!(b, portable, "{l} bytes AVX-512, i32");
                }
            }
        }
    }

    /// Contains, portable and AVX2 (where the CPU has it), against the
    /// row-by-row oracle: literals of 1 to 17 bytes (multi-byte too), rows
    /// of every length 0..40, at the literal's length +-1 and of 60-200
    /// bytes (rows over several 64-position blocks, alone or among short
    /// ones), with the literal
    /// anywhere, several times or cut by one byte, many-match and
    /// few-match columns, literals split across two rows (their halves at
    /// a row's end and the next row's start, which must not count), sliced
    /// offsets at both ends, and values exactly as long as the offsets
    /// need.
    #[test]
    fn contains_agrees_with_rows() {
        let mut rng = crate::xorshift::XorShift::new(0xc0_47a1_25ee_d001);
        let mut next = move || rng.next_u64();
        let lits: [&[u8]; 9] = [
            b"a",
            "é".as_bytes(),
            b"ab",
            b"/b/",
            b"abcd",
            "aébc".as_bytes(),
            b"abcdefgh",
            b"abcdefghi",
            "abcdefghijklméopq".as_bytes(),
        ];
        for lit in lits {
            let l = lit.len();
            for mode in 0..7 {
                let mut offsets = vec![0i64];
                let mut values = Vec::new();
                for i in 0..2600usize {
                    let r = next();
                    let n = match mode {
                        0 => (r % 41) as usize,
                        1 => (l + (r % 3) as usize).saturating_sub(1),
                        2 => 60 + (r % 141) as usize,
                        6 if r >> 30 & 7 == 0 => 60 + (r % 90) as usize,
                        6 => (r % 17) as usize,
                        _ => (r % 17) as usize,
                    };
                    let row_start = values.len();
                    while values.len() < row_start + n {
                        let pick = [b'a', b'b', b'/', 0xC3, 0xA9, b'z'][(next() % 6) as usize];
                        values.push(pick);
                    }
                    let put = match mode {
                        3 => r >> 40 & 1 == 0,
                        4 => (r >> 40) % 50 == 0,
                        _ => (r >> 40) % 3 != 0,
                    };
                    if put && n >= l {
                        // The literal at random places (some cut by a byte).
                        for _ in 0..1 + (r >> 50) % 2 {
                            let at = row_start + (next() as usize) % (n - l + 1);
                            values[at..at + l].copy_from_slice(lit);
                            if next() % 4 == 0 {
                                values[at + (next() as usize) % l] ^= 1;
                            }
                        }
                    }
                    if mode == 5 && l > 1 && n > 0 && i % 2 == 0 {
                        // A literal split over this row's end and the next
                        // row's start.
                        let cut = 1 + (r >> 8) as usize % (l - 1);
                        let k = cut.min(n);
                        values.truncate(row_start + n - k);
                        values.extend_from_slice(&lit[..k]);
                        offsets.push(values.len() as i64);
                        values.extend_from_slice(&lit[k..]);
                        continue;
                    }
                    offsets.push(values.len() as i64);
                }
                let rows = offsets.len() - 1;
                let values = values.into_boxed_slice();
                let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
                let row = |i: usize| &values[offsets[i] as usize..offsets[i + 1] as usize];
                let want: Vec<bool> = (0..rows)
                    .map(|i| row(i).windows(l).any(|w| w == lit))
                    .collect();
                if mode == 5 {
                    assert!(want.iter().any(|&w| !w));
                }
                for (from, to) in [(0, rows), (1, rows), (63, rows - 1), (5, rows - 7)] {
                    let (o64, o32) = (&offsets[from..=to], &small[from..=to]);
                    let test = StringMatch::Contains;
                    let portable = offsets_words::<i64, false>(o64, &values, test, lit);
                    // Each way forced, and the choice between them on
                    // small segments.
                    for segment in [1, 64, 100, 1000] {
                        for force in [Some(false), Some(true), None] {
                            let got =
                                contains_segments::<i64, false>(o64, &values, lit, segment, force);
                            assert_eq!(got, portable, "{lit:?} mode {mode} {segment} {force:?}");
                            #[cfg(target_arch = "x86_64")]
                            if std::is_x86_feature_detected!("avx2") {
                                // The AVX2 copy, on a CPU that has it.
                                let got = contains_segments::<i32, true>(
                                    o32, &values, lit, segment, force,
                                );
                                assert_eq!(
                                    got, portable,
                                    "{lit:?} mode {mode} {segment} {force:?}"
                                );
                            }
                        }
                    }
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx2") && l <= 8 {
                        // The AVX2 words and `memmem` by chunks, each way
                        // forced and chosen, on the buffer cut or not.
                        let end = offsets[to] as usize;
                        for chunk in [1, 3, 16] {
                            for force in [Some(false), Some(true), None] {
                                // SAFETY: the CPU has AVX2; 1 <= l <= 8.
                                let (a, b) = unsafe {
                                    (
                                        contains_words_avx2(o64, &values, lit, chunk, force),
                                        contains_words_avx2(o32, &values[..end], lit, chunk, force),
                                    )
                                };
                                let what = format!("{lit:?} mode {mode} {chunk} {force:?}");
                                assert_eq!(a, portable, "{what}");
                                assert_eq!(b, portable, "{what}");
                            }
                        }
                    }
                    assert_eq!(
                        portable.iter().collect::<Vec<_>>(),
                        want[from..to],
                        "{lit:?} mode {mode} {from}..{to}"
                    );
                    assert_eq!(
                        offsets_words::<i32, false>(o32, &values, test, lit),
                        portable
                    );
                    // The buffer cut to the last row's end.
                    let end = offsets[to] as usize;
                    assert_eq!(
                        offsets_words::<i64, false>(o64, &values[..end], test, lit),
                        portable
                    );
                    #[cfg(target_arch = "x86_64")]
                    if avx2_bits() {
                        // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                        let (a, b, c) = unsafe {
                            (
                                offsets_words_avx2(o64, &values, test, lit),
                                offsets_words_avx2(o32, &values, test, lit),
                                offsets_words_avx2(o64, &values[..end], test, lit),
                            )
                        };
                        assert_eq!(a, portable, "{lit:?} mode {mode} AVX2");
                        assert_eq!(b, portable);
                        assert_eq!(c, portable);
                    }
                }
            }
        }
    }

    /// `=`, StartsWith and EndsWith of the word loop, portable and AVX2
    /// (where the CPU has it), against the row-by-row oracle on columns
    /// that take every path: words of short rows with few candidates (the
    /// head of each candidate, with the rows ahead prefetched) and with
    /// many (all 64 heads), long rows, every length 0..40 and the
    /// literal's length +-1, a literal of length 0 to 17 (multi-byte too),
    /// sliced offsets at both ends, and the values exactly as long as the
    /// offsets need (the last rows' heads pass the buffer's end).
    #[test]
    fn word_loop_paths_agree_with_rows() {
        let mut rng = crate::xorshift::XorShift::new(0x51_7cc1_b727_220a);
        let mut next = move || rng.next_u64();
        let lits: [&[u8]; 11] = [
            b"",
            b"a",
            "é".as_bytes(),
            b"ab",
            b"abcd",
            "aébc".as_bytes(),
            b"abcdefg",
            b"abcdefgh",
            b"abcdefghi",
            "abcdefghijklméo".as_bytes(),
            b"abcdefghijklmnopq",
        ];
        for lit in lits {
            let l = lit.len();
            for mode in 0..6 {
                let mut offsets = vec![0i64];
                let mut values = Vec::new();
                for i in 0..700usize {
                    let r = next();
                    let n = match mode {
                        0 => (r % 41) as usize,
                        1 => (l + (r % 3) as usize).saturating_sub(1),
                        2 => (r % 17) as usize,
                        3 if r % 16 == 0 => l,
                        3 => (r % 17) as usize,
                        4 => i % 41,
                        _ => l,
                    };
                    let row_start = values.len();
                    match (r >> 8) % 4 {
                        0 | 1 => values.extend_from_slice(&lit[..n.min(l)]),
                        2 => {
                            let fill = n.saturating_sub(l);
                            values.extend((0..fill).map(|_| b"ab\xc3"[(next() % 3) as usize]));
                            values.extend_from_slice(&lit[l - n.min(l)..]);
                        }
                        _ => {}
                    }
                    while values.len() < row_start + n {
                        let pick = [b'a', b'b', 0xC3, 0xA9, b'z'][(next() % 5) as usize];
                        values.push(
                            lit.get(values.len() - row_start)
                                .copied()
                                .filter(|_| next() % 4 != 0)
                                .unwrap_or(pick),
                        );
                    }
                    if mode == 5 && (r >> 16) % 3 == 0 && n > 0 {
                        // A literal-length row off by one byte.
                        let at = row_start + (r >> 20) as usize % n;
                        values[at] ^= 1;
                    }
                    offsets.push(values.len() as i64);
                }
                let values = values.into_boxed_slice();
                let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
                let row = |i: usize| &values[offsets[i] as usize..offsets[i + 1] as usize];
                for test in [
                    StringMatch::Equal,
                    StringMatch::StartsWith,
                    StringMatch::EndsWith,
                ] {
                    if l == 0 && test != StringMatch::Equal {
                        continue;
                    }
                    let want: Vec<bool> = (0..700)
                        .map(|i| match test {
                            StringMatch::Equal => row(i) == lit,
                            StringMatch::StartsWith => row(i).starts_with(lit),
                            _ => row(i).ends_with(lit),
                        })
                        .collect();
                    for (from, to) in [(0, 700), (1, 700), (63, 700), (64, 699), (5, 600)] {
                        let (o64, o32) = (&offsets[from..=to], &small[from..=to]);
                        let portable = offsets_words::<i64, false>(o64, &values, test, lit);
                        assert_eq!(
                            portable.iter().collect::<Vec<_>>(),
                            want[from..to],
                            "{test:?} {lit:?} mode {mode} {from}..{to}"
                        );
                        assert_eq!(
                            offsets_words::<i32, false>(o32, &values, test, lit),
                            portable
                        );
                        assert_eq!(offsets_kernel(o32, &values, test, lit), portable);
                        #[cfg(target_arch = "x86_64")]
                        if avx2_bits() {
                            // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                            let (a, b) = unsafe {
                                (
                                    offsets_words_avx2(o64, &values, test, lit),
                                    offsets_words_avx2(o32, &values, test, lit),
                                )
                            };
                            assert_eq!(a, portable, "{test:?} {lit:?} mode {mode} AVX2");
                            assert_eq!(b, portable, "{test:?} {lit:?} mode {mode} AVX2");
                        }
                        #[cfg(target_arch = "x86_64")]
                        if std::is_x86_feature_detected!("avx512f")
                            && std::is_x86_feature_detected!("avx512bw")
                        {
                            // SAFETY: the CPU has AVX-512 F and BW.
                            let (a, b) = unsafe {
                                (
                                    offsets_words_avx512(o64, &values, test, lit),
                                    offsets_words_avx512(o32, &values, test, lit),
                                )
                            };
                            assert_eq!(a, portable, "{test:?} {lit:?} mode {mode} AVX-512");
                            assert_eq!(b, portable, "{test:?} {lit:?} mode {mode} AVX-512");
                        }
                    }
                }
            }
        }
    }

    /// The AVX-512 words of short rows ([`x512`], Contains too) where the
    /// CPU has it, against the row-by-row oracle at their edges: words
    /// whose rows span exactly [`x512::SPAN`] bytes (rows of 16) and one
    /// row byte more (the word falls back), rows of one length each from 0
    /// to 18, one of 70 (Contains searches that word row by row), literals
    /// of 1 to 17 bytes (a prefix of the rows, a suffix, inside, half of it
    /// at a row's end and the rest at the next one's start, or one byte
    /// off), multi-byte UTF-8, and values with 0 to 9 bytes after the last
    /// row (the last words' blocks fit or fall back), sliced at both ends.
    #[test]
    fn avx512_word_edges_agree_with_rows() {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            let mut rng = crate::xorshift::XorShift::new(0xa5_12ed_9e5a_0001);
            let mut next = move || rng.next_u64();
            let base = "abcdéfghijklmnopq".as_bytes();
            for n in 0..=18usize {
                for l in [1usize, 2, 3, 4, 5, 8, 9, 16, 17] {
                    let lit = &base[..l.min(base.len())];
                    let mut offsets = vec![0i64];
                    let mut values = Vec::new();
                    for i in 0..400usize {
                        // Rows of `n` bytes, or (every 7th) 16, or (in one
                        // word) 70 (a Contains word searched row by row).
                        let len = match i {
                            200 => 70,
                            _ if i % 7 == 3 => 16,
                            _ => n,
                        };
                        let start = values.len();
                        let half = lit.len() / 2;
                        match next() % 6 {
                            0 => values.extend(
                                lit.iter()
                                    .copied()
                                    .chain(base.iter().copied().cycle())
                                    .take(len),
                            ),
                            1 => {
                                let tail = lit.len().min(len);
                                values.extend((0..len - tail).map(|_| b'x'));
                                values.extend_from_slice(&lit[lit.len() - tail..]);
                            }
                            2 => {
                                // The literal inside, or its first half at
                                // the row's end (the next row may start
                                // with the second half: no match).
                                let fill = len.saturating_sub(lit.len()) / 2;
                                values.extend((0..fill).map(|_| b'y'));
                                let part = if next() % 2 == 0 { lit } else { &lit[..half] };
                                values.extend(part.iter().copied().take(len - fill));
                                values.extend((values.len() - start..len).map(|_| b'z'));
                            }
                            3 => values.extend(lit[half..].iter().copied().cycle().take(len)),
                            _ => values.extend(base.iter().copied().cycle().take(len)),
                        }
                        if next() % 3 == 0 && len > 0 {
                            let at = start + (next() as usize) % len;
                            values[at] ^= 1;
                        }
                        offsets.push(values.len() as i64);
                    }
                    for pad in [0usize, 1, 6, 7, 8, 9] {
                        let mut v = values.clone();
                        v.extend((0..pad).map(|_| b'a'));
                        let v = v.into_boxed_slice();
                        let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
                        let row = |i: usize| &v[offsets[i] as usize..offsets[i + 1] as usize];
                        for test in StringMatch::ALL {
                            let want: Vec<bool> =
                                (0..400).map(|i| test.matches(row(i), lit)).collect();
                            for (from, to) in [(0, 400), (3, 400), (64, 397)] {
                                // SAFETY: the CPU has AVX-512 F and BW.
                                let (a, b) = unsafe {
                                    (
                                        offsets_words_avx512(&offsets[from..=to], &v, test, lit),
                                        offsets_words_avx512(&small[from..=to], &v, test, lit),
                                    )
                                };
                                let what = format!("{test:?} {lit:?} rows {n} pad {pad} {from}");
                                assert_eq!(a.iter().collect::<Vec<_>>(), want[from..to], "{what}");
                                assert_eq!(b, a, "{what}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The AVX2 Contains word ([`x86::contains_word`], every chunk forced to
    /// it) where the CPU has AVX2, against the row-by-row oracle at its
    /// edges: words of rows of one length each (no byte, the literal's
    /// length less one and exactly, 16, 63, 63 + the literal's (its most
    /// start positions, 64) and one more (the word is searched row by
    /// row), 64 (the word spans its whole bitmap, 4096 bytes) and 65 with
    /// a literal of 2 or more bytes (one byte past the bitmap: row by
    /// row)); the literal at a row's start, at its end, inside, cut by
    /// the row's end, or one byte off; multi-byte UTF-8; values with 0 to
    /// 9 bytes after the last row; sliced at both ends (words of mixed
    /// lengths).
    #[test]
    fn avx2_contains_word_edges_agree_with_rows() {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let mut rng = crate::xorshift::XorShift::new(0xa2_c0de_9e5a_0002);
            let mut next = move || rng.next_u64();
            let base = "abcdéfghijklmnopq".as_bytes();
            for l in 1..=8usize {
                let lit = &base[..l];
                let lens = [0, l - 1, l, 16, 63, 63 + l, 64 + l, 64, 65];
                let mut offsets = vec![0i64];
                let mut values = Vec::new();
                // Each word has one length, each length two words.
                for i in 0..64 * 2 * lens.len() {
                    let len = lens[i / 64 % lens.len()];
                    let start = values.len();
                    let half = l / 2;
                    match next() % 5 {
                        0 => values.extend(lit.iter().chain(base.iter().cycle()).take(len)),
                        1 => {
                            let tail = l.min(len);
                            values.extend((0..len - tail).map(|_| b'x'));
                            values.extend_from_slice(&lit[l - tail..]);
                        }
                        2 => {
                            let fill = (next() as usize) % (len + 1);
                            values.extend((0..fill).map(|_| b'y'));
                            let part = if next() % 2 == 0 { lit } else { &lit[..half] };
                            values.extend(part.iter().take(len - fill));
                            values.extend((values.len() - start..len).map(|_| b'z'));
                        }
                        3 => values.extend(lit[half..].iter().cycle().take(len)),
                        _ => values.extend(base[l..].iter().cycle().take(len)),
                    }
                    if next() % 4 == 0 && len > 0 {
                        let at = start + (next() as usize) % len;
                        values[at] ^= 1;
                    }
                    offsets.push(values.len() as i64);
                }
                let rows = offsets.len() - 1;
                for pad in [0usize, 1, 6, 7, 8, 9] {
                    let mut v = values.clone();
                    v.extend((0..pad).map(|_| b'a'));
                    let v = v.into_boxed_slice();
                    let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
                    let row = |i: usize| &v[offsets[i] as usize..offsets[i + 1] as usize];
                    let want: Vec<bool> = (0..rows)
                        .map(|i| row(i).windows(l).any(|w| w == lit))
                        .collect();
                    for (from, to) in [(0, rows), (3, rows), (64, rows - 5)] {
                        // SAFETY: the CPU has AVX2; 1 <= l <= 8.
                        let (a, b) = unsafe {
                            (
                                contains_words_avx2(&offsets[from..=to], &v, lit, 1, Some(true)),
                                contains_words_avx2(&small[from..=to], &v, lit, 2, Some(true)),
                            )
                        };
                        let what = format!("{lit:?} pad {pad} {from}");
                        assert_eq!(a.iter().collect::<Vec<_>>(), want[from..to], "{what}");
                        assert_eq!(b, a, "{what}");
                    }
                }
            }
        }
    }

    /// The view prefix and suffix loops, portable and AVX2 (where the CPU
    /// has it), against `starts_with` / `ends_with` on each row: prefixes
    /// of 0 to 4 bytes, suffixes of 0 to 8, rows inline and out of line,
    /// every count of views around whole words.
    #[test]
    fn view_prefix_and_suffix_agree_with_rows() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let rows: Vec<std::string::String> = (0..200)
            .map(|_| {
                let n = (next() % 20) as usize;
                (0..n)
                    .map(|_| ['a', 'b', 'é'][(next() % 3) as usize])
                    .collect()
            })
            .collect();
        let column = StringViewArray::from_iter_values(&rows);
        for lit in ["", "a", "ab", "aé", "aba", "abab", "é"] {
            let n = lit.len();
            let mut view = [0u8; 8];
            view[4..4 + n].copy_from_slice(lit.as_bytes());
            let mask = ((1u64 << (8 * n)) - 1) << 32;
            let want_bits = u64::from_le_bytes(view);
            for len in [0, 1, 63, 64, 65, 127, 128, 130, 200] {
                let views = &column.views()[..len];
                let want: Vec<bool> = rows[..len].iter().map(|r| r.starts_with(lit)).collect();
                let portable = view_prefix_words(views, n as u32, mask, want_bits);
                assert_eq!(portable.iter().collect::<Vec<_>>(), want, "{lit:?} {len}");
                let dispatched = view_prefix(views, n as u32, mask, want_bits);
                assert_eq!(dispatched, portable, "{lit:?} {len}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2.
                    let avx2 = unsafe { view_prefix_avx2(views, n as u32, mask, want_bits) };
                    assert_eq!(avx2, portable, "{lit:?} {len}");
                }
            }
        }
        // EndsWith with a suffix of at most 8 bytes likewise.
        let buffers = column.data_buffers();
        for lit in [
            "", "a", "ba", "éa", "abab", "bé", "aéab", "babababa", "éééé",
        ] {
            let ends = Ends::new(lit.as_bytes());
            let n = lit.len() as u32;
            for len in [0, 1, 63, 64, 65, 127, 128, 130, 200] {
                let views = &column.views()[..len];
                let want: Vec<bool> = rows[..len].iter().map(|r| r.ends_with(lit)).collect();
                let portable = view_suffix_words::<false>(views, buffers, n, &ends);
                assert_eq!(portable.iter().collect::<Vec<_>>(), want, "{lit:?} {len}");
                assert_eq!(view_suffix(views, buffers, n, &ends), portable);
                #[cfg(target_arch = "x86_64")]
                if avx2_bits() {
                    // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                    let avx2 = unsafe { view_suffix_avx2(views, buffers, n, &ends) };
                    assert_eq!(avx2, portable, "{lit:?} {len}");
                }
            }
        }
        // Words of only out-of-line rows (13-40 bytes): in one data buffer,
        // and spread over many (blocks of 256 bytes), so that a word's rows
        // lie in one buffer or in several.
        let long: Vec<std::string::String> = (0..300)
            .map(|_| {
                let n = 13 + (next() % 28) as usize;
                let mut r: std::string::String =
                    (0..n).map(|_| ['a', 'b'][(next() % 2) as usize]).collect();
                if next() % 3 == 0 {
                    r.push_str("éab");
                }
                r
            })
            .collect();
        let one = StringViewArray::from_iter_values(&long);
        let mut blocks = arrow_array::builder::StringViewBuilder::new().with_fixed_block_size(256);
        long.iter().for_each(|r| blocks.append_value(r));
        let many = blocks.finish();
        assert!(many.data_buffers().len() > 10);
        for column in [&one, &many] {
            for lit in ["", "b", "ab", "éab", "babab", "bbbbbbbb"] {
                let ends = Ends::new(lit.as_bytes());
                let n = lit.len() as u32;
                for (from, to) in [(0, 300), (1, 65), (7, 199), (64, 128)] {
                    let views = &column.views()[from..to];
                    let buffers = column.data_buffers();
                    let want: Vec<bool> = long[from..to].iter().map(|r| r.ends_with(lit)).collect();
                    let portable = view_suffix_words::<false>(views, buffers, n, &ends);
                    assert_eq!(portable.iter().collect::<Vec<_>>(), want, "{lit:?} {from}");
                    #[cfg(target_arch = "x86_64")]
                    if avx2_bits() {
                        // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                        let avx2 = unsafe { view_suffix_avx2(views, buffers, n, &ends) };
                        assert_eq!(avx2, portable, "{lit:?} {from}");
                    }
                }
            }
        }
    }

    /// Utf8View StartsWith of more than 4 bytes over chunks of
    /// [`VIEW_CHUNK`] rows: after a chunk of few candidates the next one's
    /// are found by its own pass, after a chunk of many word by word. Chunks
    /// of few and many candidates alternate; rows start with the literal,
    /// with its first 4 bytes only (candidates that fail), or with neither;
    /// inline and out-of-line rows; literals of 5 to 65 bytes; sliced.
    #[test]
    fn view_starts_with_chunks_agree_with_rows() {
        let mut rng = crate::xorshift::XorShift::new(0x5eed_c4a2_0000_0005);
        let mut next = move || rng.next_u64();
        let base = "abcdéfghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abc";
        for l in [5usize, 8, 11, 12, 13, 17, 30, 64, 65] {
            let lit = &base.as_bytes()[..l];
            let lit = core::str::from_utf8(lit).map_or_else(|_| &base[..l + 1], |_| &base[..l]);
            let rows: Vec<String> = (0..VIEW_CHUNK * 5 + 100)
                .map(|i| {
                    let many = (i / VIEW_CHUNK) % 2 == 1;
                    let r = next();
                    let tail: String = (0..(r >> 8) as usize % 40)
                        .map(|t| char::from(b'a' + (r >> (16 + t % 40)) as u8 % 3))
                        .collect();
                    match r % if many { 4 } else { 200 } {
                        0 | 1 => format!("{lit}{tail}"),
                        2 => format!("{}{}", &lit[..4], tail),
                        3 => {
                            let mut c = lit.chars();
                            c.next_back();
                            String::from(c.as_str())
                        }
                        _ => tail,
                    }
                })
                .collect();
            let column = StringViewArray::from_iter_values(&rows);
            for (from, to) in [(0, rows.len()), (7, rows.len() - 3)] {
                let sliced = column.slice(from, to - from);
                let got = string_match(&sliced, StringMatch::StartsWith, lit).unwrap();
                for (i, row) in rows[from..to].iter().enumerate() {
                    let want = StringMatch::StartsWith.matches(row.as_bytes(), lit.as_bytes());
                    assert_eq!(got.value(i), want, "{l} row {}", from + i);
                }
            }
        }
    }

    /// `=` over views of a literal of more than 12 bytes against `==` on
    /// each row: literals of 13 to 100 bytes (a multi-byte character
    /// inside), rows equal to it, one byte off at every position, one byte
    /// longer or shorter, and other rows of 0 to 100 bytes; runs of few
    /// candidates a word (the prefetch ahead) and of many; views over 1 to
    /// 3 data buffers of exactly the size needed, with and without a gap
    /// between rows; every count of views around whole words, from several
    /// starts. Candidates whose view is not valid (its buffer missing, or
    /// its bytes past the buffer's end) give `false` and never panic.
    #[test]
    fn view_eq_long_agrees_with_rows() {
        let mut rng = crate::xorshift::XorShift::new(0x7ae5_c0de_0000_0030);
        let mut next = move || rng.next_u64();
        let base = "https://host/é/abcdefghijklmnopqrstuvwxyz/img/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnop"
            .as_bytes();
        let lengths: Vec<usize> = (0..=40).chain([64, 65, 100]).collect();
        for l in [
            13, 14, 15, 16, 17, 20, 23, 24, 25, 31, 32, 33, 40, 64, 65, 100,
        ] {
            let lit = &base[..l];
            let mut rows: Vec<Vec<u8>> = Vec::new();
            for i in 0..640 {
                // Runs of 160 rows: few candidates, then many.
                let dense = (i / 160) % 2 == 1;
                let r = match next() % if dense { 5 } else { 40 } {
                    0 | 4 => lit.to_vec(),
                    1 => {
                        let mut r = lit.to_vec();
                        r[(next() as usize) % l] ^= 1 << (next() % 8);
                        r
                    }
                    2 => [lit, b"x"].concat(),
                    3 => lit[..l - 1].to_vec(),
                    _ => {
                        let n = lengths[(next() as usize) % lengths.len()];
                        let at = (next() as usize) % 8;
                        base.iter().copied().cycle().skip(at).take(n).collect()
                    }
                };
                rows.push(r);
            }
            // One byte off at every position.
            for p in 0..l {
                let mut r = lit.to_vec();
                r[p] ^= 0x20;
                rows.push(r);
                rows.push(lit.to_vec());
            }
            let want: Vec<bool> = rows.iter().map(|r| r == lit).collect();
            let n = rows.len();
            for (buffers, gap) in [(1, &[][..]), (2, &[]), (3, b"zz")] {
                let (views, data) = views_of(&rows, buffers, gap);
                for (from, to) in [(0, n), (1, n), (5, 70), (64, 64), (63, 200), (130, n - 3)] {
                    let got = view_eq_long(&views[from..to], &data, lit);
                    assert_eq!(got.len(), to - from);
                    assert_eq!(
                        got.iter().collect::<Vec<_>>(),
                        want[from..to],
                        "{l} buffers {buffers} {from}..{to}"
                    );
                }
                // Candidates that are not valid views: every third one's
                // buffer index past the buffers, or its bytes one past
                // its buffer's end.
                let mut bad = views.clone();
                let mut want = want.clone();
                let mut c = 0;
                for (i, v) in bad.iter_mut().enumerate() {
                    if view_len(*v) != l {
                        continue;
                    }
                    c += 1;
                    let b = ((*v >> 64) as u32) as usize;
                    let at = data[b].len() - l + 1;
                    match c % 3 {
                        0 => *v = (*v & !(u128::from(u32::MAX) << 64)) | (7u128 << 64),
                        1 => *v = (*v & !(u128::from(u32::MAX) << 96)) | ((at as u128) << 96),
                        _ => continue,
                    }
                    want[i] = false;
                }
                let got = view_eq_long(&bad, &data, lit);
                assert_eq!(got.iter().collect::<Vec<_>>(), want, "{l} bad views");
            }
        }
    }

    /// Views built by hand over `buffers` data buffers, each exactly the
    /// size its rows need (no padding): a row of at most 12 bytes inline,
    /// a longer one at the end of the buffer `i % buffers`, followed by
    /// `gap` (so that the rows are not back to back).
    fn views_of(rows: &[Vec<u8>], buffers: usize, gap: &[u8]) -> (Vec<u128>, Vec<Buffer>) {
        let mut data = vec![Vec::new(); buffers];
        let mut views = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let mut v = [0u8; 16];
            v[..4].copy_from_slice(&(r.len() as u32).to_le_bytes());
            if r.len() <= INLINE {
                v[4..4 + r.len()].copy_from_slice(r);
            } else {
                let b = i % buffers;
                v[4..8].copy_from_slice(&r[..4]);
                v[8..12].copy_from_slice(&(b as u32).to_le_bytes());
                v[12..].copy_from_slice(&(data[b].len() as u32).to_le_bytes());
                data[b].extend_from_slice(r);
                data[b].extend_from_slice(gap);
            }
            views.push(u128::from_le_bytes(v));
        }
        let buffers = data
            .into_iter()
            .map(|d| Buffer::from_vec(d.into_boxed_slice().into_vec()))
            .collect();
        (views, buffers)
    }

    /// Every Contains-over-views kernel this CPU runs, by name: the one
    /// [`view_contains`] picks, and the AVX2 one where that is another (an
    /// AVX-512 CPU). None for a literal the kernels do not take.
    fn view_contains_all(
        views: &[u128],
        data: &[Buffer],
        lit: &[u8],
    ) -> Vec<(&'static str, BooleanBuffer)> {
        let mut all = Vec::new();
        if let Some(bits) = view_contains(views, data, lit) {
            all.push(("dispatched", bits));
        }
        #[cfg(target_arch = "x86_64")]
        if (1..=v256::MAX_LIT).contains(&lit.len())
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
        {
            // SAFETY: the CPU has AVX2; the literal has 1 to 8 bytes.
            all.push(("avx2", unsafe { v256::contains(views, data, lit) }));
        }
        all
    }

    /// Contains over views (the AVX-512 and AVX2 paths where the CPU has
    /// them) against a search of each row: rows of every length 0..=40 and 64, 65, 100
    /// bytes, inline and out of line over 1 to 3 data buffers of exactly
    /// the size needed; literals of 1 to 9 bytes (multi-byte characters,
    /// a prefix ending inside one) at the start, middle or end of a row,
    /// cut short, one byte off or absent; every count of views around
    /// whole words, from several starts; views that are not valid (a null
    /// view's bytes may be anything) give `false` and never panic.
    #[test]
    fn view_contains_agrees_with_rows() {
        let mut rng = crate::xorshift::XorShift::new(0x7ae5_c0de_0000_0020);
        let mut next = move || rng.next_u64();
        // Where the CPU has AVX-512 F and BW the kernel must be taken.
        #[cfg(target_arch = "x86_64")]
        let x512 =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw");
        #[cfg(not(target_arch = "x86_64"))]
        let x512 = false;
        // And where it has AVX2 (the AVX2 kernel runs on AVX-512 CPUs too,
        // by `view_contains_all`).
        #[cfg(target_arch = "x86_64")]
        let simd = x512 || std::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let simd = false;
        let lengths: Vec<usize> = (0..=40).chain([64, 65, 100]).collect();
        // Literals of NUL bytes too: the bytes after a row (an inline
        // view's padding, a masked load's masked-out bytes) are zero, so a
        // window one position too wide matches only a literal ending in 0.
        for (base, l) in ["abcdéfghijklmnop", "\0\0a\0b\0\0\0\0c\0d"]
            .into_iter()
            .flat_map(|b| (1..=9usize).map(move |l| (b.as_bytes(), l)))
        {
            let lit = &base[..l];
            let mut rows: Vec<Vec<u8>> = Vec::new();
            for &n in &lengths {
                if n == 64 {
                    // Before the long rows: words of out-of-line rows only,
                    // each followed by a word of inline and out-of-line rows
                    // in turn (after a word of out-of-line rows only, the
                    // AVX2 kernel finds the inline rows in a second pass).
                    // The words start at multiples of 64; the inline rows
                    // longest first (those that can hold the literal).
                    let (outs, ins): (Vec<_>, Vec<_>) =
                        rows.iter().cloned().partition(|r| r.len() > INLINE);
                    let pad = rows.len().next_multiple_of(64) - rows.len();
                    rows.extend(outs.iter().take(pad).cloned());
                    for w in 0..3 {
                        rows.extend(outs.iter().cycle().skip(64 * w).take(64).cloned());
                        for (a, b) in ins.iter().rev().zip(&outs).skip(32 * w).take(32) {
                            rows.extend([a.clone(), b.clone()]);
                        }
                    }
                }
                for _ in 0..12 {
                    let mut r: Vec<u8> = base
                        .iter()
                        .copied()
                        .cycle()
                        .skip(1 + (next() % 5) as usize)
                        .take(n)
                        .collect();
                    for b in r.iter_mut() {
                        if next() % 4 == 0 {
                            *b = b'x';
                        }
                    }
                    if n >= l {
                        let at = match next() % 6 {
                            0 => Some(0),
                            1 => Some(n - l),
                            2 | 3 => Some((next() as usize) % (n - l + 1)),
                            _ => None,
                        };
                        if let Some(at) = at {
                            r[at..at + l].copy_from_slice(lit);
                            match next() % 4 {
                                // One byte off.
                                0 => r[at + (next() as usize) % l] ^= 1,
                                // Cut short at the row's end.
                                1 if n > l => {
                                    r[n - l + 1..].copy_from_slice(&lit[..l - 1]);
                                }
                                _ => {}
                            }
                        }
                    }
                    rows.push(r);
                }
            }
            let want: Vec<bool> = rows
                .iter()
                .map(|r| r.windows(l).any(|w| w == lit))
                .collect();
            // "split": the odd out-of-line rows in a second buffer of other
            // bytes (all 'x') at the offsets they have in the first, so
            // the offsets run back to back but the buffers do not.
            for (buffers, gap, split) in [
                (1, &[][..], false),
                (2, &[], false),
                (3, &[], false),
                (1, lit, false),
                (1, &lit[..1], false),
                (2, &[], true),
            ] {
                let (mut views, mut data) = views_of(&rows, if split { 1 } else { buffers }, gap);
                let mut want = want.clone();
                if split {
                    data.push(Buffer::from_vec(vec![b'x'; data[0].len()]));
                    for (i, v) in views.iter_mut().enumerate() {
                        if i % 2 == 1 && view_len(*v) > INLINE {
                            *v |= 1u128 << 64;
                            want[i] = false;
                        }
                    }
                }
                let total = views.len();
                // The words whose out-of-line rows lie back to back (all of
                // them with one buffer, but the last words: their blocks
                // run past the buffer's end), by each kernel's word step.
                #[cfg(target_arch = "x86_64")]
                for kernel in ["avx512", "avx2"] {
                    let runs = match kernel {
                        "avx512" => x512 && x512_vbmi2(),
                        _ => std::is_x86_feature_detected!("avx2"),
                    };
                    if !runs || l > 8 {
                        continue;
                    }
                    let slices: Vec<&[u8]> = data.iter().map(|b| b.as_slice()).collect();
                    let mut scratch = [0u64; x86::CONTAINS_WORDS];
                    let (mut some, mut words) = (0, 0);
                    for (c, word) in views.chunks(64).enumerate() {
                        let outs = word.iter().enumerate().fold(0u64, |m, (j, &v)| {
                            m | (u64::from(view_len(v) > INLINE) << j)
                        });
                        if outs == 0 {
                            continue;
                        }
                        words += 1;
                        // The AVX2 step takes 64 views, the missing ones
                        // empty inline views (as its kernel passes them).
                        let mut padded = [0u128; 64];
                        padded[..word.len()].copy_from_slice(word);
                        // SAFETY: the CPU has AVX-512 F, BW and VBMI2 for
                        // "avx512", AVX2 for "avx2"; the literal has 1 to
                        // 8 bytes.
                        let got = unsafe {
                            match kernel {
                                "avx512" => v512::back_to_back(word, outs, &slices, lit),
                                _ => v256::back_to_back(&padded, outs, &slices, lit, &mut scratch),
                            }
                        };
                        let Some(bits) = got else {
                            continue;
                        };
                        some += 1;
                        for (j, &want) in want[64 * c..64 * c + word.len()].iter().enumerate() {
                            if (outs >> j) & 1 == 1 {
                                assert_eq!((bits >> j) & 1 == 1, want, "{kernel} {lit:?} {c} {j}");
                            }
                        }
                    }
                    // One buffer, no gap: every word with out-of-line rows
                    // but the last two (rows of 64-100 bytes, too long for
                    // a word; the blocks past the buffer's end).
                    if buffers == 1 && gap.is_empty() {
                        assert!(some + 2 >= words, "{kernel} {lit:?} {some} of {words}");
                    } else if !gap.is_empty() {
                        assert_eq!(some, 0, "{kernel} {lit:?} {buffers} {gap:?}");
                    }
                }
                for (from, to) in [
                    (0, total),
                    (1, total),
                    (3, total - 1),
                    (64, 129),
                    (5, 5),
                    (7, 8),
                    (0, 63),
                    (0, 64),
                    (0, 65),
                    (130, 130 + 127),
                ] {
                    let all = view_contains_all(&views[from..to], &data, lit);
                    assert!(!all.is_empty() || !simd || l > 8, "{lit:?}");
                    for (kernel, got) in all {
                        let what = format!("{kernel} {lit:?} buffers {buffers} {from}..{to}");
                        assert_eq!(got.len(), to - from, "{what}");
                        assert_eq!(got.iter().collect::<Vec<_>>(), want[from..to], "{what}");
                    }
                }
            }
        }
        // Views that are not valid: out-of-line ones past their buffer's
        // end or naming no buffer, inline ones with bytes after the
        // length; nothing panics, the out-of-line ones give `false`.
        let rows = vec![b"abcdefghijklmnopq".to_vec(); 3];
        let (mut views, data) = views_of(&rows, 1, &[]);
        views[2] += 1; // one byte longer: past the end of the buffer
        views[1] |= 9u128 << 64; // buffer 9
        views.push(u128::from_le_bytes(*b"\x02\0\0\0xyzabcdefghi"));
        views.push(u128::MAX);
        views.push((u128::MAX << 32) | 64);
        for (kernel, got) in view_contains_all(&views, &data, b"abc") {
            assert_eq!(
                got.iter().collect::<Vec<_>>(),
                [true, false, false, false, false, false],
                "{kernel}"
            );
        }
        // EndsWith over the same views (portable and dispatched): the same.
        let ends = Ends::new(b"opq");
        for got in [
            view_suffix_words::<false>(&views, &data, 3, &ends),
            view_suffix(&views, &data, 3, &ends),
        ] {
            assert_eq!(
                got.iter().collect::<Vec<_>>(),
                [true, false, false, false, false, false]
            );
        }
        // Through `string_match`: valid UTF-8 with nulls, sliced.
        let strings: Vec<Option<std::string::String>> = (0..300)
            .map(|i| {
                let n = (next() % 30) as usize;
                let s: std::string::String = (0..n)
                    .map(|_| ['a', 'b', 'é', '/'][(next() % 4) as usize])
                    .collect();
                (i % 7 != 3).then_some(s)
            })
            .collect();
        let column = StringViewArray::from_iter(strings.iter().map(|s| s.as_deref()));
        for lit in [
            "a",
            "é",
            "ab",
            "/é",
            "aéb",
            "abab",
            "é/éa",
            "ababab",
            "éééé",
            "ab/abab/a",
        ] {
            for (from, to) in [(0, 300), (5, 300), (64, 200), (1, 2)] {
                let sliced = column.slice(from, to - from);
                let got = string_match(&sliced, StringMatch::Contains, lit).unwrap();
                for (i, s) in strings[from..to].iter().enumerate() {
                    if let Some(s) = s {
                        assert_eq!(got.value(i), s.contains(lit), "{lit:?} row {i} {from}");
                    }
                }
            }
        }
    }

    /// `string_match_offsets` and `string_match_utf8` refuse a column
    /// exactly when its offsets (and for the latter its rows' UTF-8) are
    /// bad, wherever the fault lies (the first word, a word boundary, the
    /// last partial word), for every test and literal (those that read no
    /// word too), and give the rows' bits otherwise; each error names the
    /// first fault.
    #[test]
    fn checked_entries_refuse_exactly_the_bad_columns() {
        use std::string::ToString;
        let mut rng = crate::xorshift::XorShift::new(0xc0ff_ee15_bad0_ff5e);
        let mut offsets = vec![0i64];
        let mut values = Vec::new();
        for _ in 0..200 {
            for _ in 0..rng.next_u64() % 12 {
                let c = ["a", "b", "é", "€"][rng.next_u64() as usize % 4];
                values.extend_from_slice(c.as_bytes());
            }
            offsets.push(values.len() as i64);
        }
        let rows = |o: &[i64], v: &[u8]| -> Option<Vec<Option<Vec<u8>>>> {
            let ok = o[0] >= 0
                && o.windows(2).all(|w| w[0] <= w[1])
                && o[o.len() - 1] as usize <= v.len();
            ok.then(|| {
                o.windows(2)
                    .map(|w| {
                        let r = &v[w[0] as usize..w[1] as usize];
                        core::str::from_utf8(r).is_ok().then(|| r.to_vec())
                    })
                    .collect()
            })
        };
        // The faults: (what, offsets, values).
        let mut cases: Vec<(String, Vec<i64>, Vec<u8>)> =
            vec![("none".to_string(), offsets.clone(), values.clone())];
        for i in [1, 2, 63, 64, 65, 127, 128, 129, 190, 199, 200] {
            let mut o = offsets.clone();
            o[i] = o[i - 1] - 1;
            cases.push((format!("offset {i} decreasing"), o, values.clone()));
            let mut o = offsets.clone();
            o[i] = values.len() as i64 + 1;
            cases.push((format!("offset {i} past the end"), o, values.clone()));
            // A byte that is never UTF-8 in row i - 1 (when it has one).
            let (a, e) = (offsets[i - 1] as usize, offsets[i] as usize);
            if e > a {
                let mut v = values.clone();
                v[a + (e - a) / 2] = 0xff;
                cases.push((format!("row {} not UTF-8", i - 1), offsets.clone(), v));
            }
            // Offset i moved inside the multi-byte character it starts or
            // follows.
            for at in [offsets[i] + 1, offsets[i] - 1] {
                let fits = at >= offsets[i - 1] && offsets.get(i + 1).is_none_or(|&n| at <= n);
                let inside = values.get(at as usize).is_some_and(|&b| (b as i8) < -0x40);
                if fits && inside {
                    let mut o = offsets.clone();
                    o[i] = at;
                    cases.push((format!("offset {i} inside a character"), o, values.clone()));
                }
            }
        }
        let mut o = offsets.clone();
        o[0] = -1;
        cases.push(("offset 0 negative".to_string(), o, values.clone()));
        // The values end inside the last row's last character.
        let (o, v) = (offsets.clone(), values[..values.len() - 1].to_vec());
        let mut o = o;
        *o.last_mut().unwrap() -= 1;
        cases.push(("the last character cut".to_string(), o, v));
        let mut faults = [0usize; 2];
        for (what, o, v) in &cases {
            let want = rows(o, v);
            let small: Vec<i32> = o.iter().map(|&x| x as i32).collect();
            for lit in ["", "a", "é", "ab", "€a", "aaaaaaaaaaaa"] {
                for test in StringMatch::ALL {
                    let l = lit.as_bytes();
                    let got = [
                        string_match_offsets(o, v, test, l),
                        string_match_offsets(&small, v, test, l),
                    ];
                    let utf8 = [
                        string_match_utf8(o, v, test, l),
                        string_match_utf8(&small, v, test, l),
                    ];
                    for (got, utf8) in got.into_iter().zip(utf8) {
                        let ctx = format!("{what}: {test:?} {lit:?}");
                        let Some(want) = &want else {
                            let e = got.expect_err(&ctx).to_string();
                            assert!(e.contains("offset"), "{ctx}: {e}");
                            assert_eq!(utf8.expect_err(&ctx).to_string(), e, "{ctx}");
                            faults[0] += 1;
                            continue;
                        };
                        let got = got.expect(&ctx);
                        for j in 0..want.len() {
                            let r = &v[o[j] as usize..o[j + 1] as usize];
                            assert_eq!(got.value(j), test.matches(r, l), "{ctx} row {j}");
                        }
                        match want.iter().position(Option::is_none) {
                            None => assert_eq!(utf8.expect(&ctx), got, "{ctx}"),
                            Some(row) => {
                                let e = utf8.expect_err(&ctx).to_string();
                                assert!(e.contains(&format!("row {row} ")), "{ctx}: {e}");
                                assert!(e.contains("is not valid UTF-8"), "{ctx}: {e}");
                                faults[1] += 1;
                            }
                        }
                    }
                }
            }
        }
        // Every fault was planted: a bad offset in 23 columns, bad text in
        // the others.
        assert!(faults[0] >= 23 * 48 && faults[1] >= 11 * 48, "{faults:?}");
        // Offsets out of order in an ASCII column of short rows, which the
        // AVX-512 word checks itself (where the CPU has it): inside a word,
        // at its edges, and for `i64` an offset 2^32 past its place (the
        // word compares offsets less the first as `i32`).
        let mut offsets = vec![0i64];
        for i in 0..400 {
            offsets.push(offsets[i] + (i as i64 * 5) % 9);
        }
        let ascii: Vec<u8> = (0..offsets[400]).map(|i| b"abc"[i as usize % 3]).collect();
        for i in [1, 5, 63, 64, 65, 100, 127, 128, 129, 200, 255, 399] {
            let mut faults = vec![];
            let mut o = offsets.clone();
            o[i] = o[i + 1] + 1;
            faults.push(o);
            let mut o = offsets.clone();
            o[i] = o[i - 1] - 1;
            faults.push(o);
            let mut o = offsets.clone();
            o[i] = ascii.len() as i64 + 1;
            faults.push(o);
            let mut o = offsets.clone();
            o[i] += 1 << 32;
            faults.push(o);
            for (f, o) in faults.iter().enumerate() {
                let small: Vec<i32> = o.iter().map(|&x| x as i32).collect();
                for test in [
                    StringMatch::Equal,
                    StringMatch::StartsWith,
                    StringMatch::EndsWith,
                ] {
                    for lit in [&b"a"[..], b"ab", b"abcabcab", b""] {
                        let ctx = format!("offset {i} fault {f} {test:?} {lit:?}");
                        assert!(string_match_utf8(o, &ascii, test, lit).is_err(), "{ctx}");
                        assert!(string_match_offsets(o, &ascii, test, lit).is_err(), "{ctx}");
                        if f < 3 {
                            let e = string_match_utf8(&small, &ascii, test, lit);
                            assert!(e.is_err(), "{ctx} i32");
                        }
                    }
                }
            }
        }
        // One byte above 0x7f anywhere in an ASCII column (each lane of
        // the ASCII test, the tails of its 64- and 8-byte steps): refused,
        // naming its row.
        // (Rows of 0-10 bytes; of 0-1 bytes: words of fewer than 64
        // bytes, whose test goes 8 bytes a step then byte by byte; of 0-24
        // bytes: words of more than 8 blocks of 64 in the AVX-512 word.)
        for (rows, width) in [(150, 11), (150, 2), (200, 25)] {
            let mut offsets = vec![0i32];
            for i in 0..rows {
                offsets.push(offsets[i] + (i as i32 * 7) % width);
            }
            let ascii: Vec<u8> = (0..offsets[rows]).map(|i| b'a' + (i % 3) as u8).collect();
            for p in 0..ascii.len() {
                let row = offsets.partition_point(|&o| o as usize <= p) - 1;
                for bad in [0x80, 0xc3] {
                    let mut v = ascii.clone();
                    v[p] = bad;
                    for test in [StringMatch::StartsWith, StringMatch::Contains] {
                        let e = string_match_utf8(&offsets, &v, test, b"a").unwrap_err();
                        assert!(e.to_string().contains(&format!("row {row} ")), "{p} {e}");
                    }
                }
            }
        }
    }

    /// Words of rows of at most 8 bytes ([`short8`]), whose offsets the
    /// length test checks and whose text the OR of the loaded heads or
    /// tails checks (dense words) or [`LazyText`] (sparse ones), in every
    /// word kernel the CPU has: a byte above 0x7f at any place of the
    /// column, one past its last offset (not a fault), offsets that step
    /// back, by 9 (a valid row too long for the fast check), past the
    /// buffer, negative, or that wrap past `i32::MAX` in 8-byte steps. The
    /// check passes exactly on the sound columns, and then gives the
    /// trusted bits.
    #[test]
    fn short_words_check_their_text_and_offsets() {
        type Kernel<O> = fn(&[O], &[u8], StringMatch, &[u8], Check) -> (BooleanBuffer, bool);
        fn small(o: &[i64]) -> Vec<i32> {
            o.iter().map(|&x| x as i32).collect()
        }
        let mut kernels: Vec<(&str, Kernel<i64>, Kernel<i32>)> = vec![(
            "portable",
            |o, v, t, l, c| super::offsets_words::<i64, false>(o, v, t, l, c),
            |o, v, t, l, c| super::offsets_words::<i32, false>(o, v, t, l, c),
        )];
        #[cfg(target_arch = "x86_64")]
        if avx2_bits() {
            kernels.push((
                "avx2",
                // SAFETY: the CPU has AVX2, POPCNT and BMI1.
                |o, v, t, l, c| unsafe { super::offsets_words_avx2(o, v, t, l, c) },
                // SAFETY: as above.
                |o, v, t, l, c| unsafe { super::offsets_words_avx2(o, v, t, l, c) },
            ));
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            kernels.push((
                "avx512",
                // SAFETY: the CPU has AVX-512 F and BW.
                |o, v, t, l, c| unsafe { super::offsets_words_avx512(o, v, t, l, c) },
                // SAFETY: as above.
                |o, v, t, l, c| unsafe { super::offsets_words_avx512(o, v, t, l, c) },
            ));
        }
        // Whether the column is sound: offsets from 0 up, in order, in the
        // buffer, and every row UTF-8.
        let sound = |o: &[i64], v: &[u8]| {
            o[0] >= 0
                && o.windows(2).all(|w| w[0] <= w[1])
                && o[o.len() - 1] as usize <= v.len()
                && o.windows(2)
                    .all(|w| core::str::from_utf8(&v[w[0] as usize..w[1] as usize]).is_ok())
        };
        let run = |what: &str, o: &[i64], v: &[u8], wide: bool| {
            let want = sound(o, v);
            let o32 = small(o);
            // The `i32` offsets are the same column when they fit.
            let narrow = o.iter().all(|&x| i32::try_from(x).is_ok());
            for &(name, k64, k32) in &kernels {
                // Dense and sparse words of `=` and StartsWith (by the
                // literal's length), and EndsWith.
                for (test, lit) in [
                    (StringMatch::StartsWith, &b"a"[..]),
                    (StringMatch::Equal, b"ab"),
                    (StringMatch::Equal, b"abcabcab"),
                    (StringMatch::StartsWith, b"abcabca"),
                    (StringMatch::EndsWith, b"c"),
                    (StringMatch::EndsWith, b"bcabcabca"),
                ] {
                    let ctx = format!("{what}: {name} {test:?} {lit:?}");
                    let mut got = vec![k64(o, v, test, lit, Check::Utf8)];
                    if narrow || !wide {
                        got.push(k32(&o32, v, test, lit, Check::Utf8));
                    }
                    for (bits, ok) in got {
                        assert_eq!(ok, want, "{ctx}");
                        if ok {
                            let (trusted, _) = k64(o, v, test, lit, Check::Trusted);
                            assert_eq!(bits, trusted, "{ctx}");
                        }
                    }
                }
            }
        };
        // Rows of 0-8 bytes, ASCII, 8 spare bytes past the last row.
        let mut offsets = vec![0i64];
        for i in 0..300 {
            offsets.push(offsets[i] + (i as i64 * 7) % 9);
        }
        let end = offsets[300] as usize;
        let ascii: Vec<u8> = (0..end + 8).map(|i| b"abc"[i % 3]).collect();
        run("clean", &offsets, &ascii, false);
        for p in (0..end + 8).step_by(3) {
            let mut v = ascii.clone();
            v[p] = 0x80 | (p as u8 & 0x3f);
            run(&format!("byte {p}"), &offsets, &v, false);
        }
        for i in [1, 2, 63, 64, 65, 100, 128, 191, 192, 250, 299, 300] {
            let mut faults = vec![];
            let mut o = offsets.clone();
            o[i] = o[i - 1] - 1;
            faults.push(("back", o));
            let mut o = offsets.clone();
            o[i] = o[i - 1] + 9;
            faults.push(("9 bytes", o));
            let mut o = offsets.clone();
            o[i] = ascii.len() as i64 + 1;
            faults.push(("past", o));
            let mut o = offsets.clone();
            o[i] = -3;
            faults.push(("negative", o));
            for (what, o) in faults {
                run(&format!("{what} at {i}"), &o, &ascii, false);
            }
        }
        // The first offset negative, the steps from it short.
        for first in [-3, -8] {
            let mut o = offsets.clone();
            o[0] = first;
            run(&format!("first offset {first}"), &o, &ascii, false);
        }
        // One row of 9 bytes (too long for the fast check), its ninth byte
        // bad: the heads do not cover it.
        for r in [0, 40, 64, 70, 150, 299] {
            let mut o = offsets.clone();
            let grow = 9 - (o[r + 1] - o[r]);
            o[r + 1..].iter_mut().for_each(|x| *x += grow);
            let mut v: Vec<u8> = (0..o[300] as usize + 8).map(|i| b"abc"[i % 3]).collect();
            run(&format!("9-byte row {r}"), &o, &v, false);
            v[o[r] as usize + 8] = 0xc3;
            run(&format!("9-byte row {r}, bad"), &o, &v, false);
        }
        // Offsets that step up by at most 8 from near `i32::MAX`: as `i32`
        // they wrap negative; as `i64` they pass the buffer.
        let high: Vec<i64> = (0..200)
            .map(|j| i64::from(i32::MAX) - 500 + 5 * j)
            .collect();
        let wrapped: Vec<i64> = small(&high).into_iter().map(i64::from).collect();
        run("near i32::MAX", &high, &ascii, true);
        run("wrapped", &wrapped, &ascii, false);
    }

    /// `string_match_offsets` gives `string_match`'s bits on the same
    /// strings (sliced arrays' offsets, both offset widths, every test and
    /// literals around the 8-byte head), and each bad offset is an error
    /// naming it, with nothing read past the values.
    #[test]
    fn offsets_slices_agree_with_arrays_and_reject_bad_offsets() {
        use arrow_array::{LargeStringArray, StringArray};
        use std::string::ToString;
        let mut rng = crate::xorshift::XorShift::new(0x5eed_0ff5_e75a_11ce);
        let rows: Vec<String> = (0..700)
            .map(|_| {
                let n = (rng.next_u64() % 24) as usize;
                (0..n)
                    .map(|_| ['a', 'b', 'é'][rng.next_u64() as usize % 3])
                    .collect()
            })
            .collect();
        let small = StringArray::from_iter_values(&rows);
        let large = LargeStringArray::from_iter_values(&rows);
        for lit in ["", "a", "ab", "é", "abababab", "abababa", "aaaaaaaaaab"] {
            for test in StringMatch::ALL {
                for (from, len) in [(0, 700), (3, 650), (64, 1), (70, 0)] {
                    let (s, l) = (small.slice(from, len), large.slice(from, len));
                    let want = string_match(&s, test, lit).unwrap();
                    let got =
                        string_match_offsets(s.value_offsets(), s.values(), test, lit.as_bytes())
                            .unwrap();
                    assert_eq!(got, want, "{test:?} {lit:?} {from} {len}");
                    let got =
                        string_match_offsets(l.value_offsets(), l.values(), test, lit.as_bytes())
                            .unwrap();
                    assert_eq!(got, want, "{test:?} {lit:?} {from} {len} large");
                }
            }
        }
        let err = |offsets: &[i32], values: &[u8]| {
            string_match_offsets(offsets, values, StringMatch::StartsWith, b"a")
                .unwrap_err()
                .to_string()
        };
        assert!(err(&[-1, 2], b"ab").contains("offset 0 (-1) is negative"));
        assert!(err(&[0, 2, 1, 2], b"ab").contains("offset 2 (1) is below offset 1 (2)"));
        // A decrease far into a long column (past the first block of 64).
        let mut long: Vec<i32> = (0..200).collect();
        long[150] = 3;
        assert!(err(&long, &[b'a'; 200]).contains("offset 150 (3) is below offset 149 (149)"));
        assert!(err(&[0, 2, 3], b"ab").contains("offset 2 (3) is past the end of the 2 bytes"));
        // No offset: no row; one offset: no row either, but a lone offset
        // outside the buffer is refused.
        for offsets in [&[][..], &[1][..]] {
            let bits = string_match_offsets(offsets, b"ab", StringMatch::Equal, b"").unwrap();
            assert_eq!(bits.len(), 0);
            let bits = string_match_utf8(offsets, b"ab", StringMatch::Equal, b"").unwrap();
            assert_eq!(bits.len(), 0);
        }
        for offsets in [&[3][..], &[-1][..]] {
            for test in StringMatch::ALL {
                assert!(string_match_offsets(offsets, b"ab", test, b"a").is_err());
                assert!(string_match_utf8(offsets, b"ab", test, b"").is_err());
            }
        }
    }
}
