//! Deterministic pseudo-random data for tests, benchmarks and examples: one
//! xorshift64 generator instead of a copy in every file. Included by path
//! (`#[path = ".../tests/support/xorshift.rs"] mod xorshift;`) from the crate's
//! unit tests, the integration tests, the benches and the examples; it needs
//! nothing but `core` and `std::vec::Vec`.
#![allow(dead_code)]

/// Marsaglia's xorshift64 (shifts 13, 7, 17). Not for anything but test data.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (0 is replaced by 1: xorshift stays at 0).
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 { 1 } else { seed })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// The low byte of the next word.
    pub fn next_u8(&mut self) -> u8 {
        self.next_u64() as u8
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> std::vec::Vec<u8> {
        (0..n).map(|_| self.next_u8()).collect()
    }

    /// `n` random bytes with about three bits in four set (`a | b`): a
    /// validity bitmap with some nulls.
    pub fn validity(&mut self, n: usize) -> std::vec::Vec<u8> {
        (0..n).map(|_| self.next_u8() | self.next_u8()).collect()
    }
}
