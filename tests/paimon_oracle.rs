//! Apache Paimon's own answers, checked against the crate.
//!
//! `tests/data/paimon/` holds cases (a schema, a Paimon predicate JSON, rows,
//! statistics) and what Paimon's Java code answered for each (revision and
//! how to regenerate: `tests/data/paimon/README.md`). For every case this
//! test parses the predicate with [`Predicate::from_paimon_json`], evaluates
//! it on the rows in every string layout, negates it, writes it back with
//! [`Predicate::to_paimon_json`], and compares each answer with Java's:
//!
//! - Java parsed the predicate: the crate must parse it too, select the same
//!   rows, negate to a predicate that selects the same rows, and write the
//!   same bytes Java wrote (`"json"`, and `"negate"` for the negation).
//! - Java failed (at parse, or on a row): the crate must fail too, at parse
//!   or at evaluation.
//! - Statistics (issue 18): on every entry, `verdict != NoMatch` of
//!   [`Predicate::test_stats`] (and of the negation's) equals Java's
//!   `test(rowCount, min, max, nullCounts)`; where Java threw on an entry,
//!   the crate answers MayMatch there.
//!
//! Where the crate deliberately answers otherwise (the contract,
//! `../shared/SEMANTICS.md`, or issue 17 / 18 states each such rule), the case id, the aspect
//! that differs and the reason are listed in
//! `tests/data/paimon/differences.tsv`; the reasons are the variants of
//! [`Reason`], each documented below. A difference that is not listed fails
//! the test, and so does a listed one that no longer occurs, so the list is
//! exactly the set of differences; a listed reason must also fit its case
//! ([`Reason::fits`]). The number of cases per group is asserted,
//! so the test cannot pass on an empty or truncated data set.
//!
//! `PAIMON_ORACLE_DUMP=<file>` writes every difference found (with reason
//! `?` where none is listed) for review.
#![cfg(feature = "json")]

#[path = "support/paimon_case.rs"]
mod paimon_case;

use arrow_array::{RecordBatch, UInt64Array};
use arrow_schema::{ArrowError, DataType};
use arrow_select::concat::concat_batches;
use bitbytes::arrow::{ColumnStats, Predicate, StatsBatch, StatsVerdict};
use paimon_case::{
    batch, read_cases, stats_column, stats_null_counts, stats_row_counts, Case, StringLayout,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The groups and how many cases each must hold.
const GROUPS: [(&str, usize); 6] = [
    ("leaves", 1111),
    ("transforms", 2065),
    ("constants", 21),
    ("arrays", 293),
    ("stats", 537),
    ("json", 335),
];

/// Every string layout a case is evaluated in.
const LAYOUTS: [StringLayout; 4] = [
    StringLayout::Utf8,
    StringLayout::LargeUtf8,
    StringLayout::Utf8View,
    StringLayout::Dictionary,
];

/// What of a case is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Aspect {
    /// Whether the predicate parses.
    Parse,
    /// The rows it selects, or whether evaluating it fails.
    Rows,
    /// Whether it negates, and the rows its negation selects.
    Negate,
    /// Its JSON, written back.
    Json,
    /// The JSON of its negation.
    NegateJson,
    /// Its statistics test.
    Stats,
}

impl Aspect {
    const ALL: [Aspect; 6] = [
        Aspect::Parse,
        Aspect::Rows,
        Aspect::Negate,
        Aspect::Json,
        Aspect::NegateJson,
        Aspect::Stats,
    ];

    fn name(self) -> &'static str {
        match self {
            Aspect::Parse => "parse",
            Aspect::Rows => "rows",
            Aspect::Negate => "negate",
            Aspect::Json => "json",
            Aspect::NegateJson => "negate-json",
            Aspect::Stats => "stats",
        }
    }
}

