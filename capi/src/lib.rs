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
//! Layout: [`status`] (codes and messages), `ffi` (the panic guard and the
//! pointer/length checks every wrapper uses), `core_fns` (unpack, pack,
//! kernel name, strerror, version), `indices` (selection vectors: row
//! indices and counts), [`arrow`] (the C Data Interface).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(all(test, not(feature = "std")))]
extern crate std;

pub mod arrow;
mod core_fns;
mod ffi;
mod indices;
pub mod status;

pub use arrow::bitbytes_unpack_arrow;
pub use core_fns::{
    bitbytes_kernel_name, bitbytes_pack, bitbytes_strerror, bitbytes_unpack,
    bitbytes_unpack_offsets, bitbytes_version,
};
pub use indices::{
    bitbytes_count_selected, bitbytes_count_selected_offsets, bitbytes_indices_kernel_name,
    bitbytes_mask_count, bitbytes_mask_to_indices, bitbytes_unpack_indices,
    bitbytes_unpack_indices_offsets,
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
