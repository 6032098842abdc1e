//! Random operation sequences on `BitmapBuilder` and on a `BitmapWriter` over
//! a caller buffer, both checked against a `Vec<bool>` model.
#![no_main]

use bitbytes::{BitmapBuilder, BitmapWriter, Error};
use libfuzzer_sys::fuzz_target;

fn get(bits: &[u8], i: usize) -> bool {
    bits[i / 8] >> (i % 8) & 1 == 1
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (head, mut ops) = data.split_at(2);
    // The writer's buffer and starting offset.
    let buf_len = usize::from(head[0]);
    let junk: Vec<u8> = (0..buf_len)
        .map(|i| (i as u8).wrapping_mul(29) ^ head[1])
        .collect();
    let offset = usize::from(head[1]) % (8 * buf_len + 1);
    let capacity = 8 * buf_len - offset;

    let mut builder = BitmapBuilder::new();
    let mut buf = junk.clone();
    let mut writer = BitmapWriter::with_bit_offset(&mut buf, offset).unwrap();
    let (mut model, mut written) = (Vec::<bool>::new(), Vec::<bool>::new());

    while let [op, arg, rest @ ..] = ops {
        let n = usize::from(*arg);
        let take = n.min(rest.len());
        let (payload, after) = rest.split_at(take);
        let (add, res) = match op % 5 {
            0 => {
                let v = arg & 1 == 1;
                builder.append(v);
                (vec![v], writer.append(v))
            }
            1 => {
                let (n, v) = (n * 9, op & 0x80 != 0);
                builder.append_n(n, v);
                (vec![v; n], writer.append_n(n, v))
            }
            2 => {
                let v: Vec<bool> = payload.iter().map(|b| b & 1 == 1).collect();
                builder.append_slice(&v);
                let res = writer.append_slice(&v);
                (v, res)
            }
            3 => {
                builder.append_bytes(payload);
                (
                    payload.iter().map(|&b| b != 0).collect(),
                    writer.append_bytes(payload),
                )
            }
            _ => {
                let bits = 8 * payload.len();
                let start = usize::from(op >> 3) % (bits + 1);
                let end = start + (n * 7) % (bits - start + 1);
                builder.append_packed_range(payload, start..end);
                let add = (start..end).map(|i| get(payload, i)).collect();
                (add, writer.append_packed_range(payload, start..end))
            }
        };
        if written.len() + add.len() > capacity {
            let err = Error::CapacityExceeded {
                len: written.len(),
                additional: add.len(),
                capacity,
            };
            assert_eq!(res, Err(err));
        } else {
            assert_eq!(res, Ok(()));
            written.extend_from_slice(&add);
        }
        model.extend(add);
        assert_eq!(builder.len(), model.len());
        assert_eq!(builder.count_ones(), model.iter().filter(|&&v| v).count());
        assert_eq!(writer.len(), written.len());
        ops = after;
    }

    assert_eq!(writer.finish(), written.len());
    for i in 0..8 * buf_len {
        let want = match i.checked_sub(offset) {
            Some(j) if j < written.len() => written[j],
            _ => get(&junk, i),
        };
        assert_eq!(get(&buf, i), want, "writer bit {i}");
    }
    let bytes = builder.finish();
    assert_eq!(bytes.len(), model.len().div_ceil(8));
    for (i, &v) in model.iter().enumerate() {
        assert_eq!(get(&bytes, i), v, "builder bit {i}");
    }
    // Unused high bits of the last byte are 0.
    if model.len() % 8 != 0 {
        assert_eq!(bytes[bytes.len() - 1] >> (model.len() % 8), 0);
    }
});
