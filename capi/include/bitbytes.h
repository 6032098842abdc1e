/*
 * bitbytes.h: the C ABI of bitbytes (libbitbytes_capi.a / libbitbytes_capi.so).
 *
 * Moves predicate results between bitmaps (one bit per row, LSB first, as in
 * Apache Arrow) and byte masks (one 0/1 byte per row). Row i of a bitmap that
 * starts at bit offset o is bit (o + i) % 8 of byte (o + i) / 8.
 *
 * Rules every function follows:
 *  - It returns an int status: BITBYTES_OK (0) on success, a negative
 *    BITBYTES_ERR_* code otherwise; bitbytes_strerror(code) gives a static
 *    message. On every error code except BITBYTES_ERR_PANIC nothing is
 *    written.
 *  - Each buffer is a pointer and a length in elements. A NULL pointer with
 *    length 0 is an empty buffer (for `validity`: no validity bitmap, every
 *    row valid). A NULL pointer with a length above 0 is an error code.
 *  - The caller's contract: a non-NULL pointer points to at least `length`
 *    readable (inputs) or writable (outputs) elements for the whole call, and
 *    an output overlaps no input. The library cannot check that; breaking it
 *    is undefined behaviour, as with memcpy.
 *  - Nothing is allocated, nothing is retained after the call, and every
 *    function is thread-safe.
 *  - No Rust panic unwinds into the caller: one becomes BITBYTES_ERR_PANIC
 *    (a bug; please report it).
 *
 * Link: the static library needs what Rust's standard library uses from the
 * system; on Linux with glibc, e.g.
 *     cc app.c -I capi/include path/to/libbitbytes_capi.a -lc -lm -lrt -lpthread -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
 * (see docs/c-abi.md, "Build and link").
 */
#ifndef BITBYTES_H
#define BITBYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The release this header belongs to; bitbytes_version() is the linked
 * library's. */
#define BITBYTES_VERSION "0.1.0"

/* ---- Status codes (stable: a code never changes meaning) ---------------- */

/* Success. */
#define BITBYTES_OK (0)
/* The output buffer is shorter than the call writes: `len` bytes for
 * unpack, ceil((bit_offset + len) / 8) bytes for pack, one uint32_t per
 * selected row for the indices functions. */
#define BITBYTES_ERR_OUTPUT_TOO_SHORT (-1)
/* values_len < ceil((bit_offset + len) / 8). */
#define BITBYTES_ERR_VALUES_TOO_SHORT (-2)
/* validity_len < ceil((bit_offset + len) / 8). */
#define BITBYTES_ERR_VALIDITY_TOO_SHORT (-3)
/* bit_offset + len overflows size_t. */
#define BITBYTES_ERR_OVERFLOW (-4)
/* A bitmap writer has no room for an append (no function of this header
 * returns it yet; the Rust crate's error has this variant). */
#define BITBYTES_ERR_CAPACITY_EXCEEDED (-5)
/* A row index of the selection-vector functions does not fit in uint32_t:
 * the largest one, base + len - 1 (base + mask_len - 1), exceeds UINT32_MAX. */
#define BITBYTES_ERR_INDEX_OVERFLOW (-6)
/* An error of a newer bitbytes that this version has no code for. */
#define BITBYTES_ERR_OTHER (-9)
/* `values` is NULL and values_len is not 0. */
#define BITBYTES_ERR_NULL_VALUES (-10)
/* `validity` is NULL and validity_len is not 0. */
#define BITBYTES_ERR_NULL_VALIDITY (-11)
/* The input bytes pointer (pack's `bytes`, a `mask`) is NULL and its length
 * is not 0. */
#define BITBYTES_ERR_NULL_INPUT (-12)
/* `out` is NULL and out_len (out_cap) is not 0. */
#define BITBYTES_ERR_NULL_OUTPUT (-13)
/* A pointer that is always required is NULL: the ArrowArray, the
 * ArrowSchema, or the `count` out-parameter of the selection-vector
 * functions. */
