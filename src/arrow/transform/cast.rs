//! CAST: Paimon's `CastExecutors` (paimon-common, package
//! `org.apache.paimon.casting`), over whole Arrow columns.
//!
//! [`check_cast`] says whether Paimon has a cast rule for a pair of
//! [`PaimonType`]s, as `CastExecutors.resolve` does (a rule is looked up by
//! the target's exact type, then its root, then its families; by the input's
//! root, then its families; a rule whose `create` returns null for the pair
//! is no cast), and gives the Arrow type of the result. [`cast_column`] casts
//! a column row for row as the rule's Java code does. A null row stays null
//! (Java throws there); a value the rule rejects (`'abc'` to INT) is an error
//! naming the row and the value; a value the rule turns into null (a DECIMAL
//! that overflows its precision) is null.
//!
//! # What is supported
//!
//! | from | to | as Java |
//! |---|---|---|
//! | TINYINT .. DOUBLE | TINYINT .. DOUBLE | `Number.byteValue()` .. `doubleValue()`: integers wrap, floats saturate (NaN → 0; to TINYINT / SMALLINT through `int`) |
//! | TINYINT .. BIGINT | BOOLEAN | `!= 0` |
//! | BOOLEAN | TINYINT .. DOUBLE, DECIMAL | `1` / `0` |
//! | TINYINT .. DOUBLE, DECIMAL | DECIMAL(p, s) | `BigDecimal` (of `Double.toString` for floats; NaN and ±Infinity are errors), HALF_UP to `s` digits; more than `p` digits → null |
//! | DECIMAL | TINYINT .. DOUBLE | truncated toward zero, low bits kept (integers); `unscaled / 10^s` in doubles for `p <= 18`, correctly rounded above |
//! | TINYINT .. DOUBLE, DECIMAL, BOOLEAN | CHAR(n), VARCHAR(n), STRING | `toString()` (`Double.toString`: `1.0E10`, `1.0E-5`, `0.001`; DECIMAL as `toPlainString`), then fitted to the length |
//! | CHAR, VARCHAR, STRING | CHAR(n), VARCHAR(n), STRING | cut to `n` code points; CHAR(n) padded with spaces to `n` |
//! | CHAR, VARCHAR, STRING | BOOLEAN | `t`, `true`, `y`, `yes`, `1` / `f`, `false`, `n`, `no`, `0`, any case |
//! | CHAR, VARCHAR, STRING | TINYINT .. BIGINT | sign, digits, and digits after one `.` that are dropped (`"1.5"` → 1, `"."` → 0); no spaces, no exponent; out of range is an error |
//! | CHAR, VARCHAR, STRING | FLOAT, DOUBLE | `Float.parseFloat` / `Double.parseDouble` (trimmed; `NaN`, `Infinity`, an `f` / `d` suffix; `1e400` → Infinity) |
//! | CHAR, VARCHAR, STRING | DECIMAL(p, s) | `new BigDecimal(s)` (no spaces), HALF_UP; overflow → null |
//! | CHAR, VARCHAR, STRING | DATE / TIME(p) / TIMESTAMP(p) | Paimon's `DateTimeUtils` parsers (`2020-1-5`, `12:30:15.5`, `2020-01-05 12:30:15.123`, `2020-01-05T12:30`); digits alone are days / milliseconds / units of the precision |
//! | DATE, TIME(p), TIMESTAMP(p) | STRING (exactly, nullable: Paimon has no rule to VARCHAR(n), CHAR(n) or `STRING NOT NULL`) | `2020-01-05`; `12:30:15.5`; `2020-01-05 12:30:15.123000` (the fraction cut to `p` digits of trailing zeros) |
//! | TIMESTAMP(p) | TIMESTAMP(q) | as is when `p <= q`; cut to `q` digits otherwise (Java's `truncate`: toward zero on the epoch milliseconds when `q <= 3`) |
//! | DATE, TIME(p) | TIMESTAMP(q) | midnight of the date; the time on 1970-01-01 |
//! | TIMESTAMP(p) | DATE, TIME(q) | floor of the day; milliseconds of the day |
//! | TIMESTAMP(p), TIMESTAMP_LTZ(p) | INT, BIGINT | epoch seconds, truncated toward zero (INT wraps) |
//! | INT, BIGINT | TIMESTAMP(p) | epoch seconds |
//! | CHAR, VARCHAR, STRING, BINARY, VARBINARY, BYTES | BINARY(n), VARBINARY(n), BYTES | the UTF-8 bytes, or the bytes; cut to `n` bytes, BINARY(n) padded with zero bytes to `n` |
//!
//! Not supported by bitbytes yet (an error that says so, distinct from
//! Paimon having no rule): binary to STRING (Java makes a string of bytes
//! that need not be UTF-8), ARRAY to and from STRING, and
//! every cast whose Java result depends on the JVM's default time zone
//! (those to, and from, TIMESTAMP_LTZ except TIMESTAMP_LTZ to INT / BIGINT).
//! Java's `Double.toString` (numbers to strings, and `BigDecimal.valueOf`
//! of a double) is matched as JDK 17 writes it, the JVM Paimon's oracle runs
//! and the one the predicate JSON follows (JDK 19 and later print the
//! shortest digits, which sometimes differ: `1e23` is `9.999999999999999E22`
//! on 17, `1.0E23` on 19).
//! Strings with hexadecimal floats (`0x1p3`), which Java's `parseDouble`
//! accepts, are errors here. To DECIMAL, digits of any script (`"١٢"`) are
//! read as `new BigDecimal` reads them.
//!
//! # Arrow types of the results
//!
//! BOOLEAN, TINYINT .. DOUBLE: Boolean, Int8 .. Float64; DECIMAL(p, s):
//! Decimal128(p, s); CHAR / VARCHAR / STRING: Utf8; DATE: Date32; TIME(p):
//! Time32(Millisecond) (Java keeps a time in milliseconds whatever its
//! precision); TIMESTAMP(p): Timestamp(Millisecond) for `p <= 3`,
//! Microsecond for `p <= 6`, Nanosecond above, without time zone; BINARY /
//! VARBINARY / BYTES: Binary.

use super::super::java_text::{
    civil_from_days, days_from_civil, days_in_month, java_double, java_float,
};
use super::paimon_type::{PaimonType, PaimonTypeRoot, PAIMON_MAX_LENGTH};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type,
    Int64Type, Int8Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{
    Array, ArrayRef, BooleanArray, LargeStringArray, OffsetSizeTrait, PrimitiveArray, StringArray,
    StringViewArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, TimeUnit};
use core::fmt::Write as _;
use std::format;
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec::Vec;

use PaimonTypeRoot as R;

/// Milliseconds in a day (Java's `DateTimeUtils.MILLIS_PER_DAY`).
const MILLIS_PER_DAY: i64 = 86_400_000;

/// The Paimon cast rule that `CastExecutors.resolve` picks for a pair, for
/// the roots this crate knows. `None`: Paimon has no cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    DecimalToDecimal,
    NumericToDecimal,
    DecimalToNumeric,
    NumericPrimitive,
    NumericToTimestamp,
    BooleanToNumeric,
    NumericToBoolean,
    NumericToString,
    BooleanToString,
    TimestampToString,
    TimeToString,
    DateToString,
    StringToString,
    ArrayToString,
    StringToBoolean,
    StringToDecimal,
    StringToNumeric,
    StringToDate,
    StringToTime,
    StringToTimestamp,
    StringToBinary,
    StringToArray,
    TimestampToTimestamp,
    TimestampToDate,
    TimestampToTime,
    DateToTimestamp,
    TimeToTimestamp,
    TimestampToNumeric,
    BinaryToBinary,
    BinaryToString,
}

fn is_integer(root: &PaimonTypeRoot) -> bool {
    matches!(root, R::TinyInt | R::SmallInt | R::Int | R::BigInt)
}

fn is_float(root: &PaimonTypeRoot) -> bool {
    matches!(root, R::Float | R::Double)
}

fn is_char(root: &PaimonTypeRoot) -> bool {
    matches!(root, R::Char(_) | R::VarChar(_))
}

fn is_binary(root: &PaimonTypeRoot) -> bool {
    matches!(root, R::Binary(_) | R::VarBinary(_))
}

fn is_timestamp(root: &PaimonTypeRoot) -> bool {
    matches!(root, R::Timestamp(_) | R::TimestampLtz(_))
}

/// Paimon's rule for `from` → `to`: `CastExecutors.internalResolve` written
/// out per target, with the pairs whose `create` returns null removed.
fn paimon_rule(from: &PaimonType, to: &PaimonType) -> Option<Rule> {
    let f = &from.root;
    let numeric =
        |r: &PaimonTypeRoot| is_integer(r) || is_float(r) || matches!(r, R::Decimal { .. });
    match &to.root {
        R::TinyInt | R::SmallInt | R::Int | R::BigInt | R::Float | R::Double => {
            // By root first: TimestampToNumericPrimitive targets INT and BIGINT.
            if is_timestamp(f) && matches!(to.root, R::Int | R::BigInt) {
                Some(Rule::TimestampToNumeric)
            } else if *f == R::Boolean {
                Some(Rule::BooleanToNumeric)
            } else if matches!(f, R::Decimal { .. }) {
                Some(Rule::DecimalToNumeric)
            } else if is_integer(f) || is_float(f) {
                Some(Rule::NumericPrimitive)
            } else if is_char(f) {
                Some(Rule::StringToNumeric)
            } else {
                None
            }
        }
        R::Decimal { .. } => match f {
            R::Decimal { .. } => Some(Rule::DecimalToDecimal),
            r if is_integer(r) || is_float(r) => Some(Rule::NumericToDecimal),
            r if is_char(r) => Some(Rule::StringToDecimal),
            R::Boolean => Some(Rule::BooleanToNumeric),
            _ => None,
        },
        R::Boolean => match f {
            r if is_integer(r) => Some(Rule::NumericToBoolean),
            r if is_char(r) => Some(Rule::StringToBoolean),
            _ => None,
        },
        R::Char(_) | R::VarChar(_) => {
            // The rules to exactly `STRING` (nullable) come first.
            let string = to.root == R::VarChar(PAIMON_MAX_LENGTH) && to.nullable;
            match f {
                r if string && is_timestamp(r) => Some(Rule::TimestampToString),
                R::Time(_) if string => Some(Rule::TimeToString),
                R::Date if string => Some(Rule::DateToString),
                R::Array(_) if string => Some(Rule::ArrayToString),
                r if numeric(r) => Some(Rule::NumericToString),
                R::Boolean => Some(Rule::BooleanToString),
                r if is_char(r) => Some(Rule::StringToString),
                r if is_binary(r) => Some(Rule::BinaryToString),
                _ => None,
            }
        }
        R::Binary(_) | R::VarBinary(_) => match f {
            r if is_char(r) => Some(Rule::StringToBinary),
            r if is_binary(r) => Some(Rule::BinaryToBinary),
            _ => None,
        },
        R::Date => match f {
            r if is_char(r) => Some(Rule::StringToDate),
            r if is_timestamp(r) => Some(Rule::TimestampToDate),
            _ => None,
        },
        R::Time(_) => match f {
            r if is_char(r) => Some(Rule::StringToTime),
            r if is_timestamp(r) => Some(Rule::TimestampToTime),
            _ => None,
        },
        R::Timestamp(_) | R::TimestampLtz(_) => match f {
            // NumericPrimitiveToTimestamp is found for every numeric input
            // (family NUMERIC) but creates an executor only for INT / BIGINT.
            R::Int | R::BigInt => Some(Rule::NumericToTimestamp),
            r if numeric(r) => None,
            r if is_timestamp(r) => Some(Rule::TimestampToTimestamp),
            R::Date => Some(Rule::DateToTimestamp),
            R::Time(_) => Some(Rule::TimeToTimestamp),
            r if is_char(r) => Some(Rule::StringToTimestamp),
            _ => None,
        },
        R::Array(_) => match f {
            r if is_char(r) => Some(Rule::StringToArray),
            _ => None,
        },
    }
}

