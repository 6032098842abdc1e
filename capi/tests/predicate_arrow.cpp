// bitbytes' predicate C ABI driven by Arrow C++, as a paimon-cpp reader would
// use it: record batches built with Arrow C++ builders, exported with
// arrow::ExportRecordBatch / ExportSchema / ExportArray, predicates given as
// the JSON Paimon writes. Built and run by capi/ci_arrow.sh against the Arrow
// C++ of two pyarrow wheels: Arrow 19 as C++17 (what paimon-cpp compiles as)
// and Arrow 26 as C++20 (its headers use std::span, so C++17 cannot include
// them); this file itself is C++17.
//
// The oracle is arrow::compute on the cases where Arrow's semantics and
// Paimon's coincide (integers and strings, no NaN, no LIKE): the comparison
// kernels, is_in, and / or, starts_with / ends_with / match_substring,
// is_null / is_valid. Paimon's null rules are applied on top (a null row is
// selected by nothing but IS_NULL; a null literal selects nothing; NOT IN with
// a null literal selects nothing) and And / Or are byte-wise AND / OR of their
// children's masks (SEMANTICS.md). All four calls are checked on every case:
// the byte mask and the indices against the oracle, to_json byte for byte
// against the input (written in Java's form), and the statistics verdicts,
// from min / max / null counts that arrow::compute gives for slices of the
// batch, for soundness against the rows and for pruning exactly as Paimon Java
// prunes. The exported structs stay the caller's: after the calls each one
// must still be live and import back (arrow::ImportRecordBatch) equal to the
// batch exported; the test releases them itself.
#include "bitbytes.h"

#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <arrow/compute/api.h>
#include <arrow/util/config.h>
#if ARROW_VERSION_MAJOR >= 21
#include <arrow/compute/initialize.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace cp = arrow::compute;

int failures = 0;
int checks = 0;

#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    ++checks;                                                             \
    if (!(cond)) {                                                        \
      ++failures;                                                         \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, \
                   #cond);                                                \
      std::fprintf(stderr, __VA_ARGS__);                                  \
      std::fprintf(stderr, " [last error: %s]\n", bitbytes_last_error()); \
    }                                                                     \
  } while (0)

// Arrow C++ failing is a broken test setup, not a finding: stop.
void Ok(const arrow::Status &st) {
  if (!st.ok()) {
    std::fprintf(stderr, "Arrow C++: %s\n", st.ToString().c_str());
    std::exit(2);
  }
}
template <class T>
T Unwrap(arrow::Result<T> r) {
  Ok(r.status());
  return std::move(r).ValueUnsafe();
}

// ---- the batch -------------------------------------------------------------

enum class Kind { Int32, Int64, Utf8, LargeUtf8, Dict, Utf8View };

struct Column {
  const char *name;
  Kind kind;
  const char *paimon_type;
};

// The batch's columns, in schema order (the JSON's field index is this order).
const std::vector<Column> kColumns = {  // kAllColumns of them
    {"i", Kind::Int32, "INT"},       {"l", Kind::Int64, "BIGINT"},
    {"s", Kind::Utf8, "STRING"},     {"ls", Kind::LargeUtf8, "STRING"},
    {"d", Kind::Dict, "STRING"},     {"sv", Kind::Utf8View, "STRING"},
};

bool IsString(Kind k) { return k != Kind::Int32 && k != Kind::Int64; }

// A small deterministic generator (the same sequence on every platform).
struct Rng {
  std::uint64_t state;
  std::uint64_t Next() {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<std::uint64_t>(n)); }
  bool Chance(int percent) { return Below(100) < percent; }
};

// Strings from a few pieces: ASCII, two-byte and three-byte UTF-8, and the
// two characters JSON escapes.
std::string RandomString(Rng &rng) {
  static const char *const pieces[] = {"a", "b", "c", "\xC3\xA9", "\xE4\xB8\xAD", "\"", "\\"};
  std::string s;
  const int n = rng.Below(4);
  for (int k = 0; k < n; ++k) s += pieces[rng.Below(rng.Chance(90) ? 5 : 7)];
  return s;
}

std::int64_t RandomInt(Rng &rng, Kind kind) {
  if (rng.Chance(3)) {
    const bool low = rng.Chance(50);
    if (kind == Kind::Int32)
      return low ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int32_t>::max();
    return low ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
  }
  return kind == Kind::Int32 ? rng.Below(101) - 50 : rng.Below(2001) - 1000;
}

std::shared_ptr<arrow::Schema> BatchSchema() {
  arrow::FieldVector fields;
  for (const Column &c : kColumns) {
    std::shared_ptr<arrow::DataType> type;
    switch (c.kind) {
      case Kind::Int32: type = arrow::int32(); break;
      case Kind::Int64: type = arrow::int64(); break;
      case Kind::Utf8: type = arrow::utf8(); break;
      case Kind::LargeUtf8: type = arrow::large_utf8(); break;
      case Kind::Dict: type = arrow::dictionary(arrow::int32(), arrow::utf8()); break;
      case Kind::Utf8View: type = arrow::utf8_view(); break;
    }
    fields.push_back(arrow::field(c.name, type));
  }
  return arrow::schema(fields);
}

// `rows` rows, about `null_percent` % null in every column.
std::shared_ptr<arrow::RecordBatch> MakeBatch(Rng &rng, int rows, int null_percent) {
  arrow::Int32Builder i32;
  arrow::Int64Builder i64;
  arrow::StringBuilder str;
  arrow::LargeStringBuilder large;
  arrow::Int32Builder keys;
  arrow::StringViewBuilder views;
  arrow::StringBuilder dict_values;
  const int dict_size = 6;
  for (int k = 0; k < dict_size; ++k) Ok(dict_values.Append(RandomString(rng)));
  for (int r = 0; r < rows; ++r) {
    auto null = [&] { return rng.Chance(null_percent); };
    Ok(null() ? i32.AppendNull() : i32.Append(static_cast<std::int32_t>(RandomInt(rng, Kind::Int32))));
    Ok(null() ? i64.AppendNull() : i64.Append(RandomInt(rng, Kind::Int64)));
    Ok(null() ? str.AppendNull() : str.Append(RandomString(rng)));
    Ok(null() ? large.AppendNull() : large.Append(RandomString(rng)));
    Ok(null() ? keys.AppendNull() : keys.Append(rng.Below(dict_size)));
    // Views: inline up to 12 bytes, longer ones in a data buffer.
    Ok(null() ? views.AppendNull() : views.Append(RandomString(rng) + (rng.Chance(30) ? "-long-enough-to-be-out-of-line" : "")));
  }
  auto dict = Unwrap(arrow::DictionaryArray::FromArrays(
      arrow::dictionary(arrow::int32(), arrow::utf8()), Unwrap(keys.Finish()),
      Unwrap(dict_values.Finish())));
  return arrow::RecordBatch::Make(
      BatchSchema(), rows,
      {Unwrap(i32.Finish()), Unwrap(i64.Finish()), Unwrap(str.Finish()), Unwrap(large.Finish()), dict,
       Unwrap(views.Finish())});
}

