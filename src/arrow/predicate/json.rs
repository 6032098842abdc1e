//! Paimon's predicate JSON (feature `json`): [`Predicate::from_paimon_json`]
//! and [`Predicate::to_paimon_json`].
//!
//! The wire format Paimon Java writes with `JsonSerdeUtil` (REST catalog
//! row filters, partition filters of `listPartitionsByFilter`, pypaimon):
//!
//! ```text
//! {"kind":"LEAF","transform":T,"function":"EQUAL","literals":[1]}
//! {"kind":"COMPOUND","function":"AND","children":[P, P]}
//! T: {"name":"FIELD_REF","fieldRef":{"index":0,"name":"f0","type":"INT"}}
//!    {"name":"CAST","fieldRef":{...},"type":"BIGINT"}
//!    {"name":"UPPER"|"LOWER"|"CONCAT"|"CONCAT_WS","inputs":[fieldRef | "text" | null, ...]}
//!    {"name":"SUBSTRING","inputs":[input, pos, len?]}
//!    {"name":"TRIM","inputs":[input, chars?],"flag":"BOTH"|"LEADING"|"TRAILING"}
//!    {"name":"NULL"}
//! ```
//!
//! Reading resolves each field reference by name in the given schema (its
//! `index` is not trusted), checks its Paimon type against the column, and
//! reads the literals as the column's value type (a CAST's target type, or
//! STRING for the string transforms). Writing gives Java's bytes: its key
//! order, its type strings, `index` the field's position in the schema, each
//! And / Or with the children it has (as Java's `CompoundPredicate` writes
//! its list), numbers as Java prints them. The design notes
//! and every deliberate difference from Java are in `docs/json.md`.

use super::java_text::{days_from_civil, java_double, java_float};
use super::json_text::{
    base64_decode, base64_encode, format_date, format_decimal, format_instant, format_time,
    format_timestamp, parse_date, parse_decimal, parse_instant, parse_time, parse_timestamp,
    push_json_string, time_nanos,
};
use super::literals::{message, value_type};
use super::predicate::check_depth;
use super::transform::cast::check_cast;
use super::{
    CompareOp, FieldRef, Function, PaimonType, PaimonTypeRoot, PositionInput, Predicate, Transform,
    TransformInput, TrimSide,
};
use crate::arrow::Leaf;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type,
    Int8Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType,
};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, BooleanArray, Date32Array, Decimal128Array,
    FixedSizeBinaryArray, Float32Array, Float64Array, Int16Array, Int32Array, Int64Array,
    Int8Array, LargeBinaryArray, LargeStringArray, StringArray, StringViewArray,
    Time32MillisecondArray, Time32SecondArray, Time64MicrosecondArray, Time64NanosecondArray,
    TimestampMicrosecondArray, TimestampMillisecondArray, TimestampNanosecondArray,
    TimestampSecondArray,
};
use arrow_schema::{ArrowError, DataType, Schema, TimeUnit};
use serde_json::{Map, Value};
use std::boxed::Box;
use std::format;
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec::Vec;

const NANOS_PER_DAY: i128 = 86_400_000_000_000;

impl Predicate {
    /// Reads a predicate from Paimon's predicate JSON, resolving its fields
    /// by name in `schema`.
    ///
    /// Accepts every leaf function and transform name of Paimon's registry,
    /// plus IS_NAN (Java writes it but cannot read it back), the
    /// `NOT_STARTS_WITH` / `NOT_ENDS_WITH` / `NOT_CONTAINS` / `NOT_LIKE` of
    /// newer Paimon, and SUBSTRING / TRIM under the names their Java classes
    /// declare. An AND / OR may have any number of children, and the tree is
    /// kept as read (Java's `PredicateBuilder.and` nests binary nodes, a
    /// list-built `CompoundPredicate` has more children), so that writing
    /// gives the same bytes back, as Java's own read and write do.
    ///
    /// Literals are read in both encodings Paimon writers have used: dates,
    /// times and timestamps as ISO strings or as Jackson's arrays
    /// (`[2024,1,15]`), TIMESTAMP_LTZ as an ISO instant or decimal epoch
    /// seconds, DECIMAL as a plain decimal string or a JSON number (exactly,
    /// never through `f64`), FLOAT / DOUBLE as numbers or `"NaN"`,
    /// `"Infinity"`, `"-Infinity"`; BINARY as base64 (Jackson's `byte[]`).
    ///
    /// # Errors
    ///
    /// [`ArrowError::ParseError`] whose message starts with the JSON path of
    /// the problem (`children[1].literals[0]: expected INT, got "abc"`) for:
    /// malformed JSON, or JSON nested more than serde_json's 128 levels
    /// (63 levels of And / Or over plain fields, fewer over transforms:
    /// [`to_paimon_json`](Predicate::to_paimon_json) writes deeper trees,
    /// which Paimon's Jackson 2.14, with no nesting limit, reads); a missing
    /// key or a value of the wrong JSON type; an unknown kind, function or
    /// transform; an empty AND / OR (Java would
    /// build one; this crate deliberately does not); a field missing from
    /// `schema`, or whose Paimon type does not match its column; a literal
    /// of the wrong type, or out of its type's range (Java wraps `300` into
    /// TINYINT `44`; this is an error here), or with more digits than the
    /// type keeps; literals that do not suit the function (their count, a
    /// bad Like pattern, see [`Function::validate`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::Predicate;
    ///
    /// let schema = Schema::new(vec![Field::new("f0", DataType::Int32, true)]);
    /// let json = r#"{"kind":"LEAF","transform":{"name":"FIELD_REF","fieldRef":{"index":0,"name":"f0","type":"INT"}},"function":"EQUAL","literals":[1]}"#;
    /// let p = Predicate::from_paimon_json(json, &schema)?;
    /// assert_eq!(p.to_string(), "f0 = 1");
    /// assert_eq!(p.to_paimon_json(&schema)?, json);
    ///
    /// let bad = json.replace("[1]", r#"["abc"]"#);
    /// let err = Predicate::from_paimon_json(&bad, &schema).unwrap_err();
    /// assert!(err.to_string().contains(r#"literals[0]: expected INT, got "abc""#));
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn from_paimon_json(json: &str, schema: &Schema) -> Result<Predicate, ArrowError> {
        let value: Value = serde_json::from_str(json).map_err(|e| {
            // serde_json reads 128 levels of nesting; an And / Or takes two
            // (its object and its children's array), a leaf a few more.
            let hint = if e.to_string().starts_with("recursion limit exceeded") {
                " (JSON nested more than 128 levels deep: about 60 levels of And / Or)"
            } else {
                ""
            };
            error("", &format!("malformed JSON: {e}{hint}"))
        })?;
        let raw = Reader { schema }.predicate(&value, "")?;
        Ok(raw)
    }

