//! Table tests of the Java facts of Paimon's `CastExecutors` (revision 5dacde5).

use super::*;
use arrow_array::{Date32Array, Decimal128Array, Float64Array, Int32Array, StringArray};
use std::string::String;
use std::vec;
use std::vec::Vec;

fn ty(s: &str) -> PaimonType {
    s.parse().unwrap()
}

fn cast(values: &dyn Array, from: &str, to: &str) -> Result<ArrayRef, ArrowError> {
    cast_column(values, &ty(from), &ty(to))
}

fn strings(a: &ArrayRef) -> Vec<Option<String>> {
    a.as_string::<i32>()
        .iter()
        .map(|s| s.map(String::from))
        .collect()
}

#[test]
fn string_to_int_as_java() {
    let input = StringArray::from(vec![
        Some("1.5"),
        Some("."),
        Some("+5"),
        Some("007"),
        None,
        Some("-2147483648"),
    ]);
    let out = cast(&input, "STRING", "INT").unwrap();
    let got: Vec<Option<i32>> = out.as_primitive::<Int32Type>().iter().collect();
    assert_eq!(
        got,
        [Some(1), Some(0), Some(5), Some(7), None, Some(i32::MIN)]
    );
    for bad in [" 5", "1e3", "2147483648", "", "-", "abc", "5.a"] {
        let input = StringArray::from(vec![Some("1"), Some(bad)]);
        let err = cast(&input, "STRING", "INT").unwrap_err().to_string();
        assert!(
            err.contains("row 1") && err.contains(&format!("'{bad}'")),
            "{err}"
        );
    }
    assert!(cast(&StringArray::from(vec!["128"]), "STRING", "TINYINT").is_err());
    assert!(cast(&StringArray::from(vec!["-128"]), "STRING", "TINYINT").is_ok());
}

#[test]
fn string_to_double_and_boolean() {
    let input = StringArray::from(vec![
        " 1.5 ",
        "1e400",
        "NaN",
        "-Infinity",
        "1d",
        ".5",
        "5.",
        "-0",
    ]);
    let out = cast(&input, "STRING", "DOUBLE").unwrap();
    let v = out.as_primitive::<Float64Type>();
    assert_eq!(v.value(0), 1.5);
    assert_eq!(v.value(1), f64::INFINITY);
    assert!(v.value(2).is_nan());
    assert_eq!(v.value(3), f64::NEG_INFINITY);
    assert_eq!((v.value(4), v.value(5), v.value(6)), (1.0, 0.5, 5.0));
    assert!(v.value(7) == 0.0 && v.value(7).is_sign_negative());
    for bad in ["inf", "", ".", "1e", "abc", "1.0.0"] {
        assert!(
            cast(&StringArray::from(vec![bad]), "STRING", "DOUBLE").is_err(),
            "{bad}"
        );
    }
    let input = StringArray::from(vec![
        Some("T"),
        Some("yes"),
        Some("1"),
        Some("No"),
        Some("f"),
        None,
    ]);
    let out = cast(&input, "STRING", "BOOLEAN").unwrap();
    let got: Vec<Option<bool>> = out.as_boolean().iter().collect();
    assert_eq!(
        got,
        [
            Some(true),
            Some(true),
            Some(true),
            Some(false),
            Some(false),
            None
        ]
    );
    assert!(cast(&StringArray::from(vec!["2"]), "STRING", "BOOLEAN").is_err());
}

