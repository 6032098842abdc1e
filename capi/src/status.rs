//! The status codes every C function returns, their messages, and the
//! mapping from [`bitbytes::Error`].
//!
//! The numbers are part of the ABI: a code never changes meaning, new codes
//! take new numbers. `include/bitbytes.h` defines the same names and values
//! (`BITBYTES_OK`, `BITBYTES_ERR_...`); a test reads the header and checks
//! that both lists agree.

use core::ffi::{c_int, CStr};

/// A status code: `0` is success, every error is negative.
///
/// Codes `-1..=-9` are the variants of [`bitbytes::Error`] (and a catch-all
/// for variants added after this version), `-10..=-19` pointer and length
/// arguments, `-20..=-29` the Arrow C Data Interface, `-99` a caught panic.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Success.
    Ok = 0,
    /// [`bitbytes::Error::OutputTooShort`].
    OutputTooShort = -1,
    /// [`bitbytes::Error::ValuesTooShort`].
    ValuesTooShort = -2,
    /// [`bitbytes::Error::ValidityTooShort`].
    ValidityTooShort = -3,
    /// [`bitbytes::Error::Overflow`].
    Overflow = -4,
    /// [`bitbytes::Error::CapacityExceeded`].
    CapacityExceeded = -5,
    /// [`bitbytes::Error::IndexOverflow`].
    IndexOverflow = -6,
    /// A variant of [`bitbytes::Error`] newer than this mapping.
    OtherError = -9,
    /// The values bitmap pointer is NULL and its length is not 0.
    NullValues = -10,
    /// The validity pointer is NULL and its length is not 0.
    NullValidity = -11,
    /// The input bytes pointer is NULL and its length is not 0.
    NullInput = -12,
    /// The output pointer is NULL and its length is not 0.
    NullOutput = -13,
    /// A pointer that is always required (an Arrow struct, a `size_t *count`)
    /// is NULL.
    NullArgument = -14,
    /// A buffer length larger than `PTRDIFF_MAX` bytes.
    LengthTooLarge = -15,
    /// The `ArrowArray` or `ArrowSchema` has been released (`release` is NULL).
    ArrowReleased = -20,
    /// The schema's format is not `"b"` (boolean).
    ArrowFormat = -21,
    /// The array does not have the boolean layout: `n_buffers != 2`,
    /// children, or a dictionary.
    ArrowLayout = -22,
    /// A NULL buffer the array needs.
    ArrowNullBuffer = -23,
    /// A negative `offset` or `length`, or `offset + length` out of range.
    ArrowOffsetLength = -24,
    /// The structure of an ArrowArray / ArrowSchema of a batch or of
    /// statistics does not suit its type (format, buffers, children,
    /// dictionary, a batch with null rows).
    ArrowStructure = -25,
    /// Inconsistent Arrow data (offsets, UTF-8, dictionary keys, child
    /// lengths, null counts).
    ArrowData = -26,
    /// The statistics struct does not have the documented layout.
    StatsLayout = -27,
    /// Malformed predicate JSON, or not a valid predicate over the schema.
    Json = -30,
    /// A schema that does not match the predicate.
    SchemaMismatch = -31,
    /// The predicate could not be evaluated or written back.
    Predicate = -32,
    /// A Rust panic was caught (a bug in bitbytes).
    Panic = -99,
}

impl Status {
    /// Every status, in the order of the header.
    pub const ALL: [Status; 26] = [
        Status::Ok,
        Status::OutputTooShort,
        Status::ValuesTooShort,
        Status::ValidityTooShort,
        Status::Overflow,
        Status::CapacityExceeded,
        Status::IndexOverflow,
        Status::OtherError,
        Status::NullValues,
        Status::NullValidity,
        Status::NullInput,
        Status::NullOutput,
        Status::NullArgument,
        Status::LengthTooLarge,
        Status::ArrowReleased,
        Status::ArrowFormat,
        Status::ArrowLayout,
        Status::ArrowNullBuffer,
        Status::ArrowOffsetLength,
        Status::ArrowStructure,
        Status::ArrowData,
        Status::StatsLayout,
        Status::Json,
        Status::SchemaMismatch,
        Status::Predicate,
        Status::Panic,
    ];

    /// The code C sees.
    pub const fn code(self) -> c_int {
        self as c_int
    }