    /// Writes the predicate as Paimon Java writes it (`JsonSerdeUtil`'s
    /// compact form), byte for byte: the same keys in the same order, the
    /// Paimon type each field reference and CAST was given (a field without
    /// one gets the type Paimon gives its column, with ` NOT NULL` for a
    /// non-nullable field), `index` the field's position in `schema`, and
    /// each And / Or with its own children, as Java writes a
    /// `CompoundPredicate` (build the nesting of `PredicateBuilder.and` /
    /// `or` to get its bytes). Numbers are printed as JDK 17
    /// prints them (`1.0E10`, `4.9E-324`, `"NaN"`). Literals use the encoding
    /// of newer Paimon writers: ISO strings for dates, times and timestamps,
    /// plain decimal strings for DECIMAL, base64 for BINARY.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] for an empty And / Or, a tree
    /// deeper than [`Predicate::MAX_DEPTH`], a field missing from `schema`, a
    /// column type Paimon has no type for, or a literal array of a type the
    /// format cannot carry.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::Int32Array;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let schema = Arc::new(Schema::new(vec![Field::new("f0", DataType::Int32, false)]));
    /// let p = PredicateBuilder::new(schema.clone());
    /// let pred = p.and(vec![
    ///     p.greater_than("f0", &Int32Array::new_scalar(1))?,
    ///     p.less_than("f0", &Int32Array::new_scalar(9))?,
    ///     p.is_not_null("f0")?,
    /// ])?;
    /// let json = pred.to_paimon_json(&schema)?;
    /// // One AND of three children, as the tree holds them (Java's
    /// // PredicateBuilder.and would nest AND(a, AND(b, c))).
    /// assert!(json.starts_with(r#"{"kind":"COMPOUND","function":"AND","children":[{"kind":"LEAF""#));
    /// assert_eq!(json.matches("COMPOUND").count(), 1);
    /// assert!(json.contains(r#""type":"INT NOT NULL""#));
    /// // Read back, the fields keep the Paimon type they were given; the bytes are stable.
    /// let back = bitbytes::arrow::Predicate::from_paimon_json(&json, &schema)?;
    /// assert_eq!(back.to_paimon_json(&schema)?, json);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn to_paimon_json(&self, schema: &Schema) -> Result<String, ArrowError> {
        check_depth(self)?;
        let mut out = String::new();
        Writer { schema }.predicate(self, "", &mut out)?;
        Ok(out)
    }
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

/// The JSON name of a leaf function (Paimon's `LeafFunction.toJson()`).
fn function_name(function: Function) -> &'static str {
    use Function::*;
    match function {
        IsNull => "IS_NULL",
        IsNotNull => "IS_NOT_NULL",
        IsNaN => "IS_NAN",
        Compare(CompareOp::Equal) => "EQUAL",
        Compare(CompareOp::NotEqual) => "NOT_EQUAL",
        Compare(CompareOp::LessThan) => "LESS_THAN",
        Compare(CompareOp::LessOrEqual) => "LESS_OR_EQUAL",
        Compare(CompareOp::GreaterThan) => "GREATER_THAN",
        Compare(CompareOp::GreaterOrEqual) => "GREATER_OR_EQUAL",
        In => "IN",
        NotIn => "NOT_IN",
        Between => "BETWEEN",
        NotBetween => "NOT_BETWEEN",
        StartsWith => "STARTS_WITH",
        EndsWith => "ENDS_WITH",
        Contains => "CONTAINS",
        Like => "LIKE",
        NotStartsWith => "NOT_STARTS_WITH",
        NotEndsWith => "NOT_ENDS_WITH",
        NotContains => "NOT_CONTAINS",
        NotLike => "NOT_LIKE",
        AlwaysTrue => "TRUE",
        AlwaysFalse => "FALSE",
        ArrayContains => "ARRAY_CONTAINS",
        ArrayContainsAll => "ARRAY_CONTAINS_ALL",
        ArraysOverlap => "ARRAYS_OVERLAP",
    }
}

/// The function of a JSON name.
fn function_of(name: &str) -> Option<Function> {
    Function::ALL
        .iter()
        .copied()
        .find(|&f| function_name(f) == name)
}

/// The type of a leaf's literals when its transform's values have type
/// `output`: the value type of a dictionary or run-end column, and the
/// element type of a list for the array functions.
fn literal_type(function: Function, output: &DataType) -> DataType {
    let output = value_type(output);
    match (function, output) {
        (
            Function::ArrayContains | Function::ArrayContainsAll | Function::ArraysOverlap,
            DataType::List(element)
            | DataType::LargeList(element)
            | DataType::FixedSizeList(element, _),
        ) => value_type(element.data_type()).clone(),
        _ => output.clone(),
    }
}

const TRANSFORMS: &str =
    "FIELD_REF, CAST, UPPER, LOWER, CONCAT, CONCAT_WS, SUBSTRING, TRIM or NULL";

// ---------------------------------------------------------------------------
// Errors and paths
// ---------------------------------------------------------------------------

/// A parse error at the JSON path `path` (`(root)` for the document).
fn error(path: &str, what: &str) -> ArrowError {
    let path = if path.is_empty() { "(root)" } else { path };
    ArrowError::ParseError(format!("{path}: {what}"))
}

/// `path.key`.
fn at(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A JSON value as it appears in a message, shortened past 60 characters.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn expected(what: &str, value: &Value) -> String {
    format!("expected {what}, got {}", describe(value))
}

fn object<'v>(value: &'v Value, path: &str) -> Result<&'v Map<String, Value>, ArrowError> {
    value
        .as_object()
        .ok_or_else(|| error(path, &expected("an object", value)))
}

fn member<'v>(
    object: &'v Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'v Value, ArrowError> {
    object
        .get(key)
        .ok_or_else(|| error(&at(path, key), "missing"))
}

