//! Each kind of bad input to the selection-vector functions is its own `Err`
//! with a message naming the numbers, the same one `unpack` gives for the
//! same bitmaps, and nothing is written.

use bitbytes::raw::{
    count_selected_with, mask_to_indices_naive, mask_to_indices_with, unpack_indices_naive,
    unpack_indices_offsets, unpack_indices_with, IndicesKernel,
};
use bitbytes::{count_selected, mask_to_indices, unpack, unpack_indices, Error};

const GUARD: u32 = 0x5A5A_5A5A;

/// Every entry point of `unpack_indices` (dispatched, oracle, each kernel)
/// must reject the call with `want` and its message `msg`, writing nothing.
#[allow(clippy::too_many_arguments)]
fn assert_rejected(
    values: &[u8],
    validity: Option<&[u8]>,
    off: usize,
    len: usize,
    base: u32,
    out_len: usize,
    want: Error,
    msg: &str,
) {
    let mut calls: Vec<(String, Result<usize, Error>, Vec<u32>)> = Vec::new();
    let mut run = |name: String, f: &dyn Fn(&mut [u32]) -> Result<usize, Error>| {
        let mut out = vec![GUARD; out_len];
        let res = f(&mut out);
        calls.push((name, res, out));
    };
    run("unpack_indices".into(), &|o| {
        unpack_indices(values, validity, off, len, false, base, o)
    });
    run("unpack_indices_naive".into(), &|o| {
        unpack_indices_naive(values, validity, off, len, false, base, o)
    });
    run("unpack_indices_offsets".into(), &|o| {
        unpack_indices_offsets(values, off, validity.map(|v| (v, off)), len, false, base, o)
    });
    for k in IndicesKernel::available() {
        run(format!("unpack_indices_with({k})"), &|o| {
            unpack_indices_with(k, values, validity, off, len, false, base, o)
        });
    }
    for (name, res, out) in calls {
        let err = res.unwrap_err();
        assert_eq!(err, want, "{name}");
        assert_eq!(err.to_string(), msg, "{name}");
        assert!(out.iter().all(|&x| x == GUARD), "{name} wrote on error");
    }
}

/// `unpack` (with an output long enough) gives the same error for the same
/// bitmaps.
fn assert_unpack_agrees(values: &[u8], validity: Option<&[u8]>, off: usize, len: usize) -> Error {
    let mut bytes = vec![0u8; len.min(1 << 16)];
    let from_unpack = unpack(values, validity, off, len, false, &mut bytes);
    let from_indices = count_selected(values, validity, off, len, false);
    assert_eq!(from_indices.clone().map(|_| ()), from_unpack);
    for k in IndicesKernel::available() {
        assert_eq!(
            count_selected_with(k, values, validity, off, len, false),
            from_indices,
            "{k}"
        );
    }
    from_indices.unwrap_err()
}

#[test]
fn output_shorter_than_the_count() {
    // 20 rows, 12 of them selected (0xff, 0x0f, then 0x00): 11 slots are one
    // too few, though 12 are fewer than the 20 rows and enough.
    let values = [0xff, 0x0f, 0x00];
    assert_rejected(
        &values,
        None,
        0,
        20,
        0,
        11,
        Error::OutputTooShort {
            needed: 12,
            actual: 11,
        },
        "output too short: length 12 needed, 11 given",
    );
    let mut out = [0u32; 12];
    assert_eq!(
        unpack_indices(&values, None, 0, 20, false, 0, &mut out),
        Ok(12)
    );
}

#[test]
fn values_too_short() {
    let want = Error::ValuesTooShort {
        needed: 3,
        actual: 2,
    };
    assert_eq!(assert_unpack_agrees(&[0xff; 2], None, 3, 14), want);
    assert_rejected(
        &[0xff; 2],
        None,
        3,
        14,
        0,
        14,
        want,
        "values bitmap too short: 3 bytes needed, 2 given",
    );
}

