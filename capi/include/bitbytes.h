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
 *     cc app.c -I capi/include path/to/libbitbytes_capi.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
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

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* BITBYTES_H */