// ---- predicates: a tree, its Paimon JSON, its oracle --------------------------

struct Lit {
  bool null = false;
  std::int64_t i = 0;
  std::string s;
};

struct Node {
  std::string function;  // a leaf function, or AND / OR
  int column = -1;       // a leaf's column, -1 for AND / OR
  std::vector<Lit> literals;
  std::vector<Node> children;
};

Node Leaf(const std::string &fn, int column, std::vector<Lit> literals = {}) {
  Node n;
  n.function = fn;
  n.column = column;
  n.literals = std::move(literals);
  return n;
}
Node Compound(const std::string &fn, std::vector<Node> children) {
  Node n;
  n.function = fn;
  n.children = std::move(children);
  return n;
}
Lit Int(std::int64_t v) { return Lit{false, v, {}}; }
Lit Str(std::string v) { return Lit{false, 0, std::move(v)}; }
Lit Null() { return Lit{true, 0, {}}; }

std::string JsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The JSON as Paimon Java writes it (key order, compact), so that to_json
// must give it back byte for byte.
std::string ToJson(const Node &n) {
  if (n.column < 0) {
    std::string out = "{\"kind\":\"COMPOUND\",\"function\":\"" + n.function + "\",\"children\":[";
    for (std::size_t k = 0; k < n.children.size(); ++k) out += (k ? "," : "") + ToJson(n.children[k]);
    return out + "]}";
  }
  const Column &c = kColumns[n.column];
  std::string out = "{\"kind\":\"LEAF\",\"transform\":{\"name\":\"FIELD_REF\",\"fieldRef\":{\"index\":" +
                    std::to_string(n.column) + ",\"name\":\"" + c.name + "\",\"type\":\"" + c.paimon_type +
                    "\"}},\"function\":\"" + n.function + "\",\"literals\":[";
  for (std::size_t k = 0; k < n.literals.size(); ++k) {
    const Lit &l = n.literals[k];
    out += k ? "," : "";
    out += l.null ? "null" : IsString(c.kind) ? JsonString(l.s) : std::to_string(l.i);
  }
  return out + "]}";
}

using Mask = std::vector<std::uint8_t>;

std::shared_ptr<arrow::Scalar> ToScalar(const Lit &l, const std::shared_ptr<arrow::DataType> &type) {
  std::shared_ptr<arrow::Scalar> s;
  if (type->id() == arrow::Type::INT32) s = arrow::MakeScalar(static_cast<std::int32_t>(l.i));
  else if (type->id() == arrow::Type::INT64) s = arrow::MakeScalar(l.i);
  else if (type->id() == arrow::Type::LARGE_STRING) s = std::make_shared<arrow::LargeStringScalar>(l.s);
  else s = std::make_shared<arrow::StringScalar>(l.s);
  return s;
}

// Paimon's mask from a kernel's boolean result: selected when the row is not
// null and the kernel says true (a null kernel result is not selected).
Mask Selected(const arrow::Datum &result, const arrow::Array &column) {
  const auto b = std::static_pointer_cast<arrow::BooleanArray>(result.make_array());
  Mask m(b->length());
  for (std::int64_t r = 0; r < b->length(); ++r) m[r] = column.IsValid(r) && b->IsValid(r) && b->Value(r);
  return m;
}

arrow::Datum Call(const std::string &fn, std::vector<arrow::Datum> args,
                  const cp::FunctionOptions *options = nullptr) {
  return Unwrap(cp::CallFunction(fn, args, options));
}

// One leaf through arrow::compute. `decoded` has the dictionary column cast to
// its value type and the views to strings, as the kernels want plain strings.
Mask OracleLeaf(const Node &n, const arrow::RecordBatch &decoded) {
  const std::shared_ptr<arrow::Array> column = decoded.column(n.column);
  const std::shared_ptr<arrow::DataType> type = column->type();
  const std::string &fn = n.function;
  const bool null_literal =
      std::any_of(n.literals.begin(), n.literals.end(), [](const Lit &l) { return l.null; });
  if (fn == "IS_NULL") {  // the one function that selects null rows
    const auto found = std::static_pointer_cast<arrow::BooleanArray>(Call("is_null", {column}).make_array());
    Mask m(found->length());
    for (std::int64_t r = 0; r < found->length(); ++r) m[r] = found->Value(r);
    return m;
  }
  if (fn == "IS_NOT_NULL") return Selected(Call("is_valid", {column}), *column);
  if (fn == "IN" || fn == "NOT_IN") {
    if (fn == "NOT_IN" && null_literal) return Mask(column->length(), 0);
    std::unique_ptr<arrow::ArrayBuilder> builder = Unwrap(arrow::MakeBuilder(type));
    for (const Lit &l : n.literals)
      if (!l.null) Ok(builder->AppendScalar(*ToScalar(l, type)));
    const cp::SetLookupOptions options(Unwrap(builder->Finish()), /*skip_nulls=*/true);
    arrow::Datum found = Call("is_in", {column}, &options);
    if (fn == "NOT_IN") found = Call("invert", {found});
    return Selected(found, *column);
  }
  if (null_literal) return Mask(column->length(), 0);  // every remaining function
  if (fn == "BETWEEN" || fn == "NOT_BETWEEN") {
    const auto lo = ToScalar(n.literals[0], type), hi = ToScalar(n.literals[1], type);
    if (fn == "BETWEEN")
      return Selected(Call("and", {Call("greater_equal", {column, lo}), Call("less_equal", {column, hi})}), *column);
    return Selected(Call("or", {Call("less", {column, lo}), Call("greater", {column, hi})}), *column);
  }
  if (fn == "STARTS_WITH" || fn == "ENDS_WITH" || fn == "CONTAINS") {
    const cp::MatchSubstringOptions options(n.literals[0].s);
    const char *kernel = fn == "STARTS_WITH" ? "starts_with" : fn == "ENDS_WITH" ? "ends_with" : "match_substring";
    return Selected(Call(kernel, {column}, &options), *column);
  }
  static const char *const names[][2] = {{"EQUAL", "equal"},       {"NOT_EQUAL", "not_equal"},
                                         {"LESS_THAN", "less"},    {"LESS_OR_EQUAL", "less_equal"},
                                         {"GREATER_THAN", "greater"}, {"GREATER_OR_EQUAL", "greater_equal"}};
  for (const auto &name : names)
    if (fn == name[0]) return Selected(Call(name[1], {column, ToScalar(n.literals[0], type)}), *column);
  std::fprintf(stderr, "no oracle for %s\n", fn.c_str());
  std::exit(2);
}

