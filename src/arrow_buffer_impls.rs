//! Feature `arrow`: the owning bitmaps as arrow-buffer's `BooleanBuffer` and
//! `NullBuffer`, handing over the `Vec<u8>` without copying
//! (`Buffer::from_vec`).

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};

use crate::{BitmapBuilder, MutableBitmap};

/// Takes the builder's bytes as they are: offset 0, length `len`.
impl From<BitmapBuilder> for BooleanBuffer {
    fn from(b: BitmapBuilder) -> Self {
        let len = b.len();
        BooleanBuffer::new(Buffer::from_vec(b.finish()), 0, len)
    }
}

/// A validity bitmap: bit 1 is a valid row.
impl From<BitmapBuilder> for NullBuffer {
    fn from(b: BitmapBuilder) -> Self {
        NullBuffer::new(b.into())
    }
}

/// Takes the bitmap's bytes as they are: offset 0, length `len`.
impl From<MutableBitmap> for BooleanBuffer {
    fn from(m: MutableBitmap) -> Self {
        let len = m.len();
        BooleanBuffer::new(Buffer::from_vec(m.into_vec()), 0, len)
    }
}

/// A validity bitmap: bit 1 is a valid row.
impl From<MutableBitmap> for NullBuffer {
    fn from(m: MutableBitmap) -> Self {
        NullBuffer::new(m.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_keep_bits_and_do_not_copy() {
        let mut b = BitmapBuilder::new();
        b.append_bytes(&[1, 0, 1, 1, 0, 0, 0, 0, 1, 1]);
        let buf = BooleanBuffer::from(b.clone());
        assert_eq!(buf.len(), 10);
        assert_eq!(buf.count_set_bits(), 5);
        assert!(buf.value(0) && !buf.value(1) && buf.value(9));
        let nulls = NullBuffer::from(b);
        assert_eq!(nulls.null_count(), 5);

        let mut m = MutableBitmap::new_zeroed(70);
        m.set(69, true);
        assert_eq!(NullBuffer::from(m.clone()).null_count(), 69);
        let ptr = m.as_bytes().as_ptr();
        let buf = BooleanBuffer::from(m);
        assert_eq!(buf.len(), 70);
        assert!(buf.value(69));
        assert_eq!(buf.values().as_ptr(), ptr, "the bytes were copied");
    }
}
