//! `MutableBitmap`: a bitmap of fixed length whose bits are read and set.
//!
//! The other half of apache/arrow-rs#8561: no growth logic at all, `get` and
//! `set` are a shift and a mask on one byte. Its bytes keep the unused high
//! bits of the last byte at 0, so they can be handed to Arrow as they are.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::bits::{self, get_bit};
use crate::error::{check_bitmap, values_too_short, Error};
use crate::BitmapBuilder;

/// A bitmap of fixed length (LSB first, as in Arrow) that never resizes.
///
/// # Examples
///
/// ```
/// use bitbytes::MutableBitmap;
///
/// let mut m = MutableBitmap::new_zeroed(10);
/// m.set(1, true);
/// m.set(9, true);
/// assert_eq!(m.get(9), Some(true));
/// assert_eq!(m.get(10), None);
/// assert_eq!(m.count_ones(), 2);
/// assert_eq!(m.as_bytes(), [0b10, 0b10]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MutableBitmap {
    /// `ceil(len / 8)` bytes; bits at `len` and above are 0.
    bytes: Vec<u8>,
    len: usize,
}

impl MutableBitmap {
    /// `len` bits, all 0.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = bitbytes::MutableBitmap::new_zeroed(3);
    /// assert_eq!((m.len(), m.count_ones()), (3, 0));
    /// ```
    pub fn new_zeroed(len: usize) -> Self {
        MutableBitmap {
            bytes: vec![0; len.div_ceil(8)],
            len,
        }
    }

    /// `len` bits, all 1 (the unused bits of the last byte stay 0).
    ///
    /// # Examples
    ///
    /// ```
    /// let m = bitbytes::MutableBitmap::new_set(11);
    /// assert_eq!(m.as_bytes(), [0xff, 0b111]);
    /// ```
    pub fn new_set(len: usize) -> Self {
        let mut b = BitmapBuilder::with_capacity(len);
        b.append_n(len, true);
        b.into()
    }

    /// A copy of bits `bit_offset .. bit_offset + len` of the LSB-first bitmap
    /// `bits`, shifted to start at bit 0.
    ///
    /// # Errors
    ///
    /// As [`unpack`](crate::unpack) checks its values bitmap:
    /// - [`Error::Overflow`] when `bit_offset + len` overflows `usize`;
    /// - [`Error::ValuesTooShort`] when `bits` has fewer than
    ///   `ceil((bit_offset + len) / 8)` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bitbytes::MutableBitmap;
    ///
    /// let m = MutableBitmap::from_bits(&[0b1010_0000, 0b1], 5, 4)?;
    /// assert_eq!(m.as_bytes(), [0b1101]);
    /// # Ok::<(), bitbytes::Error>(())
    /// ```
    pub fn from_bits(bits: &[u8], bit_offset: usize, len: usize) -> Result<Self, Error> {
        check_bitmap(bits.len(), bit_offset, len, values_too_short)?;
        let mut b = BitmapBuilder::with_capacity(len);
        b.append_packed_range(bits, bit_offset..bit_offset + len);
        Ok(b.into())
    }

    /// Bit `i`, or `None` when `i >= len`.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = bitbytes::MutableBitmap::new_set(2);
    /// assert_eq!((m.get(1), m.get(2)), (Some(true), None));
    /// ```
    #[inline]
    pub fn get(&self, i: usize) -> Option<bool> {
        (i < self.len).then(|| get_bit(&self.bytes, i))
    }

    /// Sets bit `i` to `v`.
    ///
    /// # Panics
    ///
    /// When `i >= len`, as slice indexing does: the length never changes.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut m = bitbytes::MutableBitmap::new_set(4);
    /// m.set(2, false);
    /// assert_eq!(m.as_bytes(), [0b1011]);
    /// ```
    ///
    /// ```should_panic
    /// // panics: "index 8 out of range for MutableBitmap of length 8"
    /// bitbytes::MutableBitmap::new_zeroed(8).set(8, true);
    /// ```
    #[inline]
    pub fn set(&mut self, i: usize, v: bool) {
        assert!(
            i < self.len,
            "index {i} out of range for MutableBitmap of length {}",
            self.len
        );
        let byte = &mut self.bytes[i / 8];
        let bit = i % 8;
        *byte = (*byte & !(1 << bit)) | (u8::from(v) << bit);
    }

    /// The number of bits.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(bitbytes::MutableBitmap::new_zeroed(5).len(), 5);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when the bitmap has no bits.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(bitbytes::MutableBitmap::new_zeroed(0).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of bits set to 1: a popcount per 64-bit word.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(bitbytes::MutableBitmap::new_set(100).count_ones(), 100);
    /// ```
    pub fn count_ones(&self) -> usize {
        bits::count_ones(&self.bytes)
    }

    /// The `ceil(len / 8)` bytes, LSB first; the unused high bits of the
    /// last byte are 0.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut m = bitbytes::MutableBitmap::new_zeroed(9);
    /// m.set(8, true);
    /// assert_eq!(m.as_bytes(), [0, 1]);
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes of [`as_bytes`](Self::as_bytes), without copying.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(bitbytes::MutableBitmap::new_set(3).into_vec(), vec![0b111]);
    /// ```
    pub fn into_vec(self) -> Vec<u8> {
        self.bytes
    }
}

impl fmt::Debug for MutableBitmap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MutableBitmap")
            .field("len", &self.len)
            .field("count_ones", &self.count_ones())
            .finish_non_exhaustive()
    }
}

/// The builder's bits as a fixed-length bitmap, without copying.
impl From<BitmapBuilder> for MutableBitmap {
    fn from(b: BitmapBuilder) -> Self {
        let len = b.len();
        MutableBitmap {
            bytes: b.finish(),
            len,
        }
    }
}
