//! Model-based tests: random sequences of operations on `BitmapBuilder`,
//! `BitmapWriter` and `MutableBitmap`, each checked against a `Vec<bool>`;
//! every panic and error message.

#[cfg(feature = "alloc")]
use bitbytes::{BitmapBuilder, MutableBitmap};
use bitbytes::{BitmapWriter, Error};
use proptest::prelude::*;

/// One append, as both types offer it.
#[derive(Clone, Debug)]
enum Append {
    One(bool),
    N(usize, bool),
    Slice(Vec<bool>),
    Bytes(Vec<u8>),
    /// Bits `start..end` of `bits`.
    Packed(Vec<u8>, usize, usize),
}

impl Append {
    /// The bits this append adds.
    fn bits(&self) -> Vec<bool> {
        match self {
            Append::One(v) => vec![*v],
            Append::N(n, v) => vec![*v; *n],
            Append::Slice(v) => v.clone(),
            Append::Bytes(b) => b.iter().map(|&x| x != 0).collect(),
            Append::Packed(bits, start, end) => (*start..*end).map(|i| get(bits, i)).collect(),
        }
    }

    #[cfg(feature = "alloc")]
    fn apply_builder(&self, b: &mut BitmapBuilder) {
        match self {
            Append::One(v) => b.append(*v),
            Append::N(n, v) => b.append_n(*n, *v),
            Append::Slice(v) => b.append_slice(v),
            Append::Bytes(x) => b.append_bytes(x),
            Append::Packed(bits, s, e) => b.append_packed_range(bits, *s..*e),
        }
    }

    fn apply_writer(&self, w: &mut BitmapWriter<'_>) -> Result<(), Error> {
        match self {
            Append::One(v) => w.append(*v),
            Append::N(n, v) => w.append_n(*n, *v),
            Append::Slice(v) => w.append_slice(v),
            Append::Bytes(x) => w.append_bytes(x),
            Append::Packed(bits, s, e) => w.append_packed_range(bits, *s..*e),
        }
    }
}

fn get(bits: &[u8], i: usize) -> bool {
    bits[i / 8] >> (i % 8) & 1 == 1
}

/// The model as LSB-first bytes, unused high bits 0.
#[cfg(feature = "alloc")]
fn to_bytes(model: &[bool]) -> Vec<u8> {
    let mut out = vec![0u8; model.len().div_ceil(8)];
    for (i, _) in model.iter().enumerate().filter(|(_, &v)| v) {
        out[i / 8] |= 1 << (i % 8);
    }
    out
}

/// Lengths that cross word and batch (2048) boundaries now and then.
fn len_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0usize..80, 2 => 60usize..300, 1 => 1990usize..2200]
}

fn append_strategy() -> impl Strategy<Value = Append> {
    prop_oneof![
        4 => any::<bool>().prop_map(Append::One),
        1 => (len_strategy(), any::<bool>()).prop_map(|(n, v)| Append::N(n, v)),
        1 => len_strategy().prop_flat_map(|n| prop::collection::vec(any::<bool>(), n)).prop_map(Append::Slice),
        1 => len_strategy()
            .prop_flat_map(|n| prop::collection::vec(prop_oneof![Just(0u8), Just(1u8), any::<u8>()], n))
            .prop_map(Append::Bytes),
        2 => (prop::collection::vec(any::<u8>(), 0..40), any::<usize>(), any::<usize>()).prop_map(
            |(bits, a, b)| {
                let n = 8 * bits.len() + 1;
                let (a, b) = (a % n, b % n);
                Append::Packed(bits, a.min(b), a.max(b))
            }
        ),
    ]
}

