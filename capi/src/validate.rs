//! The data checks of an imported array, before any value is read.
//!
//! arrow-rs' `ArrayData::validate_full` is the reference, and stays the check
//! for every type this module does not check by hand. For Utf8, LargeUtf8,
//! Binary and LargeBinary (and dictionaries of them) it walks the offsets
//! one string at a time through a chain of iterator adapters and closures,
//! about 40 instructions a string: on the 4 Ki-row batches of the bench that
//! was more than the evaluation itself. [`validate`] checks the same
//! properties with loops the compiler vectorizes:
//!
//! - the producer's `null_count` against the validity bitmap (as arrow-rs'
//!   `validate_nulls`, with bitbytes' popcount) and the bitmap's length;
//! - the offsets buffer aligned and holding `offset + length + 1` offsets,
//!   every offset of the array's slice non-decreasing and within the data
//!   buffer (whose length the importer takes from the last offset, as the C
//!   Data Interface gives no other);
//! - for strings, the bytes between the first and the last offset valid UTF-8
//!   (one `core::str::from_utf8` over the whole range, skipped when it is all
//!   ASCII), and every offset on a character boundary, so that each string on
//!   its own is valid UTF-8 too;
//! - for dictionaries, arrow-rs' `validate_data` on the keys (each in range,
//!   `null_count`), then the values as above.
//!
//! Fixed-width columns of 1 to 8-byte values (integers, floats, dates,
//! times, timestamps, durations) get what `validate_full` checks for them,
//! without its allocations: the values buffer's size and alignment, and the
//! null count.
//!
//! Null slots are checked like the others, as arrow-rs does.

use arrow_array::ArrowNativeTypeOp;
use arrow_data::ArrayData;
use arrow_schema::DataType;
use std::format;
use std::string::{String, ToString};

/// Validates the data of an imported array in full; see the module. The
/// error names the problem (the caller prefixes the column).
pub(crate) fn validate(data: &ArrayData) -> Result<(), String> {
    match data.data_type() {
        DataType::Utf8 => offsets_and_bytes::<i32>(data, true),
        DataType::LargeUtf8 => offsets_and_bytes::<i64>(data, true),
        DataType::Binary => offsets_and_bytes::<i32>(data, false),
        DataType::LargeBinary => offsets_and_bytes::<i64>(data, false),
        DataType::Dictionary(_, values) if hand_checked(values) => {
            // The keys: buffer sizes, null count, each key in range.
            data.validate_data().map_err(|e| e.to_string())?;
            match data.child_data() {
                [values] => validate(values).map_err(|e| format!("the dictionary: {e}")),
                other => Err(format!(
                    "a dictionary array has 1 child (its values), this one {}",
                    other.len()
                )),
            }
        }
        t => match t.primitive_width().filter(|&w| t.is_primitive() && w <= 8) {
            Some(width) => fixed_width(data, width),
            None => data.validate_full().map_err(|e| e.to_string()),
        },
    }
}

/// The checks of a fixed-width array of 1 to 8-byte values (integers,
/// floats, dates, times, timestamps, durations): arrow-rs' `validate_full`
/// checks for these no more than the values buffer's size and alignment and
/// the null count, which this checks without its allocations, with
/// bitbytes' own popcount.
fn fixed_width(data: &ArrayData, width: usize) -> Result<(), String> {
    let [values] = data.buffers() else {
        return Err(format!(
            "{} has 1 buffer besides the validity, this array {}",
            data.data_type(),
            data.buffers().len()
        ));
    };
    if !data.child_data().is_empty() {
        return Err(format!("{} has no children", data.data_type()));
    }
    let need = data
        .offset()
        .checked_add(data.len())
        .and_then(|n| n.checked_mul(width));
    if need.is_none_or(|n| values.len() < n) {
        return Err(format!(
            "the values buffer of {} holds {} bytes, offset + length = {} values need more",
            data.data_type(),
            values.len(),
            data.offset().saturating_add(data.len())
        ));
    }
    if !(values.as_ptr() as usize).is_multiple_of(width) {
        return Err(format!(
            "the values buffer of {} is not aligned to {width} bytes",
            data.data_type()
        ));
    }
    null_count(data)
}

