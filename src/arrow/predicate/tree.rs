//! [`Predicate`]: And / Or trees of [`Leaf`]s over a `RecordBatch`, with De
//! Morgan negation, whole-tree validation and filtering.
//!
//! The tree itself (its types, [`Predicate::negate`], [`Predicate::validate`])
//! lives here; how it is evaluated, on the rows still undecided, lives in
//! [`evaluate`](super::evaluate); how it is built with checked literals lives
//! in [`builder`](super::builder).

use super::evaluate::{evaluate_into, resolve, Narrowing};
use super::literals::invalid;
use super::{Function, Transform};
use crate::pack;
use arrow_array::{ArrayRef, BooleanArray, RecordBatch, UInt32Array};
use arrow_buffer::{BooleanBuffer, Buffer};
use arrow_schema::{ArrowError, Schema};
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// One leaf of a [`Predicate`]: a [`Function`] of a [`Transform`] of the row
/// (most often a plain column, [`Transform::Field`]) against `literals`.
///
/// The literals follow [`Function`]: the field's value type for Compare, In /
/// NotIn and Between / NotBetween (one value, the list, `[lower, upper]`), one
/// string for the string functions, ignored by IsNull / IsNotNull / IsNaN.
/// [`PredicateBuilder`](super::PredicateBuilder) builds leaves with those
/// checks done against a schema; a leaf built by hand is checked when the
/// predicate is validated or evaluated.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
/// use bitbytes::arrow::{CompareOp, Function, Leaf, Predicate};
///
/// let leaf = Leaf::new(
///     Function::Compare(CompareOp::GreaterThan),
///     "x",
///     Arc::new(Int64Array::from(vec![1])),
/// );
/// let batch = RecordBatch::try_from_iter([(
///     "x",
///     Arc::new(Int64Array::from(vec![Some(0), Some(2), None])) as ArrayRef,
/// )])?;
/// assert_eq!(Predicate::Leaf(leaf).test(&batch)?, [0, 1, 0]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Leaf {
    /// The leaf function.
    pub function: Function,
    /// What the function reads from each row: a column
    /// ([`Transform::Field`]) or a transform of columns.
    pub transform: Transform,
    /// The function's literals (see [`Function`]).
    pub literals: ArrayRef,
}

/// Leaves are equal when their functions, transforms and literals (type,
/// values and nulls, as arrow-rs compares arrays) are.
impl PartialEq for Leaf {
    fn eq(&self, other: &Leaf) -> bool {
        self.function == other.function
            && self.transform == other.transform
            && self.literals.as_ref() == other.literals.as_ref()
    }
}

impl Leaf {
    /// A leaf of `function` over the column `field` against `literals`. No
    /// check is made here; see [`PredicateBuilder`](super::PredicateBuilder)
    /// for a builder that checks against a schema.
    pub fn new(function: Function, field: impl Into<String>, literals: ArrayRef) -> Leaf {
        Leaf {
            function,
            transform: Transform::field(field),
            literals,
        }
    }

    /// A leaf of `function` over `transform` against `literals`, unchecked
    /// as [`Leaf::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::StringArray;
    /// use bitbytes::arrow::{Function, Leaf, Transform, TransformInput};
    ///
    /// // UPPER(name) LIKE 'AB%'
    /// let leaf = Leaf::with_transform(
    ///     Function::Like,
    ///     Transform::Upper(TransformInput::field("name")),
    ///     Arc::new(StringArray::from(vec!["AB%"])),
    /// );
    /// assert_eq!(leaf.field(), None);
    /// assert_eq!(leaf.transform.field_names(), ["name"]);
    /// ```
    pub fn with_transform(function: Function, transform: Transform, literals: ArrayRef) -> Leaf {
        Leaf {
            function,
            transform,
            literals,
        }
    }

    /// The column's name when the leaf reads a plain column
    /// ([`Transform::Field`]).
    pub fn field(&self) -> Option<&str> {
        self.transform.field_name()
    }