fn text<'v>(value: &'v Value, path: &str) -> Result<&'v str, ArrowError> {
    value
        .as_str()
        .ok_or_else(|| error(path, &expected("a string", value)))
}

fn array<'v>(value: &'v Value, path: &str) -> Result<&'v [Value], ArrowError> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| error(path, &expected("an array", value)))
}

/// The Paimon name of an Arrow type, for messages.
fn type_name(data_type: &DataType) -> String {
    PaimonType::from_arrow(data_type, true)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| data_type.to_string())
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

struct Reader<'s> {
    schema: &'s Schema,
}

impl Reader<'_> {
    fn predicate(&self, value: &Value, path: &str) -> Result<Predicate, ArrowError> {
        let object = object(value, path)?;
        let kind_path = at(path, "kind");
        match text(member(object, "kind", path)?, &kind_path)? {
            "LEAF" => self.leaf(object, path),
            "COMPOUND" => self.compound(object, path),
            other => Err(error(
                &kind_path,
                &format!("unknown kind \"{other}\" (expected LEAF or COMPOUND)"),
            )),
        }
    }

    fn compound(&self, object: &Map<String, Value>, path: &str) -> Result<Predicate, ArrowError> {
        let function_path = at(path, "function");
        let and = match text(member(object, "function", path)?, &function_path)? {
            "AND" => true,
            "OR" => false,
            other => {
                return Err(error(
                    &function_path,
                    &format!("unknown compound function \"{other}\" (expected AND or OR)"),
                ))
            }
        };
        let children_path = at(path, "children");
        let children = array(member(object, "children", path)?, &children_path)?;
        if children.is_empty() {
            return Err(error(
                &children_path,
                &format!(
                    "an empty {} is not accepted (it needs at least one child)",
                    if and { "AND" } else { "OR" }
                ),
            ));
        }
        let children = children
            .iter()
            .enumerate()
            .map(|(i, c)| self.predicate(c, &format!("{children_path}[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(if and {
            Predicate::And(children)
        } else {
            Predicate::Or(children)
        })
    }

    fn leaf(&self, object: &Map<String, Value>, path: &str) -> Result<Predicate, ArrowError> {
        let transform_path = at(path, "transform");
        let (transform, output) =
            self.transform(member(object, "transform", path)?, &transform_path)?;
        let function_path = at(path, "function");
        let name = text(member(object, "function", path)?, &function_path)?;
        let function = function_of(name)
            .ok_or_else(|| error(&function_path, &format!("unknown leaf function \"{name}\"")))?;
        let literals_path = at(path, "literals");
        let values = match object.get("literals") {
            None | Some(Value::Null) => &[][..],
            Some(v) => array(v, &literals_path)?,
        };
        let literals = read_literals(values, &literal_type(function, &output), &literals_path)?;
        function
            .validate(&output, literals.as_ref())
            .map_err(|e| error(&literals_path, &message(e)))?;
        Ok(Predicate::Leaf(Leaf::with_transform(
            function, transform, literals,
        )))
    }

    /// A transform and the Arrow type of its values.
    fn transform(&self, value: &Value, path: &str) -> Result<(Transform, DataType), ArrowError> {
        let object = object(value, path)?;
        let name_path = at(path, "name");
        let name = text(member(object, "name", path)?, &name_path)?;
        let inputs = || -> Result<(&[Value], String), ArrowError> {
            let inputs_path = at(path, "inputs");
            Ok((
                array(member(object, "inputs", path)?, &inputs_path)?,
                inputs_path,
            ))
        };
        let count = |inputs: &[Value], inputs_path: &str, range: (usize, usize)| {
            if (range.0..=range.1).contains(&inputs.len()) {
                Ok(())
            } else {
                let want = if range.0 == range.1 {
                    range.0.to_string()
                } else if range.1 == usize::MAX {
                    format!("at least {}", range.0)
                } else {
                    format!("{} or {}", range.0, range.1)
                };
                Err(error(
                    inputs_path,
                    &format!("{name} takes {want} inputs, got {}", inputs.len()),
                ))
            }
        };
        Ok(match name {
            "FIELD_REF" => {
                let (field, column) =
                    self.field_ref(member(object, "fieldRef", path)?, &at(path, "fieldRef"))?;
                (Transform::Field(field), column)
            }
            "CAST" => {
                let (field, column) =
                    self.field_ref(member(object, "fieldRef", path)?, &at(path, "fieldRef"))?;
                let type_path = at(path, "type");
                let to = paimon_type(member(object, "type", path)?, &type_path)?;
                let from = match &field.paimon_type {
                    Some(from) => from.clone(),
                    None => PaimonType::from_arrow(&column, true)
                        .map_err(|e| error(&type_path, &e.to_string()))?,
                };
                // The literals' type is the cast's result type; a pair with
                // no Paimon cast rule fails here, as in Java's parser.
                let output =
                    check_cast(&from, &to).map_err(|e| error(&type_path, &e.to_string()))?;
                (Transform::Cast { field, to }, output)
            }
            "UPPER" | "LOWER" => {
                let (inputs, inputs_path) = inputs()?;
                count(inputs, &inputs_path, (1, 1))?;
                let input = self.string_input(&inputs[0], &format!("{inputs_path}[0]"))?;
                let t = if name == "UPPER" {
                    Transform::Upper(input)
                } else {
                    Transform::Lower(input)
                };
                (t, DataType::Utf8)
            }
            "CONCAT" | "CONCAT_WS" => {
                let (inputs, inputs_path) = inputs()?;
                let mut read = inputs
                    .iter()
                    .enumerate()
                    .map(|(i, v)| self.string_input(v, &format!("{inputs_path}[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                let t = if name == "CONCAT" {
                    Transform::Concat(read)
                } else {
                    count(inputs, &inputs_path, (2, usize::MAX))?;
                    let separator = read.remove(0);
                    Transform::ConcatWs {
                        separator,
                        inputs: read,
                    }
                };
                (t, DataType::Utf8)
            }
            "SUBSTRING" => {
                let (inputs, inputs_path) = inputs()?;
                count(inputs, &inputs_path, (2, 3))?;
                let input = self.string_input(&inputs[0], &format!("{inputs_path}[0]"))?;
                let pos = self.position_input(&inputs[1], &format!("{inputs_path}[1]"))?;
                let len = match inputs.get(2) {
                    Some(v) => Some(self.position_input(v, &format!("{inputs_path}[2]"))?),
                    None => None,
                };
                (Transform::Substring { input, pos, len }, DataType::Utf8)
            }
            "TRIM" => {
                let (inputs, inputs_path) = inputs()?;
                count(inputs, &inputs_path, (1, 2))?;
                let input = self.string_input(&inputs[0], &format!("{inputs_path}[0]"))?;
                let chars = match inputs.get(1) {
                    Some(v) => Some(self.string_input(v, &format!("{inputs_path}[1]"))?),
                    None => None,
                };
                // "flag" is written; "trimFlag" (the Java field's name) is read too.
                let (key, flag) = match (object.get("flag"), object.get("trimFlag")) {
                    (Some(f), _) => ("flag", f),
                    (None, Some(f)) => ("trimFlag", f),
                    (None, None) => return Err(error(&at(path, "flag"), "missing")),
                };
                let flag_path = at(path, key);
                let side = match text(flag, &flag_path)? {
                    "BOTH" => TrimSide::Both,
                    "LEADING" => TrimSide::Leading,
                    "TRAILING" => TrimSide::Trailing,
                    other => {
                        return Err(error(
                            &flag_path,
                            &format!(
                                "unknown trim flag \"{other}\" (expected BOTH, LEADING or TRAILING)"
                            ),
                        ))
                    }
                };
                (Transform::Trim { input, chars, side }, DataType::Utf8)
            }
            "NULL" => (Transform::Null, DataType::Boolean),
            other => {
                return Err(error(
                    &name_path,
                    &format!("unknown transform \"{other}\" (expected {TRANSFORMS})"),
                ))
            }
        })
    }

    /// A field reference resolved by name, and its column's Arrow type.
    fn field_ref(&self, value: &Value, path: &str) -> Result<(FieldRef, DataType), ArrowError> {
        let object = object(value, path)?;
        let name_path = at(path, "name");
        let name = text(member(object, "name", path)?, &name_path)?;
        let type_path = at(path, "type");
        let paimon = paimon_type(member(object, "type", path)?, &type_path)?;
        let field = self.schema.field_with_name(name).map_err(|_| {
            let names: Vec<&str> = self
                .schema
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect();
            error(
                &name_path,
                &format!(
                    "field \"{name}\" is not in the schema (its columns: {})",
                    names.join(", ")
                ),
            )
        })?;
        if !paimon.matches_arrow(field.data_type()) {
            return Err(error(
                &type_path,
                &format!(
                    "field \"{name}\" is {paimon} in the predicate but its column is {} ({})",
                    field.data_type(),
                    type_name(field.data_type())
                ),
            ));
        }
        Ok((FieldRef::typed(name, paimon), field.data_type().clone()))
    }

    /// A string transform input: a CHAR / VARCHAR field, a string, or null.
    fn string_input(&self, value: &Value, path: &str) -> Result<TransformInput, ArrowError> {
        match value {
            Value::Null => Ok(TransformInput::Literal(None)),
            Value::String(s) => Ok(TransformInput::Literal(Some(s.clone()))),
            Value::Object(_) => {
                let (field, _) = self.field_ref(value, path)?;
                let is_string = matches!(
                    field.paimon_type.as_ref().map(|t| &t.root),
                    Some(PaimonTypeRoot::Char(_) | PaimonTypeRoot::VarChar(_))
                );
                if !is_string {
                    return Err(error(
                        &at(path, "type"),
                        &format!(
                            "a string transform reads CHAR / VARCHAR / STRING fields; \"{}\" is {}",
                            field.name,
                            field.paimon_type.map(|t| t.to_string()).unwrap_or_default()
                        ),
                    ));
                }
                Ok(TransformInput::Field(field))
            }
            other => Err(error(
                path,
                &expected("a field reference, a string or null", other),
            )),
        }
    }

    /// A SUBSTRING position or length: an INT field, an integer, or null.
    fn position_input(&self, value: &Value, path: &str) -> Result<PositionInput, ArrowError> {
        match value {
            Value::Null => Ok(PositionInput::Literal(None)),
            Value::Number(_) => {
                let v = integer(value, "INT", i32::MIN.into(), i32::MAX.into())
                    .map_err(|why| error(path, &why))?;
                Ok(PositionInput::Literal(Some(v as i32)))
            }
            Value::Object(_) => {
                let (field, _) = self.field_ref(value, path)?;
                if field.paimon_type.as_ref().map(|t| &t.root) != Some(&PaimonTypeRoot::Int) {
                    return Err(error(
                        &at(path, "type"),
                        &format!(
                            "a SUBSTRING position is an INT field; \"{}\" is not",
                            field.name
                        ),
                    ));
                }
                Ok(PositionInput::Field(field))
            }
            other => Err(error(
                path,
                &expected("an INT field, an integer or null", other),
            )),
        }
    }
}

/// A Paimon type: a type string, or `{"type":"ARRAY","element":T}`.
fn paimon_type(value: &Value, path: &str) -> Result<PaimonType, ArrowError> {
    match value {
        Value::String(s) => s.parse().map_err(|e: ArrowError| error(path, &message(e))),
        Value::Object(object) => {
            let type_path = at(path, "type");
            let root = text(member(object, "type", path)?, &type_path)?;
            let nullable = match root.trim().to_ascii_uppercase().as_str() {
                "ARRAY" => true,
                "ARRAY NOT NULL" => false,
                other => {
                    return Err(error(
                        &type_path,
                        &format!("unsupported Paimon type \"{other}\" (of the nested types only ARRAY is read)"),
                    ))
                }
            };
            let element = paimon_type(member(object, "element", path)?, &at(path, "element"))?;
            Ok(PaimonType {
                root: PaimonTypeRoot::Array(Box::new(element)),
                nullable,
            })
        }
        other => Err(error(path, &expected("a Paimon type", other))),
    }
}

// ---------------------------------------------------------------------------
// Literals in
// ---------------------------------------------------------------------------

/// The non-null values read by `read`, nulls as `None`; an error names the
/// literal's path.
fn each<T>(
    values: &[Value],
    path: &str,
    mut read: impl FnMut(&Value) -> Result<T, String>,
) -> Result<Vec<Option<T>>, ArrowError> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Null => Ok(None),
            v => read(v)
                .map(Some)
                .map_err(|why| error(&format!("{path}[{i}]"), &why)),
        })
        .collect()
}

