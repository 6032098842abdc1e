//! AVX2 selection vectors: a 256-entry table holds the bit positions of
//! every byte value (8 bytes an entry, 2 KiB); each bitmap byte loads its
//! entry, widens it to eight `u32` lanes (`vpmovzxbd`), adds the byte's first
//! index and stores 32 bytes, then the output advances by the byte's
//! popcount. Branch-free: the cost per word is the same at any density, so
//! sparse blocks go to the trailing-zero loop instead (see
//! [`SIMD_MIN_PER_MILLE`](crate::raw::SIMD_MIN_PER_MILLE)).
//!
//! The counts are the portable code compiled with AVX2 and POPCNT (LLVM
//! vectorises them).

use crate::arch::indices::{count_source, drive, Decode, Source};
use crate::arch::portable_indices::{
    count_bytes_generic, count_nonzero_generic, decode_with_slack, Sparse,
};
use core::arch::x86_64::*;

/// Proof that the CPU supports AVX2, BMI1 and POPCNT.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Avx2Indices(());

impl Avx2Indices {
    /// `Some` when the CPU supports AVX2, BMI1 and POPCNT (with `std`: asked
    /// at run time; without: the compile-time target features).
    #[inline]
    pub(crate) fn new() -> Option<Avx2Indices> {
        #[cfg(feature = "std")]
        let yes = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("popcnt");
        #[cfg(not(feature = "std"))]
        let yes = cfg!(all(
            target_feature = "avx2",
            target_feature = "bmi1",
            target_feature = "popcnt"
        ));
        yes.then_some(Avx2Indices(()))
    }

    /// # Safety
    ///
    /// - The CPU must support AVX2, BMI1 and POPCNT.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[inline]
    pub(crate) unsafe fn new_unchecked() -> Avx2Indices {
        Avx2Indices(())
    }

