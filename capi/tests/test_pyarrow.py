"""bitbytes_unpack_arrow on arrays that a real Arrow implementation exported.

Run by capi/ci.sh as  python test_pyarrow.py path/to/libbitbytes_capi.so
in a virtual environment with pyarrow and cffi (capi/tests/requirements.txt).

pyarrow exports each array through the C Data Interface
(`pa.Array._export_to_c` into structs allocated with `pyarrow.cffi.ffi`); the
shared library is called through ctypes. Every result is compared row by row
with what pyarrow.compute says (`is_valid` and the values), and the IN / NOT IN
masks also with a reference computed from plain Python lists.

The predicate calls (bitbytes_predicate_*): Paimon JSON predicates, hand-picked
and random (seeded) And / Or trees over int32 / int64 / string / large_string /
dictionary / string_view columns with nulls, on pyarrow record batches (whole, sliced, and as
a struct array with an offset). The byte mask and the indices are compared with
pyarrow.compute where its semantics and Paimon's coincide (integers and
strings, no NaN, no LIKE; Paimon's null rules on top), to_json with the input
byte for byte, statistics verdicts (min / max / null counts from
pyarrow.compute on slices) with the rows for soundness. When pypaimon imports
(capi/ci_arrow.sh installs it; BITBYTES_REQUIRE_PYPAIMON=1 makes it required)
the masks are also compared with pypaimon's own JSON-to-mask evaluation
(`parse_predicate_to_batch_filter`).
"""

import ctypes
import json
import os
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


# ---- predicates: Paimon JSON over record batches ------------------------------

lib.bitbytes_predicate_parse.argtypes = [
    ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
]
lib.bitbytes_predicate_parse.restype = ctypes.c_int
lib.bitbytes_predicate_free.argtypes = [ctypes.c_void_p]
lib.bitbytes_predicate_free.restype = None
lib.bitbytes_predicate_to_json.argtypes = [
    ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)
]
lib.bitbytes_predicate_to_json.restype = ctypes.c_int
lib.bitbytes_string_free.argtypes = [ctypes.c_void_p]
lib.bitbytes_string_free.restype = None
lib.bitbytes_predicate_test.argtypes = [
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t
]
lib.bitbytes_predicate_test.restype = ctypes.c_int
lib.bitbytes_predicate_test_stats.argtypes = lib.bitbytes_predicate_test.argtypes
lib.bitbytes_predicate_test_stats.restype = ctypes.c_int
lib.bitbytes_predicate_test_indices.argtypes = lib.bitbytes_predicate_test.argtypes + [
    ctypes.POINTER(ctypes.c_size_t)
]
lib.bitbytes_predicate_test_indices.restype = ctypes.c_int
lib.bitbytes_last_error.argtypes = []
lib.bitbytes_last_error.restype = ctypes.c_char_p

ERR_JSON, ERR_SCHEMA_MISMATCH, ERR_STATS_LAYOUT = -30, -31, -27

try:
    from pypaimon.common.predicate_json_parser import parse_predicate_to_batch_filter
except ImportError:
    parse_predicate_to_batch_filter = None
    assert os.environ.get("BITBYTES_REQUIRE_PYPAIMON") != "1", "pypaimon does not import"

# The columns, in schema order (the JSON's field index), with their Paimon type.
COLUMNS = [
    ("i", pa.int32(), "INT"),
    ("l", pa.int64(), "BIGINT"),
    ("s", pa.string(), "STRING"),
    ("ls", pa.large_string(), "STRING"),
    ("d", pa.dictionary(pa.int32(), pa.string()), "STRING"),
    ("sv", pa.string_view(), "STRING"),
]
INT_RANGE = {"i": (-(2**31), 2**31 - 1), "l": (-(2**63), 2**63 - 1)}
PIECES = ["a", "b", "c", "é", "中", '"', "\\"]


def random_string(rng):
    return "".join(rng.choice(PIECES[:5] if rng.random() < 0.9 else PIECES)
                   for _ in range(rng.randrange(4)))