/// Why the crate deliberately answers otherwise than Paimon 5dacde5. Each
/// is a rule of the contract (`../shared/SEMANTICS.md`) or of issue 17 / 18;
/// `tests/data/paimon/README.md` quotes the rule. [`Reason::fits`] checks
/// that a listed reason can explain its case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reason {
    /// Java 5dacde5 cannot read DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ,
    /// DECIMAL or BINARY literals, nor the `"NaN"` string it writes for a
    /// NaN (its literal reader only knows JSON scalars of the Java class).
    /// Newer Paimon (PR 9640) and older writers' encodings are read by the
    /// crate ("Paimon predicate JSON", Literals).
    LiteralEncoding,
    /// A function or transform 5dacde5's JSON registry lacks: IS_NAN (which
    /// Java writes but cannot read), NOT_STARTS_WITH, NOT_ENDS_WITH,
    /// NOT_CONTAINS, NOT_LIKE of newer Paimon, SUBSTRING / TRIM (classes
    /// without a registry name); so StartsWith / EndsWith / Contains / Like
    /// negate in the crate, and not in Java ("The other leaf functions").
    NewerFunction,
    /// A literal outside its type's range or not of its type (`300` for
    /// TINYINT, `1.7` or `2147483648` for INT, `1e300` for FLOAT, `5` for
    /// STRING): Java wraps, truncates or converts it silently, the crate
    /// rejects it ("Literals": "A literal outside its type's range is an
    /// error").
    LiteralOutOfRange,
    /// A leaf with a literal count its function does not take (ARRAY_CONTAINS
    /// of two, EQUAL of none, BETWEEN of one, TRUE of one): Java reads what
    /// it needs or fails later, the crate rejects it at parse (issue 17
    /// "Errors": "a wrong literal count or type ... an Err").
    LiteralCount,
    /// CAST of a null value: Java throws `NullPointerException`, the crate
    /// keeps the null ("Transforms").
    CastNull,
    /// An empty AND / OR: Java reads it as TRUE / FALSE; in the crate an
    /// empty And / Or is an error ("Predicates: And / Or trees").
    EmptyCompound,
    /// An invalid LIKE escape is an error whatever the data (the contract:
    /// "an invalid predicate ... is an error whatever the data, even when
    /// no row is left to test"); Java fails only when it tests a non-null
    /// row.
    EagerPattern,
    /// A field reference is resolved by name; the crate writes the schema
    /// position as `index`, Java the index it read ("Paimon predicate
    /// JSON").
    IndexFromSchema,
    /// A leaf read without a `literals` key is written with
    /// `"literals":[]` (IS_NULL takes no literal, "whatever literals array
    /// they are given is ignored"); Java writes back its null list.
    LiteralsNormalised,
    /// A CAST to or from TIMESTAMP_LTZ (but LTZ to INT / BIGINT): Java's
    /// result depends on the JVM's default time zone, which the predicate
    /// does not carry; the crate refuses the pair at parse as "not supported
    /// by bitbytes yet" (src/arrow/transform/cast.rs).
    ZoneDependentCast,
    /// A CAST result that does not fit the Arrow type of its Paimon type
    /// (TIMESTAMP(7..9) is Timestamp(Nanosecond): years 1677..2262): an
    /// evaluation error naming the row and the value ("Transforms": a
    /// value that cannot be cast is an error naming the row), where Java
    /// holds any year.
    TimestampRange,
    /// A comparison (`=`, `<`, IN, BETWEEN ...) over an ARRAY column: the
    /// crate's comparisons read scalar columns only and refuse it at parse;
    /// Java parses `= null` there (which selects nothing).
    NestedComparison,
    /// Sound pruning beyond Java that the contract lists ("Statistics":
    /// "IsNull with a known null count of 0 is NoMatch even without min /
    /// max"; Like by its prefix).
    ExtraPruning,
    /// FALSE is NoMatch on every container whatever its input reads (the
    /// contract's "except FALSE, which prunes every container"); Java, for
    /// FALSE over a FIELD_REF, keeps a container whose min or max is
    /// unknown.
    ConstantVerdict,
}

