//! [`PredicateBuilder`]: predicates over a schema, with every literal checked
//! against its field's type when the leaf is built.

use super::evaluate::{in_field, resolve};
use super::literals::{message, value_type};
use super::predicate::check_depth;
use super::{CompareOp, Function, Leaf, Predicate, Transform};
use arrow_array::{Array, ArrayRef, Datum, NullArray, StringArray};
use arrow_schema::{ArrowError, DataType, Field, SchemaRef};
use std::format;
use std::string::ToString;
use std::sync::Arc;
use std::vec;
use std::vec::Vec;

/// Builds [`Predicate`]s over the fields of one schema, as Paimon's
/// `PredicateBuilder`: one constructor per leaf function, plus
/// [`and`](PredicateBuilder::and) / [`or`](PredicateBuilder::or).
///
/// Literals are taken as the arrow-ord kernels take them: a comparison's
/// literal is a [`Datum`] holding one value (`&Int64Array::new_scalar(5)`,
/// `&Scalar::new(Int64Array::new_null(1))` for a null literal), an IN list
/// is an array. A literal must have the field's type, or the value type of a
/// dictionary (or run-end encoded) field. Every check runs here, so a
/// predicate that comes out of the builder is valid for any batch with this
/// schema.
///
/// # Errors
///
/// Every constructor returns [`ArrowError::InvalidArgumentError`] when the
/// field is not in the schema, or when a literal does not suit the field
/// (the message names the field and both types), or as
/// [`Function::validate`] (e.g. a string function over a non-string field,
/// a bad Like escape).
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Float64Array, Int64Array, Scalar, StringArray};
/// use arrow_schema::{DataType, Field, Schema};
/// use bitbytes::arrow::PredicateBuilder;
///
/// let schema = Arc::new(Schema::new(vec![
///     Field::new("id", DataType::Int64, true),
///     Field::new("city", DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)), true),
///     Field::new("price", DataType::Float64, true),
/// ]));
/// let p = PredicateBuilder::new(schema);
/// let pred = p.and(vec![
///     p.is_in("city", &StringArray::from(vec!["Paris", "Oslo"]))?,
///     p.less_than("price", &Float64Array::new_scalar(50.0))?,
///     p.not_equal("id", &Scalar::new(Int64Array::new_null(1)))?, // selects nothing
/// ])?;
/// assert_eq!(pred.fields(), ["city", "price", "id"]);
///
/// let err = p.equal("price", &Int64Array::new_scalar(5)).unwrap_err().to_string();
/// assert!(err.contains("price") && err.contains("Float64") && err.contains("Int64"), "{err}");
/// assert!(p.is_null("nope").unwrap_err().to_string().contains("nope"));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PredicateBuilder {
    schema: SchemaRef,
}

