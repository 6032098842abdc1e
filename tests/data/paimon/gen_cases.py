#!/usr/bin/env python3
"""Generates the Paimon oracle cases of bitbytes' test suite (tests/paimon_oracle.rs).

    python3 gen_cases.py                      # writes <group>.cases.jsonl
    python3 gen_cases.py --oracle RUN_SH      # and <group>.expected.jsonl, by running
                                              # ../shared/paimon-oracle/run.sh on each group

Deterministic: one seeded random.Random per group. The case format is the oracle's
(../shared/paimon-oracle/README.md). Rows that may make Java throw (CAST of a null or of
an unparsable string, an invalid LIKE escape) are put in cases of their own, since one
throwing row makes the oracle answer the whole case with an error.
"""
import argparse
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NAN = float("nan")
INF = float("inf")


def ref(i, n, t):
    return {"index": i, "name": n, "type": t}


def field(fr):
    return {"name": "FIELD_REF", "fieldRef": fr}


def leaf(fn, transform, lits):
    return {"kind": "LEAF", "transform": transform, "function": fn, "literals": lits}


def comp(fn, children):
    return {"kind": "COMPOUND", "function": fn, "children": children}


def const(fn):
    return leaf(fn, {"name": "NULL"}, [])


def st(rc, mn, mx, nc):
    return {"rowCount": rc, "min": mn, "max": mx, "nullCounts": nc}


def has_nonfinite(x):
    if isinstance(x, float):
        return x != x or x in (INF, -INF)
    if isinstance(x, list):
        return any(has_nonfinite(v) for v in x)
    if isinstance(x, dict):
        return any(has_nonfinite(v) for v in x.values())
    return False


class Group:
    def __init__(self, name):
        self.name = name
        self.cases = []

    def add(self, desc, schema, pred, rows=(), stats=None):
        case = {"id": f"{self.name}/{len(self.cases):04d}-{desc}", "schema": schema,
                "predicate": pred, "rows": list(rows)}
        if stats:
            case["stats"] = stats
        if has_nonfinite(pred):
            # NaN / Infinity literals only exist as number tokens, which only the
            # oracle's lenient copy of Paimon's mapper reads.
            case["lenientJson"] = True
        self.cases.append(case)

    def write(self):
        path = os.path.join(HERE, f"{self.name}.cases.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for c in self.cases:
                f.write(json.dumps(c, ensure_ascii=False, separators=(",", ":")) + "\n")
        return path


# ---------------------------------------------------------------- value pools

INT_POOLS = {
    "TINYINT": [-128, -127, -1, 0, 1, 44, 100, 126, 127],
    "SMALLINT": [-32768, -32767, -1, 0, 1, 300, 32766, 32767],
    "INT": [-2147483648, -2147483647, -5, -1, 0, 1, 2, 3, 7, 1000, 2147483646, 2147483647],
    "BIGINT": [-9223372036854775808, -9223372036854775807, -4294967296, -1, 0, 1, 2, 3,
               2147483648, 9223372036854775806, 9223372036854775807],
}
DOUBLE_ROWS = ["NaN", "-NaN", "0x7ff8000000000001", "0xfff0000000000001", "Infinity", "-Infinity",
               "-0.0", 0.0, 1.0, -1.0, 0.1, 1.5, -2.5, 4.9e-324, 1.7976931348623157e308,
               9.999999999999999e22, 1e23, 2.2250738585072014e-308]
FLOAT_ROWS = ["NaN", "-NaN", "0x7fc00001", "0xff800001", "Infinity", "-Infinity", "-0.0", 0.0,
              1.0, -1.0, 0.1, 1.5, -2.5, 1.4e-45, 3.4028235e38, 1.17549435e-38, 16777217.0]
DOUBLE_LITS = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 0.1, 1.5, -2.5, 4.9e-324,
               1.7976931348623157e308, 9.999999999999999e22, 1e23, 1e-300, 123456789.125,
               2.2250738585072014e-308, 100.0, 1e7, 1e-3, 0.001234]
FLOAT_LITS = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 0.1, 1.5, -2.5, 1.4e-45, 3.4028235e38,
              16777217.0, 1e10, 1e-3]
STRINGS = ["", " ", "a", "A", "b", "z", "aa", "ab", "abc", "abd", "abcd", "ba", "a_c", "a%c",
           "a\\c", "abc\\", "\n", "a\nb", "x\na\nyb", "\r", "\u2028", "\u0085", "中", "中文",
           "é", "e\u0301", "😀", "\ue000", "\uff5e", "\u007f", "\u0080", "AB", "aB", "ß",
           "ǅ", "ΟΣ", "İ", "ﬁ", "%", "_", "\\", "a.c[x]", "abcabc", "zz", "~"]
LIKE_PATTERNS = ["a%", "%", "%%", "", "_", "__", "a_c", "a\\_c", "a\\%c", "a\\\\c", "%a%b%",
                 "_%", "%_", "a.c%[x]", "%c", "%b%", "ab", "a%c%", "%\\%%", "\\_%", "中_",
                 "_文", "%\n%", "_\n", "a%a", "%abc", "abc%", "a%%c", "%中%", "\\\\%", "a_%_c"]
BAD_LIKE = ["ab\\", "\\x", "a\\b%", "%\\"]
STRING_TYPES = ["STRING", "VARCHAR(5)", "CHAR(3)", "VARCHAR(2147483647)"]

COMPARE = ["EQUAL", "NOT_EQUAL", "LESS_THAN", "LESS_OR_EQUAL", "GREATER_THAN", "GREATER_OR_EQUAL"]
STRING_FNS = ["STARTS_WITH", "ENDS_WITH", "CONTAINS", "LIKE"]


def pool(t):
    if t in INT_POOLS:
        return INT_POOLS[t]
    if t == "DOUBLE":
        return DOUBLE_ROWS
    if t == "FLOAT":
        return FLOAT_ROWS
    if t == "BOOLEAN":
        return [True, False]
    return STRINGS


def lit_pool(t):
    if t == "DOUBLE":
        return DOUBLE_LITS
    if t == "FLOAT":
        return FLOAT_LITS
    return pool(t)


def rows_of(rng, t, n, null_share=0.15):
    p = pool(t)
    return [[None] if rng.random() < null_share else [rng.choice(p)] for _ in range(n)]


# ---------------------------------------------------------------- leaves

