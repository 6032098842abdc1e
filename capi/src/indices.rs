//! Selection vectors as C functions: `bitbytes_unpack_indices`,
//! `bitbytes_unpack_indices_offsets`, `bitbytes_mask_to_indices`,
//! `bitbytes_count_selected`, `bitbytes_count_selected_offsets`,
//! `bitbytes_mask_count`, `bitbytes_indices_kernel_name`.
//!
//! Each converts its pointer/length pairs and its `size_t *count` with the
//! checks of [`crate::ffi`], then calls the bitbytes function of the same
//! name, which checks the rest (lengths, overflow, index range, output
//! capacity) before it writes anything. `*count` is assigned only after the
//! call succeeded, so on an error nothing at all is written.

use crate::core_fns::best_kernel_c_name;
use crate::ffi::{guard, input, optional_input, output, output_ref};
use crate::status::Status;
use core::ffi::{c_char, c_int};

/// The bitmaps of a `bitbytes_unpack_indices*` / `bitbytes_count_selected*`
/// call as slices (NULL rules of [`crate::ffi`]).
///
/// # Safety
///
/// A non-NULL `values` (`validity`) points to `values_len` (`validity_len`)
/// readable bytes for `'a`.
unsafe fn bitmaps<'a>(
    values: *const u8,
    values_len: usize,
    validity: *const u8,
    validity_len: usize,
) -> Result<(&'a [u8], Option<&'a [u8]>), Status> {
    // SAFETY: a non-NULL `values` covers `values_len` readable bytes (the
    // caller's contract).
    let values = unsafe { input(values, values_len, Status::NullValues) }?;
    // SAFETY: likewise `validity` and `validity_len`.
    let validity = unsafe { optional_input(validity, validity_len, Status::NullValidity) }?;
    Ok((values, validity))
}

/// `bitbytes::unpack_indices`: writes `base + i`, ascending, to `out` for
/// every row `i < len` that `bitbytes_unpack` would set to 1, and the number
/// of them to `*count`.
///
/// Only `out[..*count]` is written; `out_cap` needs to be at least the
/// count, not `len`. On an error neither `out` nor `*count` is written.
///
/// # Safety
///
/// Each non-NULL pointer points to at least as many elements as its length
/// says, readable (`values`, `validity`) or writable and aligned (`out`,
/// `count`) for the whole call; `out` and `count` overlap neither each other
/// nor the inputs.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_unpack_indices(
    values: *const u8,
    values_len: usize,
    validity: *const u8,
    validity_len: usize,
    bit_offset: usize,
    len: usize,
    negate: bool,
    base: u32,
    out: *mut u32,
    out_cap: usize,
    count: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for the two bitmaps.
        let (values, validity) = unsafe { bitmaps(values, values_len, validity, validity_len) }?;
        // SAFETY: a non-NULL `out` covers `out_cap` writable, aligned u32
        // that overlap nothing else of the call (the caller's contract).
        let out = unsafe { output(out, out_cap, Status::NullOutput) }?;
        // SAFETY: a non-NULL `count` is a writable, aligned size_t that
        // overlaps nothing else of the call (the caller's contract).
        let count = unsafe { output_ref(count) }?;
        *count = bitbytes::unpack_indices(values, validity, bit_offset, len, negate, base, out)?;
        Ok(())
    })
}

/// `bitbytes::raw::unpack_indices_offsets`: as [`bitbytes_unpack_indices`],
/// with row `i` at bit `values_offset + i` of `values` and bit
/// `validity_offset + i` of `validity`.
///
/// # Safety
///
/// As [`bitbytes_unpack_indices`].
#[no_mangle]
pub unsafe extern "C" fn bitbytes_unpack_indices_offsets(
    values: *const u8,
    values_len: usize,
    values_offset: usize,
    validity: *const u8,
    validity_len: usize,
    validity_offset: usize,
    len: usize,
    negate: bool,
    base: u32,
    out: *mut u32,
    out_cap: usize,
    count: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for the two bitmaps.
        let (values, validity) = unsafe { bitmaps(values, values_len, validity, validity_len) }?;
        // SAFETY: a non-NULL `out` covers `out_cap` writable, aligned u32
        // that overlap nothing else of the call (the caller's contract).
        let out = unsafe { output(out, out_cap, Status::NullOutput) }?;
        // SAFETY: a non-NULL `count` is a writable, aligned size_t that
        // overlaps nothing else of the call (the caller's contract).
        let count = unsafe { output_ref(count) }?;
        *count = bitbytes::raw::unpack_indices_offsets(
            values,
            values_offset,
            validity.map(|v| (v, validity_offset)),
            len,
            negate,
            base,
            out,
        )?;
        Ok(())
    })
}

