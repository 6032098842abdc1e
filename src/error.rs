//! The one error type of the crate.
//!
//! Every fallible function checks its whole input before it writes anything, so
//! an `Err` always means "nothing was written". Each variant carries the numbers
//! that were wrong, and its `Display` message names them.

use core::fmt;

/// Why a call was rejected. On any `Err`, the output was left untouched.
///
/// # Examples
///
/// ```
/// use bitbytes::{unpack, Error};
///
/// let mut out = [0u8; 4];
/// // 10 rows do not fit in 4 output bytes.
/// let err = unpack(&[0xff, 0xff], None, 0, 10, false, &mut out).unwrap_err();
/// assert_eq!(err, Error::OutputTooShort { needed: 10, actual: 4 });
/// assert_eq!(err.to_string(), "output too short: length 10 needed, 4 given");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The output slice is shorter than the call needs (in bytes: one per row
    /// for `unpack`, `ceil((bit_offset + len) / 8)` for `pack`; in `u32`
    /// indices, one per selected row, for `unpack_indices` and
    /// `mask_to_indices`).
    ///
    /// Both numbers are slice lengths, in the output's own elements (bytes
    /// or `u32` indices), and the message says "length" for that reason.
    OutputTooShort {
        /// Length the call needs.
        needed: usize,
        /// Length of the slice the caller gave.
        actual: usize,
    },
    /// The values bitmap is shorter than `ceil((bit_offset + len) / 8)` bytes.
    ValuesTooShort {
        /// Bytes the call needs.
        needed: usize,
        /// Bytes the caller gave.
        actual: usize,
    },
    /// The validity bitmap is shorter than `ceil((bit_offset + len) / 8)` bytes.
    ValidityTooShort {
        /// Bytes the call needs.
        needed: usize,
        /// Bytes the caller gave.
        actual: usize,
    },
    /// `bit_offset + len` does not fit in a `usize`.
    Overflow {
        /// The bit offset the caller gave.
        bit_offset: usize,
        /// The length (in rows or bits) the caller gave.
        len: usize,
    },
    /// A row index of [`unpack_indices`](crate::unpack_indices) or
    /// [`mask_to_indices`](crate::mask_to_indices) would not fit in a `u32`:
    /// the largest one, `base + len - 1`, exceeds `u32::MAX`.
    IndexOverflow {
        /// The first index the caller asked for (row 0).
        base: u32,
        /// The number of rows.
        len: usize,
    },
    /// A [`BitmapWriter`](crate::BitmapWriter) has no room for the bits of an
    /// append (`len + additional > capacity`); none of them were appended.
    CapacityExceeded {
        /// Bits already appended.
        len: usize,
        /// Bits the rejected append would have added.
        additional: usize,
        /// Bits the writer's buffer holds.
        capacity: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::OutputTooShort { needed, actual } => {
                write!(f, "output too short: length {needed} needed, {actual} given")
            }
            Error::ValuesTooShort { needed, actual } => write!(
                f,
                "values bitmap too short: {needed} bytes needed, {actual} given"
            ),
            Error::ValidityTooShort { needed, actual } => write!(
                f,
                "validity bitmap too short: {needed} bytes needed, {actual} given"
            ),
            Error::Overflow { bit_offset, len } => {
                write!(f, "bit_offset {bit_offset} + len {len} overflows usize")
            }
            Error::IndexOverflow { base, len } => write!(
                f,
                "row index overflows u32: base {base} + len {len} - 1 exceeds {}",
                u32::MAX
            ),
            Error::CapacityExceeded {
                len,
                additional,
                capacity,
            } => write!(
                f,
                "bitmap writer full: {len} bits written, {additional} more exceed the capacity of {capacity} bits"
            ),
        }
    }
}

impl core::error::Error for Error {}

/// Checks that a bitmap of `bytes_len` bytes holds bits
/// `[bit_offset, bit_offset + len)`; returns the bytes needed.
///
/// `too_short` builds the variant that names which bitmap it was.
#[inline]
pub(crate) fn check_bitmap(
    bytes_len: usize,
    bit_offset: usize,
    len: usize,
    too_short: fn(usize, usize) -> Error,
) -> Result<usize, Error> {
    let end = bit_offset
        .checked_add(len)
        .ok_or(Error::Overflow { bit_offset, len })?;
    let needed = end.div_ceil(8);
    if bytes_len < needed {
        return Err(too_short(needed, bytes_len));
    }
    Ok(needed)
}

/// Builds [`Error::ValuesTooShort`].
pub(crate) fn values_too_short(needed: usize, actual: usize) -> Error {
    Error::ValuesTooShort { needed, actual }
}

/// Builds [`Error::ValidityTooShort`].
pub(crate) fn validity_too_short(needed: usize, actual: usize) -> Error {
    Error::ValidityTooShort { needed, actual }
}

/// Builds [`Error::OutputTooShort`].
pub(crate) fn output_too_short(needed: usize, actual: usize) -> Error {
    Error::OutputTooShort { needed, actual }
}