#[test]
fn numeric_primitive_as_java() {
    let d = Float64Array::from(vec![1e10, f64::NAN, -1e10, 300.7, -0.9, f64::INFINITY]);
    let ints = cast(&d, "DOUBLE", "INT").unwrap();
    let got: Vec<i32> = ints.as_primitive::<Int32Type>().values().to_vec();
    assert_eq!(got, [i32::MAX, 0, i32::MIN, 300, 0, i32::MAX]);
    let bytes = cast(&d, "DOUBLE", "TINYINT").unwrap();
    let got: Vec<i8> = bytes.as_primitive::<Int8Type>().values().to_vec();
    assert_eq!(got, [-1, 0, 0, 44, 0, -1]);
    let i = Int32Array::from(vec![Some(70000), None, Some(-1)]);
    let s = cast(&i, "INT", "SMALLINT").unwrap();
    let got: Vec<Option<i16>> = s.as_primitive::<Int16Type>().iter().collect();
    assert_eq!(got, [Some(4464), None, Some(-1)]);
    let b = cast(&i, "INT", "BOOLEAN").unwrap();
    assert_eq!(
        b.as_boolean().iter().collect::<Vec<_>>(),
        [Some(true), None, Some(true)]
    );
}

#[test]
fn java_double_and_float_to_string() {
    let cases: [(f64, &str); 14] = [
        (1e10, "1.0E10"),
        (1e-5, "1.0E-5"),
        (0.001, "0.001"),
        (1e-4, "1.0E-4"),
        (1234567.0, "1234567.0"),
        (1e7, "1.0E7"),
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (f64::NAN, "NaN"),
        (f64::NEG_INFINITY, "-Infinity"),
        (4.9e-324, "4.9E-324"),
        (f64::MAX, "1.7976931348623157E308"),
        (1.0 / 3.0, "0.3333333333333333"),
        (0.1, "0.1"),
    ];
    let input = Float64Array::from(cases.iter().map(|c| c.0).collect::<Vec<_>>());
    let out = cast(&input, "DOUBLE", "STRING").unwrap();
    for (got, (_, want)) in strings(&out).iter().zip(cases) {
        assert_eq!(got.as_deref(), Some(want));
    }
    let f = arrow_array::Float32Array::from(vec![1.4e-45f32, f32::MAX, 0.1, 16777216.0]);
    let out = cast(&f, "FLOAT", "STRING").unwrap();
    let want = ["1.4E-45", "3.4028235E38", "0.1", "1.6777216E7"];
    assert_eq!(strings(&out), want.map(|s| Some(s.to_string())));
}

#[test]
fn java_double_to_string_round_trips() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let d = f64::from_bits(state);
        let out = java_double(d);
        let back: f64 = out.replace("Infinity", "inf").parse().unwrap();
        assert!(back == d || (d.is_nan() && back.is_nan()), "{d:e} -> {out}");
    }
}

#[test]
fn strings_fit_the_target_length() {
    let input = StringArray::from(vec![Some("héllo"), Some("ab"), None, Some("日本語")]);
    let v = cast(&input, "STRING", "VARCHAR(3)").unwrap();
    assert_eq!(
        strings(&v),
        [
            Some("hél".into()),
            Some("ab".into()),
            None,
            Some("日本語".into())
        ]
    );
    let c = cast(&input, "STRING", "CHAR(4)").unwrap();
    assert_eq!(
        strings(&c),
        [
            Some("héll".into()),
            Some("ab  ".into()),
            None,
            Some("日本語 ".into())
        ]
    );
    let b = cast(
        &arrow_array::BooleanArray::from(vec![true]),
        "BOOLEAN",
        "CHAR(2)",
    )
    .unwrap();
    assert_eq!(strings(&b), [Some("tr".into())]);
}

#[test]
fn pairs_without_a_rule_and_unsupported_pairs() {
    for (from, to) in [
        ("DOUBLE", "BOOLEAN"),
        ("INT", "DATE"),
        ("DATE", "VARCHAR(10)"),
        ("DATE", "STRING NOT NULL"),
        ("TINYINT", "TIMESTAMP(3)"),
        ("DECIMAL(5, 2)", "BOOLEAN"),
        ("BOOLEAN", "BOOLEAN"),
        ("DATE", "DATE"),
    ] {
        let err = check_cast(&ty(from), &ty(to)).unwrap_err().to_string();
        assert!(
            err.contains("has no cast rule in Paimon") && err.contains(from),
            "{err}"
        );
    }
    for (from, to) in [
        ("BYTES", "STRING"),
        ("TIMESTAMP_LTZ(3)", "STRING"),
        ("STRING", "TIMESTAMP_LTZ(6)"),
    ] {
        let err = check_cast(&ty(from), &ty(to)).unwrap_err().to_string();
        assert!(err.contains("not supported by bitbytes yet"), "{err}");
    }
    assert_eq!(
        check_cast(&ty("DATE"), &ty("STRING")).unwrap(),
        DataType::Utf8
    );
    assert_eq!(
        check_cast(&ty("TIMESTAMP_LTZ(3)"), &ty("BIGINT")).unwrap(),
        DataType::Int64
    );
    assert_eq!(
        check_cast(&ty("STRING"), &ty("TIMESTAMP(6)")).unwrap(),
        DataType::Timestamp(TimeUnit::Microsecond, None)
    );
}

