//! Columnar evaluation of the string transforms (UPPER, LOWER, CONCAT,
//! CONCAT_WS, SUBSTRING, TRIM) and of NULL: each computes a whole new column
//! from the batch's columns, written straight into one offsets buffer and
//! one values buffer (no `String` per row).
//!
//! - UPPER / LOWER over a Utf8 or LargeUtf8 column map its whole values
//!   buffer: byte-wise, then each non-ASCII character in place while the
//!   mappings keep their byte length (offsets and nulls kept); otherwise
//!   ASCII runs byte-wise and other characters with Rust's full Unicode
//!   mappings (Java's) into one buffer, the offsets shifted where a length
//!   changes. LOWER of a buffer holding `Σ` (final sigma depends on the
//!   row) and Utf8View columns are mapped row by row.
//! - CONCAT / CONCAT_WS compute the offsets first (the pieces' lengths,
//!   column by column), then copy each row's pieces into its place in one
//!   values buffer, short values as 16-byte blocks.
//! - A transform of one dictionary column, whose other inputs are literals,
//!   that cannot fail and that maps a null input to null (all but
//!   CONCAT_WS), runs on the dictionary's values only and keeps
//!   the keys; any other dictionary input is first expanded (arrow-select's
//!   `take`).
//! - The output is Utf8; LargeUtf8 when the values pass `i32::MAX` bytes
//!   (or when the ASCII path keeps a LargeUtf8 input's offsets).
//!
//! SUBSTRING and TRIM count and cut in UTF-16 code units, as the Java
//! classes do on a `java.lang.String`: a character outside the Basic
//! Multilingual Plane counts 2, and a cut through one becomes `?`, as Java's
//! UTF-8 encoder writes a lone surrogate.

use super::{FieldRef, PositionInput, Transform, TransformInput, TrimSide};
use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{
    new_null_array, Array, ArrayRef, GenericStringArray, Int32Array, LargeStringArray,
    OffsetSizeTrait, StringViewArray,
};
use arrow_buffer::{NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Schema};
use std::boxed::Box;
use std::format;
use std::string::String;
use std::sync::Arc;
use std::vec;
use std::vec::Vec;

/// A string input, resolved: a slot of [`Resolved::columns`] or a literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input<'p> {
    Column(usize),
    Literal(Option<&'p str>),
}

/// A SUBSTRING position or length, resolved as [`Input`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    Column(usize),
    Literal(Option<i32>),
}

/// The transform with its fields replaced by slots.
#[derive(Debug)]
enum Kernel<'p> {
    Upper(Input<'p>),
    Lower(Input<'p>),
    Concat(Vec<Input<'p>>),
    ConcatWs {
        separator: Input<'p>,
        inputs: Vec<Input<'p>>,
    },
    Substring {
        input: Input<'p>,
        pos: Position,
        len: Option<Position>,
    },
    Trim {
        input: Input<'p>,
        chars: Option<Input<'p>>,
        side: TrimSide,
    },
    Null,
}

/// A string transform (or NULL) checked against a schema: it knows the
/// columns it reads and the type of the column it computes.
#[derive(Debug)]
pub(crate) struct Resolved<'p> {
    /// The transform as written (for error messages).
    transform: &'p Transform,
    kernel: Kernel<'p>,
    /// The schema indices of the columns read, ascending, each once; an
    /// [`Input::Column`] is an index into this list.
    pub(crate) columns: Vec<usize>,
    /// The type the leaf function is checked against: Utf8, a dictionary of
    /// Utf8 (one dictionary column evaluated on its values) or, for NULL,
    /// Boolean (Java's `NullTransform.outputType()`).
    pub(crate) output_type: DataType,
    /// Whether a row can make the evaluation fail (SUBSTRING with a
    /// position or length from a column, or a start below 1 or a length
    /// below 1): such a leaf must only see the rows Java's short-circuit
    /// would give it.
    pub(crate) may_fail: bool,
}

/// Whether `t` is a string column a transform takes: Utf8, LargeUtf8,
/// Utf8View or a dictionary of them.
fn is_string_input(t: &DataType) -> bool {
    match t {
        DataType::Dictionary(_, value) => is_string_input(value),
        t => matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View),
    }
}