/// `bitbytes::mask_to_indices`: writes `base + i`, ascending, to `out` for
/// every non-zero byte `mask[i]`, and the number of them to `*count`.
///
/// Only `out[..*count]` is written; on an error neither `out` nor `*count`.
///
/// # Safety
///
/// As [`bitbytes_unpack_indices`], with `mask` (`mask_len` bytes) the input.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_mask_to_indices(
    mask: *const u8,
    mask_len: usize,
    base: u32,
    out: *mut u32,
    out_cap: usize,
    count: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: a non-NULL `mask` covers `mask_len` readable bytes (the
        // caller's contract).
        let mask = unsafe { input(mask, mask_len, Status::NullInput) }?;
        // SAFETY: a non-NULL `out` covers `out_cap` writable, aligned u32
        // that overlap nothing else of the call (the caller's contract).
        let out = unsafe { output(out, out_cap, Status::NullOutput) }?;
        // SAFETY: a non-NULL `count` is a writable, aligned size_t that
        // overlaps nothing else of the call (the caller's contract).
        let count = unsafe { output_ref(count) }?;
        *count = bitbytes::mask_to_indices(mask, base, out)?;
        Ok(())
    })
}

/// `bitbytes::count_selected`: writes to `*count` the number of rows
/// [`bitbytes_unpack_indices`] would write (valid, value bit differs from
/// `negate`). On an error `*count` is not written.
///
/// # Safety
///
/// As [`bitbytes_unpack_indices`], without `out`.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_count_selected(
    values: *const u8,
    values_len: usize,
    validity: *const u8,
    validity_len: usize,
    bit_offset: usize,
    len: usize,
    negate: bool,
    count: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for the two bitmaps.
        let (values, validity) = unsafe { bitmaps(values, values_len, validity, validity_len) }?;
        // SAFETY: a non-NULL `count` is a writable, aligned size_t that
        // overlaps neither input (the caller's contract).
        let count = unsafe { output_ref(count) }?;
        *count = bitbytes::count_selected(values, validity, bit_offset, len, negate)?;
        Ok(())
    })
}

/// `bitbytes::raw::count_selected_offsets`: as [`bitbytes_count_selected`],
/// each bitmap at its own bit offset: the count
/// [`bitbytes_unpack_indices_offsets`] would write.
///
/// # Safety
///
/// As [`bitbytes_count_selected`].
#[no_mangle]
pub unsafe extern "C" fn bitbytes_count_selected_offsets(
    values: *const u8,
    values_len: usize,
    values_offset: usize,
    validity: *const u8,
    validity_len: usize,
    validity_offset: usize,
    len: usize,
    negate: bool,
    count: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract for the two bitmaps.
        let (values, validity) = unsafe { bitmaps(values, values_len, validity, validity_len) }?;
        // SAFETY: a non-NULL `count` is a writable, aligned size_t that
        // overlaps neither input (the caller's contract).
        let count = unsafe { output_ref(count) }?;
        *count = bitbytes::raw::count_selected_offsets(
            values,
            values_offset,
            validity.map(|v| (v, validity_offset)),
            len,
            negate,
        )?;
        Ok(())
    })
}

/// `bitbytes::mask_count`: writes to `*count` the number of non-zero bytes
/// of `mask` (what [`bitbytes_mask_to_indices`] writes). On an error `*count`
/// is not written.
///
/// # Safety
///
/// A non-NULL `mask` points to `mask_len` readable bytes, a non-NULL `count`
/// to a writable, aligned `size_t` outside them, for the whole call.
#[no_mangle]
pub unsafe extern "C" fn bitbytes_mask_count(
    mask: *const u8,
    mask_len: usize,
    count: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: a non-NULL `mask` covers `mask_len` readable bytes (the
        // caller's contract).
        let mask = unsafe { input(mask, mask_len, Status::NullInput) }?;
        // SAFETY: a non-NULL `count` is a writable, aligned size_t outside
        // `mask` (the caller's contract).
        let count = unsafe { output_ref(count) }?;
        *count = bitbytes::mask_count(mask);
        Ok(())
    })
}