    /// Every block of `src` into `out` (`out.len()` at least the count).
    #[inline]
    pub(crate) fn indices<S: Source>(self, src: S, base: u32, out: &mut [u32]) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { indices_avx2(self, src, base, out) }
    }

    /// The number of set bits of `src`.
    #[inline]
    pub(crate) fn count<S: Source>(self, src: S) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { count_avx2(src) }
    }

    /// See `IndicesKernel::count_bytes`.
    #[inline]
    pub(crate) fn count_bytes(self, values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { count_bytes_avx2(values, validity, neg) }
    }

    /// The number of non-zero bytes of `mask`.
    #[inline]
    pub(crate) fn count_nonzero(self, mask: &[u8]) -> usize {
        // SAFETY: `self` proves AVX2, BMI1 and POPCNT.
        unsafe { count_nonzero_avx2(mask) }
    }
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn indices_avx2<S: Source>(token: Avx2Indices, src: S, base: u32, out: &mut [u32]) -> usize {
    drive(src, &Sparse, &Table(token), base, out)
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn count_avx2<S: Source>(src: S) -> usize {
    count_source(src)
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn count_bytes_avx2(values: &[u8], validity: Option<&[u8]>, neg: u8) -> usize {
    let whole = values.len() / HS_BYTES * HS_BYTES;
    let (body, rest) = values.split_at(whole);
    let (body_m, rest_m) = match validity {
        Some(m) => {
            let (b, r) = m.split_at(whole);
            (Some(b), Some(r))
        }
        None => (None, None),
    };
    // Negation and validity chosen once per call: each costs an instruction
    // per vector inside the round.
    let hs = match (neg != 0, body_m) {
        (false, None) => harley_seal::<false, false>(body, body, 0),
        (true, None) => harley_seal::<true, false>(body, body, neg),
        (false, Some(m)) => harley_seal::<false, true>(body, m, 0),
        (true, Some(m)) => harley_seal::<true, true>(body, m, neg),
    };
    hs + count_bytes_generic(rest, rest_m, neg)
}

/// Bytes per round of [`harley_seal`]: sixteen 32-byte vectors.
const HS_BYTES: usize = 512;

/// `sum(popcount((values ^ neg) & validity))` over whole rounds of
/// [`HS_BYTES`] (`values.len()` a multiple of it, `validity` as long), by
/// the Harley-Seal carry-save adder tree of Muła, Kurz and Lemire ("Faster
/// Population Counts Using AVX2 Instructions", 2018): sixteen vectors are
/// reduced with carry-save adders to one vector of weight 16, which alone is
/// popcounted per round (`vpshufb` on nibbles, `vpsadbw`); the lower weights
/// are popcounted once at the end.
///
/// LLVM's own vectorisation of `count_ones` (a `vpshufb` popcount of every
/// vector) ran at 0.41 of reading the input (`cargo bench --bench indices --
/// counts`, 1 Mi rows, AMD EPYC family 25 model 17, AVX2 kernel forced,
/// 2026-11-30).
///
/// With `NEG` the values are XORed with `neg`; with `VALID` ANDed with
/// `validity` (as long as `values`; ignored without).
#[target_feature(enable = "avx2")]
fn harley_seal<const NEG: bool, const VALID: bool>(
    values: &[u8],
    validity: &[u8],
    neg: u8,
) -> usize {
    debug_assert_eq!(values.len() % HS_BYTES, 0);
    debug_assert!(!VALID || validity.len() == values.len());
    let negv = _mm256_set1_epi8(neg as i8);
    let load = |k: usize| -> __m256i {
        // SAFETY: `k + 32 <= values.len()` at every call (whole rounds of
        // 512 bytes, 16 vectors each), and with `VALID`, `validity` is as
        // long as `values`; `loadu` needs no alignment.
        unsafe {
            let mut v = _mm256_loadu_si256(values.as_ptr().add(k).cast());
            if NEG {
                v = _mm256_xor_si256(v, negv);
            }
            if VALID {
                v = _mm256_and_si256(v, _mm256_loadu_si256(validity.as_ptr().add(k).cast()));
            }
            v
        }
    };
    // Carry-save adder: (high, low) bits of a + b + c, bit by bit.
    let csa = |a: __m256i, b: __m256i, c: __m256i| {
        let u = _mm256_xor_si256(a, b);
        let high = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u, c));
        (high, _mm256_xor_si256(u, c))
    };
    let zero = _mm256_setzero_si256();
    let (mut ones, mut twos, mut fours, mut eights) = (zero, zero, zero, zero);
    let mut total = zero; // four u64 counts of weight 16
    for round in (0..values.len()).step_by(HS_BYTES) {
        let d = |i: usize| load(round + 32 * i);
        let (twos_a, o) = csa(ones, d(0), d(1));
        let (twos_b, o) = csa(o, d(2), d(3));
        let (fours_a, t) = csa(twos, twos_a, twos_b);
        let (twos_a, o) = csa(o, d(4), d(5));
        let (twos_b, o) = csa(o, d(6), d(7));
        let (fours_b, t) = csa(t, twos_a, twos_b);
        let (eights_a, f) = csa(fours, fours_a, fours_b);
        let (twos_a, o) = csa(o, d(8), d(9));
        let (twos_b, o) = csa(o, d(10), d(11));
        let (fours_a, t) = csa(t, twos_a, twos_b);
        let (twos_a, o) = csa(o, d(12), d(13));
        let (twos_b, o) = csa(o, d(14), d(15));
        let (fours_b, t) = csa(t, twos_a, twos_b);
        let (eights_b, f) = csa(f, fours_a, fours_b);
        let (sixteens, e) = csa(eights, eights_a, eights_b);
        total = _mm256_add_epi64(total, popcount(sixteens));
        (ones, twos, fours, eights) = (o, t, f, e);
    }
    let total = _mm256_add_epi64(
        _mm256_add_epi64(
            _mm256_slli_epi64::<4>(total),
            _mm256_slli_epi64::<3>(popcount(eights)),
        ),
        _mm256_add_epi64(
            _mm256_add_epi64(
                _mm256_slli_epi64::<2>(popcount(fours)),
                _mm256_slli_epi64::<1>(popcount(twos)),
            ),
            popcount(ones),
        ),
    );
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes; `storeu` needs no alignment.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), total) };
    lanes.iter().sum::<u64>() as usize
}

/// The popcount of each 64-bit lane: `vpshufb` on both nibbles of every
/// byte, then `vpsadbw` sums each lane's eight byte counts.
#[target_feature(enable = "avx2")]
#[inline]
fn popcount(v: __m256i) -> __m256i {
    #[rustfmt::skip]
    let table = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    );
    let nibble = _mm256_set1_epi8(0x0f);
    let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble));
    let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
    _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256())
}