fn decimals(a: &ArrayRef) -> Vec<Option<i128>> {
    a.as_primitive::<Decimal128Type>().iter().collect()
}

#[test]
fn decimals_round_half_up_and_overflow_to_null() {
    let d = Decimal128Array::from(vec![Some(125), Some(-125), Some(124), Some(99999), None])
        .with_precision_and_scale(5, 2)
        .unwrap();
    let out = cast(&d, "DECIMAL(5, 2)", "DECIMAL(4, 1)").unwrap();
    assert_eq!(decimals(&out), [Some(13), Some(-13), Some(12), None, None]);
    let ints = cast(&d, "DECIMAL(5, 2)", "INT").unwrap();
    let got: Vec<Option<i32>> = ints.as_primitive::<Int32Type>().iter().collect();
    assert_eq!(got, [Some(1), Some(-1), Some(1), Some(999), None]);
    let s = cast(&d, "DECIMAL(5, 2)", "STRING").unwrap();
    assert_eq!(strings(&s)[1].as_deref(), Some("-1.25"));
    let small = Decimal128Array::from(vec![1, -50])
        .with_precision_and_scale(3, 2)
        .unwrap();
    assert_eq!(
        strings(&cast(&small, "DECIMAL(3, 2)", "STRING").unwrap()),
        [Some("0.01".into()), Some("-0.50".into())]
    );
    let i = Int32Array::from(vec![99, 100, -99]);
    assert_eq!(
        decimals(&cast(&i, "INT", "DECIMAL(3, 1)").unwrap()),
        [Some(990), None, Some(-990)]
    );
    // Through Double.toString: 2.675 is "2.675", so HALF_UP gives 2.68.
    let f = Float64Array::from(vec![0.125, 2.675, 1e-300, 1e300, -0.5]);
    assert_eq!(
        decimals(&cast(&f, "DOUBLE", "DECIMAL(10, 2)").unwrap()),
        [Some(13), Some(268), Some(0), None, Some(-50)]
    );
    let err = cast(
        &Float64Array::from(vec![1.0, f64::NAN]),
        "DOUBLE",
        "DECIMAL(10, 2)",
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("row 1") && err.to_string().contains("NaN"),
        "{err}"
    );
    let f32s = arrow_array::Float32Array::from(vec![0.1f32]);
    assert_eq!(
        decimals(&cast(&f32s, "FLOAT", "DECIMAL(20, 18)").unwrap()),
        [Some(100_000_001_490_116_120)]
    );
    let s = StringArray::from(vec!["1.005", "1e2", "1e1000", "-0.5", "+.5"]);
    assert_eq!(
        decimals(&cast(&s, "STRING", "DECIMAL(5, 2)").unwrap()),
        [Some(101), Some(10000), None, Some(-50), Some(50)]
    );
    assert!(cast(&StringArray::from(vec![" 1"]), "STRING", "DECIMAL(5, 2)").is_err());
    // `new BigDecimal` reads every script's decimal digits (Character.digit),
    // in the exponent too (Paimon oracle case transforms/1354: '١٢' is 12);
    // a digit outside the BMP is not one (two UTF-16 units to Java).
    let s = StringArray::from(vec!["١٢", "-۱.۵", "１e２", "१२.३४५"]);
    assert_eq!(
        decimals(&cast(&s, "STRING", "DECIMAL(10, 2)").unwrap()),
        [Some(1200), Some(-150), Some(10000), Some(1235)]
    );
    for bad in ["\u{1D7CE}", "٫5", "1e", "e5", "١x"] {
        assert!(
            cast(&StringArray::from(vec![bad]), "STRING", "DECIMAL(5, 2)").is_err(),
            "{bad}"
        );
    }
    let b = arrow_array::BooleanArray::from(vec![true, false]);
    assert_eq!(
        decimals(&cast(&b, "BOOLEAN", "DECIMAL(1, 1)").unwrap()),
        [None, Some(0)]
    );
}