impl<'p> Resolved<'p> {
    /// Resolves a string transform or NULL against `schema`; `field_index`
    /// finds a field's column (or says it is missing). CAST and a plain
    /// field are not string transforms: an internal error.
    pub(crate) fn new(
        transform: &'p Transform,
        schema: &Schema,
        field_index: &dyn Fn(&Schema, &str) -> Result<usize, ArrowError>,
    ) -> Result<Resolved<'p>, ArrowError> {
        transform.check_inputs()?;
        // Every referenced field, checked, then the slots.
        let mut columns = Vec::new();
        for field in transform.field_refs() {
            columns.push(field_index(schema, &field.name)?);
        }
        columns.sort_unstable();
        columns.dedup();
        let slot = |field: &FieldRef, want_int: bool| -> Result<usize, ArrowError> {
            let index = field_index(schema, &field.name)?;
            let data_type = schema.field(index).data_type();
            let ok = if want_int {
                data_type == &DataType::Int32
            } else {
                is_string_input(data_type)
            };
            if !ok {
                let want = if want_int {
                    "SUBSTRING positions and lengths are INT (Int32)"
                } else {
                    "a string transform takes a string column (Utf8, LargeUtf8, Utf8View or a dictionary of them)"
                };
                return Err(ArrowError::InvalidArgumentError(format!(
                    "{transform}: field `{}` is {data_type}: {want}",
                    field.name
                )));
            }
            Ok(columns.binary_search(&index).unwrap_or_default())
        };
        let input = |i: &'p TransformInput| -> Result<Input<'p>, ArrowError> {
            Ok(match i {
                TransformInput::Field(f) => Input::Column(slot(f, false)?),
                TransformInput::Literal(s) => Input::Literal(s.as_deref()),
            })
        };
        let position = |p: &PositionInput| -> Result<Position, ArrowError> {
            Ok(match p {
                PositionInput::Field(f) => Position::Column(slot(f, true)?),
                PositionInput::Literal(v) => Position::Literal(*v),
            })
        };
        let inputs = |xs: &'p [TransformInput]| xs.iter().map(input).collect::<Result<Vec<_>, _>>();
        let kernel = match transform {
            Transform::Upper(i) => Kernel::Upper(input(i)?),
            Transform::Lower(i) => Kernel::Lower(input(i)?),
            Transform::Concat(xs) => Kernel::Concat(inputs(xs)?),
            Transform::ConcatWs {
                separator,
                inputs: xs,
            } => Kernel::ConcatWs {
                separator: input(separator)?,
                inputs: inputs(xs)?,
            },
            Transform::Substring { input: i, pos, len } => Kernel::Substring {
                input: input(i)?,
                pos: position(pos)?,
                len: len.as_ref().map(position).transpose()?,
            },
            Transform::Trim {
                input: i,
                chars,
                side,
            } => Kernel::Trim {
                input: input(i)?,
                chars: chars.as_ref().map(input).transpose()?,
                side: *side,
            },
            Transform::Null => Kernel::Null,
            Transform::Field(_) | Transform::Cast { .. } => {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "internal: {transform} is not a string transform"
                )))
            }
        };
        let may_fail = match &kernel {
            Kernel::Substring { pos, len, .. } => {
                let bad = |p: &Position, min: i32| match p {
                    Position::Column(_) => true,
                    Position::Literal(v) => v.is_some_and(|v| v < min),
                };
                // Java's end `pos + len - 1` as an `int`: wrapped, it is an
                // error on any row the start is within.
                let wraps = match (pos, len) {
                    (Position::Literal(Some(p)), Some(Position::Literal(Some(l)))) => {
                        p.checked_add(*l).and_then(|e| e.checked_sub(1)).is_none()
                    }
                    _ => false,
                };
                bad(pos, 1) || len.as_ref().is_some_and(|l| bad(l, 1)) || wraps
            }
            _ => false,
        };
        let output_type = match (&kernel, columns.as_slice()) {
            (Kernel::Null, _) => DataType::Boolean,
            // CONCAT_WS makes a null input `""`: a null key cannot keep it.
            (Kernel::ConcatWs { .. }, _) => DataType::Utf8,
            (_, [only]) if !may_fail => match schema.field(*only).data_type() {
                DataType::Dictionary(key, _) => {
                    DataType::Dictionary(key.clone(), Box::new(DataType::Utf8))
                }
                _ => DataType::Utf8,
            },
            _ => DataType::Utf8,
        };
        Ok(Resolved {
            transform,
            kernel,
            columns,
            output_type,
            may_fail,
        })
    }

    /// Whether the kernel builds new offsets row by row (CONCAT,
    /// CONCAT_WS, SUBSTRING, TRIM), rather than keep its input's (the
    /// one-pass UPPER / LOWER) or build no string (NULL): the evaluator
    /// runs those a block of rows at a time.
    pub(crate) fn builds_offsets(&self) -> bool {
        matches!(
            self.kernel,
            Kernel::Concat(_)
                | Kernel::ConcatWs { .. }
                | Kernel::Substring { .. }
                | Kernel::Trim { .. }
        )
    }

    /// The transform's column over `rows` rows; `inputs[k]` is the column
    /// of schema index `columns[k]`, `rows` long.
    pub(crate) fn evaluate(
        &self,
        inputs: &[ArrayRef],
        rows: usize,
    ) -> Result<ArrayRef, ArrowError> {
        if let Kernel::Null = self.kernel {
            return Ok(new_null_array(&DataType::Boolean, rows));
        }
        if inputs.len() != self.columns.len() || inputs.iter().any(|a| a.len() != rows) {
            return Err(ArrowError::InvalidArgumentError(format!(
                "internal: {} gets {} columns of {rows} rows, wants {}",
                self.transform,
                inputs.len(),
                self.columns.len()
            )));
        }
        // One dictionary column and literals: evaluate the dictionary's
        // values, keep the keys.
        if let (DataType::Dictionary(..), [only]) = (&self.output_type, inputs) {
            if let Some(dict) = only.as_any_dictionary_opt() {
                let values = dict.values().clone();
                let mapped = self.evaluate_flat(core::slice::from_ref(&values), values.len())?;
                return Ok(dict.with_values(mapped));
            }
        }
        let flat = inputs
            .iter()
            .map(|a| match a.as_any_dictionary_opt() {
                Some(dict) => arrow_select::take::take(dict.values().as_ref(), dict.keys(), None),
                None => Ok(a.clone()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.evaluate_flat(&flat, rows)
    }

    /// [`evaluate`](Resolved::evaluate) over columns without dictionaries:
    /// Utf8 output, LargeUtf8 when the bytes pass `i32::MAX`.
    fn evaluate_flat(&self, inputs: &[ArrayRef], rows: usize) -> Result<ArrayRef, ArrowError> {
        match &self.kernel {
            Kernel::Upper(Input::Column(c)) | Kernel::Lower(Input::Column(c)) => {
                let upper = matches!(self.kernel, Kernel::Upper(_));
                let array = inputs[*c].as_ref();
                let ascii = match array.data_type() {
                    DataType::Utf8 => buffer_case(array.as_string::<i32>(), upper)?,
                    DataType::LargeUtf8 => buffer_case(array.as_string::<i64>(), upper)?,
                    _ => None,
                };
                if let Some(done) = ascii {
                    return Ok(done);
                }
            }
            _ => {}
        }
        match self.evaluate_as::<i32>(inputs, rows) {
            Err(ArrowError::OffsetOverflowError(_)) => self.evaluate_as::<i64>(inputs, rows),
            other => other,
        }
    }

    /// The row-by-row kernels, writing offsets of type `O`;
    /// `OffsetOverflowError` when the values do not fit.
    fn evaluate_as<O: OffsetSizeTrait>(
        &self,
        inputs: &[ArrayRef],
        rows: usize,
    ) -> Result<ArrayRef, ArrowError> {
        let sources = |xs: &[Input<'p>]| {
            xs.iter()
                .map(|x| Source::new(*x, inputs))
                .collect::<Result<Vec<_>, _>>()
        };
        let mut out = Out::<O>::new(rows, self.bytes_hint(inputs, rows));
        match &self.kernel {
            Kernel::Upper(x) | Kernel::Lower(x) => {
                let upper = matches!(self.kernel, Kernel::Upper(_));
                let x = Source::new(*x, inputs)?;
                for row in 0..rows {
                    match x.get(row) {
                        Some(s) => {
                            change_case(s, upper, &mut out.values);
                            out.end_row()?;
                        }
                        None => out.null_row(),
                    }
                }
            }
            Kernel::Concat(xs) => {
                let xs = sources(xs)?;
                if xs.iter().any(Source::is_null_literal) {
                    return Ok(new_null_array(&DataType::Utf8, rows));
                }
                let pieces: Vec<Piece<'_>> = xs.iter().map(Piece::new).collect();
                return concat::<O>(&pieces, rows);
            }
            Kernel::ConcatWs {
                separator,
                inputs: xs,
            } => {
                let separator = Source::new(*separator, inputs)?;
                if separator.is_null_literal() {
                    return Ok(new_null_array(&DataType::Utf8, rows));
                }
                let xs = sources(xs)?;
                // A null literal is skipped on every row.
                let pieces: Vec<Piece<'_>> = xs
                    .iter()
                    .filter(|x| !x.is_null_literal())
                    .map(Piece::new)
                    .collect();
                return concat_ws::<O>(&Piece::new(&separator), &pieces, rows);
            }
            Kernel::Substring { input, pos, len } => {
                let x = Source::new(*input, inputs)?;
                let pos = Int::new(*pos, inputs)?;
                let len = len.map(|l| Int::new(l, inputs)).transpose()?;
                for row in 0..rows {
                    let (Some(s), Some(p)) = (x.get(row), pos.get(row)) else {
                        out.null_row();
                        continue;
                    };
                    let l = match &len {
                        None => None,
                        Some(l) => match l.get(row) {
                            Some(l) => Some(l),
                            None => {
                                out.null_row();
                                continue;
                            }
                        },
                    };
                    substring(s, p, l, &mut out.values).map_err(|()| {
                        ArrowError::InvalidArgumentError(format!(
                            "{}: SUBSTRING({}, {p}{}) fails in Java (the start must be 1 or more and the length 1 or more)",
                            self.transform,
                            quoted(s),
                            l.map(|l| format!(", {l}")).unwrap_or_default()
                        ))
                    })?;
                    out.end_row()?;
                }
            }
            Kernel::Trim { input, chars, side } => {
                let x = Source::new(*input, inputs)?;
                let chars =
                    chars.map_or(Ok(Source::Literal(Some(" "))), |c| Source::new(c, inputs))?;
                if chars.is_null_literal() {
                    return Ok(new_null_array(&DataType::Utf8, rows));
                }
                let mut set = TrimSet::default();
                let mut scratch = Vec::new();
                if let Source::Literal(Some(c)) = chars {
                    set.reset(c);
                }
                for row in 0..rows {
                    let (Some(s), Some(c)) = (x.get(row), chars.get(row)) else {
                        out.null_row();
                        continue;
                    };
                    if !matches!(chars, Source::Literal(_)) {
                        set.reset(c);
                    }
                    set.trim(s, *side, &mut scratch, &mut out.values);
                    out.end_row()?;
                }
            }
            Kernel::Null => return Ok(new_null_array(&DataType::Boolean, rows)),
        }
        out.finish()
    }
}

impl Resolved<'_> {
    /// About the bytes of the output of the kernels writing through
    /// [`Out`]: those of the string columns read, plus each literal once a
    /// row; at most [`HINT_MAX`] (a reservation only: the values grow past
    /// it as needed). CONCAT and CONCAT_WS size their output exactly and
    /// take none.
    fn bytes_hint(&self, inputs: &[ArrayRef], rows: usize) -> usize {
        if matches!(self.kernel, Kernel::Concat(_) | Kernel::ConcatWs { .. }) {
            return 0;
        }
        let columns: usize = inputs
            .iter()
            .map(|a| match a.data_type() {
                DataType::Utf8 => value_bytes(a.as_string::<i32>()),
                DataType::LargeUtf8 => value_bytes(a.as_string::<i64>()),
                DataType::Utf8View => a.as_string_view().total_bytes_len(),
                _ => 0,
            })
            .sum();
        let literals: usize = match &self.kernel {
            Kernel::Concat(xs) => xs.iter().map(literal_len).sum(),
            Kernel::ConcatWs { separator, inputs } => literal_len(separator) * inputs.len(),
            _ => 0,
        };
        columns
            .saturating_add(literals.saturating_mul(rows))
            .min(HINT_MAX)
    }
}

/// The most bytes [`Resolved::bytes_hint`] reserves up front (64 MiB).
const HINT_MAX: usize = 1 << 26;

/// `len` zero bytes, or an error naming `what` when memory has not that
/// many (a CONCAT of long literals over many rows, say), not an abort.
fn zeroed(len: usize, what: &str) -> Result<Vec<u8>, ArrowError> {
    let mut values = Vec::new();
    values.try_reserve_exact(len).map_err(|_| {
        ArrowError::ComputeError(format!("{what}: no memory for a result of {len} bytes"))
    })?;
    values.resize(len, 0);
    Ok(values)
}

/// The bytes a string input literal adds to each row.
fn literal_len(input: &Input<'_>) -> usize {
    match input {
        Input::Literal(Some(s)) => s.len(),
        _ => 0,
    }
}

/// The value bytes a (possibly sliced) Utf8 / LargeUtf8 column spans.
fn value_bytes<O: OffsetSizeTrait>(array: &GenericStringArray<O>) -> usize {
    let offsets = array.value_offsets();
    (offsets[offsets.len() - 1] - offsets[0]).as_usize()
}

/// `literals` in the layout the computed column `column` wants: a Utf8
/// literal becomes LargeUtf8 when the column (or its dictionary's values)
/// came out LargeUtf8; `None` when the literals suit it as they are.
pub(crate) fn literals_for(literals: &dyn Array, column: &DataType) -> Option<ArrayRef> {
    let value = match column {
        DataType::Dictionary(_, value) => value.as_ref(),
        t => t,
    };
    if value == &DataType::LargeUtf8 && literals.data_type() == &DataType::Utf8 {
        let large: LargeStringArray = literals.as_string::<i32>().iter().collect();
        return Some(Arc::new(large));
    }
    None
}

/// `s` quoted as a SQL literal, for messages.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// A string input at evaluation: a flat column in one of three layouts, or
/// a literal.
enum Source<'a> {
    Utf8(&'a GenericStringArray<i32>),
    LargeUtf8(&'a GenericStringArray<i64>),
    View(&'a StringViewArray),
    Literal(Option<&'a str>),
}

impl<'a> Source<'a> {
    fn new(input: Input<'a>, inputs: &'a [ArrayRef]) -> Result<Source<'a>, ArrowError> {
        let c = match input {
            Input::Column(c) => c,
            Input::Literal(s) => return Ok(Source::Literal(s)),
        };
        let array = inputs[c].as_ref();
        Ok(match array.data_type() {
            DataType::Utf8 => Source::Utf8(array.as_string::<i32>()),
            DataType::LargeUtf8 => Source::LargeUtf8(array.as_string::<i64>()),
            DataType::Utf8View => Source::View(array.as_string_view()),
            t => {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "internal: a string transform got a {t} column"
                )))
            }
        })
    }

    fn is_null_literal(&self) -> bool {
        matches!(self, Source::Literal(None))
    }

    fn nulls(&self) -> Option<&'a NullBuffer> {
        match *self {
            Source::Utf8(a) => a.nulls(),
            Source::LargeUtf8(a) => a.nulls(),
            Source::View(a) => a.nulls(),
            Source::Literal(_) => None,
        }
    }

    /// Row `row`'s value, whatever its validity (a null literal: `""`).
    #[inline]
    fn value(&self, row: usize) -> &'a str {
        match self {
            Source::Utf8(a) => a.value(row),
            Source::LargeUtf8(a) => a.value(row),
            Source::View(a) => a.value(row),
            Source::Literal(s) => s.unwrap_or_default(),
        }
    }

    /// Row `row`'s value, `None` when null.
    #[inline]
    fn get(&self, row: usize) -> Option<&'a str> {
        match self {
            Source::Literal(s) => *s,
            _ => match self.nulls() {
                Some(n) if n.is_null(row) => None,
                _ => Some(self.value(row)),
            },
        }
    }
}