/// arrow-rs' `validate_nulls` for an array without children: the
/// producer's `null_count` against its validity bitmap.
fn null_count(data: &ArrayData) -> Result<(), String> {
    let Some(nulls) = data.nulls() else {
        return Ok(());
    };
    let bits = nulls.inner();
    if bits.len() != data.len() {
        return Err(format!(
            "null buffer incorrect size. got {} expected {}",
            bits.len(),
            data.len()
        ));
    }
    let valid = bitbytes::count_selected(bits.values(), None, bits.offset(), bits.len(), false)
        .map_err(|e| format!("the validity bitmap: {e}"))?;
    let actual = bits.len() - valid;
    if actual != nulls.null_count() {
        return Err(format!(
            "null_count value ({}) doesn't match actual number of nulls in array ({actual})",
            nulls.null_count()
        ));
    }
    Ok(())
}

/// Whether [`validate`] checks `t` itself rather than with arrow-rs.
fn hand_checked(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
    )
}

/// The checks of a Utf8 / LargeUtf8 (`utf8`) or Binary / LargeBinary array
/// with offsets of type `O`.
fn offsets_and_bytes<O: ArrowNativeTypeOp + Ord + core::fmt::Display>(
    data: &ArrayData,
    utf8: bool,
) -> Result<(), String> {
    // The null bitmap's length and count; the offsets buffer's size and
    // alignment and every offset are checked below.
    null_count(data)?;
    let (len, offset) = (data.len(), data.offset());
    let [offsets, values] = data.buffers() else {
        return Err(format!(
            "{} has 2 buffers besides the validity, this array {}",
            data.data_type(),
            data.buffers().len()
        ));
    };
    let width = core::mem::size_of::<O>();
    if len == 0 && offsets.is_empty() {
        // An empty array may have no offset at all (arrow-rs' rule too).
        return Ok(());
    }
    // `typed_data` asserts both; the importer aligns the buffer and sizes it
    // in whole offsets, and this keeps a surprise an error, not a panic.
    if !(offsets.as_ptr() as usize).is_multiple_of(width) || !offsets.len().is_multiple_of(width) {
        return Err(format!(
            "the offsets buffer of {} ({} bytes) is not aligned to {width} bytes",
            data.data_type(),
            offsets.len()
        ));
    }
    let Some(offsets) = offsets.typed_data::<O>().get(offset..=offset + len) else {
        return Err(format!(
            "the offsets buffer of {} holds {} offsets, offset + length + 1 = {} are needed",
            data.data_type(),
            offsets.len() / width,
            offset + len + 1
        ));
    };
    offsets_in(offsets, values.as_slice(), utf8)
}

