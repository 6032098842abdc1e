//! Side-by-side throughput of `unpack` against the per-row loop it replaces
//! (`unpack_naive`) and against the physical limit (`slice::fill` of the same
//! output bytes), per size and per kernel.
//!
//! ```text
//! cargo run --release --example throughput
//! ```
//!
//! Every measured call is first checked against `unpack_naive`. Times are the
//! best of several batches of calls; each row times `fill` and its kernel
//! alternately, three rounds each, so that the two see the same machine
//! state (the `fill` column is that row's); the ratios in the last columns
//! are what to quote. Outputs of at least `raw::stream_min_bytes()`
//! (5/8 of the last-level cache, 5 to 32 MiB) are written with
//! non-temporal stores by the SIMD kernels.
//!
//! At the end it says whether any kernel beat the dispatched one by more
//! than 5% at some size, confirmed by three more alternating rounds of the
//! two: on a CPU where the dispatch rule of `Kernel::best` is wrong, that
//! line names the faster kernel.

use bitbytes::raw::{unpack_with, Kernel};
use bitbytes::{unpack, unpack_naive};
use std::hint::black_box;

#[path = "../tests/support/cpu.rs"]
mod cpu;
#[path = "../tests/support/xorshift.rs"]
mod xorshift;
use std::time::{Duration, Instant};
use xorshift::XorShift;

const SIZES: [(usize, &str); 4] = [
    (4 << 10, "4 Ki"),
    (64 << 10, "64 Ki"),
    (1 << 20, "1 Mi"),
    (16 << 20, "16 Mi"),
];

/// Pseudo-random bytes (xorshift), so the branch-free kernels see real data.
fn bytes(n: usize, seed: u64) -> Vec<u8> {
    XorShift::new(seed | 1).bytes(n)
}

/// Best time per call of `f`, timing batches of calls long enough (about
/// 50 us) that the clock's resolution does not matter, over about `budget`.
fn best_of(budget: Duration, mut f: impl FnMut()) -> Duration {
    f(); // warm up (page faults, caches)
    let t = Instant::now();
    f();
    let one = t.elapsed().max(Duration::from_nanos(1));
    let batch = (Duration::from_micros(50).as_nanos() / one.as_nanos()).clamp(1, 10_000) as u32;
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < 3 || (start.elapsed() < budget && runs < 10_000) {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        best = best.min(t.elapsed() / batch);
        runs += 1;
    }
    best
}

fn grows(rows: usize, t: Duration) -> f64 {
    rows as f64 / t.as_secs_f64() / 1e9
}

fn main() {
    let kernels: Vec<Kernel> = Kernel::available().collect();
    println!("CPU: {}", cpu::describe());
    println!(
        "bitbytes unpack throughput, dispatched kernel: {} (available: {})",
        Kernel::best(),
        kernels
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("with validity, negate on; Grows/s = 10^9 rows (output bytes) per second; best of several runs\n");
    println!(
        "{:>6} {:>6} {:>10} | {:>8} {:>8} {:>8} | {:>11} {:>11}",
        "rows", "offset", "kernel", "naive", "unpack", "fill", "unpack/naive", "unpack/fill"
    );
    let mut faster = Vec::new();
    for (rows, label) in SIZES {
        let budget = Duration::from_millis(if rows >= 16 << 20 { 600 } else { 250 });
        let values = bytes(rows / 8 + 16, 1);
        let validity = XorShift::new(2).validity(rows / 8 + 16);
        let mut out = vec![0u8; rows];
        let mut want = vec![0u8; rows];
        for off in [0usize, 3] {
            unpack_naive(&values, Some(&validity), off, rows, true, &mut want).unwrap();
            let naive = best_of(budget, || {
                unpack_naive(
                    black_box(&values),
                    Some(&validity),
                    off,
                    rows,
                    true,
                    black_box(&mut out),
                )
                .unwrap()
            });
            let row = |name: &str, t: Duration, fill: Duration| {
                println!(
                    "{:>6} {:>6} {:>10} | {:>8.2} {:>8.2} {:>8.2} | {:>11.1}x {:>10.2}x",
                    label,
                    off,
                    name,
                    grows(rows, naive),
                    grows(rows, t),
                    grows(rows, fill),
                    naive.as_secs_f64() / t.as_secs_f64(),
                    fill.as_secs_f64() / t.as_secs_f64()
                );
            };
            // `None` is the dispatched `unpack`, `Some(k)` one forced kernel.
            let paths = std::iter::once(None).chain(kernels.iter().copied().map(Some));
            let mut dispatched = Duration::MAX;
            for kernel in paths {
                let run = |out: &mut [u8]| match kernel {
                    None => unpack(black_box(&values), Some(&validity), off, rows, true, out),
                    Some(k) => {
                        unpack_with(k, black_box(&values), Some(&validity), off, rows, true, out)
                    }
                };
                let name = kernel.map_or("dispatch", |k| k.name());
                out.fill(7);
                run(&mut out).unwrap();
                assert_eq!(out, want, "{name} disagrees with unpack_naive");
                // `fill` and the kernel alternately, three rounds each, so
                // that the ratio compares the two in the same machine state.
                let (mut fill, mut t) = (Duration::MAX, Duration::MAX);
                for _ in 0..3 {
                    fill = fill.min(best_of(budget / 3, || {
                        black_box(&mut out[..]).fill(black_box(1))
                    }));
                    t = t.min(best_of(budget / 3, || run(black_box(&mut out)).unwrap()));
                }
                row(name, t, fill);
                match kernel {
                    None => dispatched = t,
                    // A kernel other than the dispatched one looks faster:
                    // time the two again, alternately, and report it only if
                    // it wins every round (one noisy sample is no verdict).
                    Some(k)
                        if k != Kernel::best()
                            && t.as_secs_f64() * 1.05 < dispatched.as_secs_f64() =>
                    {
                        let dispatch = |out: &mut [u8]| {
                            unpack(black_box(&values), Some(&validity), off, rows, true, out)
                        };
                        let rounds: Vec<(Duration, Duration)> = (0..3)
                            .map(|_| {
                                let d = best_of(budget, || dispatch(black_box(&mut out)).unwrap());
                                let c = best_of(budget, || run(black_box(&mut out)).unwrap());
                                (d, c)
                            })
                            .collect();
                        if rounds
                            .iter()
                            .all(|(d, c)| c.as_secs_f64() * 1.05 < d.as_secs_f64())
                        {
                            let (d, c) = rounds[2];
                            faster.push(format!(
                                "{label} rows, offset {off}: {k} {:.1} Grows/s, dispatched ({}) {:.1} (3 rounds out of 3)",
                                grows(rows, c),
                                Kernel::best(),
                                grows(rows, d)
                            ));
                        }
                    }
                    Some(_) => {}
                }
            }
        }
    }
    println!();
    if faster.is_empty() {
        println!(
            "no kernel beat the dispatched one ({}) by more than 5% at any size",
            Kernel::best()
        );
    } else {
        println!(
            "a kernel beat the dispatched one ({}) by more than 5% (on this CPU, consider \
             raw::unpack_with with that kernel, and tell us):",
            Kernel::best()
        );
        for line in &faster {
            println!("  {line}");
        }
    }
}