def gen_leaves():
    g = Group("leaves")
    rng = random.Random(17001)
    scalar = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"] + STRING_TYPES
    for t in scalar:
        schema = [{"name": "c", "type": t}]
        fr = ref(0, "c", t)
        lp = lit_pool(t)
        reps = 6 if t not in ("BOOLEAN",) else 3
        for fn in COMPARE:
            for k in range(reps):
                g.add(f"{fn.lower()}-{t}", schema, leaf(fn, field(fr), [rng.choice(lp)]),
                      rows_of(rng, t, 12))
            g.add(f"{fn.lower()}-{t}-nulllit", schema, leaf(fn, field(fr), [None]), rows_of(rng, t, 6))
        for fn in ["IN", "NOT_IN"]:
            for k in range(reps + 2):
                n = rng.choice([0, 1, 2, 3, 5, 8, 25])
                lits = [rng.choice(lp) for _ in range(n)]
                if rng.random() < 0.3:
                    lits.insert(rng.randrange(len(lits) + 1), None)
                g.add(f"{fn.lower()}-{t}-{n}", schema, leaf(fn, field(fr), lits), rows_of(rng, t, 12))
            g.add(f"{fn.lower()}-{t}-onlynull", schema, leaf(fn, field(fr), [None]), rows_of(rng, t, 5))
        for fn in ["BETWEEN", "NOT_BETWEEN"]:
            for k in range(reps):
                a, b = rng.choice(lp), rng.choice(lp)
                g.add(f"{fn.lower()}-{t}", schema, leaf(fn, field(fr), [a, b]), rows_of(rng, t, 12))
            g.add(f"{fn.lower()}-{t}-nulllo", schema, leaf(fn, field(fr), [None, rng.choice(lp)]),
                  rows_of(rng, t, 5))
            g.add(f"{fn.lower()}-{t}-nullhi", schema, leaf(fn, field(fr), [rng.choice(lp), None]),
                  rows_of(rng, t, 5))
        for fn in ["IS_NULL", "IS_NOT_NULL"]:
            g.add(f"{fn.lower()}-{t}", schema, leaf(fn, field(fr), []), rows_of(rng, t, 10, 0.4))
        if t in ("FLOAT", "DOUBLE", "INT"):
            g.add(f"is_nan-{t}", schema, leaf("IS_NAN", field(fr), []), rows_of(rng, t, 10))
        if t in STRING_TYPES:
            for fn in STRING_FNS:
                for k in range(10 if t == "STRING" else 3):
                    if fn == "LIKE":
                        p = rng.choice(LIKE_PATTERNS)
                    else:
                        p = rng.choice(STRINGS + ["ab", "a", "c", "中"])
                    g.add(f"{fn.lower()}-{t}", schema, leaf(fn, field(fr), [p]), rows_of(rng, t, 12))
                g.add(f"{fn.lower()}-{t}-nulllit", schema, leaf(fn, field(fr), [None]), rows_of(rng, t, 5))
    # Every LIKE pattern once over the whole string pool.
    s = [{"name": "s", "type": "STRING"}]
    sf = field(ref(0, "s", "STRING"))
    for p in LIKE_PATTERNS:
        g.add("like-all", s, leaf("LIKE", sf, [p]), [[v] for v in STRINGS] + [[None]])
    for p in BAD_LIKE:
        g.add("like-badescape", s, leaf("LIKE", sf, [p]), [["ab\\"]])
        g.add("like-badescape-nullrows", s, leaf("LIKE", sf, [p]), [[None]])
    # Negated string functions of newer Paimon (not registered at some revisions).
    for fn in ["NOT_STARTS_WITH", "NOT_ENDS_WITH", "NOT_CONTAINS", "NOT_LIKE"]:
        g.add(f"{fn.lower()}", s, leaf(fn, sf, ["a%" if fn == "NOT_LIKE" else "a"]),
              [["a"], ["ba"], [None]])
    # Types whose literals Paimon may not read: null tests, null literals, a literal.
    others = [("DECIMAL(10, 2)", ["1.50", "-3.25", "0.00", "99999999.99"]),
              ("DECIMAL(38, 10)", ["12345678901234567890.0123456789", "-1.0000000001"]),
              ("DATE", [0, 18262, -1, "2020-02-29"]),
              ("TIME", [0, 1000, 86399000]),
              ("TIMESTAMP(3)", [0, 1600000000123, "2020-01-01T00:00:00"]),
              ("TIMESTAMP(6)", [{"millis": 5, "nanos": 123000}, -1]),
              ("TIMESTAMP(9)", [{"millis": 5, "nanos": 123456}]),
              ("TIMESTAMP_LTZ(3)", [0, 1600000000123]),
              ("BYTES", ["", "00", "ff01"]), ("VARBINARY(10)", ["0001"]), ("BINARY(2)", ["0102"])]
    lits = {"DECIMAL(10, 2)": [1.5, "1.50", 15], "DECIMAL(38, 10)": ["12345678901234567890.0123456789"],
            "DATE": ["2020-01-01", [2020, 1, 1], 18262], "TIME": ["00:00:01", [0, 0, 1]],
            "TIMESTAMP(3)": ["2020-01-01T00:00:00", [2020, 1, 1, 0, 0], 0],
            "TIMESTAMP(6)": ["2020-01-01T00:00:00.000001"], "TIMESTAMP(9)": ["1970-01-01T00:00:00.005000123"],
            "TIMESTAMP_LTZ(3)": ["2020-01-01T00:00:00Z", 1577836800],
            "BYTES": ["AAE=", "0001"], "VARBINARY(10)": ["AAE="], "BINARY(2)": ["AQI="]}
    for t, vals in others:
        schema = [{"name": "c", "type": t}]
        fr = ref(0, "c", t)
        rows = [[v] for v in vals] + [[None]]
        for fn in ["IS_NULL", "IS_NOT_NULL"]:
            g.add(f"{fn.lower()}-{t}", schema, leaf(fn, field(fr), []), rows)
        for fn in ["EQUAL", "LESS_THAN", "IN", "NOT_IN"]:
            g.add(f"{fn.lower()}-{t}-nulllit", schema, leaf(fn, field(fr), [None]), rows)
        g.add(f"between-{t}-nulllit", schema, leaf("BETWEEN", field(fr), [None, None]), rows)
        for lit in lits[t]:
            g.add(f"equal-{t}-literal", schema, leaf("EQUAL", field(fr), [lit]), rows)
    # Literal encodings Java accepts loosely (fractional INT, out-of-range TINYINT, string for INT).
    a = [{"name": "a", "type": "INT"}]
    af = field(ref(0, "a", "INT"))
    for lit in [1.7, -1.7, 2147483648, "1", True]:
        g.add("equal-INT-looselit", a, leaf("EQUAL", af, [lit]), [[1], [2], [-1], [-2147483648]])
    tt = [{"name": "t", "type": "TINYINT"}]
    g.add("equal-TINYINT-300", tt, leaf("EQUAL", field(ref(0, "t", "TINYINT")), [300]), [[44], [127]])
    g.add("equal-DOUBLE-NaNstring", [{"name": "d", "type": "DOUBLE"}],
          leaf("EQUAL", field(ref(0, "d", "DOUBLE")), ["NaN"]), [["NaN"]])
    g.add("equal-STRING-number", s, leaf("EQUAL", sf, [5]), [["5"], ["a"]])
    # And / Or trees over two columns.
    two = [{"name": "a", "type": "INT"}, {"name": "s", "type": "STRING"}]
    ar, sr = field(ref(0, "a", "INT")), field(ref(1, "s", "STRING"))
    for k in range(40):
        def rnd_leaf():
            if rng.random() < 0.5:
                return leaf(rng.choice(COMPARE + ["IS_NULL", "IS_NOT_NULL"]), ar,
                            [rng.choice(INT_POOLS["INT"])])
            fn = rng.choice(COMPARE + ["IS_NULL", "STARTS_WITH", "LIKE"])
            return leaf(fn, sr, [rng.choice(LIKE_PATTERNS if fn == "LIKE" else STRINGS)])
        def tree(d):
            if d == 0 or rng.random() < 0.3:
                l = rnd_leaf()
                if l["function"] in ("IS_NULL", "IS_NOT_NULL"):
                    l["literals"] = []
                return l
            return comp(rng.choice(["AND", "OR"]), [tree(d - 1) for _ in range(rng.choice([2, 2, 3, 4]))])
        rows = [[rng.choice(INT_POOLS["INT"] + [None]), rng.choice(STRINGS + [None])] for _ in range(12)]
        g.add("tree", two, tree(3), rows)
    return g