/// The offsets and bytes checks of [`validate`] on the array's own offsets
/// (`offset + length + 1` of them, from its first row) and its whole data
/// buffer: offsets non-decreasing and within the data, and for strings
/// (`utf8`) the bytes they span valid UTF-8 with every offset on a
/// character boundary.
pub(crate) fn offsets_in<O: ArrowNativeTypeOp + Ord + core::fmt::Display>(
    offsets: &[O],
    values: &[u8],
    utf8: bool,
) -> Result<(), String> {
    let Some(len) = offsets.len().checked_sub(1) else {
        return Err("no offset at all (an array has length + 1)".to_string());
    };
    // Non-decreasing and within [0, values.len()]: with the first offset at
    // least 0 and the last at most the length, non-decreasing is enough.
    // (Branch-free, so that the loop vectorizes.)
    let non_decreasing = non_decreasing(offsets);
    let (first, last) = (offsets[0], offsets[len]);
    let in_range = first >= O::ZERO && last.to_usize().is_some_and(|l| l <= values.len());
    if !(non_decreasing && in_range) {
        return Err(bad_offset(offsets, values.len()));
    }
    if !utf8 {
        return Ok(());
    }
    let first = first.as_usize();
    let span = &values[first..last.as_usize()];
    if all_ascii(span) {
        // Every byte is a character: valid UTF-8, every offset a boundary.
        return Ok(());
    }
    if let Err(e) = core::str::from_utf8(span) {
        let at = first + e.valid_up_to();
        // The string holding byte `at`: the last one starting at or before
        // it (offsets are sorted; the first starts at `first` <= `at`).
        let i = offsets
            .partition_point(|o| o.as_usize() <= at)
            .saturating_sub(1);
        return Err(format!(
            "Invalid UTF8 sequence at string index {i} (byte {at} of the data): {e}"
        ));
    }
    // A byte 0b10xx_xxxx continues a character: no string may start or end
    // before one (the end of the span is a boundary).
    let boundary = |o: &O| {
        span.get(o.as_usize() - first)
            .is_none_or(|&b| (b as i8) >= -0x40)
    };
    if !offsets.iter().fold(true, |ok, o| ok & boundary(o)) {
        let i = offsets.iter().position(|o| !boundary(o)).unwrap_or(0);
        return Err(format!(
            "Invalid UTF8: offset {i} ({}) falls inside a multi-byte character, so string {} ends and string {i} starts with an incomplete utf-8 byte sequence",
            offsets[i],
            i.saturating_sub(1)
        ));
    }
    Ok(())
}

/// Whether `offsets` never decrease: branch-free over blocks, so that the
/// compiler vectorizes the comparisons (with AVX2 when the CPU has it).
fn non_decreasing<O: Ord>(offsets: &[O]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { non_decreasing_avx2(offsets) };
    }
    non_decreasing_body(offsets)
}

/// [`non_decreasing_body`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn non_decreasing_avx2<O: Ord>(offsets: &[O]) -> bool {
    non_decreasing_body(offsets)
}

/// See [`non_decreasing`].
#[inline(always)]
fn non_decreasing_body<O: Ord>(offsets: &[O]) -> bool {
    let Some((_, rest)) = offsets.split_first() else {
        return true;
    };
    // Pairs (offsets[i], offsets[i + 1]) of equal-length blocks, the count
    // of decreasing ones summed as integers (a `bool` fold vectorized to
    // about 1 instruction an offset, this to about half).
    let head = &offsets[..rest.len()];
    head.chunks(BLOCK).zip(rest.chunks(BLOCK)).all(|(a, b)| {
        let mut decreasing = 0u32;
        for (x, y) in a.iter().zip(b) {
            decreasing += u32::from(x > y);
        }
        decreasing == 0
    })
}

/// Whether every byte is below 0x80: an OR over blocks, which the compiler
/// vectorizes (with AVX2 when the CPU has it; std's `is_ascii` goes a word
/// at a time).
fn all_ascii(bytes: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { all_ascii_avx2(bytes) };
    }
    all_ascii_body(bytes)
}

/// [`all_ascii_body`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn all_ascii_avx2(bytes: &[u8]) -> bool {
    all_ascii_body(bytes)
}

/// See [`all_ascii`].
#[inline(always)]
fn all_ascii_body(bytes: &[u8]) -> bool {
    bytes
        .chunks(BLOCK)
        .all(|block| block.iter().fold(0u8, |acc, &b| acc | b) < 0x80)
}

/// The items a branch-free block of [`non_decreasing`] and [`all_ascii`]
/// covers before its verdict is read.
const BLOCK: usize = 512;

