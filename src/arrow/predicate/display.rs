//! `Display` for [`Predicate`] and [`Leaf`]: an SQL-like line for logs,
//! error messages and tests, such as
//! `city IN ('Oslo', 'Rome') AND (price < 50 OR name LIKE 'A%')`.
//!
//! Comparisons, IN, BETWEEN, LIKE and the null tests read as in SQL; IsNaN
//! and the three string functions, which SQL has no operator for, read as
//! calls: `is_nan(x)`, `starts_with(name, 'A')`; the array functions as
//! Paimon names them: `ARRAY_CONTAINS(tags, 'a')`,
//! `ARRAYS_OVERLAP(tags, ARRAY['a', 'b'])`; AlwaysTrue / AlwaysFalse as
//! `TRUE` / `FALSE`. Children of an And inside an
//! Or (and the other way round) are parenthesised; the top level is not. A
//! field name that is not a plain identifier is double-quoted. Literals:
//! strings single-quoted (a `'` doubled), binary as `X'0a1b'`, floats as Rust
//! prints them (`1.0`, `NaN`, `-inf`), dates and timestamps as `DATE '…'` /
//! `TIMESTAMP '…'`, decimals with their scale, a null literal as `NULL`.
//! This is a rendering, not a parser's input: nothing reads it back.

use core::fmt;

use arrow_array::cast::AsArray;
use arrow_array::temporal_conversions::{as_date, as_datetime, as_time};
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType};
use arrow_schema::{DataType, TimeUnit};

use super::{
    CompareOp, Function, Leaf, PositionInput, Predicate, Transform, TransformInput, TrimSide,
};
use std::vec;
use std::vec::Vec;

impl fmt::Display for Predicate {
    /// `a AND b AND c`, a compound child in parentheses. Written without
    /// recursion, so a tree of any depth prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        enum Item<'a> {
            Node(&'a Predicate),
            Text(&'static str),
        }
        let mut stack = vec![Item::Node(self)];
        while let Some(item) = stack.pop() {
            let (children, word) = match item {
                Item::Text(text) => {
                    f.write_str(text)?;
                    continue;
                }
                Item::Node(Predicate::Leaf(leaf)) => {
                    fmt::Display::fmt(leaf, f)?;
                    continue;
                }
                Item::Node(Predicate::And(children)) => (children, " AND "),
                Item::Node(Predicate::Or(children)) => (children, " OR "),
            };
            // Pushed last child first: popped in order.
            for (i, child) in children.iter().enumerate().rev() {
                if matches!(child, Predicate::Leaf(_)) {
                    stack.push(Item::Node(child));
                } else {
                    stack.extend([Item::Text(")"), Item::Node(child), Item::Text("(")]);
                }
                if i > 0 {
                    stack.push(Item::Text(word));
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Leaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = &self.transform;
        let lit = |i: usize| Literal(self.literals.as_ref(), i);
        let list = List(self.literals.as_ref());
        match self.function {
            Function::IsNull => write!(f, "{x} IS NULL"),
            Function::IsNotNull => write!(f, "{x} IS NOT NULL"),
            Function::IsNaN => write!(f, "is_nan({x})"),
            Function::Compare(op) => write!(f, "{x} {} {}", operator(op), lit(0)),
            Function::In => write!(f, "{x} IN ({list})"),
            Function::NotIn => write!(f, "{x} NOT IN ({list})"),
            Function::Between => write!(f, "{x} BETWEEN {} AND {}", lit(0), lit(1)),
            Function::NotBetween => write!(f, "{x} NOT BETWEEN {} AND {}", lit(0), lit(1)),
            Function::StartsWith => write!(f, "starts_with({x}, {})", lit(0)),
            Function::EndsWith => write!(f, "ends_with({x}, {})", lit(0)),
            Function::Contains => write!(f, "contains({x}, {})", lit(0)),
            Function::Like => write!(f, "{x} LIKE {}", lit(0)),
            Function::NotStartsWith => write!(f, "NOT starts_with({x}, {})", lit(0)),
            Function::NotEndsWith => write!(f, "NOT ends_with({x}, {})", lit(0)),
            Function::NotContains => write!(f, "NOT contains({x}, {})", lit(0)),
            Function::NotLike => write!(f, "{x} NOT LIKE {}", lit(0)),
            Function::AlwaysTrue => f.write_str("TRUE"),
            Function::AlwaysFalse => f.write_str("FALSE"),
            Function::ArrayContains => write!(f, "ARRAY_CONTAINS({x}, {})", lit(0)),
            Function::ArrayContainsAll => write!(f, "ARRAY_CONTAINS_ALL({x}, ARRAY[{list}])"),
            Function::ArraysOverlap => write!(f, "ARRAYS_OVERLAP({x}, ARRAY[{list}])"),
        }
    }
}

fn operator(op: CompareOp) -> &'static str {
    match op {
        CompareOp::Equal => "=",
        CompareOp::NotEqual => "<>",
        CompareOp::LessThan => "<",
        CompareOp::LessOrEqual => "<=",
        CompareOp::GreaterThan => ">",
        CompareOp::GreaterOrEqual => ">=",
    }
}

/// A field name, double-quoted (a `"` doubled) unless it is a plain
/// identifier.
struct Field<'a>(&'a str);

impl fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plain = self
            .0
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && self.0.chars().all(|c| c.is_alphanumeric() || c == '_');
        if plain {
            f.write_str(self.0)
        } else {
            write!(f, "\"{}\"", self.0.replace('"', "\"\""))
        }
    }
}