#define BITBYTES_ERR_NULL_ARGUMENT (-14)
/* A buffer length above PTRDIFF_MAX bytes. */
#define BITBYTES_ERR_LENGTH_TOO_LARGE (-15)
/* The ArrowArray or ArrowSchema is released (its `release` is NULL). */
#define BITBYTES_ERR_ARROW_RELEASED (-20)
/* The ArrowSchema's format is not "b" (boolean). */
#define BITBYTES_ERR_ARROW_FORMAT (-21)
/* Not the boolean layout: n_buffers != 2, or children, or a dictionary. */
#define BITBYTES_ERR_ARROW_LAYOUT (-22)
/* `buffers` is NULL; or the values buffer is NULL while length > 0; or the
 * validity buffer is NULL while null_count > 0. */
#define BITBYTES_ERR_ARROW_NULL_BUFFER (-23)
/* offset or length is negative, or offset + length does not fit in size_t. */
#define BITBYTES_ERR_ARROW_OFFSET_LENGTH (-24)
/* The ArrowSchema or ArrowArray of a batch or of statistics does not have
 * the structure its type needs: a batch schema that is not a struct ("+s"),
 * a format string that is NULL, not UTF-8 or unknown, n_buffers or
 * n_children wrong for the type, a NULL `buffers` / `children` / child /
 * required buffer, a dictionary where none belongs or none where one does, a
 * batch struct with null rows. bitbytes_last_error() says which. */
#define BITBYTES_ERR_ARROW_STRUCTURE (-25)
/* The Arrow data is inconsistent (checked in full on every imported column):
 * string or list offsets decreasing, negative or past their data, invalid
 * UTF-8, dictionary keys out of range, a child shorter than its parent, a
 * null_count that contradicts the validity bitmap. bitbytes_last_error()
 * says which. */
#define BITBYTES_ERR_ARROW_DATA (-26)
/* The statistics struct of bitbytes_predicate_test_stats does not have the
 * documented layout (see there); bitbytes_last_error() says which part. */
#define BITBYTES_ERR_STATS_LAYOUT (-27)
/* The predicate JSON is malformed, or is not a valid Paimon predicate over
 * the schema (unknown function, field not in the schema, literal of the
 * wrong type, bad LIKE pattern, ...); bitbytes_last_error() says where. */
#define BITBYTES_ERR_JSON (-30)
/* A batch (or statistics) schema does not match the predicate: a field the
 * predicate reads is missing, or has another type than in the schema the
 * predicate was parsed against. */
#define BITBYTES_ERR_SCHEMA_MISMATCH (-31)
/* The predicate could not be evaluated on valid data (e.g. a CAST of a value
 * that does not cast, as Paimon Java fails there) or written back as JSON;
 * bitbytes_last_error() says why. */
#define BITBYTES_ERR_PREDICATE (-32)
/* A Rust panic was caught: a bug in bitbytes. The output may be partly
 * written. */
#define BITBYTES_ERR_PANIC (-99)

/* A static, NUL-terminated message for `code` ("ok" for BITBYTES_OK, and a
 * message saying so for a number that is no code). Never NULL; do not free. */
const char *bitbytes_strerror(int code);

/* The version of the linked library, e.g. "0.1.0": compare it with
 * BITBYTES_VERSION to catch a header and a library of different releases.
 * Static; never NULL; do not free. */
const char *bitbytes_version(void);

/* The kernel bitbytes_unpack uses on this CPU: "portable", "sse2", "avx2" or
 * "avx512bw". Static; never NULL; do not free. */
const char *bitbytes_kernel_name(void);

/* ---- Bitmaps to bytes ------------------------------------------------- */

