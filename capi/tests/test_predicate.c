/*
 * The predicate API of bitbytes.h tested from C, on Arrow structs built by
 * hand (no Arrow library): built by capi/ci.sh with
 *     cc -std=c11 -Wall -Wextra -Werror -pedantic -I capi/include test_predicate.c libbitbytes_capi.a ...
 * and run under valgrind there.
 *
 * A record batch of eight rows with a struct offset, children with offsets
 * of their own, nulls, int32, int64, utf8 and a dictionary column; each
 * predicate's mask, row indices and JSON checked against values worked out
 * by hand below; statistics of three files with a null entry, a truncated
 * string column and metadata flags; then every error one by one: its code,
 * a message that names the problem, and the outputs left untouched. Every
 * buffer is malloc'ed at its exact size, so that valgrind reports a read
 * past it, and the library must never call a release callback.
 */
#include "bitbytes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int checks;
static int releases;

#define CHECK(cond, ...)                                              \
  do {                                                                \
    checks++;                                                         \
    if (!(cond)) {                                                    \
      failures++;                                                     \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, \
              #cond);                                                 \
      fprintf(stderr, __VA_ARGS__);                                   \
      fputc('\n', stderr);                                            \
    }                                                                 \
  } while (0)

/* A failed call's code and its message: the message must contain `phrase`. */
#define CHECK_ERR(rc, want, phrase)                                          \
  do {                                                                       \
    int rc_ = (rc);                                                          \
    CHECK(rc_ == (want), "got %d, want %d (%s); last error: %s", rc_, (want), \
          #want, bitbytes_last_error());                                     \
    CHECK(strstr(bitbytes_last_error(), (phrase)) != NULL,                   \
          "the message \"%s\" lacks \"%s\"", bitbytes_last_error(), (phrase)); \
  } while (0)

#define CHECK_OK(rc)                                                    \
  do {                                                                  \
    int rc_ = (rc);                                                     \
    CHECK(rc_ == BITBYTES_OK, "got %d: %s", rc_, bitbytes_last_error()); \
  } while (0)

/* ---- Building Arrow structs by hand --------------------------------------- */

static void release_schema(struct ArrowSchema *s) {
  releases++;
  s->release = NULL;
}

static void release_array(struct ArrowArray *a) {
  releases++;
  a->release = NULL;
}

/* Exactly n bytes, a copy of `src`; freed at the end of main. */
#define MAX_BLOCKS 256
static void *blocks[MAX_BLOCKS];
static int n_blocks;

static void *exact(const void *src, size_t n) {
  void *p = malloc(n ? n : 1);
  if (p == NULL || n_blocks == MAX_BLOCKS) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  if (n) memcpy(p, src, n);
  blocks[n_blocks++] = p;
  return p;
}

static struct ArrowSchema schema_of(const char *format, const char *name) {
  struct ArrowSchema s;
  memset(&s, 0, sizeof s);
  s.format = format;
  s.name = name;
  s.flags = ARROW_FLAG_NULLABLE;
  s.release = release_schema;
  return s;
}

static struct ArrowArray array_of(int64_t length, int64_t offset,
                                  int64_t null_count, int64_t n_buffers,
                                  const void **buffers) {
  struct ArrowArray a;
  memset(&a, 0, sizeof a);
  a.length = length;
  a.offset = offset;
  a.null_count = null_count;
  a.n_buffers = n_buffers;
  a.buffers = buffers;
  a.release = release_array;
  return a;
}

/* A validity bitmap whose bit (offset + i) is valid[i], for n rows. */
static const uint8_t *bitmap(const int *valid, size_t offset, size_t n) {
  uint8_t bits[16] = {0};
  for (size_t i = 0; i < n; i++)
    if (valid[i]) bits[(offset + i) / 8] |= (uint8_t)(1u << ((offset + i) % 8));
  return exact(bits, (offset + n + 7) / 8);
}

/* ---- The batch ---------------------------------------------------------------
 * Eight rows, as a struct array with offset 2 (so row i of the batch is row
 * 2 + i of each child), whose children have offsets of their own:
 *
 *   row   x (int32)  y (int64)  s (utf8)  d (dictionary<int32, utf8>)
 *    0      4           0       "ab1"      red
 *    1      null       10       "b"        green
 *    2      9          20       null       null
 *    3      6          30       "abc"      blue
 *    4     -3          40       ""         red
 *    5     12          50       "xab"      red
 *    6      null       60       "ab"       blue
 *    7      5          70       null       green
 *
 * x: offset 1, so row i is physical entry 3 + i (entries 0..2 are padding:
 * 77, then batch rows -2 and -1, never selected by anything); y: offset 0;
 * s: offset 3; d: keys at offset 0 into a dictionary ["red", "green",
 * "blue"] with an offset of 1 (physical ["pad", "red", "green", "blue"]).
 */
enum { ROWS = 8, PRE = 2 /* the struct's offset */ };

static struct ArrowSchema x_schema, y_schema, s_schema, d_schema, dict_schema;
static struct ArrowSchema *batch_schema_children[4];
static struct ArrowSchema batch_schema;
static struct ArrowArray x_col, y_col, s_col, d_col, dict_col;
static struct ArrowArray *batch_children[4];
static struct ArrowArray batch;
static const void *x_bufs[2], *y_bufs[2], *s_bufs[3], *d_bufs[2], *dict_bufs[3];
static const void *batch_bufs[1];

static void build_batch(void) {
  /* x: physical entries 0..10: offset 1, then PRE rows, then the 8 rows. */
  const int32_t x_values[11] = {77, 1000, 1000, 4, 0, 9, 6, -3, 12, 0, 5};
  const int x_valid[10] = {1, 1, 1, 0, 1, 1, 1, 1, 0, 1}; /* from entry 1 */
  x_bufs[0] = bitmap(x_valid, 1, 10);
  x_bufs[1] = exact(x_values, sizeof x_values);
  x_col = array_of(10, 1, 2, 2, x_bufs);

  int64_t y_values[10];
  for (int i = 0; i < 10; i++) y_values[i] = (int64_t)(i - PRE) * 10;
  y_bufs[0] = NULL;
  y_bufs[1] = exact(y_values, sizeof y_values);
  y_col = array_of(10, 0, 0, 2, y_bufs);

  /* s: offset 3: entries 0..2 padding, 3..4 the PRE rows, then the rows. */
  const char *s_rows[13] = {"pad", "", "zz", "q", "q", "ab1", "b", NULL,
                            "abc", "",  "xab", "ab", NULL};
  int32_t s_offsets[14];
  char s_data[64];
  int32_t pos = 0;
  int s_valid[10];
  for (int i = 0; i < 13; i++) {
    s_offsets[i] = pos;
    if (s_rows[i] != NULL) {
      memcpy(s_data + pos, s_rows[i], strlen(s_rows[i]));
      pos += (int32_t)strlen(s_rows[i]);
    }
    if (i >= 3) s_valid[i - 3] = s_rows[i] != NULL;
  }
  s_offsets[13] = pos;
  s_bufs[0] = bitmap(s_valid, 3, 10);
  s_bufs[1] = exact(s_offsets, sizeof s_offsets);
  s_bufs[2] = exact(s_data, (size_t)pos);
  s_col = array_of(10, 3, 2, 3, s_bufs);

  const char dict_data[] = "padredgreenblue";
  const int32_t dict_offsets[5] = {0, 3, 6, 11, 15};
  dict_bufs[0] = NULL;
  dict_bufs[1] = exact(dict_offsets, sizeof dict_offsets);
  dict_bufs[2] = exact(dict_data, 15);
  dict_col = array_of(3, 1, 0, 3, dict_bufs);
  /* keys: 0 red, 1 green, 2 blue; entries 0..1 the PRE rows. */
  const int32_t d_keys[10] = {1, 1, 0, 1, 99, 2, 0, 0, 2, 1};
  const int d_valid[10] = {1, 1, 1, 1, 0, 1, 1, 1, 1, 1};
  d_bufs[0] = bitmap(d_valid, 0, 10);
  d_bufs[1] = exact(d_keys, sizeof d_keys);
  d_col = array_of(10, 0, 1, 2, d_bufs);
  d_col.dictionary = &dict_col;

  x_schema = schema_of("i", "x");
  y_schema = schema_of("l", "y");
  s_schema = schema_of("u", "s");
  d_schema = schema_of("i", "d");
  dict_schema = schema_of("u", NULL);
  d_schema.dictionary = &dict_schema;
  batch_schema_children[0] = &x_schema;
  batch_schema_children[1] = &y_schema;
  batch_schema_children[2] = &s_schema;
  batch_schema_children[3] = &d_schema;
  batch_schema = schema_of("+s", "");
  batch_schema.n_children = 4;
  batch_schema.children = batch_schema_children;

  batch_children[0] = &x_col;
  batch_children[1] = &y_col;
  batch_children[2] = &s_col;
  batch_children[3] = &d_col;
  batch_bufs[0] = NULL;
  batch = array_of(ROWS, PRE, 0, 1, batch_bufs);
  batch.n_children = 4;
  batch.children = batch_children;
}

/* ---- Predicates and their masks, by hand --------------------------------- */

#define FIELD(i, n, t)                                                    \
  "{\"name\":\"FIELD_REF\",\"fieldRef\":{\"index\":" #i ",\"name\":\"" n \
  "\",\"type\":\"" t "\"}}"
#define LEAF(field, fn, lits) \
  "{\"kind\":\"LEAF\",\"transform\":" field ",\"function\":\"" fn "\",\"literals\":[" lits "]}"
#define COMPOUND(fn, a, b) \
  "{\"kind\":\"COMPOUND\",\"function\":\"" fn "\",\"children\":[" a "," b "]}"

#define X FIELD(0, "x", "INT")
#define Y FIELD(1, "y", "BIGINT")
#define S FIELD(2, "s", "STRING")
#define D FIELD(3, "d", "STRING")

static const struct {
  const char *json;
  uint8_t mask[ROWS];
} CASES[] = {
    /* x > 5: 9, 6, 12; nulls never. */
    {LEAF(X, "GREATER_THAN", "5"), {0, 0, 1, 1, 0, 1, 0, 0}},
    {LEAF(X, "IS_NULL", ""), {0, 1, 0, 0, 0, 0, 1, 0}},
    /* NOT IN with a null literal selects nothing (SQL). */
    {LEAF(X, "NOT_IN", "4,null"), {0, 0, 0, 0, 0, 0, 0, 0}},
    {LEAF(X, "NOT_IN", "4,12"), {0, 0, 1, 1, 1, 0, 0, 1}},
    {LEAF(Y, "BETWEEN", "20,50"), {0, 0, 1, 1, 1, 1, 0, 0}},
    {LEAF(S, "STARTS_WITH", "\"ab\""), {1, 0, 0, 1, 0, 0, 1, 0}},
    {LEAF(S, "EQUAL", "\"\""), {0, 0, 0, 0, 1, 0, 0, 0}},
    {LEAF(S, "LIKE", "\"%b%\""), {1, 1, 0, 1, 0, 1, 1, 0}},
    {LEAF(D, "IN", "\"red\",\"blue\""), {1, 0, 0, 1, 1, 1, 1, 0}},
    {LEAF(D, "NOT_EQUAL", "\"green\""), {1, 0, 0, 1, 1, 1, 1, 0}},
    /* x > 5 and (s starts with "ab" or d = red): rows 3 (abc) and 5 (red). */
    {COMPOUND("AND", LEAF(X, "GREATER_THAN", "5"),
              COMPOUND("OR", LEAF(S, "STARTS_WITH", "\"ab\""),
                       LEAF(D, "EQUAL", "\"red\""))),
     {0, 0, 0, 1, 0, 1, 0, 0}},
    {COMPOUND("OR", LEAF(X, "IS_NULL", ""), LEAF(Y, "LESS_THAN", "10")),
     {1, 1, 0, 0, 0, 0, 1, 0}},
};
#define N_CASES (sizeof CASES / sizeof CASES[0])

static bitbytes_predicate *parse_ok(const char *json) {
  bitbytes_predicate *p = NULL;
  CHECK_OK(bitbytes_predicate_parse(json, strlen(json), &batch_schema, &p));
  CHECK(p != NULL, "no predicate for %s", json);
  return p;
}

static void test_masks_indices_json(void) {
  for (size_t c = 0; c < N_CASES; c++) {
    const char *json = CASES[c].json;
    bitbytes_predicate *p = parse_ok(json);
    if (p == NULL) continue;

    uint8_t mask[ROWS + 4];
    memset(mask, 0xEE, sizeof mask);
    CHECK_OK(bitbytes_predicate_test(p, &batch, &batch_schema, mask, sizeof mask));
    CHECK(memcmp(mask, CASES[c].mask, ROWS) == 0, "mask of %s", json);
    CHECK(mask[ROWS] == 0xEE && mask[ROWS + 3] == 0xEE, "wrote past the rows");

    uint32_t want[ROWS];
    size_t n = 0;
    for (uint32_t i = 0; i < ROWS; i++)
      if (CASES[c].mask[i]) want[n++] = i;
    uint32_t idx[ROWS + 1];
    for (size_t i = 0; i < ROWS + 1; i++) idx[i] = 0xDEAD;
    size_t count = 99;
    /* Exactly `n` slots suffice. */
    CHECK_OK(bitbytes_predicate_test_indices(p, &batch, &batch_schema, idx, n,
                                             &count));
    CHECK(count == n && memcmp(idx, want, n * sizeof idx[0]) == 0,
          "indices of %s: count %zu, want %zu", json, count, n);
    CHECK(idx[n] == 0xDEAD, "wrote past the count");

    char *text = NULL;
    size_t len = 0;
    CHECK_OK(bitbytes_predicate_to_json(p, &text, &len));
    CHECK(text != NULL && len == strlen(json) && strcmp(text, json) == 0,
          "to_json of %s gave %s", json, text ? text : "(null)");
    bitbytes_string_free(text);
    bitbytes_predicate_free(p);
  }
  bitbytes_predicate_free(NULL);
  bitbytes_string_free(NULL);
}

/* The batch with child `i` replaced by `col` (NULL: a NULL child). */
static struct ArrowArray *with_child(int i, struct ArrowArray *col) {
  static struct ArrowArray *kids[4];
  static struct ArrowArray copy;
  memcpy(kids, batch_children, sizeof kids);
  kids[i] = col;
  copy = batch;
  copy.children = kids;
  return &copy;
}

/* The batch schema with child `i` replaced by `s`. */
static struct ArrowSchema *with_schema_child(int i, struct ArrowSchema *s) {
  static struct ArrowSchema *kids[4];
  static struct ArrowSchema copy;
  memcpy(kids, batch_schema_children, sizeof kids);
  kids[i] = s;
  copy = batch_schema;
  copy.children = kids;
  return &copy;
}

/* bitbytes_predicate_test on (a, s): the code and message, and the output
 * untouched. */
static void expect_test_error(bitbytes_predicate *p, const struct ArrowArray *a,
                              const struct ArrowSchema *s, int want,
                              const char *phrase, const char *what) {
  uint8_t out[ROWS];
  memset(out, 0x5A, sizeof out);
  int rc = bitbytes_predicate_test(p, a, s, out, sizeof out);
  CHECK(rc == want, "%s: got %d, want %d; last error: %s", what, rc, want,
        bitbytes_last_error());
  CHECK(strstr(bitbytes_last_error(), phrase) != NULL,
        "%s: the message \"%s\" lacks \"%s\"", what, bitbytes_last_error(),
        phrase);
  for (size_t i = 0; i < sizeof out; i++)
    CHECK(out[i] == 0x5A, "%s: out[%zu] written", what, i);
}

static void test_parse_errors(void) {
  const char *json = LEAF(X, "GREATER_THAN", "5");
  bitbytes_predicate *const sentinel = (bitbytes_predicate *)&checks;
  bitbytes_predicate *p = sentinel;
  CHECK_ERR(bitbytes_predicate_parse(NULL, 4, &batch_schema, &p),
            BITBYTES_ERR_NULL_ARGUMENT, "json is NULL");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json), NULL, &p),
            BITBYTES_ERR_NULL_ARGUMENT, "schema is NULL");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json), &batch_schema, NULL),
            BITBYTES_ERR_NULL_ARGUMENT, "out");
  /* json_len, not the NUL, ends the text: a prefix is malformed. */
  CHECK_ERR(bitbytes_predicate_parse(json, 20, &batch_schema, &p),
            BITBYTES_ERR_JSON, "malformed JSON");
  const char *nope = LEAF(FIELD(0, "nope", "INT"), "IS_NULL", "");
  CHECK_ERR(bitbytes_predicate_parse(nope, strlen(nope), &batch_schema, &p),
            BITBYTES_ERR_JSON, "nope");
  const char *wrong = LEAF(X, "EQUAL", "\"abc\"");
  CHECK_ERR(bitbytes_predicate_parse(wrong, strlen(wrong), &batch_schema, &p),
            BITBYTES_ERR_JSON, "literals[0]");
  const char *unknown = LEAF(X, "SOUNDS_LIKE", "5");
  CHECK_ERR(bitbytes_predicate_parse(unknown, strlen(unknown), &batch_schema, &p),
            BITBYTES_ERR_JSON, "SOUNDS_LIKE");
  const char bad_utf8[] = "{\"kind\":\"\xff\"}";
  CHECK_ERR(bitbytes_predicate_parse(bad_utf8, strlen(bad_utf8), &batch_schema, &p),
            BITBYTES_ERR_JSON, "UTF-8");
  struct ArrowSchema released = batch_schema;
  released.release = NULL;
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json), &released, &p),
            BITBYTES_ERR_ARROW_RELEASED, "released");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json), &x_schema, &p),
            BITBYTES_ERR_ARROW_STRUCTURE, "struct schema");
  struct ArrowSchema no_format = schema_of(NULL, "x");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json),
                                     with_schema_child(0, &no_format), &p),
            BITBYTES_ERR_ARROW_STRUCTURE, "format is NULL");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json),
                                     with_schema_child(1, NULL), &p),
            BITBYTES_ERR_ARROW_STRUCTURE, "child 1 is NULL");
  struct ArrowSchema list = schema_of("+l", "y");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json),
                                     with_schema_child(1, &list), &p),
            BITBYTES_ERR_ARROW_STRUCTURE, "needs 1 children");
  struct ArrowSchema odd = schema_of("?", "y");
  CHECK_ERR(bitbytes_predicate_parse(json, strlen(json),
                                     with_schema_child(1, &odd), &p),
            BITBYTES_ERR_ARROW_STRUCTURE, "not supported");
  CHECK(p == sentinel, "parse wrote *out on an error");
}