impl Reason {
    const ALL: [(&'static str, Reason); 14] = [
        ("literal-encoding", Reason::LiteralEncoding),
        ("newer-function", Reason::NewerFunction),
        ("literal-out-of-range", Reason::LiteralOutOfRange),
        ("literal-count", Reason::LiteralCount),
        ("cast-null", Reason::CastNull),
        ("empty-compound", Reason::EmptyCompound),
        ("eager-pattern", Reason::EagerPattern),
        ("index-from-schema", Reason::IndexFromSchema),
        ("literals-normalised", Reason::LiteralsNormalised),
        ("zone-dependent-cast", Reason::ZoneDependentCast),
        ("timestamp-range", Reason::TimestampRange),
        ("nested-comparison", Reason::NestedComparison),
        ("extra-pruning", Reason::ExtraPruning),
        ("constant-verdict", Reason::ConstantVerdict),
    ];

    fn name(self) -> &'static str {
        Reason::ALL
            .iter()
            .find(|(_, r)| *r == self)
            .map(|(name, _)| *name)
            .expect("every reason is named")
    }

    fn parse(text: &str) -> Reason {
        Reason::ALL
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, r)| *r)
            .unwrap_or_else(|| panic!("differences.tsv: unknown reason {text:?}"))
    }

    /// Whether this reason can explain the difference `detail` found on
    /// `aspect` of `case`: the aspect it can cause, and a mark of it in the
    /// case, in Java's answer or in the crate's.
    fn fits(self, case: &Case, aspect: Aspect, detail: &str) -> bool {
        let predicate = &case.case["predicate"];
        let leaves = leaves(predicate);
        let java_error = case.expected["error"].as_str().unwrap_or("");
        let any_leaf = |f: &dyn Fn(&Value) -> bool| leaves.iter().any(|l| f(l));
        let function = |l: &Value| l["function"].as_str().unwrap_or("").to_string();
        match self {
            Reason::LiteralEncoding => {
                aspect == Aspect::Parse
                    && java_error.starts_with("parse")
                    && [
                        "cannot be cast to class",
                        "Unexpected date literal",
                        "Unexpected time literal",
                        "Unsupported class",
                        "Unsupported predicate leaf type",
                    ]
                    .iter()
                    .any(|m| java_error.contains(m))
            }
            Reason::NewerFunction => match aspect {
                Aspect::Parse => {
                    java_error.contains("Could not resolve leaf function")
                        || java_error.contains("Could not resolve type id 'SUBSTRING'")
                        || java_error.contains("Could not resolve type id 'TRIM'")
                }
                Aspect::Negate => {
                    detail.starts_with("Java cannot negate")
                        && [
                            "NOT_STARTS_WITH",
                            "NOT_ENDS_WITH",
                            "NOT_CONTAINS",
                            "NOT_LIKE",
                        ]
                        .iter()
                        .any(|f| detail.contains(f))
                }
                _ => false,
            },
            Reason::LiteralOutOfRange => {
                aspect == Aspect::Parse
                    && detail.ends_with("Java parsed it")
                    && (detail.contains("is out of the range of") || detail.contains(": expected "))
            }
            Reason::LiteralCount => {
                aspect == Aspect::Parse
                    && any_leaf(&|l| {
                        let n = l["literals"].as_array().map_or(0, Vec::len);
                        let arity = match function(l).as_str() {
                            "IS_NULL" | "IS_NOT_NULL" | "IS_NAN" => return false,
                            "TRUE" | "FALSE" => 0,
                            "BETWEEN" | "NOT_BETWEEN" => 2,
                            "IN" | "NOT_IN" | "ARRAY_CONTAINS_ALL" | "ARRAYS_OVERLAP" => {
                                return false
                            }
                            _ => 1,
                        };
                        n != arity
                    })
            }
            Reason::CastNull => {
                aspect == Aspect::Rows
                    && java_error.contains("NullPointerException")
                    && any_leaf(&|l| {
                        l["transform"]["name"] == "CAST"
                            && column_has_null(case, &l["transform"]["fieldRef"]["name"])
                    })
            }
            Reason::EmptyCompound => aspect == Aspect::Parse && has_empty_compound(predicate),
            Reason::EagerPattern => {
                aspect == Aspect::Parse
                    && detail.contains("invalid Like pattern")
                    && any_leaf(&|l| {
                        function(l) == "LIKE"
                            && l["transform"]["name"] == "FIELD_REF"
                            && column_all_null(case, &l["transform"]["fieldRef"]["name"])
                    })
            }
            Reason::IndexFromSchema => {
                matches!(aspect, Aspect::Json | Aspect::NegateJson)
                    && any_leaf(&|l| {
                        let r = &l["transform"]["fieldRef"];
                        schema_position(case, &r["name"]) != r["index"].as_u64()
                    })
            }
            Reason::LiteralsNormalised => {
                matches!(aspect, Aspect::Json | Aspect::NegateJson)
                    && any_leaf(&|l| l["literals"].is_null())
            }
            Reason::ZoneDependentCast => {
                aspect == Aspect::Parse
                    && detail.contains("WITH LOCAL TIME ZONE")
                    && detail.contains("is not supported by bitbytes yet")
                    && any_leaf(&|l| {
                        let t = &l["transform"];
                        let ltz = |v: &Value| {
                            let v = v.as_str().unwrap_or("").to_ascii_uppercase();
                            v.contains("TIMESTAMP_LTZ") || v.contains("LOCAL TIME ZONE")
                        };
                        t["name"] == "CAST" && (ltz(&t["type"]) || ltz(&t["fieldRef"]["type"]))
                    })
            }
            Reason::TimestampRange => {
                matches!(aspect, Aspect::Rows | Aspect::Negate)
                    && detail.contains("out of the range of the result's time unit")
                    && any_leaf(&|l| {
                        l["transform"]["name"] == "CAST"
                            && ["TIMESTAMP(7)", "TIMESTAMP(8)", "TIMESTAMP(9)"]
                                .contains(&l["transform"]["type"].as_str().unwrap_or(""))
                    })
            }
            Reason::NestedComparison => {
                aspect == Aspect::Parse
                    && detail.contains("cannot compare values of type List")
                    && any_leaf(&|l| {
                        l["transform"]["fieldRef"]["type"]["type"]
                            .as_str()
                            .is_some_and(|t| t.to_ascii_uppercase().starts_with("ARRAY"))
                    })
            }
            Reason::ExtraPruning => {
                // IsNull (or the IsNotNull whose negation it is) on an
                // entry with a null count of 0, or a Like with a prefix.
                aspect == Aspect::Stats
                    && detail.contains("Java Ok(1), crate NoMatch")
                    && (detail.contains("\"nullCounts\":[0]")
                        && any_leaf(&|l| {
                            ["IS_NULL", "IS_NOT_NULL"].contains(&function(l).as_str())
                        })
                        || any_leaf(&|l| function(l) == "LIKE"))
            }
            Reason::ConstantVerdict => {
                aspect == Aspect::Stats
                    && detail.contains("Java Ok(1), crate NoMatch")
                    && any_leaf(&|l| ["TRUE", "FALSE"].contains(&function(l).as_str()))
            }
        }
    }
}