/* out[i] = 1 when row i is valid and its value bit differs from `negate`,
 * else 0, for i in [0, len). Row i is bit bit_offset + i of `values` and of
 * `validity`. A NULL `validity` (with validity_len 0) means every row is
 * valid. A null row is 0 whatever `negate`: `negate` turns an IN result into
 * NOT IN, it is not a NOT of the output. Only out[0..len) is written.
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_VALUES, _NULL_VALIDITY,
 * _NULL_OUTPUT, _LENGTH_TOO_LARGE, _OVERFLOW, _OUTPUT_TOO_SHORT
 * (out_len < len), _VALUES_TOO_SHORT, _VALIDITY_TOO_SHORT. */
int bitbytes_unpack(const uint8_t *values, size_t values_len,
                    const uint8_t *validity, size_t validity_len,
                    size_t bit_offset, size_t len, bool negate,
                    uint8_t *out, size_t out_len);

/* As bitbytes_unpack, with row i at bit values_offset + i of `values` and
 * bit validity_offset + i of `validity` (bitmaps of different origins). */
int bitbytes_unpack_offsets(const uint8_t *values, size_t values_len,
                            size_t values_offset,
                            const uint8_t *validity, size_t validity_len,
                            size_t validity_offset,
                            size_t len, bool negate,
                            uint8_t *out, size_t out_len);

/* ---- Bytes to bitmaps ------------------------------------------------- */

/* Bit bit_offset + i of `out` becomes (bytes[i] != 0), for i in
 * [0, bytes_len); every other bit of `out` keeps its value.
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_INPUT, _NULL_OUTPUT,
 * _LENGTH_TOO_LARGE, _OVERFLOW, _OUTPUT_TOO_SHORT
 * (out_len < ceil((bit_offset + bytes_len) / 8)). */
int bitbytes_pack(const uint8_t *bytes, size_t bytes_len,
                  uint8_t *out, size_t out_len, size_t bit_offset);

/* ---- Selection vectors: row indices and counts ------------------------
 * The rows a predicate selects as ascending uint32_t indices (for a gather
 * or `take` loop, DuckDB's SelectionVector, ...), and their count. A row is
 * selected exactly when bitbytes_unpack would set its byte to 1. The count
 * goes to `*count`, which must not be NULL, and is written only on success:
 * on an error neither `out` nor `*count` is written. `out` and `count`
 * overlap neither each other nor an input. */

/* out[k] = base + i for the k-th selected row i in [0, len), ascending, and
 * *count = the number of selected rows. Rows and validity as in
 * bitbytes_unpack (NULL `validity` with validity_len 0: every row valid).
 * Only out[0..*count) is written: out_cap needs to be at least the count,
 * not `len` (with out_cap < len the rows are counted first, one more read of
 * the bitmaps; bitbytes_count_selected gives the count beforehand). The
 * largest possible index, base + len - 1, must fit in uint32_t.
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_VALUES, _NULL_VALIDITY,
 * _NULL_OUTPUT (out NULL with out_cap > 0), _NULL_ARGUMENT (count NULL),
 * _LENGTH_TOO_LARGE, _OVERFLOW, _VALUES_TOO_SHORT, _VALIDITY_TOO_SHORT,
 * _INDEX_OVERFLOW (base + len - 1 > UINT32_MAX), _OUTPUT_TOO_SHORT
 * (out_cap < the number of selected rows). */
int bitbytes_unpack_indices(const uint8_t *values, size_t values_len,
                            const uint8_t *validity, size_t validity_len,
                            size_t bit_offset, size_t len, bool negate,
                            uint32_t base, uint32_t *out, size_t out_cap,
                            size_t *count);

/* As bitbytes_unpack_indices, with row i at bit values_offset + i of
 * `values` and bit validity_offset + i of `validity`. */
int bitbytes_unpack_indices_offsets(const uint8_t *values, size_t values_len,
                                    size_t values_offset,
                                    const uint8_t *validity,
                                    size_t validity_len,
                                    size_t validity_offset, size_t len,
                                    bool negate, uint32_t base, uint32_t *out,
                                    size_t out_cap, size_t *count);