def random_int(rng, name):
    lo, hi = INT_RANGE[name]
    if rng.random() < 0.03:
        return rng.choice((lo, hi))
    return rng.randrange(-50, 51) if name == "i" else rng.randrange(-1000, 1001)


def make_batch(rng, rows, null_fraction):
    def maybe(f):
        return [None if rng.random() < null_fraction else f() for _ in range(rows)]

    dictionary = pa.array([random_string(rng) for _ in range(6)], pa.string())
    keys = pa.array(maybe(lambda: rng.randrange(6)), pa.int32())
    columns = [
        pa.array(maybe(lambda: random_int(rng, "i")), pa.int32()),
        pa.array(maybe(lambda: random_int(rng, "l")), pa.int64()),
        pa.array(maybe(lambda: random_string(rng)), pa.string()),
        pa.array(maybe(lambda: random_string(rng)), pa.large_string()),
        pa.DictionaryArray.from_arrays(keys, dictionary),
        # views: inline up to 12 bytes, longer ones in a data buffer
        pa.array(maybe(lambda: random_string(rng) + ("-long-enough-to-be-out-of-line" if rng.random() < 0.3 else "")),
                 pa.string_view()),
    ]
    return pa.RecordBatch.from_arrays(columns, schema=pa.schema([pa.field(n, t) for n, t, _ in COLUMNS]))


def decoded(batch):
    """The dictionary and view columns as plain strings, for the kernels."""
    def plain(c):
        if pa.types.is_dictionary(c.type):
            return c.dictionary_decode()
        return c.cast(pa.string()) if c.type == pa.string_view() else c

    return pa.RecordBatch.from_arrays([plain(c) for c in batch.columns], names=batch.schema.names)


def leaf(fn, column, literals=()):
    name, _, paimon = COLUMNS[column]
    return {"kind": "LEAF",
            "transform": {"name": "FIELD_REF",
                          "fieldRef": {"index": column, "name": name, "type": paimon}},
            "function": fn, "literals": list(literals)}


def compound(fn, children):
    return {"kind": "COMPOUND", "function": fn, "children": children}


def to_json(tree):
    """Compact, keys in Java's order, non-ASCII raw: as Paimon Java writes it."""
    return json.dumps(tree, separators=(",", ":"), ensure_ascii=False)


def selected(result, column):
    """Paimon's mask from a kernel result: the row not null, the result true."""
    valid = pc.is_valid(column).to_pylist()
    return [int(bool(v and r)) for v, r in zip(valid, result.to_pylist())]


def oracle_leaf(node, batch):
    column = batch.column(node["transform"]["fieldRef"]["index"])
    fn, lits = node["function"], node["literals"]
    n = len(column)
    if fn == "IS_NULL":
        return [int(x) for x in pc.is_null(column).to_pylist()]
    if fn == "IS_NOT_NULL":
        return selected(pc.is_valid(column), column)
    if fn in ("IN", "NOT_IN"):
        if fn == "NOT_IN" and None in lits:
            return [0] * n
        found = pc.is_in(column, value_set=pa.array([x for x in lits if x is not None], column.type),
                         skip_nulls=True)
        return selected(pc.invert(found) if fn == "NOT_IN" else found, column)
    if None in lits:
        return [0] * n
    if fn == "BETWEEN":
        return selected(pc.and_(pc.greater_equal(column, lits[0]), pc.less_equal(column, lits[1])), column)
    if fn == "NOT_BETWEEN":
        return selected(pc.or_(pc.less(column, lits[0]), pc.greater(column, lits[1])), column)
    kernel = {"EQUAL": pc.equal, "NOT_EQUAL": pc.not_equal, "LESS_THAN": pc.less,
              "LESS_OR_EQUAL": pc.less_equal, "GREATER_THAN": pc.greater,
              "GREATER_OR_EQUAL": pc.greater_equal}.get(fn)
    if kernel is not None:
        return selected(kernel(column, pa.scalar(lits[0], column.type)), column)
    kernel = {"STARTS_WITH": pc.starts_with, "ENDS_WITH": pc.ends_with,
              "CONTAINS": pc.match_substring}[fn]
    return selected(kernel(column, pattern=lits[0]), column)


