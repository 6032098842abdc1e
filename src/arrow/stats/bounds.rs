//! The typed min / max arrays a statistics rule runs over.
//!
//! A family's rule (in its own file under `functions/`) is written once,
//! generic over the key type `K` of the column: a closure of `(min, max)`
//! giving two bits, "some row may satisfy" and "every non-null row does".
//! [`order_rule`] picks the key type from the stats' Arrow type (Java's
//! order for floats, the native order for other primitives, bytes for
//! strings and binaries, `bool`) and hands the rule a [`Fuse`] that runs the
//! closure over the whole arrays in one pass (words with no active container
//! skipped), so a leaf costs one fused pass over min and max.

use super::super::order::{pack_active, pack_pairs, JavaOrd, Ordinal};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    BinaryType, ByteArrayType, ByteViewType, LargeBinaryType, LargeUtf8Type, Utf8Type,
};
use arrow_array::{
    downcast_primitive, Array, ArrowPrimitiveType, FixedSizeBinaryArray, GenericByteArray,
    GenericByteViewArray,
};
use arrow_buffer::ArrowNativeType;
use arrow_schema::{ArrowError, DataType};
use std::format;
use std::vec::Vec;

/// Two bits per container, 64 a word: `may` (some row may satisfy the leaf)
/// and `all` (every row does). Only the bits of active containers are
/// meaningful.
#[derive(Debug, Clone)]
pub(crate) struct RuleBits {
    pub(crate) may: Vec<u64>,
    pub(crate) all: Vec<u64>,
}

impl RuleBits {
    /// Every container MayMatch.
    pub(crate) fn may_match(words: usize) -> RuleBits {
        RuleBits {
            may: std::vec![!0; words],
            all: std::vec![0; words],
        }
    }
}

/// Runs a per-container test over the active containers of one column.
pub(crate) trait Fuse<K> {
    /// `f(min, max) -> (may, all)`, vectorised where the key type allows.
    fn fuse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits;
    /// The same, for a costly `f`: called only on active containers.
    fn fuse_sparse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits;
}

/// A statistics rule over ordered keys: a comparison, IN, Between.
pub(crate) trait OrderRule {
    /// The rule's bits, given the literals as keys (`None` for a null
    /// literal), running its test through `fuse`.
    fn run<K: Ordinal, F: Fuse<K>>(&self, literals: &[Option<K>], fuse: F) -> RuleBits;
}

/// Primitive min / max arrays, compared by their [`JavaOrd`] keys.
struct Keys<'a, T> {
    min: &'a [T],
    max: &'a [T],
    active: &'a [u64],
}

impl<T: JavaOrd> Fuse<T::Key> for Keys<'_, T> {
    fn fuse(self, f: impl Fn(T::Key, T::Key) -> (bool, bool)) -> RuleBits {
        let (may, all) = pack_pairs(self.min, self.max, self.active, |a, b| f(a.key(), b.key()));
        RuleBits { may, all }
    }

    fn fuse_sparse(self, f: impl Fn(T::Key, T::Key) -> (bool, bool)) -> RuleBits {
        let (min, max) = (self.min, self.max);
        let (may, all) = pack_active(min.len(), self.active, |i| f(min[i].key(), max[i].key()));
        RuleBits { may, all }
    }
}

/// Any min / max arrays read by index (bytes, booleans).
struct ByIndex<'a, G> {
    len: usize,
    get: G,
    active: &'a [u64],
}

impl<K, G: Fn(usize) -> (K, K)> Fuse<K> for ByIndex<'_, G> {
    fn fuse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits {
        self.fuse_sparse(f)
    }

    fn fuse_sparse(self, f: impl Fn(K, K) -> (bool, bool)) -> RuleBits {
        let get = self.get;
        let (may, all) = pack_active(self.len, self.active, |i| {
            let (a, b) = get(i);
            f(a, b)
        });
        RuleBits { may, all }
    }
}

