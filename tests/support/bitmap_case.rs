//! One bitmap call for quickcheck, shared by the unpack and the selection
//! vector properties: mostly well formed, sometimes a byte short (to reach
//! the errors), values of any density from empty to full.

use crate::xorshift::XorShift;

/// The arguments of one call; `out_pick` is raw material for the output
/// length, which each property derives in its own way.
#[derive(Clone, Debug)]
pub struct BitmapCase {
    pub values: Vec<u8>,
    pub validity: Option<Vec<u8>>,
    pub off: usize,
    pub len: usize,
    pub negate: bool,
    /// The first row index (read by the selection-vector properties only).
    #[allow(dead_code)]
    pub base: u32,
    pub out_pick: usize,
}

/// Bytes with bits set with probability `density / 64` (0 empty, 64 full).
pub fn bits(seed: u64, n: usize, density: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed | 1);
    let mut b = vec![0u8; n];
    for i in 0..8 * n {
        if rng.next_u64() % 64 < density {
            b[i / 8] |= 1 << (i % 8);
        }
    }
    b
}

/// One arbitrary value through quickcheck (proptest's prelude also has an
/// `Arbitrary`, so name the trait explicitly).
fn qc<T: quickcheck::Arbitrary>(g: &mut quickcheck::Gen) -> T {
    T::arbitrary(g)
}

impl quickcheck::Arbitrary for BitmapCase {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let off = qc::<usize>(g) % 130;
        let len = qc::<usize>(g) % 1500;
        let need = (off + len).div_ceil(8);
        // One time in eight a bitmap is a byte short.
        let short = |g: &mut quickcheck::Gen| usize::from(qc::<u8>(g).is_multiple_of(8));
        let density = qc::<u64>(g) % 65;
        let values = bits(qc::<u64>(g), need.saturating_sub(short(g)), density);
        let validity = qc::<bool>(g).then(|| {
            let n = need.saturating_sub(short(g));
            (0..n).map(|_| qc::<u8>(g)).collect()
        });
        BitmapCase {
            values,
            validity,
            off,
            len,
            negate: qc(g),
            base: if qc::<bool>(g) { qc(g) } else { 0 },
            out_pick: qc(g),
        }
    }
}