/// Whether this crate evaluates `rule` for the pair (the rest depends on the
/// JVM's time zone, or on types not done yet).
fn supported(rule: Rule, from: &PaimonType, to: &PaimonType) -> bool {
    let ltz = |t: &PaimonType| matches!(t.root, R::TimestampLtz(_));
    match rule {
        Rule::ArrayToString | Rule::StringToArray | Rule::BinaryToString => false,
        Rule::TimestampToNumeric => true,
        _ => !ltz(from) && !ltz(to),
    }
}

fn pair_error(from: &PaimonType, to: &PaimonType, why: &str) -> ArrowError {
    ArrowError::InvalidArgumentError(format!("CAST from {from} to {to} {why}"))
}

/// The Arrow type of the result of a cast to `to`, if this crate casts
/// `from` to `to`: an error naming both types when Paimon has no cast rule
/// for the pair, and a distinct one when Paimon has a rule that bitbytes
/// does not evaluate yet.
pub(crate) fn check_cast(from: &PaimonType, to: &PaimonType) -> Result<DataType, ArrowError> {
    let rule = paimon_rule(from, to)
        .ok_or_else(|| pair_error(from, to, "has no cast rule in Paimon (CastExecutors)"))?;
    if !supported(rule, from, to) {
        return Err(pair_error(from, to, "is not supported by bitbytes yet"));
    }
    Ok(output_type(&to.root))
}

fn output_type(root: &PaimonTypeRoot) -> DataType {
    match root {
        R::Boolean => DataType::Boolean,
        R::TinyInt => DataType::Int8,
        R::SmallInt => DataType::Int16,
        R::Int => DataType::Int32,
        R::BigInt => DataType::Int64,
        R::Float => DataType::Float32,
        R::Double => DataType::Float64,
        R::Decimal { precision, scale } => DataType::Decimal128(*precision, *scale as i8),
        R::Char(_) | R::VarChar(_) => DataType::Utf8,
        R::Date => DataType::Date32,
        R::Time(_) => DataType::Time32(TimeUnit::Millisecond),
        R::Timestamp(p) | R::TimestampLtz(p) => DataType::Timestamp(timestamp_unit(*p), None),
        R::Binary(_) | R::VarBinary(_) => DataType::Binary,
        // Not reached: check_cast refuses this target first.
        R::Array(_) => DataType::Null,
    }
}

fn timestamp_unit(precision: u8) -> TimeUnit {
    match precision {
        0..=3 => TimeUnit::Millisecond,
        4..=6 => TimeUnit::Microsecond,
        _ => TimeUnit::Nanosecond,
    }
}

/// `values` (a column of Paimon type `from`) cast to `to`, as Paimon's
/// `CastExecutors` casts each value; the Arrow type of the result is the
/// one [`check_cast`] gives. Null rows stay null; a value that cannot be
/// cast is an error naming its row (in `values`) and the value.
pub(crate) fn cast_column(
    values: &dyn Array,
    from: &PaimonType,
    to: &PaimonType,
) -> Result<ArrayRef, ArrowError> {
    check_cast(from, to)?;
    if let Some(dict) = values.as_any_dictionary_opt() {
        let plain = arrow_select::take::take(dict.values().as_ref(), dict.keys(), None)?;
        return cast_column(plain.as_ref(), from, to);
    }
    if !from.matches_arrow(values.data_type())
        || matches!(values.data_type(), DataType::RunEndEncoded(..))
    {
        return Err(ArrowError::InvalidArgumentError(format!(
            "CAST from {from} to {to}: a column of Arrow type {} cannot be cast here",
            values.data_type()
        )));
    }
    let cx = Cx { from, to };
    let rule = paimon_rule(from, to).expect("checked above");
    match rule {
        Rule::NumericPrimitive => numeric_primitive(values, &from.root, &to.root),
        Rule::BooleanToNumeric => boolean_to_numeric(values, &to.root),
        Rule::NumericToBoolean => {
            let v = to_i64s(values, &from.root)?;
            let bits = BooleanBuffer::collect_bool(v.len(), |i| v[i] != 0);
            Ok(Arc::new(BooleanArray::new(bits, values.nulls().cloned())))
        }
        Rule::NumericToDecimal | Rule::DecimalToDecimal => cx.to_decimal(values),
        Rule::DecimalToNumeric => cx.decimal_to_numeric(values),
        Rule::NumericToString | Rule::BooleanToString => cx.to_string(values),
        Rule::StringToString => {
            let strs = Strs::new(values)?;
            strings_out(values.len(), values.nulls(), to, |i, out| {
                out.push_str(strs.value(i));
                Ok(())
            })
        }
        Rule::StringToBoolean => cx.string_to_boolean(values),
        Rule::StringToNumeric => cx.string_to_numeric(values),
        Rule::StringToDecimal => cx.string_to_decimal(values),
        Rule::StringToDate => cx.parse_strings::<Date32Type>(values, parse_date_cast),
        Rule::StringToTime => cx.parse_strings::<Time32MillisecondType>(values, parse_time_cast),
        Rule::StringToTimestamp => cx.string_to_timestamp(values),
        Rule::DateToString | Rule::TimeToString | Rule::TimestampToString => {
            cx.temporal_to_string(values)
        }
        Rule::TimestampToTimestamp
        | Rule::DateToTimestamp
        | Rule::TimeToTimestamp
        | Rule::NumericToTimestamp => cx.to_timestamp(values),
        Rule::TimestampToDate => {
            cx.timestamp_to::<Date32Type>(values, |ms, _| ms.div_euclid(MILLIS_PER_DAY) as i32)
        }
        Rule::TimestampToTime => cx.timestamp_to::<Time32MillisecondType>(values, |ms, _| {
            ms.rem_euclid(MILLIS_PER_DAY) as i32
        }),
        Rule::TimestampToNumeric => match to.root {
            R::Int => cx.timestamp_to::<Int32Type>(values, |ms, _| (ms / 1000) as i32),
            _ => cx.timestamp_to::<Int64Type>(values, |ms, _| ms / 1000),
        },
        Rule::StringToBinary => {
            let strs = Strs::new(values)?;
            binary_out(values.len(), values.nulls(), to, |i| {
                strs.value(i).as_bytes()
            })
        }
        Rule::BinaryToBinary => {
            let bins = binary_values(values)?;
            binary_out(values.len(), values.nulls(), to, |i| bins(i))
        }
        Rule::ArrayToString | Rule::StringToArray | Rule::BinaryToString => {
            Err(pair_error(from, to, "is not supported by bitbytes yet"))
        }
    }
}

// ---------------------------------------------------------------------------
// Numbers as Java's `Number` converts them.

/// Java's `Number.xxxValue()` of a primitive: integers narrow by wrapping,
/// floats by `(int)` / `(long)` (saturating, NaN → 0), and to `byte` /
/// `short` through `int`.
trait JavaNumber: Copy {
    fn int(self) -> i32;
    fn long(self) -> i64;
    fn float(self) -> f32;
    fn double(self) -> f64;
    fn byte(self) -> i8 {
        self.int() as i8
    }
    fn short(self) -> i16 {
        self.int() as i16
    }
}

macro_rules! java_number {
    ($($t:ty),*) => {$(
        impl JavaNumber for $t {
            fn int(self) -> i32 { self as i32 }
            fn long(self) -> i64 { self as i64 }
            fn float(self) -> f32 { self as f32 }
            fn double(self) -> f64 { self as f64 }
        }
    )*};
}
java_number!(i8, i16, i32, i64, f32, f64);

/// An Arrow numeric type that Java's `Number` narrows to.
trait FromJava: ArrowPrimitiveType {
    fn from_java<N: JavaNumber>(n: N) -> Self::Native;
}

macro_rules! from_java {
    ($($t:ty => $m:ident),*) => {$(
        impl FromJava for $t {
            fn from_java<N: JavaNumber>(n: N) -> Self::Native { n.$m() }
        }
    )*};
}
from_java!(Int8Type => byte, Int16Type => short, Int32Type => int, Int64Type => long,
    Float32Type => float, Float64Type => double);

/// `$body` with `$t` the Arrow type of the numeric primitive root `$root`.
macro_rules! with_numeric {
    ($root:expr, $t:ident, $body:expr) => {
        match $root {
            R::TinyInt => {
                type $t = Int8Type;
                $body
            }
            R::SmallInt => {
                type $t = Int16Type;
                $body
            }
            R::Int => {
                type $t = Int32Type;
                $body
            }
            R::BigInt => {
                type $t = Int64Type;
                $body
            }
            R::Float => {
                type $t = Float32Type;
                $body
            }
            _ => {
                type $t = Float64Type;
                $body
            }
        }
    };
}