# ---------------------------------------------------------------- transforms

def py_upper(s):
    return s.upper()


def py_lower(s):
    return s.lower()


UNICODE_SPECIALS = ["ß", "ǅ", "ΟΣ", "İ", "ﬁ", "ŉ", "ǰ", "ΐ", "Σ", "ς", "σ", "ΑΣ ΒΣ", "İstanbul",
                    "ı", "K", "Å", "ǈ", "Ǳ", "ᾳ", "ﬀ", "ﬃ", "ﬆ", "ΟΣΑ", "ΟΣ.", "aΣ", "Σa", "ß!",
                    "\u0345", "ῼ", "ǆ", "ǲ", "Ⅻ", "ⓐ", "𐐀", "𐐨", "Straße", "ÉCOLE", "école"]


def rand_string(rng):
    alphabet = "abcAB zß中é-_%Σς😀İı" + "\u0130\u03a3\u0301"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 7)))


def gen_transforms():
    g = Group("transforms")
    rng = random.Random(17002)
    s = [{"name": "s", "type": "STRING"}, {"name": "t", "type": "STRING"}, {"name": "u", "type": "VARCHAR(10)"}]
    S, T, U = ref(0, "s", "STRING"), ref(1, "t", "STRING"), ref(2, "u", "VARCHAR(10)")
    base = STRINGS + UNICODE_SPECIALS
    # UPPER / LOWER: EQUAL to the (python) mapping of each special, IN of several, LIKE, STARTS_WITH.
    for name, f in [("UPPER", py_upper), ("LOWER", py_lower)]:
        tr = {"name": name, "inputs": [S]}
        for v in UNICODE_SPECIALS + ["abc", "ABC", ""]:
            rows = [[v, None, None], [f(v), None, None], [v.swapcase(), None, None], [None, None, None]]
            g.add(f"{name.lower()}-eq", s, leaf("EQUAL", tr, [f(v)]), rows)
        for k in range(25):
            vals = [rng.choice(base) if rng.random() < 0.6 else rand_string(rng) for _ in range(10)]
            rows = [[v, None, None] for v in vals] + [[None, "x", "y"]]
            lits = [f(rng.choice(vals)) for _ in range(4)]
            g.add(f"{name.lower()}-in", s, leaf("IN", tr, lits), rows)
            g.add(f"{name.lower()}-lt", s, leaf("LESS_THAN", tr, [f(rng.choice(vals))]), rows)
            g.add(f"{name.lower()}-like", s, leaf("LIKE", tr, [rng.choice(LIKE_PATTERNS)]), rows)
            g.add(f"{name.lower()}-startswith", s, leaf("STARTS_WITH", tr, [f(rng.choice(vals))[:1]]), rows)
        g.add(f"{name.lower()}-isnull", s, leaf("IS_NULL", tr, []), [["a", None, None], [None, None, None]])
        g.add(f"{name.lower()}-varchar", s, leaf("EQUAL", {"name": name, "inputs": [U]}, [f("ab")]),
              [[None, None, "ab"], [None, None, "AB"], [None, None, None]])
    # CONCAT / CONCAT_WS with fields, literals and nulls.
    for k in range(60):
        ins = []
        for _ in range(rng.choice([0, 1, 2, 3, 4])):
            r = rng.random()
            ins.append(rng.choice([S, T, U]) if r < 0.55 else (None if r < 0.65 else rng.choice(["-", "", "x", "ß", ", "])))
        rows = []
        for _ in range(8):
            rows.append([rng.choice(base[:20] + [None]), rng.choice(["b", "", "中", None]), rng.choice(["u", None])])
        # the literal: python concat of one row's values
        def concat(row):
            parts = []
            for i in ins:
                if isinstance(i, dict):
                    v = row[i["index"]]
                    if v is None:
                        return None
                    parts.append(v)
                elif i is None:
                    return None
                else:
                    parts.append(i)
            return "".join(parts)
        target = concat(rng.choice(rows))
        g.add("concat-eq", s, leaf("EQUAL", {"name": "CONCAT", "inputs": ins}, [target]), rows)
        g.add("concat-isnull", s, leaf("IS_NULL", {"name": "CONCAT", "inputs": ins}, []), rows)
        sep = rng.choice(["-", "", ", ", None, S, "ß"])
        def concat_ws(row):
            sp = row[0] if isinstance(sep, dict) else sep
            if sp is None:
                return None
            parts = []
            for i in ins:
                v = row[i["index"]] if isinstance(i, dict) else i
                if v is not None:
                    parts.append(v)
            return sp.join(parts)
        target = concat_ws(rng.choice(rows))
        tr = {"name": "CONCAT_WS", "inputs": [sep] + (ins or [T])}
        g.add("concat_ws-eq", s, leaf("EQUAL", tr, [target]), rows)
        g.add("concat_ws-isnull", s, leaf("IS_NULL", tr, []), rows)
    g.add("concat_ws-onlysep", s, leaf("EQUAL", {"name": "CONCAT_WS", "inputs": ["-"]}, [""]), [["a", "b", "c"]])
    g.add("concat-empty", s, leaf("EQUAL", {"name": "CONCAT", "inputs": []}, [""]), [["a", "b", "c"]])
    g.add("upper-of-concat", s, leaf("EQUAL", {"name": "UPPER", "inputs": [{"name": "CONCAT", "inputs": [S]}]}, ["A"]), [["a", None, None]])
    g.add("upper-two-inputs", s, leaf("EQUAL", {"name": "UPPER", "inputs": [S, T]}, ["A"]), [["a", "b", None]])
    g.add("upper-literal-input", s, leaf("EQUAL", {"name": "UPPER", "inputs": ["a"]}, ["A"]), [["a", "b", None]])
    g.add("substring", s, leaf("EQUAL", {"name": "SUBSTRING", "inputs": [S, 1, 2]}, ["ab"]), [["abc", None, None]])
    g.add("trim", s, leaf("EQUAL", {"name": "TRIM", "inputs": [S]}, ["ab"]), [[" ab ", None, None]])
    # CAST between type pairs.
    num_types = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"]
    num_targets = num_types + ["BOOLEAN", "STRING", "VARCHAR(3)", "CHAR(5)", "DECIMAL(10, 2)",
                               "DECIMAL(38, 0)", "DATE", "TIMESTAMP(3)", "TIME"]
    def cast_leaves(src_t, tgt, vals):
        fr = ref(0, "c", src_t)
        tr = {"name": "CAST", "fieldRef": fr, "type": tgt}
        out = []
        tgt_lit_pool = None
        if tgt in num_types or tgt == "BOOLEAN":
            tgt_lit_pool = lit_pool(tgt)
        elif tgt.startswith(("STRING", "VARCHAR", "CHAR")):
            tgt_lit_pool = [str(v) for v in vals if v is not None] + ["1", "1.0", "true", "-0.0", "NaN",
                                                                      "Infinity", "1.5", "1.0E10", "1.0E-4"]
        out.append(leaf("IS_NOT_NULL", tr, []))
        if tgt_lit_pool:
            for fn in ["EQUAL", "LESS_THAN", "GREATER_OR_EQUAL"]:
                out.append(leaf(fn, tr, [rng.choice(tgt_lit_pool)]))
            out.append(leaf("IN", tr, [rng.choice(tgt_lit_pool) for _ in range(6)]))
        else:
            out.append(leaf("EQUAL", tr, [None]))
        return out
    for src in num_types + ["BOOLEAN"]:
        vals = [v for v in lit_pool(src)] if src != "BOOLEAN" else [True, False]
        rows = [[v] for v in vals]
        for tgt in num_targets:
            if tgt == src:
                continue
            for p in cast_leaves(src, tgt, vals):
                g.add(f"cast-{src}-{tgt}", [{"name": "c", "type": src}], p, rows)
            g.add(f"cast-{src}-{tgt}-nullrow", [{"name": "c", "type": src}],
                  leaf("IS_NULL", {"name": "CAST", "fieldRef": ref(0, "c", src), "type": tgt}, []), [[None]])
    # STRING sources: every row in a case of its own (parsing may throw).
    str_vals = ["1", "-1", "007", "+5", " 5", "5 ", "1.5", "-1.5", ".", "1e3", "abc", "", "2147483648",
                "-2147483649", "127", "128", "true", "FALSE", "t", "yes", "No", "0", "1", "NaN", "Infinity",
                "-Infinity", "1e400", " 2.5 ", "0x10", "2020-01-01", "2020-1-1", "2020-02-30",
                "2020-01-01 12:34:56", "2020-01-01T12:34:56.789", "12:34:56", "1.23456789", "99999999.999",
                "١٢", "−1", "1_000", "9223372036854775807", "9223372036854775808"]
    str_targets = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "BOOLEAN", "DECIMAL(10, 2)",
                   "DATE", "TIMESTAMP(3)", "TIME", "VARCHAR(3)", "CHAR(5)", "STRING", "BYTES"]
    for tgt in str_targets:
        tr = {"name": "CAST", "fieldRef": ref(0, "c", "STRING"), "type": tgt}
        if tgt in num_types or tgt == "BOOLEAN":
            p = leaf("IN", tr, [v for v in lit_pool(tgt) if not (isinstance(v, float) and v != v)])
        else:
            p = leaf("IS_NOT_NULL", tr, [])
        for v in str_vals:
            if tgt.startswith(("STRING", "VARCHAR", "CHAR")):
                p = leaf("IN", tr, [v, v[:3], v.ljust(5)])
            g.add(f"cast-STRING-{tgt}", [{"name": "c", "type": "STRING"}], p, [[v]])
        g.add(f"cast-STRING-{tgt}-nullrow", [{"name": "c", "type": "STRING"}],
              leaf("IS_NULL", {"name": "CAST", "fieldRef": ref(0, "c", "STRING"), "type": tgt}, []), [[None]])
    # Temporal and decimal sources.
    temporal = [("DATE", [0, 18262, -719162, 2932896]), ("TIMESTAMP(3)", [0, 1600000000123, -1]),
                ("TIMESTAMP(6)", [{"millis": 5, "nanos": 123000}]), ("TIMESTAMP_LTZ(3)", [0, 1600000000123]),
                ("TIME", [0, 45296789]), ("DECIMAL(10, 2)", ["1.50", "-3.25", "99999999.99", "0.00"]),
                ("DECIMAL(38, 10)", ["12345678901234567890.0123456789"])]
    for src, vals in temporal:
        for tgt in ["STRING", "DATE", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)", "TIMESTAMP(0)",
                    "TIMESTAMP_LTZ(3)", "TIME", "INT", "BIGINT", "DOUBLE", "DECIMAL(5, 1)", "DECIMAL(20, 4)", "BOOLEAN"]:
            if tgt == src:
                continue
            for p in cast_leaves(src, tgt, [str(v) for v in vals]):
                g.add(f"cast-{src}-{tgt}", [{"name": "c", "type": src}], p, [[v] for v in vals])
            g.add(f"cast-{src}-{tgt}-nullrow", [{"name": "c", "type": src}],
                  leaf("IS_NULL", {"name": "CAST", "fieldRef": ref(0, "c", src), "type": tgt}, []), [[None]])
    # A CAST that would throw, behind an And / Or that has already decided the row.
    two = [{"name": "a", "type": "INT"}, {"name": "s", "type": "STRING"}]
    cast_s = leaf("EQUAL", {"name": "CAST", "fieldRef": ref(1, "s", "STRING"), "type": "INT"}, [5])
    a_gt = leaf("GREATER_THAN", field(ref(0, "a", "INT")), [0])
    g.add("cast-shortcircuit-and", two, comp("AND", [a_gt, cast_s]), [[-1, "abc"], [0, None], [1, "5"]])
    g.add("cast-shortcircuit-or", two, comp("OR", [a_gt, cast_s]), [[1, "abc"], [2, None], [-1, "5"]])
    g.add("cast-shortcircuit-and-throws", two, comp("AND", [a_gt, cast_s]), [[1, "abc"]])
    # Added later (answers of the same revision, appended so earlier ids stay):
    # STRING to DECIMAL reads every script's BMP digits (Character.digit), in the
    # exponent too; a digit outside the BMP is two UTF-16 units and not a digit;
    # an overflow is null (IS_NULL tells it from a value).
    for v in ["-۱.۵", "１e２", "१२.३४५", "1e١", "١٢٣٤٥٦٧٨٩", "\U0001D7CE", "١x", "٫5", "߁߂"]:
        tr = {"name": "CAST", "fieldRef": ref(0, "c", "STRING"), "type": "DECIMAL(10, 2)"}
        g.add("cast-STRING-DECIMAL(10, 2)-digits", [{"name": "c", "type": "STRING"}],
              leaf("IS_NULL", tr, []), [[v]])
    # Strings and binaries to BINARY(n) / VARBINARY(n) / BYTES (Java cannot read
    # binary literals at this revision: only null tests; a null row would make the
    # whole case Java's NullPointerException, see the -nullrow cases).
    for src, tgt, rows in [("STRING", "BINARY(3)", [["ab"], ["中文"], [""]]),
                           ("VARCHAR(5)", "VARBINARY(2)", [["abc"], [""]]),
                           ("BYTES", "BINARY(4)", [["0102"], [""]]),
                           ("BINARY(2)", "VARBINARY(1)", [["0a0b"]])]:
        tr = {"name": "CAST", "fieldRef": ref(0, "c", src), "type": tgt}
        for fn in ["IS_NOT_NULL", "IS_NULL"]:
            g.add(f"cast-{src}-{tgt}", [{"name": "c", "type": src}], leaf(fn, tr, []), rows)
    return g


