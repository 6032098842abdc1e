//! Each kind of bad input is its own `Err`, with a message naming the numbers,
//! and nothing is written.

use bitbytes::raw::{unpack_offsets, unpack_with, Kernel};
use bitbytes::{unpack, unpack_naive, Error};

type UnpackFn = fn(&[u8], Option<&[u8]>, usize, usize, bool, &mut [u8]) -> Result<(), Error>;

/// Every way to call unpack with the same arguments, named for messages.
type Entry = (
    String,
    Box<dyn Fn(&[u8], Option<&[u8]>, usize, usize, bool, &mut [u8]) -> Result<(), Error>>,
);

fn all_entry_points() -> Vec<Entry> {
    let mut v: Vec<Entry> = vec![
        ("unpack".into(), Box::new(unpack as UnpackFn)),
        ("unpack_naive".into(), Box::new(unpack_naive as UnpackFn)),
    ];
    for k in Kernel::available() {
        v.push((
            format!("unpack_with({k})"),
            Box::new(move |a, b, c, d, e, f: &mut [u8]| unpack_with(k, a, b, c, d, e, f)),
        ));
    }
    v
}

fn assert_rejected(
    values: &[u8],
    validity: Option<&[u8]>,
    off: usize,
    len: usize,
    out_len: usize,
    want: Error,
    msg: &str,
) {
    for (name, f) in all_entry_points() {
        let mut out = vec![0x5Au8; out_len];
        let err = f(values, validity, off, len, false, &mut out).unwrap_err();
        assert_eq!(err, want, "{name}");
        assert_eq!(err.to_string(), msg, "{name}");
        assert!(out.iter().all(|&b| b == 0x5A), "{name} wrote on error");
    }
}

#[test]
fn output_too_short() {
    assert_rejected(
        &[0xff; 4],
        None,
        0,
        20,
        19,
        Error::OutputTooShort {
            needed: 20,
            actual: 19,
        },
        "output too short: length 20 needed, 19 given",
    );
}

#[test]
fn values_too_short() {
    // 3 + 14 = 17 bits need 3 bytes.
    assert_rejected(
        &[0xff; 2],
        None,
        3,
        14,
        14,
        Error::ValuesTooShort {
            needed: 3,
            actual: 2,
        },
        "values bitmap too short: 3 bytes needed, 2 given",
    );
}

#[test]
fn validity_too_short() {
    assert_rejected(
        &[0xff; 3],
        Some(&[0xff; 1]),
        3,
        14,
        14,
        Error::ValidityTooShort {
            needed: 3,
            actual: 1,
        },
        "validity bitmap too short: 3 bytes needed, 1 given",
    );
}

#[test]
fn offset_overflow() {
    assert_rejected(
        &[0xff; 3],
        None,
        usize::MAX - 2,
        3,
        3,
        Error::Overflow {
            bit_offset: usize::MAX - 2,
            len: 3,
        },
        &format!("bit_offset {} + len 3 overflows usize", usize::MAX - 2),
    );
}

#[test]
fn validity_offset_overflow_and_length() {
    let mut out = [9u8; 4];
    let err =
        unpack_offsets(&[0xff], 0, Some((&[0xff], usize::MAX)), 4, false, &mut out).unwrap_err();
    assert_eq!(
        err,
        Error::Overflow {
            bit_offset: usize::MAX,
            len: 4
        }
    );
    let err = unpack_offsets(&[0xff], 0, Some((&[0xff], 6)), 4, false, &mut out).unwrap_err();
    assert_eq!(
        err,
        Error::ValidityTooShort {
            needed: 2,
            actual: 1
        }
    );
    assert_eq!(out, [9; 4]);
}

#[test]
fn zero_len_is_ok_and_writes_nothing() {
    for (name, f) in all_entry_points() {
        let mut out = [3u8; 2];
        f(&[], None, 0, 0, true, &mut out).unwrap();
        f(&[], Some(&[]), 0, 0, false, &mut out).unwrap();
        // An offset inside the bitmap with no rows needs no bytes.
        f(&[0xff], None, 8, 0, false, &mut []).unwrap();
        assert_eq!(out, [3, 3], "{name}");
    }
}

#[test]
fn error_is_a_std_error() {
    let e: Box<dyn std::error::Error> = Box::new(Error::OutputTooShort {
        needed: 1,
        actual: 0,
    });
    assert!(e.to_string().contains("output too short"));
}
