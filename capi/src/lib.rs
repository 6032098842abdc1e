//! The C ABI of [bitbytes](../bitbytes/index.html): `libbitbytes_capi.a`
//! and `libbitbytes_capi.so`, declared in `include/bitbytes.h`.
//!
//! Every function takes pointers and lengths and returns an `int` status:
//! `0` on success, a negative code otherwise ([`status::Status`]; the header
//! defines the same `BITBYTES_ERR_*` names), with `bitbytes_strerror(code)`
//! for a static message. On every error nothing is written.
//!
//! - A NULL pointer with length 0 is an empty buffer (a NULL validity with
//!   length 0: no validity bitmap); a NULL pointer with a length above 0 is an
//!   error code, never a read.
//! - No panic crosses into C: with `std` each body runs under
//!   `catch_unwind` and a panic becomes `BITBYTES_ERR_PANIC`; without `std` the
//!   panic handler aborts.
//! - The selection-vector functions (`bitbytes_unpack_indices`,
//!   `bitbytes_mask_to_indices`, `bitbytes_count_selected`,
//!   `bitbytes_mask_count`, ...) write their count through a `size_t *count`
//!   that must not be NULL, and only after the call succeeded.
//! - `bitbytes_unpack_arrow` reads an Arrow boolean array through the Arrow C
//!   Data Interface: no arrow-rs, no copy, no ownership taken.
//!
//! - With the default feature `predicate`: Paimon predicate JSON parsed
//!   against an Arrow schema (`bitbytes_predicate_parse`), tested on record
//!   batches and statistics received through the C Data Interface
//!   (`bitbytes_predicate_test`, `_test_indices`, `_test_stats`), the
//!   caller keeping ownership of every struct; `bitbytes_last_error` gives
//!   the details of a failed call (with `std`).
//!
//! Layout: [`status`] (codes and messages), `ffi` (the panic guard, the
//! pointer/length checks every wrapper uses, the last-error message),
//! `core_fns` (unpack, pack, kernel name, strerror, version), `indices`
//! (selection vectors: row indices and counts), [`arrow`] (the C Data
//! Interface), `import` (borrowing C Data Interface structs into arrow-rs:
//! structure checks, import, validation) and `predicate` (the predicate
//! API).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(all(test, not(feature = "std")))]
extern crate std;

pub mod arrow;
#[cfg(feature = "predicate")]
mod borrowed;
mod core_fns;
#[cfg(feature = "predicate")]
mod direct;
mod ffi;
#[cfg(feature = "predicate")]
mod import;
mod indices;
#[cfg(feature = "predicate")]
mod predicate;
pub mod status;
#[cfg(feature = "predicate")]
mod validate;
#[cfg(test)]
#[path = "../../tests/support/xorshift.rs"]
pub(crate) mod xorshift;

pub use arrow::bitbytes_unpack_arrow;
pub use core_fns::{
    bitbytes_kernel_name, bitbytes_pack, bitbytes_strerror, bitbytes_unpack,
    bitbytes_unpack_offsets, bitbytes_version,
};
#[cfg(feature = "std")]
pub use ffi::bitbytes_last_error;
pub use indices::{
    bitbytes_count_selected, bitbytes_count_selected_offsets, bitbytes_indices_kernel_name,
    bitbytes_mask_count, bitbytes_mask_to_indices, bitbytes_unpack_indices,
    bitbytes_unpack_indices_offsets,
};
#[cfg(feature = "predicate")]
pub use predicate::{
    bitbytes_predicate_free, bitbytes_predicate_parse, bitbytes_predicate_test,
    bitbytes_predicate_test_indices, bitbytes_predicate_test_stats, bitbytes_predicate_to_json,
    bitbytes_string_free, BitbytesPredicate,
};

/// Without `std`: a panic (which the argument checks leave no way to reach)
/// aborts the process rather than unwinding into C.
#[cfg(all(not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    extern "C" {
        fn abort() -> !;
    }
    // SAFETY: C's `abort` takes no argument and never returns.
    unsafe { abort() }
}
