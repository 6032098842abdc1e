//! The portable kernel: a 256-entry table, one lookup and one 8-byte store
//! per 8 rows. Always compiled; the fallback on every target.

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

/// Expands `words` into `out` (`out.len() == 64 * words.len()`).
pub(crate) fn expand(words: &[u64], out: &mut [u8]) {
    debug_assert_eq!(out.len(), words.len() * 64);
    for (&w, dst) in words.iter().zip(out.chunks_exact_mut(64)) {
        let dst: &mut [u8; 64] = dst.try_into().expect("chunks_exact_mut(64)");
        expand_word(w, dst);
    }
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
}