    /// The status of `code`, or `None` for a number that is no code.
    pub fn from_code(code: c_int) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The macro name in `bitbytes.h`.
    pub const fn c_name(self) -> &'static str {
        match self {
            Status::Ok => "BITBYTES_OK",
            Status::OutputTooShort => "BITBYTES_ERR_OUTPUT_TOO_SHORT",
            Status::ValuesTooShort => "BITBYTES_ERR_VALUES_TOO_SHORT",
            Status::ValidityTooShort => "BITBYTES_ERR_VALIDITY_TOO_SHORT",
            Status::Overflow => "BITBYTES_ERR_OVERFLOW",
            Status::CapacityExceeded => "BITBYTES_ERR_CAPACITY_EXCEEDED",
            Status::IndexOverflow => "BITBYTES_ERR_INDEX_OVERFLOW",
            Status::OtherError => "BITBYTES_ERR_OTHER",
            Status::NullValues => "BITBYTES_ERR_NULL_VALUES",
            Status::NullValidity => "BITBYTES_ERR_NULL_VALIDITY",
            Status::NullInput => "BITBYTES_ERR_NULL_INPUT",
            Status::NullOutput => "BITBYTES_ERR_NULL_OUTPUT",
            Status::NullArgument => "BITBYTES_ERR_NULL_ARGUMENT",
            Status::LengthTooLarge => "BITBYTES_ERR_LENGTH_TOO_LARGE",
            Status::ArrowReleased => "BITBYTES_ERR_ARROW_RELEASED",
            Status::ArrowFormat => "BITBYTES_ERR_ARROW_FORMAT",
            Status::ArrowLayout => "BITBYTES_ERR_ARROW_LAYOUT",
            Status::ArrowNullBuffer => "BITBYTES_ERR_ARROW_NULL_BUFFER",
            Status::ArrowOffsetLength => "BITBYTES_ERR_ARROW_OFFSET_LENGTH",
            Status::ArrowStructure => "BITBYTES_ERR_ARROW_STRUCTURE",
            Status::ArrowData => "BITBYTES_ERR_ARROW_DATA",
            Status::StatsLayout => "BITBYTES_ERR_STATS_LAYOUT",
            Status::Json => "BITBYTES_ERR_JSON",
            Status::SchemaMismatch => "BITBYTES_ERR_SCHEMA_MISMATCH",
            Status::Predicate => "BITBYTES_ERR_PREDICATE",
            Status::Panic => "BITBYTES_ERR_PANIC",
        }
    }

    /// The static message `bitbytes_strerror` returns.
    pub const fn message(self) -> &'static CStr {
        match self {
            Status::Ok => c"ok",
            Status::OutputTooShort => {
                c"output too short: out_len is less than the call writes (len bytes for unpack, ceil((bit_offset + len) / 8) bytes for pack, one uint32_t per selected row for the indices functions)"
            }
            Status::ValuesTooShort => {
                c"values bitmap too short: values_len is less than ceil((bit_offset + len) / 8) bytes"
            }
            Status::ValidityTooShort => {
                c"validity bitmap too short: validity_len is less than ceil((bit_offset + len) / 8) bytes"
            }
            Status::Overflow => c"bit_offset + len overflows size_t",
            Status::CapacityExceeded => c"bitmap writer full: the append exceeds its capacity",
            Status::IndexOverflow => {
                c"row index overflows uint32_t: the largest index, base + len - 1, does not fit in uint32_t"
            }
            Status::OtherError => {
                c"bitbytes reported an error that this version of the C API has no code for"
            }
            Status::NullValues => c"values is NULL but values_len is not 0",
            Status::NullValidity => {
                c"validity is NULL but validity_len is not 0 (a NULL validity means no validity bitmap: pass length 0)"
            }
            Status::NullInput => c"the input bytes pointer (pack's bytes, a mask) is NULL but its length is not 0",
            Status::NullOutput => c"out is NULL but its length (out_len, out_cap) is not 0",
            Status::NullArgument => c"a required pointer argument is NULL",
            Status::LengthTooLarge => c"a buffer length exceeds PTRDIFF_MAX bytes",
            Status::ArrowReleased => {
                c"the ArrowArray or ArrowSchema has been released (its release callback is NULL)"
            }
            Status::ArrowFormat => c"the ArrowSchema format is not \"b\" (boolean)",
            Status::ArrowLayout => {
                c"the ArrowArray is not a boolean array: n_buffers is not 2, or it has children or a dictionary"
            }
            Status::ArrowNullBuffer => {
                c"an ArrowArray buffer is NULL where one is needed: buffers itself, the values buffer of a non-empty array, or the validity buffer while null_count > 0"
            }
            Status::ArrowOffsetLength => {
                c"the ArrowArray offset or length is negative, or offset + length does not fit in size_t"
            }
            Status::ArrowStructure => {
                c"an ArrowArray or ArrowSchema does not have the structure its type needs (format, n_buffers, n_children, a NULL child or buffer, dictionary, or a batch struct with null rows); bitbytes_last_error() says which"
            }
            Status::ArrowData => {
                c"inconsistent Arrow data (offsets, UTF-8, dictionary keys, child lengths or null_count); bitbytes_last_error() says which"
            }
            Status::StatsLayout => {
                c"the statistics struct does not have the documented layout (row_count, and per field a struct of min, max, null_count, nan_count); bitbytes_last_error() says which part"
            }
            Status::Json => {
                c"the predicate JSON is malformed or not a valid Paimon predicate over the schema; bitbytes_last_error() says where"
            }
            Status::SchemaMismatch => {
                c"the schema does not match the predicate: a field it reads is missing or has another type"
            }
            Status::Predicate => {
                c"the predicate could not be evaluated or written as JSON; bitbytes_last_error() says why"
            }
            Status::Panic => {
                c"internal error: a Rust panic was caught (a bug in bitbytes, please report it); the output may be partly written"
            }
        }
    }
}