/// The most bytes a leaf's literals may take (1 GiB).
const LITERAL_BYTES_MAX: usize = 1 << 30;

/// The bytes one slot of `data_type` takes in an array, nested fixed
/// sizes multiplied out (a variable-length type: its offset or view).
fn slot_bytes(data_type: &DataType) -> usize {
    match data_type {
        DataType::FixedSizeBinary(n) => usize::try_from(*n).unwrap_or(0),
        DataType::FixedSizeList(f, n) => usize::try_from(*n)
            .unwrap_or(0)
            .saturating_mul(slot_bytes(f.data_type())),
        DataType::Struct(fields) => fields
            .iter()
            .map(|f| slot_bytes(f.data_type()))
            .fold(0, usize::saturating_add),
        t => t.primitive_width().unwrap_or(16),
    }
}

/// An integer literal in `min..=max`.
fn integer(value: &Value, name: &str, min: i128, max: i128) -> Result<i128, String> {
    let Value::Number(n) = value else {
        return Err(expected(name, value));
    };
    let text = n.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected {name} (an integer), got {text}"));
    }
    match text.parse::<i128>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "{text} is out of the range of {name} ({min}..={max})"
        )),
    }
}

/// The text of a JSON number written as an integer (no `.`, `e` or `E`).
fn integer_token(value: &Value) -> Option<String> {
    let Value::Number(n) = value else {
        return None;
    };
    let text = n.to_string();
    (!text.contains(['.', 'e', 'E'])).then_some(text)
}