#[test]
fn strings_and_bytes_to_binary() {
    // BinaryStringUtils.toBinaryString: BINARY(n) cut or zero-padded to n
    // bytes, VARBINARY(n) cut (Paimon oracle cases transforms/1618..1659).
    let bins = |a: &ArrayRef| -> Vec<Option<Vec<u8>>> {
        a.as_binary::<i32>()
            .iter()
            .map(|b| b.map(<[u8]>::to_vec))
            .collect()
    };
    let s = StringArray::from(vec![Some("ab"), None, Some("中"), Some("")]);
    let utf8 = "中".as_bytes().to_vec();
    assert_eq!(
        bins(&cast(&s, "STRING", "BYTES").unwrap()),
        [Some(b"ab".to_vec()), None, Some(utf8.clone()), Some(vec![])]
    );
    assert_eq!(
        bins(&cast(&s, "VARCHAR(5)", "BINARY(3)").unwrap()),
        [
            Some(b"ab\0".to_vec()),
            None,
            Some(utf8.clone()),
            Some(vec![0; 3])
        ]
    );
    assert_eq!(
        bins(&cast(&s, "CHAR(3)", "VARBINARY(2)").unwrap()),
        [
            Some(b"ab".to_vec()),
            None,
            Some(utf8[..2].to_vec()),
            Some(vec![])
        ]
    );
    let fixed = arrow_array::FixedSizeBinaryArray::try_from_sparse_iter_with_size(
        vec![Some(b"xyz"), None, Some(b"abc")].into_iter(),
        3,
    )
    .unwrap()
    .slice(1, 2);
    assert_eq!(
        bins(&cast(&fixed, "BINARY(3)", "BINARY(4)").unwrap()),
        [None, Some(b"abc\0".to_vec())]
    );
    assert_eq!(
        bins(&cast(&fixed, "BINARY(3)", "VARBINARY(1)").unwrap()),
        [None, Some(b"a".to_vec())]
    );
    assert_eq!(
        check_cast(&ty("BYTES"), &ty("BINARY(2)")).unwrap(),
        DataType::Binary
    );
}