// A tree: And / Or are byte-wise AND / OR of the children's masks.
Mask Oracle(const Node &n, const arrow::RecordBatch &decoded) {
  if (n.column >= 0) return OracleLeaf(n, decoded);
  Mask m = Oracle(n.children[0], decoded);
  for (std::size_t k = 1; k < n.children.size(); ++k) {
    const Mask c = Oracle(n.children[k], decoded);
    for (std::size_t r = 0; r < m.size(); ++r) m[r] = n.function == "AND" ? (m[r] & c[r]) : (m[r] | c[r]);
  }
  return m;
}

std::shared_ptr<arrow::RecordBatch> Decoded(const arrow::RecordBatch &batch) {
  arrow::ArrayVector columns;
  arrow::FieldVector fields;
  for (int k = 0; k < batch.num_columns(); ++k) {
    std::shared_ptr<arrow::Array> c = batch.column(k);
    if (c->type_id() == arrow::Type::DICTIONARY)
      c = Unwrap(cp::Cast(*c, static_cast<const arrow::DictionaryType &>(*c->type()).value_type()));
    if (c->type_id() == arrow::Type::STRING_VIEW) c = Unwrap(cp::Cast(*c, arrow::utf8()));
    columns.push_back(c);
    fields.push_back(arrow::field(batch.schema()->field(k)->name(), c->type()));
  }
  return arrow::RecordBatch::Make(arrow::schema(fields), batch.num_rows(), columns);
}

Lit RandomLiteral(Rng &rng, Kind kind) {
  if (rng.Chance(5)) return Null();
  if (IsString(kind)) return Str(RandomString(rng));
  const std::int64_t v = RandomInt(rng, kind);  // or one above a value, within the type
  const std::int64_t top = kind == Kind::Int32 ? std::numeric_limits<std::int32_t>::max()
                                               : std::numeric_limits<std::int64_t>::max();
  return Int(v < top && rng.Chance(20) ? v + 1 : v);
}

constexpr int kAllColumns = 6;

// A leaf over one of the columns.
Node RandomLeaf(Rng &rng) {
  static const char *const all[] = {"EQUAL", "NOT_EQUAL", "LESS_THAN", "LESS_OR_EQUAL", "GREATER_THAN",
                                    "GREATER_OR_EQUAL", "IN", "NOT_IN", "BETWEEN", "NOT_BETWEEN",
                                    "IS_NULL", "IS_NOT_NULL", "STARTS_WITH", "ENDS_WITH", "CONTAINS"};
  const int column = rng.Below(kAllColumns);
  const Kind kind = kColumns[column].kind;
  const std::string fn = all[rng.Below(IsString(kind) ? 15 : 12)];
  int count = 1;
  if (fn == "IS_NULL" || fn == "IS_NOT_NULL") count = 0;
  else if (fn == "BETWEEN" || fn == "NOT_BETWEEN") count = 2;
  else if (fn == "IN" || fn == "NOT_IN") count = rng.Below(7);
  std::vector<Lit> literals;
  for (int k = 0; k < count; ++k) literals.push_back(RandomLiteral(rng, kind));
  return Leaf(fn, column, literals);
}

Node RandomTree(Rng &rng, int depth) {
  if (depth == 0 || rng.Chance(35)) return RandomLeaf(rng);
  std::vector<Node> children;
  const int n = 2 + (rng.Chance(25) ? 1 : 0);  // Java builds binary nodes; lists give more
  for (int k = 0; k < n; ++k) children.push_back(RandomTree(rng, depth - 1));
  return Compound(rng.Chance(50) ? "AND" : "OR", children);
}

// ---- the C ABI, owned as a C++ caller owns it ----------------------------------

// An export; the caller's to release. The destructor checks that bitbytes left
// it live (the ownership contract) before releasing it.
struct Exported {
  ArrowArray array{};
  ArrowSchema schema{};
  explicit Exported(const arrow::RecordBatch &batch) { Ok(arrow::ExportRecordBatch(batch, &array, &schema)); }
  explicit Exported(const arrow::Array &a) { Ok(arrow::ExportArray(a, &array, &schema)); }
  Exported(const Exported &) = delete;
  Exported &operator=(const Exported &) = delete;
  ~Exported() {
    if (array.release != nullptr) array.release(&array);
    if (schema.release != nullptr) schema.release(&schema);
  }
  // After bitbytes' calls: every struct still live, and the export imports
  // back equal to what was exported (this consumes it, as any import does).
  void CheckIntactAndImport(const arrow::RecordBatch &exported) {
    bool live = array.release != nullptr && schema.release != nullptr;
    for (std::int64_t k = 0; live && k < array.n_children; ++k)
      live = array.children[k]->release != nullptr && schema.children[k]->release != nullptr;
    CHECK(live, "bitbytes released an export it was lent");
    if (!live) return;
    auto back = arrow::ImportRecordBatch(&array, &schema);
    CHECK(back.ok() && (*back)->Equals(exported), "the export no longer imports as the batch exported");
  }
};