/* out[k] = base + i for the k-th non-zero byte mask[i], ascending, and
 * *count = the number of non-zero bytes. Only out[0..*count) is written.
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_INPUT (mask NULL with
 * mask_len > 0), _NULL_OUTPUT, _NULL_ARGUMENT (count NULL),
 * _LENGTH_TOO_LARGE, _INDEX_OVERFLOW (base + mask_len - 1 > UINT32_MAX),
 * _OUTPUT_TOO_SHORT (out_cap < the number of non-zero bytes). */
int bitbytes_mask_to_indices(const uint8_t *mask, size_t mask_len,
                             uint32_t base, uint32_t *out, size_t out_cap,
                             size_t *count);

/* *count = the number of rows bitbytes_unpack_indices would write: valid
 * rows in [0, len) whose value bit differs from `negate` (a popcount; no
 * index limit applies).
 *
 * Errors (*count not written): BITBYTES_ERR_NULL_VALUES, _NULL_VALIDITY,
 * _NULL_ARGUMENT (count NULL), _LENGTH_TOO_LARGE, _OVERFLOW,
 * _VALUES_TOO_SHORT, _VALIDITY_TOO_SHORT. */
int bitbytes_count_selected(const uint8_t *values, size_t values_len,
                            const uint8_t *validity, size_t validity_len,
                            size_t bit_offset, size_t len, bool negate,
                            size_t *count);

/* As bitbytes_count_selected, each bitmap at its own bit offset: the count
 * bitbytes_unpack_indices_offsets would write. */
int bitbytes_count_selected_offsets(const uint8_t *values, size_t values_len,
                                    size_t values_offset,
                                    const uint8_t *validity,
                                    size_t validity_len,
                                    size_t validity_offset, size_t len,
                                    bool negate, size_t *count);

/* *count = the number of non-zero bytes of `mask`: what
 * bitbytes_mask_to_indices writes.
 *
 * Errors (*count not written): BITBYTES_ERR_NULL_INPUT, _NULL_ARGUMENT
 * (count NULL), _LENGTH_TOO_LARGE. */
int bitbytes_mask_count(const uint8_t *mask, size_t mask_len, size_t *count);

/* The kernel the selection-vector functions use on this CPU: "portable",
 * "avx2" or "avx512vbmi2" (the widest they have; sparse blocks take the
 * portable loop whatever it is). Static; never NULL; do not free. */
const char *bitbytes_indices_kernel_name(void);

/* ---- Arrow C Data Interface --------------------------------------------
 * Declared exactly as the Arrow specification does, under its guard, so that
 * this header and arrow/c/abi.h (or nanoarrow) can be included together in
 * either order. */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

/* bitbytes_unpack of an Arrow boolean array (schema format "b") exported
 * through the C Data Interface: out[i] = 1 when row i of the array (bit
 * array->offset + i of its buffers) is valid and its value differs from
 * `negate`, for i in [0, array->length). Buffer 0 is the validity bitmap
 * (NULL: no nulls; ignored when null_count is 0), buffer 1 the values.
 *
 * The array and schema are only read: no copy, no ownership taken, `release`
 * is never called (releasing them stays the caller's job). Both must be live
 * (not released) exports whose buffers hold ceil((offset + length) / 8) bytes,
 * as the C Data Interface promises.
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_ARGUMENT (array or schema NULL),
 * _ARROW_RELEASED, _ARROW_FORMAT, _ARROW_LAYOUT, _ARROW_OFFSET_LENGTH,
 * _ARROW_NULL_BUFFER, _NULL_OUTPUT, _OUTPUT_TOO_SHORT (out_len < length). */
int bitbytes_unpack_arrow(const struct ArrowArray *array,
                          const struct ArrowSchema *schema, bool negate,
                          uint8_t *out, size_t out_len);

