//! Appending bits, in one place.
//!
//! A [`WordSink`] keeps the bits that do not yet fill a word in a `u64` and
//! hands each completed 64-bit word to its [`WordStore`], once per 64 rows.
//! [`crate::pack()`], [`crate::BitmapWriter`] (caller storage, no allocation)
//! and `BitmapBuilder` (a growing `Vec`) are this one accumulator over three
//! stores; only the store knows where a word goes and what "full" means.
//!
//! Every bulk append moves whole words, in three parts (`push_split`): the
//! first bits top the pending word up to a word boundary, then every whole
//! word goes straight into the store (packed by a [`Kernel`], shift-merged by
//! [`BitSlice::copy_words`], or a fill), and the last bits become the new
//! pending word. Offset and tail arithmetic live here and in [`BitSlice`]
//! only; the kernels see aligned words.

use crate::arch::portable;
use crate::bits::BitSlice;
use crate::raw::Kernel;

/// Where completed words go.
pub(crate) trait WordStore {
    /// Stores word number `index` (bits `64 * index .. 64 * index + 64` of the
    /// sink), where the caller has made room for it (a bulk append reserves
    /// first). Words arrive in order, each exactly once.
    fn store_reserved(&mut self, index: usize, word: u64);

    /// [`store_reserved`](Self::store_reserved) for a single append: a store
    /// that grows makes room here (in a cold path).
    #[inline(always)]
    fn store_word(&mut self, index: usize, word: u64) {
        self.store_reserved(index, word);
    }

    /// The bytes of words `first .. first + n`, where the caller has made
    /// room for them, to be written whole.
    fn reserved_words(&mut self, first: usize, n: usize) -> &mut [u8];

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
    /// and above must be 0), handing a completed word to `store`, which has
    /// room for it.
    #[inline(always)]
    fn push_word<S: WordStore>(&mut self, store: &mut S, w: u64, n: usize) {
        debug_assert!((1..=64).contains(&n));
        debug_assert!(n == 64 || w >> n == 0);
        let s = self.pos % 64;
        let merged = self.pending | (w << s);
        self.pos += n;
        if s + n >= 64 {
            store.store_reserved(self.pos / 64 - 1, merged);
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

    /// Appends `len` bits in three parts, so that whole words never pass
    /// through the accumulator:
    ///
    /// - `part(0, head)` tops the pending word up to a word boundary;
    /// - `body(head, dst)` writes every whole word after it straight into the
    ///   store (`dst` holds `8 * words` bytes);
    /// - `part(start, rest)` gives the last `rest < 64` bits, which become
    ///   the new pending word.
    ///
    /// `part(start, n)` returns bits `start .. start + n` of the input in the
    /// low bits of a word (`n < 64`, higher bits 0).
    #[inline(always)]
    fn push_split(
        &mut self,
        len: usize,
        mut part: impl FnMut(usize, usize) -> u64,
        body: impl FnOnce(usize, &mut [u8]),
    ) {
        let mut acc = self.acc;
        let head = len.min((64 - acc.pos % 64) % 64);
        if head > 0 {
            acc.push_word(&mut self.store, part(0, head), head);
        }
        let words = (len - head) / 64;
        if words > 0 {
            debug_assert!(acc.pos.is_multiple_of(64) && acc.pending == 0);
            body(head, self.store.reserved_words(acc.pos / 64, words));
            acc.pos += 64 * words;
        }
        let rest = (len - head) % 64;
        if rest > 0 {
            let start = head + 64 * words;
            acc.push_word(&mut self.store, part(start, rest), rest);
        }
        self.acc = acc;
    }

    /// Appends `n` copies of `v`: whole words are a `fill`.
    #[inline]
    pub(crate) fn push_n(&mut self, n: usize, v: bool) {
        let fill = 0u64.wrapping_sub(u64::from(v));
        self.push_split(
            n,
            |_, k| fill & ((1u64 << k) - 1),
            |_, dst| dst.fill(fill as u8),
        );
    }

    /// Appends bit `i` = `bytes[i] != 0`: whole words are packed by `kernel`
    /// straight into the store, 64 bytes per word.
    #[inline]
    pub(crate) fn push_bytes(&mut self, kernel: Kernel, bytes: &[u8]) {
        self.push_split(
            bytes.len(),
            |start, n| portable::pack_partial(&bytes[start..start + n]),
            |start, dst| kernel.pack(&bytes[start..start + 8 * dst.len()], dst),
        );
    }

    /// Appends `bools`, converted to bytes in batches of 2048 on the stack and
    /// packed as [`push_bytes`](Self::push_bytes) does.
    #[inline]
    pub(crate) fn push_bools(&mut self, kernel: Kernel, bools: &[bool]) {
        let mut bytes = [0u8; 2048];
        for chunk in bools.chunks(bytes.len()) {
            for (d, &b) in bytes.iter_mut().zip(chunk) {
                *d = u8::from(b);
            }
            self.push_bytes(kernel, &bytes[..chunk.len()]);
        }
    }

    /// Appends `len` bits of `src` (which must hold all of them): whole words
    /// are unaligned words of the source, shift-merged straight into the
    /// store by [`BitSlice::copy_words`].
    #[inline]
    pub(crate) fn push_packed(&mut self, src: BitSlice<'_>, len: usize) {
        self.push_split(
            len,
            |start, n| src.bits(start, n),
            |start, dst| src.copy_words(start, dst),
        );
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