struct SchemaExport {
  ArrowSchema schema{};
  explicit SchemaExport(const arrow::Schema &s) { Ok(arrow::ExportSchema(s, &schema)); }
  SchemaExport(const SchemaExport &) = delete;
  SchemaExport &operator=(const SchemaExport &) = delete;
  ~SchemaExport() {
    if (schema.release != nullptr) schema.release(&schema);
  }
};

struct Predicate {
  bitbytes_predicate *p = nullptr;
  Predicate() = default;
  Predicate(const Predicate &) = delete;
  Predicate &operator=(const Predicate &) = delete;
  ~Predicate() { bitbytes_predicate_free(p); }
  int Parse(const std::string &json, const ArrowSchema &schema) {
    return bitbytes_predicate_parse(json.data(), json.size(), &schema, &p);
  }
};

constexpr std::uint8_t kSentinel = 0xA5;
constexpr std::uint32_t kSentinel32 = 0xA5A5A5A5;

std::string ToJsonString(const bitbytes_predicate *p, int *rc) {
  char *text = nullptr;
  std::size_t len = 0;
  *rc = bitbytes_predicate_to_json(p, &text, &len);
  if (*rc != BITBYTES_OK) return {};
  std::string out(text, len);
  CHECK(std::strlen(text) == len, "to_json: *out_len is not the string's length");
  bitbytes_string_free(text);
  return out;
}

// The byte mask and the indices of `p` on an exported batch against `want`,
// with the outputs checked past their end; also the exact and one-short index
// outputs. Returns the indices.
std::vector<std::uint32_t> CheckTest(const bitbytes_predicate *p, const ArrowArray &array, const ArrowSchema &schema,
                                     const Mask &want, const std::string &what) {
  const std::size_t n = want.size();
  Mask out(n + 16, kSentinel);
  int rc = bitbytes_predicate_test(p, &array, &schema, out.data(), n);
  CHECK(rc == BITBYTES_OK, "test on %s: rc %d", what.c_str(), rc);
  CHECK(std::equal(want.begin(), want.end(), out.begin()), "test on %s: mask differs from arrow::compute", what.c_str());
  CHECK(std::all_of(out.begin() + n, out.end(), [](std::uint8_t b) { return b == kSentinel; }),
        "test on %s: wrote past out_len", what.c_str());

  std::vector<std::uint32_t> expected;
  for (std::size_t r = 0; r < n; ++r)
    if (want[r]) expected.push_back(static_cast<std::uint32_t>(r));
  std::vector<std::uint32_t> indices(n + 4, kSentinel32);
  std::size_t count = 12345;
  rc = bitbytes_predicate_test_indices(p, &array, &schema, indices.data(), n, &count);
  CHECK(rc == BITBYTES_OK && count == expected.size(), "test_indices on %s: rc %d, count %zu, want %zu",
        what.c_str(), rc, count, expected.size());
  if (rc == BITBYTES_OK && count == expected.size()) {
    CHECK(std::equal(expected.begin(), expected.end(), indices.begin()), "test_indices on %s: wrong rows", what.c_str());
    CHECK(std::all_of(indices.begin() + count, indices.end(), [](std::uint32_t v) { return v == kSentinel32; }),
          "test_indices on %s: wrote past the count", what.c_str());
  }
  // out_len = the count is enough; one less writes nothing.
  std::vector<std::uint32_t> exact(expected.size() + 1, kSentinel32);
  rc = bitbytes_predicate_test_indices(p, &array, &schema, exact.data(), expected.size(), &count);
  CHECK(rc == BITBYTES_OK && count == expected.size() && exact.back() == kSentinel32,
        "test_indices on %s with out_len = count: rc %d", what.c_str(), rc);
  if (!expected.empty()) {
    std::fill(exact.begin(), exact.end(), kSentinel32);
    count = 777;
    rc = bitbytes_predicate_test_indices(p, &array, &schema, exact.data(), expected.size() - 1, &count);
    CHECK(rc == BITBYTES_ERR_OUTPUT_TOO_SHORT && count == 777 &&
              std::all_of(exact.begin(), exact.end(), [](std::uint32_t v) { return v == kSentinel32; }),
          "test_indices on %s with out_len = count - 1: rc %d", what.c_str(), rc);
  }
  return expected;
}

// Parse, to_json (byte for byte as the input, then parse that again), and the
// mask / indices on the batch, on slices with offsets, on a struct array with an
// offset of its own, and on an empty slice.
void CheckCase(const Node &tree, const arrow::RecordBatch &batch, const Mask &want, Rng &rng) {
  const std::string json = ToJson(tree);
  SchemaExport schema(*batch.schema());
  Predicate pred;
  int rc = pred.Parse(json, schema.schema);
  CHECK(rc == BITBYTES_OK, "parse %s: rc %d", json.c_str(), rc);
  if (rc != BITBYTES_OK) return;
  const std::string written = ToJsonString(pred.p, &rc);
  CHECK(rc == BITBYTES_OK && written == json, "to_json: %s\n  gave %s", json.c_str(), written.c_str());
  Predicate again;
  CHECK(again.Parse(written, schema.schema) == BITBYTES_OK, "to_json's output does not parse: %s", written.c_str());

  const std::int64_t rows = batch.num_rows();
  {
    Exported e(batch);
    CheckTest(pred.p, e.array, e.schema, want, "the batch");
    if (again.p != nullptr) CheckTest(again.p, e.array, e.schema, want, "the batch, reparsed");
    e.CheckIntactAndImport(batch);
  }
  const std::int64_t offsets[] = {1, 7, 63, 64, 65, rng.Below(static_cast<int>(rows))};
  for (std::int64_t offset : offsets) {
    const std::int64_t length = std::min<std::int64_t>(rows - offset, 1 + rng.Below(static_cast<int>(rows)));
    const Mask part(want.begin() + offset, want.begin() + offset + length);
    const auto sliced = batch.Slice(offset, length);
    {
      Exported e(*sliced);
      CheckTest(pred.p, e.array, e.schema, part, "a slice at " + std::to_string(offset));
      e.CheckIntactAndImport(*sliced);
    }
    // The struct array itself at an offset (its children start at 0).
    const auto as_struct = Unwrap(batch.ToStructArray())->Slice(offset, length);
    CHECK(as_struct->offset() == offset, "the struct slice has no offset");
    Exported e(*as_struct);
    CheckTest(pred.p, e.array, e.schema, part, "a struct array at offset " + std::to_string(offset));
  }
  Exported empty(*batch.Slice(rows / 2, 0));
  CheckTest(pred.p, empty.array, empty.schema, Mask{}, "an empty slice");
}