# ---------------------------------------------------------------- constants

def gen_constants():
    g = Group("constants")
    a = [{"name": "a", "type": "INT"}]
    rows = [[1], [None], [0]]
    T, F = const("TRUE"), const("FALSE")
    af = field(ref(0, "a", "INT"))
    stats = [st(3, [0], [5], [0]), st(3, [None], [None], [3]), st(3, [None], [None], [None]), st(0, [None], [None], [0])]
    g.add("true", a, T, rows, stats)
    g.add("false", a, F, rows, stats)
    g.add("true-only-nulls", a, T, [[None], [None]], stats)
    g.add("and-true-gt", a, comp("AND", [T, leaf("GREATER_THAN", af, [0])]), rows, stats)
    g.add("or-false-gt", a, comp("OR", [F, leaf("GREATER_THAN", af, [0])]), rows, stats)
    g.add("and-false-isnull", a, comp("AND", [F, leaf("IS_NULL", af, [])]), rows, stats)
    g.add("or-true-isnull", a, comp("OR", [T, leaf("IS_NULL", af, [])]), rows, stats)
    g.add("or-true-false", a, comp("OR", [F, T]), rows, stats)
    g.add("and-true-true-false", a, comp("AND", [T, T, F]), rows, stats)
    g.add("and-empty", a, comp("AND", []), rows, stats)
    g.add("or-empty", a, comp("OR", []), rows, stats)
    g.add("and-one", a, comp("AND", [leaf("EQUAL", af, [1])]), rows, stats)
    g.add("true-with-literals", a, leaf("TRUE", {"name": "NULL"}, [1]), rows, stats)
    g.add("true-field-transform", a, leaf("TRUE", af, []), rows, stats)
    g.add("false-field-transform", a, leaf("FALSE", af, []), rows, stats)
    g.add("equal-null-transform", a, leaf("EQUAL", {"name": "NULL"}, [1]), rows)
    g.add("isnull-null-transform", a, leaf("IS_NULL", {"name": "NULL"}, []), rows)
    g.add("true-no-schema", [], T, [[], []], [st(2, [], [], [])])
    g.add("false-no-schema", [], F, [[], []], [st(2, [], [], [])])
    # Negations of negations: NOT (a > 0 AND NOT TRUE) ...
    g.add("and-gt-notbetween", a, comp("AND", [leaf("NOT_BETWEEN", af, [1, 5]), T]), [[0], [3], [9], [None]], stats)
    g.add("or-in-notin", a, comp("OR", [leaf("IN", af, [1, 2]), leaf("NOT_IN", af, [0])]), [[0], [1], [5], [None]], stats)
    return g


