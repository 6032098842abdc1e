//! Appending bits, in one place.
//!
//! A [`WordSink`] keeps the bits that do not yet fill a word in a `u64` and
//! hands each completed 64-bit word to its [`WordStore`], once per 64 rows.
//! [`crate::pack`], [`crate::BitmapWriter`] (caller storage, no allocation)
//! and `BitmapBuilder` (a growing `Vec`) are this one accumulator over three
//! stores; only the store knows where a word goes and what "full" means.
//!
//! Every bulk append moves whole words: `append_bytes` packs 64 bytes per word
//! with a [`Kernel`], `append_packed` shift-merges 64 bits per word with a
//! [`BitSlice`], `append_n` writes 64 copies per word. A word entering at a
//! position that is not a multiple of 64 is split in two with two shifts.

use crate::arch::portable;
use crate::bits::BitSlice;
use crate::raw::Kernel;

/// Words packed per kernel call: 2048 rows, 256 bytes on the stack.
const BATCH_WORDS: usize = 32;

/// Where completed words go.
pub(crate) trait WordStore {
    /// Stores word number `index` (bits `64 * index .. 64 * index + 64` of the
    /// sink). Words arrive in order, each exactly once.
    fn store_word(&mut self, index: usize, word: u64);

    /// Stores the last, partial word number `index`: its low `n_bits` bits
    /// (`1..=63`), higher bits of `word` 0.
    fn store_tail(&mut self, index: usize, word: u64, n_bits: usize);
}

/// A bit accumulator over a [`WordStore`]. The appends here never check
/// capacity: the public types check (writer) or grow (builder) first.
#[derive(Clone, Debug, Default)]
pub(crate) struct WordSink<S> {
    pub(crate) store: S,
    acc: Acc,
}

/// The accumulator state, apart from the store so that a bulk append can
/// keep it in registers (a local copy) while the store writes memory.
#[derive(Clone, Copy, Debug, Default)]
struct Acc {
    /// Bits `64 * (pos / 64) .. pos`, LSB first; bits at `pos % 64` and
    /// above are 0.
    pending: u64,
    /// Bits appended, counted from the start of the store (including any head
    /// bits the sink was started with).
    pos: usize,
}

impl Acc {
    /// Appends the low `n` bits of `w` (`1 <= n <= 64`; bits of `w` at `n`
    /// and above must be 0), handing a completed word to `store`.
    #[inline(always)]
    fn push_word<S: WordStore>(&mut self, store: &mut S, w: u64, n: usize) {
        debug_assert!((1..=64).contains(&n));
        debug_assert!(n == 64 || w >> n == 0);
        let s = self.pos % 64;
        let merged = self.pending | (w << s);
        self.pos += n;
        if s + n >= 64 {
            store.store_word(self.pos / 64 - 1, merged);
            // The bits of `w` that did not fit: `w >> (64 - s)`, written so
            // that `s == 0` gives 0 instead of an overflowing shift.
            self.pending = (w >> 1) >> (63 - s);
        } else {
            self.pending = merged;
        }
    }
}

impl<S: WordStore> WordSink<S> {
    /// A sink whose first `head_bits < 64` bits are the low bits of `head`
    /// (the bits of a caller's byte that precede a bit offset).
    #[inline]
    pub(crate) fn new(store: S, head: u64, head_bits: usize) -> Self {
        debug_assert!(head_bits < 64);
        let pending = if head_bits == 0 {
            0
        } else {
            head & (u64::MAX >> (64 - head_bits))
        };
        WordSink {
            store,
            acc: Acc {
                pending,
                pos: head_bits,
            },
        }
    }

    /// Bits appended, head included.
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.acc.pos
    }

    /// The bits not yet stored (fewer than 64).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    #[inline]
    pub(crate) fn pending(&self) -> u64 {
        self.acc.pending
    }

    /// Appends one bit.
    #[inline(always)]
    pub(crate) fn push_bit(&mut self, v: bool) {
        let acc = &mut self.acc;
        acc.pending |= u64::from(v) << (acc.pos % 64);
        acc.pos += 1;
        if acc.pos.is_multiple_of(64) {
            self.store.store_word(acc.pos / 64 - 1, acc.pending);
            acc.pending = 0;
        }
    }

    /// Appends the words that `words` yields, each `(bits, n)` as in
    /// [`Acc::push_word`], with the accumulator in a local.
    #[inline(always)]
    fn push_words(&mut self, words: impl Iterator<Item = (u64, usize)>) {
        let mut acc = self.acc;
        // `for_each` (a fold) runs a chained tail as a second loop instead of
        // testing which half it is in on every word.
        words.for_each(|(w, n)| acc.push_word(&mut self.store, w, n));
        self.acc = acc;
    }

    /// Appends `n` copies of `v`, a word at a time.
    #[inline]
    pub(crate) fn push_n(&mut self, n: usize, v: bool) {
        let fill = 0u64.wrapping_sub(u64::from(v));
        let rest = n % 64;
        let tail = (rest > 0).then(|| (fill & ((1u64 << rest) - 1), rest));
        self.push_words(core::iter::repeat_n((fill, 64), n / 64).chain(tail));
    }

    /// Appends bit `i` = `bytes[i] != 0`, 64 bytes per word through `kernel`.
    #[inline]
    pub(crate) fn push_bytes(&mut self, kernel: Kernel, bytes: &[u8]) {
        let mut words = [0u64; BATCH_WORDS];
        for chunk in bytes.chunks(64 * BATCH_WORDS) {
            let full = chunk.len() / 64;
            let (body, tail) = chunk.split_at(64 * full);
            let words = &mut words[..full];
            kernel.pack(body, words);
            let tail = (!tail.is_empty()).then(|| {
                let mut padded = [0u8; 64];
                padded[..tail.len()].copy_from_slice(tail);
                (portable::pack_word(&padded), tail.len())
            });
            self.push_words(words.iter().map(|&w| (w, 64)).chain(tail));
        }
    }

    /// Appends `bools`, converted to bytes in batches and packed as
    /// [`push_bytes`](Self::push_bytes) does.
    #[inline]
    pub(crate) fn push_bools(&mut self, kernel: Kernel, bools: &[bool]) {
        let mut bytes = [0u8; 64 * BATCH_WORDS];
        for chunk in bools.chunks(bytes.len()) {
            for (d, &b) in bytes.iter_mut().zip(chunk) {
                *d = u8::from(b);
            }
            self.push_bytes(kernel, &bytes[..chunk.len()]);
        }
    }

    /// Appends `len` bits of `src`, 64 at a time (shift-merged from any bit
    /// offset by [`BitSlice::word`]). `src` must hold all of them.
    #[inline]
    pub(crate) fn push_packed(&mut self, src: BitSlice<'_>, len: usize) {
        let full = len / 64;
        let rest = len % 64;
        let tail = (rest > 0).then(|| (src.bits(64 * full, rest), rest));
        self.push_words((0..full).map(|i| (src.word(i), 64)).chain(tail));
    }

    /// Hands the pending partial word (if any) to the store. The sink stays
    /// usable; calling this again stores the same bits again.
    #[inline]
    pub(crate) fn flush_tail(&mut self) {
        let n = self.acc.pos % 64;
        if n > 0 {
            self.store
                .store_tail(self.acc.pos / 64, self.acc.pending, n);
        }
    }
}