/// # Safety
///
/// - The CPU must support AVX2, BMI1 and POPCNT.
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn count_nonzero_avx2(mask: &[u8]) -> usize {
    count_nonzero_generic(mask)
}

/// `POSITIONS[b]`: the positions of the set bits of `b`, ascending, then 0s.
static POSITIONS: [[u8; 8]; 256] = positions();

const fn positions() -> [[u8; 8]; 256] {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut n) = (0, 0);
        while i < 8 {
            if (b >> i) & 1 == 1 {
                t[b][n] = i as u8;
                n += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// The table decoder; holding the token proves AVX2.
struct Table(Avx2Indices);

impl Decode for Table {
    #[inline(always)]
    fn decode(&self, words: &[u64], base: u32, out: &mut [u32]) -> usize {
        decode_with_slack(words, base, out, |w, b, dst| {
            // SAFETY: `self.0` proves AVX2 and POPCNT.
            unsafe { table_word(w, b, dst) }
        })
    }
}

/// One word: eight table loads, eight 32-byte stores; returns the popcount.
///
/// # Safety
///
/// - The CPU must support AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn table_word(w: u64, base: u32, dst: &mut [u32; 64]) -> usize {
    let eight = _mm256_set1_epi32(8);
    let mut first = _mm256_set1_epi32(base as i32);
    let mut pos = 0usize;
    for k in 0..8 {
        let byte = (w >> (8 * k)) as u8;
        // SAFETY: an entry is 8 bytes; `loadl` reads 8 bytes, unaligned.
        let bits = unsafe { _mm_loadl_epi64(POSITIONS[usize::from(byte)].as_ptr().cast()) };
        let v = _mm256_add_epi32(_mm256_cvtepu8_epi32(bits), first);
        // SAFETY: `pos` is the popcount of the bytes before byte `k`, at most
        // `8 * k <= 56`, so the 8 lanes at `pos` are inside the 64 of `dst`.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(pos).cast(), v) };
        pos += byte.count_ones() as usize;
        first = _mm256_add_epi32(first, eight);
    }
    pos
}

#[cfg(test)]
mod tests {
    use crate::raw::IndicesKernel;

    #[test]
    fn matches_the_oracle() {
        match IndicesKernel::avx2() {
            Some(k) => crate::indices::tests::check_kernel(k),
            None => {
                std::eprintln!("AVX2 not available on this CPU: indices kernel not tested here")
            }
        }
    }

    /// The Harley-Seal byte count against the portable one: every length
    /// up to a little over four rounds, with and without validity and
    /// negation, sparse to full.
    #[test]
    fn count_bytes_matches_portable() {
        let Some(k) = IndicesKernel::avx2() else {
            std::eprintln!("AVX2 not available on this CPU: count not tested here");
            return;
        };
        let mut rng = crate::xorshift::XorShift::new(0x5851_f42d_4c95_7f2d);
        for density in [0u32, 1, 4, 8] {
            let n = 4 * super::HS_BYTES + 100;
            // Each bit set with probability density / 8.
            let keep = |rng: &mut crate::xorshift::XorShift| {
                (0..8).fold(0u8, |b, i| {
                    b | (u8::from(u32::from(rng.next_u8() % 8) < density) << i)
                })
            };
            let values: std::vec::Vec<u8> = (0..n).map(|_| keep(&mut rng)).collect();
            let validity: std::vec::Vec<u8> = (0..n).map(|_| rng.next_u8()).collect();
            for len in (0..=n).filter(|l| *l < 600 || l % 37 == 0 || l % 512 < 3) {
                for neg in [0u8, 0xff] {
                    for m in [None, Some(&validity[..len])] {
                        assert_eq!(
                            k.count_bytes(&values[..len], m, neg),
                            crate::arch::portable_indices::count_bytes(&values[..len], m, neg),
                            "density {density} len {len} neg {neg} validity {}",
                            m.is_some()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_table_entry_lists_the_set_bits() {
        for (b, entry) in super::POSITIONS.iter().enumerate() {
            let want: std::vec::Vec<u8> = (0..8).filter(|i| (b >> i) & 1 == 1).collect();
            assert_eq!(&entry[..want.len()], &want[..], "byte {b:#04x}");
            assert!(entry[want.len()..].iter().all(|&p| p == 0), "byte {b:#04x}");
        }
    }
}
