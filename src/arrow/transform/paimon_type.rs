//! [`PaimonType`]: a Paimon logical type, as Paimon writes it.
//!
//! Paimon's predicate JSON names the type of every field reference and CAST
//! target (`"INT"`, `"VARCHAR(5)"`, `"DECIMAL(38, 10)"`). An Arrow type alone
//! cannot say them back (Utf8 is `STRING`, `VARCHAR(5)` and `CHAR(3)` alike),
//! and CAST needs them: a cast to `VARCHAR(n)` truncates and one to `CHAR(n)`
//! pads. So a field reference and a CAST keep the Paimon type they were
//! given.

use arrow_schema::{ArrowError, DataType};
use core::fmt;
use core::str::FromStr;
use std::boxed::Box;
use std::format;
use std::string::ToString;

/// A Paimon logical type: its root, its parameters and its nullability.
///
/// `Display` writes Paimon's serialisable form (Java's `asSQLString`):
/// `INT`, `DECIMAL(10, 2)`, `VARCHAR(5)`, `STRING` (a `VARCHAR` of the
/// maximum length), `BYTES`, `TIMESTAMP(6) WITH LOCAL TIME ZONE`,
/// `ARRAY<INT>`, each followed by ` NOT NULL` when not nullable. `FromStr`
/// reads those forms (case-insensitive, as Paimon's parser), plus
/// `INTEGER`, `TIMESTAMP_LTZ(p)`, and the defaults of omitted parameters
/// (`DECIMAL` is `DECIMAL(10, 0)`, `TIMESTAMP` is `TIMESTAMP(6)`, `TIME` is
/// `TIME(0)`, `CHAR` / `BINARY` are length 1).
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::{PaimonType, PaimonTypeRoot};
///
/// let t: PaimonType = "varchar(5) not null".parse()?;
/// assert_eq!(t.root, PaimonTypeRoot::VarChar(5));
/// assert!(!t.nullable);
/// assert_eq!(t.to_string(), "VARCHAR(5) NOT NULL");
/// assert_eq!("DECIMAL(38,10)".parse::<PaimonType>()?.to_string(), "DECIMAL(38, 10)");
/// assert_eq!(PaimonType::new(PaimonTypeRoot::VarChar(i32::MAX as u32)).to_string(), "STRING");
/// assert!("MAP<INT, INT>".parse::<PaimonType>().is_err());
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PaimonType {
    /// The type without its nullability.
    pub root: PaimonTypeRoot,
    /// Whether the type admits nulls (Paimon's default: `true`).
    pub nullable: bool,
}

/// The root of a [`PaimonType`], with its parameters. Only the types this
/// crate evaluates are here (no MAP, ROW, MULTISET, VARIANT, BLOB).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PaimonTypeRoot {
    /// `BOOLEAN`.
    Boolean,
    /// `TINYINT` (8-bit).
    TinyInt,
    /// `SMALLINT` (16-bit).
    SmallInt,
    /// `INT` (32-bit).
    Int,
    /// `BIGINT` (64-bit).
    BigInt,
    /// `FLOAT` (32-bit).
    Float,
    /// `DOUBLE` (64-bit).
    Double,
    /// `DECIMAL(precision, scale)`.
    Decimal {
        /// Digits in all, 1..=38.
        precision: u8,
        /// Digits after the point, 0..=precision.
        scale: u8,
    },
    /// `CHAR(n)`: fixed length, padded with spaces.
    Char(u32),
    /// `VARCHAR(n)`; `STRING` is `VARCHAR(2147483647)`.
    VarChar(u32),
    /// `BINARY(n)`: fixed length.
    Binary(u32),
    /// `VARBINARY(n)`; `BYTES` is `VARBINARY(2147483647)`.
    VarBinary(u32),
    /// `DATE`.
    Date,
    /// `TIME(p)`, precision 0..=9.
    Time(u8),
    /// `TIMESTAMP(p)`, precision 0..=9, without time zone.
    Timestamp(u8),
    /// `TIMESTAMP(p) WITH LOCAL TIME ZONE` (`TIMESTAMP_LTZ(p)`).
    TimestampLtz(u8),
    /// `ARRAY<element>`.
    Array(Box<PaimonType>),
}

/// The largest length of CHAR, VARCHAR, BINARY and VARBINARY; `VARCHAR` of
/// this length is written `STRING`, `VARBINARY` of it `BYTES`.
pub const PAIMON_MAX_LENGTH: u32 = i32::MAX as u32;

impl PaimonType {
    /// A nullable type of `root`.
    pub fn new(root: PaimonTypeRoot) -> PaimonType {
        PaimonType {
            root,
            nullable: true,
        }
    }

