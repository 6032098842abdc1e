//! The checks of the `strings` target ([`strings_check::run`]) over its
//! rows repeated to 8,192-9,095 rows, past two 4096-row chunks: the
//! kernels' paths over blocks of 64 words (the listed `=`, its dense and
//! unlisted blocks, Utf8View's prefetch a chunk ahead). Slower per input
//! (its seeds 129-301 ms each under AddressSanitizer on an AMD EPYC
//! family 25 model 17, Zen 4, 2026-12-08), so a target of its own, leaving
//! `strings` its speed.
#![no_main]

#[path = "strings_check.rs"]
mod strings_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| strings_check::run(data, true));