/// Every leaf of a predicate JSON.
fn leaves(p: &Value) -> Vec<&Value> {
    match p["kind"].as_str() {
        Some("LEAF") => vec![p],
        _ => p["children"]
            .as_array()
            .map(|c| c.iter().flat_map(leaves).collect())
            .unwrap_or_default(),
    }
}

fn has_empty_compound(p: &Value) -> bool {
    p["children"]
        .as_array()
        .is_some_and(|c| c.is_empty() || c.iter().any(has_empty_compound))
}

/// The schema position of the field named `name`.
fn schema_position(case: &Case, name: &Value) -> Option<u64> {
    case.case["schema"]
        .as_array()?
        .iter()
        .position(|f| &f["name"] == name)
        .map(|i| i as u64)
}

/// The values of the column named `name` in the case's rows.
fn column_values<'c>(case: &'c Case, name: &Value) -> Vec<&'c Value> {
    let Some(i) = schema_position(case, name) else {
        return Vec::new();
    };
    case.case["rows"]
        .as_array()
        .map(|rows| rows.iter().map(|r| &r[i as usize]).collect())
        .unwrap_or_default()
}

fn column_has_null(case: &Case, name: &Value) -> bool {
    column_values(case, name).iter().any(|v| v.is_null())
}

fn column_all_null(case: &Case, name: &Value) -> bool {
    column_values(case, name).iter().all(|v| v.is_null())
}