/// The builder's one-line constructors for the functions without and with a
/// single Datum literal.
macro_rules! no_literal {
    ($($(#[$doc:meta])* $name:ident => $function:expr;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// When `field` is not in the schema.
        pub fn $name(&self, field: &str) -> Result<Predicate, ArrowError> {
            let literals: ArrayRef = Arc::new(NullArray::new(0));
            self.leaf($function, field, literals)
        }
    )*};
}

macro_rules! compare {
    ($($(#[$doc:meta])* $name:ident => $op:expr;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// When `field` is not in the schema, or `literal` is not one value of
        /// the field's (value) type.
        pub fn $name(&self, field: &str, literal: &dyn Datum) -> Result<Predicate, ArrowError> {
            let literals = self.scalar(field, literal)?;
            self.leaf(Function::Compare($op), field, literals)
        }
    )*};
}

macro_rules! string {
    ($($(#[$doc:meta])* $name:ident => $function:expr;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// When `field` is not in the schema or is not a string field (Utf8,
        /// LargeUtf8, Utf8View, or a dictionary or run-end encoding of one).
        pub fn $name(&self, field: &str, pattern: &str) -> Result<Predicate, ArrowError> {
            let literals: ArrayRef = Arc::new(StringArray::from(vec![pattern]));
            self.leaf($function, field, literals)
        }
    )*};
}

impl PredicateBuilder {
    /// A builder over the fields of `schema`.
    pub fn new(schema: SchemaRef) -> PredicateBuilder {
        PredicateBuilder { schema }
    }

    /// The schema the builder checks against.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    no_literal! {
        /// `field IS NULL`: the only leaf that selects null rows.
        is_null => Function::IsNull;
        /// `field IS NOT NULL`.
        is_not_null => Function::IsNotNull;
        /// `field` is a float NaN (any sign or payload); never for other
        /// types. Has no negation.
        is_nan => Function::IsNaN;
    }

    compare! {
        /// `field = literal` (Java order for floats: every NaN equals every
        /// NaN; `-0.0 <> 0.0`).
        equal => CompareOp::Equal;
        /// `field <> literal`.
        not_equal => CompareOp::NotEqual;
        /// `field < literal`.
        less_than => CompareOp::LessThan;
        /// `field <= literal`.
        less_or_equal => CompareOp::LessOrEqual;
        /// `field > literal`.
        greater_than => CompareOp::GreaterThan;
        /// `field >= literal`.
        greater_or_equal => CompareOp::GreaterOrEqual;
    }

    /// `field IN (literals)`: null literals are skipped; an empty list
    /// selects nothing.
    ///
    /// # Errors
    ///
    /// When `field` is not in the schema or `literals` do not have the
    /// field's (value) type.
    pub fn is_in(&self, field: &str, literals: &dyn Array) -> Result<Predicate, ArrowError> {
        self.list(Function::In, field, literals)
    }

    /// `field NOT IN (literals)`: any null literal makes it select nothing;
    /// an empty list selects every non-null row.
    ///
    /// # Errors
    ///
    /// As [`is_in`](PredicateBuilder::is_in).
    pub fn is_not_in(&self, field: &str, literals: &dyn Array) -> Result<Predicate, ArrowError> {
        self.list(Function::NotIn, field, literals)
    }

    /// `lower <= field <= upper`; a null bound selects nothing.
    ///
    /// # Errors
    ///
    /// When `field` is not in the schema, or a bound is not one value of the
    /// field's (value) type.
    pub fn between(
        &self,
        field: &str,
        lower: &dyn Datum,
        upper: &dyn Datum,
    ) -> Result<Predicate, ArrowError> {
        self.bounds(Function::Between, field, lower, upper)
    }

    /// `field < lower OR field > upper`; a null bound selects nothing (as
    /// Paimon, not SQL).
    ///
    /// # Errors
    ///
    /// As [`between`](PredicateBuilder::between).
    pub fn not_between(
        &self,
        field: &str,
        lower: &dyn Datum,
        upper: &dyn Datum,
    ) -> Result<Predicate, ArrowError> {
        self.bounds(Function::NotBetween, field, lower, upper)
    }

    string! {
        /// `field` begins with `pattern` (bytes).
        starts_with => Function::StartsWith;
        /// `field` ends with `pattern` (bytes; an empty pattern selects every
        /// non-null row).
        ends_with => Function::EndsWith;
        /// `pattern` occurs in `field` (bytes; an empty pattern selects every
        /// non-null row).
        contains => Function::Contains;
        /// `field` does not begin with `pattern`; null rows stay unselected.
        not_starts_with => Function::NotStartsWith;
        /// `field` does not end with `pattern`.
        not_ends_with => Function::NotEndsWith;
        /// `pattern` does not occur in `field`.
        not_contains => Function::NotContains;
    }

    /// `field LIKE pattern`, as Java (Paimon): the whole string must match,
    /// `%` is any sequence, `_` one code point that is not a line
    /// terminator, `\` escapes `%`, `_` and `\`.
    ///
    /// # Errors
    ///
    /// When `field` is not in the schema or not a string field, or the
    /// pattern has an invalid escape (`\` before anything but `%`, `_`, `\`,
    /// or at the end).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)])));
    /// assert!(p.like("s", r"a\%b%").is_ok());
    /// assert!(p.like("s", r"a\b").unwrap_err().to_string().contains("field `s`"));
    /// ```
    pub fn like(&self, field: &str, pattern: &str) -> Result<Predicate, ArrowError> {
        let literals: ArrayRef = Arc::new(StringArray::from(vec![pattern]));
        self.leaf(Function::Like, field, literals)
    }

    /// `field NOT LIKE pattern`; null rows stay unselected.
    ///
    /// # Errors
    ///
    /// As [`like`](PredicateBuilder::like).
    pub fn not_like(&self, field: &str, pattern: &str) -> Result<Predicate, ArrowError> {
        let literals: ArrayRef = Arc::new(StringArray::from(vec![pattern]));
        self.leaf(Function::NotLike, field, literals)
    }

    /// Paimon's `TRUE`: a leaf of [`Function::AlwaysTrue`] over
    /// [`Transform::Null`], reading no column, that selects every row (null
    /// rows included). Its negation is [`always_false`](PredicateBuilder::always_false).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from(vec![Some(1), None])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// assert_eq!(p.always_true().test(&batch)?, [1, 1]);
    /// assert_eq!(p.always_true().to_string(), "TRUE");
    /// assert_eq!(p.always_true().negate(), Some(p.always_false()));
    /// let pred = p.or(vec![p.always_false(), p.equal("x", &Int64Array::new_scalar(1))?])?;
    /// assert_eq!(pred.test(&batch)?, [1, 0]);
    /// assert!(p.always_true().fields().is_empty());
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn always_true(&self) -> Predicate {
        constant(Function::AlwaysTrue)
    }

    /// Paimon's `FALSE`: a leaf of [`Function::AlwaysFalse`] over
    /// [`Transform::Null`] that selects no row. Its negation is
    /// [`always_true`](PredicateBuilder::always_true).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from(vec![Some(1), None])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// assert_eq!(p.always_false().test(&batch)?, [0, 0]);
    /// assert_eq!(p.always_false().to_string(), "FALSE");
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn always_false(&self) -> Predicate {
        constant(Function::AlwaysFalse)
    }

    /// `ARRAY_CONTAINS(field, literal)`: some non-null element of the row's
    /// array equals `literal` (Java order for floats: every NaN equals
    /// every NaN, `0.0 <> -0.0`). A null literal selects nothing; a null
    /// array is never selected. Has no negation.
    ///
    /// # Errors
    ///
    /// When `field` is not in the schema or is not a List, LargeList or
    /// FixedSizeList of orderable elements, or `literal` is not one value
    /// of the element type (the message names the field and both types).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{types::Int32Type, ArrayRef, Int32Array, Int64Array, ListArray, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let tags = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
    ///     Some(vec![Some(1), Some(2)]),
    ///     Some(vec![None, Some(3)]),
    ///     None,
    /// ]);
    /// let batch = RecordBatch::try_from_iter([("tags", Arc::new(tags) as ArrayRef)])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.array_contains("tags", &Int32Array::new_scalar(3))?;
    /// assert_eq!(pred.test(&batch)?, [0, 1, 0]);
    /// assert_eq!(pred.to_string(), "ARRAY_CONTAINS(tags, 3)");
    /// assert_eq!(pred.negate(), None);
    /// let err = p.array_contains("tags", &Int64Array::new_scalar(3)).unwrap_err().to_string();
    /// assert!(err.contains("tags") && err.contains("Int32") && err.contains("Int64"), "{err}");
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn array_contains(
        &self,
        field: &str,
        literal: &dyn Datum,
    ) -> Result<Predicate, ArrowError> {
        let (array, _) = literal.get();
        if array.len() != 1 {
            return Err(ArrowError::InvalidArgumentError(format!(
                "field `{field}`: a literal must be one value (a Scalar), got an array of {} values",
                array.len()
            )));
        }
        self.leaf(Function::ArrayContains, field, array.slice(0, 1))
    }

    /// `ARRAY_CONTAINS_ALL(field, literals)`: every literal is an element of
    /// the row's array. Any null literal selects nothing; an empty list
    /// selects every non-null array. Has no negation.
    ///
    /// # Errors
    ///
    /// When `field` is not in the schema or not a list of orderable
    /// elements, or `literals` do not have the element type.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{types::Int32Type, ArrayRef, Int32Array, ListArray, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let tags = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
    ///     Some(vec![Some(1), Some(2)]),
    ///     Some(vec![Some(2), Some(3)]),
    ///     None,
    /// ]);
    /// let batch = RecordBatch::try_from_iter([("tags", Arc::new(tags) as ArrayRef)])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.array_contains_all("tags", &Int32Array::from(vec![3, 2]))?;
    /// assert_eq!(pred.test(&batch)?, [0, 1, 0]);
    /// assert_eq!(pred.to_string(), "ARRAY_CONTAINS_ALL(tags, ARRAY[3, 2])");
    /// let empty = p.array_contains_all("tags", &Int32Array::from(Vec::<i32>::new()))?;
    /// assert_eq!(empty.test(&batch)?, [1, 1, 0]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn array_contains_all(
        &self,
        field: &str,
        literals: &dyn Array,
    ) -> Result<Predicate, ArrowError> {
        self.list(Function::ArrayContainsAll, field, literals)
    }

    /// `ARRAYS_OVERLAP(field, literals)`: some non-null literal is an
    /// element of the row's array. Null literals are skipped; an empty list
    /// selects nothing. Has no negation.
    ///
    /// # Errors
    ///
    /// As [`array_contains_all`](PredicateBuilder::array_contains_all).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{types::Int32Type, ArrayRef, Int32Array, ListArray, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let tags = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
    ///     Some(vec![Some(1), Some(2)]),
    ///     Some(vec![Some(4)]),
    ///     Some(vec![]),
    /// ]);
    /// let batch = RecordBatch::try_from_iter([("tags", Arc::new(tags) as ArrayRef)])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.arrays_overlap("tags", &Int32Array::from(vec![Some(2), None, Some(4)]))?;
    /// assert_eq!(pred.test(&batch)?, [1, 1, 0]);
    /// assert_eq!(pred.to_string(), "ARRAYS_OVERLAP(tags, ARRAY[2, NULL, 4])");
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn arrays_overlap(
        &self,
        field: &str,
        literals: &dyn Array,
    ) -> Result<Predicate, ArrowError> {
        self.list(Function::ArraysOverlap, field, literals)
    }

    /// A leaf of any function with literals as [`Function`] takes them,
    /// checked against the field as every other constructor does.
    ///
    /// # Errors
    ///
    /// When `field` is not in the schema, literals of Compare / In / Between
    /// do not have the field's (value) type, or as [`Function::validate`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::Int64Array;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::{Function, PredicateBuilder};
    ///
    /// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)])));
    /// let bounds = Arc::new(Int64Array::from(vec![1, 9]));
    /// assert!(p.leaf(Function::Between, "x", bounds.clone()).is_ok());
    /// let err = p.leaf(Function::StartsWith, "x", bounds).unwrap_err().to_string();
    /// assert!(err.contains("field `x`") && err.contains("string column"), "{err}");
    /// ```
    pub fn leaf(
        &self,
        function: Function,
        field: &str,
        literals: ArrayRef,
    ) -> Result<Predicate, ArrowError> {
        let data_type = self.field(field)?.data_type();
        // The functions whose literals have the field's (value) type; the
        // null tests ignore theirs, the string functions take any string.
        if function.compares_values() {
            check_literal_type(field, data_type, literals.data_type())?;
        }
        function
            .validate(data_type, literals.as_ref())
            .map_err(|e| in_field(field, data_type, e))?;
        Ok(Predicate::Leaf(Leaf::new(function, field, literals)))
    }

    /// The And of `children`: a single child is returned as it is, children
    /// that are Ands are flattened into this one (at every depth).
    ///
    /// # Errors
    ///
    /// When `children` is empty, a child (built elsewhere) is not valid
    /// for the builder's schema ([`Predicate::validate`]), or the result
    /// would be deeper than [`Predicate::MAX_DEPTH`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::{Predicate, PredicateBuilder};
    ///
    /// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)])));
    /// let (a, b, c) = (p.is_null("x")?, p.is_not_null("x")?, p.is_nan("x")?);
    /// let inner = p.and(vec![a.clone(), b.clone()])?;
    /// assert_eq!(p.and(vec![inner, c.clone()])?, Predicate::And(vec![a.clone(), b, c]));
    /// assert_eq!(p.and(vec![a.clone()])?, a);
    /// assert!(p.and(vec![]).unwrap_err().to_string().contains("empty"));
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn and(&self, children: Vec<Predicate>) -> Result<Predicate, ArrowError> {
        self.group(children, true)
    }

    /// The Or of `children`: a single child is returned as it is, children
    /// that are Ors are flattened into this one (at every depth).
    ///
    /// # Errors
    ///
    /// As [`and`](PredicateBuilder::and).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::Int64Array;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::{Predicate, PredicateBuilder};
    ///
    /// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)])));
    /// let one = p.equal("x", &Int64Array::new_scalar(1))?;
    /// let two = p.equal("x", &Int64Array::new_scalar(2))?;
    /// let nul = p.is_null("x")?;
    /// let pred = p.or(vec![one.clone(), p.or(vec![two.clone(), nul.clone()])?])?;
    /// assert_eq!(pred, Predicate::Or(vec![one, two, nul]));
    /// assert!(p.or(vec![]).unwrap_err().to_string().contains("empty Or"));
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn or(&self, children: Vec<Predicate>) -> Result<Predicate, ArrowError> {
        self.group(children, false)
    }

    fn group(&self, children: Vec<Predicate>, and: bool) -> Result<Predicate, ArrowError> {
        let name = if and { "And" } else { "Or" };
        if children.is_empty() {
            return Err(ArrowError::InvalidArgumentError(format!(
                "empty {name}: an And / Or needs at least one child"
            )));
        }
        for child in &children {
            resolve(child, &self.schema).map_err(|e| in_child(name, e))?;
        }
        let mut flat = Vec::with_capacity(children.len());
        flatten(children, and, &mut flat);
        if flat.len() == 1 {
            if let Some(only) = flat.pop() {
                return Ok(only);
            }
        }
        let group = if and {
            Predicate::And(flat)
        } else {
            Predicate::Or(flat)
        };
        // Children of `MAX_DEPTH` levels make one level too many.
        check_depth(&group)?;
        Ok(group)
    }

    /// The field named `name`.
    fn field(&self, name: &str) -> Result<&Field, ArrowError> {
        self.schema.field_with_name(name).map_err(|_| {
            let names: Vec<&str> = self
                .schema
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect();
            ArrowError::InvalidArgumentError(format!(
                "unknown field `{name}` (the schema has: {})",
                names.join(", ")
            ))
        })
    }

    /// A comparison's or a bound's literal: one value of the field's type.
    fn scalar(&self, field: &str, literal: &dyn Datum) -> Result<ArrayRef, ArrowError> {
        let data_type = self.field(field)?.data_type();
        let (array, _) = literal.get();
        check_literal_type(field, data_type, array.data_type())?;
        if array.len() != 1 {
            return Err(ArrowError::InvalidArgumentError(format!(
                "field `{field}`: a literal must be one value (a Scalar), got an array of {} values",
                array.len()
            )));
        }
        Ok(array.slice(0, 1))
    }

    fn list(
        &self,
        function: Function,
        field: &str,
        literals: &dyn Array,
    ) -> Result<Predicate, ArrowError> {
        self.leaf(function, field, literals.slice(0, literals.len()))
    }

    fn bounds(
        &self,
        function: Function,
        field: &str,
        lower: &dyn Datum,
        upper: &dyn Datum,
    ) -> Result<Predicate, ArrowError> {
        let lower = self.scalar(field, lower)?;
        let upper = self.scalar(field, upper)?;
        let literals = arrow_select::concat::concat(&[lower.as_ref(), upper.as_ref()])?;
        self.leaf(function, field, literals)
    }
}

/// TRUE / FALSE: the function over [`Transform::Null`], no literal.
fn constant(function: Function) -> Predicate {
    let literals: ArrayRef = Arc::new(NullArray::new(0));
    Predicate::Leaf(Leaf::with_transform(function, Transform::Null, literals))
}

/// `Err` naming the field and both types unless a literal of type `literal`
/// suits the field (its type, or its dictionary / run-end value type).
fn check_literal_type(
    field: &str,
    data_type: &DataType,
    literal: &DataType,
) -> Result<(), ArrowError> {
    let want = value_type(data_type);
    if literal == want {
        return Ok(());
    }
    let of = if want == data_type {
        data_type.to_string()
    } else {
        format!("{data_type}, whose values are {want}")
    };
    Err(ArrowError::InvalidArgumentError(format!(
        "field `{field}` has type {of}, but the literal has type {literal}"
    )))
}

/// `err` as the error of a child of an And / Or.
fn in_child(name: &str, err: ArrowError) -> ArrowError {
    let message = message(err);
    ArrowError::InvalidArgumentError(format!("a child of this {name}: {message}"))
}

/// Appends `children` to `flat`, replacing each child of the same kind
/// (And in an And, Or in an Or) by its own children, recursively.
fn flatten(children: Vec<Predicate>, and: bool, flat: &mut Vec<Predicate>) {
    for child in children {
        match child {
            Predicate::And(inner) if and => flatten(inner, and, flat),
            Predicate::Or(inner) if !and => flatten(inner, and, flat),
            other => flat.push(other),
        }
    }
}
