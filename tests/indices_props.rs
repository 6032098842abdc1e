//! Property tests (proptest and quickcheck) of selection vectors: every
//! kernel equals the oracle on arbitrary bitmaps, masks, offsets, lengths,
//! densities, negate, validity, bases and output lengths; on bad input it
//! returns the oracle's `Err` and writes nothing; only `out[..count]` is
//! ever written.

use bitbytes::raw::{
    count_selected_offsets, count_selected_with, mask_count_with, mask_to_indices_naive,
    mask_to_indices_with, unpack_indices_naive, unpack_indices_offsets_naive,
    unpack_indices_offsets_with, unpack_indices_with, IndicesKernel,
};
use bitbytes::Error;
use proptest::prelude::*;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;
#[path = "support/bitmap_case.rs"]
mod bitmap_case;
use bitmap_case::{bits, BitmapCase};

const GUARD: u32 = 0xA5A5_A5A5;

/// `f` (one kernel) against `oracle` into `out_len` guard-filled slots: same
/// result, same output, nothing written past the count or on error.
fn same(
    name: &str,
    out_len: usize,
    oracle: impl Fn(&mut [u32]) -> Result<usize, Error>,
    f: impl Fn(&mut [u32]) -> Result<usize, Error>,
) -> Result<(), String> {
    let mut want = vec![GUARD; out_len];
    let expect = oracle(&mut want);
    let mut got = vec![GUARD; out_len];
    let res = f(&mut got);
    if res != expect {
        return Err(format!("{name}: {res:?} != {expect:?}"));
    }
    if got != want {
        return Err(format!("{name}: output differs"));
    }
    let written = res.unwrap_or(0);
    if got[written..].iter().any(|&x| x != GUARD) {
        return Err(format!("{name}: wrote past the count or on error"));
    }
    Ok(())
}

/// Every kernel against the oracle on one bitmap input.
#[allow(clippy::too_many_arguments)]
fn agree(
    values: &[u8],
    validity: Option<&[u8]>,
    off: usize,
    len: usize,
    negate: bool,
    base: u32,
    out_len: usize,
) -> Result<(), String> {
    let oracle = |o: &mut [u32]| unpack_indices_naive(values, validity, off, len, negate, base, o);
    for k in IndicesKernel::available() {
        same(&format!("{k}"), out_len, oracle, |o| {
            unpack_indices_with(k, values, validity, off, len, negate, base, o)
        })?;
        let count = count_selected_with(k, values, validity, off, len, negate);
        // The count does not depend on `base` (nor on its overflow).
        let mut all = vec![0u32; len];
        let want = unpack_indices_naive(values, validity, off, len, negate, 0, &mut all);
        if count != want {
            return Err(format!("{k} count_selected: {count:?} != {want:?}"));
        }
    }
    Ok(())
}

/// Every kernel against the oracle on one mask.
fn agree_mask(mask: &[u8], base: u32, out_len: usize) -> Result<(), String> {
    let oracle = |o: &mut [u32]| mask_to_indices_naive(mask, base, o);
    for k in IndicesKernel::available() {
        same(&format!("{k} mask"), out_len, oracle, |o| {
            mask_to_indices_with(k, mask, base, o)
        })?;
        let n = mask.iter().filter(|&&b| b != 0).count();
        if mask_count_with(k, mask) != n {
            return Err(format!("{k} mask_count"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn kernels_equal_oracle(
        values in proptest::collection::vec(any::<u8>(), 0..700),
        validity in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..700)),
        off in 0usize..200,
        len in 0usize..5000,
        negate: bool,
        base in prop_oneof![Just(0u32), any::<u32>(), (u32::MAX - 5000)..=u32::MAX],
        out_len in 0usize..5100,
    ) {
        agree(&values, validity.as_deref(), off, len, negate, base, out_len)
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn every_density_every_output_length(
        seed: u64,
        density in 0u64..=64,
        off in 0usize..64,
        len in 0usize..9000,
        negate: bool,
        with_validity: bool,
        slack in -70i64..70,
    ) {
        let need = (off + len).div_ceil(8);
        let values = bits(seed, need, density);
        let validity = XorShift::new(seed ^ 0x55).validity(need);
        let v = with_validity.then_some(&validity[..]);
        let mut all = vec![0u32; len];
        let count = unpack_indices_naive(&values, v, off, len, negate, 3, &mut all).unwrap();
        // Around the exact count: too short, exact, and longer.
        let out_len = (count as i64 + slack).max(0) as usize;
        agree(&values, v, off, len, negate, 3, out_len).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn separate_validity_offset(
        seed: u64,
        density in 0u64..=64,
        off in 0usize..100,
        voff in 0usize..100,
        len in 0usize..3000,
        negate: bool,
        out_len in 0usize..3100,
    ) {
        let values = bits(seed, (off + len).div_ceil(8), density);
        let validity = XorShift::new(seed ^ 0x77).validity((voff + len).div_ceil(8));
        let v = Some((&validity[..], voff));
        let oracle =
            |o: &mut [u32]| unpack_indices_offsets_naive(&values, off, v, len, negate, 0, o);
        for k in IndicesKernel::available() {
            same(&format!("{k} offsets"), out_len, oracle, |o| {
                unpack_indices_offsets_with(k, &values, off, v, len, negate, 0, o)
            })
            .map_err(TestCaseError::fail)?;
        }
        let mut all = vec![0u32; len];
        let count = unpack_indices_offsets_naive(&values, off, v, len, negate, 0, &mut all);
        prop_assert_eq!(count_selected_offsets(&values, off, v, len, negate), count);
    }

    #[test]
    fn masks_equal_oracle(
        seed: u64,
        density in 0u64..=64,
        len in 0usize..9000,
        base in prop_oneof![Just(0u32), (u32::MAX - 9000)..=u32::MAX],
        slack in -70i64..70,
    ) {
        let mut rng = XorShift::new(seed | 1);
        let mask: Vec<u8> = (0..len)
            .map(|_| if rng.next_u64() % 64 < density { rng.next_u8() | 0x10 } else { 0 })
            .collect();
        let count = mask.iter().filter(|&&b| b != 0).count();
        let out_len = (count as i64 + slack).max(0) as usize;
        agree_mask(&mask, base, out_len).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn quickcheck_kernels_equal_oracle() {
    fn prop(c: BitmapCase) -> bool {
        agree(
            &c.values,
            c.validity.as_deref(),
            c.off,
            c.len,
            c.negate,
            c.base,
            c.out_pick % (c.len + 2),
        )
        .map_err(|e| eprintln!("{e}"))
        .is_ok()
    }
    quickcheck::QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(BitmapCase) -> bool);
}

#[test]
fn quickcheck_masks_equal_oracle() {
    fn prop(mask: Vec<u8>, base: u32, out_len: usize) -> bool {
        agree_mask(&mask, base, out_len % (mask.len() + 2))
            .map_err(|e| eprintln!("{e}"))
            .is_ok()
    }
    quickcheck::QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Vec<u8>, u32, usize) -> bool);
}