    /// The same type, not nullable.
    pub fn not_null(self) -> PaimonType {
        PaimonType {
            nullable: false,
            ..self
        }
    }

    /// `STRING`: `VARCHAR(2147483647)`.
    pub fn string() -> PaimonType {
        PaimonType::new(PaimonTypeRoot::VarChar(PAIMON_MAX_LENGTH))
    }

    /// The Paimon type Paimon itself would give a column of `data_type`
    /// (`STRING` for every string layout, `BYTES` for every binary one
    /// except `FixedSizeBinary(n)`, which is `BINARY(n)`; a dictionary or
    /// run-end column has the type of its values), nullable as given. An
    /// error names a type with no Paimon counterpart here.
    ///
    /// # Examples
    ///
    /// ```
    /// use arrow_schema::{DataType, TimeUnit};
    /// use bitbytes::arrow::PaimonType;
    ///
    /// let t = PaimonType::from_arrow(&DataType::Timestamp(TimeUnit::Millisecond, None), true)?;
    /// assert_eq!(t.to_string(), "TIMESTAMP(3)");
    /// assert_eq!(PaimonType::from_arrow(&DataType::Utf8View, false)?.to_string(), "STRING NOT NULL");
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn from_arrow(data_type: &DataType, nullable: bool) -> Result<PaimonType, ArrowError> {
        use arrow_schema::TimeUnit;
        use PaimonTypeRoot as R;
        let precision = |unit: &TimeUnit| match unit {
            TimeUnit::Second => 0,
            TimeUnit::Millisecond => 3,
            TimeUnit::Microsecond => 6,
            TimeUnit::Nanosecond => 9,
        };
        let root = match data_type {
            DataType::Boolean => R::Boolean,
            DataType::Int8 => R::TinyInt,
            DataType::Int16 => R::SmallInt,
            DataType::Int32 => R::Int,
            DataType::Int64 => R::BigInt,
            DataType::Float32 => R::Float,
            DataType::Float64 => R::Double,
            DataType::Decimal128(p, s) if (0..=*p as i8).contains(s) => R::Decimal {
                precision: *p,
                scale: *s as u8,
            },
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                R::VarChar(PAIMON_MAX_LENGTH)
            }
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
                R::VarBinary(PAIMON_MAX_LENGTH)
            }
            DataType::FixedSizeBinary(n) if *n > 0 => R::Binary(*n as u32),
            DataType::Date32 => R::Date,
            DataType::Time32(unit) | DataType::Time64(unit) => R::Time(precision(unit)),
            DataType::Timestamp(unit, None) => R::Timestamp(precision(unit)),
            DataType::Timestamp(unit, Some(_)) => R::TimestampLtz(precision(unit)),
            DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => R::Array(
                Box::new(PaimonType::from_arrow(f.data_type(), f.is_nullable())?),
            ),
            DataType::Dictionary(_, values) => return PaimonType::from_arrow(values, nullable),
            DataType::RunEndEncoded(_, values) => {
                return PaimonType::from_arrow(values.data_type(), nullable)
            }
            other => {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "Arrow type {other} has no Paimon type here"
                )))
            }
        };
        Ok(PaimonType { root, nullable })
    }

    /// Whether a column of Arrow type `data_type` can hold values of this
    /// type, by the table of the crate's contract (the Arrow side of a
    /// dictionary or run-end column is its values' type; nullability is not
    /// checked).
    ///
    /// | Paimon | Arrow |
    /// |---|---|
    /// | BOOLEAN, TINYINT .. BIGINT, FLOAT, DOUBLE | Boolean, Int8 .. Int64, Float32, Float64 |
    /// | CHAR(n), VARCHAR(n), STRING | Utf8, LargeUtf8, Utf8View |
    /// | BINARY(n), VARBINARY(n), BYTES | Binary, LargeBinary, BinaryView, FixedSizeBinary(n) |
    /// | DECIMAL(p, s) | Decimal128(p, s) |
    /// | DATE / TIME(p) / TIMESTAMP(p) / TIMESTAMP_LTZ(p) | Date32 / Time32, Time64 / Timestamp(unit, None) / Timestamp(unit, Some(tz)) |
    /// | `ARRAY<T>` | List, LargeList, FixedSizeList of a T column |
    ///
    /// # Examples
    ///
    /// ```
    /// use arrow_schema::DataType;
    /// use bitbytes::arrow::PaimonType;
    ///
    /// let t: PaimonType = "VARCHAR(5)".parse()?;
    /// assert!(t.matches_arrow(&DataType::Utf8View));
    /// assert!(!t.matches_arrow(&DataType::Int32));
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn matches_arrow(&self, data_type: &DataType) -> bool {
        use PaimonTypeRoot as R;
        match data_type {
            DataType::Dictionary(_, values) => return self.matches_arrow(values),
            DataType::RunEndEncoded(_, values) => return self.matches_arrow(values.data_type()),
            _ => {}
        }
        match (&self.root, data_type) {
            (R::Boolean, DataType::Boolean)
            | (R::TinyInt, DataType::Int8)
            | (R::SmallInt, DataType::Int16)
            | (R::Int, DataType::Int32)
            | (R::BigInt, DataType::Int64)
            | (R::Float, DataType::Float32)
            | (R::Double, DataType::Float64)
            | (R::Date, DataType::Date32)
            | (R::Time(_), DataType::Time32(_) | DataType::Time64(_))
            | (R::Timestamp(_), DataType::Timestamp(_, None))
            | (R::TimestampLtz(_), DataType::Timestamp(_, Some(_))) => true,
            (R::Char(_) | R::VarChar(_), t) => {
                matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
            }
            (R::Binary(_) | R::VarBinary(_), t) => matches!(
                t,
                DataType::Binary
                    | DataType::LargeBinary
                    | DataType::BinaryView
                    | DataType::FixedSizeBinary(_)
            ),
            (R::Decimal { precision, scale }, DataType::Decimal128(p, s)) => {
                p == precision && *s == *scale as i8
            }
            (
                R::Array(element),
                DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _),
            ) => element.matches_arrow(f.data_type()),
            _ => false,
        }
    }
}