#[test]
fn dates_times_timestamps() {
    let s = StringArray::from(vec![
        "2020-1-5",
        "2020",
        "2017-12-12 09:30:00",
        "18000",
        "0000-01-01",
    ]);
    let d = cast(&s, "STRING", "DATE").unwrap();
    let got: Vec<i32> = d.as_primitive::<Date32Type>().values().to_vec();
    // "2020" is all digits: Java reads it as a day count (isNumeric before parseDate).
    assert_eq!(got, [18266, 2020, 17512, 18000, -719528]);
    assert!(cast(&StringArray::from(vec!["2020-02-30"]), "STRING", "DATE").is_err());
    let back = cast(&Date32Array::from(vec![0, 18266, -1]), "DATE", "STRING").unwrap();
    assert_eq!(
        strings(&back),
        ["1970-01-01", "2020-01-05", "1969-12-31"].map(|s| Some(s.into()))
    );

    let t = cast(
        &StringArray::from(vec!["12:30:15.5", "12:30", "1:2:3", "12:30:15.1239"]),
        "STRING",
        "TIME(3)",
    )
    .unwrap();
    let got: Vec<i32> = t.as_primitive::<Time32MillisecondType>().values().to_vec();
    assert_eq!(got, [45_015_500, 45_000_000, 3_723_000, 45_015_124]);
    let ts = cast(&t, "TIME(3)", "STRING").unwrap();
    assert_eq!(strings(&ts)[0].as_deref(), Some("12:30:15.5"));

    let s = StringArray::from(vec![
        "2020-01-05 12:30:15.123456",
        "2020-01-05T12:30",
        "2021-02-30 00:00:00",
        "2020-01-01 24:00:00",
        "1000",
        "-1",
    ]);
    let ts = cast(&s, "STRING", "TIMESTAMP(3)").unwrap();
    let got: Vec<i64> = ts
        .as_primitive::<TimestampMillisecondType>()
        .values()
        .to_vec();
    let day = MILLIS_PER_DAY;
    assert_eq!(
        got,
        [
            18266 * day + 45_015_123,
            18266 * day + 45_000_000,
            18686 * day,
            18263 * day,
            1000,
            -1
        ]
    );
    assert!(cast(&StringArray::from(vec!["5"]), "STRING", "TIMESTAMP(5)").is_err());
    assert!(cast(
        &StringArray::from(vec!["2020-01-05 "]),
        "STRING",
        "TIMESTAMP(3)"
    )
    .is_err());

    let micros = arrow_array::TimestampMicrosecondArray::from(vec![0, -1_500_000, 1_500_000, 1]);
    let text = cast(&micros, "TIMESTAMP(6)", "STRING").unwrap();
    assert_eq!(
        strings(&text)[0].as_deref(),
        Some("1970-01-01 00:00:00.000000")
    );
    assert_eq!(
        strings(&text)[1].as_deref(),
        Some("1969-12-31 23:59:58.500000")
    );
    let to0 = cast(&micros, "TIMESTAMP(6)", "TIMESTAMP(0)").unwrap();
    let got: Vec<i64> = to0
        .as_primitive::<TimestampMillisecondType>()
        .values()
        .to_vec();
    assert_eq!(
        got,
        [0, -1000, 1000, 0],
        "toward zero on the milliseconds, as Java's truncate"
    );
    let dates = cast(&micros, "TIMESTAMP(6)", "DATE").unwrap();
    assert_eq!(
        dates.as_primitive::<Date32Type>().values().to_vec(),
        [0, -1, 0, 0]
    );
    let times = cast(&micros, "TIMESTAMP(6)", "TIME(0)").unwrap();
    assert_eq!(
        times.as_primitive::<Time32MillisecondType>().values()[1],
        86_398_500
    );
    let secs = cast(&micros, "TIMESTAMP(6)", "BIGINT").unwrap();
    assert_eq!(
        secs.as_primitive::<Int64Type>().values().to_vec(),
        [0, -1, 1, 0]
    );
    let from_date = cast(&Date32Array::from(vec![1]), "DATE", "TIMESTAMP(9)").unwrap();
    assert_eq!(
        from_date.as_primitive::<TimestampNanosecondType>().value(0),
        day * 1_000_000
    );
    let from_int = cast(&Int32Array::from(vec![-2]), "INT", "TIMESTAMP(3)").unwrap();
    assert_eq!(
        from_int.as_primitive::<TimestampMillisecondType>().value(0),
        -2000
    );
}

#[test]
fn nulls_slices_dictionaries_and_row_numbers() {
    let input = StringArray::from(vec![Some("x"), Some("1"), None, Some("3"), Some("bad")]);
    let sliced = input.slice(1, 3);
    let out = cast(&sliced, "STRING", "BIGINT").unwrap();
    let got: Vec<Option<i64>> = out.as_primitive::<Int64Type>().iter().collect();
    assert_eq!(got, [Some(1), None, Some(3)]);
    let err = cast(&input.slice(2, 3), "STRING", "BIGINT")
        .unwrap_err()
        .to_string();
    assert!(err.contains("row 2") && err.contains("'bad'"), "{err}");
    let dict: arrow_array::DictionaryArray<Int32Type> = vec![Some("7"), None, Some("7"), Some("8")]
        .into_iter()
        .collect();
    let out = cast(&dict, "STRING", "INT").unwrap();
    let got: Vec<Option<i32>> = out.as_primitive::<Int32Type>().iter().collect();
    assert_eq!(got, [Some(7), None, Some(7), Some(8)]);
    let view = StringViewArray::from(vec![Some("abcdefghijklmnop"), None]);
    let out = cast(&view, "STRING", "VARCHAR(2)").unwrap();
    assert_eq!(strings(&out), [Some("ab".into()), None]);
    assert!(
        cast(&Int32Array::from(vec![1]), "BIGINT", "INT").is_err(),
        "Arrow type must match"
    );
}

