//! A `#![no_std]` binary that calls `bitbytes::unpack` and checks its result
//! (exit code 0 when right, 1 when wrong).
#![no_std]
#![no_main]

use core::panic::PanicInfo;

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    loop {}
}

/// Referenced by the precompiled `core`, never called with `panic = "abort"`.
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

#[link(name = "c")]
extern "C" {}

#[no_mangle]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    let values = [0b1010_1101u8, 0b1111_0000, 0x0f];
    let validity = [0xffu8, 0b0111_1111, 0xff];
    let mut out = [9u8; 20];
    if bitbytes::unpack(&values, Some(&validity), 3, 20, true, &mut out).is_err() {
        return 1;
    }
    let mut want = [9u8; 20];
    if bitbytes::unpack_naive(&values, Some(&validity), 3, 20, true, &mut want).is_err() {
        return 1;
    }
    // Row 12 (bit 15) is null: 0 even though negate is on.
    // Rows 0 and 1 are bits 3 and 4 of 0b1010_1101 (1 and 0), negated.
    if out != want || out[0] != 0 || out[1] != 1 || out[12] != 0 {
        return 1;
    }
    // Without std the kernel is chosen at compile time: built with
    // `-C target-feature=+avx2` (as CI does once), it must be AVX2.
    let best = bitbytes::raw::Kernel::best().name();
    if cfg!(target_feature = "avx2") && best != "avx2" {
        return 2;
    }
    if cfg!(not(target_feature = "avx2")) && best != "sse2" {
        return 3;
    }
    // Selection vectors: the rows `out` holds 1 for, as indices from 100.
    let mut idx = [0u32; 20];
    let mut idx_naive = [0u32; 20];
    let n = bitbytes::unpack_indices(&values, Some(&validity), 3, 20, true, 100, &mut idx);
    let m = bitbytes::raw::unpack_indices_naive(
        &values,
        Some(&validity),
        3,
        20,
        true,
        100,
        &mut idx_naive,
    );
    let ones = out.iter().filter(|&&b| b == 1).count();
    if n != m || n != Ok(ones) || idx != idx_naive || bitbytes::mask_count(&out) != ones {
        return 4;
    }
    let mut short = [0u8; 3];
    match bitbytes::unpack(&values, None, 0, 4, false, &mut short) {
        Err(bitbytes::Error::OutputTooShort {
            needed: 4,
            actual: 3,
        }) => 0,
        _ => 1,
    }
}