    /// The leaf with the negated function and the same field and literals;
    /// `None` when the function has no negation (IsNaN).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::StringArray;
    /// use bitbytes::arrow::{Function, Leaf};
    ///
    /// let leaf = Leaf::new(Function::StartsWith, "name", Arc::new(StringArray::from(vec!["A"])));
    /// assert_eq!(leaf.negate().unwrap().function, Function::NotStartsWith);
    /// ```
    pub fn negate(&self) -> Option<Leaf> {
        Some(Leaf {
            function: self.function.negate()?,
            transform: self.transform.clone(),
            literals: self.literals.clone(),
        })
    }
}

/// A predicate tree over the columns of a `RecordBatch`, as Paimon's
/// `Predicate`: leaves combined by And / Or. Evaluation gives one byte per
/// row, `1` = selected.
///
/// - A [`Leaf`] reads one column, found by name; its null rows are `0`
///   (except under IsNull).
/// - [`And`](Predicate::And) selects a row when every child does,
///   [`Or`](Predicate::Or) when any does: a byte-wise AND / OR of the
///   children's outputs. An empty And / Or is an error.
/// - Evaluation validates the whole tree against the batch's schema first, so
///   an invalid predicate is an error whatever the data; then it evaluates
///   each child of an And / Or only on the rows still undecided (see
///   [`Narrowing`]), which gives exactly the bytes of evaluating every child
///   on every row.
///
/// [`PredicateBuilder`](super::PredicateBuilder) builds predicates with their
/// literals checked against a schema. `Display` renders a predicate as one
/// SQL-like line (`name LIKE 'A%' AND price < 50.0`), for logs and messages.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
/// use bitbytes::arrow::PredicateBuilder;
///
/// let batch = RecordBatch::try_from_iter([
///     ("name", Arc::new(StringArray::from(vec![Some("Ada"), Some("Bob"), Some("Al"), None])) as ArrayRef),
///     ("price", Arc::new(Float64Array::from(vec![Some(10.0), Some(20.0), None, Some(5.0)])) as ArrayRef),
/// ])?;
/// let p = PredicateBuilder::new(batch.schema());
/// // name LIKE 'A%' AND price < 50
/// let pred = p.and(vec![
///     p.like("name", "A%")?,
///     p.less_than("price", &Float64Array::new_scalar(50.0))?,
/// ])?;
/// assert_eq!(pred.to_string(), "name LIKE 'A%' AND price < 50.0");
/// assert_eq!(pred.test(&batch)?, [1, 0, 0, 0]);
/// // NOT (name LIKE 'A%' AND price < 50) = name NOT LIKE 'A%' OR price >= 50:
/// // the null rows stay unselected.
/// let not = pred.negate().unwrap();
/// assert_eq!(not.to_string(), "name NOT LIKE 'A%' OR price >= 50.0");
/// assert_eq!(not.test(&batch)?, [0, 1, 0, 0]);
/// assert_eq!(pred.filter(&batch)?.num_rows(), 1);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    /// One leaf function over one column.
    Leaf(Leaf),
    /// Selects the rows every child selects. Must not be empty.
    And(Vec<Predicate>),
    /// Selects the rows any child selects. Must not be empty.
    Or(Vec<Predicate>),
}