/* ---- Predicates: Paimon JSON over Arrow record batches -----------------
 * (Not in the no_std build, `--no-default-features`: these need the
 * library's default feature `predicate`.)
 *
 * A predicate is parsed once from the JSON Paimon writes (Java's
 * JsonSerdeUtil: REST catalog row and partition filters) against the schema
 * of the batches it will test, then tested on any number of batches (one
 * byte per row, or row indices) and of statistics (one verdict per data
 * file / row group / page). Semantics: Apache Paimon Java's, as the Rust
 * crate's docs/json.md and docs/stats.md say.
 *
 * Ownership:
 *  - The caller KEEPS ownership of every ArrowArray and ArrowSchema it
 *    passes: no call releases one, moves one, writes to one, or keeps a
 *    pointer into one (or into its buffers) after it returns. Release them
 *    when you like after the call; the batch stays usable, e.g. to gather
 *    the selected rows.
 *  - A bitbytes_predicate is owned by the caller from a successful
 *    bitbytes_predicate_parse until bitbytes_predicate_free. It is
 *    immutable: one handle may be used by many threads at once.
 *  - The string of bitbytes_predicate_to_json is the caller's to read, and
 *    to free with bitbytes_string_free (not free()). Do not write to it:
 *    the free finds the string's size from its NUL.
 *
 * What the caller promises (the C Data Interface carries no buffer sizes,
 * so the library cannot check this; breaking it is undefined behaviour, as
 * with memcpy): every struct is a live export that follows the Arrow C Data
 * Interface specification, i.e. each non-NULL pointer points to what the
 * specification says (format and name strings NUL-terminated, metadata in
 * its binary encoding, `buffers` holding n_buffers pointers, `children`
 * holding n_children pointers) and each buffer holds at least the bytes
 * that `offset + length` and the type require (for string / binary arrays:
 * offset + length + 1 offsets, and as many data bytes as the last of them
 * says; for views, the sizes in the variadic-sizes buffer); buffers are
 * aligned for their element type (offsets to 4 or 8 bytes); nothing writes
 * them during the call. Output pointers (uint32_t *, size_t *,
 * bitbytes_predicate **) are aligned for their type, as C requires of any
 * such pointer.
 * Everything else is checked, and a violation is an error code, never a
 * crash: NULL pointers, released structs, n_buffers / n_children /
 * dictionary not matching the type, negative offset / length / sizes,
 * offsets out of order or past the data, invalid UTF-8, dictionary keys out
 * of range, children too short, a null_count contradicting the validity
 * bitmap (every column the predicate reads is validated in full on every
 * call; the columns it does not read are not imported, and of their
 * schemas only the release pointer and the name are read, while looking
 * for the read columns by name). A predicate whose leaves are all
 * comparisons, [NOT] BETWEEN, [NOT] IN or IS [NOT] NULL over integer,
 * float, date or timestamp columns, or =, <>, [NOT_]STARTS_WITH, [NOT_]ENDS_WITH,
 * [NOT_]CONTAINS or IS [NOT] NULL over Utf8 / LargeUtf8 columns (under
 * AND / OR), reads those columns' buffers in place after the same checks;
 * any other leaf makes the call build Arrow arrays over the caller's
 * buffers first (the answer is the same either way).
 *
 * Errors: a negative BITBYTES_ERR_* code; nothing is written to any output
 * (out, *out, *count); bitbytes_last_error() then returns a message for this
 * thread that names the problem (the argument, field, buffer or JSON path).
 * Two exceptions, both after every check passed: BITBYTES_ERR_PANIC (a bug),
 * and BITBYTES_ERR_PREDICATE from bitbytes_predicate_test, where the mask
 * may be partly written (evaluation stopped at a value Paimon Java fails on
 * too, e.g. a CAST of 'abc' to INT); the indices and stats calls write
 * nothing then either.
 *
 * Example (a batch of two columns, exported e.g. by Arrow C++'s
 * arrow::ExportRecordBatch):
 *
 *     const char *json = "{\"kind\":\"LEAF\",\"transform\":{\"name\":\"FIELD_REF\","
 *         "\"fieldRef\":{\"index\":0,\"name\":\"x\",\"type\":\"INT\"}},"
 *         "\"function\":\"GREATER_THAN\",\"literals\":[5]}";
 *     bitbytes_predicate *p = NULL;
 *     if (bitbytes_predicate_parse(json, strlen(json), &schema, &p) != BITBYTES_OK)
 *       fprintf(stderr, "%s\n", bitbytes_last_error());
 *     uint8_t *mask = malloc(batch.length);
 *     int rc = bitbytes_predicate_test(p, &batch, &schema, mask, batch.length);
 *     ...
 *     bitbytes_predicate_free(p);
 *     schema.release(&schema); batch.release(&batch);   // still yours
 */

