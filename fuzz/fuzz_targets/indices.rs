//! Selection vectors (every available kernel) against the oracles: same
//! result, same error, same indices; nothing written past the count or on
//! error. Bitmaps, masks, offsets, bases and output lengths come from the
//! input, densities from the input's own bytes.
#![no_main]

use bitbytes::raw::{
    count_selected_with, mask_count_with, mask_to_indices_naive, mask_to_indices_with,
    unpack_indices_naive, unpack_indices_offsets_naive, unpack_indices_offsets_with,
    unpack_indices_with, IndicesKernel,
};
use libfuzzer_sys::fuzz_target;

const GUARD: u32 = 0xA5A5_A5A5;

fuzz_target!(|data: &[u8]| {
    if data.len() < 12 {
        return;
    }
    let (head, rest) = data.split_at(12);
    let bit_offset = usize::from(head[0]) | (usize::from(head[1] & 1) << 8);
    let len = usize::from(u16::from_le_bytes([head[2], head[3]]) & 0x3fff);
    let negate = head[4] & 1 == 1;
    let with_validity = head[4] & 2 == 2;
    let separate_offset = head[4] & 4 == 4;
    // Bases near u32::MAX reach the overflow check.
    let base = match head[4] >> 6 {
        0 => 0,
        1 => u32::from_le_bytes([head[5], head[6], head[7], head[8]]),
        _ => u32::MAX - u32::from(u16::from_le_bytes([head[5], head[6]])),
    };
    let validity_offset = usize::from(head[9]);
    // Outputs from empty to a little past `len`.
    let out_len = usize::from(u16::from_le_bytes([head[10], head[11]])) % (len + 80);
    let (values, validity) = rest.split_at(rest.len() / 2);
    let validity = with_validity.then_some(validity);

    let run = |f: &dyn Fn(&mut [u32]) -> Result<usize, bitbytes::Error>| {
        let mut out = vec![GUARD; out_len];
        let res = f(&mut out);
        let n = *res.as_ref().unwrap_or(&0);
        assert!(out[n..].iter().all(|&x| x == GUARD), "wrote past the count");
        (res, out)
    };
    let want = if separate_offset {
        let v = validity.map(|v| (v, validity_offset));
        run(&|o| unpack_indices_offsets_naive(values, bit_offset, v, len, negate, base, o))
    } else {
        run(&|o| unpack_indices_naive(values, validity, bit_offset, len, negate, base, o))
    };
    let mut all = vec![0u32; len];
    let count = unpack_indices_naive(values, validity, bit_offset, len, negate, 0, &mut all);
    for k in IndicesKernel::available() {
        let got = if separate_offset {
            let v = validity.map(|v| (v, validity_offset));
            run(&|o| unpack_indices_offsets_with(k, values, bit_offset, v, len, negate, base, o))
        } else {
            run(&|o| unpack_indices_with(k, values, validity, bit_offset, len, negate, base, o))
        };
        assert_eq!(got, want, "{k}");
        assert_eq!(
            count_selected_with(k, values, validity, bit_offset, len, negate),
            count,
            "{k} count"
        );
    }

    // The same bytes as a mask.
    let mask = &rest[..len.min(rest.len())];
    let want = run(&|o| mask_to_indices_naive(mask, base, o));
    let nonzero = mask.iter().filter(|&&b| b != 0).count();
    for k in IndicesKernel::available() {
        assert_eq!(
            run(&|o| mask_to_indices_with(k, mask, base, o)),
            want,
            "{k} mask"
        );
        assert_eq!(mask_count_with(k, mask), nonzero, "{k} mask_count");
    }
});
