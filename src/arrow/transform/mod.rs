//! [`Transform`]: what a predicate leaf reads from a row, as Paimon's
//! `Transform` (paimon-common, package `org.apache.paimon.predicate`).
//!
//! A leaf reads a transform of the row, not only a field:
//! `UPPER(name) LIKE 'AB%'`, `CAST(i AS BIGINT) > 10`,
//! `CONCAT(a, '-', b) = 'x-y'`. [`Transform::Field`] is the plain column;
//! the others compute a new column from one or more columns of the batch,
//! and the leaf function runs on it as on any column. A null result is a
//! null row: the leaf selects nothing there (except IsNull).

pub(crate) mod cast;
pub(crate) mod eval;
mod paimon_type;

pub use paimon_type::{PaimonType, PaimonTypeRoot, PAIMON_MAX_LENGTH};

use arrow_schema::ArrowError;
use std::format;
use std::string::String;
use std::vec::Vec;

/// A reference to a column of the batch, by name, as Paimon's `FieldRef`.
///
/// Paimon's JSON also gives the field's index and type. The index is not
/// kept: a field is resolved by name in the batch's schema, as Java rebinds
/// it. The type is kept when one was given ([`paimon_type`]), so that the
/// predicate writes back the type string it read (`VARCHAR(5)`, not
/// `STRING`), and is checked against the column's Arrow type.
///
/// [`paimon_type`]: FieldRef::paimon_type
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::FieldRef;
///
/// let f = FieldRef::from("city");
/// assert_eq!(f.name, "city");
/// assert_eq!(f.paimon_type, None);
/// let typed = FieldRef::typed("city", "VARCHAR(20)".parse()?);
/// assert_eq!(typed.paimon_type.unwrap().to_string(), "VARCHAR(20)");
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldRef {
    /// The column's name in the batch.
    pub name: String,
    /// The Paimon type the reference was given, if any; when `None`, the
    /// type Paimon gives the column's Arrow type
    /// ([`PaimonType::from_arrow`]) is used.
    pub paimon_type: Option<PaimonType>,
}

impl FieldRef {
    /// A reference to `name` with its Paimon type.
    pub fn typed(name: impl Into<String>, paimon_type: PaimonType) -> FieldRef {
        FieldRef {
            name: name.into(),
            paimon_type: Some(paimon_type),
        }
    }
}

impl From<&str> for FieldRef {
    fn from(name: &str) -> FieldRef {
        FieldRef {
            name: name.into(),
            paimon_type: None,
        }
    }
}

impl From<String> for FieldRef {
    fn from(name: String) -> FieldRef {
        FieldRef {
            name,
            paimon_type: None,
        }
    }
}

/// One input of a string transform (UPPER, LOWER, CONCAT, CONCAT_WS,
/// SUBSTRING, TRIM), as Paimon's `StringTransform` takes them: a string
/// column, a string literal, or null.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TransformInput {
    /// A string column.
    Field(FieldRef),
    /// A string literal, or `None` for a null literal.
    Literal(Option<String>),
}

impl TransformInput {
    /// A string literal input.
    pub fn literal(value: impl Into<String>) -> TransformInput {
        TransformInput::Literal(Some(value.into()))
    }

    /// A column input, by name.
    pub fn field(name: impl Into<String>) -> TransformInput {
        TransformInput::Field(FieldRef::from(name.into()))
    }
}

/// A SUBSTRING position or length: an integer column, an integer literal,
/// or null (which makes the result null), as Paimon's `SubstringTransform`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PositionInput {
    /// An INT column.
    Field(FieldRef),
    /// An integer literal, or `None` for null.
    Literal(Option<i32>),
}

/// Which ends TRIM strips, as Paimon's `TrimTransform.Flag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrimSide {
    /// Both ends (`BOTH`).
    Both,
    /// The start (`LEADING`).
    Leading,
    /// The end (`TRAILING`).
    Trailing,
}