/// A difference found on a case: the aspect and what each side answered.
type Found = BTreeMap<(String, Aspect), String>;

fn java_bools(v: &Value) -> Option<Vec<Result<u8, String>>> {
    v.as_array().map(|a| {
        a.iter()
            .map(|b| match b {
                Value::Bool(b) => Ok(*b as u8),
                other => Err(other.as_str().unwrap_or("?").to_string()),
            })
            .collect()
    })
}

fn show<T: std::fmt::Debug>(r: &Result<T, ArrowError>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("Err({e})"),
    }
}

/// The case's batch in every layout (each also sliced at a non-zero
/// offset), and the predicate parsed against each batch's schema (`Err` with the reason when the crate cannot represent
/// the schema or rejects the predicate).
fn parse_all(case: &Case) -> Vec<(RecordBatch, Result<Predicate, String>)> {
    let text = case.predicate_text();
    let mut out = Vec::new();
    for layout in LAYOUTS {
        match batch(&case.case, layout) {
            Ok(b) => {
                let p = Predicate::from_paimon_json(&text, &b.schema()).map_err(|e| e.to_string());
                // The same rows again at a non-zero offset: the batch twice,
                // sliced to its second half.
                let twice = concat_batches(&b.schema(), [&b, &b]).expect("concat");
                let sliced = twice.slice(b.num_rows(), b.num_rows());
                out.push((b, p.clone()));
                out.push((sliced, p));
            }
            Err(why) => {
                // The schema has a type the crate does not read: nothing to
                // evaluate, and the predicate is rejected.
                let empty =
                    RecordBatch::new_empty(std::sync::Arc::new(arrow_schema::Schema::empty()));
                out.push((empty, Err(why)));
                break;
            }
        }
    }
    out
}

