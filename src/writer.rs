//! `BitmapWriter`: appending bits into a buffer the caller owns.
//!
//! The `no_std`, no-allocation sibling of `BitmapBuilder`: the same word
//! accumulator ([`WordSink`]), with the caller's `&mut [u8]` as its store.
//! Appends check the room left once per call and return `Err` when the bits
//! do not fit, having written nothing.

use core::fmt;
use core::ops::Range;

use crate::bits::BitSlice;
use crate::error::{check_bitmap, output_too_short, Error};
use crate::raw::Kernel;
use crate::sink::{WordSink, WordStore};

/// A caller's byte slice as a [`WordStore`], starting at byte `start`.
///
/// Word `i` goes to bytes `start + 8 * i ..`; the partial last word is merged
/// into its bytes, keeping the bits above it.
pub(crate) struct SliceStore<'a> {
    out: &'a mut [u8],
    /// The byte holding the first bit.
    start: usize,
}

impl<'a> SliceStore<'a> {
    /// A sink writing from bit `bit_offset` of `out`. The bits of
    /// `out[bit_offset / 8]` below the offset become the sink's head, so they
    /// are written back unchanged.
    ///
    /// `out` must hold `ceil(bit_offset / 8)` bytes (checked by the callers).
    pub(crate) fn sink(out: &'a mut [u8], bit_offset: usize) -> WordSink<SliceStore<'a>> {
        let start = bit_offset / 8;
        let head_bits = bit_offset % 8;
        let head = if head_bits == 0 { 0 } else { out[start] };
        WordSink::new(SliceStore { out, start }, u64::from(head), head_bits)
    }
}

impl WordStore for SliceStore<'_> {
    #[inline(always)]
    fn store_reserved(&mut self, index: usize, word: u64) {
        let at = self.start + 8 * index;
        self.out[at..at + 8].copy_from_slice(&word.to_le_bytes());
    }

    fn reserved_words(&mut self, first: usize, n: usize) -> &mut [u8] {
        let at = self.start + 8 * first;
        &mut self.out[at..at + 8 * n]
    }

    fn store_tail(&mut self, index: usize, word: u64, n_bits: usize) {
        let at = self.start + 8 * index;
        let dst = &mut self.out[at..at + n_bits.div_ceil(8)];
        let src = word.to_le_bytes();
        let (last, whole) = dst.split_last_mut().expect("n_bits > 0");
        whole.copy_from_slice(&src[..whole.len()]);
        // Bits of the last byte at `n_bits % 8` and above are not ours.
        let keep = match n_bits % 8 {
            0 => 0,
            r => 0xffu8 << r,
        };
        *last = (*last & keep) | src[whole.len()];
    }
}

/// Appends bits into a `&mut [u8]` the caller owns: no allocation, `no_std`.
///
/// Bits go LSB first from a starting bit offset (0 for [`new`](Self::new)).
/// Like `BitmapBuilder` it collects bits in a `u64` and writes a whole word
/// per 64 appends; the last partial word is written by
/// [`finish`](Self::finish) (or when the writer is dropped). Bits of the
/// buffer outside the appended range are never changed.
///
/// Every append checks the room left first: when the bits do not fit it
/// returns [`Error::CapacityExceeded`] and appends nothing.
///
/// # Examples
///
/// ```
/// use bitbytes::BitmapWriter;
///
/// let mut buf = [0u8; 2];
/// let mut w = BitmapWriter::new(&mut buf);
/// w.append(true)?;
/// w.append_n(3, false)?;
/// w.append_bytes(&[1, 1, 0, 5])?;
/// w.append_slice(&[true, true])?;
/// assert!(w.append_n(7, true).is_err()); // 10 bits written, 16 fit
/// assert_eq!(w.finish(), 10);
/// assert_eq!(buf, [0b1011_0001, 0b11]);
/// # Ok::<(), bitbytes::Error>(())
/// ```
pub struct BitmapWriter<'a> {
    sink: WordSink<SliceStore<'a>>,
    /// Bits of the first byte below the starting offset (`bit_offset % 8`),
    /// counted by `sink.pos()` but not appended.
    head_bits: usize,
    /// Bits that fit after the starting offset.
    capacity: usize,
}

impl<'a> BitmapWriter<'a> {
    /// A writer that appends from bit 0 of `out`; it holds `8 * out.len()`
    /// bits.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// let w = bitbytes::BitmapWriter::new(&mut buf);
    /// assert_eq!((w.len(), w.capacity()), (0, 32));
    /// ```
    pub fn new(out: &'a mut [u8]) -> Self {
        let capacity = out.len().saturating_mul(8);
        BitmapWriter {
            sink: SliceStore::sink(out, 0),
            head_bits: 0,
            capacity,
        }
    }