static void test_batch_errors(void) {
  bitbytes_predicate *p = parse_ok(
      COMPOUND("AND", LEAF(X, "GREATER_THAN", "5"),
               COMPOUND("OR", LEAF(S, "STARTS_WITH", "\"ab\""),
                        LEAF(D, "EQUAL", "\"red\""))));
  if (p == NULL) return;
  expect_test_error(NULL, &batch, &batch_schema, BITBYTES_ERR_NULL_ARGUMENT,
                    "p is NULL", "NULL predicate");
  expect_test_error(p, NULL, &batch_schema, BITBYTES_ERR_NULL_ARGUMENT,
                    "batch is NULL", "NULL batch");
  expect_test_error(p, &batch, NULL, BITBYTES_ERR_NULL_ARGUMENT,
                    "schema is NULL", "NULL schema");
  uint8_t out[ROWS];
  memset(out, 0x5A, sizeof out);
  CHECK_ERR(bitbytes_predicate_test(p, &batch, &batch_schema, NULL, 8),
            BITBYTES_ERR_NULL_OUTPUT, "out is NULL");
  CHECK_ERR(bitbytes_predicate_test(p, &batch, &batch_schema, out, 7),
            BITBYTES_ERR_OUTPUT_TOO_SHORT, "out_len is 7");
  for (size_t i = 0; i < sizeof out; i++)
    CHECK(out[i] == 0x5A, "short output written at %zu", i);

  /* Released: the batch, a child, the dictionary, the schema. */
  struct ArrowArray a = batch;
  a.release = NULL;
  expect_test_error(p, &a, &batch_schema, BITBYTES_ERR_ARROW_RELEASED,
                    "released", "released batch");
  struct ArrowArray col = x_col;
  col.release = NULL;
  expect_test_error(p, with_child(0, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_RELEASED, "`x`", "released column");
  struct ArrowArray dict = dict_col;
  dict.release = NULL;
  col = d_col;
  col.dictionary = &dict;
  expect_test_error(p, with_child(3, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_RELEASED, "dictionary", "released dictionary");
  struct ArrowSchema s = batch_schema;
  s.release = NULL;
  expect_test_error(p, &batch, &s, BITBYTES_ERR_ARROW_RELEASED, "released",
                    "released schema");

  /* Schemas that do not match the predicate. */
  struct ArrowSchema renamed = schema_of("i", "xx");
  expect_test_error(p, &batch, with_schema_child(0, &renamed),
                    BITBYTES_ERR_SCHEMA_MISMATCH, "`x`", "missing field");
  struct ArrowSchema int64 = schema_of("l", "x");
  expect_test_error(p, &batch, with_schema_child(0, &int64),
                    BITBYTES_ERR_SCHEMA_MISMATCH, "Int64", "field of another type");
  expect_test_error(p, &batch, &x_schema, BITBYTES_ERR_ARROW_STRUCTURE,
                    "struct schema", "a non-struct schema");

  /* Structure: n_buffers, n_children, NULL child / buffers / buffer,
   * dictionary missing or extra, a batch with null rows. */
  col = s_col;
  col.n_buffers = 2;
  expect_test_error(p, with_child(2, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_STRUCTURE, "n_buffers is 2", "n_buffers");
  a = batch;
  a.n_children = 3;
  expect_test_error(p, &a, &batch_schema, BITBYTES_ERR_ARROW_STRUCTURE,
                    "n_children 3", "n_children");
  expect_test_error(p, with_child(2, NULL), &batch_schema,
                    BITBYTES_ERR_ARROW_STRUCTURE, "child 2 is NULL", "NULL child");
  col = x_col;
  col.buffers = NULL;
  expect_test_error(p, with_child(0, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_STRUCTURE, "buffers is NULL", "NULL buffers");
  const void *no_values[2] = {x_bufs[0], NULL};
  col = x_col;
  col.buffers = no_values;
  expect_test_error(p, with_child(0, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_STRUCTURE, "is null", "NULL values buffer");
  col = d_col;
  col.dictionary = NULL;
  expect_test_error(p, with_child(3, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_STRUCTURE, "without a dictionary",
                    "missing dictionary");
  col = x_col;
  col.dictionary = &dict_col;
  expect_test_error(p, with_child(0, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_STRUCTURE, "not a dictionary type",
                    "extra dictionary");
  const int some_null[ROWS + PRE] = {1, 1, 1, 0, 1, 1, 1, 1, 1, 1};
  const void *batch_validity[1] = {bitmap(some_null, 0, ROWS + PRE)};
  a = batch;
  a.buffers = batch_validity;
  a.null_count = -1;
  expect_test_error(p, &a, &batch_schema, BITBYTES_ERR_ARROW_STRUCTURE,
                    "1 null rows", "batch with a null row");
  a = batch;
  a.offset = -1;
  expect_test_error(p, &a, &batch_schema, BITBYTES_ERR_ARROW_OFFSET_LENGTH,
                    "offset -1", "negative offset");
  col = s_col;
  col.length = -5;
  expect_test_error(p, with_child(2, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_OFFSET_LENGTH, "length -5", "negative length");

  /* Data: offsets, UTF-8, dictionary keys, lengths, null counts. */
  const int32_t *good_offsets = s_bufs[1];
  int32_t offsets[14];
  memcpy(offsets, good_offsets, sizeof offsets);
  offsets[9] = offsets[8] - 1; /* decreasing */
  const void *bad_offsets[3] = {s_bufs[0], exact(offsets, sizeof offsets), s_bufs[2]};
  col = s_col;
  col.buffers = bad_offsets;
  expect_test_error(p, with_child(2, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_DATA, "offset", "decreasing offsets");
  memcpy(offsets, good_offsets, sizeof offsets);
  offsets[5] = offsets[13] + 40; /* past the data */
  offsets[6] = offsets[13] + 40;
  const void *past[3] = {s_bufs[0], exact(offsets, sizeof offsets), s_bufs[2]};
  col.buffers = past;
  expect_test_error(p, with_child(2, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_DATA, "offset", "offsets past the data");
  size_t data_len = (size_t)good_offsets[13];
  char data[64];
  memcpy(data, s_bufs[2], data_len);
  data[good_offsets[8]] = (char)0xC3; /* "abc" -> "\xC3bc": invalid UTF-8 */
  const void *not_utf8[3] = {s_bufs[0], s_bufs[1], exact(data, data_len)};
  col.buffers = not_utf8;
  expect_test_error(p, with_child(2, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_DATA, "UTF8", "invalid UTF-8");
  const int32_t keys[10] = {1, 1, 0, 1, 99, 3, 0, 0, 2, 1}; /* 3: no such entry */
  const void *bad_keys[2] = {d_bufs[0], exact(keys, sizeof keys)};
  col = d_col;
  col.buffers = bad_keys;
  expect_test_error(p, with_child(3, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_DATA, "out of bounds", "dictionary key");
  col = x_col;
  col.length = 8; /* the batch needs offset 2 + 8 rows */
  col.null_count = -1;
  expect_test_error(p, with_child(0, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_DATA, "the batch needs", "short column");
  col = x_col;
  col.null_count = 5;
  expect_test_error(p, with_child(0, &col), &batch_schema,
                    BITBYTES_ERR_ARROW_DATA, "null_count", "wrong null_count");

  /* Indices: count NULL, too few slots (and nothing written). */
  uint32_t idx[ROWS];
  for (size_t i = 0; i < ROWS; i++) idx[i] = 0xDEAD;
  size_t count = 99;
  CHECK_ERR(bitbytes_predicate_test_indices(p, &batch, &batch_schema, idx, ROWS, NULL),
            BITBYTES_ERR_NULL_ARGUMENT, "count is NULL");
  CHECK_ERR(bitbytes_predicate_test_indices(p, &batch, &batch_schema, idx, 1, &count),
            BITBYTES_ERR_OUTPUT_TOO_SHORT, "output too short");
  CHECK_ERR(bitbytes_predicate_test_indices(p, &a, &batch_schema, idx, ROWS, &count),
            BITBYTES_ERR_ARROW_OFFSET_LENGTH, "offset -1");
  CHECK(count == 99 && idx[0] == 0xDEAD, "indices written on an error");

  /* to_json: NULL out-parameters. */
  char *text = (char *)&checks;
  CHECK_ERR(bitbytes_predicate_to_json(p, &text, NULL),
            BITBYTES_ERR_NULL_ARGUMENT, "out_len");
  CHECK_ERR(bitbytes_predicate_to_json(NULL, &text, &count),
            BITBYTES_ERR_NULL_ARGUMENT, "p is NULL");
  CHECK(text == (char *)&checks, "to_json wrote *out on an error");

  /* After all that, the batch is intact and still evaluates. */
  uint8_t mask[ROWS];
  CHECK_OK(bitbytes_predicate_test(p, &batch, &batch_schema, mask, ROWS));
  CHECK(mask[3] == 1 && mask[5] == 1 && mask[0] == 0, "the batch after errors");
  bitbytes_predicate_free(p);
}

/* ---- An all-null string_view column ------------------------------------------
 * As Arrow C++ 19 exports it: validity, views, and no data buffer, so the
 * variadic-sizes buffer holds no size and is NULL. Five rows of
 * (x int32 = 0..4, v string_view all null).
 */
static void test_all_null_views(void) {
  enum { N = 5 };
  const int32_t xs[N] = {0, 1, 2, 3, 4};
  const void *vx_bufs[2] = {NULL, exact(xs, sizeof xs)};
  struct ArrowArray vx = array_of(N, 0, 0, 2, vx_bufs);
  const int none[N] = {0};
  const uint8_t views[N * 16] = {0};
  const void *v_bufs[3] = {bitmap(none, 0, N), exact(views, sizeof views), NULL};
  struct ArrowArray v = array_of(N, 0, N, 3, v_bufs);
  struct ArrowArray *kids[2] = {&vx, &v};
  const void *top_bufs[1] = {NULL};
  struct ArrowArray top = array_of(N, 0, 0, 1, top_bufs);
  top.n_children = 2;
  top.children = kids;
  struct ArrowSchema x_s = schema_of("i", "x"), v_s = schema_of("vu", "v");
  struct ArrowSchema *schema_kids[2] = {&x_s, &v_s};
  struct ArrowSchema schema = schema_of("+s", "");
  schema.n_children = 2;
  schema.children = schema_kids;
#define VX FIELD(0, "x", "INT")
#define VV FIELD(1, "v", "STRING")
  const struct {
    const char *json;
    uint8_t mask[N];
  } cases[] = {
      {LEAF(VV, "IS_NULL", ""), {1, 1, 1, 1, 1}},
      {LEAF(VV, "IS_NOT_NULL", ""), {0, 0, 0, 0, 0}},
      {LEAF(VV, "STARTS_WITH", "\"a\""), {0, 0, 0, 0, 0}},
      {COMPOUND("OR", LEAF(VX, "GREATER_THAN", "2"), LEAF(VV, "EQUAL", "\"q\"")),
       {0, 0, 0, 1, 1}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    bitbytes_predicate *p = NULL;
    CHECK_OK(bitbytes_predicate_parse(cases[c].json, strlen(cases[c].json), &schema, &p));
    if (p == NULL) continue;
    uint8_t mask[N];
    memset(mask, 0xEE, sizeof mask);
    CHECK_OK(bitbytes_predicate_test(p, &top, &schema, mask, N));
    CHECK(memcmp(mask, cases[c].mask, N) == 0, "mask of %s", cases[c].json);
    bitbytes_predicate_free(p);
  }
  /* A data buffer with a NULL sizes buffer: its size is unknown. */
  bitbytes_predicate *p = NULL;
  const char *json = LEAF(VV, "IS_NULL", "");
  CHECK_OK(bitbytes_predicate_parse(json, strlen(json), &schema, &p));
  const char text[4] = "abcd";
  const void *one_data[4] = {v_bufs[0], v_bufs[1], exact(text, 4), NULL};
  v.n_buffers = 4;
  v.buffers = one_data;
  uint8_t out[N];
  memset(out, 0x5A, sizeof out);
  CHECK_ERR(bitbytes_predicate_test(p, &top, &schema, out, N),
            BITBYTES_ERR_ARROW_STRUCTURE, "variadic buffer sizes");
  CHECK(out[0] == 0x5A && out[N - 1] == 0x5A, "written on an error");
  bitbytes_predicate_free(p);
#undef VX
#undef VV
}

/* ---- Statistics --------------------------------------------------------------
 * Three files of the table (x INT, y BIGINT, s STRING, d STRING):
 *
 *   file  row_count  x: min max null_count      s (truncated): min max
 *    0      100         0   9     0                "apple"  "banana"
 *    1       50        10  19     3                 null     null
 *    2       10        (x's entry null: unknown)   "abc"    "abd"
 */
enum { FILES = 3 };

/* Metadata {"truncated": "true"} in the C Data Interface's encoding. */
static const char *metadata_of(const char *key, const char *value) {
  char buf[64];
  int32_t n = 1, k = (int32_t)strlen(key), v = (int32_t)strlen(value);
  size_t pos = 0;
  memcpy(buf + pos, &n, 4), pos += 4;
  memcpy(buf + pos, &k, 4), pos += 4;
  memcpy(buf + pos, key, (size_t)k), pos += (size_t)k;
  memcpy(buf + pos, &v, 4), pos += 4;
  memcpy(buf + pos, value, (size_t)v), pos += (size_t)v;
  return exact(buf, pos);
}

static struct ArrowSchema st_schema, st_rows_s, st_x_s, st_s_s, st_xmin_s,
    st_xmax_s, st_xnull_s, st_smin_s, st_smax_s;
static struct ArrowSchema *st_kids_s[3], *st_x_kids_s[3], *st_s_kids_s[2];
static struct ArrowArray st, st_rows, st_x, st_s, st_xmin, st_xmax, st_xnull,
    st_smin, st_smax;
static struct ArrowArray *st_kids[3], *st_x_kids[3], *st_s_kids[2];
static const void *st_bufs[1], *st_rows_b[2], *st_x_b[1], *st_s_b[1],
    *st_xmin_b[2], *st_xmax_b[2], *st_xnull_b[2], *st_smin_b[3], *st_smax_b[3];

static void build_stats(void) {
  const uint64_t rows[FILES] = {100, 50, 10};
  st_rows_b[0] = NULL;
  st_rows_b[1] = exact(rows, sizeof rows);
  st_rows = array_of(FILES, 0, 0, 2, st_rows_b);
  st_rows_s = schema_of("L", "row_count");

  const int32_t xmin[FILES] = {0, 10, 0}, xmax[FILES] = {9, 19, 0};
  const uint64_t xnull[FILES] = {0, 3, 0};
  st_xmin_b[0] = st_xmax_b[0] = st_xnull_b[0] = NULL;
  st_xmin_b[1] = exact(xmin, sizeof xmin);
  st_xmax_b[1] = exact(xmax, sizeof xmax);
  st_xnull_b[1] = exact(xnull, sizeof xnull);
  st_xmin = array_of(FILES, 0, 0, 2, st_xmin_b);
  st_xmax = array_of(FILES, 0, 0, 2, st_xmax_b);
  st_xnull = array_of(FILES, 0, 0, 2, st_xnull_b);
  st_x_kids[0] = &st_xmin, st_x_kids[1] = &st_xmax, st_x_kids[2] = &st_xnull;
  const int x_valid[FILES] = {1, 1, 0};
  st_x_b[0] = bitmap(x_valid, 0, FILES);
  st_x = array_of(FILES, 0, 1, 1, st_x_b);
  st_x.n_children = 3;
  st_x.children = st_x_kids;
  st_xmin_s = schema_of("i", "min");
  st_xmax_s = schema_of("i", "max");
  st_xnull_s = schema_of("L", "null_count");
  st_x_kids_s[0] = &st_xmin_s, st_x_kids_s[1] = &st_xmax_s,
  st_x_kids_s[2] = &st_xnull_s;
  st_x_s = schema_of("+s", "x");
  st_x_s.n_children = 3;
  st_x_s.children = st_x_kids_s;

  const int32_t smin_off[FILES + 1] = {0, 5, 5, 8}, smax_off[FILES + 1] = {0, 6, 6, 9};
  const int s_valid[FILES] = {1, 0, 1};
  st_smin_b[0] = st_smax_b[0] = bitmap(s_valid, 0, FILES);
  st_smin_b[1] = exact(smin_off, sizeof smin_off);
  st_smin_b[2] = exact("appleabc", 8);
  st_smax_b[1] = exact(smax_off, sizeof smax_off);
  st_smax_b[2] = exact("bananaabd", 9);
  st_smin = array_of(FILES, 0, 1, 3, st_smin_b);
  st_smax = array_of(FILES, 0, 1, 3, st_smax_b);
  st_s_kids[0] = &st_smin, st_s_kids[1] = &st_smax;
  st_s_b[0] = NULL;
  st_s = array_of(FILES, 0, 0, 1, st_s_b);
  st_s.n_children = 2;
  st_s.children = st_s_kids;
  st_smin_s = schema_of("u", "min");
  st_smax_s = schema_of("u", "max");
  st_s_kids_s[0] = &st_smin_s, st_s_kids_s[1] = &st_smax_s;
  st_s_s = schema_of("+s", "s");
  st_s_s.n_children = 2;
  st_s_s.children = st_s_kids_s;
  st_s_s.metadata = metadata_of("truncated", "true");

  st_kids[0] = &st_rows, st_kids[1] = &st_x, st_kids[2] = &st_s;
  st_kids_s[0] = &st_rows_s, st_kids_s[1] = &st_x_s, st_kids_s[2] = &st_s_s;
  st_bufs[0] = NULL;
  st = array_of(FILES, 0, 0, 1, st_bufs);
  st.n_children = 3;
  st.children = st_kids;
  st_schema = schema_of("+s", "");
  st_schema.n_children = 3;
  st_schema.children = st_kids_s;
}

static void expect_stats(const char *json, const uint8_t want[FILES]) {
  bitbytes_predicate *p = parse_ok(json);
  if (p == NULL) return;
  uint8_t out[FILES + 1];
  memset(out, 0xEE, sizeof out);
  CHECK_OK(bitbytes_predicate_test_stats(p, &st, &st_schema, out, sizeof out));
  CHECK(memcmp(out, want, FILES) == 0 && out[FILES] == 0xEE,
        "stats of %s: got %d %d %d, want %d %d %d", json, out[0], out[1],
        out[2], want[0], want[1], want[2]);
  bitbytes_predicate_free(p);
}

static void test_stats(void) {
  /* 0: no match, 1: may match, 2: all match. File 2's x is unknown. */
  expect_stats(LEAF(X, "GREATER_THAN", "12"), (const uint8_t[]){0, 1, 1});
  /* File 0: all of [0, 9] < 20 and no nulls; file 1 has 3 null rows. */
  expect_stats(LEAF(X, "LESS_THAN", "20"), (const uint8_t[]){2, 1, 1});
  /* A known null count of 0 rules IS NULL out. */
  expect_stats(LEAF(X, "IS_NULL", ""), (const uint8_t[]){0, 1, 1});
  /* "b" lies in ["apple", "banana"], not in ["abc", "abd"]. */
  expect_stats(LEAF(S, "EQUAL", "\"b\""), (const uint8_t[]){1, 1, 0});
  /* No "ab..." string lies in ["apple", "banana"]. */
  expect_stats(LEAF(S, "STARTS_WITH", "\"ab\""), (const uint8_t[]){0, 1, 1});
  /* No statistics for y: unknown. */
  expect_stats(LEAF(Y, "EQUAL", "5"), (const uint8_t[]){1, 1, 1});
  expect_stats(COMPOUND("AND", LEAF(X, "LESS_THAN", "20"),
                        LEAF(S, "STARTS_WITH", "\"ab\"")),
               (const uint8_t[]){0, 1, 1});
}

static void expect_stats_error(bitbytes_predicate *p, const struct ArrowArray *a,
                               const struct ArrowSchema *s, int want,
                               const char *phrase, const char *what) {
  uint8_t out[FILES];
  memset(out, 0x5A, sizeof out);
  int rc = bitbytes_predicate_test_stats(p, a, s, out, sizeof out);
  CHECK(rc == want, "%s: got %d, want %d; last error: %s", what, rc, want,
        bitbytes_last_error());
  CHECK(strstr(bitbytes_last_error(), phrase) != NULL,
        "%s: the message \"%s\" lacks \"%s\"", what, bitbytes_last_error(),
        phrase);
  CHECK(out[0] == 0x5A && out[1] == 0x5A && out[2] == 0x5A, "%s: written", what);
}

static void test_stats_errors(void) {
  bitbytes_predicate *p = parse_ok(LEAF(X, "GREATER_THAN", "12"));
  if (p == NULL) return;
  expect_stats_error(p, NULL, &st_schema, BITBYTES_ERR_NULL_ARGUMENT,
                     "stats is NULL", "NULL stats");
  expect_stats_error(p, &st, NULL, BITBYTES_ERR_NULL_ARGUMENT,
                     "stats_schema is NULL", "NULL stats schema");
  uint8_t out[FILES] = {0x5A, 0x5A, 0x5A};
  CHECK_ERR(bitbytes_predicate_test_stats(p, &st, &st_schema, out, 2),
            BITBYTES_ERR_OUTPUT_TOO_SHORT, "out_len is 2");
  CHECK(out[0] == 0x5A && out[1] == 0x5A, "short stats output written");

  /* No row_count. */
  struct ArrowSchema renamed = schema_of("L", "rows");
  struct ArrowSchema *kids_s[3] = {&renamed, &st_x_s, &st_s_s};
  struct ArrowSchema s = st_schema;
  s.children = kids_s;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "row_count",
                     "no row_count");
  /* row_count not uint64. */
  struct ArrowSchema signed_rows = schema_of("l", "row_count");
  kids_s[0] = &signed_rows;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "uint64",
                     "signed row_count");
  /* A child that is no field of the schema. */
  kids_s[0] = &st_rows_s;
  struct ArrowSchema stranger = st_x_s;
  stranger.name = "w";
  kids_s[1] = &stranger;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "`w`",
                     "unknown field");
  /* min of another type than the field's. */
  struct ArrowSchema xmin_u32 = schema_of("I", "min"), xmax_u32 = schema_of("I", "max");
  struct ArrowSchema *x_kids_s[3] = {&xmin_u32, &xmax_u32, &st_xnull_s};
  struct ArrowSchema x_s = st_x_s;
  x_s.children = x_kids_s;
  kids_s[1] = &x_s;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "UInt32",
                     "min of the wrong type");
  /* An unknown part, a missing max. */
  struct ArrowSchema lowest = schema_of("i", "lowest");
  x_kids_s[0] = &lowest, x_kids_s[1] = &st_xmax_s;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "lowest",
                     "unknown part");
  x_kids_s[0] = &st_xmin_s, x_kids_s[1] = &st_xmin_s;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "no child \"max\"",
                     "no max");
  /* A flag that is neither "true" nor "false". */
  kids_s[1] = &st_x_s;
  struct ArrowSchema flagged = st_s_s;
  flagged.metadata = metadata_of("truncated", "yes");
  kids_s[2] = &flagged;
  expect_stats_error(p, &st, &s, BITBYTES_ERR_STATS_LAYOUT, "truncated",
                     "bad flag");
  /* A field's stats that are not a struct. */
  kids_s[2] = &st_s_s;
  struct ArrowArray *kids[3] = {&st_rows, &st_rows, &st_s};
  struct ArrowArray a = st;
  a.children = kids;
  struct ArrowSchema plain = schema_of("L", "x");
  kids_s[1] = &plain;
  expect_stats_error(p, &a, &s, BITBYTES_ERR_STATS_LAYOUT, "not a struct",
                     "field stats not a struct");
  /* Structure against the schema: the array has one child fewer. */
  a = st;
  a.n_children = 2;
  expect_stats_error(p, &a, &st_schema, BITBYTES_ERR_ARROW_STRUCTURE,
                     "n_children is 2", "n_children");
  /* Data: min shorter than the stats. */
  struct ArrowArray short_min = st_xmin;
  short_min.length = 2;
  struct ArrowArray *x_kids[3] = {&short_min, &st_xmax, &st_xnull};
  struct ArrowArray x = st_x;
  x.children = x_kids;
  struct ArrowArray *top_kids[3] = {&st_rows, &x, &st_s};
  a = st;
  a.children = top_kids;
  expect_stats_error(p, &a, &st_schema, BITBYTES_ERR_ARROW_DATA, "min",
                     "short min");
  bitbytes_predicate_free(p);
}

/* The message of a failed call of the older functions is the code's. */
static void test_last_error_of_other_calls(void) {
  uint8_t out[1];
  int rc = bitbytes_unpack(NULL, 4, NULL, 0, 0, 1, false, out, 1);
  CHECK(rc == BITBYTES_ERR_NULL_VALUES, "rc %d", rc);
  CHECK(strcmp(bitbytes_last_error(), bitbytes_strerror(rc)) == 0,
        "last error \"%s\"", bitbytes_last_error());
  /* A success leaves it. */
  CHECK_OK(bitbytes_unpack(NULL, 0, NULL, 0, 0, 0, false, NULL, 0));
  CHECK(strcmp(bitbytes_last_error(), bitbytes_strerror(rc)) == 0,
        "a success changed the last error");
  const int codes[] = {BITBYTES_ERR_ARROW_STRUCTURE, BITBYTES_ERR_ARROW_DATA,
                       BITBYTES_ERR_STATS_LAYOUT,    BITBYTES_ERR_JSON,
                       BITBYTES_ERR_SCHEMA_MISMATCH, BITBYTES_ERR_PREDICATE};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    CHECK(strstr(bitbytes_strerror(codes[i]), "unknown") == NULL,
          "code %d has no message", codes[i]);
}

int main(void) {
  build_batch();
  build_stats();
  struct {
    const char *name;
    void (*run)(void);
  } tests[] = {
      {"masks_indices_json", test_masks_indices_json},
      {"parse_errors", test_parse_errors},
      {"batch_errors", test_batch_errors},
      {"all_null_views", test_all_null_views},
      {"stats", test_stats},
      {"stats_errors", test_stats_errors},
      {"last_error_of_other_calls", test_last_error_of_other_calls},
  };
  int n = (int)(sizeof tests / sizeof tests[0]);
  int failed = 0;
  for (int i = 0; i < n; i++) {
    int before = failures;
    tests[i].run();
    int ok = failures == before;
    failed += !ok;
    printf("test %s ... %s\n", tests[i].name, ok ? "ok" : "FAILED");
  }
  /* The library never released anything: the structs are still ours. */
  CHECK(releases == 0, "bitbytes called %d release callbacks", releases);
  CHECK(batch.release == release_array && x_col.release == release_array &&
            batch_schema.release == release_schema,
        "a struct was released");
  batch.release(&batch);
  batch_schema.release(&batch_schema);
  CHECK(releases == 2, "release counts");
  for (int i = 0; i < n_blocks; i++) free(blocks[i]);
  printf("%d checks\n", checks);
  printf("capi predicate: %d passed, %d failed\n", n - failed,
         failed + (releases != 2));
  return failures ? 1 : 0;
}