impl Predicate {
    /// The deepest tree evaluated: [`depth`](Predicate::depth) at most this.
    ///
    /// Evaluation (rows and statistics), [`validate`](Predicate::validate),
    /// [`PredicateBuilder`](super::PredicateBuilder)'s `and` / `or` and
    /// `to_paimon_json` recurse once a level, so a deeper tree is an error
    /// there rather than a stack overflow. 256 levels fit in about a third
    /// of a thread's 2 MiB stack in a debug build (each walk in 0.53-0.66
    /// MiB, measured on an AMD EPYC family 25 model 17); trees from `PredicateBuilder`
    /// (which flattens an And inside an And) and from Paimon JSON (serde_json
    /// reads 128 levels of JSON, about 60 of predicate; Java's
    /// `PredicateBuilder` builds balanced binary trees) stay far below it.
    /// [`depth`](Predicate::depth), [`fields`](Predicate::fields) and
    /// `Display` walk any depth; [`negate`](Predicate::negate), `Clone`,
    /// `PartialEq` and `Drop` recurse unchecked. To combine many predicates,
    /// put them in one `And(vec![..])` rather than a chain of pairs.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::{Function, Leaf, Predicate};
    ///
    /// let batch = RecordBatch::try_from_iter([("x", Arc::new(Int64Array::from(vec![1])) as ArrayRef)])?;
    /// let leaf = Predicate::Leaf(Leaf::new(Function::IsNotNull, "x", Arc::new(Int64Array::from(Vec::<i64>::new()))));
    /// // And(Or(And(...))): one level more each time.
    /// let mut deep = leaf.clone();
    /// for level in 1..Predicate::MAX_DEPTH {
    ///     deep = if level % 2 == 0 { Predicate::And(vec![deep]) } else { Predicate::Or(vec![deep]) };
    /// }
    /// assert_eq!(deep.depth(), Predicate::MAX_DEPTH);
    /// assert_eq!(deep.test(&batch)?, [1]);
    /// let deeper = Predicate::And(vec![deep, leaf]);
    /// let err = deeper.test(&batch).unwrap_err().to_string();
    /// assert!(err.contains("257 levels deep"), "{err}");
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub const MAX_DEPTH: usize = 256;

