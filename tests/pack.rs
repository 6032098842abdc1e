//! `pack` through the public API: against `pack_naive` on every bit offset
//! 0..64, with the bits around the range checked untouched; round trips
//! through `unpack`; every error and its message.

use bitbytes::raw::{pack_with, Kernel};
use bitbytes::{pack, pack_naive, unpack, Error};
use proptest::prelude::*;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

/// xorshift bytes: about a third zero, the rest 1 or any non-zero value.
fn mask_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut next = move || rng.next_u64();
    (0..n)
        .map(|_| match next() % 3 {
            0 => 0,
            1 => 1,
            _ => (next() >> 8) as u8 | 0x10,
        })
        .collect()
}

#[test]
fn every_offset_and_tail_matches_naive_and_round_trips() {
    let bytes = mask_bytes(4200, 7);
    let junk = mask_bytes(600, 99);
    let lens = (0..=130usize).chain([191, 192, 193, 2047, 2048, 2049, 4200]);
    for len in lens {
        for off in 0..64usize {
            // One byte of slack past the end: it must survive too.
            let need = (off + len).div_ceil(8) + 1;
            let mut want = junk[..need].to_vec();
            let mut got = want.clone();
            pack_naive(&bytes[..len], &mut want, off).unwrap();
            pack(&bytes[..len], &mut got, off).unwrap();
            assert_eq!(got, want, "off {off} len {len}");

            let mut back = vec![7u8; len];
            unpack(&got, None, off, len, false, &mut back).unwrap();
            let expect: Vec<u8> = bytes[..len].iter().map(|&b| u8::from(b != 0)).collect();
            assert_eq!(back, expect, "round trip off {off} len {len}");
        }
    }
}

#[test]
fn every_kernel_agrees_with_the_dispatched_one() {
    let bytes = mask_bytes(3000, 3);
    for kernel in Kernel::available() {
        for off in [0, 1, 7, 8, 13, 63, 64, 100] {
            let (mut want, mut got) = (vec![0x5a; 400], vec![0x5a; 400]);
            pack(&bytes, &mut want, off).unwrap();
            pack_with(kernel, &bytes, &mut got, off).unwrap();
            assert_eq!(got, want, "{kernel} off {off}");
        }
    }
}

#[test]
fn errors_are_reported_with_their_numbers_and_write_nothing() {
    let mut out = [0xa5u8; 3];
    let err = pack(&[1; 20], &mut out, 5).unwrap_err();
    assert_eq!(
        err,
        Error::OutputTooShort {
            needed: 4,
            actual: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "output too short: length 4 needed, 3 given"
    );
    assert_eq!(pack_naive(&[1; 20], &mut out, 5), Err(err));

    let err = pack(&[1; 2], &mut out, usize::MAX - 1).unwrap_err();
    assert_eq!(
        err,
        Error::Overflow {
            bit_offset: usize::MAX - 1,
            len: 2
        }
    );
    assert_eq!(
        err.to_string(),
        format!("bit_offset {} + len 2 overflows usize", usize::MAX - 1)
    );
    for kernel in Kernel::available() {
        assert!(pack_with(kernel, &[0; 25], &mut out, 0).is_err());
    }
    assert_eq!(out, [0xa5; 3]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pack_matches_naive_anywhere(
        bytes in prop::collection::vec(prop_oneof![Just(0u8), Just(1u8), any::<u8>()], 0..700),
        off in 0usize..200,
        slack in 0usize..3,
        junk in any::<u64>(),
    ) {
        let need = (off + bytes.len()).div_ceil(8) + slack;
        let mut want = mask_bytes(need, junk | 1);
        let mut got = want.clone();
        pack_naive(&bytes, &mut want, off).unwrap();
        pack(&bytes, &mut got, off).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn too_short_output_is_an_error_and_untouched(
        len in 1usize..300,
        off in 0usize..64,
        short in 1usize..4,
    ) {
        let need = (off + len).div_ceil(8);
        let mut out = vec![0x3c; need.saturating_sub(short)];
        let err = pack(&vec![1; len], &mut out, off).unwrap_err();
        prop_assert_eq!(err, Error::OutputTooShort { needed: need, actual: out.len() });
        prop_assert!(out.iter().all(|&b| b == 0x3c));
    }
}

/// quickcheck: unpack after pack gives back the 0/1 bytes.
#[test]
fn quickcheck_unpack_inverts_pack() {
    fn prop(bytes: Vec<u8>, off: u8) -> bool {
        let off = usize::from(off);
        let mut bits = vec![0u8; (off + bytes.len()).div_ceil(8)];
        pack(&bytes, &mut bits, off).unwrap();
        let mut back = vec![0u8; bytes.len()];
        unpack(&bits, None, off, bytes.len(), false, &mut back).unwrap();
        back.iter()
            .zip(&bytes)
            .all(|(&b, &x)| b == u8::from(x != 0))
    }
    quickcheck::quickcheck(prop as fn(Vec<u8>, u8) -> bool);
}