#[test]
fn validity_too_short() {
    let want = Error::ValidityTooShort {
        needed: 3,
        actual: 1,
    };
    assert_eq!(assert_unpack_agrees(&[0xff; 3], Some(&[0xff]), 3, 14), want);
    assert_rejected(
        &[0xff; 3],
        Some(&[0xff]),
        3,
        14,
        0,
        14,
        want,
        "validity bitmap too short: 3 bytes needed, 1 given",
    );
}

#[test]
fn offset_plus_len_overflows_usize() {
    let want = Error::Overflow {
        bit_offset: usize::MAX,
        len: 2,
    };
    assert_eq!(assert_unpack_agrees(&[0xff; 2], None, usize::MAX, 2), want);
    assert_rejected(
        &[0xff; 2],
        None,
        usize::MAX,
        2,
        0,
        4,
        want,
        &format!("bit_offset {} + len 2 overflows usize", usize::MAX),
    );
}

#[test]
fn index_overflows_u32() {
    // Rows 0..10 from base u32::MAX - 8: the last index would be u32::MAX + 1.
    let base = u32::MAX - 8;
    assert_rejected(
        &[0xff; 2],
        None,
        0,
        10,
        base,
        10,
        Error::IndexOverflow { base, len: 10 },
        "row index overflows u32: base 4294967287 + len 10 - 1 exceeds 4294967295",
    );
    // One row fewer fits exactly, up to u32::MAX.
    let mut out = [0u32; 9];
    assert_eq!(
        unpack_indices(&[0xff; 2], None, 0, 9, false, base, &mut out),
        Ok(9)
    );
    assert_eq!(out[8], u32::MAX);
    // Checked even when nothing is selected: the contract is about `len`.
    assert_eq!(
        unpack_indices(&[0; 2], None, 0, 10, false, base, &mut out),
        Err(Error::IndexOverflow { base, len: 10 })
    );
}

#[test]
fn mask_errors() {
    let mask = [1u8, 0, 2, 3, 0, 4];
    for (name, f) in [
        (
            "mask_to_indices",
            mask_to_indices as fn(&[u8], u32, &mut [u32]) -> _,
        ),
        ("mask_to_indices_naive", mask_to_indices_naive),
    ]
    .into_iter()
    .map(|(n, f)| (n.to_string(), f))
    {
        let mut out = [GUARD; 3];
        let err = f(&mask, 0, &mut out).unwrap_err();
        assert_eq!(
            err,
            Error::OutputTooShort {
                needed: 4,
                actual: 3
            },
            "{name}"
        );
        assert!(out.iter().all(|&x| x == GUARD), "{name} wrote on error");
        let err = f(&mask, u32::MAX - 4, &mut [0; 6]).unwrap_err();
        assert_eq!(
            err,
            Error::IndexOverflow {
                base: u32::MAX - 4,
                len: 6
            },
            "{name}"
        );
        assert_eq!(f(&mask, u32::MAX - 5, &mut [0; 4]), Ok(4), "{name}");
    }
    for k in IndicesKernel::available() {
        let mut out = [GUARD; 3];
        assert_eq!(
            mask_to_indices_with(k, &mask, 0, &mut out),
            Err(Error::OutputTooShort {
                needed: 4,
                actual: 3
            }),
            "{k}"
        );
        assert!(out.iter().all(|&x| x == GUARD), "{k} wrote on error");
    }
}

#[test]
fn empty_inputs_are_fine() {
    let mut out: [u32; 0] = [];
    assert_eq!(
        unpack_indices(&[], None, 0, 0, false, u32::MAX, &mut out),
        Ok(0)
    );
    assert_eq!(mask_to_indices(&[], u32::MAX, &mut out), Ok(0));
    assert_eq!(mask_to_indices(&[0; 100], 7, &mut out), Ok(0));
    // A single row at u32::MAX fits.
    assert_eq!(mask_to_indices(&[1], u32::MAX, &mut [0]), Ok(1));
    assert_eq!(count_selected(&[], None, 0, 0, true), Ok(0));
}