/// Compares one case; returns the aspects that differ.
fn check_case(case: &Case, found: &mut Found) {
    let mut differ = |aspect: Aspect, detail: String| {
        found.insert((case.id.clone(), aspect), detail);
    };
    let expected = &case.expected;
    let java_error = expected.get("error").and_then(Value::as_str);
    let java_where = expected.get("where").and_then(Value::as_str).unwrap_or("");
    let parsed = parse_all(case);
    let oks = parsed.iter().filter(|(_, p)| p.is_ok()).count();
    if oks != 0 && oks != parsed.len() {
        let errs: Vec<String> = parsed
            .iter()
            .filter_map(|(b, p)| p.as_ref().err().map(|e| format!("{:?}: {e}", b.schema())))
            .collect();
        differ(
            Aspect::Parse,
            format!("parses in some layouts only: {errs:?}"),
        );
        return;
    }
    if java_where == "parse" || java_where == "input" {
        if oks != 0 {
            differ(
                Aspect::Parse,
                format!("Java: {}; crate parsed it", java_error.unwrap_or("?")),
            );
        }
        return;
    }
    if oks == 0 {
        let e = parsed[0].1.as_ref().err().cloned().unwrap_or_default();
        match java_where {
            // Java failed later (a row, a statistic): failing at parse is
            // failing too.
            "rows" | "stats" => {}
            _ => differ(Aspect::Parse, format!("crate: {e}; Java parsed it")),
        }
        return;
    }

    // Rows, in every layout.
    let java_rows = java_bools(&expected["rows"]);
    for (b, p) in &parsed {
        let p = p.as_ref().expect("parsed");
        let got = p.test(b);
        match (java_where, &java_rows, &got) {
            ("rows", _, Ok(bytes)) => {
                differ(
                    Aspect::Rows,
                    format!(
                        "Java: {}; crate answered {bytes:?}",
                        java_error.unwrap_or("?")
                    ),
                );
                break;
            }
            ("rows", _, Err(_)) => {}
            ("stats", _, _) => {
                assert!(
                    case.case["rows"].as_array().is_none_or(Vec::is_empty),
                    "{}: a case that fails in statistics must have no rows",
                    case.id
                );
            }
            (_, Some(want), Ok(bytes)) => {
                let want: Vec<u8> = want.iter().map(|b| *b.as_ref().expect("bool")).collect();
                if &want != bytes {
                    differ(
                        Aspect::Rows,
                        format!(
                            "{:?}: Java {want:?}, crate {bytes:?}",
                            b.schema().field(0).data_type()
                        ),
                    );
                    break;
                }
            }
            (_, _, Err(e)) => {
                differ(
                    Aspect::Rows,
                    format!("Java answered {:?}; crate: {e}", expected["rows"]),
                );
                break;
            }
            (_, None, Ok(_)) => panic!("{}: answer without rows", case.id),
        }
    }
    if java_where == "stats" {
        // Java threw on a statistics entry: the crate answers MayMatch there.
        stats_all_layouts(case, &parsed, &mut differ);
        return;
    }
    if java_where == "rows" {
        // Java gave no negation, JSON or statistics.
        return;
    }

    // Negation, in every layout, and its JSON.
    let java_negate = &expected["negate"];
    for (i, (b, p)) in parsed.iter().enumerate() {
        let p = p.as_ref().expect("parsed");
        match (p.negate(), java_negate.is_null()) {
            (None, true) => {}
            (Some(n), true) => {
                differ(
                    Aspect::Negate,
                    format!(
                        "Java cannot negate; crate negates to {}",
                        show(&n.to_paimon_json(&b.schema()))
                    ),
                );
                break;
            }
            (None, false) => {
                differ(
                    Aspect::Negate,
                    format!("Java negates to {java_negate}; crate cannot"),
                );
                break;
            }
            (Some(n), false) => {
                let want = java_bools(&expected["negateRows"]).expect("negateRows");
                let got = n.test(b);
                let java_throws = want.iter().any(Result::is_err);
                let same = match &got {
                    Ok(bytes) => {
                        !java_throws
                            && want
                                .iter()
                                .map(|r| *r.as_ref().expect("bool"))
                                .eq(bytes.iter().copied())
                    }
                    Err(_) => java_throws,
                };
                if !same {
                    differ(
                        Aspect::Negate,
                        format!("Java {:?}; crate {}", expected["negateRows"], show(&got)),
                    );
                    break;
                }
                if i == 0 {
                    let want = case.expected_raw("negate").expect("negate");
                    let got = n.to_paimon_json(&b.schema());
                    if got.as_ref().ok() != Some(&want) {
                        differ(
                            Aspect::NegateJson,
                            format!("Java {want}\ncrate {}", show(&got)),
                        );
                    }
                }
            }
        }
    }

    // The JSON written back.
    let (b, p) = &parsed[0];
    let want = case.expected_raw("json").expect("json");
    let got = p.as_ref().expect("parsed").to_paimon_json(&b.schema());
    if got.as_ref().ok() != Some(&want) {
        differ(Aspect::Json, format!("Java  {want}\ncrate {}", show(&got)));
    }

    stats_all_layouts(case, &parsed, &mut differ);
}