/// The first offset out of `[0, limit]` or smaller than the one before.
fn bad_offset<O: ArrowNativeTypeOp + Ord + core::fmt::Display>(
    offsets: &[O],
    limit: usize,
) -> String {
    for (i, &o) in offsets.iter().enumerate() {
        if o.to_usize().is_none_or(|o| o > limit) {
            return format!(
                "offset {i} ({o}) is out of bounds: the data buffer holds {limit} bytes (offsets must lie in [0, {limit}])"
            );
        }
        if i > 0 && o < offsets[i - 1] {
            return format!(
                "non-monotonic offsets: offset {} is {}, offset {i} is {o} (offsets never decrease)",
                i - 1,
                offsets[i - 1]
            );
        }
    }
    "the offsets are inconsistent".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_buffer::Buffer;
    use std::vec;
    use std::vec::Vec;

    /// An array of `data_type` over raw offsets and bytes, unchecked (the
    /// point is to check it).
    fn raw<O: ArrowNativeTypeOp>(
        data_type: DataType,
        offsets: &[O],
        bytes: &[u8],
        offset: usize,
        len: usize,
        validity: Option<&[u8]>,
        null_count: Option<usize>,
    ) -> ArrayData {
        let mut b = ArrayData::builder(data_type)
            .len(len)
            .offset(offset)
            .add_buffer(Buffer::from_slice_ref(offsets))
            .add_buffer(Buffer::from_slice_ref(bytes))
            .null_bit_buffer(validity.map(Buffer::from_slice_ref));
        if let Some(n) = null_count {
            b = b.null_count(n);
        }
        // SAFETY: the data is only validated, never read as values.
        unsafe { b.build_unchecked() }
    }

    fn utf8(offsets: &[i32], bytes: &[u8], offset: usize, len: usize) -> ArrayData {
        raw(DataType::Utf8, offsets, bytes, offset, len, None, None)
    }

    /// Ours and arrow-rs' `validate_full` agree; ours' message when bad.
    fn check(data: &ArrayData) -> Result<(), String> {
        let ours = validate(data);
        let theirs = data.validate_full();
        assert_eq!(
            ours.is_ok(),
            theirs.is_ok(),
            "ours {ours:?}, arrow-rs {theirs:?} on {data:?}"
        );
        ours
    }

    fn err(data: &ArrayData) -> String {
        check(data).expect_err("an invalid array passed")
    }

    #[test]
    fn valid_strings_pass() {
        // "a", "", "é", "€x", "😀"
        let bytes = "aé€x😀".as_bytes();
        let offsets = [0, 1, 1, 3, 7, 11];
        check(&utf8(&offsets, bytes, 0, 5)).unwrap();
        check(&raw(
            DataType::LargeUtf8,
            &[0i64, 1, 1, 3, 7, 11],
            bytes,
            0,
            5,
            None,
            None,
        ))
        .unwrap();
        check(&raw(DataType::Binary, &offsets, bytes, 0, 5, None, None)).unwrap();
        // All ASCII: the fast path.
        check(&utf8(&[0, 2, 2, 5], b"abcde", 0, 3)).unwrap();
        // Empty, with one offset or none.
        check(&utf8(&[0], b"", 0, 0)).unwrap();
        check(&utf8(&[], b"", 0, 0)).unwrap();
    }

    #[test]
    fn decreasing_offsets() {
        let msg = err(&utf8(&[0, 3, 2, 5], b"abcde", 0, 3));
        assert!(
            msg.contains("non-monotonic") && msg.contains("offset 1 is 3"),
            "{msg}"
        );
        let msg = err(&raw(
            DataType::Binary,
            &[0, 3, 2, 5],
            b"abcde",
            0,
            3,
            None,
            None,
        ));
        assert!(msg.contains("non-monotonic"), "{msg}");
        let msg = err(&raw(
            DataType::LargeUtf8,
            &[0i64, 3, 2, 5],
            b"abcde",
            0,
            3,
            None,
            None,
        ));
        assert!(msg.contains("non-monotonic"), "{msg}");
    }

    #[test]
    fn offsets_past_the_data() {
        // The middle offset past the end of the data.
        let msg = err(&utf8(&[0, 9, 5], b"abcde", 0, 2));
        assert!(
            msg.contains("offset 1 (9) is out of bounds") && msg.contains("5 bytes"),
            "{msg}"
        );
        // The last one (arrow-rs' cheap check names it).
        let msg = err(&utf8(&[0, 2, 9], b"abcde", 0, 2));
        assert!(msg.contains("offset"), "{msg}");
        // A negative one, first or in the middle.
        let msg = err(&utf8(&[-1, 2, 5], b"abcde", 0, 2));
        assert!(msg.contains("offset"), "{msg}");
        let msg = err(&utf8(&[0, -2, 5], b"abcde", 0, 2));
        assert!(msg.contains("offset 1 (-2) is out of bounds"), "{msg}");
        let msg = err(&raw(
            DataType::LargeBinary,
            &[0i64, i64::MAX, 5],
            b"abcde",
            0,
            2,
            None,
            None,
        ));
        assert!(msg.contains("out of bounds"), "{msg}");
    }

    #[test]
    fn invalid_utf8() {
        // "ab", "\xC3c", "d": a lead byte without its continuation.
        let msg = err(&utf8(&[0, 2, 4, 5], b"ab\xC3cd", 0, 3));
        assert!(
            msg.contains("Invalid UTF8 sequence at string index 1"),
            "{msg}"
        );
        // A lone continuation byte, in a later string, after empty ones.
        let msg = err(&utf8(&[0, 1, 1, 1, 3], b"a\x80b", 0, 4));
        assert!(
            msg.contains("Invalid UTF8 sequence at string index 3"),
            "{msg}"
        );
        let msg = err(&raw(
            DataType::LargeUtf8,
            &[0i64, 2],
            b"\xFFa",
            0,
            1,
            None,
            None,
        ));
        assert!(msg.contains("Invalid UTF8"), "{msg}");
        // Binary takes any bytes.
        check(&raw(
            DataType::Binary,
            &[0, 2, 4, 5],
            b"ab\xC3cd",
            0,
            3,
            None,
            None,
        ))
        .unwrap();
    }

    #[test]
    fn an_offset_inside_a_multi_byte_character() {
        // "€" is E2 82 AC: strings "\xE2" and "\x82\xAC" are each invalid,
        // though the bytes together are valid UTF-8.
        let bytes = "a€b".as_bytes();
        let msg = err(&utf8(&[0, 2, 5], bytes, 0, 2));
        assert!(
            msg.contains("offset 1 (2) falls inside a multi-byte character"),
            "{msg}"
        );
        let msg = err(&raw(
            DataType::LargeUtf8,
            &[0i64, 3, 5],
            bytes,
            0,
            2,
            None,
            None,
        ));
        assert!(msg.contains("inside a multi-byte character"), "{msg}");
        // In a slice: its offset 1 (2) inside "€" (which starts at 1).
        let msg = err(&utf8(&[0, 1, 2, 5], bytes, 1, 2));
        assert!(msg.contains("offset 1 (2) falls inside"), "{msg}");
        // The slice's first offset inside a character: its range starts
        // with a continuation byte.
        let msg = err(&utf8(&[0, 2, 3, 5], bytes, 1, 2));
        assert!(
            msg.contains("Invalid UTF8 sequence at string index 0"),
            "{msg}"
        );
        check(&raw(DataType::Binary, &[0, 2, 5], bytes, 0, 2, None, None)).unwrap();
    }

    #[test]
    fn sliced_arrays() {
        // Bytes outside the slice's range are not its business (nor
        // arrow-rs'): invalid UTF-8 before and after, offsets from 3.
        let bytes = b"\xFFab\xC3cd\xFF";
        let offsets = [0, 1, 3, 5, 6, 7];
        check(&utf8(&offsets, bytes, 1, 1)).unwrap();
        // The slice's own bad byte, named by its index in the slice.
        let msg = err(&utf8(&offsets, bytes, 1, 2));
        assert!(msg.contains("string index 1"), "{msg}");
        // Decreasing offsets outside the slice are not read; inside they are.
        let offsets = [9, 0, 2, 4, 1];
        check(&utf8(&offsets, b"abcd", 1, 2)).unwrap();
        let msg = err(&utf8(&offsets, b"abcd", 1, 3));
        assert!(
            msg.contains("offset 3 (1)") || msg.contains("non-monotonic"),
            "{msg}"
        );
    }

    #[test]
    fn null_counts_and_short_buffers() {
        // Rows 0 and 2 null (bits 0b010), the producer says 0 nulls.
        let msg = err(&raw(
            DataType::Utf8,
            &[0, 1, 2, 3],
            b"abc",
            0,
            3,
            Some(&[0b010]),
            Some(1),
        ));
        assert!(msg.contains("null_count"), "{msg}");
        check(&raw(
            DataType::Utf8,
            &[0, 1, 2, 3],
            b"abc",
            0,
            3,
            Some(&[0b010]),
            Some(2),
        ))
        .unwrap();
        // Fewer offsets than offset + length + 1.
        let msg = err(&utf8(&[0, 1], b"ab", 0, 3));
        assert!(
            msg.contains("holds 2 offsets") && msg.contains("4 are needed"),
            "{msg}"
        );
    }

    #[test]
    fn dictionaries_of_strings() {
        let values = utf8(&[0, 2, 4, 5], b"ab\xC3cd", 0, 3);
        let keys = |k: &[i32]| {
            let b = ArrayData::builder(DataType::Dictionary(
                std::boxed::Box::new(DataType::Int32),
                std::boxed::Box::new(DataType::Utf8),
            ))
            .len(k.len())
            .add_buffer(Buffer::from_slice_ref(k))
            .add_child_data(values.clone());
            // SAFETY: only validated.
            unsafe { b.build_unchecked() }
        };
        let msg = err(&keys(&[0, 2]));
        assert!(msg.contains("the dictionary: Invalid UTF8"), "{msg}");
        let values = utf8(&[0, 2, 4, 5], b"abccd", 0, 3);
        let keys = |k: &[i32]| {
            let b = ArrayData::builder(DataType::Dictionary(
                std::boxed::Box::new(DataType::Int32),
                std::boxed::Box::new(DataType::Utf8),
            ))
            .len(k.len())
            .add_buffer(Buffer::from_slice_ref(k))
            .add_child_data(values.clone());
            // SAFETY: only validated.
            unsafe { b.build_unchecked() }
        };
        check(&keys(&[0, 2, 1])).unwrap();
        let msg = err(&keys(&[0, 3]));
        assert!(msg.contains("out of bounds"), "{msg}");
    }

    /// Fixed-width columns: the null count, the values buffer's size; ours
    /// agrees with arrow-rs on random validity and claimed null counts.
    #[test]
    fn fixed_width_columns() {
        let fixed = |t: DataType, values: &[u8], offset, len, validity: Option<&[u8]>, nulls| {
            let mut b = ArrayData::builder(t)
                .len(len)
                .offset(offset)
                .add_buffer(Buffer::from_slice_ref(values))
                .null_bit_buffer(validity.map(Buffer::from_slice_ref));
            if let Some(n) = nulls {
                b = b.null_count(n);
            }
            // SAFETY: only validated.
            unsafe { b.build_unchecked() }
        };
        let values = [0u8; 64];
        check(&fixed(DataType::Int64, &values, 0, 8, None, None)).unwrap();
        check(&fixed(DataType::Int64, &values, 1, 7, None, None)).unwrap();
        let msg = err(&fixed(DataType::Int64, &values, 1, 8, None, None));
        assert!(msg.contains("holds 64 bytes"), "{msg}");
        let msg = err(&fixed(
            DataType::Int32,
            &values,
            0,
            8,
            Some(&[0b1111_0000]),
            Some(3),
        ));
        assert!(
            msg.contains("null_count value (3)") && msg.contains("(4)"),
            "{msg}"
        );
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..5_000 {
            let t = [
                DataType::Int8,
                DataType::UInt16,
                DataType::Float32,
                DataType::Int64,
            ][next(4) as usize]
                .clone();
            let bitmap: Vec<u8> = (0..4).map(|_| next(256) as u8).collect();
            let offset = next(9) as usize;
            let len = next(24) as usize;
            let claimed = next(len as u64 + 2) as usize;
            let values_len = next(8 * 34) as usize;
            check(&fixed(
                t,
                &values[..values_len.min(64)],
                offset,
                len,
                Some(&bitmap),
                Some(claimed),
            ))
            .ok();
        }
    }

    /// Random arrays, then random damage to an offset or a byte, and random
    /// slices: ours agrees with arrow-rs' `validate_full` on every one.
    #[test]
    fn agrees_with_arrow_rs_on_random_damage() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let pieces = ["", "a", "bc", "é", "€", "😀", "xyz"];
        let (mut bad, mut good) = (0, 0);
        for _ in 0..20_000 {
            let n = 1 + next(8) as usize;
            let mut bytes = Vec::new();
            let mut offsets = vec![0i64];
            for _ in 0..n {
                bytes.extend_from_slice(pieces[next(pieces.len() as u64) as usize].as_bytes());
                offsets.push(bytes.len() as i64);
            }
            match next(4) {
                0 => {
                    let i = next(offsets.len() as u64) as usize;
                    offsets[i] = next(bytes.len() as u64 + 4) as i64 - 2;
                }
                1 if !bytes.is_empty() => {
                    let i = next(bytes.len() as u64) as usize;
                    bytes[i] = [0x80, 0xC3, 0xFF, b'q', 0xE2][next(5) as usize];
                }
                _ => {}
            }
            let offset = next(n as u64 + 1) as usize;
            let len = next((n - offset) as u64 + 1) as usize;
            let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
            for data in [
                raw(DataType::Utf8, &small, &bytes, offset, len, None, None),
                raw(
                    DataType::LargeUtf8,
                    &offsets,
                    &bytes,
                    offset,
                    len,
                    None,
                    None,
                ),
                raw(DataType::Binary, &small, &bytes, offset, len, None, None),
            ] {
                match check(&data) {
                    Ok(()) => good += 1,
                    Err(msg) => {
                        assert!(!msg.is_empty());
                        bad += 1;
                    }
                }
            }
        }
        assert!(bad > 5_000 && good > 5_000, "{bad} bad, {good} good");
    }

    /// The branch-free block loops, portable and (where the CPU has it)
    /// AVX2, against a plain scan, on lengths around the block size, with
    /// the one decreasing pair / non-ASCII byte at every place of interest.
    #[test]
    fn block_loops_agree_with_a_plain_scan() {
        for n in [
            0,
            1,
            2,
            31,
            32,
            33,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            2 * BLOCK + 3,
        ] {
            let sorted: Vec<i64> = (0..n as i64).map(|i| i / 3).collect();
            let bytes = vec![b'a'; n];
            let mut cases = vec![(sorted.clone(), bytes.clone())];
            for at in [0, 1, n / 2, n.saturating_sub(2), n.saturating_sub(1)] {
                if at < n {
                    let (mut o, mut b) = (sorted.clone(), bytes.clone());
                    if at + 1 < n {
                        o[at + 1] = o[at] - 1;
                    }
                    b[at] = 0x80 | (at as u8);
                    cases.push((o, b));
                }
            }
            for (offsets, bytes) in cases {
                let plain = offsets.windows(2).all(|w| w[0] <= w[1]);
                assert_eq!(non_decreasing_body(&offsets), plain, "n {n}");
                assert_eq!(non_decreasing(&offsets), plain, "n {n}");
                let ascii = bytes.iter().all(|b| b.is_ascii());
                assert_eq!(all_ascii_body(&bytes), ascii, "n {n}");
                assert_eq!(all_ascii(&bytes), ascii, "n {n}");
            }
        }
    }
}