// ---- statistics ------------------------------------------------------------------

struct FieldStats {
  bool known = true;  // false: the field's struct entry is null
  std::shared_ptr<arrow::Scalar> min, max;  // null scalar: unknown
  std::optional<std::uint64_t> null_count;
};

struct Container {
  std::int64_t start = 0, rows = 0;
  std::vector<FieldStats> fields;  // per column
};

// Containers of consecutive rows of the batch (some empty, many small enough
// to be all null), with min / max / null count from arrow::compute on each,
// some parts made unknown.
std::vector<Container> MakeContainers(Rng &rng, const arrow::RecordBatch &decoded) {
  std::vector<Container> out;
  for (std::int64_t start = 0; start < decoded.num_rows();) {
    Container c;
    c.start = start;
    c.rows = std::min<std::int64_t>(decoded.num_rows() - start, rng.Chance(5) ? 0 : 1 + rng.Below(rng.Chance(50) ? 4 : 60));
    for (int k = 0; k < decoded.num_columns(); ++k) {
      const auto chunk = decoded.column(k)->Slice(start, c.rows);
      FieldStats f;
      f.known = !rng.Chance(5);
      const cp::ScalarAggregateOptions options(/*skip_nulls=*/true, /*min_count=*/1);
      const auto minmax = Unwrap(cp::CallFunction("min_max", {chunk}, &options)).scalar_as<arrow::StructScalar>();
      f.min = rng.Chance(8) ? Unwrap(arrow::MakeArrayOfNull(chunk->type(), 1))->GetScalar(0).ValueOrDie() : minmax.value[0];
      f.max = rng.Chance(8) ? Unwrap(arrow::MakeArrayOfNull(chunk->type(), 1))->GetScalar(0).ValueOrDie() : minmax.value[1];
      if (!rng.Chance(10)) f.null_count = static_cast<std::uint64_t>(chunk->null_count());
      c.fields.push_back(f);
    }
    out.push_back(c);
    start += c.rows;
  }
  return out;
}

// The statistics struct array in the layout of bitbytes.h: "row_count", then
// one struct child per column with "min", "max" (the field's type, its value
// type for a dictionary: `batch`'s types but the dictionary's), "null_count".
std::shared_ptr<arrow::StructArray> StatsArray(const std::vector<Container> &containers,
                                               const arrow::RecordBatch &decoded, const arrow::RecordBatch &batch) {
  arrow::UInt64Builder row_count;
  for (const Container &c : containers) Ok(row_count.Append(static_cast<std::uint64_t>(c.rows)));
  arrow::ArrayVector children = {Unwrap(row_count.Finish())};
  arrow::FieldVector fields = {arrow::field("row_count", arrow::uint64())};
  for (int k = 0; k < decoded.num_columns(); ++k) {
    const auto type = decoded.column(k)->type();
    std::unique_ptr<arrow::ArrayBuilder> min = Unwrap(arrow::MakeBuilder(type)), max = Unwrap(arrow::MakeBuilder(type));
    arrow::UInt64Builder nulls;
    arrow::BooleanBuilder valid;
    for (const Container &c : containers) {
      const FieldStats &f = c.fields[k];
      Ok(min->AppendScalar(*f.min));
      Ok(max->AppendScalar(*f.max));
      Ok(f.null_count ? nulls.Append(*f.null_count) : nulls.AppendNull());
      Ok(valid.Append(f.known));
    }
    const auto validity = Unwrap(valid.Finish());
    const auto field_type = batch.column(k)->type_id() == arrow::Type::DICTIONARY ? type : batch.column(k)->type();
    const arrow::ArrayVector parts = {Unwrap(cp::Cast(*Unwrap(min->Finish()), field_type)),
                                      Unwrap(cp::Cast(*Unwrap(max->Finish()), field_type)), Unwrap(nulls.Finish())};
    const arrow::FieldVector part_fields = {arrow::field("min", field_type), arrow::field("max", field_type),
                                            arrow::field("null_count", arrow::uint64())};
    children.push_back(Unwrap(arrow::StructArray::Make(parts, part_fields, validity->data()->buffers[1])));
    // The flags in the field metadata: exact bounds, said out loud on some fields.
    auto meta = k % 2 ? arrow::key_value_metadata({"truncated", "nan_excluded"}, {"false", "false"}) : nullptr;
    fields.push_back(arrow::field(decoded.schema()->field(k)->name(), children.back()->type(), true, meta));
  }
  return Unwrap(arrow::StructArray::Make(children, fields));
}

// A small array from values, std::nullopt for a null.
template <class Builder, class T>
std::shared_ptr<arrow::Array> Build(const std::vector<std::optional<T>> &values) {
  Builder b;
  for (const auto &v : values) Ok(v ? b.Append(*v) : b.AppendNull());
  return Unwrap(b.Finish());
}
auto Int32s = Build<arrow::Int32Builder, std::int32_t>;
auto UInt64s = Build<arrow::UInt64Builder, std::uint64_t>;
auto Int64s = Build<arrow::Int64Builder, std::int64_t>;
auto Strings = Build<arrow::StringBuilder, std::string>;