# ---------------------------------------------------------------- arrays

def gen_arrays():
    g = Group("arrays")
    rng = random.Random(17004)
    elems = {"INT": [-1, 0, 1, 2, 3, 2147483647], "BIGINT": [0, 1, -9223372036854775808],
             "DOUBLE": ["NaN", "-NaN", "-0.0", 0.0, 1.0, "Infinity", 2.5],
             "FLOAT": ["NaN", "-0.0", 0.0, 1.5, "-Infinity"],
             "STRING": ["", "a", "b", "中", "ab"], "BOOLEAN": [True, False],
             "SMALLINT": [-1, 0, 7]}
    lits = {"INT": [-1, 0, 1, 2, 3, 5, 2147483647], "BIGINT": [0, 1, -9223372036854775808, 7],
            "DOUBLE": [NAN, -0.0, 0.0, 1.0, INF, 2.5, 3.0], "FLOAT": [NAN, -0.0, 0.0, 1.5, -INF],
            "STRING": ["", "a", "b", "中", "abc"], "BOOLEAN": [True, False], "SMALLINT": [-1, 0, 7, 8]}
    for et, ev in elems.items():
        t = {"type": "ARRAY", "element": et}
        schema = [{"name": "xs", "type": t}]
        fr = field(ref(0, "xs", t))
        for k in range(10):
            rows = []
            for _ in range(8):
                r = rng.random()
                if r < 0.12:
                    rows.append([None])
                elif r < 0.2:
                    rows.append([[]])
                else:
                    rows.append([[rng.choice(ev + [None]) if rng.random() < 0.9 else None
                                  for _ in range(rng.randrange(1, 5))]])
            one = rng.choice(lits[et])
            g.add(f"array_contains-{et}", schema, leaf("ARRAY_CONTAINS", fr, [one]), rows)
            for fn in ["ARRAY_CONTAINS_ALL", "ARRAYS_OVERLAP"]:
                ls = [rng.choice(lits[et]) for _ in range(rng.choice([0, 1, 2, 3]))]
                if rng.random() < 0.3:
                    ls.append(None)
                g.add(f"{fn.lower()}-{et}", schema, leaf(fn, fr, ls), rows)
        rows = [[[ev[0], None]], [None], [[]], [[ev[-1]]]]
        for fn in ["ARRAY_CONTAINS", "ARRAY_CONTAINS_ALL", "ARRAYS_OVERLAP"]:
            g.add(f"{fn.lower()}-{et}-nulllit", schema, leaf(fn, fr, [None]), rows)
            g.add(f"{fn.lower()}-{et}-empty", schema, leaf(fn, fr, []), rows)
            g.add(f"{fn.lower()}-{et}-two", schema, leaf(fn, fr, [lits[et][0], lits[et][-1]]), rows)
        g.add(f"array_contains_all-{et}-nullfirst", schema, leaf("ARRAY_CONTAINS_ALL", fr, [None, lits[et][0]]), rows)
        g.add(f"arrays_overlap-{et}-nullfirst", schema, leaf("ARRAYS_OVERLAP", fr, [None, ev[0] if not isinstance(ev[0], str) or et == "STRING" else lits[et][0]]), rows)
    # Null tests and stats of array columns.
    t = {"type": "ARRAY", "element": "INT"}
    schema = [{"name": "xs", "type": t}]
    fr = field(ref(0, "xs", t))
    stats = [st(3, [None], [None], [0]), st(3, [None], [None], [3]), st(3, [None], [None], [None])]
    for fn in ["IS_NULL", "IS_NOT_NULL"]:
        g.add(f"{fn.lower()}-array", schema, leaf(fn, fr, []), [[[1]], [None], [[]]], stats)
    for fn in ["ARRAY_CONTAINS", "ARRAY_CONTAINS_ALL", "ARRAYS_OVERLAP"]:
        g.add(f"{fn.lower()}-stats", schema, leaf(fn, fr, [1]), [[[1]], [None]], stats)
    tn = {"type": "ARRAY", "element": "INT NOT NULL"}
    g.add("array_contains-notnull-elements", [{"name": "xs", "type": tn}],
          leaf("ARRAY_CONTAINS", field(ref(0, "xs", tn)), [2]), [[[1, 2]], [[3]], [[]]])
    return g


