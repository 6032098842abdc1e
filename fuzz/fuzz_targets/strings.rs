//! The string kernels, Like and IN over columns of up to 300 rows against
//! the row-by-row oracle, and the offsets entry points over good and bad
//! offsets: [`strings_check::run`] (its docs say what each input checks).
//! `strings_chunks` runs the same checks over columns of several 4096-row
//! chunks.
#![no_main]

#[path = "strings_check.rs"]
mod strings_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| strings_check::run(data, false));