/// A transform as SQL writes it: a field as its name, `CAST(x AS BIGINT)`,
/// `UPPER(x)`, `CONCAT(a, '-', b)`, `CONCAT_WS('-', a, b)`,
/// `SUBSTRING(x, 2, 3)`, `TRIM(BOTH ' ' FROM x)`, `NULL`.
impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, inputs: &[&TransformInput]| -> fmt::Result {
            for (i, input) in inputs.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{input}")?;
            }
            Ok(())
        };
        match self {
            Transform::Field(field) => write!(f, "{}", Field(&field.name)),
            Transform::Cast { field, to } => write!(f, "CAST({} AS {to})", Field(&field.name)),
            Transform::Upper(input) => write!(f, "UPPER({input})"),
            Transform::Lower(input) => write!(f, "LOWER({input})"),
            Transform::Concat(inputs) => {
                f.write_str("CONCAT(")?;
                list(f, &inputs.iter().collect::<Vec<_>>())?;
                f.write_str(")")
            }
            Transform::ConcatWs { separator, inputs } => {
                f.write_str("CONCAT_WS(")?;
                list(
                    f,
                    &core::iter::once(separator)
                        .chain(inputs)
                        .collect::<Vec<_>>(),
                )?;
                f.write_str(")")
            }
            Transform::Substring { input, pos, len } => {
                write!(f, "SUBSTRING({input}, {pos}")?;
                if let Some(len) = len {
                    write!(f, ", {len}")?;
                }
                f.write_str(")")
            }
            Transform::Trim { input, chars, side } => {
                let side = match side {
                    TrimSide::Both => "BOTH",
                    TrimSide::Leading => "LEADING",
                    TrimSide::Trailing => "TRAILING",
                };
                match chars {
                    Some(chars) => write!(f, "TRIM({side} {chars} FROM {input})"),
                    None => write!(f, "TRIM({side} FROM {input})"),
                }
            }
            Transform::Null => f.write_str("NULL"),
        }
    }
}

impl fmt::Display for TransformInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransformInput::Field(field) => write!(f, "{}", Field(&field.name)),
            TransformInput::Literal(Some(s)) => text(f, s),
            TransformInput::Literal(None) => f.write_str("NULL"),
        }
    }
}

impl fmt::Display for PositionInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionInput::Field(field) => write!(f, "{}", Field(&field.name)),
            PositionInput::Literal(Some(n)) => write!(f, "{n}"),
            PositionInput::Literal(None) => f.write_str("NULL"),
        }
    }
}

/// Every literal, comma-separated.
struct List<'a>(&'a dyn Array);

impl fmt::Display for List<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.0.len() {
            if i > 0 {
                f.write_str(", ")?;
            }
            fmt::Display::fmt(&Literal(self.0, i), f)?;
        }
        Ok(())
    }
}

/// Literal `i` of an array (`<missing>` past its end: a leaf built by hand
/// with too few literals still displays).
struct Literal<'a>(&'a dyn Array, usize);

