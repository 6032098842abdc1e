//! How close `unpack` is to what the CPU can do with the same memory
//! traffic: `slice::fill` of the output (the store limit the `throughput`
//! example quotes) against two probes that do no expansion work at all.
//!
//! ```text
//! cargo run --release --example limits
//! ```
//!
//! - `computed`: stores 64 bytes per 64 rows that change from one 32-byte
//!   store to the next (one `xor` each), reading nothing: what storing
//!   computed rather than constant data costs. No kernel can beat it.
//! - `read + store`: per 64 rows, reads the values word and the validity word
//!   of the input, ANDs them, and stores the result broadcast over 64 bytes:
//!   the exact memory traffic of `unpack` with validity (one bit of each
//!   bitmap and one byte of output per row) with none of its work (no offset,
//!   no negation, bytes not 0/1). It bounds what a kernel of this crate can
//!   reach on the CPU it runs on.
//!
//! Both probes use 32-byte AVX2 stores (the dispatched kernel's width on the
//! CPUs measured so far), so they need x86_64 with AVX2; elsewhere the example
//! says so and measures only `fill` and `unpack`. Every ratio is to `fill`
//! of the same output bytes, each column timed alternately in the same
//! rounds; the last column is `unpack` against `read + store`. The output of
//! `unpack` is first checked against `unpack_naive`.

#[path = "../tests/support/cpu.rs"]
mod cpu;
#[path = "../tests/support/xorshift.rs"]
mod xorshift;

use bitbytes::raw::Kernel;
use std::hint::black_box;
use std::time::{Duration, Instant};
use xorshift::XorShift;

/// Best time per call of `f` over `rounds` batches of about 100 us.
fn best(rounds: usize, mut f: impl FnMut()) -> Duration {
    f();
    let t = Instant::now();
    f();
    let one = t.elapsed().max(Duration::from_nanos(1));
    let batch = (Duration::from_micros(100).as_nanos() / one.as_nanos()).clamp(1, 10_000) as u32;
    let mut b = Duration::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        b = b.min(t.elapsed() / batch);
    }
    b
}

#[cfg(target_arch = "x86_64")]
mod probes {
    use core::arch::x86_64::*;

    /// Whether the CPU has AVX2, which both probes use.
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx2")
    }

    /// 32-byte stores of data that changes with every store, no loads.
    pub fn computed(out: &mut [u8]) {
        assert!(available());
        // SAFETY: AVX2 was checked just above.
        unsafe { computed_avx2(out) }
    }

    #[target_feature(enable = "avx2")]
    fn computed_avx2(out: &mut [u8]) {
        let one = _mm256_set1_epi8(1);
        let mut v = one;
        for d in out.chunks_exact_mut(32) {
            v = _mm256_xor_si256(v, one);
            // SAFETY: `d` is 32 bytes; `storeu` needs no alignment.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), v) };
        }
    }

    /// Per 64 rows: one word of each bitmap, ANDed, stored over 64 bytes.
    pub fn read_store(values: &[u8], validity: &[u8], out: &mut [u8]) {
        assert!(available());
        // SAFETY: AVX2 was checked just above.
        unsafe { read_store_avx2(values, validity, out) }
    }

    #[target_feature(enable = "avx2")]
    fn read_store_avx2(values: &[u8], validity: &[u8], out: &mut [u8]) {
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        let words = values.chunks_exact(8).zip(validity.chunks_exact(8));
        for ((v, m), d) in words.zip(out.chunks_exact_mut(64)) {
            let x = _mm256_set1_epi64x((word(v) & word(m)) as i64);
            // SAFETY: `d` is 64 bytes: two 32-byte stores; `storeu` needs no
            // alignment.
            unsafe {
                _mm256_storeu_si256(d.as_mut_ptr().cast(), x);
                _mm256_storeu_si256(d.as_mut_ptr().add(32).cast(), x);
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod probes {
    pub fn available() -> bool {
        false
    }
    pub fn computed(_: &mut [u8]) {}
    pub fn read_store(_: &[u8], _: &[u8], _: &mut [u8]) {}
}

fn main() {
    println!(
        "CPU: {}; unpack kernel: {}",
        cpu::describe(),
        Kernel::best()
    );
    let probes = probes::available();
    if !probes {
        println!("(no AVX2 here: the two probes are skipped)");
    }
    println!("ratios to fill of the same 64-byte aligned output, best of alternating rounds; offset 0, validity, negate; bitmaps of exactly rows / 8 bytes\n");
    println!(
        "{:>6} | {:>9} | {:>8} {:>12} {:>8} | {:>18}",
        "rows", "fill ns", "computed", "read + store", "unpack", "unpack / read+store"
    );
    for (rows, label) in [
        (4usize << 10, "4 Ki"),
        (64 << 10, "64 Ki"),
        (1 << 20, "1 Mi"),
        (16 << 20, "16 Mi"),
    ] {
        let values = XorShift::new(1).bytes(rows / 8);
        let validity = XorShift::new(2).validity(rows / 8);
        // Every column writes the same 64-byte aligned bytes (the probes'
        // stores would otherwise straddle cache lines; `fill` aligns itself
        // and `unpack` does from 16 KiB).
        let mut buf = vec![0u8; rows + 64];
        let at = buf.as_ptr().align_offset(64);
        let out = &mut buf[at..at + rows];
        let mut want = vec![0u8; rows];
        bitbytes::unpack_naive(&values, Some(&validity), 0, rows, true, &mut want).unwrap();
        bitbytes::unpack(&values, Some(&validity), 0, rows, true, out).unwrap();
        assert_eq!(&*out, &want[..], "unpack disagrees with unpack_naive");
        let (rounds, outer) = if rows >= 16 << 20 { (3, 5) } else { (10, 9) };
        let mut t = [Duration::MAX; 4];
        for _ in 0..outer {
            t[0] = t[0].min(best(rounds, || black_box(&mut *out).fill(black_box(1))));
            if probes {
                t[1] = t[1].min(best(rounds, || probes::computed(black_box(&mut *out))));
                t[2] = t[2].min(best(rounds, || {
                    probes::read_store(black_box(&values), black_box(&validity), out)
                }));
            }
            t[3] = t[3].min(best(rounds, || {
                bitbytes::unpack(black_box(&values), Some(&validity), 0, rows, true, out).unwrap()
            }));
        }
        let r = |i: usize| t[0].as_secs_f64() / t[i].as_secs_f64();
        if probes {
            println!(
                "{label:>6} | {:>9.0} | {:>8.2} {:>12.2} {:>8.2} | {:>18.2}",
                t[0].as_nanos(),
                r(1),
                r(2),
                r(3),
                t[2].as_secs_f64() / t[3].as_secs_f64()
            );
        } else {
            println!(
                "{label:>6} | {:>9.0} | {:>8} {:>12} {:>8.2} | {:>18}",
                t[0].as_nanos(),
                "-",
                "-",
                r(3),
                "-"
            );
        }
    }
}