fn numeric_primitive(
    values: &dyn Array,
    from: &PaimonTypeRoot,
    to: &PaimonTypeRoot,
) -> Result<ArrayRef, ArrowError> {
    fn run<I: ArrowPrimitiveType, O: FromJava>(values: &dyn Array) -> ArrayRef
    where
        I::Native: JavaNumber,
    {
        Arc::new(values.as_primitive::<I>().unary::<_, O>(O::from_java))
    }
    Ok(with_numeric!(
        from,
        I,
        with_numeric!(to, O, run::<I, O>(values))
    ))
}

/// An integer column as `i64`s (Java's `longValue()`); null rows hold 0.
fn to_i64s(values: &dyn Array, root: &PaimonTypeRoot) -> Result<Vec<i64>, ArrowError> {
    fn run<I: ArrowPrimitiveType>(values: &dyn Array) -> Vec<i64>
    where
        I::Native: JavaNumber,
    {
        values
            .as_primitive::<I>()
            .values()
            .iter()
            .map(|v| v.long())
            .collect()
    }
    Ok(with_numeric!(root, I, run::<I>(values)))
}

fn boolean_to_numeric(values: &dyn Array, to: &PaimonTypeRoot) -> Result<ArrayRef, ArrowError> {
    fn run<O: ArrowPrimitiveType>(
        bools: &BooleanArray,
        one: O::Native,
        zero: O::Native,
    ) -> PrimitiveArray<O> {
        let v: Vec<O::Native> = bools
            .values()
            .iter()
            .map(|b| if b { one } else { zero })
            .collect();
        PrimitiveArray::new(ScalarBuffer::from(v), bools.nulls().cloned())
    }
    let bools = values.as_boolean();
    if let R::Decimal { precision, scale } = *to {
        // castFrom(1, p, s): null when 1 needs more than p digits (s == p).
        let one = 10i128.pow(u32::from(scale));
        let fits = scale < precision;
        let v: Vec<i128> = bools
            .values()
            .iter()
            .map(|b| if b { one } else { 0 })
            .collect();
        let overflow = NullBuffer::new(BooleanBuffer::collect_bool(v.len(), |i| {
            fits || !bools.values().value(i)
        }));
        let nulls = NullBuffer::union(bools.nulls(), Some(&overflow));
        let out = PrimitiveArray::<Decimal128Type>::new(ScalarBuffer::from(v), nulls)
            .with_precision_and_scale(precision, scale as i8)?;
        return Ok(Arc::new(out));
    }
    Ok(with_numeric!(
        to,
        O,
        Arc::new(run::<O>(
            bools,
            <O as FromJava>::from_java(1i32),
            <O as FromJava>::from_java(0i32)
        ))
    ))
}

// ---------------------------------------------------------------------------
// The shared row loops.

/// The pair being cast, for the per-row kernels and their errors.
struct Cx<'a> {
    from: &'a PaimonType,
    to: &'a PaimonType,
}

impl Cx<'_> {
    fn value_error(&self, row: usize, value: &dyn core::fmt::Display, why: &str) -> ArrowError {
        ArrowError::CastError(format!(
            "CAST from {} to {}: row {row}: cannot cast {value}: {why}",
            self.from, self.to
        ))
    }

    fn string_error(&self, row: usize, value: &str, why: &str) -> ArrowError {
        self.value_error(row, &format_args!("'{value}'"), why)
    }

    /// Each non-null row of `values` through `cast` (`None`: a null
    /// result), into a `PrimitiveArray<O>`.
    fn map_rows<O: ArrowPrimitiveType>(
        values: &dyn Array,
        mut cast: impl FnMut(usize) -> Result<Option<O::Native>, ArrowError>,
    ) -> Result<PrimitiveArray<O>, ArrowError> {
        let n = values.len();
        let nulls = values.nulls();
        let mut out = Vec::with_capacity(n);
        let mut valid = NullBufferBuilder::new(n);
        for i in 0..n {
            let v = match nulls {
                Some(nulls) if nulls.is_null(i) => None,
                _ => cast(i)?,
            };
            valid.append(v.is_some());
            out.push(v.unwrap_or_default());
        }
        Ok(PrimitiveArray::new(ScalarBuffer::from(out), valid.finish()))
    }
}