/// Runs `rule` over `min` / `max` (same type and length) with `literals`
/// (of that type) on the `active` containers. Stats of a type without an
/// order here (nested types, ...) give MayMatch everywhere.
pub(crate) fn order_rule<R: OrderRule>(
    rule: &R,
    min: &dyn Array,
    max: &dyn Array,
    literals: &dyn Array,
    active: &[u64],
) -> Result<RuleBits, ArrowError> {
    if literals.data_type() != min.data_type() {
        return Err(ArrowError::InvalidArgumentError(format!(
            "literal type {} does not match the statistics' type {}",
            literals.data_type(),
            min.data_type()
        )));
    }
    macro_rules! primitive {
        ($t:ty) => {
            primitive::<$t, R>(rule, min, max, literals, active)
        };
    }
    let len = min.len();
    Ok(downcast_primitive! {
        min.data_type() => (primitive),
        DataType::Boolean => {
            let (a, b, l) = (min.as_boolean(), max.as_boolean(), literals.as_boolean());
            rule.run(&keys(literals, |i| l.value(i)), by_index(len, active, |i| (a.value(i), b.value(i))))
        }
        DataType::Utf8 => bytes(rule, min.as_bytes::<Utf8Type>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::LargeUtf8 => bytes(rule, min.as_bytes::<LargeUtf8Type>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::Binary => bytes(rule, min.as_bytes::<BinaryType>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::LargeBinary => bytes(rule, min.as_bytes::<LargeBinaryType>(), max.as_bytes(), literals.as_bytes(), active),
        DataType::Utf8View => views(rule, min.as_string_view(), max.as_string_view(), literals.as_string_view(), active),
        DataType::BinaryView => views(rule, min.as_binary_view(), max.as_binary_view(), literals.as_binary_view(), active),
        DataType::FixedSizeBinary(_) => {
            let (a, b, l): (&FixedSizeBinaryArray, &FixedSizeBinaryArray, &FixedSizeBinaryArray) =
                (min.as_fixed_size_binary(), max.as_fixed_size_binary(), literals.as_fixed_size_binary());
            rule.run(&keys(literals, |i| l.value(i)), by_index(len, active, |i| (a.value(i), b.value(i))))
        }
        _ => RuleBits::may_match(len.div_ceil(64)),
    })
}

/// `f(min, max)` over byte stats (strings or binaries, any layout), on the
/// active containers: the string functions' rules. `None` when the stats are
/// not bytes.
pub(crate) fn bytes_rule(
    min: &dyn Array,
    max: &dyn Array,
    active: &[u64],
    f: impl Fn(&[u8], &[u8]) -> (bool, bool),
) -> Option<RuleBits> {
    let len = min.len();
    macro_rules! offsets {
        ($t:ty) => {{
            let (a, b) = (min.as_bytes::<$t>(), max.as_bytes::<$t>());
            by_index(len, active, |i| (raw(a, i), raw(b, i))).fuse_sparse(&f)
        }};
    }
    macro_rules! views {
        ($a:expr, $b:expr) => {{
            let (a, b) = ($a, $b);
            by_index(len, active, |i| (raw_view(a, i), raw_view(b, i))).fuse_sparse(&f)
        }};
    }
    Some(match min.data_type() {
        DataType::Utf8 => offsets!(Utf8Type),
        DataType::LargeUtf8 => offsets!(LargeUtf8Type),
        DataType::Binary => offsets!(BinaryType),
        DataType::LargeBinary => offsets!(LargeBinaryType),
        DataType::Utf8View => views!(min.as_string_view(), max.as_string_view()),
        DataType::BinaryView => views!(min.as_binary_view(), max.as_binary_view()),
        _ => return None,
    })
}

/// The longest cut [`cut_key`] packs: seven bytes and the length byte.
pub(crate) const CUT_MAX: usize = 7;

/// The first `min(len, s.len())` bytes of `s` (`len <= CUT_MAX`) as a key
/// that orders as those cut strings do: the bytes big-endian from the top,
/// zero-padded, the cut length in the low byte (a shorter string that is a
/// prefix of a longer one sorts first).
#[inline(always)]
pub(crate) fn cut_key(s: &[u8], len: usize) -> u64 {
    let n = len.min(s.len());
    let mut bytes = [0u8; 8];
    bytes[..n].copy_from_slice(&s[..n]);
    u64::from_be_bytes(bytes) | n as u64
}

/// [`cut_key`] of the string at `start..end` of `values`: one 8-byte load
/// and a mask where eight bytes are readable from `start`.
#[inline(always)]
fn cut_key_at(values: &[u8], start: usize, end: usize, len: usize) -> u64 {
    match values.get(start..start + 8) {
        Some(eight) => {
            let n = len.min(end - start);
            let word = u64::from_be_bytes(eight.try_into().unwrap_or([0; 8]));
            // The top n bytes (n <= 7, so the low byte is always cleared).
            let mask = !(u64::MAX >> (8 * n));
            (word & mask) | n as u64
        }
        None => cut_key(&values[start..end], len),
    }
}

/// Whether [`cut_rule`] runs over stats of type `t` (the offset layouts).
pub(crate) fn cuttable(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
    )
}

/// `f(cut_key(min), cut_key(max))` over offset-layout byte stats (strings
/// or binaries), cut to `len <= CUT_MAX` bytes, on the active containers:
/// a prefix rule with no byte compare per container. `None` for other
/// layouts (views fall back to [`bytes_rule`]).
pub(crate) fn cut_rule(
    min: &dyn Array,
    max: &dyn Array,
    active: &[u64],
    len: usize,
    f: impl Fn(u64, u64) -> (bool, bool),
) -> Option<RuleBits> {
    fn run<T: ByteArrayType>(
        min: &GenericByteArray<T>,
        max: &GenericByteArray<T>,
        active: &[u64],
        len: usize,
        f: impl Fn(u64, u64) -> (bool, bool),
    ) -> RuleBits {
        let (a_off, a_val) = (min.value_offsets(), min.value_data());
        let (b_off, b_val) = (max.value_offsets(), max.value_data());
        let key = |off: &[T::Offset], val: &[u8], i: usize| {
            let (start, end) = (off[i].as_usize(), off[i + 1].as_usize());
            cut_key_at(val, start, end, len)
        };
        let (may, all) = pack_active(min.len(), active, |i| {
            f(key(a_off, a_val, i), key(b_off, b_val, i))
        });
        RuleBits { may, all }
    }
    Some(match min.data_type() {
        DataType::Utf8 => run(min.as_bytes::<Utf8Type>(), max.as_bytes(), active, len, f),
        DataType::LargeUtf8 => run(
            min.as_bytes::<LargeUtf8Type>(),
            max.as_bytes(),
            active,
            len,
            f,
        ),
        DataType::Binary => run(min.as_bytes::<BinaryType>(), max.as_bytes(), active, len, f),
        DataType::LargeBinary => run(
            min.as_bytes::<LargeBinaryType>(),
            max.as_bytes(),
            active,
            len,
            f,
        ),
        _ => return None,
    })
}

fn raw<T: ByteArrayType>(a: &GenericByteArray<T>, i: usize) -> &[u8] {
    a.value(i).as_ref()
}

fn raw_view<T: ByteViewType + ?Sized>(a: &GenericByteViewArray<T>, i: usize) -> &[u8] {
    a.value(i).as_ref()
}

fn by_index<K, G: Fn(usize) -> (K, K)>(len: usize, active: &[u64], get: G) -> ByIndex<'_, G> {
    ByIndex { len, get, active }
}

/// The literals as keys, `None` where null.
fn keys<K>(literals: &dyn Array, value: impl Fn(usize) -> K) -> Vec<Option<K>> {
    (0..literals.len())
        .map(|i| literals.is_valid(i).then(|| value(i)))
        .collect()
}

fn primitive<T: ArrowPrimitiveType, R: OrderRule>(
    rule: &R,
    min: &dyn Array,
    max: &dyn Array,
    literals: &dyn Array,
    active: &[u64],
) -> RuleBits
where
    T::Native: JavaOrd,
{
    let l = literals.as_primitive::<T>();
    let fuse = Keys {
        min: min.as_primitive::<T>().values(),
        max: max.as_primitive::<T>().values(),
        active,
    };
    rule.run(&keys(literals, |i| l.value(i).key()), fuse)
}

fn bytes<T: ByteArrayType, R: OrderRule>(
    rule: &R,
    min: &GenericByteArray<T>,
    max: &GenericByteArray<T>,
    literals: &GenericByteArray<T>,
    active: &[u64],
) -> RuleBits {
    rule.run(
        &keys(literals, |i| raw(literals, i)),
        by_index(min.len(), active, |i| (raw(min, i), raw(max, i))),
    )
}

fn views<T: ByteViewType + ?Sized, R: OrderRule>(
    rule: &R,
    min: &GenericByteViewArray<T>,
    max: &GenericByteViewArray<T>,
    literals: &GenericByteViewArray<T>,
    active: &[u64],
) -> RuleBits {
    rule.run(
        &keys(literals, |i| raw_view(literals, i)),
        by_index(min.len(), active, |i| (raw_view(min, i), raw_view(max, i))),
    )
}

/// A one-row array of `t` holding a NaN, for floats.
pub(crate) fn nan_of(t: &DataType) -> Option<arrow_array::ArrayRef> {
    use arrow_array::{Float16Array, Float32Array, Float64Array};
    use std::sync::Arc;
    Some(match t {
        DataType::Float16 => Arc::new(Float16Array::from(std::vec![half::f16::NAN])),
        DataType::Float32 => Arc::new(Float32Array::from(std::vec![f32::NAN])),
        DataType::Float64 => Arc::new(Float64Array::from(std::vec![f64::NAN])),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    /// Every byte string of length 0..=3 over `0x00, 0x01, 0x7F, 0xFF`.
    fn strings() -> Vec<Vec<u8>> {
        let mut all = vec![vec![]];
        let mut last = vec![vec![]];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    [0x00u8, 0x01, 0x7F, 0xFF].map(|b| [s.as_slice(), &[b]].concat())
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn cut_keys_order_as_the_cut_strings() {
        let all = strings();
        for len in 0..=CUT_MAX {
            for a in &all {
                let cut_a = &a[..len.min(a.len())];
                for b in &all {
                    let cut_b = &b[..len.min(b.len())];
                    assert_eq!(cut_key(a, len).cmp(&cut_key(b, len)), cut_a.cmp(cut_b));
                }
            }
        }
    }

    #[test]
    fn cut_key_at_loads_as_cut_key() {
        // Strings packed back to back: the early ones are read with one
        // 8-byte load, the last ones (fewer than 8 bytes left) byte by byte.
        let all = strings();
        let values: Vec<u8> = all.concat();
        let mut start = 0;
        for s in &all {
            for len in 0..=CUT_MAX {
                assert_eq!(
                    cut_key_at(&values, start, start + s.len(), len),
                    cut_key(s, len)
                );
            }
            start += s.len();
        }
    }
}