def oracle(node, batch):
    """And / Or: byte-wise AND / OR of the children's masks (SEMANTICS.md)."""
    if node["kind"] == "LEAF":
        return oracle_leaf(node, batch)
    masks = [oracle(c, batch) for c in node["children"]]
    op = all if node["function"] == "AND" else any
    return [int(op(m[r] for m in masks)) for r in range(len(masks[0]))]


def random_leaf(rng):
    column = rng.randrange(len(COLUMNS))
    name = COLUMNS[column][0]
    is_string = name not in INT_RANGE
    fns = ["EQUAL", "NOT_EQUAL", "LESS_THAN", "LESS_OR_EQUAL", "GREATER_THAN", "GREATER_OR_EQUAL",
           "IN", "NOT_IN", "BETWEEN", "NOT_BETWEEN", "IS_NULL", "IS_NOT_NULL"]
    if is_string:
        fns += ["STARTS_WITH", "ENDS_WITH", "CONTAINS"]
    fn = rng.choice(fns)
    count = {"IS_NULL": 0, "IS_NOT_NULL": 0, "BETWEEN": 2, "NOT_BETWEEN": 2}.get(fn, 1)
    if fn in ("IN", "NOT_IN"):
        count = rng.randrange(7)

    def literal():
        if rng.random() < 0.05:
            return None
        if is_string:
            return random_string(rng)
        v = random_int(rng, name)
        return v + 1 if v < INT_RANGE[name][1] and rng.random() < 0.2 else v

    return leaf(fn, column, [literal() for _ in range(count)])


def random_tree(rng, depth):
    if depth == 0 or rng.random() < 0.35:
        return random_leaf(rng)
    return compound(rng.choice(("AND", "OR")),
                    [random_tree(rng, depth - 1) for _ in range(3 if rng.random() < 0.25 else 2)])


class Predicate:
    """A parsed predicate; freed on exit."""

    def __init__(self, text, schema):
        c_schema = ffi.new("struct ArrowSchema*")
        schema._export_to_c(int(ffi.cast("uintptr_t", c_schema)))
        self.handle = ctypes.c_void_p()
        data = text.encode()
        self.rc = lib.bitbytes_predicate_parse(
            data, len(data), int(ffi.cast("uintptr_t", c_schema)), ctypes.byref(self.handle))
        c_schema.release(c_schema)

    def __enter__(self):
        assert self.rc == OK, (self.rc, lib.bitbytes_last_error())
        return self

    def __exit__(self, *exc):
        lib.bitbytes_predicate_free(self.handle)

    def json(self):
        text, length = ctypes.c_void_p(), ctypes.c_size_t()
        rc = lib.bitbytes_predicate_to_json(self.handle, ctypes.byref(text), ctypes.byref(length))
        assert rc == OK, (rc, lib.bitbytes_last_error())
        out = ctypes.string_at(text, length.value).decode()
        lib.bitbytes_string_free(text)
        return out

    def mask(self, e, n, out_len=None):
        out = (ctypes.c_uint8 * (n + 8))(*([SENTINEL] * (n + 8)))
        rc = lib.bitbytes_predicate_test(self.handle, e.array_ptr, e.schema_ptr, out,
                                         n if out_len is None else out_len)
        return rc, list(out)

    def indices(self, e, out_len):
        out = (ctypes.c_uint32 * (out_len + 4))(*([SENTINEL32] * (out_len + 4)))
        count = ctypes.c_size_t(NO_COUNT)
        rc = lib.bitbytes_predicate_test_indices(self.handle, e.array_ptr, e.schema_ptr, out,
                                                 out_len, ctypes.byref(count))
        return rc, count.value, list(out)

    def stats(self, e, n):
        out = (ctypes.c_uint8 * (n + 8))(*([SENTINEL] * (n + 8)))
        rc = lib.bitbytes_predicate_test_stats(self.handle, e.array_ptr, e.schema_ptr, out, n)
        return rc, list(out)


