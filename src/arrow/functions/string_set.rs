//! IN over strings and binaries: the set kernel behind
//! [`InStrategy::Hash`](super::InStrategy::Hash) for Utf8, LargeUtf8,
//! Binary, LargeBinary, Utf8View and BinaryView columns.
//!
//! The distinct non-null literals go into a [`ByteSet`]:
//!
//! - a **length filter**, one `u64`: bit `n < 63` says some literal is `n`
//!   bytes long, bit 63 that some literal is 63 bytes or longer. A whole word
//!   of 64 rows is tested from the offsets at once (the string kernels'
//!   length word loop, [`len_word`]) or from the views' inline lengths;
//! - a small **flat open-addressing table** (a power of two of slots, at
//!   most half full, linear probing) keyed by the length, the first 8 bytes
//!   (zero above a shorter string) and the last 8 bytes (zero below 8
//!   bytes). For strings of at most 16 bytes the key is the whole string,
//!   so a key hit is a match; longer ones compare the bytes between the
//!   first and last 8 on a key hit only.
//!
//! Only the rows the length filter passes build a key, and only the keys
//! whose bit is set in a hash filter (64 bits a literal) probe the table;
//! after a word of many matches the next word also checks each key's first
//! slot without a branch, so most matches of at most 16 bytes need no probe. Over offsets the
//! first and last 8 bytes of a row of at least 8 bytes lie inside the row;
//! a shorter row's head is one masked 8-byte load where 8 bytes remain in
//! the values buffer and a copy of its bytes at the buffer's end, so no
//! load leaves the buffer (a buffer imported through the C Data Interface
//! has no padding). A view of at most 12 bytes is keyed from the view alone
//! (its bytes are inline), a longer one from its data buffer.
//!
//! The bits of a word of 64 rows go to one `u64`; the bits of null rows are
//! unspecified (the caller applies the nulls). Dictionaries and run-end
//! encodings are tested on their values by the caller
//! ([`per_value`](super::logical::per_value)).

use super::string_kernels::{
    eq_bytes, len_word, load, low_bytes_mask, refine, view_len, view_mask, words, INLINE,
};
use arrow_array::types::{ByteArrayType, ByteViewType};
use arrow_array::{GenericByteArray, GenericByteViewArray, OffsetSizeTrait};
use arrow_buffer::BooleanBuffer;
use std::vec;
use std::vec::Vec;

/// A set of byte strings for IN: a length filter and a flat hash table
/// keyed by the length and the first and last 8 bytes.
pub(crate) struct ByteSet<'a> {
    /// Bit `n < 63`: a literal of `n` bytes; bit 63: one of 63 or more.
    lengths: u64,
    /// `mask + 1` slots, at most half of them used.
    slots: Vec<Slot>,
    mask: usize,
    /// `64 - log2(slots)`: the key hash's high bits pick the slot.
    shift: u32,
    /// A filter of the literals' key hashes, 64 bits a literal or more:
    /// bit `hash >> filter_shift` is set for each literal. Most rows that
    /// match no literal stop here, branch-free, before any probe.
    filter: Vec<u64>,
    filter_shift: u32,
    /// The distinct literals, indexed by [`Slot::lit`].
    literals: Vec<&'a [u8]>,
}

/// One slot of the table: a literal's key, and its index (`EMPTY`: none).
#[derive(Debug, Clone, Copy)]
struct Slot {
    head: u64,
    tail: u64,
    len: usize,
    lit: usize,
}

const EMPTY: usize = usize::MAX;

/// The length filter's bit for a string of `n` bytes.
#[inline(always)]
fn length_bit(n: usize) -> u64 {
    1u64 << n.min(63)
}

/// The first and last 8 bytes of `b` (for a string of at most 8 bytes: its
/// bytes, zero above, and no tail).
#[inline(always)]
fn parts(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    if n >= 8 {
        (load(&b[..8]), load(&b[n - 8..]))
    } else {
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(b);
        (u64::from_le_bytes(w), 0)
    }
}

/// The first and last 8 bytes of the row `values[s..s + n]`, as [`parts`]:
/// a short row's head by one masked load when 8 bytes remain in the buffer.
#[inline(always)]
fn row_parts(values: &[u8], s: usize, n: usize) -> (u64, u64) {
    if n < 8 {
        if let Some(w) = values.get(s..s + 8) {
            return (load(w) & low_bytes_mask(n), 0);
        }
    }
    parts(&values[s..s + n])
}