    /// The number of levels of the tree: 1 for a leaf, one more than its
    /// deepest child for an And / Or (an empty one counts 1). Walks the tree
    /// without recursion, whatever its depth.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let p = PredicateBuilder::new(Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, true)])));
    /// let leaf = p.is_null("x")?;
    /// assert_eq!(leaf.depth(), 1);
    /// let tree = p.or(vec![p.and(vec![leaf.clone(), p.is_nan("x")?])?, leaf])?;
    /// assert_eq!(tree.depth(), 3);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((node, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            if let Predicate::And(children) | Predicate::Or(children) = node {
                stack.extend(children.iter().map(|c| (c, depth + 1)));
            }
        }
        deepest
    }

    /// The negated predicate, by De Morgan down to the leaves: `not(a and b)`
    /// is `not(a) or not(b)`, `not(a or b)` is `not(a) and not(b)`, and each
    /// leaf takes its negated function ([`Function::negate`]). `None` when
    /// any leaf has no negation (IsNaN).
    ///
    /// The negation's output is not the byte-wise NOT of the predicate's: on
    /// a null row both select nothing. Recurses once a level, unchecked (see
    /// [`MAX_DEPTH`](Predicate::MAX_DEPTH)).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{Float64Array, Int64Array};
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::{CompareOp, Function, Predicate, PredicateBuilder};
    ///
    /// let schema = Arc::new(Schema::new(vec![
    ///     Field::new("x", DataType::Int64, true),
    ///     Field::new("f", DataType::Float64, true),
    /// ]));
    /// let p = PredicateBuilder::new(schema);
    /// let pred = p.or(vec![
    ///     p.equal("x", &Int64Array::new_scalar(1))?,
    ///     p.is_null("f")?,
    /// ])?;
    /// let Some(Predicate::And(children)) = pred.negate() else { panic!() };
    /// let functions: Vec<_> = children
    ///     .iter()
    ///     .map(|c| match c { Predicate::Leaf(l) => l.function, _ => panic!() })
    ///     .collect();
    /// assert_eq!(functions, [Function::Compare(CompareOp::NotEqual), Function::IsNotNull]);
    ///
    /// // IsNaN has no negation, so neither has a tree that contains it.
    /// let nan = p.and(vec![p.greater_than("x", &Int64Array::new_scalar(1))?, p.is_nan("f")?])?;
    /// assert_eq!(nan.negate(), None);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn negate(&self) -> Option<Predicate> {
        // A plain loop: fewer frames a level in a debug build.
        let all = |children: &[Predicate]| -> Option<Vec<Predicate>> {
            let mut negated = Vec::with_capacity(children.len());
            for child in children {
                negated.push(child.negate()?);
            }
            Some(negated)
        };
        Some(match self {
            Predicate::Leaf(leaf) => Predicate::Leaf(leaf.negate()?),
            Predicate::And(children) => Predicate::Or(all(children)?),
            Predicate::Or(children) => Predicate::And(all(children)?),
        })
    }

    /// Checks the whole tree against `schema` without reading any row: every
    /// And / Or has a child, every leaf's field is in the schema, and every
    /// leaf's literals suit its function over that field's type
    /// ([`Function::validate`]). Evaluation runs the same checks first.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`] naming the problem (and the field,
    /// for a leaf); a tree deeper than [`MAX_DEPTH`](Predicate::MAX_DEPTH).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::StringArray;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::{Function, Leaf, Predicate};
    ///
    /// let schema = Schema::new(vec![Field::new("name", DataType::Utf8, true)]);
    /// let bad = Predicate::Leaf(Leaf::new(Function::Like, "name", Arc::new(StringArray::from(vec![r"a\b"]))));
    /// assert!(bad.validate(&schema).unwrap_err().to_string().contains("name"));
    /// assert!(Predicate::And(vec![]).validate(&schema).is_err());
    /// ```
    pub fn validate(&self, schema: &Schema) -> Result<(), ArrowError> {
        resolve(self, schema).map(|_| ())
    }

    /// Evaluates the predicate over every row of `batch`; returns
    /// `batch.num_rows()` bytes, `1` = selected.
    ///
    /// # Errors
    ///
    /// As [`test_into`](Predicate::test_into).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// // Paimon: Or(f0 = 3, f1 = 5) selects the row (null, 5).
    /// let batch = RecordBatch::try_from_iter([
    ///     ("f0", Arc::new(Int64Array::from(vec![None, Some(3)])) as ArrayRef),
    ///     ("f1", Arc::new(Int64Array::from(vec![Some(5), None])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.or(vec![
    ///     p.equal("f0", &Int64Array::new_scalar(3))?,
    ///     p.equal("f1", &Int64Array::new_scalar(5))?,
    /// ])?;
    /// assert_eq!(pred.test(&batch)?, [1, 1]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test(&self, batch: &RecordBatch) -> Result<Vec<u8>, ArrowError> {
        self.test_with(batch, Narrowing::Auto)
    }

    /// [`test`](Predicate::test) with the way undecided rows are evaluated
    /// forced (for benchmarks and tests: every [`Narrowing`] gives the same
    /// bytes).
    ///
    /// # Errors
    ///
    /// As [`test_into`](Predicate::test_into).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::{Narrowing, PredicateBuilder};
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from((0..100).collect::<Vec<i64>>())) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.and(vec![
    ///     p.less_than("x", &Int64Array::new_scalar(10))?,
    ///     p.greater_than("x", &Int64Array::new_scalar(4))?,
    /// ])?;
    /// let gathered = pred.test_with(&batch, Narrowing::Gather)?;
    /// assert_eq!(gathered, pred.test_with(&batch, Narrowing::Whole)?);
    /// assert_eq!(gathered.iter().filter(|&&b| b == 1).count(), 5);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test_with(
        &self,
        batch: &RecordBatch,
        narrowing: Narrowing,
    ) -> Result<Vec<u8>, ArrowError> {
        let mut out = vec![0u8; batch.num_rows()];
        self.test_into_with(batch, &mut out, narrowing)?;
        Ok(out)
    }

    /// Evaluates the predicate into `out[..batch.num_rows()]`; bytes past
    /// that are left alone.
    ///
    /// # Errors
    ///
    /// [`ArrowError::InvalidArgumentError`], with nothing written to `out`,
    /// when `out` is shorter than the batch or the tree is invalid for the
    /// batch's schema (see [`validate`](Predicate::validate): an empty And /
    /// Or, a field missing from the batch, literals that do not suit the
    /// function or the column's type, a bad Like pattern, a tree deeper than
    /// [`MAX_DEPTH`](Predicate::MAX_DEPTH)). These checks run
    /// on the whole tree before any row is read, so an invalid predicate is
    /// an error even when an earlier child leaves no row undecided. An error
    /// an arrow-rs kernel raises during evaluation (none is known for a
    /// validated tree) may leave `out[..batch.num_rows()]` partly written.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::{Function, Leaf, Predicate, PredicateBuilder};
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from(vec![1, 2, 3])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let mut out = [9u8; 4];
    /// p.greater_or_equal("x", &Int64Array::new_scalar(2))?.test_into(&batch, &mut out)?;
    /// assert_eq!(out, [0, 1, 1, 9]);
    ///
    /// // No row is left for the second child, yet its unknown field is an error.
    /// let pred = Predicate::And(vec![
    ///     p.greater_than("x", &Int64Array::new_scalar(5))?,
    ///     Predicate::Leaf(Leaf::new(Function::IsNull, "nope", Arc::new(Int64Array::from(vec![0i64; 0])))),
    /// ]);
    /// assert!(pred.test_into(&batch, &mut out).unwrap_err().to_string().contains("nope"));
    /// assert_eq!(out, [0, 1, 1, 9]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test_into(&self, batch: &RecordBatch, out: &mut [u8]) -> Result<(), ArrowError> {
        self.test_into_with(batch, out, Narrowing::Auto)
    }

    /// [`test_into`](Predicate::test_into) with the way undecided rows are
    /// evaluated forced (every [`Narrowing`] gives the same bytes).
    ///
    /// # Errors
    ///
    /// As [`test_into`](Predicate::test_into).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::{Narrowing, PredicateBuilder};
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from(vec![Some(1), None, Some(3)])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.or(vec![p.is_null("x")?, p.equal("x", &Int64Array::new_scalar(3))?])?;
    /// let mut out = [9u8; 3];
    /// pred.test_into_with(&batch, &mut out, Narrowing::Gather)?;
    /// assert_eq!(out, [0, 1, 1]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test_into_with(
        &self,
        batch: &RecordBatch,
        out: &mut [u8],
        narrowing: Narrowing,
    ) -> Result<(), ArrowError> {
        let node = resolve(self, batch.schema_ref())?;
        let rows = batch.num_rows();
        super::literals::check_out(rows, out)?;
        evaluate_into(&node, batch.columns(), rows, &mut out[..rows], narrowing)
    }

    /// The rows of `batch` the predicate selects, in order: arrow-select's
    /// `filter_record_batch` over a `BooleanArray` whose bitmap this crate's
    /// [`pack`] writes from the bytes of [`test`](Predicate::test) (the
    /// bitmap is moved into the array, not copied).
    ///
    /// # Errors
    ///
    /// As [`test_into`](Predicate::test_into).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{cast::AsArray, types::Int64Type, ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from(vec![Some(3), Some(4), Some(5), Some(100), Some(1), None])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.between("x", &Int64Array::new_scalar(3), &Int64Array::new_scalar(5))?;
    /// let kept = pred.filter(&batch)?;
    /// assert_eq!(kept.column(0).as_primitive::<Int64Type>().values(), &[3, 4, 5]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn filter(&self, batch: &RecordBatch) -> Result<RecordBatch, ArrowError> {
        let bytes = self.test(batch)?;
        let mask = bytes_to_boolean_array(&bytes)?;
        arrow_select::filter::filter_record_batch(batch, &mask)
    }

    /// The indices of the rows of `batch` the predicate selects, ascending: a
    /// selection vector ready for arrow-select's `take`. The bytes of
    /// [`test`](Predicate::test) become indices through this crate's
    /// [`mask_to_indices`](crate::mask_to_indices), into a buffer of exactly
    /// [`mask_count`](crate::mask_count) slots that moves into the array
    /// without a copy.
    ///
    /// # Errors
    ///
    /// As [`test_into`](Predicate::test_into); and
    /// [`ArrowError::InvalidArgumentError`] when the batch has more rows than
    /// a `u32` index can name.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let batch = RecordBatch::try_from_iter([
    ///     ("x", Arc::new(Int64Array::from(vec![Some(7), None, Some(2), Some(9)])) as ArrayRef),
    /// ])?;
    /// let p = PredicateBuilder::new(batch.schema());
    /// let pred = p.greater_than("x", &Int64Array::new_scalar(5))?;
    /// assert_eq!(pred.test_indices(&batch)?.values(), &[0, 3]);
    /// // Its negation selects row 2 alone: the null row is in neither.
    /// assert_eq!(pred.negate().unwrap().test_indices(&batch)?.values(), &[2]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn test_indices(&self, batch: &RecordBatch) -> Result<UInt32Array, ArrowError> {
        let bytes = self.test(batch)?;
        let mut indices = vec![0u32; crate::mask_count(&bytes)];
        crate::mask_to_indices(&bytes, 0, &mut indices).map_err(invalid)?;
        Ok(UInt32Array::from(indices))
    }

    /// The names of the fields the predicate reads, each once, in the order
    /// they first appear (depth first). A reader can project exactly these
    /// columns before evaluating.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::Int64Array;
    /// use arrow_schema::{DataType, Field, Schema};
    /// use bitbytes::arrow::PredicateBuilder;
    ///
    /// let schema = Arc::new(Schema::new(vec![
    ///     Field::new("a", DataType::Int64, true),
    ///     Field::new("b", DataType::Int64, true),
    /// ]));
    /// let p = PredicateBuilder::new(schema);
    /// let pred = p.or(vec![p.is_null("b")?, p.equal("a", &Int64Array::new_scalar(1))?, p.is_not_null("b")?])?;
    /// assert_eq!(pred.fields(), ["b", "a"]);
    /// # Ok::<(), arrow_schema::ArrowError>(())
    /// ```
    pub fn fields(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        self.visit_leaves(&mut |leaf| {
            for name in leaf.transform.field_names() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        });
        names
    }

    /// Calls `f` on every leaf, depth first, without recursion.
    fn visit_leaves<'a>(&'a self, f: &mut impl FnMut(&'a Leaf)) {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            match node {
                Predicate::Leaf(leaf) => f(leaf),
                Predicate::And(children) | Predicate::Or(children) => {
                    stack.extend(children.iter().rev())
                }
            }
        }
    }
}

