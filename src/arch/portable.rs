//! The portable kernel: a 256-entry table, one lookup and one 8-byte store
//! per 8 rows. Always compiled; the fallback on every target.

use super::for_each_word;
use crate::bits::Words;

/// `TABLE[b]` is the little-endian `u64` whose byte `i` is bit `i` of `b`
/// (0 or 1): the eight output bytes of one bitmap byte. 2 KiB, stays in L1.
pub(crate) const TABLE: [u64; 256] = build_table();

const fn build_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u64;
        let mut i = 0;
        while i < 8 {
            if (b >> i) & 1 == 1 {
                v |= 1 << (8 * i);
            }
            i += 1;
        }
        table[b] = v;
        b += 1;
    }
    table
}

/// Expands one word to 64 bytes of 0/1.
#[inline(always)]
pub(crate) fn expand_word(w: u64, out: &mut [u8; 64]) {
    for (j, dst) in out.chunks_exact_mut(8).enumerate() {
        let byte = (w >> (8 * j)) as u8;
        dst.copy_from_slice(&TABLE[byte as usize].to_le_bytes());
    }
}

/// Expands `values` (negated by `neg`, masked by `validity`) into `out`.
pub(crate) fn expand(values: Words<'_>, validity: Option<Words<'_>>, neg: u64, out: &mut [u8]) {
    for_each_word(values, validity, neg, out, expand_word);
}

/// Packs one word: bit `i` of the result is `bytes[i] != 0`.
///
/// Eight bytes at a time: a SWAR step sets the top bit of every non-zero byte
/// (`(x & 0x7f..) + 0x7f..` carries into bit 7 exactly when the low seven bits
/// are not all zero, and `| x` adds bit 7 itself; no carry crosses a byte),
/// shifting it down gives bytes of 0/1, and multiplying those by
/// `0x0102040810204080` gathers byte `i` into bit `56 + i` (the partial
/// products land on distinct bits, so nothing carries).
#[inline(always)]
pub(crate) fn pack_word(bytes: &[u8; 64]) -> u64 {
    let mut w = 0u64;
    for (j, src) in bytes.chunks_exact(8).enumerate() {
        w |= pack8(src) << (8 * j);
    }
    w
}

/// Eight bytes (little-endian) to the low 8 bits of a word, as [`pack_word`]
/// does for each of its eight.
#[inline(always)]
fn pack8(src: &[u8]) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let x = u64::from_le_bytes(src.try_into().expect("8 bytes"));
    let ones = ((((x & LOW7) + LOW7) | x) & HIGH) >> 7;
    ones.wrapping_mul(GATHER) >> 56
}

/// Packs `bytes` into `out`, 64 bytes per 8-byte little-endian word
/// (`bytes.len() == 8 * out.len()`).
pub(crate) fn pack(bytes: &[u8], out: &mut [u8]) {
    debug_assert_eq!(bytes.len(), out.len() * 8);
    for (dst, src) in out.chunks_exact_mut(8).zip(bytes.chunks_exact(64)) {
        let w = pack_word(src.try_into().expect("chunks_exact(64)"));
        dst.copy_from_slice(&w.to_le_bytes());
    }
}

/// Packs fewer than 64 bytes into the low bits of a word (higher bits 0):
/// eight at a time straight from `bytes`, the last 1 to 7 one by one.
/// (Copying them into a zeroed 64-byte buffer first, then reading it back in
/// words, stalled on store forwarding: `pack` of 64 bytes at bit offset 3,
/// whose head and tail come here, took 34 ns against 9 at offset 0; AMD EPYC
/// family 25 model 17.)
pub(crate) fn pack_partial(bytes: &[u8]) -> u64 {
    debug_assert!(bytes.len() < 64);
    let chunks = bytes.chunks_exact(8);
    let rest = chunks.remainder();
    let mut w = 0u64;
    for (j, src) in chunks.enumerate() {
        w |= pack8(src) << (8 * j);
    }
    let last = rest
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &b)| acc | (u64::from(b != 0) << i));
    w | (last << (8 * (bytes.len() / 8)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_entry_matches_the_bit_definition() {
        for (b, entry) in TABLE.iter().enumerate() {
            let bytes = entry.to_le_bytes();
            for (i, &byte) in bytes.iter().enumerate() {
                assert_eq!(byte, ((b >> i) & 1) as u8, "entry {b:#04x} byte {i}");
            }
        }
    }

    #[test]
    fn pack_partial_matches_the_definition_for_every_length() {
        let mut rng = crate::xorshift::XorShift::new(0x0123_4567_89ab_cdef);
        for len in 0..64 {
            for _ in 0..50 {
                // Zero about half the bytes; the others any value.
                let bytes: std::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        if rng.next_u8() & 1 == 0 {
                            0
                        } else {
                            rng.next_u8()
                        }
                    })
                    .collect();
                let w = pack_partial(&bytes);
                for i in 0..64 {
                    let want = i < len && bytes[i] != 0;
                    assert_eq!((w >> i) & 1 == 1, want, "len {len} bit {i}: {bytes:?}");
                }
            }
        }
    }

    #[test]
    fn pack_word_matches_the_definition_for_every_byte_value() {
        for b in 0..=255u8 {
            for pos in 0..64 {
                let mut bytes = [0u8; 64];
                bytes[pos] = b;
                // A neighbour set to every value must not disturb `pos`.
                bytes[(pos + 1) % 64] = b.wrapping_mul(7);
                let w = pack_word(&bytes);
                for (i, &x) in bytes.iter().enumerate() {
                    assert_eq!((w >> i) & 1 == 1, x != 0, "byte {b:#04x} at {pos}, bit {i}");
                }
            }
        }
    }
}