impl fmt::Display for PaimonType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PaimonTypeRoot as R;
        match &self.root {
            R::Boolean => f.write_str("BOOLEAN")?,
            R::TinyInt => f.write_str("TINYINT")?,
            R::SmallInt => f.write_str("SMALLINT")?,
            R::Int => f.write_str("INT")?,
            R::BigInt => f.write_str("BIGINT")?,
            R::Float => f.write_str("FLOAT")?,
            R::Double => f.write_str("DOUBLE")?,
            R::Decimal { precision, scale } => write!(f, "DECIMAL({precision}, {scale})")?,
            R::Char(n) => write!(f, "CHAR({n})")?,
            R::VarChar(PAIMON_MAX_LENGTH) => f.write_str("STRING")?,
            R::VarChar(n) => write!(f, "VARCHAR({n})")?,
            R::Binary(n) => write!(f, "BINARY({n})")?,
            R::VarBinary(PAIMON_MAX_LENGTH) => f.write_str("BYTES")?,
            R::VarBinary(n) => write!(f, "VARBINARY({n})")?,
            R::Date => f.write_str("DATE")?,
            R::Time(p) => write!(f, "TIME({p})")?,
            R::Timestamp(p) => write!(f, "TIMESTAMP({p})")?,
            R::TimestampLtz(p) => write!(f, "TIMESTAMP({p}) WITH LOCAL TIME ZONE")?,
            R::Array(element) => write!(f, "ARRAY<{element}>")?,
        }
        if !self.nullable {
            f.write_str(" NOT NULL")?;
        }
        Ok(())
    }
}

/// The most `ARRAY<…>` levels a type may nest (a type string of a million
/// levels would otherwise recurse as deep, one copy of the rest a level).
const MAX_ARRAY_DEPTH: usize = 64;

impl FromStr for PaimonType {
    type Err = ArrowError;

    fn from_str(text: &str) -> Result<PaimonType, ArrowError> {
        parse_type(text, 0)
    }
}

