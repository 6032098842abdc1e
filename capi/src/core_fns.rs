//! The core as C functions: `bitbytes_unpack`, `bitbytes_unpack_offsets`,
//! `bitbytes_pack`, `bitbytes_kernel_name`, `bitbytes_strerror`.
//!
//! Each converts its pointer/length pairs with the checks of [`crate::ffi`],
//! then calls the bitbytes function of the same name, which checks the rest
//! (lengths, overflow) before it writes anything.

use crate::ffi::{guard, input, optional_input, output};
use crate::status::{message_of, Status};
use core::ffi::{c_char, c_int, CStr};

/// `bitbytes::unpack`: one byte per row, `out[i] = 1` when row `i` is valid
/// and its value bit differs from `negate`.
///
/// Row `i` is bit `bit_offset + i` of `values` and of `validity`. A NULL
/// `validity` with `validity_len == 0` means every row is valid.
///
/// # Safety
///
/// Each non-NULL pointer points to at least as many bytes as its length says,
/// readable (`values`, `validity`) or writable (`out`) for the whole call;
/// `out` does not overlap `values` or `validity`.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_unpack(
    values: *const u8,
    values_len: usize,
    validity: *const u8,
    validity_len: usize,
    bit_offset: usize,
    len: usize,
    negate: bool,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    // SAFETY: forwarded: the caller's contract is `bitbytes_unpack_offsets`'
    // with both offsets equal.
    unsafe {
        bitbytes_unpack_offsets(
            values,
            values_len,
            bit_offset,
            validity,
            validity_len,
            bit_offset,
            len,
            negate,
            out,
            out_len,
        )
    }
}

/// `bitbytes::raw::unpack_offsets`: as [`bitbytes_unpack`], with row `i` at
/// bit `values_offset + i` of `values` and bit `validity_offset + i` of
/// `validity`.
///
/// # Safety
///
/// As [`bitbytes_unpack`].
#[no_mangle]
pub unsafe extern "C" fn bitbytes_unpack_offsets(
    values: *const u8,
    values_len: usize,
    values_offset: usize,
    validity: *const u8,
    validity_len: usize,
    validity_offset: usize,
    len: usize,
    negate: bool,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: a non-NULL `values` covers `values_len` readable bytes for
        // the call (the caller's contract).
        let values = unsafe { input(values, values_len, Status::NullValues) }?;
        // SAFETY: likewise `validity` and `validity_len`.
        let validity = unsafe { optional_input(validity, validity_len, Status::NullValidity) }?;
        // SAFETY: a non-NULL `out` covers `out_len` writable bytes that
        // overlap neither input (the caller's contract).
        let out = unsafe { output(out, out_len, Status::NullOutput) }?;
        bitbytes::raw::unpack_offsets(
            values,
            values_offset,
            validity.map(|v| (v, validity_offset)),
            len,
            negate,
            out,
        )
        .map_err(Status::from)
    })
}

/// `bitbytes::pack`: bit `bit_offset + i` of `out` becomes `bytes[i] != 0`
/// for every `i < bytes_len`; every other bit of `out` keeps its value.
///
/// # Safety
///
/// `bytes` (when not NULL) points to `bytes_len` readable bytes and `out`
/// (when not NULL) to `out_len` writable bytes, for the whole call; they do
/// not overlap.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_pack(
    bytes: *const u8,
    bytes_len: usize,
    out: *mut u8,
    out_len: usize,
    bit_offset: usize,
) -> c_int {
    guard(|| {
        // SAFETY: a non-NULL `bytes` covers `bytes_len` readable bytes for
        // the call (the caller's contract).
        let bytes = unsafe { input(bytes, bytes_len, Status::NullInput) }?;
        // SAFETY: a non-NULL `out` covers `out_len` writable bytes that do
        // not overlap `bytes` (the caller's contract).
        let out = unsafe { output(out, out_len, Status::NullOutput) }?;
        bitbytes::pack(bytes, out, bit_offset).map_err(Status::from)
    })
}

/// The name of the kernel `bitbytes_unpack` uses on this CPU: `"portable"`,
/// `"sse2"`, `"avx2"` or `"avx512bw"`. A static string: never NULL, never to
/// be freed.
#[no_mangle]
pub extern "C" fn bitbytes_kernel_name() -> *const c_char {
    best_kernel_c_name(|| bitbytes::raw::Kernel::best().name())
}

/// The C string of the kernel name `best` returns (CPU detection, which
/// cannot be expected to panic, still runs under `catch_unwind` with `std`):
/// `"unknown"` for a panic or a name without a C string here.
pub(crate) fn best_kernel_c_name(best: fn() -> &'static str) -> *const c_char {
    #[cfg(feature = "std")]
    let name = std::panic::catch_unwind(best).ok();
    #[cfg(not(feature = "std"))]
    let name = Some(best());
    name.map_or(c"unknown", c_name).as_ptr()
}