def check_on(pred, exportable, want, what):
    """The mask and the indices of one export against `want`."""
    n = len(want)
    with Exported(exportable) as e:
        rc, out = pred.mask(e, n)
        assert rc == OK, (what, rc, lib.bitbytes_last_error())
        assert out[:n] == want, f"{what}: mask differs from pyarrow.compute"
        assert out[n:] == [SENTINEL] * 8, f"{what}: wrote past out_len"
        rows = [r for r, b in enumerate(want) if b]
        rc, count, out = pred.indices(e, n)
        assert rc == OK and count == len(rows), (what, rc, count, len(rows))
        assert out[:count] == rows and out[count:] == [SENTINEL32] * (len(out) - count), what
        if rows:
            rc, count, out = pred.indices(e, len(rows) - 1)
            assert rc == OUTPUT_TOO_SHORT and count == NO_COUNT, (what, rc)
            assert out == [SENTINEL32] * (len(rows) + 3), f"{what}: a short output was written"


def check_case(tree, batch, rng):
    text = to_json(tree)
    want = oracle(tree, decoded(batch))
    with Predicate(text, batch.schema) as pred:
        written = pred.json()
        assert written == text, f"to_json:\n  {text}\n  {written}"
        check_on(pred, batch, want, "the batch")
        for offset in (1, 7, 64, rng.randrange(len(batch))):
            length = min(len(batch) - offset, 1 + rng.randrange(len(batch)))
            part = want[offset:offset + length]
            check_on(pred, batch.slice(offset, length), part, f"a slice at {offset}")
            struct = pa.StructArray.from_arrays(batch.columns, fields=list(batch.schema))
            check_on(pred, struct.slice(offset, length), part, f"a struct array at {offset}")
    if parse_predicate_to_batch_filter is not None:
        # pypaimon on the decoded batch (its kernels take plain strings).
        theirs = parse_predicate_to_batch_filter(text)(decoded(batch))
        assert [int(bool(x)) for x in theirs.to_pylist()] == want, f"pypaimon differs: {text}"
    return want


def stats_array(batch, bounds, types):
    """The statistics layout of bitbytes.h for containers [start, end) of `batch`:
    row_count, and per column a struct of min, max (null: unknown) of `types`, null_count."""
    children, fields = [pa.array([e - s for s, e in bounds], pa.uint64())], [pa.field("row_count", pa.uint64())]
    for name, column, stats_type in zip(batch.schema.names, batch.columns, types):
        mins, maxs, nulls = [], [], []
        for s, e in bounds:
            mm = pc.min_max(column.slice(s, e - s))
            mins.append(mm["min"].as_py())
            maxs.append(mm["max"].as_py())
            nulls.append(column.slice(s, e - s).null_count)
        child = pa.StructArray.from_arrays(
            [pa.array(mins, column.type).cast(stats_type), pa.array(maxs, column.type).cast(stats_type),
             pa.array(nulls, pa.uint64())],
            names=["min", "max", "null_count"])
        children.append(child)
        fields.append(pa.field(name, child.type, metadata={"truncated": "false"}))
    return pa.StructArray.from_arrays(children, fields=fields)


def check_stats(tree, batch, want, bounds, stats):
    with Predicate(to_json(tree), batch.schema) as pred, Exported(stats) as e:
        rc, out = pred.stats(e, len(bounds))
        assert rc == OK, (rc, lib.bitbytes_last_error())
        assert out[len(bounds):] == [SENTINEL] * 8, "test_stats wrote past out_len"
        for (s, end), v in zip(bounds, out):
            rows = want[s:end]
            assert v in (0, 1, 2)
            assert v != 0 or not any(rows), f"NoMatch on rows {s}..{end} with a match: {to_json(tree)}"
            assert v != 2 or all(rows), f"AllMatch on rows {s}..{end} with a miss: {to_json(tree)}"


def containers(rng, rows):
    bounds, s = [], 0
    while s < rows:
        e = min(rows, s + rng.choice((0, 1, 2, 3, 17, 40, 64)))
        bounds.append((s, e))
        s = e
    return bounds