/// Strings of any Arrow string layout, by row.
enum Strs<'a> {
    Utf8(&'a StringArray),
    Large(&'a LargeStringArray),
    View(&'a StringViewArray),
}

impl<'a> Strs<'a> {
    fn new(values: &'a dyn Array) -> Result<Strs<'a>, ArrowError> {
        match values.data_type() {
            DataType::Utf8 => Ok(Strs::Utf8(values.as_string::<i32>())),
            DataType::LargeUtf8 => Ok(Strs::Large(values.as_string::<i64>())),
            DataType::Utf8View => Ok(Strs::View(values.as_string_view())),
            t => Err(ArrowError::InvalidArgumentError(format!(
                "expected a string column, got {t}"
            ))),
        }
    }

    fn value(&self, i: usize) -> &'a str {
        match self {
            Strs::Utf8(a) => a.value(i),
            Strs::Large(a) => a.value(i),
            Strs::View(a) => a.value(i),
        }
    }
}

/// A Utf8 column of `n` rows: each non-null row written by `write` into a
/// reused buffer, then fitted to `to` as `BinaryStringUtils.toCharacterString`
/// (cut to `n` code points; CHAR(n) padded with spaces).
fn strings_out(
    n: usize,
    nulls: Option<&NullBuffer>,
    to: &PaimonType,
    mut write: impl FnMut(usize, &mut String) -> Result<(), ArrowError>,
) -> Result<ArrayRef, ArrowError> {
    let (length, pad) = match to.root {
        R::Char(n) => (n as usize, true),
        R::VarChar(n) => (n as usize, false),
        _ => (usize::MAX, false),
    };
    // CHAR(n) pads every non-null row to n characters, at least n bytes.
    if pad && padded_bytes(n, nulls, length) > i32::MAX as usize {
        return Err(too_large(to, "string"));
    }
    let mut bytes: Vec<u8> = Vec::new();
    let mut offsets: Vec<i32> = Vec::with_capacity(n + 1);
    offsets.push(0);
    let mut buf = String::new();
    for i in 0..n {
        if nulls.is_none_or(|nulls| nulls.is_valid(i)) {
            buf.clear();
            write(i, &mut buf)?;
            let mut text = buf.as_str();
            // Code points are counted only when the byte length could exceed the limit.
            let mut chars = None;
            if text.len() > length {
                let count = text.chars().count();
                if count > length {
                    let end = text
                        .char_indices()
                        .nth(length)
                        .map_or(text.len(), |(b, _)| b);
                    text = &text[..end];
                }
                chars = Some(count.min(length));
            }
            let padding = if pad {
                length.saturating_sub(chars.unwrap_or_else(|| text.chars().count()))
            } else {
                0
            };
            // Checked before the padding is written: CHAR(2147483647) pads
            // each row to 2 GiB.
            let end = bytes
                .len()
                .saturating_add(text.len())
                .saturating_add(padding);
            if end > i32::MAX as usize {
                return Err(too_large(to, "string"));
            }
            bytes.extend_from_slice(text.as_bytes());
            bytes.resize(end, b' ');
        }
        let end = i32::try_from(bytes.len()).map_err(|_| too_large(to, "string"))?;
        offsets.push(end);
    }
    // Offsets grow by construction and the bytes are whole `str`s and spaces;
    // `try_new` checks both anyway.
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    Ok(Arc::new(StringArray::try_new(
        offsets,
        bytes.into(),
        nulls.cloned(),
    )?))
}

/// The bytes of `n` rows (those `nulls` leaves valid) of `length` bytes
/// each, saturating.
fn padded_bytes(n: usize, nulls: Option<&NullBuffer>, length: usize) -> usize {
    let valid = n - nulls.map_or(0, |nulls| nulls.null_count());
    valid.saturating_mul(length)
}

/// The error of a CAST whose result passes the 2 GiB a column of `what`
/// (string or binary) bytes holds.
fn too_large(to: &PaimonType, what: &str) -> ArrowError {
    ArrowError::CastError(format!(
        "CAST to {to}: the result exceeds 2 GiB of {what} bytes"
    ))
}

/// The bytes of row `i` of a column of any Arrow binary layout.
fn binary_values<'a>(values: &'a dyn Array) -> Result<impl Fn(usize) -> &'a [u8] + 'a, ArrowError> {
    enum Bins<'a> {
        Binary(&'a arrow_array::BinaryArray),
        Large(&'a arrow_array::LargeBinaryArray),
        View(&'a arrow_array::BinaryViewArray),
        Fixed(&'a arrow_array::FixedSizeBinaryArray),
    }
    let bins = match values.data_type() {
        DataType::Binary => Bins::Binary(values.as_binary::<i32>()),
        DataType::LargeBinary => Bins::Large(values.as_binary::<i64>()),
        DataType::BinaryView => Bins::View(values.as_binary_view()),
        DataType::FixedSizeBinary(_) => Bins::Fixed(values.as_fixed_size_binary()),
        t => {
            return Err(ArrowError::InvalidArgumentError(format!(
                "expected a binary column, got {t}"
            )))
        }
    };
    Ok(move |i| match &bins {
        Bins::Binary(a) => a.value(i),
        Bins::Large(a) => a.value(i),
        Bins::View(a) => a.value(i),
        Bins::Fixed(a) => a.value(i),
    })
}

/// A Binary column of `n` rows: each non-null row's `bytes`, fitted to `to`
/// as `BinaryStringUtils.toBinaryString`: BINARY(n) cut or padded with zero
/// bytes to `n` bytes, VARBINARY(n) / BYTES cut to `n` bytes.
fn binary_out<'b>(
    n: usize,
    nulls: Option<&NullBuffer>,
    to: &PaimonType,
    bytes: impl Fn(usize) -> &'b [u8],
) -> Result<ArrayRef, ArrowError> {
    let (length, pad) = match to.root {
        R::Binary(n) => (n as usize, true),
        R::VarBinary(n) => (n as usize, false),
        _ => unreachable!("a binary target"),
    };
    // BINARY(n) pads every non-null row to n bytes: refused before any is.
    if pad && padded_bytes(n, nulls, length) > i32::MAX as usize {
        return Err(too_large(to, "binary"));
    }
    let mut out = arrow_array::builder::BinaryBuilder::new();
    let mut buf = Vec::new();
    // The bytes so far: a Binary column holds at most `i32::MAX` (arrow-rs'
    // builder panics past it), checked before a row is padded.
    let mut total = 0usize;
    for i in 0..n {
        if nulls.is_some_and(|nulls| nulls.is_null(i)) {
            out.append_null();
            continue;
        }
        let b = bytes(i);
        total = total.saturating_add(if pad { length } else { b.len().min(length) });
        if total > i32::MAX as usize {
            return Err(too_large(to, "binary"));
        }
        buf.clear();
        buf.extend_from_slice(&b[..b.len().min(length)]);
        if pad {
            buf.resize(length, 0);
        }
        out.append_value(&buf);
    }
    Ok(Arc::new(out.finish()))
}

// ---------------------------------------------------------------------------
// To and from strings.

impl Cx<'_> {
    fn to_string(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let (n, nulls, to) = (values.len(), values.nulls(), self.to);
        match &self.from.root {
            R::Boolean => {
                let b = values.as_boolean();
                strings_out(n, nulls, to, |i, out| {
                    out.push_str(if b.value(i) { "true" } else { "false" });
                    Ok(())
                })
            }
            R::Float => {
                let v = values.as_primitive::<Float32Type>();
                strings_out(n, nulls, to, |i, out| {
                    out.push_str(&java_float(v.value(i)));
                    Ok(())
                })
            }
            R::Double => {
                let v = values.as_primitive::<Float64Type>();
                strings_out(n, nulls, to, |i, out| {
                    out.push_str(&java_double(v.value(i)));
                    Ok(())
                })
            }
            R::Decimal { scale, .. } => {
                let v = values.as_primitive::<Decimal128Type>();
                strings_out(n, nulls, to, |i, out| {
                    plain_decimal(v.value(i), *scale, out);
                    Ok(())
                })
            }
            root => {
                let v = to_i64s(values, root)?;
                strings_out(n, nulls, to, |i, out| {
                    let _ = write!(out, "{}", v[i]);
                    Ok(())
                })
            }
        }
    }

    fn string_to_boolean(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let strs = Strs::new(values)?;
        let mut bits = Vec::with_capacity(values.len());
        for i in 0..values.len() {
            if values.is_null(i) {
                bits.push(false);
                continue;
            }
            let s = strs.value(i);
            let is = |words: &[&str]| words.iter().any(|w| s.eq_ignore_ascii_case(w));
            if is(&["t", "true", "y", "yes", "1"]) {
                bits.push(true);
            } else if is(&["f", "false", "n", "no", "0"]) {
                bits.push(false);
            } else {
                return Err(self.string_error(i, s, "not a BOOLEAN"));
            }
        }
        Ok(Arc::new(BooleanArray::new(
            BooleanBuffer::from(bits),
            values.nulls().cloned(),
        )))
    }

    fn string_to_numeric(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let strs = Strs::new(values)?;
        let out: ArrayRef = match self.to.root {
            R::TinyInt => Arc::new(self.string_to_integer::<Int8Type>(values, &strs, |v| v as i8)?),
            R::SmallInt => {
                Arc::new(self.string_to_integer::<Int16Type>(values, &strs, |v| v as i16)?)
            }
            R::Int => Arc::new(self.string_to_integer::<Int32Type>(values, &strs, |v| v as i32)?),
            R::BigInt => Arc::new(self.string_to_integer::<Int64Type>(values, &strs, |v| v)?),
            R::Float => Arc::new(Self::map_rows::<Float32Type>(values, |i| {
                let s = strs.value(i);
                java_parse_float::<f32>(s)
                    .map(Some)
                    .map_err(|why| self.string_error(i, s, why))
            })?),
            _ => Arc::new(Self::map_rows::<Float64Type>(values, |i| {
                let s = strs.value(i);
                java_parse_float::<f64>(s)
                    .map(Some)
                    .map_err(|why| self.string_error(i, s, why))
            })?),
        };
        Ok(out)
    }

    /// STRING to TINYINT .. BIGINT (`O`, of `narrow` of an `i64` in its
    /// range), as [`java_parse_integer`] reads each row, in one pass over
    /// the offsets and values buffers: a row of `[+-]` and 1 to 18 ASCII
    /// digits is read in place ([`plain_integer`]); any other row (a `.`,
    /// more digits, a bad value) goes through [`java_parse_integer`]
    /// itself, which gives the error. Null rows stay null (value 0).
    fn string_to_integer<O: ArrowPrimitiveType>(
        &self,
        values: &dyn Array,
        strs: &Strs<'_>,
        narrow: impl Fn(i64) -> O::Native,
    ) -> Result<PrimitiveArray<O>, ArrowError> {
        let (min, max) = match self.to.root {
            R::TinyInt => (i8::MIN.into(), i8::MAX.into()),
            R::SmallInt => (i16::MIN.into(), i16::MAX.into()),
            R::Int => (i32::MIN.into(), i32::MAX.into()),
            _ => (i64::MIN, i64::MAX),
        };
        // Any row that is not plain digits in range: Java's reading itself.
        let slow = |i: usize| -> Result<O::Native, ArrowError> {
            let s = strs.value(i);
            java_parse_integer(s, min, max)
                .map(&narrow)
                .map_err(|why| self.string_error(i, s, why))
        };
        let nulls = values.nulls().filter(|n| n.null_count() > 0);
        let rows = IntegerRows {
            min,
            max,
            narrow: &narrow,
            nulls,
        };
        let out = match strs {
            Strs::Utf8(a) => rows.offsets(a.value_offsets(), a.value_data(), slow)?,
            Strs::Large(a) => rows.offsets(a.value_offsets(), a.value_data(), slow)?,
            Strs::View(a) => rows.run(
                a.len(),
                |base, words| {
                    let views = a.views().get(base..base + 64);
                    views
                        .and_then(|v| v.try_into().ok())
                        .map(|v| view_block(v, words))
                        .is_some()
                },
                |i| {
                    let bytes = a.value(i).as_bytes();
                    plain_integer(bytes, 0, bytes.len())
                },
                slow,
            )?,
        };
        Ok(PrimitiveArray::new(
            ScalarBuffer::from(out),
            values.nulls().cloned(),
        ))
    }

    fn string_to_decimal(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let R::Decimal { precision, scale } = self.to.root else {
            unreachable!("a DECIMAL target")
        };
        let strs = Strs::new(values)?;
        let out = Self::map_rows::<Decimal128Type>(values, |i| {
            let s = strs.value(i);
            let (negative, digits, exponent) =
                parse_big_decimal(s).map_err(|why| self.string_error(i, s, why))?;
            Ok(digits_to_decimal(
                negative, &digits, exponent, precision, scale,
            ))
        })?;
        Ok(Arc::new(
            out.with_precision_and_scale(precision, scale as i8)?,
        ))
    }

    /// Strings to a temporal column by `parse` (None: not a value).
    fn parse_strings<O: ArrowPrimitiveType>(
        &self,
        values: &dyn Array,
        parse: fn(&str) -> Result<O::Native, &'static str>,
    ) -> Result<ArrayRef, ArrowError> {
        let strs = Strs::new(values)?;
        let out = Self::map_rows::<O>(values, |i| {
            let s = strs.value(i);
            parse(s)
                .map(Some)
                .map_err(|why| self.string_error(i, s, why))
        })?;
        Ok(Arc::new(out))
    }

    fn string_to_timestamp(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let R::Timestamp(precision) = self.to.root else {
            unreachable!("a TIMESTAMP target")
        };
        let strs = Strs::new(values)?;
        self.timestamps_out(values, |i| {
            let s = strs.value(i);
            parse_timestamp_cast(s, precision)
                .map(Some)
                .map_err(|why| self.string_error(i, s, why))
        })
    }

    fn temporal_to_string(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let (n, nulls, to) = (values.len(), values.nulls(), self.to);
        match self.from.root {
            R::Date => {
                let v = values.as_primitive::<Date32Type>();
                strings_out(n, nulls, to, |i, out| {
                    format_date(v.value(i), out);
                    Ok(())
                })
            }
            R::Time(precision) => {
                let millis = time_millis(values)?;
                strings_out(n, nulls, to, |i, out| {
                    format_time(millis[i], precision, out);
                    Ok(())
                })
            }
            R::Timestamp(precision) | R::TimestampLtz(precision) => {
                let ts = JavaTimestamps::new(values)?;
                strings_out(n, nulls, to, |i, out| {
                    let (ms, nanos) = ts
                        .get(i)
                        .map_err(|v| self.value_error(i, &v, "out of range"))?;
                    format_timestamp(ms, nanos, precision, out);
                    Ok(())
                })
            }
            _ => unreachable!("a temporal input"),
        }
    }
}

// ---------------------------------------------------------------------------
// Decimals.

/// `10^n` for `n <= 38`.
fn pow10(n: u32) -> i128 {
    10i128.pow(n)
}

/// Whether `v` has at most `precision` digits (`BigDecimal.precision()`).
fn fits(v: i128, precision: u8) -> bool {
    precision >= 39 || v.unsigned_abs() < pow10(u32::from(precision)) as u128
}

/// `v / 10^shift`, HALF_UP (ties away from zero).
fn div_half_up(v: i128, shift: u32) -> i128 {
    if shift > 38 {
        return 0;
    }
    let d = pow10(shift);
    let (q, r) = (v / d, v % d);
    if r.unsigned_abs() >= (d as u128).div_ceil(2) && r != 0 {
        q + v.signum()
    } else {
        q
    }
}

/// `Decimal.fromBigDecimal(unscaled × 10^-from_scale, p, s)`: HALF_UP to `s`
/// digits, `None` when more than `p` digits remain.
fn rescale(v: i128, from_scale: i32, precision: u8, scale: u8) -> Option<i128> {
    let shift = i32::from(scale) - from_scale;
    let out = if shift >= 0 {
        if v == 0 {
            0
        } else {
            v.checked_mul(*POW10_I128.get(shift as usize)?)?
        }
    } else {
        div_half_up(v, shift.unsigned_abs())
    };
    fits(out, precision).then_some(out)
}

const POW10_I128: [i128; 39] = {
    let mut t = [1i128; 39];
    let mut i = 1;
    while i < 39 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// A decimal given as ASCII `digits` × 10^`exponent` (sign apart), HALF_UP to
/// `scale`, `None` when it needs more than `precision` digits.
fn digits_to_decimal(
    negative: bool,
    digits: &str,
    exponent: i64,
    precision: u8,
    scale: u8,
) -> Option<i128> {
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Some(0);
    }
    // The value is digits × 10^(exponent + scale) units of the result.
    let shift = exponent + i64::from(scale);
    let (kept, round_up) = if shift >= 0 {
        if digits.len() as i64 + shift > 39 {
            return None;
        }
        (digits, false)
    } else {
        let keep = digits.len() as i64 + shift;
        if keep < 0 {
            return Some(0);
        }
        let keep = keep as usize;
        (&digits[..keep], digits.as_bytes()[keep] >= b'5')
    };
    if kept.len() > 39 {
        return None;
    }
    let mut v: i128 = 0;
    for b in kept.bytes() {
        v = v.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    if shift > 0 {
        v = v.checked_mul(*POW10_I128.get(shift as usize)?)?;
    }
    if round_up {
        v = v.checked_add(1)?;
    }
    let v = if negative { -v } else { v };
    fits(v, precision).then_some(v)
}

/// `BigDecimal.toPlainString()` of `v × 10^-scale`.
fn plain_decimal(v: i128, scale: u8, out: &mut String) {
    if v < 0 {
        out.push('-');
    }
    let digits = v.unsigned_abs().to_string();
    let scale = usize::from(scale);
    if scale == 0 {
        out.push_str(&digits);
    } else if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else {
        out.push_str("0.");
        out.extend(core::iter::repeat_n('0', scale - digits.len()));
        out.push_str(&digits);
    }
}

/// The zeros of the decimal digit runs of the Basic Multilingual Plane
/// (Unicode general category Nd, each run `zero..=zero + 9`): Java's
/// `Character.digit(c, 10)` reads these as digits (a Java `char` is a UTF-16
/// unit, so digits outside the BMP are not digits to it).
const BMP_DIGIT_ZEROS: [u32; 37] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
];

/// Java's `Character.digit(c, 10)`: the value of a decimal digit of any
/// script in the BMP (`'٣'` is 3).
fn java_digit_value(c: char) -> Option<u8> {
    let c = c as u32;
    // The last run that starts at or below `c`.
    let i = BMP_DIGIT_ZEROS.partition_point(|&zero| zero <= c);
    let zero = *BMP_DIGIT_ZEROS.get(i.checked_sub(1)?)?;
    (c - zero < 10).then(|| (c - zero) as u8)
}

/// `new BigDecimal(s)`: `[+-]digits[.digits][(e|E)[+-]digits]`, at least one
/// digit, nothing else; as (negative, ASCII digits, exponent of the last
/// digit). Digits are those of `Character.digit(c, 10)`, any script's
/// (`"١٢"` is 12), in the mantissa and the exponent, as Java reads them.
fn parse_big_decimal(s: &str) -> Result<(bool, String, i64), &'static str> {
    let mut chars = s.chars().peekable();
    let negative = match chars.peek() {
        Some('-') => {
            chars.next();
            true
        }
        Some('+') => {
            chars.next();
            false
        }
        _ => false,
    };
    let mut digits = String::new();
    let mut fraction = 0i64;
    let mut point = false;
    while let Some(&c) = chars.peek() {
        match (c, java_digit_value(c)) {
            (_, Some(d)) => {
                digits.push(char::from(b'0' + d));
                if point {
                    fraction += 1;
                }
            }
            ('.', None) if !point => point = true,
            _ => break,
        }
        chars.next();
    }
    if digits.is_empty() {
        return Err("not a decimal number");
    }
    let mut exponent = 0i64;
    if let Some(c) = chars.next() {
        if !matches!(c, 'e' | 'E') {
            return Err("not a decimal number");
        }
        let mut e = String::new();
        if let Some(&sign @ ('+' | '-')) = chars.peek() {
            e.push(sign);
            chars.next();
        }
        let mut any = false;
        for c in chars {
            let d = java_digit_value(c).ok_or("not a decimal number")?;
            e.push(char::from(b'0' + d));
            any = true;
        }
        if !any {
            return Err("not a decimal number");
        }
        // Java reads the exponent as an int.
        exponent = e
            .parse::<i32>()
            .map_err(|_| "exponent out of range")?
            .into();
    }
    Ok((negative, digits, exponent - fraction))
}

impl Cx<'_> {
    fn to_decimal(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let R::Decimal { precision, scale } = self.to.root else {
            unreachable!("a DECIMAL target")
        };
        let out = match &self.from.root {
            R::Decimal {
                scale: from_scale, ..
            } => {
                let v = values.as_primitive::<Decimal128Type>();
                Self::map_rows::<Decimal128Type>(values, |i| {
                    Ok(rescale(
                        v.value(i),
                        i32::from(*from_scale),
                        precision,
                        scale,
                    ))
                })?
            }
            R::Float | R::Double => {
                let doubles: Vec<f64> = if self.from.root == R::Float {
                    values
                        .as_primitive::<Float32Type>()
                        .values()
                        .iter()
                        .map(|&f| f64::from(f))
                        .collect()
                } else {
                    values.as_primitive::<Float64Type>().values().to_vec()
                };
                Self::map_rows::<Decimal128Type>(values, |i| {
                    // `BigDecimal.valueOf(d)` is `new BigDecimal(Double.toString(d))`.
                    let text = java_double(doubles[i]);
                    let (negative, digits, exponent) = parse_big_decimal(&text)
                        .map_err(|_| self.value_error(i, &text, "not a number BigDecimal takes"))?;
                    Ok(digits_to_decimal(
                        negative, &digits, exponent, precision, scale,
                    ))
                })?
            }
            root => {
                let v = to_i64s(values, root)?;
                Self::map_rows::<Decimal128Type>(values, |i| {
                    Ok(rescale(i128::from(v[i]), 0, precision, scale))
                })?
            }
        };
        Ok(Arc::new(
            out.with_precision_and_scale(precision, scale as i8)?,
        ))
    }

    fn decimal_to_numeric(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let R::Decimal { precision, scale } = self.from.root else {
            unreachable!("a DECIMAL input")
        };
        let v = values.as_primitive::<Decimal128Type>();
        let divisor = pow10(u32::from(scale));
        // castToIntegral: toward zero, then BigDecimal.longValue (low 64 bits).
        let integral = |x: i128| (x / divisor) as i64;
        let double = |x: i128| decimal_to_double(x, precision, scale);
        let out: ArrayRef = match self.to.root {
            R::TinyInt => Arc::new(v.unary::<_, Int8Type>(|x| integral(x) as i8)),
            R::SmallInt => Arc::new(v.unary::<_, Int16Type>(|x| integral(x) as i16)),
            R::Int => Arc::new(v.unary::<_, Int32Type>(|x| integral(x) as i32)),
            R::BigInt => Arc::new(v.unary::<_, Int64Type>(integral)),
            R::Float => Arc::new(v.unary::<_, Float32Type>(|x| double(x) as f32)),
            _ => Arc::new(v.unary::<_, Float64Type>(double)),
        };
        Ok(out)
    }
}