/// The row-by-row reading of STRING to an integer type: each non-null row
/// through `java_parse_integer`, the first failing row's error.
fn integers_row_by_row(
    values: &[Option<&str>],
    to: &str,
    min: i64,
    max: i64,
) -> Result<Vec<Option<i64>>, String> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            None => Ok(None),
            Some(s) => java_parse_integer(s, min, max).map(Some).map_err(|why| {
                format!("Cast error: CAST from STRING to {to}: row {i}: cannot cast '{s}': {why}")
            }),
        })
        .collect()
}

/// The columnar kernel's answer as `i64`s, or its error's text.
fn integers_columnar(values: &dyn Array, to: &str) -> Result<Vec<Option<i64>>, String> {
    let out = cast(values, "STRING", to).map_err(|e| e.to_string())?;
    let widen = |i: usize| -> Option<i64> {
        if out.is_null(i) {
            return None;
        }
        Some(match to {
            "TINYINT" => out.as_primitive::<Int8Type>().value(i).into(),
            "SMALLINT" => out.as_primitive::<Int16Type>().value(i).into(),
            "INT" => out.as_primitive::<Int32Type>().value(i).into(),
            _ => out.as_primitive::<Int64Type>().value(i),
        })
    };
    Ok((0..out.len()).map(widen).collect())
}

