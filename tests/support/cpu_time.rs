//! On-CPU time of the calling thread, for benches on a shared machine.
//!
//! Linux's `/proc/thread-self/schedstat` starts with the nanoseconds the
//! thread has run on a CPU (user and kernel time, page faults included),
//! as the scheduler keeps it: it moves a tick (4 ms here) at a time, so
//! time a run of calls, not one short call. On a machine whose other jobs
//! take the cores away, the least wall time of many calls still counts the
//! slices the thread waited; its on-CPU time does not (measured here under
//! a load of 6 on 2 cores: a loop of 12 ms on the CPU took 40 to 60 ms by
//! the clock).
//!
//! `None` where the file is missing (not Linux) or unreadable.

use std::time::Duration;

/// The thread's on-CPU time so far, or `None`.
pub fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse::<u64>().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The on-CPU time `f` takes, or `None` where [`cpu_time`] is.
pub fn on_cpu(f: impl FnOnce()) -> Option<Duration> {
    let start = cpu_time();
    f();
    let end = cpu_time();
    start.zip(end).map(|(s, e)| e.saturating_sub(s))
}
