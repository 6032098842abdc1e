//! What every entry point shares: the panic guard, and turning C's
//! `(pointer, length)` pairs into slices after checking them.
//!
//! A new wrapper (as those of `indices.rs`) is a body of
//! `guard(|| { ... })` that converts each argument with [`input`],
//! [`optional_input`], [`output`] or [`output_ref`], calls bitbytes, and
//! returns `Ok(())`: the NULL, length and panic rules then hold by
//! construction. For instance (`indices.rs` has it, with a prototype in
//! `bitbytes.h`):
//!
//! ```text
//! #[no_mangle]
//! pub unsafe extern "C" fn bitbytes_mask_to_indices(
//!     mask: *const u8, mask_len: usize, base: u32,
//!     out: *mut u32, out_cap: usize, count: *mut usize,
//! ) -> c_int {
//!     guard(|| {
//!         // SAFETY: a non-NULL `mask` covers `mask_len` readable bytes.
//!         let mask = unsafe { input(mask, mask_len, Status::NullInput) }?;
//!         // SAFETY: a non-NULL `out` covers `out_cap` writable, aligned u32.
//!         let out = unsafe { output(out, out_cap, Status::NullOutput) }?;
//!         // SAFETY: a non-NULL `count` is a writable, aligned size_t.
//!         let count = unsafe { output_ref(count) }?;
//!         *count = bitbytes::mask_to_indices(mask, base, out)?;
//!         Ok(())
//!     })
//! }
//! ```
//!
//! (`?` on a `bitbytes::Error` converts it through `From<Error> for Status`.)

use crate::status::Status;
use core::ffi::c_int;

/// Runs an entry point's body and turns its result into a C status code.
///
/// With `std`, a panic in `body` is caught and becomes
/// [`Status::Panic`]: nothing unwinds into C. Without `std` the crate's panic
/// handler aborts the process, which does not unwind either.
#[inline]
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Status>) -> c_int {
    #[cfg(feature = "std")]
    // `AssertUnwindSafe`: after a panic nothing of `body`'s state is used
    // again; the caller's buffers may be partly written, which the message of
    // BITBYTES_ERR_PANIC says.
    let result =
        std::panic::catch_unwind(core::panic::AssertUnwindSafe(body)).unwrap_or(Err(Status::Panic));
    #[cfg(not(feature = "std"))]
    let result = body();
    match result {
        Ok(()) => Status::Ok.code(),
        Err(s) => {
            #[cfg(feature = "std")]
            set_last_error(s.message().to_str().unwrap_or_default());
            s.code()
        }
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    /// This thread's `bitbytes_last_error` message.
    static LAST_ERROR: core::cell::RefCell<std::ffi::CString> =
        core::cell::RefCell::new(std::ffi::CString::default());
}

/// Sets this thread's `bitbytes_last_error` message (a NUL in `message`
/// is written as `\0`).
#[cfg(feature = "std")]
pub(crate) fn set_last_error(message: &str) {
    let text = if message.contains('\0') {
        std::borrow::Cow::Owned(message.replace('\0', "\\0"))
    } else {
        std::borrow::Cow::Borrowed(message)
    };
    let c = std::ffi::CString::new(text.as_bytes()).unwrap_or_default();
    // `try_with`: during the thread's teardown the message is dropped.
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = c);
}

/// This thread's message for its last failed bitbytes call: the code's
/// message, or the details of a predicate call; `""` before any failure.
/// The pointer stays valid until this thread's next failing call.
#[cfg(feature = "std")]
#[no_mangle]
pub extern "C" fn bitbytes_last_error() -> *const core::ffi::c_char {
    LAST_ERROR
        .try_with(|e| e.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}

/// Checks that `len` elements of `T` can form a slice (at most `isize::MAX`
/// bytes, as `slice::from_raw_parts` requires).
#[inline]
fn check_len<T>(len: usize) -> Result<(), Status> {
    let max = isize::MAX as usize / core::mem::size_of::<T>().max(1);
    if len > max {
        Err(Status::LengthTooLarge)
    } else {
        Ok(())
    }
}

/// `(ptr, len)` as a slice: NULL with `len == 0` is the empty slice, NULL with
/// `len > 0` is `Err(if_null)`.
///
/// # Safety
///
/// When `ptr` is not NULL it points to `len` initialised, properly aligned
/// elements of `T` that stay valid and are not written by anyone for `'a`
/// (the contract every pointer/length pair of `bitbytes.h` states).
#[inline]
pub(crate) unsafe fn input<'a, T>(
    ptr: *const T,
    len: usize,
    if_null: Status,
) -> Result<&'a [T], Status> {
    check_len::<T>(len)?;
    if ptr.is_null() {
        return if len == 0 { Ok(&[]) } else { Err(if_null) };
    }
    // SAFETY: `ptr` is not NULL, and the caller guarantees `len` readable,
    // aligned, unaliased-by-writers elements behind it; `len` fits in
    // `isize::MAX` bytes (checked above).
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// An optional input: NULL with `len == 0` is `None` (absent, e.g. no validity
/// bitmap), NULL with `len > 0` is `Err(if_null)`.
///
/// # Safety
///
/// As [`input`].
#[inline]
pub(crate) unsafe fn optional_input<'a, T>(
    ptr: *const T,
    len: usize,
    if_null: Status,
) -> Result<Option<&'a [T]>, Status> {
    if ptr.is_null() {
        return if len == 0 { Ok(None) } else { Err(if_null) };
    }
    // SAFETY: forwarded: the caller's contract is the one `input` needs.
    unsafe { input(ptr, len, if_null) }.map(Some)
}

