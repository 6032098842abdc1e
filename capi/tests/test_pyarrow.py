"""bitbytes_unpack_arrow on arrays that a real Arrow implementation exported.

Run by capi/ci.sh as  python test_pyarrow.py path/to/libbitbytes_capi.so
in a virtual environment with pyarrow and cffi (capi/tests/requirements.txt).

pyarrow exports each array through the C Data Interface
(`pa.Array._export_to_c` into structs allocated with `pyarrow.cffi.ffi`); the
shared library is called through ctypes. Every result is compared row by row
with what pyarrow.compute says (`is_valid` and the values), and the IN / NOT IN
masks also with a reference computed from plain Python lists.
"""

import ctypes
import random
import sys

import pyarrow as pa
import pyarrow.compute as pc
from pyarrow.cffi import ffi

lib = ctypes.CDLL(sys.argv[1])
lib.bitbytes_unpack_arrow.argtypes = [
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_bool,
    ctypes.c_void_p,
    ctypes.c_size_t,
]
lib.bitbytes_unpack_arrow.restype = ctypes.c_int
lib.bitbytes_unpack_indices.argtypes = [
    ctypes.c_void_p,  # values
    ctypes.c_size_t,
    ctypes.c_void_p,  # validity (may be NULL)
    ctypes.c_size_t,
    ctypes.c_size_t,  # bit_offset
    ctypes.c_size_t,  # len
    ctypes.c_bool,  # negate
    ctypes.c_uint32,  # base
    ctypes.c_void_p,  # uint32_t *out
    ctypes.c_size_t,  # out_cap
    ctypes.POINTER(ctypes.c_size_t),  # count
]
lib.bitbytes_unpack_indices.restype = ctypes.c_int
lib.bitbytes_count_selected.argtypes = lib.bitbytes_unpack_indices.argtypes[:7] + [
    ctypes.POINTER(ctypes.c_size_t)
]
lib.bitbytes_count_selected.restype = ctypes.c_int
lib.bitbytes_mask_to_indices.argtypes = [
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.c_uint32,
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_size_t),
]
lib.bitbytes_mask_to_indices.restype = ctypes.c_int
lib.bitbytes_strerror.argtypes = [ctypes.c_int]
lib.bitbytes_strerror.restype = ctypes.c_char_p

# The codes of capi/include/bitbytes.h that this test expects.
OK, OUTPUT_TOO_SHORT, INDEX_OVERFLOW, ARROW_RELEASED, ARROW_FORMAT = 0, -1, -6, -20, -21
SENTINEL = 0xA5