/// A FLOAT / DOUBLE literal as `f64`: a number, or `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
fn float(value: &Value, name: &str) -> Result<f64, String> {
    match value {
        Value::Number(n) => {
            let text = n.to_string();
            let v: f64 = text.parse().map_err(|_| expected(name, value))?;
            if v.is_infinite() {
                return Err(format!("{text} is out of the range of {name}"));
            }
            // `-0` is the integer 0 to Jackson: `doubleValue()` is +0.0
            // (which Java orders above -0.0).
            Ok(if integer_token(value).is_some() {
                v + 0.0
            } else {
                v
            })
        }
        Value::String(s) => match s.as_str() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(expected(name, value)),
        },
        _ => Err(expected(name, value)),
    }
}

/// Integers of an array literal (`[2024, 1, 15]`).
fn parts(value: &Value, range: (usize, usize), what: &str) -> Result<Vec<i64>, String> {
    let items = value.as_array().ok_or_else(|| expected(what, value))?;
    if !(range.0..=range.1).contains(&items.len()) {
        return Err(expected(what, value));
    }
    items
        .iter()
        .map(|v| integer(v, what, i64::MIN.into(), i64::MAX.into()).map(|v| v as i64))
        .collect()
}

/// A DATE literal in days: `"2024-01-15"` or `[2024, 1, 15]`.
fn date(value: &Value) -> Result<i64, String> {
    let what = "DATE (\"YYYY-MM-DD\" or [year, month, day])";
    match value {
        Value::String(s) => parse_date(s),
        Value::Array(_) => {
            let p = parts(value, (3, 3), what)?;
            days_from_civil(p[0], p[1], p[2])
        }
        _ => None,
    }
    .ok_or_else(|| expected(what, value))
}

/// A TIME literal in nanoseconds of the day: `"10:20:30.5"` or
/// `[10, 20, 30, 500000000]`.
fn time(value: &Value) -> Result<i64, String> {
    let what = "TIME (\"HH:MM:SS.fff\" or [hour, minute, second, nano])";
    match value {
        Value::String(s) => parse_time(s),
        Value::Array(_) => {
            let p = parts(value, (2, 4), what)?;
            time_nanos(p[0], p[1], *p.get(2).unwrap_or(&0), *p.get(3).unwrap_or(&0))
        }
        _ => None,
    }
    .ok_or_else(|| expected(what, value))
}

/// A TIMESTAMP literal as (days, nanosecond of the day):
/// `"2024-01-15T10:20:30"` or `[2024, 1, 15, 10, 20, 30, 0]`.
fn timestamp(value: &Value) -> Result<(i64, i64), String> {
    let what =
        "TIMESTAMP (\"YYYY-MM-DDTHH:MM:SS.fff\" or [year, month, day, hour, minute, second, nano])";
    match value {
        Value::String(s) => parse_timestamp(s),
        Value::Array(_) => {
            let p = parts(value, (5, 7), what)?;
            days_from_civil(p[0], p[1], p[2]).zip(time_nanos(
                p[3],
                p[4],
                *p.get(5).unwrap_or(&0),
                *p.get(6).unwrap_or(&0),
            ))
        }
        _ => None,
    }
    .ok_or_else(|| expected(what, value))
}

/// A TIMESTAMP_LTZ literal as (days, nanosecond of the day) in UTC: an ISO
/// instant or decimal epoch seconds (`1705314030.123000000`).
fn instant(value: &Value) -> Result<(i64, i64), String> {
    let what = "TIMESTAMP_LTZ (an ISO instant \"…Z\" or epoch seconds)";
    match value {
        Value::String(s) => parse_instant(s).ok_or_else(|| expected(what, value)),
        Value::Number(n) => {
            let nanos = parse_decimal(&n.to_string(), 38, 9)
                .map_err(|_| format!("{n} is out of the range of TIMESTAMP_LTZ"))?;
            let days = i64::try_from(nanos.div_euclid(NANOS_PER_DAY))
                .map_err(|_| format!("{n} is out of the range of TIMESTAMP_LTZ"))?;
            Ok((days, nanos.rem_euclid(NANOS_PER_DAY) as i64))
        }
        _ => Err(expected(what, value)),
    }
}

/// Nanoseconds per unit.
fn unit_nanos(unit: &TimeUnit) -> i128 {
    match unit {
        TimeUnit::Second => 1_000_000_000,
        TimeUnit::Millisecond => 1_000_000,
        TimeUnit::Microsecond => 1_000,
        TimeUnit::Nanosecond => 1,
    }
}

/// `nanos` in `unit`, exactly and within `min..=max`.
fn in_unit(nanos: i128, unit: &TimeUnit, name: &str, min: i128, max: i128) -> Result<i128, String> {
    let per = unit_nanos(unit);
    if nanos % per != 0 {
        return Err(format!(
            "the {name} literal has more precision than the column's unit ({unit:?})"
        ));
    }
    let v = nanos / per;
    if !(min..=max).contains(&v) {
        return Err(format!("the {name} literal is out of the column's range"));
    }
    Ok(v)
}