# ---------------------------------------------------------------- stats

def gen_stats():
    g = Group("stats")
    rng = random.Random(17005)
    def containers(t, n, allow_nan=False):
        p = [v for v in lit_pool(t) if allow_nan or not (isinstance(v, float) and v != v)]
        p = sorted(set(p), key=lambda v: (isinstance(v, float) and v != v, v)) if t != "BOOLEAN" else [False, True]
        out = []
        for _ in range(n):
            rc = rng.choice([1, 2, 5, 10, 100])
            r = rng.random()
            if r < 0.1:
                out.append(st(rc, [None], [None], [rc]))        # all null
            elif r < 0.17:
                out.append(st(rc, [None], [None], [None]))      # nothing known
            elif r < 0.22:
                mn = rng.choice(p)
                out.append(st(rc, [mn], [None], [rng.choice([0, None])]))  # max unknown
            else:
                i, j = sorted([rng.randrange(len(p)), rng.randrange(len(p))])
                if rng.random() < 0.15:
                    j = i
                nc = rng.choice([0, 0, 1, rc - 1, None]) if rc > 1 else rng.choice([0, None])
                out.append(st(rc, [enc(p[i])], [enc(p[j])], [nc]))
        return out
    def enc(v):
        if isinstance(v, float):
            if v != v:
                return "NaN"
            if v in (INF, -INF):
                return "Infinity" if v > 0 else "-Infinity"
            if v == 0 and str(v).startswith("-"):
                return "-0.0"
        return v
    types = ["INT", "BIGINT", "TINYINT", "DOUBLE", "FLOAT", "STRING", "BOOLEAN"]
    for t in types:
        schema = [{"name": "c", "type": t}]
        fr = field(ref(0, "c", t))
        lp = lit_pool(t)
        fns = COMPARE + ["IN", "NOT_IN", "BETWEEN", "NOT_BETWEEN", "IS_NULL", "IS_NOT_NULL"]
        if t == "STRING":
            fns += STRING_FNS
        if t in ("DOUBLE", "FLOAT"):
            fns += ["IS_NAN"]
        for fn in fns:
            for k in range(4 if t != "BOOLEAN" else 2):
                if fn in ("IS_NULL", "IS_NOT_NULL", "IS_NAN"):
                    ls = []
                elif fn in ("IN", "NOT_IN"):
                    ls = [rng.choice(lp) for _ in range(rng.choice([0, 1, 3, 6]))]
                elif fn in ("BETWEEN", "NOT_BETWEEN"):
                    ls = sorted([rng.choice([v for v in lp if not (isinstance(v, float) and v != v)]) for _ in range(2)]) \
                        if t != "BOOLEAN" else [False, True]
                elif fn == "LIKE":
                    ls = [rng.choice(LIKE_PATTERNS[:12] + ["ab%", "a%", "b%c", "abc"])]
                elif fn in STRING_FNS:
                    ls = [rng.choice(["a", "ab", "b", "", "z", "中", "abd"])]
                else:
                    ls = [rng.choice(lp)]
                g.add(f"{fn.lower()}-{t}", schema, leaf(fn, fr, ls), [], containers(t, 12, t in ("DOUBLE", "FLOAT")))
        # Null literals: with known null counts; and (own cases) with an unknown one.
        for fn in ["EQUAL", "LESS_THAN", "IN", "NOT_IN", "BETWEEN", "NOT_BETWEEN"] + (["STARTS_WITH"] if t == "STRING" else []):
            ls = [None, None] if "BETWEEN" in fn else [None]
            known = [c for c in containers(t, 10) if c["nullCounts"][0] is not None]
            g.add(f"{fn.lower()}-{t}-nulllit", schema, leaf(fn, fr, ls), [], known)
            lo, hi = sorted(v for v in lp if not (isinstance(v, float) and (v != v or v in (INF, -INF))))[:2]
            g.add(f"{fn.lower()}-{t}-nulllit-unknown", schema, leaf(fn, fr, ls), [], [st(5, [enc(lo)], [enc(hi)], [None])])
            g.add(f"{fn.lower()}-{t}-nulllit-unknown-nominmax", schema, leaf(fn, fr, ls), [], [st(5, [None], [None], [None])])
    # Transforms never prune; TRUE / FALSE; And / Or.
    two = [{"name": "a", "type": "INT"}, {"name": "s", "type": "STRING"}]
    A, S = ref(0, "a", "INT"), ref(1, "s", "STRING")
    def two_containers(n):
        out = []
        for _ in range(n):
            ca, cs = containers("INT", 1)[0], containers("STRING", 1)[0]
            rc = max(ca["rowCount"], cs["rowCount"])
            ncA = ca["nullCounts"][0]
            ncS = cs["nullCounts"][0]
            if ca["min"][0] is None and ca["max"][0] is None and ncA == ca["rowCount"]:
                ncA = rc
            if cs["min"][0] is None and cs["max"][0] is None and ncS == cs["rowCount"]:
                ncS = rc
            out.append(st(rc, [ca["min"][0], cs["min"][0]], [ca["max"][0], cs["max"][0]], [ncA, ncS]))
        return out
    trs = [{"name": "CAST", "fieldRef": A, "type": "BIGINT"}, {"name": "UPPER", "inputs": [S]},
           {"name": "CONCAT", "inputs": [S, "-"]}, {"name": "CONCAT_WS", "inputs": ["-", S]},
           {"name": "LOWER", "inputs": [S]}]
    for tr in trs:
        is_num = tr["name"] == "CAST"
        for fn in ["EQUAL", "LESS_THAN", "GREATER_THAN", "IN", "IS_NULL", "IS_NOT_NULL"]:
            lit = [] if fn.startswith("IS_") else ([5] if is_num else ["ab"])
            g.add(f"transform-{tr['name'].lower()}-{fn.lower()}", two, leaf(fn, tr, lit), [], two_containers(10))
    for fn in ["TRUE", "FALSE"]:
        g.add(f"const-{fn.lower()}", two, const(fn), [], two_containers(10))
    for k in range(40):
        kids = []
        for _ in range(rng.choice([2, 3])):
            if rng.random() < 0.5:
                kids.append(leaf(rng.choice(COMPARE), field(A), [rng.choice(INT_POOLS["INT"])]))
            else:
                kids.append(leaf(rng.choice(COMPARE + ["STARTS_WITH"]), field(S), [rng.choice(STRINGS)]))
        if rng.random() < 0.2:
            kids.append(const(rng.choice(["TRUE", "FALSE"])))
        g.add("tree", two, comp(rng.choice(["AND", "OR"]), kids), [], two_containers(10))
    return g