/// The name of the kernel the selection-vector functions use on this CPU:
/// `"portable"`, `"avx2"` or `"avx512vbmi2"`. A static string: never NULL,
/// never to be freed.
#[no_mangle]
pub extern "C" fn bitbytes_indices_kernel_name() -> *const c_char {
    best_kernel_c_name(|| bitbytes::raw::IndicesKernel::best().name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr::{null, null_mut};

    const KEEP: u32 = 0xDEAD_BEEF;
    const NO_COUNT: usize = 0xC0FFEE;

    fn code(s: Status) -> c_int {
        s.code()
    }

    #[test]
    fn indices_kernel_name_is_the_best() {
        // (Every kernel's C name: `core_fns`' test.)
        // SAFETY: the function returns a static NUL-terminated string.
        let best = unsafe { core::ffi::CStr::from_ptr(bitbytes_indices_kernel_name()) };
        assert_eq!(
            best.to_str(),
            Ok(bitbytes::raw::IndicesKernel::best().name())
        );
    }

    #[test]
    fn unpack_indices_results_and_null_rules() {
        // rows:         7654_3210
        let values = [0b1100_1010u8];
        let validity = [0b0111_1111u8]; // row 7 is null
        let mut out = [KEEP; 10];
        let mut n = NO_COUNT;
        // SAFETY: every pointer is NULL or a live array of the given length.
        unsafe {
            let rc = bitbytes_unpack_indices(
                values.as_ptr(),
                1,
                validity.as_ptr(),
                1,
                0,
                8,
                false,
                10,
                out.as_mut_ptr(),
                3,
                &mut n,
            );
            assert_eq!((rc, n), (0, 3));
            assert_eq!(out[..4], [11, 13, 16, KEEP]);
            // NOT IN: the null row is never selected.
            let rc = bitbytes_unpack_indices(
                values.as_ptr(),
                1,
                validity.as_ptr(),
                1,
                0,
                8,
                true,
                0,
                out.as_mut_ptr(),
                10,
                &mut n,
            );
            assert_eq!((rc, n), (0, 4));
            assert_eq!(out[..5], [0, 2, 4, 5, KEEP]);

            // Each error: its code, and neither `out` nor `count` written.
            let mut out = [KEEP; 10];
            let mut n = NO_COUNT;
            let p = out.as_mut_ptr();
            let v = values.as_ptr();
            let m = validity.as_ptr();
            let cases: [(c_int, Status); 9] = [
                (
                    bitbytes_unpack_indices(null(), 1, null(), 0, 0, 8, false, 0, p, 10, &mut n),
                    Status::NullValues,
                ),
                (
                    bitbytes_unpack_indices(v, 1, null(), 1, 0, 8, false, 0, p, 10, &mut n),
                    Status::NullValidity,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, 0, 8, false, 0, null_mut(), 1, &mut n),
                    Status::NullOutput,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, 0, 8, false, 0, p, 10, null_mut()),
                    Status::NullArgument,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, 0, 8, false, 0, p, 2, &mut n),
                    Status::OutputTooShort,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, 0, 8, false, u32::MAX - 6, p, 10, &mut n),
                    Status::IndexOverflow,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, 1, 8, false, 0, p, 10, &mut n),
                    Status::ValuesTooShort,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, usize::MAX, 2, false, 0, p, 10, &mut n),
                    Status::Overflow,
                ),
                (
                    bitbytes_unpack_indices(v, 1, m, 1, 0, 8, false, 0, p, usize::MAX, &mut n),
                    Status::LengthTooLarge,
                ),
            ];
            for (rc, want) in cases {
                assert_eq!(rc, code(want), "{want:?}");
            }
            assert_eq!((out, n), ([KEEP; 10], NO_COUNT));

            // NULL with length 0 is empty; the largest index u32::MAX fits.
            let rc = bitbytes_unpack_indices(
                null(),
                0,
                null(),
                0,
                0,
                0,
                false,
                0,
                null_mut(),
                0,
                &mut n,
            );
            assert_eq!((rc, n), (0, 0));
            let rc = bitbytes_unpack_indices(v, 1, m, 1, 0, 8, true, u32::MAX - 7, p, 10, &mut n);
            assert_eq!((rc, n), (0, 4));
            assert_eq!(
                out[..4],
                [u32::MAX - 7, u32::MAX - 5, u32::MAX - 3, u32::MAX - 2]
            );
            // The validity at its own offset.
            let shifted = [0b1111_1110u8, 0]; // row i at bit i + 1; row 7 null
            let rc = bitbytes_unpack_indices_offsets(
                v,
                1,
                0,
                shifted.as_ptr(),
                2,
                1,
                8,
                false,
                0,
                p,
                10,
                &mut n,
            );
            assert_eq!((rc, n), (0, 3));
            assert_eq!(out[..3], [1, 3, 6]);
            let rc = bitbytes_unpack_indices_offsets(
                v,
                1,
                0,
                shifted.as_ptr(),
                2,
                1,
                8,
                false,
                0,
                p,
                10,
                null_mut(),
            );
            assert_eq!(rc, code(Status::NullArgument));
        }
    }

    #[test]
    fn mask_to_indices_results_and_null_rules() {
        let mask = [0u8, 1, 1, 0, 7, 0];
        let mut out = [KEEP; 6];
        let mut n = NO_COUNT;
        let p = out.as_mut_ptr();
        // SAFETY: every pointer is NULL or a live array of the given length.
        unsafe {
            assert_eq!(
                bitbytes_mask_to_indices(mask.as_ptr(), 6, 10, p, 3, &mut n),
                0
            );
            assert_eq!(n, 3);
            assert_eq!(out, [11, 12, 14, KEEP, KEEP, KEEP]);
            let mut out = [KEEP; 6];
            let mut n = NO_COUNT;
            let p = out.as_mut_ptr();
            let m = mask.as_ptr();
            let cases: [(c_int, Status); 5] = [
                (
                    bitbytes_mask_to_indices(null(), 6, 0, p, 6, &mut n),
                    Status::NullInput,
                ),
                (
                    bitbytes_mask_to_indices(m, 6, 0, null_mut(), 6, &mut n),
                    Status::NullOutput,
                ),
                (
                    bitbytes_mask_to_indices(m, 6, 0, p, 6, null_mut()),
                    Status::NullArgument,
                ),
                (
                    bitbytes_mask_to_indices(m, 6, 0, p, 2, &mut n),
                    Status::OutputTooShort,
                ),
                (
                    bitbytes_mask_to_indices(m, 6, u32::MAX - 4, p, 6, &mut n),
                    Status::IndexOverflow,
                ),
            ];
            for (rc, want) in cases {
                assert_eq!(rc, code(want), "{want:?}");
            }
            assert_eq!((out, n), ([KEEP; 6], NO_COUNT));
            assert_eq!(
                bitbytes_mask_to_indices(null(), 0, u32::MAX, null_mut(), 0, &mut n),
                0
            );
            assert_eq!(n, 0);
            assert_eq!(
                bitbytes_mask_to_indices(m, 6, u32::MAX - 5, p, 6, &mut n),
                0
            );
            assert_eq!(out[..n], [u32::MAX - 4, u32::MAX - 3, u32::MAX - 1]);
        }
    }

    #[test]
    fn counts_and_null_rules() {
        let values = [0b1100_1010u8];
        let validity = [0b0111_1111u8];
        let v = values.as_ptr();
        let m = validity.as_ptr();
        let mut n = NO_COUNT;
        // SAFETY: every pointer is NULL or a live array of the given length.
        unsafe {
            assert_eq!(bitbytes_count_selected(v, 1, m, 1, 0, 8, false, &mut n), 0);
            assert_eq!(n, 3);
            assert_eq!(bitbytes_count_selected(v, 1, m, 1, 0, 8, true, &mut n), 0);
            assert_eq!(n, 4);
            assert_eq!(
                bitbytes_count_selected(v, 1, null(), 0, 1, 3, false, &mut n),
                0
            );
            assert_eq!(n, 2);
            let shifted = [0b1111_1110u8, 0];
            let rc =
                bitbytes_count_selected_offsets(v, 1, 0, shifted.as_ptr(), 2, 1, 8, true, &mut n);
            assert_eq!((rc, n), (0, 4));
            assert_eq!(
                bitbytes_mask_count([0u8, 1, 0, 255, 2].as_ptr(), 5, &mut n),
                0
            );
            assert_eq!(n, 3);

            let mut n = NO_COUNT;
            let cases: [(c_int, Status); 9] = [
                (
                    bitbytes_count_selected(null(), 1, m, 1, 0, 8, false, &mut n),
                    Status::NullValues,
                ),
                (
                    bitbytes_count_selected(v, 1, null(), 1, 0, 8, false, &mut n),
                    Status::NullValidity,
                ),
                (
                    bitbytes_count_selected(v, 1, m, 1, 0, 8, false, null_mut()),
                    Status::NullArgument,
                ),
                (
                    bitbytes_count_selected(v, 1, m, 0, 0, 8, false, &mut n),
                    Status::ValidityTooShort,
                ),
                (
                    bitbytes_count_selected(v, 1, m, 1, usize::MAX, 1, false, &mut n),
                    Status::Overflow,
                ),
                (
                    bitbytes_count_selected_offsets(v, 1, 0, m, 1, 1, 8, false, &mut n),
                    Status::ValidityTooShort,
                ),
                (bitbytes_mask_count(null(), 1, &mut n), Status::NullInput),
                (bitbytes_mask_count(v, 1, null_mut()), Status::NullArgument),
                (
                    bitbytes_mask_count(v, usize::MAX, &mut n),
                    Status::LengthTooLarge,
                ),
            ];
            for (rc, want) in cases {
                assert_eq!(rc, code(want), "{want:?}");
            }
            assert_eq!(n, NO_COUNT);
            assert_eq!(bitbytes_mask_count(null(), 0, &mut n), 0);
            assert_eq!(n, 0);
            let mut n = NO_COUNT;
            assert_eq!(
                bitbytes_count_selected(null(), 0, null(), 0, 0, 0, true, &mut n),
                0
            );
            assert_eq!(n, 0);
        }
    }
}