    /// A writer that appends from bit `bit_offset` of `out`, leaving the bits
    /// before it unchanged.
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooShort`] when `out` has fewer than
    /// `ceil(bit_offset / 8)` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bitbytes::BitmapWriter;
    ///
    /// let mut buf = [0b0000_0111u8, 0];
    /// let mut w = BitmapWriter::with_bit_offset(&mut buf, 3)?;
    /// w.append_n(6, true)?;
    /// assert_eq!(w.capacity(), 13);
    /// w.finish();
    /// assert_eq!(buf, [0xff, 0b1]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn with_bit_offset(out: &'a mut [u8], bit_offset: usize) -> Result<Self, Error> {
        check_bitmap(out.len(), bit_offset, 0, output_too_short)?;
        let capacity = out.len().saturating_mul(8) - bit_offset;
        Ok(BitmapWriter {
            sink: SliceStore::sink(out, bit_offset),
            head_bits: bit_offset % 8,
            capacity,
        })
    }

    /// The number of bits appended.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// let mut w = bitbytes::BitmapWriter::new(&mut buf);
    /// w.append(true)?;
    /// assert_eq!(w.len(), 1);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.sink.pos() - self.head_bits
    }

    /// `true` when no bit has been appended.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// assert!(bitbytes::BitmapWriter::new(&mut buf).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of bits the buffer holds after the starting offset
    /// (appended ones included).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 3];
    /// let w = bitbytes::BitmapWriter::with_bit_offset(&mut buf, 5)?;
    /// assert_eq!(w.capacity(), 19);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// `Ok` when `additional` more bits fit.
    #[inline]
    fn room(&self, additional: usize) -> Result<(), Error> {
        let len = self.len();
        if additional > self.capacity - len {
            return Err(Error::CapacityExceeded {
                len,
                additional,
                capacity: self.capacity,
            });
        }
        Ok(())
    }

    /// Appends one bit.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityExceeded`] when the buffer is full.
    ///
    /// # Examples
    ///
    /// ```
    /// use bitbytes::{BitmapWriter, Error};
    ///
    /// let mut buf = [0u8; 1];
    /// let mut w = BitmapWriter::new(&mut buf);
    /// for _ in 0..8 {
    ///     w.append(true)?;
    /// }
    /// let err = w.append(true).unwrap_err();
    /// assert_eq!(err, Error::CapacityExceeded { len: 8, additional: 1, capacity: 8 });
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    #[inline]
    pub fn append(&mut self, v: bool) -> Result<(), Error> {
        self.room(1)?;
        self.sink.push_bit(v);
        Ok(())
    }

    /// Appends `n` copies of `v`, a word at a time.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityExceeded`] when they do not all fit; nothing is
    /// appended then.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 2];
    /// let mut w = bitbytes::BitmapWriter::new(&mut buf);
    /// w.append_n(12, true)?;
    /// assert!(w.append_n(5, true).is_err());
    /// w.finish();
    /// assert_eq!(buf, [0xff, 0x0f]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn append_n(&mut self, n: usize, v: bool) -> Result<(), Error> {
        self.room(n)?;
        self.sink.push_n(n, v);
        Ok(())
    }

    /// Appends one bit per `bool`.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityExceeded`] when they do not all fit; nothing is
    /// appended then.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// let mut w = bitbytes::BitmapWriter::new(&mut buf);
    /// w.append_slice(&[true, false, true])?;
    /// w.finish();
    /// assert_eq!(buf, [0b101]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn append_slice(&mut self, v: &[bool]) -> Result<(), Error> {
        self.room(v.len())?;
        self.sink.push_bools(Kernel::best_pack(), v);
        Ok(())
    }

    /// Appends one bit per byte: 1 for a non-zero byte, 0 for a zero byte
    /// (packed as [`pack`](fn@crate::pack) does).
    ///
    /// # Errors
    ///
    /// [`Error::CapacityExceeded`] when they do not all fit; nothing is
    /// appended then.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// let mut w = bitbytes::BitmapWriter::new(&mut buf);
    /// w.append_bytes(&[0, 2, 0, 1])?;
    /// w.finish();
    /// assert_eq!(buf, [0b1010]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn append_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.room(bytes.len())?;
        self.sink.push_bytes(Kernel::best_pack(), bytes);
        Ok(())
    }

    /// Appends bits `range` of the LSB-first bitmap `bits`, 64 at a time from
    /// any bit offset.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityExceeded`] when they do not all fit; nothing is
    /// appended then.
    ///
    /// # Panics
    ///
    /// When `range.start > range.end` or `range.end > 8 * bits.len()`, as
    /// slicing does.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// let mut w = bitbytes::BitmapWriter::new(&mut buf);
    /// w.append_packed_range(&[0b1101_0000], 4..8)?;
    /// w.finish();
    /// assert_eq!(buf, [0b1101]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn append_packed_range(&mut self, bits: &[u8], range: Range<usize>) -> Result<(), Error> {
        let len = checked_bit_range(bits, &range);
        self.room(len)?;
        self.sink.push_packed(BitSlice::new(bits, range.start), len);
        Ok(())
    }

    /// Writes the last partial word and returns the number of bits appended;
    /// they fill bits `bit_offset .. bit_offset + len` of the buffer.
    ///
    /// Dropping the writer writes the last partial word too; `finish` is the
    /// way to get the length back.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// let mut w = bitbytes::BitmapWriter::new(&mut buf);
    /// w.append_n(3, true)?;
    /// assert_eq!(w.finish(), 3);
    /// assert_eq!(buf, [0b111]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn finish(self) -> usize {
        self.len()
        // `Drop` writes the tail.
    }
}

impl Drop for BitmapWriter<'_> {
    fn drop(&mut self) {
        self.sink.flush_tail();
    }
}

impl fmt::Debug for BitmapWriter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BitmapWriter")
            .field("len", &self.len())
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

/// The length of `range`, after checking that it is a range of bits inside
/// `bits`.
///
/// # Panics
///
/// When `range.start > range.end` or `range.end > 8 * bits.len()`.
#[inline]
pub(crate) fn checked_bit_range(bits: &[u8], range: &Range<usize>) -> usize {
    assert!(
        range.start <= range.end,
        "bit range starts at {} but ends at {}",
        range.start,
        range.end
    );
    let bit_len = bits.len().saturating_mul(8);
    assert!(
        range.end <= bit_len,
        "bit range end {} out of range for a bitmap of {} bits",
        range.end,
        bit_len
    );
    range.end - range.start
}