/// [`PaimonType::from_str`] at `depth` `ARRAY` levels down.
fn parse_type(text: &str, depth: usize) -> Result<PaimonType, ArrowError> {
    let bad = |why: &str| {
        ArrowError::InvalidArgumentError(format!("invalid Paimon type \"{text}\": {why}"))
    };
    let upper = text.trim().to_ascii_uppercase();
    let (body, nullable) = match upper.strip_suffix("NOT NULL") {
        Some(rest) => (rest.trim_end(), false),
        None => (
            upper.strip_suffix(" NULL").unwrap_or(&upper).trim_end(),
            true,
        ),
    };
    // ARRAY<...>: the element is parsed recursively.
    if let Some(inner) = body.strip_prefix("ARRAY") {
        let inner = inner.trim_start();
        let element = inner
            .strip_prefix('<')
            .and_then(|s| s.strip_suffix('>'))
            .ok_or_else(|| bad("ARRAY needs <element type>"))?;
        if depth >= MAX_ARRAY_DEPTH {
            return Err(bad(&format!(
                "ARRAY nested deeper than {MAX_ARRAY_DEPTH} levels"
            )));
        }
        let element = parse_type(element, depth + 1)?;
        return Ok(PaimonType {
            root: PaimonTypeRoot::Array(Box::new(element)),
            nullable,
        });
    }
    let (name, args) = match body.find('(') {
        Some(open) => {
            let close = body
                .rfind(')')
                .filter(|&c| c > open)
                .ok_or_else(|| bad("unclosed parenthesis"))?;
            let tail = body[close + 1..].trim();
            let name = body[..open].trim().to_string();
            let name = if tail.is_empty() {
                name
            } else {
                format!("{name} {tail}")
            };
            (name, Some(&body[open + 1..close]))
        }
        None => (body.to_string(), None),
    };
    // Java's type parser reads keywords as tokens: any run of spaces
    // separates `DOUBLE PRECISION` or `TIMESTAMP WITH LOCAL TIME ZONE`.
    let name = name
        .split_whitespace()
        .collect::<std::vec::Vec<_>>()
        .join(" ");
    let numbers = |args: Option<&str>| -> Result<std::vec::Vec<u32>, ArrowError> {
        match args {
            None => Ok(std::vec::Vec::new()),
            Some(a) => a
                .split(',')
                .map(|n| {
                    n.trim()
                        .parse::<u32>()
                        .map_err(|_| bad("parameters must be non-negative integers"))
                })
                .collect(),
        }
    };
    let args = numbers(args)?;
    let one = |default: u32| -> Result<u32, ArrowError> {
        match args.as_slice() {
            [] => Ok(default),
            [n] => Ok(*n),
            _ => Err(bad("expected one parameter")),
        }
    };
    let none = || -> Result<(), ArrowError> {
        if args.is_empty() {
            Ok(())
        } else {
            Err(bad("this type takes no parameter"))
        }
    };
    let length = |default: u32| -> Result<u32, ArrowError> {
        let n = one(default)?;
        if (1..=PAIMON_MAX_LENGTH).contains(&n) {
            Ok(n)
        } else {
            Err(bad("length must be in 1..=2147483647"))
        }
    };
    let precision = |default: u32| -> Result<u8, ArrowError> {
        let p = one(default)?;
        if p <= 9 {
            Ok(p as u8)
        } else {
            Err(bad("time precision must be in 0..=9"))
        }
    };
    use PaimonTypeRoot as R;
    let root = match name.as_str() {
        "BOOLEAN" => none().map(|_| R::Boolean)?,
        "TINYINT" => none().map(|_| R::TinyInt)?,
        "SMALLINT" => none().map(|_| R::SmallInt)?,
        "INT" | "INTEGER" => none().map(|_| R::Int)?,
        "BIGINT" => none().map(|_| R::BigInt)?,
        "FLOAT" => none().map(|_| R::Float)?,
        "DOUBLE" | "DOUBLE PRECISION" => none().map(|_| R::Double)?,
        "DECIMAL" | "NUMERIC" | "DEC" => {
            let (precision, scale) = match args.as_slice() {
                [] => (10, 0),
                [p] => (*p, 0),
                [p, s] => (*p, *s),
                _ => return Err(bad("DECIMAL takes (precision, scale)")),
            };
            if !(1..=38).contains(&precision) || scale > precision {
                return Err(bad(
                    "DECIMAL needs 1 <= precision <= 38, 0 <= scale <= precision",
                ));
            }
            R::Decimal {
                precision: precision as u8,
                scale: scale as u8,
            }
        }
        "CHAR" => R::Char(length(1)?),
        "VARCHAR" => R::VarChar(length(1)?),
        "STRING" => none().map(|_| R::VarChar(PAIMON_MAX_LENGTH))?,
        "BINARY" => R::Binary(length(1)?),
        "VARBINARY" => R::VarBinary(length(1)?),
        "BYTES" => none().map(|_| R::VarBinary(PAIMON_MAX_LENGTH))?,
        "DATE" => none().map(|_| R::Date)?,
        "TIME" | "TIME WITHOUT TIME ZONE" => R::Time(precision(0)?),
        "TIMESTAMP" | "TIMESTAMP WITHOUT TIME ZONE" => R::Timestamp(precision(6)?),
        "TIMESTAMP WITH LOCAL TIME ZONE" | "TIMESTAMP_LTZ" => R::TimestampLtz(precision(6)?),
        _ => return Err(bad("unknown or unsupported type")),
    };
    Ok(PaimonType { root, nullable })
}