/// What a predicate leaf reads from each row: Paimon's `Transform`.
///
/// | variant | Java class | result for a row |
/// |---|---|---|
/// | `Field(f)` | `FieldTransform` | the column's value |
/// | `Cast { field, to }` | `CastTransform` | the value cast as Paimon's `CastExecutors`; null stays null |
/// | `Upper(x)` / `Lower(x)` | `UpperTransform` / `LowerTransform` | Java's `toUpperCase()` / `toLowerCase()` (full Unicode mapping) |
/// | `Concat(xs)` | `ConcatTransform` | the inputs joined; null if any is null |
/// | `ConcatWs { separator, inputs }` | `ConcatWsTransform` | joined with the separator; null separator: null; null inputs skipped |
/// | `Substring { input, pos, len }` | `SubstringTransform` | 1-based substring of `len` characters from `pos` (to the end without `len`) |
/// | `Trim { input, chars, side }` | `TrimTransform` | the input with the characters of `chars` (default `" "`) stripped from `side` |
/// | `Null` | `NullTransform` | always null: the input of `AlwaysTrue` / `AlwaysFalse` |
///
/// # Examples
///
/// ```
/// use bitbytes::arrow::{Transform, TransformInput};
///
/// let t = Transform::field("name");
/// assert_eq!(t.field_name(), Some("name"));
/// let upper = Transform::Upper(TransformInput::field("name"));
/// assert_eq!(upper.field_name(), None);
/// let concat = Transform::Concat(vec![
///     TransformInput::field("a"),
///     TransformInput::literal("-"),
///     TransformInput::field("b"),
/// ]);
/// assert_eq!(concat.field_names(), ["a", "b"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Transform {
    /// The column itself.
    Field(FieldRef),
    /// The column cast to `to`.
    Cast {
        /// The column to cast.
        field: FieldRef,
        /// The target type (its Paimon form: `VARCHAR(3)` truncates).
        to: PaimonType,
    },
    /// Java's `String.toUpperCase()` of a string input.
    Upper(TransformInput),
    /// Java's `String.toLowerCase()` of a string input.
    Lower(TransformInput),
    /// The inputs joined; null if any input is null.
    Concat(Vec<TransformInput>),
    /// The inputs joined with a separator; nulls skipped.
    ConcatWs {
        /// The separator; a null separator makes the result null.
        separator: TransformInput,
        /// The inputs to join; null inputs are skipped.
        inputs: Vec<TransformInput>,
    },
    /// A substring, as SQL's `SUBSTRING(input, pos[, len])` (1-based).
    Substring {
        /// The string.
        input: TransformInput,
        /// The 1-based start.
        pos: PositionInput,
        /// The length, or to the end when `None`.
        len: Option<PositionInput>,
    },
    /// Characters stripped from one or both ends.
    Trim {
        /// The string.
        input: TransformInput,
        /// The characters to strip (any of them), `" "` when `None`.
        chars: Option<TransformInput>,
        /// Which ends.
        side: TrimSide,
    },
    /// Always null.
    Null,
}

impl Transform {
    /// The plain column `name`.
    pub fn field(name: impl Into<String>) -> Transform {
        Transform::Field(FieldRef::from(name.into()))
    }

    /// The column's name when this is a plain [`Field`](Transform::Field).
    pub fn field_name(&self) -> Option<&str> {
        match self {
            Transform::Field(f) => Some(&f.name),
            _ => None,
        }
    }

    /// Every field reference the transform reads, in order of appearance
    /// (a field read twice appears twice).
    pub fn field_refs(&self) -> Vec<&FieldRef> {
        let mut refs = Vec::new();
        fn input<'t>(i: &'t TransformInput, refs: &mut Vec<&'t FieldRef>) {
            if let TransformInput::Field(f) = i {
                refs.push(f);
            }
        }
        match self {
            Transform::Field(f) | Transform::Cast { field: f, .. } => refs.push(f),
            Transform::Upper(i) | Transform::Lower(i) => input(i, &mut refs),
            Transform::Concat(inputs) => inputs.iter().for_each(|i| input(i, &mut refs)),
            Transform::ConcatWs { separator, inputs } => {
                input(separator, &mut refs);
                inputs.iter().for_each(|i| input(i, &mut refs));
            }
            Transform::Substring {
                input: source,
                pos,
                len,
            } => {
                input(source, &mut refs);
                for p in core::iter::once(pos).chain(len) {
                    if let PositionInput::Field(f) = p {
                        refs.push(f);
                    }
                }
            }
            Transform::Trim {
                input: source,
                chars,
                ..
            } => {
                input(source, &mut refs);
                if let Some(c) = chars {
                    input(c, &mut refs);
                }
            }
            Transform::Null => {}
        }
        refs
    }

    /// Checks what Java's transform constructors check that the enum cannot
    /// say: a CONCAT_WS has a separator and at least one input (Java's
    /// `ConcatWsTransform` requires two inputs or more, so a CONCAT_WS of
    /// no input can neither be read from nor written to Paimon JSON).
    pub(crate) fn check_inputs(&self) -> Result<(), ArrowError> {
        match self {
            Transform::ConcatWs { inputs, .. } if inputs.is_empty() => {
                Err(ArrowError::InvalidArgumentError(format!(
                    "{self}: CONCAT_WS takes a separator and at least one input (as Paimon's ConcatWsTransform), got none"
                )))
            }
            _ => Ok(()),
        }
    }

    /// The names of the columns the transform reads, in order of
    /// appearance, each once.
    pub fn field_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for f in self.field_refs() {
            if !names.contains(&f.name.as_str()) {
                names.push(&f.name);
            }
        }
        names
    }
}

impl From<FieldRef> for Transform {
    fn from(field: FieldRef) -> Transform {
        Transform::Field(field)
    }
}
