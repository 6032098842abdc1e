//! Every `(bit_offset, len)` slice of a bitmap whose value and null patterns
//! repeat with periods that are not multiples of 8, every kernel, both negate
//! values, with and without validity, against the oracle.

use bitbytes::raw::{unpack_offsets_naive, unpack_offsets_with, unpack_with, Kernel};
use bitbytes::unpack_naive;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

const ROWS: usize = 700;

/// A bitmap of `ROWS` bits where bit `i` is set when `pred(i)`.
fn bitmap(pred: impl Fn(usize) -> bool) -> Vec<u8> {
    let mut b = vec![0u8; ROWS.div_ceil(8)];
    for i in 0..ROWS {
        if pred(i) {
            b[i / 8] |= 1 << (i % 8);
        }
    }
    b
}

/// Row `i` by the definition, read straight from the pattern functions.
fn expected(
    value: &dyn Fn(usize) -> bool,
    valid: Option<&dyn Fn(usize) -> bool>,
    i: usize,
    negate: bool,
) -> u8 {
    let ok = valid.is_none_or(|v| v(i));
    u8::from(ok && value(i) != negate)
}

#[test]
fn every_slice_every_kernel() {
    let value = |i: usize| i % 13 < 6 || i % 7 == 3;
    let valid = |i: usize| i % 11 != 4 && i % 11 != 9;
    let values = bitmap(value);
    let validity = bitmap(valid);
    let kernels: Vec<Kernel> = Kernel::available().collect();
    let mut got = vec![0u8; ROWS + 4];
    for off in 0..ROWS {
        // every length up to 200, then strides reaching the end
        let lens = (0..=(ROWS - off).min(200))
            .chain((201..=(ROWS - off)).step_by(37))
            .chain([ROWS - off]);
        for len in lens {
            let need = (off + len).div_ceil(8);
            for negate in [false, true] {
                for with_validity in [false, true] {
                    let v = with_validity.then(|| &validity[..need]);
                    let want: Vec<u8> = (0..len)
                        .map(|i| {
                            let f: &dyn Fn(usize) -> bool = &valid;
                            expected(&value, with_validity.then_some(f), off + i, negate)
                        })
                        .collect();
                    let mut naive = vec![0xEEu8; len + 4];
                    unpack_naive(&values[..need], v, off, len, negate, &mut naive).unwrap();
                    assert_eq!(&naive[..len], &want[..], "oracle: off {off} len {len}");
                    for &k in &kernels {
                        got[..len + 4].fill(0xEE);
                        unpack_with(k, &values[..need], v, off, len, negate, &mut got[..len + 4])
                            .unwrap();
                        assert_eq!(
                            &got[..len],
                            &want[..],
                            "{k}: off {off} len {len} negate {negate} validity {with_validity}"
                        );
                        assert_eq!(
                            &got[len..len + 4],
                            &[0xEE; 4],
                            "{k}: wrote past len (off {off} len {len})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn validity_with_its_own_offset() {
    // 100 bytes: up to 700 rows from offset 63, so lengths reach the SIMD
    // bodies (4+ words) with a validity shift that differs from the values'.
    let values: Vec<u8> = (0..100u8).map(|i| i.wrapping_mul(0x9d) ^ 0x3c).collect();
    let validity: Vec<u8> = (0..100u8).map(|i| i.wrapping_mul(0x5b) | 0x11).collect();
    for voff in 0..64 {
        for off in [0usize, 1, 3, 7, 8, 13, 63] {
            for len in [
                0usize, 1, 7, 63, 64, 65, 127, 128, 129, 200, 256, 257, 320, 511, 700,
            ] {
                let vneed = (voff + len).div_ceil(8);
                let need = (off + len).div_ceil(8);
                for negate in [false, true] {
                    let mut want = vec![7u8; len + 1];
                    unpack_offsets_naive(
                        &values[..need],
                        off,
                        Some((&validity[..vneed], voff)),
                        len,
                        negate,
                        &mut want,
                    )
                    .unwrap();
                    for k in Kernel::available() {
                        let mut got = vec![7u8; len + 1];
                        unpack_offsets_with(
                            k,
                            &values[..need],
                            off,
                            Some((&validity[..vneed], voff)),
                            len,
                            negate,
                            &mut got,
                        )
                        .unwrap();
                        assert_eq!(
                            got, want,
                            "{k}: voff {voff} off {off} len {len} negate {negate}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn kernels_are_listed_narrowest_first_and_best_is_avx2_where_present() {
    let all: Vec<Kernel> = Kernel::available().collect();
    assert_eq!(all[0], Kernel::portable());
    assert!(all.contains(&Kernel::best()));
    let names: Vec<&str> = all.iter().map(|k| k.name()).collect();
    let order = ["portable", "sse2", "avx2", "avx512bw"];
    let mut positions = names
        .iter()
        .map(|n| order.iter().position(|o| o == n).unwrap());
    let mut last = positions.next().unwrap();
    for p in positions {
        assert!(p > last, "{names:?}");
        last = p;
    }
    #[cfg(target_arch = "x86_64")]
    {
        assert!(names.contains(&"sse2"));
        // The dispatch rule: AVX2 where present, never AVX-512.
        let want = if names.contains(&"avx2") {
            "avx2"
        } else {
            "sse2"
        };
        assert_eq!(Kernel::best().name(), want);
    }
}

#[test]
fn large_outputs_take_the_streaming_path() {
    let len = bitbytes::raw::stream_min_bytes() + 77;
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    let values = rng.bytes(len / 8 + 2);
    let validity = rng.validity(len / 8 + 2);
    let mut buf = vec![0u8; len + 128];
    for off in [0usize, 5] {
        let need = (off + len).div_ceil(8);
        let mut want = vec![0u8; len];
        unpack_naive(
            &values[..need],
            Some(&validity[..need]),
            off,
            len,
            true,
            &mut want,
        )
        .unwrap();
        for k in Kernel::available() {
            // Output starting at several alignments: the scalar head differs.
            for at in [0usize, 13] {
                let at = at + buf.as_ptr().align_offset(64);
                let out = &mut buf[at..at + len];
                out.fill(7);
                unpack_with(
                    k,
                    &values[..need],
                    Some(&validity[..need]),
                    off,
                    len,
                    true,
                    out,
                )
                .unwrap();
                assert!(out == &want[..], "{k}: off {off} at {at}");
            }
        }
    }
}
