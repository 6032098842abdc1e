//! `BitmapBuilder`: an append-only bitmap that grows.
//!
//! The word accumulator of [`crate::sink`] over a `Vec<u8>`: pending bits
//! live in a `u64`, and each 64th append writes one 8-byte word and checks
//! the capacity once. Growth happens in a `#[cold]` function, out of the hot
//! loop. This is the append
//! half of arrow-rs's `BooleanBufferBuilder` (apache/arrow-rs#8561); the
//! other half, flipping bits of a bitmap of fixed length, is
//! [`MutableBitmap`](crate::MutableBitmap).

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use crate::bits::{self, BitSlice};
use crate::raw::Kernel;
use crate::sink::{WordSink, WordStore};
use crate::writer::checked_bit_range;

/// A `Vec<u8>` as a [`WordStore`].
///
/// `bytes.len()` is a multiple of 8 until `finish`: the stored words, then
/// zeroed words kept ready for the next ones. Storing a word is then one
/// bounds-checked 8-byte write that leaves the `Vec`'s length alone, and
/// growing (a zero-filling `resize`, at least doubling) is the cold path.
#[derive(Clone, Debug, Default)]
struct VecStore {
    bytes: Vec<u8>,
}

impl VecStore {
    /// Makes `bytes` hold at least `words` words, at least doubling it.
    ///
    /// The `Vec` goes to the cold function by value, not `self`: a call that
    /// could see the builder would force its accumulator out of registers in
    /// every loop that appends.
    #[inline]
    fn grow(&mut self, words: usize) {
        self.bytes = grown(core::mem::take(&mut self.bytes), words);
    }

    /// Makes room for `words` words in total, in at most one growth.
    #[inline]
    fn reserve_words(&mut self, words: usize) {
        if self.bytes.len() / 8 < words {
            self.grow(words);
        }
    }
}

/// `bytes` resized (zero-filled) to at least `words` words and at least
/// twice its length: the slow path of every append.
#[cold]
#[inline(never)]
fn grown(mut bytes: Vec<u8>, words: usize) -> Vec<u8> {
    let len = words
        .saturating_mul(8)
        .max(bytes.len().saturating_mul(2))
        .max(64);
    bytes.resize(len, 0);
    bytes
}

impl WordStore for VecStore {
    #[inline(always)]
    fn store_reserved(&mut self, index: usize, word: u64) {
        let at = 8 * index;
        self.bytes[at..at + 8].copy_from_slice(&word.to_le_bytes());
    }

    fn reserved_words(&mut self, first: usize, n: usize) -> &mut [u8] {
        &mut self.bytes[8 * first..8 * (first + n)]
    }

    #[inline(always)]
    fn store_word(&mut self, index: usize, word: u64) {
        if self.bytes.len() < 8 * index + 8 {
            self.grow(index + 1);
        }
        self.store_reserved(index, word);
    }

    fn store_tail(&mut self, index: usize, word: u64, n_bits: usize) {
        let (at, end) = (8 * index, 8 * index + n_bits.div_ceil(8));
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        self.bytes[at..end].copy_from_slice(&word.to_le_bytes()[..end - at]);
    }
}

/// An append-only bitmap (LSB first, as in Arrow) that grows as needed.
///
/// Bits collect in a `u64` and go to memory one 8-byte word per 64 appends,
/// with one capacity check per word; the bulk appends move whole words.
/// [`finish`](Self::finish) returns the `ceil(len / 8)` bytes, with the unused
/// high bits of the last byte 0. For a fixed-length bitmap whose bits you set
/// and clear, use [`MutableBitmap`](crate::MutableBitmap); without an
/// allocator, [`BitmapWriter`](crate::BitmapWriter).
///
/// # Examples
///
/// ```
/// use bitbytes::BitmapBuilder;
///
/// let mut b = BitmapBuilder::new();
/// b.append(true);
/// b.append_n(3, false);
/// b.append_bytes(&[1, 0, 9]); // non-zero is 1
/// b.append_slice(&[true, true]);
/// b.append_packed_range(&[0b0110_0000], 5..7);
/// assert_eq!((b.len(), b.count_ones()), (11, 7));
/// assert_eq!(b.finish(), [0b1101_0001, 0b111]);
/// ```
#[derive(Clone, Default)]
pub struct BitmapBuilder {
    sink: WordSink<VecStore>,
}

impl BitmapBuilder {
    /// An empty builder; it allocates on the first 64th bit.
    ///
    /// # Examples
    ///
    /// ```
    /// let b = bitbytes::BitmapBuilder::new();
    /// assert!(b.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with room for at least `bits` bits.
    ///
    /// # Examples
    ///
    /// ```
    /// let b = bitbytes::BitmapBuilder::with_capacity(100);
    /// assert!(b.capacity() >= 100);
    /// ```
    pub fn with_capacity(bits: usize) -> Self {
        let store = VecStore {
            bytes: vec![0; bits.div_ceil(64) * 8],
        };
        BitmapBuilder {
            sink: WordSink::new(store, 0, 0),
        }
    }