/* A parsed predicate: opaque, immutable, thread-safe to share. */
typedef struct bitbytes_predicate bitbytes_predicate;

/* Parses `json_len` bytes of Paimon predicate JSON (UTF-8; need not be
 * NUL-terminated) against `schema`, a struct schema ("+s") whose children
 * are the columns of the batches to test (fields are found by name; the
 * JSON's field index is not trusted). On success *out is a new predicate.
 *
 * Errors (*out not written): BITBYTES_ERR_NULL_ARGUMENT (json, schema or
 * out NULL), _LENGTH_TOO_LARGE, _ARROW_RELEASED, _ARROW_STRUCTURE (not a
 * struct schema, bad format strings), _JSON (malformed JSON, invalid UTF-8,
 * or not a valid predicate over the schema). */
int bitbytes_predicate_parse(const char *json, size_t json_len,
                             const struct ArrowSchema *schema,
                             bitbytes_predicate **out);

/* Frees a predicate. NULL is fine (does nothing). */
void bitbytes_predicate_free(bitbytes_predicate *p);

/* The predicate as Paimon Java writes it (compact JSON, byte for byte as
 * Java's JsonSerdeUtil, field indexes those of the parse schema): *out a
 * NUL-terminated string of *out_len bytes (the NUL not counted), to free
 * with bitbytes_string_free.
 *
 * Errors (*out, *out_len not written): BITBYTES_ERR_NULL_ARGUMENT (p, out or
 * out_len NULL), _PREDICATE (a column type Paimon has no type for). */
int bitbytes_predicate_to_json(const bitbytes_predicate *p, char **out,
                               size_t *out_len);

/* Frees a string of bitbytes_predicate_to_json. NULL is fine. */
void bitbytes_string_free(char *s);

/* Tests every row of `batch`, a struct array ("+s", a record batch: one child
 * per column, no null rows of its own; its offset applies to every child)
 * described by `schema`: out[i] = 1 when row i is selected, else 0, for i in
 * [0, batch->length). Only out[0..batch->length) is written. A null row is
 * 0 for every function but IS_NULL (and TRUE), as in Paimon.
 *
 * The schema must match the predicate: each field the predicate reads must
 * be in `schema` (by name) with the type it had in the parse schema, or a
 * dictionary of that type (or, for a dictionary field, its value type).
 * Columns it does not read may be anything and are not looked at.
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_ARGUMENT (p, batch or schema
 * NULL), _NULL_OUTPUT (out NULL with out_len > 0), _ARROW_RELEASED,
 * _ARROW_OFFSET_LENGTH, _ARROW_STRUCTURE, _ARROW_DATA, _SCHEMA_MISMATCH,
 * _OUTPUT_TOO_SHORT (out_len < batch->length), _PREDICATE. */
int bitbytes_predicate_test(const bitbytes_predicate *p,
                            const struct ArrowArray *batch,
                            const struct ArrowSchema *schema, uint8_t *out,
                            size_t out_len);