/// A SUBSTRING position at evaluation.
enum Int<'a> {
    Column(&'a Int32Array),
    Literal(Option<i32>),
}

impl<'a> Int<'a> {
    fn new(p: Position, inputs: &'a [ArrayRef]) -> Result<Int<'a>, ArrowError> {
        Ok(match p {
            Position::Column(c) => {
                Int::Column(inputs[c].as_primitive_opt::<Int32Type>().ok_or_else(|| {
                    ArrowError::InvalidArgumentError(
                        "internal: a SUBSTRING position that is not Int32".into(),
                    )
                })?)
            }
            Position::Literal(v) => Int::Literal(v),
        })
    }

    #[inline]
    fn get(&self, row: usize) -> Option<i32> {
        match self {
            Int::Column(a) => a.is_valid(row).then(|| a.value(row)),
            Int::Literal(v) => *v,
        }
    }
}

/// The output column being written: offsets of type `O`, values, nulls.
struct Out<O> {
    offsets: Vec<O>,
    values: Vec<u8>,
    nulls: NullBufferBuilder,
}

impl<O: OffsetSizeTrait> Out<O> {
    fn new(rows: usize, bytes: usize) -> Out<O> {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(O::usize_as(0));
        Out {
            offsets,
            values: Vec::with_capacity(bytes),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Ends a non-null row: its bytes are what was appended to `values`.
    #[inline]
    fn end_row(&mut self) -> Result<(), ArrowError> {
        let end = O::from_usize(self.values.len())
            .ok_or_else(|| ArrowError::OffsetOverflowError(self.values.len()))?;
        self.offsets.push(end);
        self.nulls.append_non_null();
        Ok(())
    }

    /// A null row (no bytes).
    #[inline]
    fn null_row(&mut self) {
        let last = *self.offsets.last().unwrap_or(&O::usize_as(0));
        self.offsets.push(last);
        self.nulls.append_null();
    }

    fn finish(mut self) -> Result<ArrayRef, ArrowError> {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        let array =
            GenericStringArray::<O>::try_new(offsets, self.values.into(), self.nulls.finish())?;
        Ok(Arc::new(array))
    }
}

/// How many bytes past a value's end the joining kernels may copy (and the
/// output's spare room): a value of up to this many bytes is copied as one
/// fixed-size block when its source has the bytes, and the next value
/// written overwrites the excess.
const OVER_COPY: usize = 16;

/// One input of CONCAT / CONCAT_WS as the joining kernels read it: a
/// column's offsets and values, a view column, or a non-null literal.
enum Piece<'a> {
    Utf8 {
        offsets: &'a [i32],
        data: &'a [u8],
        nulls: Option<&'a NullBuffer>,
    },
    Large {
        offsets: &'a [i64],
        data: &'a [u8],
        nulls: Option<&'a NullBuffer>,
    },
    View(&'a StringViewArray),
    /// The literal's bytes followed by [`OVER_COPY`] zeros, and its length.
    Literal(Vec<u8>, usize),
}

impl<'a> Piece<'a> {
    /// The piece of a source; a null literal reads as `""` (callers drop
    /// or short-cut it first).
    fn new(source: &Source<'a>) -> Piece<'a> {
        let nulls = source.nulls().filter(|n| n.null_count() > 0);
        match *source {
            Source::Utf8(a) => Piece::Utf8 {
                offsets: a.value_offsets(),
                data: a.value_data(),
                nulls,
            },
            Source::LargeUtf8(a) => Piece::Large {
                offsets: a.value_offsets(),
                data: a.value_data(),
                nulls,
            },
            Source::View(a) => Piece::View(a),
            Source::Literal(s) => {
                let s = s.unwrap_or_default().as_bytes();
                let mut padded = Vec::with_capacity(s.len() + OVER_COPY);
                padded.extend_from_slice(s);
                padded.resize(s.len() + OVER_COPY, 0);
                Piece::Literal(padded, s.len())
            }
        }
    }

    fn nulls(&self) -> Option<&'a NullBuffer> {
        match self {
            Piece::Utf8 { nulls, .. } | Piece::Large { nulls, .. } => *nulls,
            Piece::View(a) => (*a).nulls().filter(|n| n.null_count() > 0),
            Piece::Literal(..) => None,
        }
    }

    #[inline]
    fn is_valid(&self, row: usize) -> bool {
        self.nulls().is_none_or(|n| n.is_valid(row))
    }

    /// Adds each row's byte length, as `of(length)`, to `lens` (also on
    /// null rows, whose length Arrow leaves free: the caller masks them).
    /// CONCAT adds into its offsets of type `O` directly (the caller has
    /// checked that the totals fit), CONCAT_WS into `usize` lengths.
    fn add_lengths<L: Copy + core::ops::AddAssign>(&self, lens: &mut [L], of: impl Fn(usize) -> L) {
        match self {
            Piece::Utf8 { offsets, .. } => {
                for (l, w) in lens.iter_mut().zip(offsets.windows(2)) {
                    *l += of((w[1] - w[0]) as usize);
                }
            }
            Piece::Large { offsets, .. } => {
                for (l, w) in lens.iter_mut().zip(offsets.windows(2)) {
                    *l += of((w[1] - w[0]) as usize);
                }
            }
            Piece::View(a) => {
                for (l, view) in lens.iter_mut().zip(a.views().iter()) {
                    // A view's low 32 bits are its length.
                    *l += of((*view as u32) as usize);
                }
            }
            Piece::Literal(_, len) => {
                let len = of(*len);
                lens.iter_mut().for_each(|l| *l += len);
            }
        }
    }

    /// Row `row`'s bytes as (buffer, start, length); the buffer may hold
    /// more bytes after them.
    #[inline]
    fn span(&self, row: usize) -> (&[u8], usize, usize) {
        match self {
            Piece::Utf8 { offsets, data, .. } => {
                let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
                (data, start, end.saturating_sub(start))
            }
            Piece::Large { offsets, data, .. } => {
                let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
                (data, start, end.saturating_sub(start))
            }
            Piece::View(a) => {
                let v = a.value(row).as_bytes();
                (v, 0, v.len())
            }
            Piece::Literal(padded, len) => (padded, 0, *len),
        }
    }

    /// Writes row `row`'s bytes at `out[pos..]`; returns the position after
    /// them. Bytes up to [`OVER_COPY`] past them may be overwritten.
    #[inline]
    fn write(&self, row: usize, out: &mut [u8], pos: usize) -> usize {
        let (src, start, len) = self.span(row);
        copy_bytes(out, pos, src, start, len)
    }

    /// The bytes the piece spans over all `rows` rows (null rows
    /// included): a bound of what it adds to the output.
    fn total_bytes(&self, rows: usize) -> usize {
        match self {
            Piece::Utf8 { offsets, .. } => (offsets[rows] - offsets[0]) as usize,
            Piece::Large { offsets, .. } => (offsets[rows] - offsets[0]) as usize,
            Piece::View(a) => a.total_bytes_len(),
            Piece::Literal(_, len) => len.saturating_mul(rows),
        }
    }
}

/// The offsets of rows `lens` long, or `OffsetOverflowError` when the total
/// does not fit `O`.
fn offsets_of<O: OffsetSizeTrait>(lens: &[usize]) -> Result<(Vec<O>, usize), ArrowError> {
    let mut offsets = Vec::with_capacity(lens.len() + 1);
    offsets.push(O::usize_as(0));
    let mut total: usize = 0;
    for &l in lens {
        total = total.saturating_add(l);
        offsets.push(O::usize_as(total));
    }
    if O::from_usize(total).is_none() {
        return Err(ArrowError::OffsetOverflowError(total));
    }
    Ok((offsets, total))
}

/// Sets to 0 the length of each row that `nulls` marks null.
fn mask_lengths<L: Copy + Default>(lens: &mut [L], nulls: Option<&NullBuffer>) {
    if let Some(nulls) = nulls {
        for (l, valid) in lens.iter_mut().zip(nulls.iter()) {
            if !valid {
                *l = L::default();
            }
        }
    }
}

/// The string column of `offsets` (as `lens` built them), `values` (with
/// [`OVER_COPY`] spare bytes, cut off here) and `nulls`.
fn joined<O: OffsetSizeTrait>(
    offsets: Vec<O>,
    mut values: Vec<u8>,
    total: usize,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef, ArrowError> {
    values.truncate(total);
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    Ok(Arc::new(GenericStringArray::<O>::try_new(
        offsets,
        values.into(),
        nulls,
    )?))
}

/// CONCAT of `pieces` over `rows` rows: null where any piece is null.
///
/// Over one to four Utf8 columns and literals (the common case) one pass
/// writes each row's pieces and its end offset ([`concat_fused`]).
/// Otherwise the offsets come first (each piece's lengths added column by
/// column, null rows cleared, then summed), then each row's pieces are
/// copied into its place in one values buffer.
fn concat<O: OffsetSizeTrait>(pieces: &[Piece<'_>], rows: usize) -> Result<ArrayRef, ArrowError> {
    let nulls = NullBuffer::union_many(pieces.iter().map(Piece::nulls));
    // No row, and no running sum, can pass the pieces' whole spans.
    let bound = pieces
        .iter()
        .fold(0usize, |t, p| t.saturating_add(p.total_bytes(rows)));
    if O::from_usize(bound).is_none() {
        return Err(ArrowError::OffsetOverflowError(bound));
    }
    let flat: Option<Vec<Flat<'_>>> = pieces.iter().map(Flat::new).collect();
    let n = nulls.as_ref();
    let fused = match flat.as_deref() {
        Some(&[a]) => Some(concat_fused::<O, 1>(&[a], n, rows, bound)),
        Some(&[a, b]) => Some(concat_fused::<O, 2>(&[a, b], n, rows, bound)),
        Some(&[a, b, c]) => Some(concat_fused::<O, 3>(&[a, b, c], n, rows, bound)),
        Some(&[a, b, c, d]) => Some(concat_fused::<O, 4>(&[a, b, c, d], n, rows, bound)),
        _ => None,
    };
    if let Some((offsets, values, total)) = fused {
        return joined(offsets, values, total, nulls);
    }
    let mut offsets = vec![O::usize_as(0); rows + 1];
    for p in pieces {
        p.add_lengths(&mut offsets[1..], O::usize_as);
    }
    mask_lengths(&mut offsets[1..], nulls.as_ref());
    for i in 1..offsets.len() {
        offsets[i] = offsets[i] + offsets[i - 1];
    }
    let total = offsets[rows].as_usize();
    let mut values = zeroed(total + OVER_COPY, "CONCAT")?;
    for (row, w) in offsets.windows(2).enumerate() {
        if w[0] == w[1] {
            continue;
        }
        let mut pos = w[0].as_usize();
        for p in pieces {
            pos = p.write(row, &mut values, pos);
        }
    }
    joined(offsets, values, total, nulls)
}

/// A Utf8 column or a literal as [`concat_fused`] reads it: a column's
/// offsets and values; a literal's length and its bytes padded by
/// [`OVER_COPY`].
#[derive(Clone, Copy)]
struct Flat<'a> {
    offsets: Option<&'a [i32]>,
    literal: u32,
    data: &'a [u8],
}

impl<'a> Flat<'a> {
    /// The piece as a flat input; `None` for LargeUtf8 and Utf8View.
    fn new(piece: &'a Piece<'a>) -> Option<Flat<'a>> {
        match piece {
            Piece::Utf8 { offsets, data, .. } => Some(Flat {
                offsets: Some(offsets),
                literal: 0,
                data,
            }),
            Piece::Literal(padded, len) => Some(Flat {
                offsets: None,
                literal: u32::try_from(*len).ok()?,
                data: padded,
            }),
            _ => None,
        }
    }
}

/// CONCAT of `N` flat pieces over `rows` rows with the union of their
/// `nulls`, in one pass: each row's pieces are copied one after the other
/// (short ones as 16-byte blocks, [`copy_bytes`]) and its end offset
/// written; a null row gets no bytes. `bound` (checked to fit `O`) bounds
/// the bytes. Returns the offsets, the values (with spare room) and the
/// length of the values.
///
/// It goes 64 rows at a time: first each piece's starts and lengths into
/// small arrays (then the lengths of the null rows the validity word names
/// cleared), then the copies, then the 64 offsets appended at once.
#[inline(never)]
fn concat_fused<O: OffsetSizeTrait, const N: usize>(
    flat: &[Flat<'_>; N],
    nulls: Option<&NullBuffer>,
    rows: usize,
    bound: usize,
) -> (Vec<O>, Vec<u8>, usize) {
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(O::usize_as(0));
    let mut values = vec![0u8; bound + OVER_COPY];
    let mut pos = 0;
    let chunks = nulls.map(|n| n.inner().bit_chunks());
    let mut validity = chunks.as_ref().map(|c| c.iter_padded());
    let mut starts = [[0u32; 64]; N];
    let mut lens = [[0u32; 64]; N];
    let mut ends = [O::usize_as(0); 64];
    for first in (0..rows).step_by(64) {
        let n = 64.min(rows - first);
        let valid = validity.as_mut().and_then(Iterator::next).unwrap_or(!0);
        for (p, (starts, lens)) in flat.iter().zip(starts.iter_mut().zip(lens.iter_mut())) {
            match p.offsets {
                None => spans(&[0; 65], p.literal, starts, lens),
                Some(offsets) => {
                    match <&[i32; 65]>::try_from(&offsets[first..first + 65.min(n + 1)]) {
                        Ok(o) => spans(o, 0, starts, lens),
                        Err(_) => {
                            // The last, short block: its offsets padded with the last.
                            let o = &offsets[first..first + n + 1];
                            let mut padded = [o[n]; 65];
                            padded[..=n].copy_from_slice(o);
                            spans(&padded, 0, starts, lens);
                        }
                    }
                }
            }
        }
        // Null rows (few, as a rule) get no bytes.
        let mut null_rows = !valid & (u64::MAX >> (64 - n));
        while null_rows != 0 {
            let i = null_rows.trailing_zeros() as usize;
            lens.iter_mut().for_each(|l| l[i] = 0);
            null_rows &= null_rows - 1;
        }
        for (i, end) in ends[..n].iter_mut().enumerate() {
            for (p, (starts, lens)) in flat.iter().zip(starts.iter().zip(lens.iter())) {
                pos = copy_bytes(
                    &mut values,
                    pos,
                    p.data,
                    starts[i] as usize,
                    lens[i] as usize,
                );
            }
            *end = O::usize_as(pos);
        }
        offsets.extend_from_slice(&ends[..n]);
    }
    (offsets, values, pos)
}

/// The starts and lengths of 64 rows from their 65 offsets `o` (plus
/// `extra` bytes each: a literal's offsets are all 0, its length comes
/// here). A plain loop over fixed-size arrays, which the compiler
/// vectorises.
#[inline(always)]
fn spans(o: &[i32; 65], extra: u32, starts: &mut [u32; 64], lens: &mut [u32; 64]) {
    for i in 0..64 {
        starts[i] = o[i] as u32;
        lens[i] = (o[i + 1].wrapping_sub(o[i]) as u32).wrapping_add(extra);
    }
}

/// Copies `src[start..start + len]` to `out[pos..]`; returns the position
/// after it. A copy of up to [`OVER_COPY`] bytes is one fixed-size block
/// when both sides have the room, overwriting up to [`OVER_COPY`] bytes
/// past the end.
#[inline(always)]
fn copy_bytes(out: &mut [u8], pos: usize, src: &[u8], start: usize, len: usize) -> usize {
    if len <= OVER_COPY {
        let block = src.get(start..).and_then(|s| s.first_chunk::<OVER_COPY>());
        let dst = out
            .get_mut(pos..)
            .and_then(|d| d.first_chunk_mut::<OVER_COPY>());
        if let (Some(block), Some(dst)) = (block, dst) {
            *dst = *block;
            return pos + len;
        }
    }
    out[pos..pos + len].copy_from_slice(&src[start..start + len]);
    pos + len
}

/// CONCAT_WS of `pieces` with `separator` over `rows` rows: null where the
/// separator is null; a null piece is skipped.
fn concat_ws<O: OffsetSizeTrait>(
    separator: &Piece<'_>,
    pieces: &[Piece<'_>],
    rows: usize,
) -> Result<ArrayRef, ArrowError> {
    let mut lens = vec![0usize; rows];
    // The pieces present on each row.
    let mut present = vec![0usize; rows];
    let mut piece_lens = vec![0usize; rows];
    for p in pieces {
        piece_lens.fill(0);
        p.add_lengths(&mut piece_lens, |n| n);
        match p.nulls() {
            None => {
                for ((l, n), &pl) in lens.iter_mut().zip(&mut present).zip(&piece_lens) {
                    *l += pl;
                    *n += 1;
                }
            }
            Some(nulls) => {
                for (((l, n), &pl), valid) in lens
                    .iter_mut()
                    .zip(&mut present)
                    .zip(&piece_lens)
                    .zip(nulls.iter())
                {
                    *l += pl * usize::from(valid);
                    *n += usize::from(valid);
                }
            }
        }
    }
    piece_lens.fill(0);
    separator.add_lengths(&mut piece_lens, |n| n);
    for ((l, &n), &sl) in lens.iter_mut().zip(&present).zip(&piece_lens) {
        *l += sl * n.saturating_sub(1);
    }
    let nulls = separator.nulls().cloned();
    mask_lengths(&mut lens, nulls.as_ref());
    let (offsets, total) = offsets_of::<O>(&lens)?;
    let mut values = zeroed(total + OVER_COPY, "CONCAT_WS")?;
    for (row, &len) in lens.iter().enumerate() {
        if len == 0 {
            continue;
        }
        let mut pos = offsets[row].as_usize();
        let mut first = true;
        for p in pieces {
            if !p.is_valid(row) {
                continue;
            }
            if !first {
                pos = separator.write(row, &mut values, pos);
            }
            first = false;
            pos = p.write(row, &mut values, pos);
        }
    }
    joined(offsets, values, total, nulls)
}

/// UPPER / LOWER of a whole Utf8 / LargeUtf8 column in one pass over its
/// values buffer, rows and all: the mappings are per character (Rust's
/// full Unicode mappings, which are Java's), so the buffer mapped as one
/// string is the rows mapped one by one, put end to end.
///
/// - While every character's mapping keeps its byte length (all ASCII,
///   or `é` → `É`): the buffer is mapped byte-wise, then each non-ASCII
///   character in place; the offsets and nulls are kept.
/// - Otherwise each run of ASCII bytes is copied and mapped byte-wise, and
///   each other character goes through `char::to_uppercase` /
///   `to_lowercase` into the same output buffer (no `String` per row). Where
///   a character's mapping changes the byte length (`ß` → `SS`), the
///   change is noted, and the offsets are shifted by the running change.
///
/// `None` (the caller maps row by row) for LOWER of a buffer holding `Σ`,
/// whose mapping depends on the letters around it in its row (final
/// sigma), and when the grown values do not fit offsets of type `O`.
fn buffer_case<O: OffsetSizeTrait>(
    array: &GenericStringArray<O>,
    upper: bool,
) -> Result<Option<ArrayRef>, ArrowError> {
    let offsets = array.value_offsets();
    let (first, last) = (offsets[0].as_usize(), offsets[offsets.len() - 1].as_usize());
    let bytes = &array.value_data()[first..last];
    let ascii = |out: &mut [u8]| {
        if upper {
            out.make_ascii_uppercase();
        } else {
            out.make_ascii_lowercase();
        }
    };
    // The whole buffer mapped byte-wise (non-ASCII bytes are left alone),
    // then each other character mapped in place while its mapping keeps
    // its length (`é` → `É`, `ß` → `SS`).
    let mut mapped = bytes.to_vec();
    ascii(&mut mapped);
    let mut at = next_non_ascii(bytes, 0);
    let mut same_length = true;
    // The mappings of the two-byte characters (U+0080..U+07FF: Latin,
    // Greek, Cyrillic, ...) met so far, each looked up once a call.
    let mut two_byte = TwoByteCase::new(upper, at < bytes.len());
    while at < bytes.len() {
        if let Some(m) = bytes.get(at..at + 2).and_then(|b| two_byte.map(b[0], b[1])) {
            match m {
                Some(m) => mapped[at..at + 2].copy_from_slice(&m),
                None => {
                    same_length = false;
                    break;
                }
            }
            at = next_non_ascii(bytes, at + 2);
            continue;
        }
        let width = match bytes[at] {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        let Some(c) = bytes
            .get(at..at + width)
            .and_then(|b| core::str::from_utf8(b).ok())
            .and_then(|s| s.chars().next())
        else {
            same_length = false;
            break;
        };
        let mut buf = [0u8; 12];
        let n = case_mapped(c, upper, &mut buf);
        if n != width || (!upper && c == 'Σ') {
            same_length = false;
            break;
        }
        mapped[at..at + width].copy_from_slice(&buf[..n]);
        at = next_non_ascii(bytes, at + width);
    }
    if same_length {
        let offsets = if first == 0 {
            array.offsets().clone()
        } else {
            OffsetBuffer::new(offsets.iter().map(|&o| o - O::usize_as(first)).collect())
        };
        let out = GenericStringArray::<O>::try_new(offsets, mapped.into(), array.nulls().cloned())?;
        return Ok(Some(Arc::new(out)));
    }
    let Ok(text) = core::str::from_utf8(bytes) else {
        return Ok(None);
    };
    if !upper && text.contains('Σ') {
        return Ok(None);
    }
    let mut mapped: Vec<u8> = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    // (input position after a character whose mapping changed the length,
    // output length minus input length from there on)
    let mut shifts: Vec<(usize, isize)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let run = bytes[at..]
            .iter()
            .position(|&b| !b.is_ascii())
            .unwrap_or(bytes.len() - at);
        let start = mapped.len();
        mapped.extend_from_slice(&bytes[at..at + run]);
        ascii(&mut mapped[start..]);
        at += run;
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        let before = mapped.len();
        if upper {
            c.to_uppercase().for_each(|m| push_char(&mut mapped, m));
        } else {
            c.to_lowercase().for_each(|m| push_char(&mut mapped, m));
        }
        at += c.len_utf8();
        if mapped.len() - before != c.len_utf8() {
            shifts.push((at, mapped.len() as isize - at as isize));
        }
    }
    if O::from_usize(mapped.len()).is_none() {
        return Ok(None);
    }
    let mut shift = 0isize;
    let mut next = shifts.iter().peekable();
    let out_offsets: Vec<O> = offsets
        .iter()
        .map(|&o| {
            let o = o.as_usize() - first;
            while let Some(&&(from, s)) = next.peek() {
                if from > o {
                    break;
                }
                shift = s;
                next.next();
            }
            O::usize_as((o as isize + shift) as usize)
        })
        .collect();
    let out = GenericStringArray::<O>::try_new(
        OffsetBuffer::new(ScalarBuffer::from(out_offsets)),
        mapped.into(),
        array.nulls().cloned(),
    )?;
    Ok(Some(Arc::new(out)))
}

/// `c`'s full upper (`upper`) or lower case mapping (up to 3 characters)
/// as UTF-8 into `buf`; returns its length.
fn case_mapped(c: char, upper: bool, buf: &mut [u8; 12]) -> usize {
    let mut n = 0;
    if upper {
        c.to_uppercase()
            .for_each(|m| n += m.encode_utf8(&mut buf[n..]).len());
    } else {
        c.to_lowercase()
            .for_each(|m| n += m.encode_utf8(&mut buf[n..]).len());
    }
    n
}

/// The case mappings of the two-byte UTF-8 characters (U+0080..U+07FF) a
/// buffer holds, each computed once (`char::to_uppercase` /
/// `to_lowercase` search a table) and then read from a 1,920-entry cache.
struct TwoByteCase {
    upper: bool,
    /// Per code point from U+0080: 0 not yet looked up, 1 a mapping that
    /// changes the byte length (or LOWER of `Σ`, final sigma), else
    /// `1 << 16` and the two mapped bytes.
    cache: Vec<u32>,
}

impl TwoByteCase {
    /// A cache for UPPER (`upper`) or LOWER, allocated only when `needed`.
    fn new(upper: bool, needed: bool) -> TwoByteCase {
        let cache = if needed {
            vec![0; 0x800 - 0x80]
        } else {
            Vec::new()
        };
        TwoByteCase { upper, cache }
    }

    /// For the two bytes of a two-byte character: `Some(Some(mapped))`
    /// when its mapping is two bytes too, `Some(None)` when it is not (the
    /// caller leaves the in-place path); `None` when `b0 b1` is not a
    /// two-byte character.
    #[inline]
    fn map(&mut self, b0: u8, b1: u8) -> Option<Option<[u8; 2]>> {
        if !(0xC2..=0xDF).contains(&b0) || b1 & 0xC0 != 0x80 {
            return None;
        }
        let cp = (u32::from(b0 & 0x1F) << 6) | u32::from(b1 & 0x3F);
        let entry = self.cache.get_mut(cp as usize - 0x80)?;
        if *entry == 0 {
            *entry = Self::look_up(char::from_u32(cp)?, self.upper);
        }
        Some((*entry != 1).then_some([*entry as u8, (*entry >> 8) as u8]))
    }

    /// The cache entry of `c`.
    #[cold]
    fn look_up(c: char, upper: bool) -> u32 {
        let mut buf = [0u8; 12];
        let n = case_mapped(c, upper, &mut buf);
        if n != 2 || (!upper && c == 'Σ') {
            1
        } else {
            1 << 16 | u32::from(buf[1]) << 8 | u32::from(buf[0])
        }
    }
}

/// The position of the first non-ASCII byte of `bytes` from `from`, or its
/// length; eight bytes at a time.
#[inline]
fn next_non_ascii(bytes: &[u8], from: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(word) = bytes.get(i..).and_then(|b| b.first_chunk::<8>()) {
        let high = u64::from_le_bytes(*word) & HIGH;
        if high != 0 {
            return i + (high.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && bytes[i].is_ascii() {
        i += 1;
    }
    i
}

/// Appends `c` as UTF-8.
#[inline]
fn push_char(out: &mut Vec<u8>, c: char) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// Appends Java's `s.toUpperCase()` / `s.toLowerCase()` (English locale):
/// Rust's full Unicode case mappings. `str::to_lowercase` differs from the
/// char-wise mapping only in the final sigma, so only a row holding `Σ`
/// goes through it (one `String` for that row).
fn change_case(s: &str, upper: bool, out: &mut Vec<u8>) {
    if s.is_ascii() {
        let start = out.len();
        out.extend_from_slice(s.as_bytes());
        if upper {
            out[start..].make_ascii_uppercase();
        } else {
            out[start..].make_ascii_lowercase();
        }
    } else if upper {
        for c in s.chars().flat_map(char::to_uppercase) {
            push_char(out, c);
        }
    } else if s.contains('Σ') {
        out.extend_from_slice(s.to_lowercase().as_bytes());
    } else {
        for c in s.chars().flat_map(char::to_lowercase) {
            push_char(out, c);
        }
    }
}

/// The length of `s` in UTF-16 code units (Java's `String.length()`).
fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    // One unit per UTF-8 lead byte, two for a 4-byte sequence.
    s.bytes()
        .map(|b| usize::from((b as i8) >= -64) + usize::from(b >= 0xF0))
        .sum()
}

/// Appends Java's `SubstringTransform` of `s` from 1-based UTF-16 position
/// `pos`, `len` units long (to the end when `None`); `Err` where Java
/// throws (a start below 1 within the string, a length below 1, and an end
/// `pos + len - 1` past `i32::MAX`: Java computes it as an `int`, which
/// wraps below the start).
fn substring(s: &str, pos: i32, len: Option<i32>, out: &mut Vec<u8>) -> Result<(), ()> {
    let units = utf16_len(s) as i64;
    let end = len.map_or(units, |l| i64::from(pos.wrapping_add(l).wrapping_sub(1)));
    let (pos, end) = (i64::from(pos), end.min(units));
    if pos > units {
        return Ok(());
    }
    let begin = pos - 1;
    if begin < 0 || begin >= end {
        return Err(());
    }
    let (begin, end) = (begin as usize, end as usize);
    if s.len() == units as usize {
        out.extend_from_slice(&s.as_bytes()[begin..end]);
        return Ok(());
    }
    let mut unit = 0;
    for c in s.chars() {
        let (from, to) = (unit, unit + c.len_utf16());
        unit = to;
        if to <= begin {
            continue;
        }
        if from >= end {
            break;
        }
        // A cut through a surrogate pair leaves a lone surrogate, which
        // Java's encoder writes as `?`.
        push_char(out, if from >= begin && to <= end { c } else { '?' });
    }
    Ok(())
}

/// The characters TRIM strips, as Java's `String.contains` of a
/// one-unit string sees them: a set of UTF-16 code units.
struct TrimSet {
    ascii: [bool; 128],
    /// The non-ASCII units.
    other: Vec<u16>,
    /// Whether some unit is a surrogate (a character past U+FFFF).
    surrogates: bool,
}

impl Default for TrimSet {
    fn default() -> TrimSet {
        TrimSet {
            ascii: [false; 128],
            other: Vec::new(),
            surrogates: false,
        }
    }
}

impl TrimSet {
    fn reset(&mut self, chars: &str) {
        self.ascii = [false; 128];
        self.other.clear();
        for unit in chars.encode_utf16() {
            match self.ascii.get_mut(usize::from(unit)) {
                Some(slot) => *slot = true,
                None => self.other.push(unit),
            }
        }
        self.surrogates = self.other.iter().any(|&u| (0xD800..0xE000).contains(&u));
    }

    #[inline]
    fn contains(&self, unit: u16) -> bool {
        match self.ascii.get(usize::from(unit)) {
            Some(&b) => b,
            None => self.other.contains(&unit),
        }
    }

    /// Appends `s` trimmed at `side`, as Java's `StringUtils.ltrim` /
    /// `rtrim` (BOTH: ltrim then rtrim), unit by unit.
    fn trim(&self, s: &str, side: TrimSide, scratch: &mut Vec<u16>, out: &mut Vec<u8>) {
        let left = side != TrimSide::Trailing;
        let right = side != TrimSide::Leading;
        if !self.surrogates {
            // No surrogate can be stripped: units and characters agree.
            let strip = |c: char| u16::try_from(u32::from(c)).is_ok_and(|u| self.contains(u));
            let mut t = s;
            if left {
                t = t.trim_start_matches(strip);
            }
            if right {
                t = t.trim_end_matches(strip);
            }
            out.extend_from_slice(t.as_bytes());
            return;
        }
        scratch.clear();
        scratch.extend(s.encode_utf16());
        let (mut start, mut end) = (0, scratch.len());
        while left && start < end && self.contains(scratch[start]) {
            start += 1;
        }
        while right && end > start && self.contains(scratch[end - 1]) {
            end -= 1;
        }
        for c in char::decode_utf16(scratch[start..end].iter().copied()) {
            push_char(out, c.unwrap_or('?'));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_lengths() {
        for s in ["", "abc", "é", "中文", "😀", "a😀b", "ß\u{10FFFF}"] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s}");
        }
    }

    use std::string::ToString;

    /// Every two-byte character (the cache of `TwoByteCase`): in a column
    /// of its own (twice, so that the second is read from the cache),
    /// and all in one column: UPPER and LOWER as Rust's `str` mappings
    /// (Java's) give them.
    #[test]
    fn every_two_byte_character_maps_as_the_str_mappings() {
        let chars: Vec<char> = (0x80..0x800).filter_map(char::from_u32).collect();
        let mut columns: Vec<Vec<String>> = chars
            .iter()
            .map(|c| std::vec![format!("a{c}Z{c}"), format!("{c}")])
            .collect();
        columns.push(chars.iter().map(|c| format!("-{c}")).collect());
        for upper in [true, false] {
            for rows in &columns {
                let column = arrow_array::StringArray::from(rows.clone());
                // LOWER of a buffer holding `Σ` is row by row (final sigma).
                let Some(out) = buffer_case(&column, upper).unwrap() else {
                    assert!(!upper && rows.iter().any(|r| r.contains('Σ')));
                    continue;
                };
                let out = out.as_string::<i32>();
                for (i, row) in rows.iter().enumerate() {
                    let want = if upper {
                        row.to_uppercase()
                    } else {
                        row.to_lowercase()
                    };
                    assert_eq!(out.value(i), want, "upper {upper}, {row:?}");
                }
            }
        }
    }

    #[test]
    fn large_offsets_write_the_same_strings() {
        let t = Transform::Concat(std::vec![
            TransformInput::field("a"),
            TransformInput::literal("-"),
        ]);
        let schema = Schema::new(std::vec![arrow_schema::Field::new(
            "a",
            DataType::Utf8,
            true
        )]);
        let find = |s: &Schema, n: &str| s.index_of(n);
        let r = Resolved::new(&t, &schema, &find).unwrap();
        let a: ArrayRef = Arc::new(arrow_array::StringArray::from(std::vec![
            Some("x"),
            None,
            Some("é")
        ]));
        let small = r.evaluate_as::<i32>(core::slice::from_ref(&a), 3).unwrap();
        let large = r.evaluate_as::<i64>(&[a], 3).unwrap();
        let small: Vec<_> = small
            .as_string::<i32>()
            .iter()
            .map(|s| s.map(str::to_string))
            .collect();
        let large: Vec<_> = large
            .as_string::<i64>()
            .iter()
            .map(|s| s.map(str::to_string))
            .collect();
        assert_eq!(small, large);
        assert_eq!(
            small,
            [Some("x-".to_string()), None, Some("é-".to_string())]
        );
    }

    /// Random strings (0 to 40 characters from ASCII and letters whose
    /// mappings change their length), with nulls.
    fn random_rows(seed: u64, rows: usize) -> Vec<Option<String>> {
        // The first 5 ASCII; up to 12, letters whose mappings keep their
        // byte length; then the others (`Σ`: final sigma).
        const LETTERS: &[&str] = &[
            "a", "B", "z", " ", "-", "ß", "σ", "ǅ", "é", "中", "😀", "\u{307}", "Σ", "ﬁ", "İ", "ı",
        ];
        // Columns of a third of the seeds keep to the same-length letters.
        let same_length = seed.is_multiple_of(3);
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..rows)
            .map(|_| {
                if next() % 7 == 0 {
                    return None;
                }
                let len = next() % 41;
                let ascii = next() % 3 == 0;
                Some(
                    (0..len)
                        .map(|_| {
                            let r = next() as usize;
                            if ascii {
                                LETTERS[r % 5]
                            } else if same_length {
                                LETTERS[r % 12]
                            } else {
                                LETTERS[r % LETTERS.len()]
                            }
                        })
                        .collect(),
                )
            })
            .collect()
    }

    /// A Utf8 / LargeUtf8 column's rows as owned strings.
    fn utf8_rows(a: &ArrayRef) -> Vec<Option<String>> {
        match a.data_type() {
            DataType::Utf8 => a
                .as_string::<i32>()
                .iter()
                .map(|s| s.map(str::to_string))
                .collect(),
            _ => a
                .as_string::<i64>()
                .iter()
                .map(|s| s.map(str::to_string))
                .collect(),
        }
    }

    fn schema_ab() -> Schema {
        Schema::new(std::vec![
            arrow_schema::Field::new("a", DataType::Utf8, true),
            arrow_schema::Field::new("b", DataType::Utf8, true),
        ])
    }

    /// UPPER / LOWER over the whole values buffer, CONCAT and CONCAT_WS
    /// with precomputed offsets, against each row mapped on its own, on
    /// Utf8 and LargeUtf8, whole and sliced.
    #[test]
    fn buffer_kernels_match_rows_one_by_one() {
        let find = |s: &Schema, n: &str| s.index_of(n);
        let schema = schema_ab();
        let field = TransformInput::field;
        let transforms = [
            Transform::Upper(field("a")),
            Transform::Lower(field("a")),
            Transform::Concat(std::vec![
                field("a"),
                TransformInput::literal("-"),
                field("b")
            ]),
            Transform::Concat(std::vec![field("a"), field("b"), field("a")]),
            Transform::ConcatWs {
                separator: TransformInput::literal(", "),
                inputs: std::vec![field("a"), TransformInput::Literal(None), field("b")],
            },
            Transform::ConcatWs {
                separator: field("b"),
                inputs: std::vec![field("a"), TransformInput::literal("ß"), field("a")],
            },
        ];
        let row = |t: &Transform, a: Option<&str>, b: Option<&str>| -> Option<String> {
            let get = |i: &TransformInput| match i {
                TransformInput::Field(f) if f.name == "a" => a.map(str::to_string),
                TransformInput::Field(_) => b.map(str::to_string),
                TransformInput::Literal(s) => s.clone(),
            };
            match t {
                Transform::Upper(i) => get(i).map(|s| s.to_uppercase()),
                Transform::Lower(i) => get(i).map(|s| s.to_lowercase()),
                Transform::Concat(xs) => xs
                    .iter()
                    .map(get)
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.concat()),
                Transform::ConcatWs { separator, inputs } => get(separator)
                    .map(|sep| inputs.iter().filter_map(get).collect::<Vec<_>>().join(&sep)),
                _ => unreachable!(),
            }
        };
        for seed in 1..40u64 {
            let rows = (seed as usize * 7) % 60;
            let a = random_rows(seed, rows);
            let b = random_rows(seed * 31 + 5, rows);
            let columns: [(ArrayRef, ArrayRef); 2] = [
                (
                    Arc::new(arrow_array::StringArray::from(a.clone())),
                    Arc::new(arrow_array::StringArray::from(b.clone())),
                ),
                (
                    Arc::new(LargeStringArray::from(a.clone())),
                    Arc::new(LargeStringArray::from(b.clone())),
                ),
            ];
            for t in &transforms {
                let r = Resolved::new(t, &schema, &find).unwrap();
                for (ca, cb) in &columns {
                    for (from, len) in [(0, rows), (rows.min(3), rows.saturating_sub(5))] {
                        let (sa, sb) = (ca.slice(from, len), cb.slice(from, len));
                        let both = [sa, sb];
                        let read: Vec<ArrayRef> =
                            r.columns.iter().map(|&c| both[c].clone()).collect();
                        let got = r.evaluate(&read, len).unwrap();
                        let want: Vec<Option<String>> = (from..from + len)
                            .map(|i| row(t, a[i].as_deref(), b[i].as_deref()))
                            .collect();
                        assert_eq!(utf8_rows(&got), want, "{t} seed {seed} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn literals_follow_a_large_column() {
        let lit = arrow_array::StringArray::from(std::vec!["a"]);
        assert!(literals_for(&lit, &DataType::Utf8).is_none());
        let large = literals_for(&lit, &DataType::LargeUtf8).unwrap();
        assert_eq!(large.as_string::<i64>().value(0), "a");
        let dict = DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::LargeUtf8));
        let large = literals_for(&lit, &dict).unwrap();
        assert_eq!(large.data_type(), &DataType::LargeUtf8);
    }
}
