//! Property tests (proptest and quickcheck): every kernel equals the oracle on
//! arbitrary bitmaps, offsets, lengths, negate, validity, and on bad input
//! returns the same `Err` and writes nothing.

use bitbytes::raw::{unpack_offsets_naive, unpack_offsets_with, unpack_with, Kernel};
use bitbytes::unpack_naive;
use proptest::prelude::*;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;
#[path = "support/bitmap_case.rs"]
mod bitmap_case;
use bitmap_case::BitmapCase;

/// Runs every kernel and the oracle on one input; returns an error message on
/// the first disagreement.
fn agree(
    values: &[u8],
    validity: Option<&[u8]>,
    off: usize,
    len: usize,
    negate: bool,
    out_len: usize,
) -> Result<(), String> {
    let mut want = vec![0xC3u8; out_len];
    let expect = unpack_naive(values, validity, off, len, negate, &mut want);
    for k in Kernel::available() {
        let mut got = vec![0xC3u8; out_len];
        let res = unpack_with(k, values, validity, off, len, negate, &mut got);
        if res != expect {
            return Err(format!("{k}: {res:?} != {expect:?}"));
        }
        if got != want {
            return Err(format!("{k}: output differs"));
        }
        if res.is_err() && got.iter().any(|&b| b != 0xC3) {
            return Err(format!("{k}: wrote on error"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn kernels_equal_oracle(
        values in proptest::collection::vec(any::<u8>(), 0..600),
        validity in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..600)),
        off in 0usize..200,
        len in 0usize..4000,
        negate: bool,
        out_slack in -3i64..4,
    ) {
        let out_len = (len as i64 + out_slack).max(0) as usize;
        agree(&values, validity.as_deref(), off, len, negate, out_len).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn valid_inputs_always_succeed(
        off in 0usize..130,
        len in 0usize..3000,
        negate: bool,
        seed: u64,
        with_validity: bool,
    ) {
        let need = (off + len).div_ceil(8);
        let mut rng = XorShift::new(seed | 1);
        let values = rng.bytes(need);
        let validity = rng.validity(need);
        let v = with_validity.then_some(&validity[..]);
        let mut out = vec![0u8; len];
        prop_assert!(bitbytes::unpack(&values, v, off, len, negate, &mut out).is_ok());
        agree(&values, v, off, len, negate, len).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn separate_validity_offset(
        values in proptest::collection::vec(any::<u8>(), 0..300),
        validity in proptest::collection::vec(any::<u8>(), 0..300),
        off in 0usize..100,
        voff in 0usize..100,
        len in 0usize..2200,
        negate: bool,
    ) {
        let mut want = vec![1u8; len];
        let expect = unpack_offsets_naive(&values, off, Some((&validity, voff)), len, negate, &mut want);
        for k in Kernel::available() {
            let mut got = vec![1u8; len];
            let res = unpack_offsets_with(k, &values, off, Some((&validity, voff)), len, negate, &mut got);
            prop_assert_eq!(&res, &expect, "{}", k);
            prop_assert_eq!(&got, &want, "{}", k);
        }
    }
}

#[test]
fn quickcheck_kernels_equal_oracle() {
    fn prop(c: BitmapCase) -> bool {
        // Mostly long enough, one time in eight a byte short, up to 2 over.
        let short = usize::from(c.out_pick.is_multiple_of(8));
        let out_len = c.len.saturating_sub(short) + c.out_pick / 8 % 3;
        agree(
            &c.values,
            c.validity.as_deref(),
            c.off,
            c.len,
            c.negate,
            out_len,
        )
        .is_ok()
    }
    quickcheck::QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(BitmapCase) -> bool);
}