impl<'a> ByteSet<'a> {
    /// The set of `literals` (duplicates kept once).
    pub(crate) fn new(literals: impl IntoIterator<Item = &'a [u8]>) -> Self {
        let literals: Vec<&[u8]> = literals.into_iter().collect();
        let size = (2 * literals.len()).next_power_of_two().max(16);
        let filter_bits = (64 * literals.len()).next_power_of_two().max(1024);
        let mut set = ByteSet {
            lengths: 0,
            slots: vec![
                Slot {
                    head: 0,
                    tail: 0,
                    len: 0,
                    lit: EMPTY,
                };
                size
            ],
            mask: size - 1,
            shift: 64 - size.trailing_zeros(),
            filter: vec![0; filter_bits / 64],
            filter_shift: 64 - filter_bits.trailing_zeros(),
            literals: Vec::with_capacity(literals.len()),
        };
        for lit in literals {
            let (head, tail) = parts(lit);
            // A duplicate finds its first copy.
            let Err(i) = set.find(head, tail, lit.len(), lit) else {
                continue;
            };
            set.slots[i] = Slot {
                head,
                tail,
                len: lit.len(),
                lit: set.literals.len(),
            };
            set.literals.push(lit);
            let f = (set.hash(head, tail, lit.len()) >> set.filter_shift) as usize;
            set.filter[f / 64] |= 1 << (f % 64);
            set.lengths |= length_bit(lit.len());
        }
        set
    }