impl fmt::Display for Literal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Literal(a, i) = *self;
        if i >= a.len() {
            return f.write_str("<missing>");
        }
        // Logical nulls: a NullArray has no null buffer, yet every slot is
        // null.
        if a.logical_nulls().is_some_and(|n| n.is_null(i)) {
            return f.write_str("NULL");
        }
        macro_rules! prim {
            ($t:ty) => {
                write!(f, "{}", a.as_primitive::<$t>().value(i))
            };
        }
        macro_rules! float {
            ($t:ty) => {
                write!(f, "{:?}", a.as_primitive::<$t>().value(i))
            };
        }
        match a.data_type() {
            DataType::Boolean => write!(f, "{}", a.as_boolean().value(i)),
            DataType::Int8 => prim!(Int8Type),
            DataType::Int16 => prim!(Int16Type),
            DataType::Int32 => prim!(Int32Type),
            DataType::Int64 => prim!(Int64Type),
            DataType::UInt8 => prim!(UInt8Type),
            DataType::UInt16 => prim!(UInt16Type),
            DataType::UInt32 => prim!(UInt32Type),
            DataType::UInt64 => prim!(UInt64Type),
            DataType::Float16 => float!(Float16Type),
            DataType::Float32 => float!(Float32Type),
            DataType::Float64 => float!(Float64Type),
            DataType::Utf8 => text(f, a.as_string::<i32>().value(i)),
            DataType::LargeUtf8 => text(f, a.as_string::<i64>().value(i)),
            DataType::Utf8View => text(f, a.as_string_view().value(i)),
            DataType::Binary => hex(f, a.as_binary::<i32>().value(i)),
            DataType::LargeBinary => hex(f, a.as_binary::<i64>().value(i)),
            DataType::BinaryView => hex(f, a.as_binary_view().value(i)),
            DataType::FixedSizeBinary(_) => hex(f, a.as_fixed_size_binary().value(i)),
            DataType::Decimal32(_, s) => decimal::<Decimal32Type>(f, a, i, *s),
            DataType::Decimal64(_, s) => decimal::<Decimal64Type>(f, a, i, *s),
            DataType::Decimal128(_, s) => decimal::<Decimal128Type>(f, a, i, *s),
            DataType::Decimal256(_, s) => decimal::<Decimal256Type>(f, a, i, *s),
            DataType::Date32 => date::<Date32Type>(f, (a, i), i64::from),
            DataType::Date64 => date::<Date64Type>(f, (a, i), i64::from),
            DataType::Time32(TimeUnit::Second) => time::<Time32SecondType>(f, (a, i), i64::from),
            DataType::Time32(_) => time::<Time32MillisecondType>(f, (a, i), i64::from),
            DataType::Time64(TimeUnit::Microsecond) => {
                time::<Time64MicrosecondType>(f, (a, i), i64::from)
            }
            DataType::Time64(_) => time::<Time64NanosecondType>(f, (a, i), i64::from),
            DataType::Timestamp(unit, _) => match unit {
                TimeUnit::Second => timestamp::<TimestampSecondType>(f, (a, i)),
                TimeUnit::Millisecond => timestamp::<TimestampMillisecondType>(f, (a, i)),
                TimeUnit::Microsecond => timestamp::<TimestampMicrosecondType>(f, (a, i)),
                TimeUnit::Nanosecond => timestamp::<TimestampNanosecondType>(f, (a, i)),
            },
            DataType::Dictionary(_, _) => {
                let dict = a.as_any_dictionary();
                let key = dict.normalized_keys()[i];
                fmt::Display::fmt(&Literal(dict.values().as_ref(), key), f)
            }
            other => write!(f, "<{other} literal>"),
        }
    }
}

/// `'text'`, a `'` doubled.
fn text(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    write!(f, "'{}'", s.replace('\'', "''"))
}

/// `X'0a1b'`.
fn hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    f.write_str("X'")?;
    for b in bytes {
        write!(f, "{b:02x}")?;
    }
    f.write_str("'")
}

fn decimal<T: DecimalType>(
    f: &mut fmt::Formatter<'_>,
    a: &dyn Array,
    i: usize,
    scale: i8,
) -> fmt::Result {
    let v = a.as_primitive::<T>().value(i);
    f.write_str(&T::format_decimal(v, T::MAX_PRECISION, scale))
}

/// A date, time or timestamp: `KIND '<value>'` through arrow-array's
/// conversion of the native value (widened to `i64`).
fn temporal<T: ArrowPrimitiveType, V: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    (a, i): (&dyn Array, usize),
    kind: &str,
    wide: fn(T::Native) -> i64,
    convert: fn(i64) -> Option<V>,
) -> fmt::Result {
    let v = wide(a.as_primitive::<T>().value(i));
    match convert(v) {
        Some(t) => write!(f, "{kind} '{t}'"),
        None => write!(f, "<{kind} {v} out of range>"),
    }
}

fn date<T: ArrowPrimitiveType>(
    f: &mut fmt::Formatter<'_>,
    at: (&dyn Array, usize),
    wide: fn(T::Native) -> i64,
) -> fmt::Result {
    temporal::<T, _>(f, at, "DATE", wide, as_date::<T>)
}

fn time<T: ArrowPrimitiveType>(
    f: &mut fmt::Formatter<'_>,
    at: (&dyn Array, usize),
    wide: fn(T::Native) -> i64,
) -> fmt::Result {
    temporal::<T, _>(f, at, "TIME", wide, as_time::<T>)
}

fn timestamp<T: ArrowPrimitiveType<Native = i64>>(
    f: &mut fmt::Formatter<'_>,
    at: (&dyn Array, usize),
) -> fmt::Result {
    temporal::<T, _>(f, at, "TIMESTAMP", |v| v, as_datetime::<T>)
}