/// A string literal.
fn string(value: &Value, name: &str) -> Result<String, String> {
    value
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| expected(name, value))
}

/// A binary literal: base64 (Jackson's `byte[]`).
fn bytes(value: &Value, name: &str) -> Result<Vec<u8>, String> {
    value
        .as_str()
        .and_then(base64_decode)
        .ok_or_else(|| expected(&format!("{name} (base64)"), value))
}

/// The literals `values`, read as `data_type`.
fn read_literals(
    values: &[Value],
    data_type: &DataType,
    path: &str,
) -> Result<ArrayRef, ArrowError> {
    if values.is_empty() {
        // IS_NULL, TRUE and the like over a column of any type, a list too.
        return Ok(arrow_array::new_empty_array(data_type));
    }
    // The literals' array takes a slot of the type's width even for a null
    // (3 million nulls of an ARRAY<FLOAT> of 1536 elements: 18 GB), and a
    // Utf8 / Binary one at most 2 GiB of bytes: refused before it is built.
    let slots = values.len().saturating_mul(slot_bytes(data_type));
    let strings = values
        .iter()
        .map(|v| v.as_str().map_or(0, str::len))
        .fold(0usize, usize::saturating_add);
    if slots > LITERAL_BYTES_MAX || strings > i32::MAX as usize {
        return Err(error(
            path,
            &format!(
                "{} literals of {data_type} take {} bytes, more than the {LITERAL_BYTES_MAX} a \
                 literal list may",
                values.len(),
                slots.max(strings)
            ),
        ));
    }
    let name = type_name(data_type);
    let name = name.as_str();
    macro_rules! ints {
        ($array:ty, $t:ty) => {
            Arc::new(<$array>::from(each(values, path, |v| {
                integer(v, name, <$t>::MIN.into(), <$t>::MAX.into()).map(|v| v as $t)
            })?)) as ArrayRef
        };
    }
    macro_rules! times {
        ($array:ty, $t:ty, $unit:expr) => {
            Arc::new(<$array>::from(each(values, path, |v| {
                let max = if $unit == TimeUnit::Second {
                    86_399
                } else {
                    NANOS_PER_DAY / unit_nanos(&$unit) - 1
                };
                in_unit(i128::from(time(v)?), &$unit, "TIME", 0, max).map(|v| v as $t)
            })?)) as ArrayRef
        };
    }
    macro_rules! timestamps {
        ($array:ty, $unit:expr, $tz:expr) => {{
            let array = <$array>::from(each(values, path, |v| {
                let (days, nanos) = match $tz {
                    Some(_) => instant(v)?,
                    None => timestamp(v)?,
                };
                let total = i128::from(days) * NANOS_PER_DAY + i128::from(nanos);
                in_unit(total, &$unit, "TIMESTAMP", i64::MIN.into(), i64::MAX.into())
                    .map(|v| v as i64)
            })?);
            Arc::new(array.with_timezone_opt($tz.clone())) as ArrayRef
        }};
    }
    Ok(match data_type {
        DataType::Boolean => Arc::new(BooleanArray::from(each(values, path, |v| {
            v.as_bool().ok_or_else(|| expected(name, v))
        })?)),
        DataType::Int8 => ints!(Int8Array, i8),
        DataType::Int16 => ints!(Int16Array, i16),
        DataType::Int32 => ints!(Int32Array, i32),
        DataType::Int64 => ints!(Int64Array, i64),
        DataType::Float32 => Arc::new(Float32Array::from(each(values, path, |v| {
            // An integer token is a Long / BigInteger to Jackson, whose
            // `floatValue()` rounds once; a fraction a Double, rounded to f32.
            if let Some(f) = integer_token(v).and_then(|t| t.parse::<f32>().ok()) {
                if f.is_infinite() {
                    return Err(format!("{v} is out of the range of FLOAT"));
                }
                return Ok(f + 0.0);
            }
            let d = float(v, name)?;
            let f = d as f32;
            if d.is_finite() && f.is_infinite() {
                return Err(format!("{v} is out of the range of FLOAT"));
            }
            Ok(f)
        })?)),
        DataType::Float64 => Arc::new(Float64Array::from(each(values, path, |v| float(v, name))?)),
        DataType::Utf8 => Arc::new(StringArray::from(each(values, path, |v| string(v, name))?)),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(each(values, path, |v| {
            string(v, name)
        })?)),
        DataType::Utf8View => Arc::new(StringViewArray::from(each(values, path, |v| {
            string(v, name)
        })?)),
        DataType::Binary => Arc::new(BinaryArray::from_iter(each(values, path, |v| {
            bytes(v, name)
        })?)),
        DataType::LargeBinary => Arc::new(LargeBinaryArray::from_iter(each(values, path, |v| {
            bytes(v, name)
        })?)),
        DataType::BinaryView => Arc::new(BinaryViewArray::from_iter(each(values, path, |v| {
            bytes(v, name)
        })?)),
        DataType::FixedSizeBinary(n) => {
            let read = each(values, path, |v| {
                let b = bytes(v, name)?;
                if b.len() == *n as usize {
                    Ok(b)
                } else {
                    Err(format!("expected {n} bytes for {name}, got {}", b.len()))
                }
            })?;
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(read.into_iter(), *n)
                    .map_err(|e| error(path, &e.to_string()))?,
            )
        }
        DataType::Decimal128(p, s) if *s >= 0 => {
            let read = each(values, path, |v| match v {
                Value::Number(n) => parse_decimal(&n.to_string(), *p, *s as u8),
                Value::String(t) => parse_decimal(t, *p, *s as u8),
                _ => Err(expected(name, v)),
            })?;
            Arc::new(
                Decimal128Array::from(read)
                    .with_precision_and_scale(*p, *s)
                    .map_err(|e| error(path, &e.to_string()))?,
            )
        }
        DataType::Date32 => Arc::new(Date32Array::from(each(values, path, |v| {
            let days = date(v)?;
            i32::try_from(days).map_err(|_| format!("{v} is out of the range of DATE"))
        })?)),
        DataType::Time32(TimeUnit::Second) => times!(Time32SecondArray, i32, TimeUnit::Second),
        DataType::Time32(TimeUnit::Millisecond) => {
            times!(Time32MillisecondArray, i32, TimeUnit::Millisecond)
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            times!(Time64MicrosecondArray, i64, TimeUnit::Microsecond)
        }
        DataType::Time64(TimeUnit::Nanosecond) => {
            times!(Time64NanosecondArray, i64, TimeUnit::Nanosecond)
        }
        DataType::Timestamp(TimeUnit::Second, tz) => {
            timestamps!(TimestampSecondArray, TimeUnit::Second, tz)
        }
        DataType::Timestamp(TimeUnit::Millisecond, tz) => {
            timestamps!(TimestampMillisecondArray, TimeUnit::Millisecond, tz)
        }
        DataType::Timestamp(TimeUnit::Microsecond, tz) => {
            timestamps!(TimestampMicrosecondArray, TimeUnit::Microsecond, tz)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, tz) => {
            timestamps!(TimestampNanosecondArray, TimeUnit::Nanosecond, tz)
        }
        // Null literals of any other type (an ARRAY column's IS_NULL, or
        // `= null`): Java reads a JSON null as null for every type.
        other if values.iter().all(Value::is_null) => {
            arrow_array::new_null_array(other, values.len())
        }
        other => {
            return Err(error(
                path,
                &format!("literals of Arrow type {other} cannot be read from Paimon JSON"),
            ))
        }
    })
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