/// `DecimalUtils.doubleValue`: for a compact decimal (precision <= 18)
/// `(double) unscaled / 10^scale`; above, `BigDecimal.doubleValue()`
/// (correctly rounded).
fn decimal_to_double(v: i128, precision: u8, scale: u8) -> f64 {
    if precision <= 18 {
        return (v as i64) as f64 / pow10(u32::from(scale)) as f64;
    }
    if v.unsigned_abs() < (1u128 << 53) && scale <= 22 {
        // Both exact: one correctly rounded division.
        return v as f64 / 10f64.powi(i32::from(scale));
    }
    format!("{v}e-{scale}").parse().unwrap_or(f64::NAN)
}

// ---------------------------------------------------------------------------
// Java's Float / Double toString and parse.

/// `BinaryStringUtils.toInt` / `toLong` (and `toByte` / `toShort` by range):
/// a sign, digits, then optionally `.` and digits that are dropped; an empty
/// string, a lone sign, any other character, or a value outside
/// `min..=max` is an error.
fn java_parse_integer(s: &str, min: i64, max: i64) -> Result<i64, &'static str> {
    let bytes = s.as_bytes();
    let (negative, body) = match bytes.first() {
        None => return Err("empty"),
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        Some(_) => (false, bytes),
    };
    if body.is_empty() {
        return Err("only a sign");
    }
    let (int, fraction) = match body.iter().position(|&b| b == b'.') {
        Some(p) => (&body[..p], &body[p + 1..]),
        None => (body, &body[..0]),
    };
    if !int.iter().chain(fraction).all(u8::is_ascii_digit) {
        return Err("invalid character");
    }
    // Accumulate negatively, as Java does, so that MIN is reachable.
    let mut v: i64 = 0;
    for &b in int {
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_sub(i64::from(b - b'0')))
            .ok_or("overflow")?;
    }
    let v = if negative {
        v
    } else {
        v.checked_neg().ok_or("overflow")?
    };
    if v < min || v > max {
        return Err("overflow");
    }
    Ok(v)
}

/// The STRING to integer row loop: values in `min..=max`, narrowed by
/// `narrow`; rows that `nulls` marks null are the default.
struct IntegerRows<'n, N> {
    min: i64,
    max: i64,
    narrow: &'n N,
    nulls: Option<&'n NullBuffer>,
}

/// A block of 64 rows for [`digit_block`]: each row's first 8 bytes as a
/// little-endian word (any bytes past the row's end), and its length.
/// `block(base, words)` loaders fill one and say whether they could.
type DigitWords = ([u64; 64], [u64; 64]);