/// [`check_stats`] in every layout, up to the first difference.
fn stats_all_layouts(
    case: &Case,
    parsed: &[(RecordBatch, Result<Predicate, String>)],
    differ: &mut impl FnMut(Aspect, String),
) {
    let mut first = None;
    for (b, p) in parsed {
        let p = p.as_ref().expect("parsed");
        check_stats(case, b, p, &mut |aspect, detail| {
            first.get_or_insert((aspect, detail));
        });
        if first.is_some() {
            break;
        }
    }
    if let Some((aspect, detail)) = first {
        differ(aspect, detail);
    }
}

/// Compares the crate's statistics verdicts of `p` (and of its negation)
/// with Java's `test(rowCount, min, max, nullCounts)`: wherever Java
/// answers, `verdict != NoMatch` must equal it; where Java throws on an
/// entry, the crate answers MayMatch there.
fn check_stats(
    case: &Case,
    b: &RecordBatch,
    p: &Predicate,
    differ: &mut impl FnMut(Aspect, String),
) {
    let Some(entries) = case.case["stats"].as_array() else {
        return;
    };
    let stats = match stats_batch(case, b) {
        Ok(s) => s,
        Err(e) => {
            return differ(
                Aspect::Stats,
                format!("crate cannot build the statistics: {e}"),
            )
        }
    };
    let expected = &case.expected;
    let java_where = expected.get("where").and_then(Value::as_str).unwrap_or("");
    let got = p.test_stats(&stats);
    if java_where == "stats" {
        // Java threw on entry `index` (a null literal with an unknown null count).
        let i = expected["index"].as_u64().expect("index") as usize;
        match &got {
            Ok(v) if v[i] == StatsVerdict::MayMatch => {}
            other => differ(
                Aspect::Stats,
                format!(
                    "Java throws on entry {i}: {}; crate {}",
                    expected["error"],
                    show(other)
                ),
            ),
        }
        return;
    }
    let mut compare = |what: &str, java: &Value, got: Result<Vec<StatsVerdict>, ArrowError>| {
        let java = java_bools(java).expect("stats answers");
        assert_eq!(java.len(), entries.len(), "{}: {what} answers", case.id);
        let got = match got {
            Ok(v) => v,
            Err(e) => return differ(Aspect::Stats, format!("{what}: Java {java:?}; crate: {e}")),
        };
        for (i, (j, v)) in java.iter().zip(&got).enumerate() {
            let ok = match j {
                Ok(keep) => (*v != StatsVerdict::NoMatch) == (*keep == 1),
                Err(_) => *v == StatsVerdict::MayMatch,
            };
            if !ok {
                return differ(
                    Aspect::Stats,
                    format!("{what} entry {i} {}: Java {j:?}, crate {v:?}", entries[i]),
                );
            }
        }
    };
    compare("stats", &expected["stats"], got);
    if let Some(n) = p.negate() {
        if !expected["negateStats"].is_null() {
            compare(
                "negateStats",
                &expected["negateStats"],
                n.test_stats(&stats),
            );
        }
    }
}

/// The case's statistics entries as a `StatsBatch` over the fields of `b`.
fn stats_batch(case: &Case, b: &RecordBatch) -> Result<StatsBatch, ArrowError> {
    let mut stats = StatsBatch::new(UInt64Array::from(stats_row_counts(&case.case)));
    for (i, field) in b.schema().fields().iter().enumerate() {
        let layout = layout_of(field.data_type());
        let min = stats_column(&case.case, i, "min", layout).expect("type");
        let max = stats_column(&case.case, i, "max", layout).expect("type");
        let counts = UInt64Array::from(stats_null_counts(&case.case, i));
        stats = stats.with_column(
            field.name(),
            ColumnStats::new(min, max).with_null_counts(counts),
        )?;
    }
    Ok(stats)
}