struct Writer<'s> {
    schema: &'s Schema,
}

fn invalid(what: String) -> ArrowError {
    ArrowError::InvalidArgumentError(what)
}

impl Writer<'_> {
    fn predicate(
        &self,
        predicate: &Predicate,
        path: &str,
        out: &mut String,
    ) -> Result<(), ArrowError> {
        match predicate {
            Predicate::Leaf(leaf) => {
                out.push_str("{\"kind\":\"LEAF\",\"transform\":");
                self.transform(&leaf.transform, out)?;
                out.push_str(",\"function\":\"");
                out.push_str(function_name(leaf.function));
                out.push_str("\",\"literals\":[");
                let literals = leaf.literals.as_ref();
                for i in 0..literals.len() {
                    if i > 0 {
                        out.push(',');
                    }
                    literal(literals, i, out)?;
                }
                out.push_str("]}");
                Ok(())
            }
            Predicate::And(children) | Predicate::Or(children) => {
                let and = matches!(predicate, Predicate::And(_));
                match children.len() {
                    0 => Err(invalid(format!(
                        "{}: an empty {} cannot be written (it needs at least one child)",
                        if path.is_empty() { "(root)" } else { path },
                        if and { "And" } else { "Or" }
                    ))),
                    _ => self.node(and, children, path, out),
                }
            }
        }
    }

    /// `{"kind":"COMPOUND","function":…,"children":[…]}` of `children` as
    /// they are.
    fn node(
        &self,
        and: bool,
        children: &[Predicate],
        path: &str,
        out: &mut String,
    ) -> Result<(), ArrowError> {
        out.push_str("{\"kind\":\"COMPOUND\",\"function\":\"");
        out.push_str(if and { "AND" } else { "OR" });
        out.push_str("\",\"children\":[");
        for (i, child) in children.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.predicate(child, path, out)?;
        }
        out.push_str("]}");
        Ok(())
    }

    fn transform(&self, transform: &Transform, out: &mut String) -> Result<(), ArrowError> {
        transform.check_inputs()?;
        let name = |out: &mut String, name: &str| {
            out.push_str("{\"name\":\"");
            out.push_str(name);
            out.push('"');
        };
        match transform {
            Transform::Field(field) => {
                name(out, "FIELD_REF");
                out.push_str(",\"fieldRef\":");
                self.field_ref(field, out)?;
            }
            Transform::Cast { field, to } => {
                name(out, "CAST");
                out.push_str(",\"fieldRef\":");
                self.field_ref(field, out)?;
                out.push_str(",\"type\":");
                type_json(to, out);
            }
            Transform::Upper(input) | Transform::Lower(input) => {
                name(
                    out,
                    if matches!(transform, Transform::Upper(_)) {
                        "UPPER"
                    } else {
                        "LOWER"
                    },
                );
                out.push_str(",\"inputs\":[");
                self.string_input(input, out)?;
                out.push(']');
            }
            Transform::Concat(inputs) => {
                name(out, "CONCAT");
                out.push_str(",\"inputs\":[");
                self.string_inputs(inputs.iter(), out)?;
                out.push(']');
            }
            Transform::ConcatWs { separator, inputs } => {
                name(out, "CONCAT_WS");
                out.push_str(",\"inputs\":[");
                self.string_inputs(core::iter::once(separator).chain(inputs), out)?;
                out.push(']');
            }
            Transform::Substring { input, pos, len } => {
                name(out, "SUBSTRING");
                out.push_str(",\"inputs\":[");
                self.string_input(input, out)?;
                for p in core::iter::once(pos).chain(len) {
                    out.push(',');
                    match p {
                        PositionInput::Field(f) => self.field_ref(f, out)?,
                        PositionInput::Literal(Some(v)) => out.push_str(&v.to_string()),
                        PositionInput::Literal(None) => out.push_str("null"),
                    }
                }
                out.push(']');
            }
            Transform::Trim { input, chars, side } => {
                name(out, "TRIM");
                out.push_str(",\"inputs\":[");
                self.string_inputs(core::iter::once(input).chain(chars), out)?;
                out.push_str("],\"flag\":\"");
                out.push_str(match side {
                    TrimSide::Both => "BOTH",
                    TrimSide::Leading => "LEADING",
                    TrimSide::Trailing => "TRAILING",
                });
                out.push('"');
            }
            Transform::Null => name(out, "NULL"),
        }
        out.push('}');
        Ok(())
    }

    fn string_inputs<'i>(
        &self,
        inputs: impl Iterator<Item = &'i TransformInput>,
        out: &mut String,
    ) -> Result<(), ArrowError> {
        for (i, input) in inputs.enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.string_input(input, out)?;
        }
        Ok(())
    }

    fn string_input(&self, input: &TransformInput, out: &mut String) -> Result<(), ArrowError> {
        match input {
            TransformInput::Field(f) => self.field_ref(f, out)?,
            TransformInput::Literal(Some(s)) => push_json_string(out, s),
            TransformInput::Literal(None) => out.push_str("null"),
        }
        Ok(())
    }

    /// `{"index":i,"name":n,"type":T}`, `i` the position in the schema.
    fn field_ref(&self, field: &FieldRef, out: &mut String) -> Result<(), ArrowError> {
        let (index, column) = self.schema.column_with_name(&field.name).ok_or_else(|| {
            invalid(format!(
                "predicate field \"{}\" is not in the schema",
                field.name
            ))
        })?;
        let paimon = match &field.paimon_type {
            Some(t) => t.clone(),
            None => PaimonType::from_arrow(column.data_type(), column.is_nullable())?,
        };
        out.push_str("{\"index\":");
        out.push_str(&index.to_string());
        out.push_str(",\"name\":");
        push_json_string(out, &field.name);
        out.push_str(",\"type\":");
        type_json(&paimon, out);
        out.push('}');
        Ok(())
    }
}

