//! `pack` (every available kernel) against `pack_naive`: same result, same
//! error, bits outside the range untouched, nothing written on error.
#![no_main]

use bitbytes::pack_naive;
use bitbytes::raw::{pack_with, Kernel};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, bytes) = data.split_at(4);
    let bit_offset = usize::from(u16::from_le_bytes([head[0], head[1]]) & 0x3ff);
    // An output a little shorter or longer than needed, to reach the error path.
    let need = (bit_offset + bytes.len()).div_ceil(8);
    let out_len = (need + usize::from(head[2] % 4)).saturating_sub(usize::from(head[3] % 3));
    let junk: Vec<u8> = (0..out_len)
        .map(|i| (i as u8).wrapping_mul(151) ^ head[3])
        .collect();

    let mut want = junk.clone();
    let expect = pack_naive(bytes, &mut want, bit_offset);
    for kernel in Kernel::available() {
        let mut got = junk.clone();
        let res = pack_with(kernel, bytes, &mut got, bit_offset);
        assert_eq!(res, expect, "{kernel}");
        assert_eq!(got, want, "{kernel}");
        if res.is_err() {
            assert_eq!(got, junk, "{kernel} wrote on error");
        }
    }
});