int Compare(const arrow::Scalar &a, const Lit &l) {
  if (a.type->id() == arrow::Type::INT32 || a.type->id() == arrow::Type::INT64) {
    const std::int64_t v = a.type->id() == arrow::Type::INT32 ? static_cast<const arrow::Int32Scalar &>(a).value
                                                               : static_cast<const arrow::Int64Scalar &>(a).value;
    return v < l.i ? -1 : v > l.i ? 1 : 0;
  }
  const std::string v = static_cast<const arrow::BaseBinaryScalar &>(a).value->ToString();
  const int c = v.compare(l.s);  // bytes: UTF-8 of BMP characters orders as Java's UTF-16 does
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// Whether Paimon Java's LeafPredicate / CompoundPredicate.test(rowCount, min,
// max, nullCounts) keeps the container (SEMANTICS.md, "Statistics"), plus the
// one pruning the contract adds here (IS_NULL with a known null count of 0).
// nullopt where Java's rule is not modelled here (the string functions).
std::optional<bool> JavaKeeps(const Node &n, const Container &c) {
  if (n.column < 0) {
    bool unknown = false;
    for (const Node &child : n.children) {
      const auto k = JavaKeeps(child, c);
      if (!k) unknown = true;
      else if (*k != (n.function == "AND")) return *k;  // AND: a pruned child prunes; OR: a kept one keeps
    }
    if (unknown) return std::nullopt;
    return n.function == "AND";
  }
  const FieldStats &f = c.fields[n.column];
  const std::uint64_t rows = static_cast<std::uint64_t>(c.rows);
  const bool nc_known = f.known && f.null_count.has_value();
  const std::uint64_t nc = nc_known ? *f.null_count : 0;
  const bool bounds = f.known && f.min->is_valid && f.max->is_valid;
  const std::string &fn = n.function;
  if (fn == "IS_NULL") return !nc_known || nc > 0;
  if ((!nc_known || rows != nc) && !bounds) return true;
  const bool all_null = nc_known && nc == rows;
  if (fn == "IS_NOT_NULL") return !nc_known || nc < rows;
  if (fn == "STARTS_WITH" || fn == "ENDS_WITH" || fn == "CONTAINS") return std::nullopt;
  if (all_null) return false;
  const auto &lits = n.literals;
  const bool null_literal = std::any_of(lits.begin(), lits.end(), [](const Lit &l) { return l.null; });
  if (fn == "IN") {
    for (const Lit &l : lits)
      if (!l.null && Compare(*f.min, l) <= 0 && Compare(*f.max, l) >= 0) return true;
    return false;
  }
  if (fn == "NOT_IN") {
    for (const Lit &l : lits)
      if (l.null || (Compare(*f.min, l) == 0 && Compare(*f.max, l) == 0)) return false;
    return true;
  }
  if (null_literal) return !nc_known;  // Java throws there: MayMatch
  const int lo = Compare(*f.min, lits[0]), hi = Compare(*f.max, lits[0]);  // min vs lit, max vs lit
  if (fn == "EQUAL") return lo <= 0 && hi >= 0;
  if (fn == "NOT_EQUAL") return !(lo == 0 && hi == 0);
  if (fn == "LESS_THAN") return lo < 0;
  if (fn == "LESS_OR_EQUAL") return lo <= 0;
  if (fn == "GREATER_THAN") return hi > 0;
  if (fn == "GREATER_OR_EQUAL") return hi >= 0;
  const int max_vs_lo = hi, min_vs_hi = Compare(*f.min, lits[1]), max_vs_hi = Compare(*f.max, lits[1]);
  if (fn == "BETWEEN") return max_vs_lo >= 0 && min_vs_hi <= 0;
  if (fn == "NOT_BETWEEN") return lo < 0 || max_vs_hi > 0;
  std::fprintf(stderr, "no statistics rule for %s\n", fn.c_str());
  std::exit(2);
}

// test_stats on the containers: each verdict sound for the rows (0: none
// selected, 2: all), and 0 exactly where Java prunes.
void CheckStats(const Node &tree, const std::vector<Container> &containers, const arrow::StructArray &stats,
                const Mask &want, const ArrowSchema &parse_schema) {
  const std::string json = ToJson(tree);
  Predicate pred;
  if (pred.Parse(json, parse_schema) != BITBYTES_OK) return;  // reported by CheckCase
  Exported e(stats);
  const std::size_t n = containers.size();
  Mask verdicts(n + 8, kSentinel);
  const int rc = bitbytes_predicate_test_stats(pred.p, &e.array, &e.schema, verdicts.data(), n);
  CHECK(rc == BITBYTES_OK, "test_stats %s: rc %d", json.c_str(), rc);
  if (rc != BITBYTES_OK) return;
  CHECK(std::all_of(verdicts.begin() + n, verdicts.end(), [](std::uint8_t b) { return b == kSentinel; }),
        "test_stats wrote past out_len");
  for (std::size_t k = 0; k < n; ++k) {
    const Container &c = containers[k];
    const auto first = want.begin() + c.start, last = first + c.rows;
    const std::uint8_t v = verdicts[k];
    CHECK(v <= 2, "verdict %u", v);
    CHECK(v != 0 || std::none_of(first, last, [](std::uint8_t b) { return b != 0; }),
          "container %zu (rows %lld..+%lld): NoMatch but a row matches, %s", k, static_cast<long long>(c.start),
          static_cast<long long>(c.rows), json.c_str());
    CHECK(v != 2 || std::all_of(first, last, [](std::uint8_t b) { return b != 0; }),
          "container %zu (rows %lld..+%lld): AllMatch but a row does not match, %s", k,
          static_cast<long long>(c.start), static_cast<long long>(c.rows), json.c_str());
    const auto keeps = JavaKeeps(tree, c);
    CHECK(!keeps || *keeps == (v != 0), "container %zu: verdict %u, Java %s, %s", k, v,
          *keeps ? "keeps it" : "prunes it", json.c_str());
  }
}

// ---- the tests ---------------------------------------------------------------------

int passed = 0, failed = 0;

template <class F>
void Test(const char *name, F body) {
  const int before = failures;
  body();
  const bool ok = failures == before;
  (ok ? passed : failed)++;
  std::printf("test %s ... %s\n", name, ok ? "ok" : "FAILED");
}

std::vector<Node> HandPicked() {
  enum { I, L, S, LS, D, SV };
  return {
      Leaf("GREATER_THAN", I, {Int(5)}),
      Leaf("EQUAL", L, {Int(-17)}),
      Leaf("LESS_OR_EQUAL", L, {Int(std::numeric_limits<std::int64_t>::min())}),
      Leaf("NOT_EQUAL", I, {Null()}),
      Leaf("IN", I, {Int(1), Null(), Int(3), Int(-50)}),
      Leaf("NOT_IN", I, {Int(1), Int(3)}),
      Leaf("NOT_IN", I, {Int(1), Null()}),
      Leaf("IN", S, {}),
      Leaf("NOT_IN", S, {}),
      Leaf("BETWEEN", L, {Int(-100), Int(100)}),
      Leaf("NOT_BETWEEN", I, {Int(-10), Int(10)}),
      Leaf("IS_NULL", D),
      Leaf("IS_NOT_NULL", LS),
      Leaf("STARTS_WITH", S, {Str("a")}),
      Leaf("STARTS_WITH", D, {Str("\xC3\xA9")}),
      Leaf("ENDS_WITH", LS, {Str("b")}),
      Leaf("CONTAINS", S, {Str("")}),
      Leaf("EQUAL", D, {Str("ab")}),
      Leaf("STARTS_WITH", SV, {Str("a")}),
      Leaf("LESS_THAN", SV, {Str("b")}),
      Leaf("GREATER_OR_EQUAL", LS, {Str("b")}),
      Compound("AND", {Leaf("GREATER_THAN", I, {Int(0)}), Leaf("STARTS_WITH", S, {Str("a")})}),
      Compound("OR", {Leaf("IS_NULL", I), Leaf("IN", D, {Str("a"), Str("\"")}), Leaf("LESS_THAN", L, {Int(0)})}),
  };
}

void RunAll() {
  Rng rng{19};
  const auto batch = MakeBatch(rng, 1000, 15);
  const auto decoded = Decoded(*batch);
  const auto containers = MakeContainers(rng, *decoded);
  const auto stats = StatsArray(containers, *decoded, *batch);
  SchemaExport parse_schema(*batch->schema());

  Test("hand_picked_cases_against_arrow_compute", [&] {
    for (const Node &tree : HandPicked()) {
      const Mask want = Oracle(tree, *decoded);
      CheckCase(tree, *batch, want, rng);
      CheckStats(tree, containers, *stats, want, parse_schema.schema);
    }
  });

  Test("random_trees_against_arrow_compute", [&] {
    int selected = 0, total = 0;
    for (int k = 0; k < 300; ++k) {
      const Node tree = RandomTree(rng, 3);
      const Mask want = Oracle(tree, *decoded);
      selected += static_cast<int>(std::count(want.begin(), want.end(), 1));
      total += static_cast<int>(want.size());
      CheckCase(tree, *batch, want, rng);
      CheckStats(tree, containers, *stats, want, parse_schema.schema);
    }
    // The cases are not degenerate: neither nothing nor everything selected.
    CHECK(selected > total / 10 && selected < total * 9 / 10, "%d of %d rows selected", selected, total);
  });

  Test("all_null_and_null_free_batches", [&] {
    for (int null_percent : {0, 100}) {
      Rng local{static_cast<std::uint64_t>(7 + null_percent)};
      const auto b = MakeBatch(local, 130, null_percent);
      const auto d = Decoded(*b);
      // All columns, the view column "sv" too: when every row is null, Arrow
      // C++ exports it with no data buffer and a NULL variadic-sizes buffer.
      for (int k = 0; k < 40; ++k) {
        const Node tree = RandomTree(local, 2);
        CheckCase(tree, *b, Oracle(tree, *d), local);
      }
    }
  });

  Test("gather_the_selected_rows_after_the_call", [&] {
    // The engine's next step: the batch is still its own after the call, and
    // the indices gather the rows arrow::compute's Filter keeps.
    const Node tree = Compound("OR", {Leaf("LESS_THAN", 0, {Int(-20)}), Leaf("STARTS_WITH", 4, {Str("a")})});
    SchemaExport schema(*batch->schema());
    Predicate pred;
    CHECK(pred.Parse(ToJson(tree), schema.schema) == BITBYTES_OK, "parse");
    std::vector<std::uint32_t> rows(batch->num_rows());
    std::size_t count = 0;
    {
      Exported e(*batch);
      CHECK(bitbytes_predicate_test_indices(pred.p, &e.array, &e.schema, rows.data(), rows.size(), &count) ==
                BITBYTES_OK,
            "test_indices");
      e.CheckIntactAndImport(*batch);
    }
    const auto indices = std::make_shared<arrow::UInt32Array>(static_cast<std::int64_t>(count),
                                                              arrow::Buffer::Wrap(rows.data(), count));
    // Arrow 19 has no take / filter kernel for views: gather the other columns.
    const auto gatherable = Unwrap(batch->RemoveColumn(kAllColumns - 1));
    const auto taken = Unwrap(cp::Take(gatherable, indices)).record_batch();
    arrow::BooleanBuilder keep;
    for (std::uint8_t b : Oracle(tree, *decoded)) Ok(keep.Append(b != 0));
    const auto filtered = Unwrap(cp::Filter(gatherable, Unwrap(keep.Finish()))).record_batch();
    CHECK(count > 0 && taken->Equals(*filtered), "Take(indices) != Filter(oracle), %zu rows", count);
  });

  Test("statistics_in_the_header_example", [&] {
    // x INT in [0, 9] and [10, 19] (file 1 has 3 nulls), s STRING truncated
    // and unknown in file 1: x > 12 gives {0, 1}, x < 20 gives {2, 1}.
    auto x = Unwrap(arrow::StructArray::Make(
        arrow::ArrayVector{Int32s({0, 10}), Int32s({9, 19}), UInt64s({0, 3})},
        std::vector<std::string>{"min", "max", "null_count"}));
    auto s = Unwrap(arrow::StructArray::Make(arrow::ArrayVector{Strings({"apple", std::nullopt}),
                                              Strings({"pear", std::nullopt})},
                                             std::vector<std::string>{"min", "max"}));
    auto files = Unwrap(arrow::StructArray::Make(
        arrow::ArrayVector{UInt64s({100, 50}), x, s},
        arrow::FieldVector{arrow::field("row_count", arrow::uint64()), arrow::field("x", x->type()),
                           arrow::field("s", s->type(), true, arrow::key_value_metadata({"truncated"}, {"true"}))}));
    SchemaExport schema(*arrow::schema({arrow::field("x", arrow::int32()), arrow::field("s", arrow::utf8())}));
    const std::string leaf = R"({"kind":"LEAF","transform":{"name":"FIELD_REF","fieldRef":{"index":0,"name":"x","type":"INT"}},"function":")";
    for (const auto &[fn, want] : std::vector<std::pair<std::string, Mask>>{{"GREATER_THAN\",\"literals\":[12]}", {0, 1}},
                                                                            {"LESS_THAN\",\"literals\":[20]}", {2, 1}}}) {
      Predicate pred;
      CHECK(pred.Parse(leaf + fn, schema.schema) == BITBYTES_OK, "parse %s", fn.c_str());
      Exported e(*files);
      Mask out(2, kSentinel);
      const int rc = bitbytes_predicate_test_stats(pred.p, &e.array, &e.schema, out.data(), out.size());
      CHECK(rc == BITBYTES_OK && out == want, "%s: rc %d, verdicts %u %u", fn.c_str(), rc, out[0], out[1]);
    }
  });

  Test("errors_write_nothing", [&] {
    SchemaExport schema(*batch->schema());
    const std::string good = ToJson(Leaf("GREATER_THAN", 0, {Int(5)}));
    auto parse_fails = [&](const std::string &json, int code, const char *what) {
      bitbytes_predicate *p = reinterpret_cast<bitbytes_predicate *>(&schema);  // must stay as it is
      const int rc = bitbytes_predicate_parse(json.data(), json.size(), &schema.schema, &p);
      CHECK(rc == code && p == reinterpret_cast<bitbytes_predicate *>(&schema) && bitbytes_last_error()[0] != '\0',
            "%s: rc %d, want %d", what, rc, code);
    };
    parse_fails("{\"kind\":\"LEAF\"", BITBYTES_ERR_JSON, "truncated JSON");
    parse_fails(good.substr(0, good.size() - 1), BITBYTES_ERR_JSON, "a missing brace");
    std::string unknown = good;
    unknown.replace(unknown.find("\"name\":\"i\""), 10, "\"name\":\"zz\"");
    parse_fails(unknown, BITBYTES_ERR_JSON, "a field not in the schema");
    std::string wrong_type = good;
    wrong_type.replace(wrong_type.find("[5]"), 3, "[\"five\"]");
    parse_fails(wrong_type, BITBYTES_ERR_JSON, "a string literal on INT");

    Predicate pred;
    CHECK(pred.Parse(good, schema.schema) == BITBYTES_OK, "parse");
    const auto small = batch->Slice(3, 10);
    Exported e(*small);
    Mask out(16, kSentinel);
    int rc = bitbytes_predicate_test(pred.p, &e.array, &e.schema, out.data(), 9);
    CHECK(rc == BITBYTES_ERR_OUTPUT_TOO_SHORT && std::strstr(bitbytes_last_error(), "out_len") != nullptr,
          "9 bytes for 10 rows: rc %d", rc);
    rc = bitbytes_predicate_test(nullptr, &e.array, &e.schema, out.data(), 10);
    CHECK(rc == BITBYTES_ERR_NULL_ARGUMENT, "NULL predicate: rc %d", rc);
    rc = bitbytes_predicate_test(pred.p, nullptr, &e.schema, out.data(), 10);
    CHECK(rc == BITBYTES_ERR_NULL_ARGUMENT, "NULL batch: rc %d", rc);
    // Another type for "i" than at parse: int64 instead of int32.
    const auto other = arrow::RecordBatch::Make(arrow::schema({arrow::field("i", arrow::int64())}), 2,
                                                arrow::ArrayVector{Int64s({1, 9})});
    Exported mismatch(*other);
    rc = bitbytes_predicate_test(pred.p, &mismatch.array, &mismatch.schema, out.data(), 10);
    CHECK(rc == BITBYTES_ERR_SCHEMA_MISMATCH, "int64 column for INT: rc %d", rc);
    CHECK(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == kSentinel; }), "an error wrote");
    // Statistics that are not a stats struct: the batch itself.
    rc = bitbytes_predicate_test_stats(pred.p, &e.array, &e.schema, out.data(), 10);
    CHECK(rc == BITBYTES_ERR_STATS_LAYOUT, "a batch as statistics: rc %d", rc);
    CHECK(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == kSentinel; }), "an error wrote");
    e.CheckIntactAndImport(*small);  // the failed calls left it alone too
    // A released export.
    Exported released(*small);
    released.array.release(&released.array);
    rc = bitbytes_predicate_test(pred.p, &released.array, &released.schema, out.data(), 10);
    CHECK(rc == BITBYTES_ERR_ARROW_RELEASED, "a released batch: rc %d", rc);
    CHECK(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == kSentinel; }), "an error wrote");
  });

  Test("one_predicate_shared_by_threads", [&] {
    const Node tree = RandomTree(rng, 3);
    const Mask want = Oracle(tree, *decoded);
    SchemaExport schema(*batch->schema());
    Predicate pred;
    CHECK(pred.Parse(ToJson(tree), schema.schema) == BITBYTES_OK, "parse");
    std::vector<int> wrong(4, 0);
    std::vector<std::string> errors(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        Exported e(*batch);  // each thread its own export of the same batch
        Mask out(want.size());
        for (int k = 0; k < 50; ++k) {
          if (bitbytes_predicate_test(pred.p, &e.array, &e.schema, out.data(), out.size()) != BITBYTES_OK ||
              out != want)
            ++wrong[t];
          // A failing call in this thread: its message is this thread's.
          if (t % 2 && bitbytes_predicate_test(pred.p, &e.array, &e.schema, out.data(), 1) == BITBYTES_OK) ++wrong[t];
        }
        errors[t] = bitbytes_last_error();
      });
    for (auto &th : threads) th.join();
    for (int t = 0; t < 4; ++t) {
      CHECK(wrong[t] == 0, "thread %d: %d wrong results", t, wrong[t]);
      CHECK((t % 2 == 1) == !errors[t].empty(), "thread %d: last error \"%s\"", t, errors[t].c_str());
    }
  });
}

}  // namespace

int main() {
#if ARROW_VERSION_MAJOR >= 21
  Ok(arrow::compute::Initialize());  // the kernels live in libarrow_compute since Arrow 21
#endif
  RunAll();
  std::printf("Arrow C++ %s, C++%ld: %d checks, %d failed\n", ARROW_VERSION_STRING, __cplusplus / 100 % 100, checks,
              failures);
  std::printf("predicate_arrow: %d passed, %d failed\n", passed, failed);
  return failed == 0 && failures == 0 ? 0 : 1;
}