/// `(ptr, len)` as a mutable slice: NULL with `len == 0` is the empty slice,
/// NULL with `len > 0` is `Err(if_null)`.
///
/// # Safety
///
/// When `ptr` is not NULL it points to `len` properly aligned elements of `T`
/// (initialised: any bit pattern of a C integer is) that nothing else reads or
/// writes for `'a`; in particular they do not overlap any input of the call.
#[inline]
pub(crate) unsafe fn output<'a, T>(
    ptr: *mut T,
    len: usize,
    if_null: Status,
) -> Result<&'a mut [T], Status> {
    check_len::<T>(len)?;
    if ptr.is_null() {
        return if len == 0 { Ok(&mut []) } else { Err(if_null) };
    }
    // SAFETY: `ptr` is not NULL; the caller guarantees `len` writable,
    // aligned elements behind it that nothing else accesses during the call;
    // `len` fits in `isize::MAX` bytes (checked above).
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// A required out-parameter (such as a `size_t *count`): NULL is
/// [`Status::NullArgument`].
///
/// # Safety
///
/// When `ptr` is not NULL it points to a properly aligned `T` that nothing
/// else accesses during the call.
#[inline]
pub(crate) unsafe fn output_ref<'a, T>(ptr: *mut T) -> Result<&'a mut T, Status> {
    // SAFETY: the caller guarantees that a non-NULL `ptr` is valid, aligned
    // and unaliased for the call; `as_mut` maps NULL to `None`.
    unsafe { ptr.as_mut() }.ok_or(Status::NullArgument)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_maps_results_and_catches_panics() {
        assert_eq!(guard(|| Ok(())), 0);
        assert_eq!(guard(|| Err(Status::NullOutput)), Status::NullOutput.code());
        let hook = std::panic::take_hook();
        std::panic::set_hook(std::boxed::Box::new(|_| {}));
        let code = guard(|| panic!("a bug"));
        std::panic::set_hook(hook);
        assert_eq!(code, Status::Panic.code());
    }

    #[test]
    fn null_pointers_and_lengths() {
        let null: *const u8 = core::ptr::null();
        let null_mut: *mut u32 = core::ptr::null_mut();
        // SAFETY: every pointer is NULL or a live array of the given length
        // (the huge lengths are rejected before any slice is made).
        unsafe {
            assert_eq!(input(null, 0, Status::NullValues), Ok(&[][..]));
            assert_eq!(input(null, 1, Status::NullValues), Err(Status::NullValues));
            assert_eq!(optional_input(null, 0, Status::NullValidity), Ok(None));
            assert_eq!(
                optional_input(null, 3, Status::NullValidity),
                Err(Status::NullValidity)
            );
            let data = [1u8, 2, 3];
            assert_eq!(
                optional_input(data.as_ptr(), 3, Status::NullValidity),
                Ok(Some(&data[..]))
            );
            assert_eq!(output(null_mut, 0, Status::NullOutput), Ok(&mut [][..]));
            assert_eq!(
                output(null_mut, 5, Status::NullOutput),
                Err(Status::NullOutput)
            );
            assert_eq!(
                output(null_mut, usize::MAX / 2, Status::NullOutput),
                Err(Status::LengthTooLarge)
            );
            assert_eq!(
                input(data.as_ptr(), usize::MAX, Status::NullInput),
                Err(Status::LengthTooLarge)
            );
            assert_eq!(output_ref(null_mut), Err(Status::NullArgument));
            let mut n = 7u32;
            *output_ref(&mut n as *mut u32).unwrap() = 8;
            assert_eq!(n, 8);
        }
    }
}