#[test]
fn string_to_integers_match_the_row_by_row_reading() {
    let edges = [
        "0",
        "-0",
        "+0",
        "1",
        "-1",
        "+",
        "-",
        "",
        " 1",
        "1 ",
        "1.",
        ".",
        ".5",
        "-.5",
        "1.5",
        "1.a",
        "1..2",
        "007",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "32767",
        "32768",
        "-32768",
        "-32769",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "4294967296",
        "999999999999999999",
        "-999999999999999999",
        "1000000000000000000",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "00000000000000000000001",
        "99999999999999999999999",
        "+-1",
        "--1",
        "1-",
        "1e3",
        "0x10",
        "١٢",
        "１２",
        "é",
        "12é",
        "\u{0}",
        "9:",
        "/0",
    ];
    let types = [
        ("TINYINT", i64::from(i8::MIN), i64::from(i8::MAX)),
        ("SMALLINT", i16::MIN.into(), i16::MAX.into()),
        ("INT", i32::MIN.into(), i32::MAX.into()),
        ("BIGINT", i64::MIN, i64::MAX),
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut columns: Vec<Vec<Option<String>>> = Vec::new();
    // Each edge alone, after a good row and a null.
    for e in edges {
        columns.push(vec![Some("5".into()), None, Some(e.into())]);
    }
    // Random columns: numbers of every width and sign, some edges, nulls;
    // the last ones long enough for whole blocks of 64 rows (mostly
    // unsigned, as the block reads them), at every length around 64 * k
    // (the last rows, whose 8-byte loads would pass the end, go row by row).
    for c in 0..400 {
        let rows = if c < 300 {
            (next() % 40) as usize
        } else {
            60 + (next() % 200) as usize
        };
        let column = (0..rows)
            .map(|_| {
                let r = next();
                match r % 8 {
                    0 => None,
                    // Rarely in the long columns, most of whose edges fail.
                    1 if c < 300 || (r >> 40).is_multiple_of(64) => {
                        Some(edges[(r >> 8) as usize % edges.len()].into())
                    }
                    k => {
                        let digits = 1 + (r >> 8) % (k.max(2) * 3);
                        let magnitude = next() % 10u64.pow(digits.min(19) as u32);
                        let signs: &[&str] = if c < 300 {
                            &["", "-", "+"]
                        } else {
                            &["", "", "", "", "", "", "-", "+"]
                        };
                        let sign = signs[(r >> 20) as usize % signs.len()];
                        Some(format!("{sign}{magnitude}"))
                    }
                }
            })
            .collect();
        columns.push(column);
    }
    for column in &columns {
        let refs: Vec<Option<&str>> = column.iter().map(Option::as_deref).collect();
        let utf8 = StringArray::from(refs.clone());
        let large = LargeStringArray::from(refs.clone());
        let view = StringViewArray::from(refs.clone());
        for (to, min, max) in types {
            let want = integers_row_by_row(&refs, to, min, max);
            assert_eq!(integers_columnar(&utf8, to), want, "{to} {refs:?}");
            assert_eq!(integers_columnar(&large, to), want, "{to} {refs:?}");
            assert_eq!(integers_columnar(&view, to), want, "{to} {refs:?}");
            // Sliced: row numbers count from the slice's start.
            if refs.len() > 2 {
                let want = integers_row_by_row(&refs[1..refs.len() - 1], to, min, max);
                let n = refs.len() - 2;
                assert_eq!(
                    integers_columnar(&utf8.slice(1, n), to),
                    want,
                    "{to} {refs:?}"
                );
                assert_eq!(
                    integers_columnar(&large.slice(1, n), to),
                    want,
                    "{to} {refs:?}"
                );
                assert_eq!(
                    integers_columnar(&view.slice(1, n), to),
                    want,
                    "{to} {refs:?}"
                );
            }
        }
    }
}

/// The block reading of digits, portable and (where the CPU has it) AVX2,
/// against a byte-by-byte reading of each row's word: random words of
/// digits with a stray non-digit here and there, every length 0..=12 and
/// some far larger, every `max` of the integer types.
#[test]
fn digit_blocks_match_a_byte_loop() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let byte_loop = |word: u64, len: u64, max: i64| -> Option<i64> {
        if !(1..=8).contains(&len) {
            return None;
        }
        let mut v: i64 = 0;
        for b in &word.to_le_bytes()[..len as usize] {
            if !b.is_ascii_digit() {
                return None;
            }
            v = v * 10 + i64::from(b - b'0');
        }
        (v <= max).then_some(v)
    };
    for round in 0..2000 {
        let max = [127, 32767, i64::from(i32::MAX), i64::MAX][round % 4];
        let mut words: DigitWords = ([0; 64], [0; 64]);
        for j in 0..64 {
            let mut bytes = [0u8; 8];
            for b in &mut bytes {
                let r = next();
                *b = match r % 16 {
                    0 => (r >> 8) as u8,
                    1 => [b'/', b':', b'+', b'-', b'.', 0x30 + 10, 0xB0][(r >> 8) as usize % 7],
                    _ => b'0' + (r >> 8) as u8 % 10,
                };
            }
            words.0[j] = u64::from_le_bytes(bytes);
            let r = next();
            words.1[j] = if r % 16 == 0 { r >> 4 } else { r % 13 };
        }
        let want: Vec<Option<i64>> = (0..64)
            .map(|j| byte_loop(words.0[j], words.1[j], max))
            .collect();
        let read = |ok: u64, values: &[i64; 64]| -> Vec<Option<i64>> {
            (0..64)
                .map(|j| (ok >> j & 1 == 1).then_some(values[j]))
                .collect()
        };
        let mut values = [0i64; 64];
        let ok = digit_block(&words, max, &mut values);
        assert_eq!(read(ok, &values), want, "portable, max {max}");
        let ok = digit_block_dispatch(&words, max, &mut values);
        assert_eq!(read(ok, &values), want, "dispatched, max {max}");
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            let ok = unsafe { digit_block_avx2(&words, max, &mut values) };
            assert_eq!(read(ok, &values), want, "AVX2, max {max}");
        }
    }
}