HAND_PICKED = [
    leaf("GREATER_THAN", 0, [5]),
    leaf("EQUAL", 1, [-17]),
    leaf("NOT_EQUAL", 0, [None]),
    leaf("IN", 0, [1, None, 3, -50]),
    leaf("NOT_IN", 0, [1, 3]),
    leaf("NOT_IN", 0, [1, None]),
    leaf("IN", 2, []),
    leaf("NOT_IN", 2, []),
    leaf("BETWEEN", 1, [-100, 100]),
    leaf("NOT_BETWEEN", 0, [-10, 10]),
    leaf("IS_NULL", 4),
    leaf("IS_NOT_NULL", 3),
    leaf("STARTS_WITH", 2, ["a"]),
    leaf("STARTS_WITH", 4, ["é"]),
    leaf("ENDS_WITH", 3, ["b"]),
    leaf("EQUAL", 4, ["ab"]),
    leaf("STARTS_WITH", 5, ["a"]),
    leaf("LESS_THAN", 5, ["b"]),
    compound("AND", [leaf("GREATER_THAN", 0, [0]), leaf("STARTS_WITH", 2, ["a"])]),
    compound("OR", [leaf("IS_NULL", 0), leaf("IN", 4, ["a", '"']), leaf("LESS_THAN", 1, [0])]),
]


@test
def predicates_hand_picked_and_random():
    rng = random.Random(19)
    batch = make_batch(rng, 500, 0.15)
    bounds = containers(rng, len(batch))
    # min / max of each field's type (a dictionary's: its value type)
    types = [c.type.value_type if pa.types.is_dictionary(c.type) else c.type for c in batch.columns]
    stats = stats_array(decoded(batch), bounds, types)
    trees = HAND_PICKED + [random_tree(rng, 3) for _ in range(200)]
    selected_rows = 0
    for tree in trees:
        want = check_case(tree, batch, rng)
        check_stats(tree, batch, want, bounds, stats)
        selected_rows += sum(want)
    total = len(trees) * len(batch)
    assert total // 10 < selected_rows < total * 9 // 10, (selected_rows, total)


@test
def predicates_on_null_free_and_all_null_batches():
    rng = random.Random(23)
    for null_fraction in (0.0, 1.0):
        batch = make_batch(rng, 70, null_fraction)
        # All columns, the view column too: when every row is null, Arrow C++
        # exports it with no data buffer and a NULL variadic-sizes buffer.
        for _ in range(30):
            check_case(random_tree(rng, 2), batch, rng)


@test
def predicate_errors_write_nothing():
    rng = random.Random(29)
    batch = make_batch(rng, 10, 0.2)
    good = to_json(leaf("GREATER_THAN", 0, [5]))
    for bad, code in ((good[:-1], ERR_JSON), (good.replace('"name":"i"', '"name":"zz"'), ERR_JSON),
                      (good.replace("[5]", '["five"]'), ERR_JSON)):
        p = Predicate(bad, batch.schema)
        assert p.rc == code and p.handle.value is None, (bad, p.rc)
        assert lib.bitbytes_last_error(), "no message"
    with Predicate(good, batch.schema) as pred:
        with Exported(batch) as e:
            rc, out = pred.mask(e, 10, out_len=9)
            assert rc == OUTPUT_TOO_SHORT and out == [SENTINEL] * 18, rc
            rc, out = pred.stats(e, 10)  # a batch is not statistics
            assert rc == ERR_STATS_LAYOUT and out == [SENTINEL] * 18, rc
        other = pa.RecordBatch.from_arrays([pa.array([1, 2], pa.int64())], names=["i"])
        with Exported(other) as e:
            rc, out = pred.mask(e, 2)
            assert rc == ERR_SCHEMA_MISMATCH and out == [SENTINEL] * 10, rc
        e = Exported(batch)
        e.c_array.release(e.c_array)
        rc, out = pred.mask(e, 10)
        e.c_schema.release(e.c_schema)
        assert rc == ARROW_RELEASED and out == [SENTINEL] * 18, rc


print(f"pyarrow {pa.__version__}, pypaimon {'yes' if parse_predicate_to_batch_filter else 'not installed'}: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