/// A Paimon type as `DataType.serializeJson` writes it: a string, or
/// `{"type":"ARRAY","element":T}`.
fn type_json(paimon: &PaimonType, out: &mut String) {
    match &paimon.root {
        PaimonTypeRoot::Array(element) => {
            out.push_str("{\"type\":\"ARRAY");
            if !paimon.nullable {
                out.push_str(" NOT NULL");
            }
            out.push_str("\",\"element\":");
            type_json(element, out);
            out.push('}');
        }
        _ => push_json_string(out, &paimon.to_string()),
    }
}

/// A Java float text as JSON: a number, or `"NaN"` / `"Infinity"` quoted
/// (Jackson's `QUOTE_NON_NUMERIC_NUMBERS`).
fn push_java_number(out: &mut String, text: &str) {
    if text.ends_with("NaN") || text.ends_with("Infinity") {
        push_json_string(out, text);
    } else {
        out.push_str(text);
    }
}

/// Literal `i` of `array` (not null-checked by the caller).
/// `LocalTime.toString()` of a time of `v` units of `nanos` nanoseconds;
/// an error for one outside the day (a hand-built literal: Java has none).
fn time_text(v: i64, nanos: i64) -> Result<String, ArrowError> {
    match v.checked_mul(nanos) {
        Some(n) if (0..NANOS_PER_DAY as i64).contains(&n) => Ok(format_time(n)),
        _ => Err(ArrowError::InvalidArgumentError(format!(
            "a TIME literal of {v} × {nanos} ns is outside the day"
        ))),
    }
}

fn literal(array: &dyn Array, i: usize, out: &mut String) -> Result<(), ArrowError> {
    if array.is_null(i) {
        out.push_str("null");
        return Ok(());
    }
    let days_nanos = |total: i128| {
        (
            total.div_euclid(NANOS_PER_DAY) as i64,
            total.rem_euclid(NANOS_PER_DAY) as i64,
        )
    };
    match array.data_type() {
        DataType::Boolean => out.push_str(if array.as_boolean().value(i) {
            "true"
        } else {
            "false"
        }),
        DataType::Int8 => out.push_str(&array.as_primitive::<Int8Type>().value(i).to_string()),
        DataType::Int16 => out.push_str(&array.as_primitive::<Int16Type>().value(i).to_string()),
        DataType::Int32 => out.push_str(&array.as_primitive::<Int32Type>().value(i).to_string()),
        DataType::Int64 => out.push_str(&array.as_primitive::<Int64Type>().value(i).to_string()),
        DataType::Float32 => push_java_number(
            out,
            &java_float(array.as_primitive::<Float32Type>().value(i)),
        ),
        DataType::Float64 => push_java_number(
            out,
            &java_double(array.as_primitive::<Float64Type>().value(i)),
        ),
        DataType::Utf8 => push_json_string(out, array.as_string::<i32>().value(i)),
        DataType::LargeUtf8 => push_json_string(out, array.as_string::<i64>().value(i)),
        DataType::Utf8View => push_json_string(out, array.as_string_view().value(i)),
        DataType::Binary => {
            push_json_string(out, &base64_encode(array.as_binary::<i32>().value(i)))
        }
        DataType::LargeBinary => {
            push_json_string(out, &base64_encode(array.as_binary::<i64>().value(i)))
        }
        DataType::BinaryView => {
            push_json_string(out, &base64_encode(array.as_binary_view().value(i)))
        }
        DataType::FixedSizeBinary(_) => {
            push_json_string(out, &base64_encode(array.as_fixed_size_binary().value(i)))
        }
        DataType::Decimal128(_, s) => push_json_string(
            out,
            &format_decimal(array.as_primitive::<Decimal128Type>().value(i), *s),
        ),
        DataType::Date32 => push_json_string(
            out,
            &format_date(array.as_primitive::<Date32Type>().value(i).into()),
        ),
        DataType::Time32(TimeUnit::Second) => push_json_string(
            out,
            &time_text(
                i64::from(array.as_primitive::<Time32SecondType>().value(i)),
                1_000_000_000,
            )?,
        ),
        DataType::Time32(TimeUnit::Millisecond) => push_json_string(
            out,
            &time_text(
                i64::from(array.as_primitive::<Time32MillisecondType>().value(i)),
                1_000_000,
            )?,
        ),
        DataType::Time64(TimeUnit::Microsecond) => push_json_string(
            out,
            &time_text(array.as_primitive::<Time64MicrosecondType>().value(i), 1000)?,
        ),
        DataType::Time64(TimeUnit::Nanosecond) => push_json_string(
            out,
            &time_text(array.as_primitive::<Time64NanosecondType>().value(i), 1)?,
        ),
        DataType::Timestamp(unit, tz) => {
            let v = match unit {
                TimeUnit::Second => array.as_primitive::<TimestampSecondType>().value(i),
                TimeUnit::Millisecond => array.as_primitive::<TimestampMillisecondType>().value(i),
                TimeUnit::Microsecond => array.as_primitive::<TimestampMicrosecondType>().value(i),
                TimeUnit::Nanosecond => array.as_primitive::<TimestampNanosecondType>().value(i),
            };
            let (days, nanos) = days_nanos(i128::from(v) * unit_nanos(unit));
            let text = if tz.is_some() {
                format_instant(days, nanos)
            } else {
                format_timestamp(days, nanos)
            };
            push_json_string(out, &text);
        }
        other => {
            return Err(invalid(format!(
                "literals of Arrow type {other} cannot be written as Paimon JSON"
            )))
        }
    }
    Ok(())
}
