//! `unpack` (every available kernel) against `unpack_naive`: same result,
//! same error, output untouched on error and past `len`.
#![no_main]

use bitbytes::raw::{unpack_naive, unpack_offsets_naive, unpack_offsets_with, unpack_with, Kernel};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let (head, rest) = data.split_at(8);
    let bit_offset = usize::from(head[0]) | (usize::from(head[1] & 1) << 8);
    let len = usize::from(u16::from_le_bytes([head[2], head[3]]) & 0x1fff);
    let negate = head[4] & 1 == 1;
    let with_validity = head[4] & 2 == 2;
    let separate_offset = head[4] & 4 == 4;
    let validity_offset = usize::from(head[5]);
    // Output a little shorter or longer than needed, to reach the error path.
    let out_len = (len + usize::from(head[6] % 8)).saturating_sub(usize::from(head[7] % 4));
    // Bitmaps cut exactly from the input, so a read past the end is caught.
    let (values, validity) = rest.split_at(rest.len() / 2);
    let validity = with_validity.then_some(validity);

    let mut want = vec![0xA5u8; out_len];
    let expect = if separate_offset {
        unpack_offsets_naive(
            values,
            bit_offset,
            validity.map(|v| (v, validity_offset)),
            len,
            negate,
            &mut want,
        )
    } else {
        unpack_naive(values, validity, bit_offset, len, negate, &mut want)
    };
    for kernel in Kernel::available() {
        let mut got = vec![0xA5u8; out_len];
        let res = if separate_offset {
            unpack_offsets_with(
                kernel,
                values,
                bit_offset,
                validity.map(|v| (v, validity_offset)),
                len,
                negate,
                &mut got,
            )
        } else {
            unpack_with(kernel, values, validity, bit_offset, len, negate, &mut got)
        };
        assert_eq!(res, expect, "{kernel}");
        assert_eq!(got, want, "{kernel}");
        if res.is_err() {
            assert!(got.iter().all(|&b| b == 0xA5), "{kernel} wrote on error");
        }
    }
});