impl<N> IntegerRows<'_, N> {
    /// Each of `len` rows, in blocks of 64 where `block(base)` gives the
    /// block's words: the block's rows that are 1 to 8 digits in range are
    /// read by [`digit_block`], branch-free; any other row (a sign, more
    /// digits, a bad value), and every row of a block `block` does not
    /// give, by `plain(i)` (a sign and up to 18 digits, read in place)
    /// and then `slow` (Java's reading, which gives the error), in row
    /// order, so that an error names the first bad row as a row loop would.
    #[inline]
    fn run<T: Default + Copy>(
        &self,
        len: usize,
        mut block: impl FnMut(usize, &mut DigitWords) -> bool,
        plain: impl Fn(usize) -> Option<i64>,
        mut slow: impl FnMut(usize) -> Result<T, ArrowError>,
    ) -> Result<Vec<T>, ArrowError>
    where
        N: Fn(i64) -> T,
    {
        let mut out = Vec::with_capacity(len);
        let mut row = |i: usize| match plain(i) {
            Some(v) if v >= self.min && v <= self.max => Ok((self.narrow)(v)),
            _ => cold(&mut slow, i),
        };
        let mut valid_words = self.nulls.map(|n| n.inner().bit_chunks().iter());
        let mut words: DigitWords = ([0; 64], [0; 64]);
        let mut values = [0i64; 64];
        let mut base = 0;
        while base + 64 <= len && block(base, &mut words) {
            let valid = valid_words
                .as_mut()
                .map_or(u64::MAX, |words| words.next().unwrap_or(0));
            let ok = digit_block_dispatch(&words, self.max, &mut values);
            out.extend(values.iter().map(|&v| (self.narrow)(v)));
            // Null rows are the default; rows not read here, the row loop's.
            let mut rest = !ok | !valid;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out[base + j] = if valid >> j & 1 == 0 {
                    T::default()
                } else {
                    row(base + j)?
                };
            }
            base += 64;
        }
        for i in base..len {
            out.push(match self.nulls {
                Some(n) if n.is_null(i) => T::default(),
                _ => row(i)?,
            });
        }
        Ok(out)
    }

    /// [`run`](Self::run) over a Utf8 / LargeUtf8 column's offsets and
    /// values: a block's words are 8-byte loads at the rows' starts, for
    /// the blocks whose loads all stay inside `data` (a buffer without
    /// padding ends its last rows row by row).
    fn offsets<O: OffsetSizeTrait, T: Default + Copy>(
        &self,
        offsets: &[O],
        data: &[u8],
        slow: impl FnMut(usize) -> Result<T, ArrowError>,
    ) -> Result<Vec<T>, ArrowError>
    where
        N: Fn(i64) -> T,
    {
        self.run(
            offsets.len().saturating_sub(1),
            |base, words| {
                let w = offsets
                    .get(base..base + 65)
                    .and_then(|w| <&[O; 65]>::try_from(w).ok());
                match w {
                    Some(w) if w[64].as_usize() + 8 <= data.len() => {
                        offset_block(w, data, words);
                        true
                    }
                    _ => false,
                }
            },
            |i| plain_integer(data, offsets[i].as_usize(), offsets[i + 1].as_usize()),
            slow,
        )
    }
}

/// The words of 64 rows of offsets `w` into `data` (the caller checked
/// that every start is at least 8 bytes before its end).
#[inline]
fn offset_block<O: OffsetSizeTrait>(w: &[O; 65], data: &[u8], (words, lens): &mut DigitWords) {
    for j in 0..64 {
        let start = w[j].as_usize();
        words[j] = data
            .get(start..start + 8)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
        lens[j] = (w[j + 1] - w[j]).as_usize() as u64;
    }
}

/// The words of 64 views: a view's low 32 bits are its length, and the 8
/// bytes after them its first 8 bytes when it is inline (at most 12 bytes;
/// longer rows, which [`digit_block`] refuses anyway, hold a prefix and a
/// buffer index there).
#[inline]
fn view_block(views: &[u128; 64], (words, lens): &mut DigitWords) {
    for j in 0..64 {
        words[j] = (views[j] >> 32) as u64;
        lens[j] = u64::from(views[j] as u32);
    }
}

/// The rows of a block of 64 that are 1 to 8 ASCII digits with a value of
/// at most `max`: their values into `values` (0 for the others) and a bit
/// per row returned, by
/// [`eight_digits_or_zero`] on each row's word, with no branch and no
/// memory access but the arrays, which the compiler vectorises.
#[inline(always)]
fn digit_block((words, lens): &DigitWords, max: i64, values: &mut [i64; 64]) -> u64 {
    let mut oks = [0u64; 64];
    for j in 0..64 {
        let (v, good) = eight_digits_or_zero(words[j], lens[j]);
        let good = good & (v as i64 <= max);
        values[j] = if good { v as i64 } else { 0 };
        oks[j] = u64::from(good);
    }
    let mut ok = 0u64;
    for (j, &o) in oks.iter().enumerate() {
        ok |= o << j;
    }
    ok
}

/// [`eight_digits`] without a branch: the value of the first `len` bytes of
/// `word` and whether `len` is 1 to 8 and they are all ASCII digits (the
/// value is meaningless when not).
#[inline(always)]
fn eight_digits_or_zero(word: u64, len: u64) -> (u64, bool) {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    let fits = len.wrapping_sub(1) < 8;
    // The digits moved to the top `len` bytes; the bytes below are 0 and
    // read as leading zeros.
    let shift = 8 * (8 - len.clamp(1, 8));
    let x = word << shift;
    let zeros = ZEROS << shift;
    // Each digit byte is 0x30..=0x39: its high nibble is 3, and still 3
    // after adding 6 (0x3A.. would carry into it; a byte whose high nibble
    // is not 3 has failed already).
    let digits = (x & HIGH == zeros)
        & (x.wrapping_add(0x0606_0606_0606_0606 & (u64::MAX << shift)) & HIGH == zeros);
    (swar_value(x), fits & digits)
}

/// [`digit_block`], compiled for AVX2 where the CPU has it (4 rows to an
/// instruction).
#[inline]
fn digit_block_dispatch(words: &DigitWords, max: i64, values: &mut [i64; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { digit_block_avx2(words, max, values) };
    }
    digit_block(words, max, values)
}

/// [`digit_block`] compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn digit_block_avx2(words: &DigitWords, max: i64, values: &mut [i64; 64]) -> u64 {
    digit_block(words, max, values)
}

/// `f(i)`, kept out of the hot loop that calls it.
#[cold]
#[inline(never)]
fn cold<R, F: FnMut(usize) -> R + ?Sized>(f: &mut F, i: usize) -> R {
    f(i)
}

/// The value of `data[start..end]` when it is an optional sign and 1 to 18
/// ASCII digits (no overflow possible), as [`java_parse_integer`] reads
/// it; `None` for anything else. Up to 8 digits with 8 bytes of `data` from
/// their start are read as one word (the bytes past `end` are ignored).
#[inline]
fn plain_integer(data: &[u8], start: usize, end: usize) -> Option<i64> {
    let bytes = data.get(start..end)?;
    let (negative, skip) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let digits = &bytes[skip..];
    let len = digits.len();
    if len == 0 || len > 18 {
        return None;
    }
    let v = match data.get(start + skip..).and_then(|d| d.first_chunk::<8>()) {
        Some(word) if len <= 8 => eight_digits(u64::from_le_bytes(*word), len)?,
        _ => {
            let mut v: u64 = 0;
            let mut bad = false;
            for &b in digits {
                let d = b.wrapping_sub(b'0');
                bad |= d > 9;
                v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            }
            if bad {
                return None;
            }
            v
        }
    };
    // 18 digits stay below 10^18 < 2^63.
    let v = v as i64;
    Some(if negative { -v } else { v })
}

/// The value of the first `len` (1 to 8) bytes of `word` (little-endian)
/// when they are all ASCII digits, the first the most significant.
#[inline]
fn eight_digits(word: u64, len: usize) -> Option<u64> {
    let (v, digits) = eight_digits_or_zero(word, len as u64);
    digits.then_some(v)
}

/// The value of 8 digit bytes (`0x30..=0x39`, the first the most
/// significant; leading zero bytes read as zeros), by three
/// multiply-and-add steps on pairs, quads and halves.
#[inline(always)]
fn swar_value(x: u64) -> u64 {
    let x = x & 0x0F0F_0F0F_0F0F_0F0F;
    let x = (x.wrapping_mul(10) + (x >> 8)) & 0x00FF_00FF_00FF_00FF;
    let x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_FFFF_0000_FFFF;
    (x.wrapping_mul(10000) + (x >> 32)) & 0xFFFF_FFFF
}

/// A float type Java's `parseFloat` / `parseDouble` read.
trait ParseFloat: Sized + core::str::FromStr {
    const NAN: Self;
    const INFINITY: Self;
    fn neg(self) -> Self;
}

impl ParseFloat for f32 {
    const NAN: f32 = f32::NAN;
    const INFINITY: f32 = f32::INFINITY;
    fn neg(self) -> f32 {
        -self
    }
}

impl ParseFloat for f64 {
    const NAN: f64 = f64::NAN;
    const INFINITY: f64 = f64::INFINITY;
    fn neg(self) -> f64 {
        -self
    }
}

/// Java's `Double.parseDouble` / `Float.parseFloat` (decimal forms): trimmed
/// of characters up to U+0020, a sign, `NaN`, `Infinity`, or digits with an
/// optional `.`, exponent and `f` / `F` / `d` / `D` suffix.
fn java_parse_float<F: ParseFloat>(s: &str) -> Result<F, &'static str> {
    let t = s.trim_matches(|c: char| c <= ' ');
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let sign = |v: F| if negative { v.neg() } else { v };
    match body {
        "NaN" => return Ok(F::NAN),
        "Infinity" => return Ok(sign(F::INFINITY)),
        _ => {}
    }
    if body.starts_with("0x") || body.starts_with("0X") {
        return Err("hexadecimal floats are not supported by bitbytes yet");
    }
    let number = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    let b = number.as_bytes();
    let mut i = 0;
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac;
    }
    if int + frac == 0 {
        return Err("not a number");
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return Err("not a number");
        }
        i += exp;
    }
    if i != b.len() {
        return Err("not a number");
    }
    number.parse::<F>().map(sign).map_err(|_| "not a number")
}

// ---------------------------------------------------------------------------
// Dates, times and timestamps, as Paimon's DateTimeUtils.

/// Java's `(char) ('0' + digit)` for a digit in -9..=9 (negative years
/// print as Java prints them).
fn java_digit(out: &mut String, digit: i32) {
    out.push(char::from((i32::from(b'0') + digit) as u8));
}

fn int2(out: &mut String, i: i32) {
    java_digit(out, (i / 10) % 10);
    java_digit(out, i % 10);
}

fn int4(out: &mut String, i: i32) {
    java_digit(out, (i / 1000) % 10);
    java_digit(out, (i / 100) % 10);
    java_digit(out, (i / 10) % 10);
    java_digit(out, i % 10);
}