/// An error when `predicate` is deeper than [`Predicate::MAX_DEPTH`]: the
/// check before every walk that recurses once a level.
pub(crate) fn check_depth(predicate: &Predicate) -> Result<(), ArrowError> {
    let depth = predicate.depth();
    if depth > Predicate::MAX_DEPTH {
        return Err(ArrowError::InvalidArgumentError(format!(
            "the predicate is nested {depth} levels deep, more than the {} that are \
             evaluated (evaluation recurses once a level): put many children in one \
             And / Or rather than a chain of pairs",
            Predicate::MAX_DEPTH
        )));
    }
    Ok(())
}

impl From<Leaf> for Predicate {
    fn from(leaf: Leaf) -> Predicate {
        Predicate::Leaf(leaf)
    }
}

/// A `BooleanArray` (no nulls) whose bit `i` is `bytes[i] != 0`: [`pack`]
/// writes the bitmap into a `Vec`, which the array then owns without a copy.
pub(crate) fn bytes_to_boolean_array(bytes: &[u8]) -> Result<BooleanArray, ArrowError> {
    Ok(BooleanArray::new(bytes_to_bits(bytes, false)?, None))
}

/// The bitmap of `bytes[i] != 0` (or `== 0` with `negate`), owned by a
/// `BooleanBuffer` without a copy.
pub(crate) fn bytes_to_bits(bytes: &[u8], negate: bool) -> Result<BooleanBuffer, ArrowError> {
    let mut bits = vec![0u8; bytes.len().div_ceil(8)];
    pack(bytes, &mut bits, 0).map_err(invalid)?;
    if negate {
        // Bits past `bytes.len()` become 1; the buffer's length hides them.
        bits.iter_mut().for_each(|b| *b = !*b);
    }
    Ok(BooleanBuffer::new(Buffer::from_vec(bits), 0, bytes.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_of_bytes() {
        for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 200] {
            let bytes: Vec<u8> = (0..len).map(|i| u8::from(i % 3 == 0)).collect();
            for negate in [false, true] {
                let bits = bytes_to_bits(&bytes, negate).unwrap();
                assert_eq!(bits.len(), len);
                for (i, &b) in bytes.iter().enumerate() {
                    assert_eq!(bits.value(i), (b != 0) != negate, "len {len} row {i}");
                }
                let want = bytes.iter().filter(|&&b| (b != 0) != negate).count();
                assert_eq!(bits.count_set_bits(), want);
                assert_eq!(bits.set_indices().count(), want);
            }
        }
    }
}