class Exported:
    """An array exported through the C Data Interface; released on exit."""

    def __init__(self, array):
        self.c_schema = ffi.new("struct ArrowSchema*")
        self.c_array = ffi.new("struct ArrowArray*")
        self.schema_ptr = int(ffi.cast("uintptr_t", self.c_schema))
        self.array_ptr = int(ffi.cast("uintptr_t", self.c_array))
        array._export_to_c(self.array_ptr, self.schema_ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        # bitbytes never releases: the structs must still be live here, and
        # releasing them is the consumer's job (ours).
        assert self.c_array.release != ffi.NULL, "bitbytes released the array"
        assert self.c_schema.release != ffi.NULL, "bitbytes released the schema"
        self.c_array.release(self.c_array)
        self.c_schema.release(self.c_schema)
        assert self.c_array.release == ffi.NULL

    def unpack(self, negate, out_len):
        out = (ctypes.c_uint8 * (out_len + 8))(*([SENTINEL] * (out_len + 8)))
        rc = lib.bitbytes_unpack_arrow(
            self.array_ptr, self.schema_ptr, negate, out, out_len
        )
        return rc, bytes(out)


    def indices(self, negate, base, out_cap=None):
        """bitbytes_unpack_indices on the exported array's own buffers, as a
        C engine holding the ArrowArray would call it: bit offset
        `array->offset`, `length` rows, ceil((offset + length) / 8) bytes per
        buffer, no validity when null_count is 0. Returns (rc, count, the
        whole output with its sentinel slots)."""
        a = self.c_array
        offset, length = a.offset, a.length
        nbytes = (offset + length + 7) // 8
        values = int(ffi.cast("uintptr_t", a.buffers[1]))
        validity = int(ffi.cast("uintptr_t", a.buffers[0])) if a.null_count != 0 else 0
        cap = length if out_cap is None else out_cap
        out = (ctypes.c_uint32 * (cap + 4))(*([SENTINEL32] * (cap + 4)))
        count = ctypes.c_size_t(NO_COUNT)
        rc = lib.bitbytes_unpack_indices(
            values, nbytes, validity or None, nbytes if validity else 0,
            offset, length, negate, base, out, cap, ctypes.byref(count),
        )
        return rc, count.value, list(out)


SENTINEL32 = 0xA5A5A5A5
NO_COUNT = 0xC0FFEE


def unpack_arrow(array, negate):
    """bitbytes' mask of a boolean array, checked to write exactly len bytes."""
    with Exported(array) as e:
        rc, out = e.unpack(negate, len(array))
    assert rc == OK, (rc, lib.bitbytes_strerror(rc))
    assert out[len(array):] == bytes([SENTINEL] * 8), "wrote past length"
    return list(out[: len(array)])


def expected_from_compute(array, negate):
    """Row by row from pyarrow.compute: valid and value != negate."""
    valid = pc.is_valid(array).to_pylist()
    values = pc.fill_null(array, False).to_pylist()
    return [int(v and (x != negate)) for v, x in zip(valid, values)]


passed = failed = 0


def test(fn):
    global passed, failed
    try:
        fn()
        passed += 1
        print(f"test {fn.__name__} ... ok")
    except AssertionError as e:
        failed += 1
        print(f"test {fn.__name__} ... FAILED: {e}")
    return fn


def random_bools(rng, n, null_fraction):
    return [None if rng.random() < null_fraction else rng.random() < 0.5 for _ in range(n)]


@test
def sliced_arrays_with_nulls():
    rng = random.Random(13)
    base = pa.array(random_bools(rng, 700, 0.2), pa.bool_())
    calls = 0
    for offset in range(65):
        for length in (0, 1, 7, 8, 9, 63, 64, 65, 127, 200, 700 - offset - 1):
            sliced = base.slice(offset, length)
            assert sliced.offset == offset
            for negate in (False, True):
                got = unpack_arrow(sliced, negate)
                want = expected_from_compute(sliced, negate)
                assert got == want, f"offset {offset} length {length} negate {negate}"
                calls += 1
    assert calls == 65 * 11 * 2


@test
def no_nulls_all_nulls_and_empty():
    rng = random.Random(7)
    no_nulls = pa.array([rng.random() < 0.5 for _ in range(300)], pa.bool_())
    assert no_nulls.buffers()[0] is None  # exported with a NULL validity buffer
    all_nulls = pa.array([None] * 130, pa.bool_())
    for array in (no_nulls, no_nulls.slice(5, 250), all_nulls, all_nulls.slice(3),
                  pa.array([], pa.bool_()), no_nulls.slice(17, 0)):
        for negate in (False, True):
            assert unpack_arrow(array, negate) == expected_from_compute(array, negate)
    assert unpack_arrow(all_nulls, True) == [0] * 130


@test
def less_on_an_int64_column():
    rng = random.Random(3)
    column = pa.array(
        [None if rng.random() < 0.1 else rng.randrange(-1000, 1000) for _ in range(100_003)],
        pa.int64(),
    )
    for col in (column, column.slice(3, 99_000), column.slice(64, 1000)):
        mask = pc.less(col, 17)
        assert mask.type == pa.bool_() and mask.null_count > 0
        for negate in (False, True):
            assert unpack_arrow(mask, negate) == expected_from_compute(mask, negate)
        # Row by row against the column itself: selected when not null and < 17;
        # negated, when not null and >= 17 (a null row is never selected).
        values = col.to_pylist()
        assert unpack_arrow(mask, False) == [int(x is not None and x < 17) for x in values]
        assert unpack_arrow(mask, True) == [int(x is not None and x >= 17) for x in values]
    # A slice of the comparison's result: an offset inside its bitmaps.
    mask = pc.less(column, 0).slice(29, 50_000)
    assert mask.offset == 29
    assert unpack_arrow(mask, False) == expected_from_compute(mask, False)


@test
def in_and_not_in_through_is_in():
    rng = random.Random(11)
    column = pa.array(
        [None if rng.random() < 0.15 else rng.randrange(0, 50) for _ in range(10_007)],
        pa.int64(),
    )
    for literals in ([], [7], [1, 3, 5, 49], list(range(0, 50, 3))):
        value_set = pa.array(literals, pa.int64())
        for col in (column, column.slice(5, 9000)):
            found = pc.is_in(col, value_set=value_set, skip_nulls=True)
            assert found.null_count == 0  # is_in itself has no nulls ...
            # ... so a null row keeps the column's validity, as an engine does:
            # IN and NOT IN (negate) then leave null rows unselected.
            member = pc.if_else(pc.is_valid(col), found, None)
            values = col.to_pylist()
            got_in = unpack_arrow(member, False)
            got_not_in = unpack_arrow(member, True)
            assert got_in == expected_from_compute(member, False)
            assert got_not_in == expected_from_compute(member, True)
            s = set(literals)
            assert got_in == [int(x is not None and x in s) for x in values], literals
            assert got_not_in == [int(x is not None and x not in s) for x in values], literals
            # is_in's own output (NULL validity buffer) through the same call.
            assert unpack_arrow(found, True) == expected_from_compute(found, True)
    # SEMANTICS.md's examples on [1, 2, 3, null].
    col = pa.array([1, 2, 3, None], pa.int64())

    def member(literals):
        found = pc.is_in(col, value_set=pa.array(literals, pa.int64()), skip_nulls=True)
        return pc.if_else(pc.is_valid(col), found, None)

    assert unpack_arrow(member([1, None, 3]), False) == [1, 0, 1, 0]
    assert unpack_arrow(member([]), False) == [0, 0, 0, 0]
    assert unpack_arrow(member([]), True) == [1, 1, 1, 0]
    assert unpack_arrow(member([2, 5]), True) == [1, 0, 1, 0]


@test
def indices_from_an_exported_comparison():
    """Selection vectors from the buffers of an exported `pc.less` result,
    against pyarrow's `indices_nonzero` and the column itself; then
    bitbytes_unpack_arrow's byte mask back to the same indices through
    bitbytes_mask_to_indices."""
    rng = random.Random(5)
    column = pa.array(
        [None if rng.random() < 0.1 else rng.randrange(-1000, 1000) for _ in range(50_021)],
        pa.int64(),
    )
    for col in (column, column.slice(3, 40_000), column.slice(64, 1000), column.slice(29, 0)):
        values = col.to_pylist()
        for threshold in (17, -2000, 2000):  # about half, none, all selected
            mask = pc.less(col, threshold)
            for negate in (False, True):
                # indices_nonzero skips nulls, as bitbytes does (invert keeps them null).
                selected = pc.invert(mask) if negate else mask
                want = pc.indices_nonzero(selected).to_pylist()
                keep = (lambda x: x >= threshold) if negate else (lambda x: x < threshold)
                assert want == [i for i, x in enumerate(values) if x is not None and keep(x)]
                n = len(want)
                with Exported(mask) as e:
                    base = 1000
                    rc, count, out = e.indices(negate, base)
                    assert rc == OK and count == n, (rc, count, n)
                    assert out[:n] == [base + i for i in want]
                    assert out[n:] == [SENTINEL32] * (len(out) - n), "wrote past count"
                    # out_cap == count exactly, and the last base that fits.
                    top = 2**32 - max(len(mask), 1)
                    rc, count, out = e.indices(negate, top, out_cap=n)
                    assert rc == OK and count == n and out[:n] == [top + i for i in want]
                    assert out[n:] == [SENTINEL32] * 4
                    if n:
                        rc, count, out = e.indices(negate, 0, out_cap=n - 1)
                        assert rc == OUTPUT_TOO_SHORT and count == NO_COUNT
                        assert out == [SENTINEL32] * (n + 3), "a short output was written"
                    if len(mask) >= 2:
                        rc, count, out = e.indices(negate, top + 1)
                        assert rc == INDEX_OVERFLOW and count == NO_COUNT
                        assert b"uint32_t" in lib.bitbytes_strerror(rc)
                    # The same count without an output.
                    c = ctypes.c_size_t(NO_COUNT)
                    a = e.c_array
                    nbytes = (a.offset + a.length + 7) // 8
                    validity = int(ffi.cast("uintptr_t", a.buffers[0])) if a.null_count else 0
                    rc = lib.bitbytes_count_selected(
                        int(ffi.cast("uintptr_t", a.buffers[1])), nbytes,
                        validity or None, nbytes if validity else 0,
                        a.offset, a.length, negate, ctypes.byref(c),
                    )
                    assert rc == OK and c.value == n
                # The byte mask of the same array, back to indices.
                byte_mask = bytes(unpack_arrow(mask, negate))
                out = (ctypes.c_uint32 * max(n, 1))()
                c = ctypes.c_size_t(NO_COUNT)
                rc = lib.bitbytes_mask_to_indices(
                    byte_mask, len(byte_mask), 7, out, n, ctypes.byref(c)
                )
                assert rc == OK and c.value == n and list(out)[:n] == [7 + i for i in want]


@test
def errors_write_nothing():
    with Exported(pa.array([1, 2, 3], pa.int64())) as e:
        rc, out = e.unpack(False, 3)
        assert rc == ARROW_FORMAT and out == bytes([SENTINEL] * 11), rc
    booleans = pa.array([True, None, False, True], pa.bool_()).slice(1)
    with Exported(booleans) as e:
        rc, out = e.unpack(False, 2)  # 3 rows, room for 2
        assert rc == OUTPUT_TOO_SHORT and out == bytes([SENTINEL] * 10), rc
        assert b"output too short" in lib.bitbytes_strerror(rc)
    e = Exported(booleans)
    e.c_array.release(e.c_array)
    rc, out = e.unpack(False, 3)
    e.c_schema.release(e.c_schema)
    assert rc == ARROW_RELEASED and out == bytes([SENTINEL] * 11), rc


print(f"pyarrow {pa.__version__}: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
