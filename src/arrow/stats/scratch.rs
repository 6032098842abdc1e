//! Bitmaps reused across leaves and across calls.
//!
//! Every leaf of a statistics test builds two bitmaps of one bit per
//! container (128 KiB each for 1 Mi containers), and the test one more for
//! the active containers. Allocated fresh, each sits right at glibc's mmap
//! threshold: the allocator consolidates, trims and regrows the heap, and
//! the kernel zeroes a page per 4 KiB touched (8–15% of a three-leaf And
//! over 1 Mi containers). Instead the bitmaps a test is done with go back
//! to a small per-thread pool and the next one takes them: a memset in
//! cache, no system call, no page fault.

use std::cell::RefCell;
use std::vec::Vec;

/// Bitmaps a thread keeps between tests (a three-leaf And needs five at
/// once).
const KEEP: usize = 8;

/// The largest bitmap kept, in words (4 Mi containers, 512 KiB): a thread
/// keeps at most `KEEP` of them, 4 MiB, whatever the largest test it ran.
const KEEP_MAX_WORDS: usize = 1 << 16;

std::thread_local! {
    static POOL: RefCell<Vec<Vec<u64>>> = const { RefCell::new(Vec::new()) };
}

/// `n` words, each `fill`: a kept bitmap when the thread has one.
pub(crate) fn words(n: usize, fill: u64) -> Vec<u64> {
    let kept = POOL
        .try_with(|pool| pool.try_borrow_mut().ok()?.pop())
        .ok()
        .flatten();
    match kept {
        Some(mut v) => {
            v.clear();
            v.resize(n, fill);
            v
        }
        None => std::vec![fill; n],
    }
}

/// Keeps `v` for a later [`words`] (drops it when the pool is full, or
/// when it holds more than [`KEEP_MAX_WORDS`]).
pub(crate) fn recycle(v: Vec<u64>) {
    if v.capacity() == 0 || v.capacity() > KEEP_MAX_WORDS {
        return;
    }
    let _ = POOL.try_with(|pool| {
        if let Ok(mut pool) = pool.try_borrow_mut() {
            if pool.len() < KEEP {
                pool.push(v);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_bitmaps_come_back_filled() {
        for n in [0usize, 1, 5, 300, 2] {
            let v = words(n, !0);
            assert_eq!(v, std::vec![!0u64; n]);
            recycle(v);
            let v = words(n + 1, 0);
            assert_eq!(v, std::vec![0u64; n + 1]);
            recycle(v);
        }
        let many: Vec<Vec<u64>> = (0..2 * KEEP).map(|i| words(i, 7)).collect();
        for (i, v) in many.iter().enumerate() {
            assert_eq!(v, &std::vec![7u64; i]);
        }
        many.into_iter().for_each(recycle);
        assert!(POOL.with(|p| p.borrow().len()) <= KEEP);
        // A bitmap over the limit is not kept.
        POOL.with(|p| p.borrow_mut().clear());
        recycle(std::vec![0u64; KEEP_MAX_WORDS + 1]);
        assert_eq!(POOL.with(|p| p.borrow().len()), 0);
        recycle(std::vec![0u64; KEEP_MAX_WORDS]);
        assert_eq!(POOL.with(|p| p.borrow().len()), 1);
    }
}