impl From<bitbytes::Error> for Status {
    fn from(e: bitbytes::Error) -> Status {
        use bitbytes::Error as E;
        match e {
            E::OutputTooShort { .. } => Status::OutputTooShort,
            E::ValuesTooShort { .. } => Status::ValuesTooShort,
            E::ValidityTooShort { .. } => Status::ValidityTooShort,
            E::Overflow { .. } => Status::Overflow,
            E::CapacityExceeded { .. } => Status::CapacityExceeded,
            E::IndexOverflow { .. } => Status::IndexOverflow,
            // `Error` is `#[non_exhaustive]`: a variant added to bitbytes
            // later still gets a code here. Give it its own: a `Status`
            // variant, a `#define` in bitbytes.h (the header test checks
            // both agree), and a line in the variant test below.
            _ => Status::OtherError,
        }
    }
}

/// The message of `code`; unknown numbers get a message that says so.
pub(crate) fn message_of(code: c_int) -> &'static CStr {
    match Status::from_code(code) {
        Some(s) => s.message(),
        None => c"unknown bitbytes status code",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitbytes::Error;
    use std::collections::HashSet;
    use std::string::{String, ToString};
    use std::vec::Vec;

    #[test]
    fn every_error_variant_has_its_own_code() {
        let errors = [
            Error::OutputTooShort {
                needed: 2,
                actual: 1,
            },
            Error::ValuesTooShort {
                needed: 2,
                actual: 1,
            },
            Error::ValidityTooShort {
                needed: 2,
                actual: 1,
            },
            Error::Overflow {
                bit_offset: usize::MAX,
                len: 1,
            },
            Error::CapacityExceeded {
                len: 1,
                additional: 2,
                capacity: 2,
            },
            Error::IndexOverflow {
                base: u32::MAX,
                len: 2,
            },
        ];
        let codes: HashSet<c_int> = errors
            .iter()
            .map(|e| Status::from(e.clone()).code())
            .collect();
        assert_eq!(codes.len(), errors.len());
        assert!(!codes.contains(&Status::OtherError.code()));
        assert!(codes.iter().all(|&c| (-9..0).contains(&c)));
    }

    #[test]
    fn codes_and_messages_are_distinct() {
        let codes: HashSet<c_int> = Status::ALL.iter().map(|s| s.code()).collect();
        let names: HashSet<&str> = Status::ALL.iter().map(|s| s.c_name()).collect();
        let msgs: HashSet<&CStr> = Status::ALL.iter().map(|s| s.message()).collect();
        assert_eq!(codes.len(), Status::ALL.len());
        assert_eq!(names.len(), Status::ALL.len());
        assert_eq!(msgs.len(), Status::ALL.len());
        for s in Status::ALL {
            assert_eq!(Status::from_code(s.code()), Some(s));
            assert_eq!(message_of(s.code()), s.message());
            assert!(s == Status::Ok || s.code() < 0);
        }
        assert_eq!(message_of(1), c"unknown bitbytes status code");
        assert_eq!(message_of(-1000), c"unknown bitbytes status code");
    }

    /// The header defines exactly the codes of [`Status::ALL`], with the same
    /// names and numbers.
    #[test]
    fn header_agrees_with_the_codes() {
        let header = include_str!("../include/bitbytes.h");
        let mut found: Vec<(String, c_int)> = Vec::new();
        for line in header.lines() {
            let mut words = line.split_whitespace();
            if words.next() != Some("#define") {
                continue;
            }
            let Some(name) = words.next() else { continue };
            if name != "BITBYTES_OK" && !name.starts_with("BITBYTES_ERR_") {
                continue;
            }
            let value = words.next().expect("a value after the name");
            let value = value.trim_start_matches('(').trim_end_matches(')');
            found.push((name.to_string(), value.parse().expect(name)));
        }
        let want: Vec<(String, c_int)> = Status::ALL
            .iter()
            .map(|s| (s.c_name().to_string(), s.code()))
            .collect();
        assert_eq!(found, want);
    }
}