/// A run of single appends, the builder's hot path.
fn ops_strategy() -> impl Strategy<Value = Vec<Append>> {
    prop::collection::vec(append_strategy(), 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn writer_matches_the_model(
        ops in ops_strategy(),
        junk in prop::collection::vec(any::<u8>(), 0..600),
        off_seed in any::<usize>(),
    ) {
        let off = off_seed % (8 * junk.len() + 1);
        let mut buf = junk.clone();
        let mut model = Vec::new();
        let mut w = BitmapWriter::with_bit_offset(&mut buf, off).unwrap();
        let capacity = 8 * junk.len() - off;
        prop_assert_eq!(w.capacity(), capacity);
        for op in &ops {
            let add = op.bits();
            let res = op.apply_writer(&mut w);
            if model.len() + add.len() > capacity {
                prop_assert_eq!(res, Err(Error::CapacityExceeded {
                    len: model.len(), additional: add.len(), capacity,
                }));
            } else {
                prop_assert_eq!(res, Ok(()));
                model.extend(add);
            }
            prop_assert_eq!(w.len(), model.len());
        }
        prop_assert_eq!(w.finish(), model.len());
        for i in 0..8 * junk.len() {
            let want = if (off..off + model.len()).contains(&i) { model[i - off] } else { get(&junk, i) };
            prop_assert_eq!(get(&buf, i), want, "bit {}", i);
        }
    }
}

/// The owning types, with feature `alloc`.
#[cfg(feature = "alloc")]
mod owning {
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn builder_matches_the_model(ops in ops_strategy(), cap in 0usize..200) {
            let mut b = if cap % 2 == 0 { BitmapBuilder::new() } else { BitmapBuilder::with_capacity(cap) };
            let mut model = Vec::new();
            for op in &ops {
                op.apply_builder(&mut b);
                model.extend(op.bits());
                prop_assert_eq!(b.len(), model.len());
                prop_assert_eq!(b.is_empty(), model.is_empty());
                prop_assert_eq!(b.count_ones(), model.iter().filter(|&&v| v).count());
                prop_assert!(b.capacity() >= b.len());
            }
            let collected: BitmapBuilder = model.iter().copied().collect();
            prop_assert_eq!(collected.finish(), to_bytes(&model));
            prop_assert_eq!(b.finish(), to_bytes(&model));
        }

        #[test]
        fn mutable_bitmap_matches_the_model(
            len in len_strategy(),
            set_all in any::<bool>(),
            ops in prop::collection::vec((any::<usize>(), any::<bool>()), 0..100),
        ) {
            let mut m = if set_all { MutableBitmap::new_set(len) } else { MutableBitmap::new_zeroed(len) };
            let mut model = vec![set_all; len];
            for (i, v) in ops {
                if len > 0 {
                    m.set(i % len, v);
                    model[i % len] = v;
                }
                prop_assert_eq!(m.get(i % (len + 5)), model.get(i % (len + 5)).copied());
            }
            prop_assert_eq!(m.len(), len);
            prop_assert_eq!(m.is_empty(), len == 0);
            prop_assert_eq!(m.count_ones(), model.iter().filter(|&&v| v).count());
            prop_assert_eq!(m.as_bytes(), &to_bytes(&model)[..]);
            prop_assert_eq!(m.into_vec(), to_bytes(&model));
        }

        #[test]
        fn from_bits_copies_any_range(
            bits in prop::collection::vec(any::<u8>(), 0..300),
            a in any::<usize>(),
            b in any::<usize>(),
        ) {
            let n = 8 * bits.len() + 1;
            let (start, end) = ((a % n).min(b % n), (a % n).max(b % n));
            let m = MutableBitmap::from_bits(&bits, start, end - start).unwrap();
            let model: Vec<bool> = (start..end).map(|i| get(&bits, i)).collect();
            prop_assert_eq!(m.as_bytes(), &to_bytes(&model)[..]);
            prop_assert_eq!(m.len(), model.len());
        }
    }

    #[test]
    fn builder_from_into_mutable_keeps_bits() {
        let mut b = BitmapBuilder::with_capacity(3);
        b.extend([true, false, true]);
        let mut m = MutableBitmap::from(b);
        m.set(1, true);
        assert_eq!(m.as_bytes(), [0b111]);
        assert_eq!(
            format!("{m:?}"),
            "MutableBitmap { len: 3, count_ones: 3, .. }"
        );
    }

    #[test]
    fn from_bits_errors_like_unpack() {
        let err = MutableBitmap::from_bits(&[0xff], 3, 6).unwrap_err();
        assert_eq!(
            err,
            Error::ValuesTooShort {
                needed: 2,
                actual: 1
            }
        );
        assert_eq!(
            err.to_string(),
            "values bitmap too short: 2 bytes needed, 1 given"
        );
        let err = MutableBitmap::from_bits(&[0xff], usize::MAX, 1).unwrap_err();
        assert_eq!(
            err,
            Error::Overflow {
                bit_offset: usize::MAX,
                len: 1
            }
        );
    }

    #[test]
    #[should_panic(expected = "index 10 out of range for MutableBitmap of length 8")]
    fn set_past_the_end_panics() {
        MutableBitmap::new_zeroed(8).set(10, true);
    }

    #[test]
    #[should_panic(expected = "bit range end 17 out of range for a bitmap of 16 bits")]
    fn builder_packed_range_past_the_end_panics() {
        BitmapBuilder::new().append_packed_range(&[0, 0], 3..17);
    }

    #[test]
    #[should_panic(expected = "bit range starts at 5 but ends at 4")]
    #[allow(clippy::reversed_empty_ranges)]
    fn builder_packed_range_reversed_panics() {
        BitmapBuilder::new().append_packed_range(&[0, 0], 5..4);
    }
}

#[test]
fn writer_errors_name_their_numbers() {
    let mut buf = [0u8; 2];
    let mut w = BitmapWriter::new(&mut buf);
    w.append_n(10, true).unwrap();
    let err = w.append_bytes(&[1; 7]).unwrap_err();
    assert_eq!(
        err,
        Error::CapacityExceeded {
            len: 10,
            additional: 7,
            capacity: 16
        }
    );
    assert_eq!(
        err.to_string(),
        "bitmap writer full: 10 bits written, 7 more exceed the capacity of 16 bits"
    );
    assert_eq!(w.len(), 10);
    assert_eq!(
        format!("{w:?}"),
        "BitmapWriter { len: 10, capacity: 16, .. }"
    );
    drop(w);
    assert_eq!(buf, [0xff, 0b11], "drop writes the tail");

    let mut buf = [0u8; 2];
    let err = BitmapWriter::with_bit_offset(&mut buf, 17).unwrap_err();
    assert_eq!(
        err,
        Error::OutputTooShort {
            needed: 3,
            actual: 2
        }
    );
}

#[test]
#[should_panic(expected = "bit range end 9 out of range for a bitmap of 8 bits")]
fn writer_packed_range_past_the_end_panics() {
    let mut buf = [0u8; 4];
    let _ = BitmapWriter::new(&mut buf).append_packed_range(&[0], 0..9);
}