    /// Appends one bit.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append(false);
    /// b.append(true);
    /// assert_eq!(b.finish(), [0b10]);
    /// ```
    #[inline]
    pub fn append(&mut self, v: bool) {
        self.sink.push_bit(v);
    }

    /// Appends `n` copies of `v`, a word at a time.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_n(10, true);
    /// assert_eq!(b.finish(), [0xff, 0b11]);
    /// ```
    pub fn append_n(&mut self, n: usize, v: bool) {
        self.reserve(n);
        self.sink.push_n(n, v);
    }

    /// Appends one bit per `bool`, 64 at a time through the pack kernels.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_slice(&[true, false, true]);
    /// assert_eq!(b.finish(), [0b101]);
    /// ```
    pub fn append_slice(&mut self, v: &[bool]) {
        self.reserve(v.len());
        self.sink.push_bools(Kernel::best_pack(), v);
    }

    /// Appends one bit per byte, 1 for a non-zero byte, packed 64 at a time
    /// as [`pack`](fn@crate::pack) does.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_bytes(&[0, 1, 0, 200]);
    /// assert_eq!(b.finish(), [0b1010]);
    /// ```
    pub fn append_bytes(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        self.sink.push_bytes(Kernel::best_pack(), bytes);
    }

    /// Appends bits `range` of the LSB-first bitmap `bits`, shift-merged 64 at
    /// a time from any bit offset.
    ///
    /// # Panics
    ///
    /// When `range.start > range.end` or `range.end > 8 * bits.len()`, as
    /// slicing does.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_packed_range(&[0b1011_0000, 0b1], 4..9);
    /// assert_eq!(b.finish(), [0b1_1011]);
    /// ```
    pub fn append_packed_range(&mut self, bits: &[u8], range: Range<usize>) {
        let len = checked_bit_range(bits, &range);
        self.reserve(len);
        self.sink.push_packed(BitSlice::new(bits, range.start), len);
    }

    /// Makes room for `additional` more bits in one growth.
    #[inline]
    fn reserve(&mut self, additional: usize) {
        let words = self.sink.pos().saturating_add(additional) / 64;
        self.sink.store.reserve_words(words);
    }

    /// The number of bits appended.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_n(70, false);
    /// assert_eq!(b.len(), 70);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.sink.pos()
    }

    /// `true` when no bit has been appended.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(bitbytes::BitmapBuilder::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of bits the builder can hold before an append next
    /// reallocates (at least the `bits` given to
    /// [`with_capacity`](Self::with_capacity)). It counts the up to 63 bits
    /// the pending word holds beyond the buffer's whole words; when such bits
    /// are pending past the buffer's end, [`finish`](Self::finish) grows it
    /// by their bytes. (`with_capacity(n)` then `n` appends never does.)
    ///
    /// # Examples
    ///
    /// ```
    /// let b = bitbytes::BitmapBuilder::with_capacity(1000);
    /// assert!(b.capacity() >= 1000);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        // The words that fit in the `Vec` without reallocating, plus the 63
        // bits that the pending word holds before it needs a place there.
        (self.sink.store.bytes.capacity() / 8)
            .saturating_mul(64)
            .saturating_add(63)
    }

    /// The number of bits set to 1: a popcount per stored 64-bit word, plus
    /// one for the pending bits. (Counted when asked, not per append: the
    /// baseline x86_64 target has no `popcnt` instruction, and a software
    /// popcount per word would cost the bulk appends a third of their speed.)
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_bytes(&[1, 0, 1, 1]);
    /// assert_eq!(b.count_ones(), 3);
    /// ```
    #[inline]
    pub fn count_ones(&self) -> usize {
        let stored = &self.sink.store.bytes[..self.len() / 64 * 8];
        bits::count_ones(stored) + self.sink.pending().count_ones() as usize
    }

    /// The bitmap: `ceil(len / 8)` bytes, LSB first, with the unused high
    /// bits of the last byte 0.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut b = bitbytes::BitmapBuilder::new();
    /// b.append_n(9, true);
    /// assert_eq!(b.finish(), [0xff, 0b1]);
    /// ```
    pub fn finish(mut self) -> Vec<u8> {
        let len_bytes = self.len().div_ceil(8);
        self.sink.flush_tail();
        let mut bytes = self.sink.store.bytes;
        // Drop the zeroed words kept ready for more appends.
        bytes.truncate(len_bytes);
        bytes
    }
}

impl fmt::Debug for BitmapBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BitmapBuilder")
            .field("len", &self.len())
            .field("count_ones", &self.count_ones())
            .finish_non_exhaustive()
    }
}

impl Extend<bool> for BitmapBuilder {
    fn extend<I: IntoIterator<Item = bool>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for v in iter {
            self.append(v);
        }
    }
}

impl FromIterator<bool> for BitmapBuilder {
    fn from_iter<I: IntoIterator<Item = bool>>(iter: I) -> Self {
        let mut b = BitmapBuilder::new();
        b.extend(iter);
        b
    }
}