/// The C string of a kernel name (`Kernel::name` and `IndicesKernel::name`
/// have no NUL).
fn c_name(name: &str) -> &'static CStr {
    match name {
        "portable" => c"portable",
        "sse2" => c"sse2",
        "avx2" => c"avx2",
        "avx512bw" => c"avx512bw",
        "avx512vbmi2" => c"avx512vbmi2",
        _ => c"unknown",
    }
}

/// This library's version, as `BITBYTES_VERSION` in `bitbytes.h`.
const VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => panic!("the package version has no NUL inside"),
    };

/// The version of the library that is linked (`"0.1.0"`): compare it with
/// the header's `BITBYTES_VERSION` to catch a header and a library of
/// different releases. Static; never NULL, never to be freed.
#[no_mangle]
pub extern "C" fn bitbytes_version() -> *const c_char {
    // No `catch_unwind`: a constant's pointer cannot panic.
    VERSION.as_ptr()
}

/// A static message for a status code (`"ok"` for 0, a message that says so
/// for a number that is no code). Never NULL, never to be freed.
#[no_mangle]
pub extern "C" fn bitbytes_strerror(code: c_int) -> *const c_char {
    // No `catch_unwind`: a search of a fixed array and a `match` returning
    // constants, nothing that can panic.
    message_of(code).as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    #[test]
    fn every_kernel_has_a_c_name() {
        for k in bitbytes::raw::Kernel::available() {
            assert_eq!(c_name(k.name()).to_str(), Ok(k.name()));
        }
        for k in bitbytes::raw::IndicesKernel::available() {
            assert_eq!(c_name(k.name()).to_str(), Ok(k.name()));
        }
        // SAFETY: the function returns a static NUL-terminated string.
        let best = unsafe { CStr::from_ptr(bitbytes_kernel_name()) };
        assert_eq!(best.to_str(), Ok(bitbytes::raw::Kernel::best().name()));
    }

    #[test]
    fn version_matches_the_header() {
        // SAFETY: a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(bitbytes_version()) };
        assert_eq!(v.to_str(), Ok(env!("CARGO_PKG_VERSION")));
        let header = include_str!("../include/bitbytes.h");
        let define = std::format!("#define BITBYTES_VERSION \"{}\"", env!("CARGO_PKG_VERSION"));
        assert!(header.contains(&define), "bitbytes.h lacks `{define}`");
    }

    #[test]
    fn unpack_and_pack_round_trip() {
        let values = [0b1010_1101u8, 0b1];
        let validity = [0b1111_0111u8, 0b1];
        let mut out = [9u8; 6];
        // SAFETY: every pointer is NULL or a live array of the given length.
        unsafe {
            let rc = bitbytes_unpack(
                values.as_ptr(),
                2,
                validity.as_ptr(),
                2,
                3,
                6,
                false,
                out.as_mut_ptr(),
                6,
            );
            assert_eq!(rc, 0);
            assert_eq!(out, [0, 0, 1, 0, 1, 1]);
            let mut bits = [0u8; 1];
            assert_eq!(bitbytes_pack(out.as_ptr(), 6, bits.as_mut_ptr(), 1, 0), 0);
            assert_eq!(bits, [0b11_0100]);
            // NULL, NULL-with-zero, and the errors, with nothing written.
            let mut keep = vec![7u8; 4];
            let e = |s: Status| s.code();
            let rc = bitbytes_unpack(
                core::ptr::null(),
                1,
                core::ptr::null(),
                0,
                0,
                1,
                false,
                keep.as_mut_ptr(),
                4,
            );
            assert_eq!(rc, e(Status::NullValues));
            let rc = bitbytes_unpack(
                core::ptr::null(),
                0,
                core::ptr::null(),
                0,
                0,
                1,
                false,
                keep.as_mut_ptr(),
                4,
            );
            assert_eq!(rc, e(Status::ValuesTooShort));
            let rc = bitbytes_unpack(
                values.as_ptr(),
                2,
                core::ptr::null(),
                0,
                0,
                5,
                false,
                keep.as_mut_ptr(),
                4,
            );
            assert_eq!(rc, e(Status::OutputTooShort));
            assert_eq!(keep, [7; 4]);
            let rc = bitbytes_pack(core::ptr::null(), 0, core::ptr::null_mut(), 0, 0);
            assert_eq!(rc, 0);
            let rc = bitbytes_pack(out.as_ptr(), 6, core::ptr::null_mut(), 1, 0);
            assert_eq!(rc, e(Status::NullOutput));
        }
    }
}
