//! Move predicate results between bitmaps (one bit per row, LSB first, as in
//! Apache Arrow) and byte masks (one `0`/`1` byte per row), at the speed of
//! memory.
//!
//! A comparison or set-membership kernel returns a bitmap plus a validity
//! bitmap; the selection path of many engines wants one byte per row.
//! [`unpack`] does that conversion: a null row is `0`, and `negate` turns an
//! IN result into NOT IN without selecting null rows.
//!
//! # Bit layout
//!
//! Row `i` of a bitmap that starts at bit offset `o` lives in byte
//! `(o + i) / 8`, bit `(o + i) % 8`, counting from the least significant bit:
//!
//! ```text
//! byte:        0                 1
//! bit:    7 6 5 4 3 2 1 0 | 7 6 5 4 3 2 1 0
//! row:    4 3 2 1 0 . . . | . . . . . 7 6 5      (bit offset 3, 8 rows)
//! ```
//!
//! # Example
//!
//! ```
//! use bitbytes::unpack;
//!
//! let values = [0b1010_1101u8, 0b1];
//! let validity = [0b1111_0111u8, 0b1];
//! let mut mask = [0u8; 6];
//! // 6 rows from bit offset 3: values 1,0,1,0,1,1 ; row 0 is null.
//! unpack(&values, Some(&validity), 3, 6, false, &mut mask)?;
//! assert_eq!(mask, [0, 0, 1, 0, 1, 1]);
//! # Ok::<(), bitbytes::Error>(())
//! ```
//!
//! # Kernels and dispatch
//!
//! [`unpack`] shift-merges each 64-row word from the unaligned input, applies
//! negate and validity once per word, and hands whole words to an expansion
//! [`raw::Kernel`]: a 256-entry table (portable), SSE2, AVX2 or AVX-512BW
//! with GFNI. [`raw::Kernel::best`] picks AVX2 where the CPU has it, else
//! SSE2 (the rule, and the measurements behind it, are in its docs); with the
//! `std` feature the CPU is asked once and the answer cached; without `std`
//! the choice is made at compile time from the enabled target features (so
//! `-C target-cpu=native` gets AVX2 in a `no_std` build).
//! [`raw::unpack_with`] forces one kernel, with the same contract.
//!
//! A word with no valid row is simply a zero word after the `and` (no branch),
//! and without a validity bitmap the `and` is skipped. Outputs of at least
//! [`raw::stream_min_bytes`] (5/8 of the last-level cache, 5 to 32 MiB)
//! are written with non-temporal stores by the SIMD kernels, which skip the
//! read-for-ownership of each line.
//!
//! # Building bitmaps
//!
//! The other direction, bytes or bools to bits:
//!
//! - [`pack`](fn@pack) writes one bit per byte (`bytes[i] != 0`) into a caller's
//!   bitmap from any bit offset, leaving the other bits alone; the inverse of
//!   [`unpack`]. [`raw::pack_with`] forces a kernel, [`pack_naive`] is the
//!   per-byte oracle.
//! - [`BitmapWriter`] appends bits into a `&mut [u8]` the caller owns (no
//!   allocation); an append that does not fit is an `Err`.
//! - [`BitmapBuilder`] (feature `alloc`) appends bits to a growing bitmap:
//!   pending bits live in a `u64` and memory sees one 8-byte write per 64
//!   appends. The bulk appends (`append_n`, `append_slice`, `append_bytes`,
//!   `append_packed_range`) move whole words.
//! - [`MutableBitmap`] (feature `alloc`) has a fixed length; `get`/`set` are a
//!   shift and a mask.
//!
//! Appending and setting are separate types on purpose: arrow-rs's
//! `BooleanBufferBuilder` serves both and pays a capacity check and a memory
//! write per appended bit (apache/arrow-rs#8561).
//!
//! ```
//! # #[cfg(feature = "alloc")] {
//! use bitbytes::{pack, BitmapBuilder};
//!
//! let mask = [1u8, 0, 0, 1, 1];
//! let mut bits = [0u8; 1];
//! pack(&mask, &mut bits, 0)?;
//! assert_eq!(bits, [0b11001]);
//!
//! let mut b = BitmapBuilder::new();
//! b.append_bytes(&mask);
//! b.append(true);
//! assert_eq!(b.finish(), [0b111001]);
//! # }
//! # Ok::<(), bitbytes::Error>(())
//! ```
//!
//! # Selection vectors
//!
//! The third form of a selection, after bitmaps and byte masks: the row
//! indices themselves, ascending `u32`s, as arrow-select's `take`, DuckDB's
//! `SelectionVector` or a gather loop want them.
//!
//! - [`unpack_indices`] writes `base + i` for every row that [`unpack`] would
//!   set to 1 (valid, value bit different from `negate`) and returns the
//!   count; [`count_selected`] is that count alone.
//! - [`mask_to_indices`] does the same from a byte mask (any non-zero byte);
//!   [`mask_count`] counts the non-zero bytes.
//! - Only `out[..count]` is written, and `out` needs one slot per selected
//!   row, not per row: `Err(OutputTooShort { needed: count, .. })`, nothing
//!   written, when it is shorter. An index past `u32::MAX` is
//!   [`Error::IndexOverflow`].
//!
//! Kernels: a trailing-zero loop (portable, unrolled for dense words), AVX2
//! with a table of bit positions, and AVX-512 VBMI2 `vpcompressb`, chosen by
//! CPU like the unpack kernels ([`raw::IndicesKernel`]) and, block by block,
//! by density: blocks below [`raw::SIMD_MIN_PER_MILLE`] (11%) take the
//! trailing-zero loop. `raw::unpack_indices_naive` and
//! `raw::mask_to_indices_naive` are the row-by-row oracles.
//!
//! ```
//! use bitbytes::{count_selected, unpack_indices};
//!
//! let values = [0b1010_1101u8, 0b1];
//! let validity = [0b1111_0111u8, 0b1]; // row 0 (bit 3) is null
//! let n = count_selected(&values, Some(&validity), 3, 6, false)?;
//! let mut idx = [0u32; 6];
//! assert_eq!(unpack_indices(&values, Some(&validity), 3, 6, false, 0, &mut idx[..n])?, n);
//! assert_eq!(&idx[..n], [2, 4, 5]);
//! # Ok::<(), bitbytes::Error>(())
//! ```
//!
//! # Crate features
//!
//! - `std` (default): run-time CPU feature detection; implies `alloc`.
//! - `alloc`: the owning types that need a heap ([`BitmapBuilder`],
//!   [`MutableBitmap`]).
//! - `arrow`: the [`arrow`] module: `BooleanArray` to bytes
//!   ([`arrow::unpack_boolean_array`]) and Apache Paimon's predicate leaf
//!   functions ([`arrow::Function`]: null tests, IsNaN, comparisons, IN / NOT
//!   IN, Between, the string functions and Like) over arrow-rs arrays, one
//!   byte per row; And / Or trees of them over a `RecordBatch`
//!   ([`arrow::Predicate`], built by [`arrow::PredicateBuilder`]), evaluated
//!   on the rows still undecided, negated by De Morgan, and filtering the
//!   batch; [`arrow::selection_indices`], a `BooleanArray` to the
//!   `UInt32Array` of its selected rows; and `From<BitmapBuilder>` /
//!   `From<MutableBitmap>` for arrow-buffer's `BooleanBuffer` and
//!   `NullBuffer`, without copying. Implies `std`; depends on arrow-array,
//!   arrow-buffer, arrow-ord, arrow-schema, arrow-select and arrow-string
//!   (60.x).
//!
//! - `json`: [`arrow::Predicate::from_paimon_json`] and
//!   [`arrow::Predicate::to_paimon_json`]: Paimon's predicate JSON (what Paimon
//!   Java's `JsonSerdeUtil` writes, and a REST catalog sends) read against an
//!   Arrow schema and written back byte for byte. Implies `arrow`; depends on
//!   serde_json (with `arbitrary_precision`).
//!
//! Without default features the crate is `#![no_std]` and never allocates:
//! every function writes into slices the caller owns.
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod arch;
#[cfg(feature = "arrow")]
#[path = "arrow_impl.rs"]
pub mod arrow;
#[cfg(feature = "arrow")]
mod arrow_buffer_impls;
mod bits;
#[cfg(feature = "alloc")]
mod builder;
mod error;
mod indices;
#[cfg(feature = "alloc")]
mod mutable;
mod pack;
pub mod raw;
mod sink;
mod writer;
#[cfg(test)]
#[path = "../tests/support/xorshift.rs"]
pub(crate) mod xorshift;

#[cfg(feature = "alloc")]
pub use builder::BitmapBuilder;
pub use error::Error;
pub use indices::{count_selected, mask_count, mask_to_indices, unpack_indices};
#[cfg(feature = "alloc")]
pub use mutable::MutableBitmap;
pub use pack::{pack, pack_naive};
pub use raw::{unpack, unpack_naive};
pub use writer::BitmapWriter;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// The Rust examples of docs/ run as doctests too, as the README's do.
#[doc = include_str!("../docs/kernels.md")]
#[cfg(doctest)]
pub struct DocsKernelsDoctests;

#[doc = include_str!("../docs/predicates.md")]
#[cfg(doctest)]
pub struct DocsPredicatesDoctests;