# ---------------------------------------------------------------- json

def gen_json():
    g = Group("json")
    rng = random.Random(17006)
    type_strings = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE",
                    "DOUBLE PRECISION", "STRING", "VARCHAR(5)", "VARCHAR(2147483647)", "CHAR(3)", "CHAR",
                    "VARCHAR", "BYTES", "BINARY(4)", "BINARY", "VARBINARY(10)", "VARBINARY(2147483647)",
                    "DECIMAL", "DECIMAL(10, 2)", "DECIMAL(38, 10)", "DECIMAL(5)", "NUMERIC(10, 2)", "DEC(3, 1)",
                    "DATE", "TIME", "TIME(0)", "TIME(3)", "TIME(6)", "TIME(9)",
                    "TIMESTAMP", "TIMESTAMP(0)", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)",
                    "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(6)", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
                    "TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITHOUT TIME ZONE",
                    "int", "Bigint", "INT NOT NULL", "STRING NOT NULL", "DOUBLE NOT NULL",
                    "DECIMAL(10, 2) NOT NULL", "TIMESTAMP(6) NOT NULL", "BOOLEAN NULL",
                    {"type": "ARRAY", "element": "INT"}, {"type": "ARRAY", "element": "STRING NOT NULL"},
                    {"type": "ARRAY NOT NULL", "element": "DOUBLE"}]
    for t in type_strings:
        schema = [{"name": "f", "type": t}]
        fr = field(ref(0, "f", t))
        g.add("type-isnull", schema, leaf("IS_NULL", fr, []))
        g.add("type-isnotnull", schema, leaf("IS_NOT_NULL", fr, []))
        g.add("type-equal-null", schema, leaf("EQUAL", fr, [None]))
    cast_targets = ["BIGINT", "INTEGER", "DECIMAL", "DECIMAL(20, 4)", "STRING", "VARCHAR(3)", "CHAR(5)",
                    "DOUBLE", "FLOAT", "BOOLEAN", "TINYINT", "SMALLINT", "DATE", "TIMESTAMP(3)",
                    "TIMESTAMP_LTZ(3)", "TIME", "BYTES", "INT NOT NULL", "STRING NOT NULL"]
    i = [{"name": "i", "type": "INT"}, {"name": "s", "type": "STRING"}]
    for tgt in cast_targets:
        for k, src in enumerate(["INT", "STRING"]):
            g.add(f"cast-{src}-{tgt}", i, leaf("IS_NOT_NULL", {"name": "CAST", "fieldRef": ref(k, i[k]["name"], src), "type": tgt}, []))
    # Literals per type, both encodings; doubles of every formatting shape.
    d = [{"name": "d", "type": "DOUBLE"}, {"name": "f", "type": "FLOAT"}, {"name": "b", "type": "BIGINT"}]
    for v in [0.0, -0.0, 1.0, 0.1, 1e7, 1e-3, 1e-4, 9999999.0, 1.0e21, 1e22, 9.999999999999999e22, 1e23,
              4.9e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 123456789.125, -2.5, 0.30000000000000004,
              100.0, 1234567.0, 12345678.0, 5e-324, 1e300]:
        g.add("double-literal", d, leaf("EQUAL", field(ref(0, "d", "DOUBLE")), [v]))
        g.add("float-literal", d, leaf("EQUAL", field(ref(1, "f", "FLOAT")), [v]))
    for v in [NAN, INF, -INF]:
        g.add("double-literal-nonfinite", d, leaf("EQUAL", field(ref(0, "d", "DOUBLE")), [v]))
        g.add("float-literal-nonfinite", d, leaf("IN", field(ref(1, "f", "FLOAT")), [v, 1.0]))
    for v in [0, -1, 9223372036854775807, -9223372036854775808, 5]:
        g.add("bigint-literal", d, leaf("IN", field(ref(2, "b", "BIGINT")), [v, None]))
    # And / Or of 3-5 children, nested, with every leaf kind.
    sch = [{"name": "a", "type": "INT"}, {"name": "s", "type": "VARCHAR(20)"}, {"name": "d", "type": "DOUBLE"},
           {"name": "x", "type": {"type": "ARRAY", "element": "BIGINT"}}, {"name": "n", "type": "BIGINT NOT NULL"}]
    A, S, D = ref(0, "a", "INT"), ref(1, "s", "VARCHAR(20)"), ref(2, "d", "DOUBLE")
    X, N = ref(3, "x", {"type": "ARRAY", "element": "BIGINT"}), ref(4, "n", "BIGINT NOT NULL")
    def any_leaf():
        r = rng.randrange(12)
        if r == 0:
            return leaf(rng.choice(COMPARE), field(A), [rng.choice(INT_POOLS["INT"])])
        if r == 1:
            return leaf(rng.choice(["IN", "NOT_IN"]), field(N), [rng.choice(INT_POOLS["BIGINT"]) for _ in range(rng.randrange(4))])
        if r == 2:
            return leaf(rng.choice(["BETWEEN", "NOT_BETWEEN"]), field(D), [rng.choice([0.5, -1.0, 2.0]), rng.choice([3.0, 1e10])])
        if r == 3:
            return leaf(rng.choice(STRING_FNS), field(S), [rng.choice(["a", "中", "a\\%", "\"q\"", "\u0001"])])
        if r == 4:
            return leaf(rng.choice(["IS_NULL", "IS_NOT_NULL"]), field(rng.choice([A, S, D])), [])
        if r == 5:
            return leaf(rng.choice(["ARRAY_CONTAINS", "ARRAY_CONTAINS_ALL", "ARRAYS_OVERLAP"]), field(X), [rng.choice([1, 2, None])])
        if r == 6:
            return const(rng.choice(["TRUE", "FALSE"]))
        if r == 7:
            return leaf("EQUAL", {"name": "UPPER", "inputs": [S]}, ["AB"])
        if r == 8:
            return leaf("EQUAL", {"name": "CONCAT_WS", "inputs": ["-", S, None, "x"]}, ["a-x"])
        if r == 9:
            return leaf("GREATER_THAN", {"name": "CAST", "fieldRef": A, "type": "BIGINT"}, [10])
        if r == 10:
            return leaf("LIKE", {"name": "LOWER", "inputs": [S]}, ["a_%"])
        return leaf("EQUAL", {"name": "CONCAT", "inputs": [S, "/", S]}, ["a/a"])
    def tree(depth):
        if depth == 0 or rng.random() < 0.25:
            return any_leaf()
        return comp(rng.choice(["AND", "OR"]), [tree(depth - 1) for _ in range(rng.choice([2, 3, 4, 5]))])
    for k in range(60):
        g.add("tree", sch, tree(3))
    for k in range(10):
        g.add("flat", sch, comp(rng.choice(["AND", "OR"]), [any_leaf() for _ in range(rng.choice([3, 4, 5]))]))
    g.add("nested-binary-and", sch, comp("AND", [comp("AND", [any_leaf(), any_leaf()]), any_leaf()]))
    # Wrong index (Java keeps what it read), extra keys, key order, unknown names.
    g.add("wrong-index", sch, leaf("IS_NULL", field(ref(3, "a", "INT")), []))
    g.add("unknown-function", sch, leaf("NOPE", field(A), []))
    g.add("unknown-transform", sch, leaf("IS_NULL", {"name": "NOPE", "inputs": []}, []))
    g.add("missing-literals", sch, {"kind": "LEAF", "transform": field(A), "function": "IS_NULL"})
    g.add("key-order", sch, {"literals": [1], "function": "EQUAL", "transform": {"fieldRef": A, "name": "FIELD_REF"}, "kind": "LEAF"})
    g.add("extra-key", sch, {"kind": "LEAF", "transform": field(A), "function": "EQUAL", "literals": [1], "extra": 1})
    g.add("equal-two-literals", sch, leaf("EQUAL", field(A), [1, 2]))
    g.add("equal-no-literals", sch, leaf("EQUAL", field(A), []))
    g.add("between-one-literal", sch, leaf("BETWEEN", field(A), [1]))
    g.add("string-escapes", sch, leaf("EQUAL", field(S), ["\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028😀é"]))
    return g


GROUPS = [gen_leaves, gen_transforms, gen_constants, gen_arrays, gen_stats, gen_json]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", help="path of the oracle's run.sh; writes <group>.expected.jsonl")
    args = ap.parse_args()
    for gen in GROUPS:
        g = gen()
        path = g.write()
        print(f"{g.name}: {len(g.cases)} cases", file=sys.stderr)
        if args.oracle:
            with open(path, "rb") as fin, open(os.path.join(HERE, f"{g.name}.expected.jsonl"), "wb") as fout:
                subprocess.run([args.oracle], stdin=fin, stdout=fout, check=True)


if __name__ == "__main__":
    main()