/// `DateTimeUtils.formatDate`: Java's julian arithmetic in `int`.
fn format_date(date: i32, out: &mut String) {
    let julian = date.wrapping_add(2_440_588);
    let j = julian.wrapping_add(32044);
    let g = j / 146_097;
    let dg = j % 146_097;
    let c = (dg / 36524 + 1) * 3 / 4;
    let dc = dg - c * 36524;
    let b = dc / 1461;
    let db = dc % 1461;
    let a = (db / 365 + 1) * 3 / 4;
    let da = db - a * 365;
    let y = g
        .wrapping_mul(400)
        .wrapping_add(c * 100)
        .wrapping_add(b * 4)
        .wrapping_add(a);
    let m = (da * 5 + 308) / 153 - 2;
    let d = da - (m + 4) * 153 / 5 + 122;
    let year = y.wrapping_sub(4800).wrapping_add((m + 2) / 12);
    let month = (m + 2) % 12 + 1;
    let day = d + 1;
    int4(out, year);
    out.push('-');
    int2(out, month);
    out.push('-');
    int2(out, day);
}

/// `DateTimeUtils.formatTimestampMillis(time, precision)`: a TIME.
fn format_time(time: i32, precision: u8, out: &mut String) {
    let mut time = time;
    if time < 0 {
        time = time.rem_euclid(MILLIS_PER_DAY as i32);
    }
    let h = time / 3_600_000;
    let time2 = time % 3_600_000;
    let m = time2 / 60_000;
    let time3 = time2 % 60_000;
    let s = time3 / 1000;
    let mut ms = time3 % 1000;
    int2(out, h);
    out.push(':');
    int2(out, m);
    out.push(':');
    int2(out, s);
    let mut precision = precision;
    if precision > 0 {
        out.push('.');
        while precision > 0 {
            java_digit(out, ms / 100);
            ms = (ms % 100) * 10;
            if ms == 0 {
                break;
            }
            precision -= 1;
        }
    }
}

/// `DateTimeUtils.formatTimestamp(ts, precision)`: `yyyy-MM-dd HH:mm:ss`
/// and the nanoseconds with trailing zeros cut down to `precision` digits.
fn format_timestamp(millis: i64, nanos_of_milli: i32, precision: u8, out: &mut String) {
    let days = millis.div_euclid(MILLIS_PER_DAY);
    let ms_of_day = millis.rem_euclid(MILLIS_PER_DAY);
    let (y, mo, d) = civil_from_days(days);
    int4(out, y as i32);
    out.push('-');
    int2(out, mo as i32);
    out.push('-');
    int2(out, d as i32);
    out.push(' ');
    let secs = ms_of_day / 1000;
    int2(out, (secs / 3600) as i32);
    out.push(':');
    int2(out, (secs / 60 % 60) as i32);
    out.push(':');
    int2(out, (secs % 60) as i32);
    let nano = (ms_of_day % 1000) * 1_000_000 + i64::from(nanos_of_milli);
    let mut fraction = format!("{nano:09}");
    while fraction.len() > usize::from(precision) && fraction.ends_with('0') {
        fraction.pop();
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(&fraction);
    }
}

/// Java's `String.trim()`.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// `isInteger(s)` then `Integer.parseInt(s)` of `DateTimeUtils`.
fn java_int(s: &str) -> Result<i32, &'static str> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a number");
    }
    s.parse().map_err(|_| "number out of range")
}

/// `StringUtils.isNumeric`: an optional `-` and digits (non-ASCII digits,
/// which Java counts, fail the parse after it either way).
fn is_numeric(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit())
}

/// `BinaryStringUtils.toDate`: digits are days since 1970-01-01, otherwise
/// `DateTimeUtils.parseDate`.
fn parse_date_cast(s: &str) -> Result<i32, &'static str> {
    if is_numeric(s) {
        return java_parse_integer(s, i32::MIN.into(), i32::MAX.into()).map(|v| v as i32);
    }
    parse_date(s).ok_or("not a DATE")
}

/// `DateTimeUtils.parseDate`: `y[-m[-d]]` (each trimmed), anything after a
/// space ignored, a valid date of year 0..=9999.
fn parse_date(s: &str) -> Option<i32> {
    let s = match s.find(' ') {
        Some(p) if p > 0 => &s[..p],
        _ => s,
    };
    let int = |t: &str| java_int(java_trim(t)).ok();
    let (y, m, d) = match s.find('-') {
        None => (int(s)?, 1, 1),
        Some(h1) => {
            let y = int(&s[..h1])?;
            match s[h1 + 1..].find('-') {
                None => (y, int(&s[h1 + 1..])?, 1),
                Some(h2) => {
                    let h2 = h1 + 1 + h2;
                    (y, int(&s[h1 + 1..h2])?, int(&s[h2 + 1..])?)
                }
            }
        }
    };
    if !(0..=9999).contains(&y) {
        return None;
    }
    days_from_civil(i64::from(y), i64::from(m), i64::from(d)).map(|days| days as i32)
}

/// `BinaryStringUtils.toTime`: digits are milliseconds, otherwise
/// `DateTimeUtils.parseTime`.
fn parse_time_cast(s: &str) -> Result<i32, &'static str> {
    if is_numeric(s) {
        return java_parse_integer(s, i32::MIN.into(), i32::MAX.into()).map(|v| v as i32);
    }
    parse_time(s).ok_or("not a TIME")
}

/// `DateTimeUtils.parseTime`, literally: `h[:m[:s[.fff]]]` with an optional
/// `-` / `+` zone offset `hh[:mm]` (the first `-`, else the first `+`), each
/// part trimmed; `int` arithmetic wraps as in Java.
fn parse_time(v: &str) -> Option<i32> {
    let int = |t: &str| java_int(java_trim(t)).ok();
    let colon1 = v.find(':');
    let mut operator = -1i32;
    let mut end = v.len();
    let mut timezone = v.find('-');
    if timezone.is_none() {
        timezone = v.find('+');
        operator = 1;
    }
    let (tz_hour, tz_minute) = match timezone {
        None => (0, 0),
        Some(tz) => {
            end = tz;
            match v[tz..].find(':').map(|c| tz + c) {
                None => (int(&v[tz + 1..])?, 0),
                Some(colon3) => (int(&v[tz + 1..colon3])?, int(&v[colon3 + 1..])?),
            }
        }
    };
    let (mut hour, mut minute, second, milli);
    match colon1 {
        None => {
            hour = int(v.get(..end)?)?;
            minute = 0;
            second = 0;
            milli = 0;
        }
        Some(colon1) => {
            hour = int(v.get(..colon1)?)?;
            match v[colon1 + 1..].find(':').map(|c| colon1 + 1 + c) {
                None => {
                    minute = int(v.get(colon1 + 1..end)?)?;
                    second = 0;
                    milli = 0;
                }
                Some(colon2) => {
                    minute = int(&v[colon1 + 1..colon2])?;
                    match v[colon2..].find('.').map(|d| colon2 + d) {
                        None => {
                            second = int(v.get(colon2 + 1..end)?)?;
                            milli = 0;
                        }
                        Some(dot) => {
                            second = int(&v[colon2 + 1..dot])?;
                            milli = parse_fraction(java_trim(v.get(dot + 1..end)?));
                        }
                    }
                }
            }
        }
    }
    hour = hour.wrapping_add(operator.wrapping_mul(tz_hour));
    minute = minute.wrapping_add(operator.wrapping_mul(tz_minute));
    Some(
        hour.wrapping_mul(3_600_000)
            .wrapping_add(minute.wrapping_mul(60_000))
            .wrapping_add(second.wrapping_mul(1000))
            .wrapping_add(milli),
    )
}

/// `DateTimeUtils.parseFraction`: three digits (a non-digit counts 0), then
/// +1 when the next UTF-16 unit is `'5'` or above.
fn parse_fraction(v: &str) -> i32 {
    let units: Vec<u16> = v.encode_utf16().collect();
    let mut multiplier = 100;
    let mut r = 0;
    for (i, &c) in units.iter().enumerate() {
        let x = if (u16::from(b'0')..=u16::from(b'9')).contains(&c) {
            i32::from(c - u16::from(b'0'))
        } else {
            0
        };
        r += multiplier * x;
        if multiplier < 10 {
            if units.get(i + 1).is_some_and(|&n| n >= u16::from(b'5')) {
                r += 1;
            }
            break;
        }
        multiplier /= 10;
    }
    r
}

/// `BinaryStringUtils.toTimestamp(s, precision)`: digits (with an optional
/// `-`) are an epoch count in units of the precision (0, 3, 6 or 9 only);
/// otherwise Paimon's timestamp formatter, with the nanoseconds floored to
/// `precision` digits. As Java's (millisecond, nano-of-millisecond).
fn parse_timestamp_cast(s: &str, precision: u8) -> Result<(i64, i32), &'static str> {
    if is_numeric(s) {
        let epoch = java_parse_integer(s, i64::MIN, i64::MAX)?;
        let (millis, nanos) = match precision {
            0 => (epoch.wrapping_mul(1000), 0),
            3 => (epoch, 0),
            6 => (epoch / 1000, (epoch % 1000) * 1000),
            9 => (epoch / 1_000_000, epoch % 1_000_000),
            _ => return Err("Paimon reads a number as a TIMESTAMP of precision 0, 3, 6 or 9 only"),
        };
        return Ok(if nanos < 0 {
            (millis - 1, (nanos + 1_000_000) as i32)
        } else {
            (millis, nanos as i32)
        });
    }
    let (days, nano_of_day) = parse_timestamp(s).ok_or("not a TIMESTAMP")?;
    let step = 10i64.pow(9 - u32::from(precision));
    let nano_of_second = nano_of_day % 1_000_000_000;
    let nano_of_day = nano_of_day - nano_of_second + nano_of_second / step * step;
    Ok((
        days * MILLIS_PER_DAY + nano_of_day / 1_000_000,
        (nano_of_day % 1_000_000) as i32,
    ))
}