/// The string layout that gave a field its Arrow type.
fn layout_of(t: &DataType) -> StringLayout {
    match t {
        DataType::LargeUtf8 => StringLayout::LargeUtf8,
        DataType::Utf8View => StringLayout::Utf8View,
        DataType::Dictionary(..) => StringLayout::Dictionary,
        DataType::List(f) => layout_of(f.data_type()),
        _ => StringLayout::Utf8,
    }
}

/// The listed differences: `id<TAB>aspect<TAB>reason` lines, `#` comments.
fn listed() -> BTreeMap<(String, Aspect), Reason> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/paimon/differences.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut cols = line.split('\t');
        let (id, aspect, reason) = (
            cols.next().expect("id"),
            cols.next().expect("aspect"),
            cols.next().expect("reason"),
        );
        let aspect = Aspect::ALL
            .into_iter()
            .find(|a| a.name() == aspect)
            .unwrap_or_else(|| panic!("differences.tsv: unknown aspect {aspect:?}"));
        let old = out.insert((id.to_string(), aspect), Reason::parse(reason));
        assert!(
            old.is_none(),
            "differences.tsv: {id} {aspect:?} listed twice"
        );
    }
    out
}

#[test]
fn paimon_java_agrees() {
    let mut found = Found::new();
    let mut summary = String::new();
    let mut all = BTreeMap::new();
    for (group, count) in GROUPS {
        let cases = read_cases(group);
        assert_eq!(cases.len(), count, "{group}: number of cases");
        let before = found.len();
        for case in &cases {
            assert!(case.id.starts_with(&format!("{group}/")), "{}", case.id);
            check_case(case, &mut found);
        }
        all.extend(cases.into_iter().map(|c| (c.id.clone(), c)));
        writeln!(
            summary,
            "{group}: {count} cases, {} differences",
            found.len() - before
        )
        .unwrap();
    }
    let listed = listed();
    if let Ok(path) = std::env::var("PAIMON_ORACLE_DUMP") {
        let mut text = String::new();
        for ((id, aspect), detail) in &found {
            let reason = listed
                .get(&(id.clone(), *aspect))
                .map(|r| r.name().to_string())
                .unwrap_or_else(|| "?".into());
            let detail = detail.replace('\n', " | ");
            writeln!(text, "{id}\t{}\t{reason}\t{detail}", aspect.name()).unwrap();
        }
        std::fs::write(path, text).expect("dump");
    }
    let unlisted: Vec<String> = found
        .iter()
        .filter(|(k, _)| !listed.contains_key(k))
        .map(|((id, aspect), detail)| format!("{id} [{}]: {detail}", aspect.name()))
        .collect();
    let stale: Vec<String> = listed
        .iter()
        .filter(|(k, _)| !found.contains_key(k))
        .map(|((id, aspect), reason)| format!("{id} [{}] {reason:?}", aspect.name()))
        .collect();
    let misfits: Vec<String> = found
        .iter()
        .filter_map(|(key, detail)| {
            let reason = listed.get(key)?;
            let case = &all[&key.0];
            (!reason.fits(case, key.1, detail))
                .then(|| format!("{} [{}] {}: {detail}", key.0, key.1.name(), reason.name()))
        })
        .collect();
    let mut per_reason = BTreeMap::new();
    for reason in listed.values() {
        *per_reason.entry(reason.name()).or_insert(0) += 1;
    }
    writeln!(summary, "listed differences per reason: {per_reason:?}").unwrap();
    println!("{summary}");
    assert!(
        misfits.is_empty(),
        "differences.tsv gives reasons that do not fit their case:\n{}",
        misfits.join("\n")
    );
    assert!(
        unlisted.is_empty(),
        "{} differences from Paimon Java that differences.tsv does not list (first 40):\n{}",
        unlisted.len(),
        unlisted[..unlisted.len().min(40)].join("\n")
    );
    assert!(
        stale.is_empty(),
        "differences.tsv lists differences that no longer occur:\n{}",
        stale.join("\n")
    );
}