/* The selected rows of `batch` (as in bitbytes_predicate_test) as ascending
 * indices: out[k] = the k-th selected row, *count = how many. Only
 * out[0..*count) is written; out_len needs to be at least the count (the
 * batch's length always suffices).
 *
 * Errors (neither out nor *count written): those of
 * bitbytes_predicate_test, and BITBYTES_ERR_NULL_ARGUMENT (count NULL),
 * _INDEX_OVERFLOW (batch->length - 1 > UINT32_MAX), _OUTPUT_TOO_SHORT
 * (out_len < the number of selected rows). */
int bitbytes_predicate_test_indices(const bitbytes_predicate *p,
                                    const struct ArrowArray *batch,
                                    const struct ArrowSchema *schema,
                                    uint32_t *out, size_t out_len,
                                    size_t *count);

/* The predicate's verdict on statistics of `stats->length` containers (data
 * files, row groups, pages): out[i] = 0 (no row of container i can match:
 * skip it), 1 (some may: read and filter) or 2 (every row matches: read
 * without a filter). Both 0 and 2 are sound. Only out[0..stats->length) is
 * written.
 *
 * Layout of `stats` (a struct array, one row per container):
 *  - child "row_count": uint64 ("L"), the container's row count (null:
 *    unknown);
 *  - for each field F of the parse schema that has statistics, a struct
 *    child named F ("+s") with the children
 *      "min", "max": F's type (its value type for a dictionary field; null:
 *                    unknown),
 *      "null_count": uint64, optional (null or absent: unknown),
 *      "nan_count":  uint64, optional (read with nan_excluded only);
 *    and in F's field metadata the optional flags (value "true" or "false"):
 *      "truncated":    min / max are bounds, not values (Paimon's
 *                      truncate(16) strings, Parquet's inexact statistics),
 *      "nan_excluded": float min / max leave NaN out (Parquet, ORC); without
 *                      it NaN is the largest float (Paimon's own stats).
 *    A null entry of F's struct makes all of F's statistics unknown for that
 *    container; the stats struct itself must have no null rows.
 *  Children come in any order; a field the predicate reads that has no
 *  child is unknown (verdict 1 for its leaves). Any other child, a field not
 *  in the parse schema, a missing "row_count", "min" or "max", or a wrong
 *  type is BITBYTES_ERR_STATS_LAYOUT.
 *
 *  Example: two files of a table (x INT, s STRING), x in [0, 9] and
 *  [10, 19], s unknown in file 1:
 *      format "+s", children:
 *        "row_count"  "L"   [100, 50]
 *        "x"          "+s"  metadata {}      children:
 *             "min" "i" [0, 10]   "max" "i" [9, 19]   "null_count" "L" [0, 3]
 *        "s"          "+s"  metadata {"truncated": "true"}   children:
 *             "min" "u" ["apple", null]   "max" "u" ["pear", null]
 *  x > 12 gives {0, 1}; x < 20 gives {2, 1} (file 1 has nulls).
 *
 * Errors (nothing written): BITBYTES_ERR_NULL_ARGUMENT (p, stats or
 * stats_schema NULL), _NULL_OUTPUT, _ARROW_RELEASED, _ARROW_OFFSET_LENGTH,
 * _ARROW_STRUCTURE, _ARROW_DATA, _STATS_LAYOUT, _OUTPUT_TOO_SHORT
 * (out_len < stats->length), _PREDICATE. */
int bitbytes_predicate_test_stats(const bitbytes_predicate *p,
                                  const struct ArrowArray *stats,
                                  const struct ArrowSchema *stats_schema,
                                  uint8_t *out, size_t out_len);

/* This thread's message for its last failed bitbytes call (any function of
 * this header): the code's message and, for the predicate functions, the
 * details (which argument, field, buffer or JSON path). "" before any
 * failure. Successful calls leave it as it was. Valid until this thread's
 * next failing bitbytes call; do not free. Never NULL. */
const char *bitbytes_last_error(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* BITBYTES_H */