    /// The hash of a key: its high bits pick the slot and the filter bit.
    #[inline(always)]
    fn hash(&self, head: u64, tail: u64, n: usize) -> u64 {
        let k = head.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
            ^ tail
            ^ (n as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        k.wrapping_mul(0xff51_afd7_ed55_8ccd)
    }

    /// A first look at a key, branch-free: `(sure, maybe)`. `sure` (only
    /// when `eager`): the key's first slot holds it and the string is at
    /// most 16 bytes long (so the key is the whole string): a match.
    /// `maybe`: not sure, but the key's filter bit is set, so
    /// [`Self::contains`] must probe. Neither: no literal has this key.
    ///
    /// The callers are eager after a word of at least [`EAGER_FROM`]
    /// matches: the slot load then saves a probe per match, while where few
    /// rows match it only costs (always eager measured 1.2x on many-match
    /// short rows and 0.75-0.9x on few-match and on paths; adaptive 1.1-1.2x
    /// and 0.9-1.0x; AMD EPYC family 25 model 17, Zen 4, docs/strings.md).
    #[inline(always)]
    fn look(&self, head: u64, tail: u64, n: usize, eager: bool) -> (bool, bool) {
        let h = self.hash(head, tail, n);
        let f = (h >> self.filter_shift) as usize;
        let filtered = self.filter[f / 64] >> (f % 64) & 1 != 0;
        if !eager {
            return (false, filtered);
        }
        let slot = &self.slots[(h >> self.shift) as usize];
        let sure = (slot.lit != EMPTY)
            & (slot.head == head)
            & (slot.tail == tail)
            & (slot.len == n)
            & (n <= 16);
        (sure, filtered & !sure)
    }

    /// `Ok(slot)` of the literal equal to `row` (whose key is `head`,
    /// `tail`, `n`), else `Err` of the empty slot that ends its probe. The
    /// bytes between the first and last 8 are compared on a key hit only,
    /// and only when the row is longer than 16 bytes.
    #[inline(always)]
    fn find(&self, head: u64, tail: u64, n: usize, row: &[u8]) -> Result<usize, usize> {
        let mut i = (self.hash(head, tail, n) >> self.shift) as usize;
        loop {
            let slot = self.slots[i];
            if slot.lit == EMPTY {
                return Err(i);
            }
            if slot.head == head
                && slot.tail == tail
                && slot.len == n
                && (n <= 16 || eq_bytes(&row[8..n - 8], &self.literals[slot.lit][8..n - 8]))
            {
                return Ok(i);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Whether `row` (of `n` bytes, key `head`, `tail`) is in the set.
    #[inline(always)]
    fn contains(&self, head: u64, tail: u64, n: usize, row: &[u8]) -> bool {
        self.find(head, tail, n, row).is_ok()
    }

    /// Whether a string of `n` bytes passes the length filter.
    #[inline(always)]
    fn length_ok(&self, n: usize) -> bool {
        self.lengths & length_bit(n) != 0
    }

    /// Membership of the rows given by `offsets` (`len + 1` of them) into
    /// the whole `values` buffer.
    fn offsets<O: OffsetSizeTrait>(&self, offsets: &[O], values: &[u8]) -> BooleanBuffer {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.offsets_avx2(offsets, values) };
        }
        self.offsets_words(offsets, values)
    }

    /// [`Self::offsets_words`] compiled for AVX2 (the length filter's word
    /// loop vectorises wider).
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn offsets_avx2<O: OffsetSizeTrait>(
        &self,
        offsets: &[O],
        values: &[u8],
    ) -> BooleanBuffer {
        self.offsets_words(offsets, values)
    }

    /// A word of 64 rows at a time: the length filter over the offsets;
    /// then each candidate's key from its first and last 8 bytes against
    /// the filter, without a branch when the word's loads all fit in the
    /// buffer; then a probe per survivor.
    #[inline(always)]
    fn offsets_words<O: OffsetSizeTrait>(&self, offsets: &[O], values: &[u8]) -> BooleanBuffer {
        let len = offsets.len().saturating_sub(1);
        let at = |i: usize| offsets[i].as_usize();
        let mut eager = false;
        words(len, |base, k| {
            let m = len_word(offsets, base, k, |n| self.length_ok(n.as_usize()));
            if m == 0 {
                eager = false;
                return 0;
            }
            // Every row's 8 bytes from its start and up to its end lie in
            // the buffer: the word's rows start at 8 or later and end 8
            // bytes or more before the buffer's end.
            let fits = k == 64 && at(base) >= 8 && at(base + 64) + 8 <= values.len();
            let (sure, maybe) = if fits {
                look_bits(m, |j| {
                    let (s, e) = (at(base + j), at(base + j + 1));
                    let n = e - s;
                    let head = load(&values[s..s + 8]) & head_mask(n);
                    let tail = load(&values[e - 8..e]) & tail_mask(n);
                    self.look(head, tail, n, eager)
                })
            } else {
                look_bits(m, |j| {
                    let (s, e) = (at(base + j), at(base + j + 1));
                    let (head, tail) = row_parts(values, s, e - s);
                    self.look(head, tail, e - s, eager)
                })
            };
            let out = sure
                | refine(maybe, |j| {
                    let (s, e) = (at(base + j), at(base + j + 1));
                    let (head, tail) = row_parts(values, s, e - s);
                    self.contains(head, tail, e - s, &values[s..e])
                });
            eager = out.count_ones() >= EAGER_FROM;
            out
        })
    }

    /// Membership of string views, a word at a time: the length filter from
    /// the views; inline candidates keyed from the view alone, out-of-line
    /// ones from their data buffer, each against the filter; then a probe
    /// per survivor.
    fn views(&self, views: &[u128], buffers: &[&[u8]]) -> BooleanBuffer {
        // The key of an inline view (its bytes sit in the view's bytes
        // 4..4 + n), branch-free.
        let inline = |v: u128| -> (u64, u64, usize) {
            let n = view_len(v);
            let head = (v >> 32) as u64 & head_mask(n);
            let tail = (v >> (8 * (n.max(8) - 4))) as u64 & tail_mask(n);
            (head, tail, n)
        };
        let outside = |v: u128| -> &[u8] {
            let (b, o) = ((v >> 64) as u32 as usize, (v >> 96) as u32 as usize);
            &buffers[b][o..o + view_len(v)]
        };
        let mut eager = false;
        words(views.len(), |base, k| {
            let m = view_mask(views, base, k, |v| self.length_ok(view_len(v)));
            if m == 0 {
                eager = false;
                return 0;
            }
            let inlined = view_mask(views, base, k, |v| view_len(v) <= INLINE);
            let (small_sure, small) = look_bits(m & inlined, |j| {
                let (head, tail, n) = inline(views[base + j]);
                self.look(head, tail, n, eager)
            });
            let (large_sure, large) = look_bits(m & !inlined, |j| {
                let row = outside(views[base + j]);
                let (head, tail) = parts(row);
                self.look(head, tail, row.len(), eager)
            });
            let small = refine(small, |j| {
                let (head, tail, n) = inline(views[base + j]);
                self.contains(head, tail, n, &[])
            });
            let out = small_sure
                | small
                | large_sure
                | refine(large, |j| {
                    let row = outside(views[base + j]);
                    let (head, tail) = parts(row);
                    self.contains(head, tail, row.len(), row)
                });
            eager = out.count_ones() >= EAGER_FROM;
            out
        })
    }
}

/// From this many matches in a word on, the next word looks eagerly
/// ([`ByteSet::look`]).
const EAGER_FROM: u32 = 8;

/// The mask of a string's first `min(n, 8)` bytes in its head word,
/// branch-free.
#[inline(always)]
fn head_mask(n: usize) -> u64 {
    ((1u128 << (8 * n.min(8))) - 1) as u64
}

/// The mask of a string's tail word: all of it from 8 bytes on, else none.
#[inline(always)]
fn tail_mask(n: usize) -> u64 {
    0u64.wrapping_sub(u64::from(n >= 8))
}

/// The bits of `m` whose row (bit index) is sure and those it may be, as
/// [`ByteSet::look`] says, visiting only the set bits, with no branch on the
/// answers.
#[inline(always)]
fn look_bits(m: u64, mut look: impl FnMut(usize) -> (bool, bool)) -> (u64, u64) {
    let (mut sure, mut maybe) = (0u64, 0u64);
    let mut rest = m;
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let (s, m) = look(j);
        sure |= u64::from(s) << j;
        maybe |= u64::from(m) << j;
    }
    (sure, maybe)
}

/// IN over Utf8, LargeUtf8, Binary or LargeBinary: one bit per row, the
/// bits of null rows unspecified.
pub(crate) fn byte_array<T: ByteArrayType>(
    column: &GenericByteArray<T>,
    literals: &GenericByteArray<T>,
) -> BooleanBuffer {
    let set = ByteSet::new(literals.iter().flatten().map(AsRef::as_ref));
    set.offsets(column.value_offsets(), column.values().as_slice())
}

/// IN over Utf8View or BinaryView: one bit per row, the bits of null rows
/// unspecified.
pub(crate) fn byte_view<T: ByteViewType + ?Sized>(
    column: &GenericByteViewArray<T>,
    literals: &GenericByteViewArray<T>,
) -> BooleanBuffer {
    let set = ByteSet::new(literals.iter().flatten().map(AsRef::as_ref));
    let buffers: Vec<&[u8]> = column.data_buffers().iter().map(|b| b.as_slice()).collect();
    set.views(column.views().as_ref(), &buffers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable word loop and the AVX2 one agree with a row-by-row
    /// `HashSet`, on rows of every length 0..40 and 64+ ending at the end of
    /// an exact values buffer, sliced, with literals sharing first and last
    /// 8 bytes.
    #[test]
    fn portable_and_avx2_agree_with_rows() {
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        let mut word =
            |n: usize| -> Vec<u8> { (0..n).map(|_| b'a' + (next() % 2) as u8).collect() };
        let mut lits: Vec<Vec<u8>> = (0..41).map(&mut word).collect();
        lits.extend((0..30).map(|i| word(i % 20 + 17)));
        lits.push(word(70));
        lits.push(lits[5].clone());
        let mut offsets = vec![0i64];
        let mut values = Vec::new();
        for i in 0..700 {
            let row = if i % 3 == 0 {
                lits[i % lits.len()].clone()
            } else {
                word(i % 43 + if i % 7 == 0 { 40 } else { 0 })
            };
            values.extend_from_slice(&row);
            offsets.push(values.len() as i64);
        }
        values.shrink_to_fit();
        let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
        for count in [0, 1, 3, 4, 17, lits.len()] {
            let set = ByteSet::new(lits[..count].iter().map(Vec::as_slice));
            for from in [0, 5, 699] {
                let want: Vec<bool> = (from..700)
                    .map(|i| {
                        let row = &values[offsets[i] as usize..offsets[i + 1] as usize];
                        lits[..count].iter().any(|l| l == row)
                    })
                    .collect();
                let portable = set.offsets_words(&offsets[from..], &values);
                assert_eq!(portable.iter().collect::<Vec<_>>(), want, "{count} {from}");
                assert_eq!(set.offsets_words(&small[from..], &values), portable);
                assert_eq!(set.offsets(&offsets[from..], &values), portable);
                assert_eq!(set.offsets(&small[from..], &values), portable);
            }
        }
    }
}