/// Paimon's `DEFAULT_TIMESTAMP_FORMATTER` (`yyyy-[MM][M]-[dd][d]`, then
/// optionally ` HH:mm:ss[.f]` or `'T'HH:mm[:ss[.f]]`, one- or two-digit
/// fields) under Java's SMART resolver (a day past the month's end is the
/// last day; `24:00:00` is the next midnight). As (epoch day, nano of day).
fn parse_timestamp(s: &str) -> Option<(i64, i64)> {
    let mut p = Parser {
        b: s.as_bytes(),
        i: 0,
    };
    // yyyy: four digits (a longer year needs a sign in Java's strict parse).
    let year = p.fixed(4)?;
    if p.peek().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    p.expect(b'-')?;
    let month = p.field()?;
    p.expect(b'-')?;
    let day = p.field()?;
    let (mut hour, mut minute, mut second, mut nano) = (0, 0, 0, 0);
    let save = p.i;
    let space = (|| {
        p.expect(b' ')?;
        let h = p.field()?;
        p.expect(b':')?;
        let m = p.field()?;
        p.expect(b':')?;
        let s = p.field()?;
        Some((h, m, s, p.fraction()))
    })();
    match space {
        Some((h, m, sec, f)) => (hour, minute, second, nano) = (h, m, sec, f),
        None => {
            p.i = save;
            let t = (|| {
                p.expect(b'T')?;
                let h = p.field()?;
                p.expect(b':')?;
                let m = p.field()?;
                let save = p.i;
                let sec = (|| {
                    p.expect(b':')?;
                    let s = p.field()?;
                    Some((s, p.fraction()))
                })();
                let (sec, f) = sec.unwrap_or_else(|| {
                    p.i = save;
                    (0, 0)
                });
                Some((h, m, sec, f))
            })();
            match t {
                Some((h, m, sec, f)) => (hour, minute, second, nano) = (h, m, sec, f),
                None => p.i = save,
            }
        }
    }
    if p.i != p.b.len() {
        return None;
    }

    if year < 1 || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let day = day.min(days_in_month(year, month));
    if minute > 59 || second > 59 {
        return None;
    }
    let mut days = days_from_civil(year, month, day)?;
    if hour == 24 && minute == 0 && second == 0 && nano == 0 {
        hour = 0;
        days += 1;
    } else if hour > 23 {
        return None;
    }
    Some((
        days,
        ((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nano,
    ))
}

/// A cursor over ASCII bytes for [`parse_timestamp`].
struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// Exactly `n` digits.
    fn fixed(&mut self, n: usize) -> Option<i64> {
        let digits = self.b.get(self.i..self.i + n)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(digits.iter().fold(0, |v, d| v * 10 + i64::from(d - b'0')))
    }

    /// `[XX][X]`: an optional two-digit value, then an optional value of one
    /// or more digits (up to 19); at least one, and equal when both.
    fn field(&mut self) -> Option<i64> {
        let two = self.fixed(2);
        let start = self.i;
        let len = self.b[start..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let more = if len > 0 {
            let len = len.min(19);
            let text = core::str::from_utf8(&self.b[start..start + len]).ok()?;
            self.i += len;
            Some(text.parse::<i64>().ok()?)
        } else {
            None
        };
        match (two, more) {
            (Some(a), Some(b)) if a != b => None,
            (a, b) => a.or(b),
        }
    }

    /// `appendFraction(NANO_OF_SECOND, 0, 9, true)`: `.` and up to nine
    /// digits, as nanoseconds; 0 when absent.
    fn fraction(&mut self) -> i64 {
        if self.peek() != Some(b'.') {
            return 0;
        }
        self.i += 1;
        let mut nano = 0;
        let mut n = 0;
        while n < 9 {
            match self.peek() {
                Some(c) if c.is_ascii_digit() => {
                    nano = nano * 10 + i64::from(c - b'0');
                    self.i += 1;
                    n += 1;
                }
                _ => break,
            }
        }
        nano * 10i64.pow(9 - n)
    }
}

// ---------------------------------------------------------------------------
// Timestamps as Java's (millisecond, nano-of-millisecond).

/// Milliseconds of a TIME column, as Paimon keeps a time (floored).
fn time_millis(values: &dyn Array) -> Result<Vec<i32>, ArrowError> {
    Ok(match values.data_type() {
        DataType::Time32(TimeUnit::Second) => values
            .as_primitive::<Time32SecondType>()
            .values()
            .iter()
            .map(|s| s.wrapping_mul(1000))
            .collect(),
        DataType::Time32(_) => values
            .as_primitive::<Time32MillisecondType>()
            .values()
            .to_vec(),
        DataType::Time64(TimeUnit::Microsecond) => values
            .as_primitive::<Time64MicrosecondType>()
            .values()
            .iter()
            .map(|us| us.div_euclid(1000) as i32)
            .collect(),
        DataType::Time64(_) => values
            .as_primitive::<Time64NanosecondType>()
            .values()
            .iter()
            .map(|ns| ns.div_euclid(1_000_000) as i32)
            .collect(),
        t => {
            return Err(ArrowError::InvalidArgumentError(format!(
                "expected a TIME column, got {t}"
            )))
        }
    })
}

/// A timestamp column read as Java's `Timestamp` values.
struct JavaTimestamps<'a> {
    values: &'a [i64],
    unit: TimeUnit,
}

impl<'a> JavaTimestamps<'a> {
    fn new(values: &'a dyn Array) -> Result<JavaTimestamps<'a>, ArrowError> {
        let unit = match values.data_type() {
            DataType::Timestamp(unit, _) => *unit,
            t => {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "expected a TIMESTAMP column, got {t}"
                )))
            }
        };
        let values = match unit {
            TimeUnit::Second => values.as_primitive::<TimestampSecondType>().values(),
            TimeUnit::Millisecond => values.as_primitive::<TimestampMillisecondType>().values(),
            TimeUnit::Microsecond => values.as_primitive::<TimestampMicrosecondType>().values(),
            TimeUnit::Nanosecond => values.as_primitive::<TimestampNanosecondType>().values(),
        };
        Ok(JavaTimestamps { values, unit })
    }

    /// Row `i` as (millisecond, nano-of-millisecond); `Err(value)` when the
    /// seconds do not fit in milliseconds.
    fn get(&self, i: usize) -> Result<(i64, i32), i64> {
        let v = self.values[i];
        Ok(match self.unit {
            TimeUnit::Second => (v.checked_mul(1000).ok_or(v)?, 0),
            TimeUnit::Millisecond => (v, 0),
            TimeUnit::Microsecond => (v.div_euclid(1000), (v.rem_euclid(1000) * 1000) as i32),
            TimeUnit::Nanosecond => (v.div_euclid(1_000_000), v.rem_euclid(1_000_000) as i32),
        })
    }
}

/// `DateTimeUtils.truncate(ts, precision)`: unchanged when the nanoseconds
/// of the second have at most `precision` significant digits; otherwise
/// the epoch milliseconds cut toward zero (`precision <= 3`) or the
/// nanoseconds of the millisecond floored.
fn truncate(millis: i64, nanos: i32, precision: u8) -> (i64, i32) {
    let nano_of_second = millis.rem_euclid(1000) * 1_000_000 + i64::from(nanos);
    let mut significant = 9;
    let mut rest = nano_of_second;
    while significant > 0 && rest % 10 == 0 {
        rest /= 10;
        significant -= 1;
    }
    if significant <= precision {
        return (millis, nanos);
    }
    if precision <= 3 {
        let step = 10i64.pow(3 - u32::from(precision));
        ((millis / step) * step, 0)
    } else {
        let step = 10i32.pow(9 - u32::from(precision));
        (millis, (nanos / step) * step)
    }
}

impl Cx<'_> {
    /// A timestamp column cast to something else by `f(millis, nanos)`.
    fn timestamp_to<O: ArrowPrimitiveType>(
        &self,
        values: &dyn Array,
        f: impl Fn(i64, i32) -> O::Native,
    ) -> Result<ArrayRef, ArrowError> {
        let ts = JavaTimestamps::new(values)?;
        let out = Self::map_rows::<O>(values, |i| {
            let (ms, nanos) = ts
                .get(i)
                .map_err(|v| self.value_error(i, &v, "out of range"))?;
            Ok(Some(f(ms, nanos)))
        })?;
        Ok(Arc::new(out))
    }

    /// Rows as Java timestamps (millisecond, nano-of-millisecond) into the
    /// TIMESTAMP(p) column of the target.
    fn timestamps_out(
        &self,
        values: &dyn Array,
        mut get: impl FnMut(usize) -> Result<Option<(i64, i32)>, ArrowError>,
    ) -> Result<ArrayRef, ArrowError> {
        let R::Timestamp(precision) = self.to.root else {
            unreachable!("a TIMESTAMP target")
        };
        let unit = timestamp_unit(precision);
        let out = |i: usize, (ms, nanos): (i64, i32)| -> Result<i64, ArrowError> {
            let v = match unit {
                TimeUnit::Millisecond => Some(ms),
                TimeUnit::Microsecond => ms
                    .checked_mul(1000)
                    .and_then(|v| v.checked_add(i64::from(nanos / 1000))),
                _ => ms
                    .checked_mul(1_000_000)
                    .and_then(|v| v.checked_add(i64::from(nanos))),
            };
            v.ok_or_else(|| {
                let mut text = String::new();
                format_timestamp(ms, nanos, 9, &mut text);
                self.value_error(i, &text, "out of the range of the result's time unit")
            })
        };
        let mut rows = |i: usize| -> Result<Option<i64>, ArrowError> {
            get(i)?.map(|t| out(i, t)).transpose()
        };
        Ok(match unit {
            TimeUnit::Millisecond => Arc::new(Self::map_rows::<TimestampMillisecondType>(
                values, &mut rows,
            )?),
            TimeUnit::Microsecond => Arc::new(Self::map_rows::<TimestampMicrosecondType>(
                values, &mut rows,
            )?),
            _ => Arc::new(Self::map_rows::<TimestampNanosecondType>(
                values, &mut rows,
            )?),
        })
    }

    fn to_timestamp(&self, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
        let R::Timestamp(to_precision) = self.to.root else {
            unreachable!("a TIMESTAMP target")
        };
        match self.from.root {
            R::Timestamp(from_precision) => {
                let ts = JavaTimestamps::new(values)?;
                self.timestamps_out(values, |i| {
                    let t = ts
                        .get(i)
                        .map_err(|v| self.value_error(i, &v, "out of range"))?;
                    Ok(Some(if from_precision > to_precision {
                        truncate(t.0, t.1, to_precision)
                    } else {
                        t
                    }))
                })
            }
            R::Date => {
                let v = values.as_primitive::<Date32Type>();
                self.timestamps_out(values, |i| {
                    Ok(Some((i64::from(v.value(i)) * MILLIS_PER_DAY, 0)))
                })
            }
            R::Time(_) => {
                let millis = time_millis(values)?;
                self.timestamps_out(values, |i| Ok(Some((i64::from(millis[i]), 0))))
            }
            ref root => {
                let v = to_i64s(values, root)?;
                self.timestamps_out(values, |i| Ok(Some((v[i].wrapping_mul(1000), 0))))
            }
        }
    }
}

#[cfg(test)]
mod tests;
