//! A bitmap over the span of an integer IN list: the long-list strategy of
//! IN / NOT IN when the literals lie close together.
//!
//! When the literals of an integer or temporal column span a small range
//! (`max - min` below [`MAX_SPAN`]), one bit per value of that range answers
//! each row with a subtraction, one load and one bit test, whatever the list
//! length. DataFusion's IN-list filter does the same. Wider spans use the
//! hash set ([`U64Set`](super::u64_set::U64Set)).

use arrow_buffer::BooleanBuffer;
use std::vec;
use std::vec::Vec;

/// The widest span (`max - min + 1` values) a bitmap covers: 8 Mi bits,
/// 1 MiB. Past it a bitmap no longer fits in L2 and the flat hash set,
/// which stays in L1 for thousands of literals, is as fast.
pub(crate) const MAX_SPAN: u64 = 8 << 20;

/// The bitmap may not be larger than this many bytes per literal (nor than
/// 64 KiB when that is more): a short list over a wide span is cheaper to
/// hash than to spread over a bitmap that must be zeroed and then misses
/// cache.
const BYTES_PER_LITERAL: u64 = 1024;

/// Membership by one bit per value in `[min, min + span]`.
pub(crate) struct RangeSet {
    min: u64,
    /// Bit `k` set when `min + k` is a literal; bits past the span are 0.
    words: Vec<u64>,
}

impl RangeSet {
    /// The set of `ordinals` (order-preserving `u64` images of the
    /// literals), or `None` when they span too wide a range for their
    /// number. `ordinals` must not be empty.
    pub(crate) fn new(ordinals: &[u64]) -> Option<Self> {
        let min = *ordinals.iter().min()?;
        let max = *ordinals.iter().max()?;
        let span = max - min; // `max - min + 1` values
        let bytes_allowed = (ordinals.len() as u64)
            .saturating_mul(BYTES_PER_LITERAL)
            .max(64 << 10);
        if span >= MAX_SPAN || span / 8 > bytes_allowed {
            return None;
        }
        let mut words = vec![0u64; (span / 64 + 1) as usize];
        for &o in ordinals {
            let k = o - min;
            words[(k / 64) as usize] |= 1 << (k % 64);
        }
        Some(Self { min, words })
    }

    /// Whether `ordinal` is in the set: values below `min` wrap around to a
    /// huge offset and miss like those above the span.
    #[inline(always)]
    pub(crate) fn contains(&self, ordinal: u64) -> bool {
        let k = ordinal.wrapping_sub(self.min);
        match self.words.get((k / 64) as usize) {
            Some(w) => (w >> (k % 64)) & 1 == 1,
            None => false,
        }
    }

    /// One bit per value, `ordinal(values[i])` in the set.
    pub(crate) fn members<T: Copy>(
        &self,
        values: &[T],
        ordinal: impl Fn(T) -> u64,
    ) -> BooleanBuffer {
        super::order::pack(values, |v| self.contains(ordinal(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_list() {
        let lists: [&[u64]; 5] = [
            &[0],
            &[5, 5, 70, 64, 63, 128],
            &[u64::MAX - 3, u64::MAX],
            &[1 << 40, (1 << 40) + 500_000],
            &[10, 200_000],
        ];
        for list in lists {
            let set = RangeSet::new(list).expect("small span");
            let min = *list.iter().min().unwrap();
            let probes = (0..300u64)
                .chain([u64::MAX, u64::MAX - 1, u64::MAX - 3, min.wrapping_sub(1)])
                .chain(
                    list.iter()
                        .flat_map(|&v| [v, v.wrapping_add(1), v.wrapping_sub(1)]),
                );
            for p in probes {
                assert_eq!(set.contains(p), list.contains(&p), "{list:?} probe {p}");
            }
        }
    }

    #[test]
    fn refuses_wide_spans() {
        assert!(RangeSet::new(&[0, MAX_SPAN]).is_none());
        assert!(RangeSet::new(&[0, u64::MAX]).is_none());
        // Two literals may span 512 Ki values (64 KiB), not more.
        assert!(RangeSet::new(&[0, (64 << 13) - 1]).is_some());
        assert!(RangeSet::new(&[0, 2 << 20]).is_none());
        assert!(RangeSet::new(&[]).is_none());
    }
}
