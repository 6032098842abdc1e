/*
 * The C ABI tested from C: built by capi/ci.sh with
 *     cc -std=c11 -Wall -Wextra -Werror -pedantic -I capi/include test_capi.c libbitbytes_capi.a ...
 *
 * Every fast path against a row-by-row loop written here in C (random bitmaps,
 * every bit offset 0..64, many lengths and tails, with and without validity,
 * both negate values), the selection vectors (indices and counts) also at five
 * densities and bases up to the last that fits; every error code and its message, with the output
 * checked untouched; a hand-built ArrowArray with an offset and a NULL
 * validity buffer. Exit status 0 when everything passed.
 */
#include "bitbytes.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout the Rust side declares (and checks in capi/src/arrow.rs): five
 * int64_t, then pointers; this compiler must agree. */
#define PTR sizeof(void *)
_Static_assert(offsetof(struct ArrowArray, buffers) == 40, "ArrowArray layout");
_Static_assert(offsetof(struct ArrowArray, release) == 40 + 3 * PTR,
               "ArrowArray layout");
_Static_assert(sizeof(struct ArrowArray) == (40 + 5 * PTR + 7) / 8 * 8,
               "ArrowArray size");
_Static_assert(offsetof(struct ArrowSchema, flags) == (3 * PTR + 7) / 8 * 8,
               "ArrowSchema layout");
_Static_assert(offsetof(struct ArrowSchema, release) ==
                   (3 * PTR + 7) / 8 * 8 + 16 + 2 * PTR,
               "ArrowSchema layout");

static int failures;
static int checks;

#define CHECK(cond, ...)                                              \
  do {                                                                \
    checks++;                                                         \
    if (!(cond)) {                                                    \
      failures++;                                                     \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, \
              #cond);                                                 \
      fprintf(stderr, __VA_ARGS__);                                   \
      fputc('\n', stderr);                                            \
      if (failures > 20) exit(1);                                     \
    }                                                                 \
  } while (0)

/* A status and its message, for failure output. */
#define CHECK_RC(rc, want)                                                 \
  CHECK((rc) == (want), "got %d (%s), want %d (%s)", (rc),                 \
        bitbytes_strerror(rc), (want), bitbytes_strerror(want))

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_u64(void) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

static void fill_random(uint8_t *buf, size_t n) {
  for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)next_u64();
}

/* Exactly n bytes (one when n is 0, as malloc(0) may be NULL), so that
 * valgrind reports a read past them. */
static uint8_t *alloc_bytes(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

static int get_bit(const uint8_t *bits, size_t i) {
  return (bits[i / 8] >> (i % 8)) & 1;
}

/* The oracle: one row at a time, as the contract reads. */
static void naive_unpack(const uint8_t *values, size_t values_offset,
                         const uint8_t *validity, size_t validity_offset,
                         size_t len, bool negate, uint8_t *out) {
  for (size_t i = 0; i < len; i++) {
    int valid = validity == NULL || get_bit(validity, validity_offset + i);
    int value = get_bit(values, values_offset + i);
    out[i] = (uint8_t)(valid && value != (int)negate);
  }
}

static void naive_pack(const uint8_t *bytes, size_t n, uint8_t *out,
                       size_t bit_offset) {
  for (size_t i = 0; i < n; i++) {
    size_t pos = bit_offset + i;
    uint8_t mask = (uint8_t)(1u << (pos % 8));
    if (bytes[i])
      out[pos / 8] |= mask;
    else
      out[pos / 8] &= (uint8_t)~mask;
  }
}

static const size_t LENS[] = {0,    1,    2,    3,    7,    8,    9,    15,
                              16,   17,   31,   32,   33,   63,   64,   65,
                              100,  127,  128,  129,  191,  192,  193,  255,
                              256,  257,  511,  512,  513,  1000, 2047, 2048,
                              2049, 2111, 2112, 2113, 4095, 4096, 4097, 9999};
#define N_LENS (sizeof LENS / sizeof LENS[0])
#define MAX_ROWS 10000
#define PAD 16

static void test_unpack_against_loop(void) {
  for (size_t off = 0; off < 64; off++) {
    for (size_t li = 0; li < N_LENS; li++) {
      size_t len = LENS[li];
      size_t need = (off + len + 7) / 8;
      /* Exactly `need` bytes each: a read past them is the library's bug. */
      uint8_t *values = alloc_bytes(need);
      uint8_t *validity = alloc_bytes(need);
      uint8_t *want = alloc_bytes(len + PAD);
      uint8_t *got = alloc_bytes(len + PAD);
      fill_random(values, need);
      fill_random(validity, need);
      for (int negate = 0; negate < 2; negate++) {
        for (int with_validity = 0; with_validity < 2; with_validity++) {
          const uint8_t *valid = with_validity ? validity : NULL;
          memset(want, 0xAA, len + PAD);
          memset(got, 0xAA, len + PAD);
          naive_unpack(values, off, valid, off, len, negate, want);
          int rc = bitbytes_unpack(values, need, valid, with_validity ? need : 0,
                                   off, len, negate, got, len + PAD);
          CHECK_RC(rc, BITBYTES_OK);
          CHECK(memcmp(got, want, len + PAD) == 0,
                "unpack off %zu len %zu negate %d validity %d", off, len,
                negate, with_validity);
        }
      }
      /* Validity at its own offset. */
      if (len > 0) {
        size_t voff = (off * 5 + 3) % 64;
        size_t vneed = (voff + len + 7) / 8;
        uint8_t *vbits = alloc_bytes(vneed);
        fill_random(vbits, vneed);
        memset(want, 0xAA, len + PAD);
        memset(got, 0xAA, len + PAD);
        naive_unpack(values, off, vbits, voff, len, true, want);
        int rc = bitbytes_unpack_offsets(values, need, off, vbits, vneed, voff,
                                         len, true, got, len);
        CHECK_RC(rc, BITBYTES_OK);
        CHECK(memcmp(got, want, len + PAD) == 0,
              "unpack_offsets off %zu voff %zu len %zu", off, voff, len);
        free(vbits);
      }
      free(values);
      free(validity);
      free(want);
      free(got);
    }
  }
}

static void test_pack_against_loop(void) {
  uint8_t *bytes = alloc_bytes(MAX_ROWS);
  for (size_t i = 0; i < MAX_ROWS; i++) {
    uint64_t r = next_u64();
    bytes[i] = r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : (uint8_t)(r >> 8 | 1);
  }
  for (size_t off = 0; off < 64; off++) {
    for (size_t li = 0; li < N_LENS; li++) {
      size_t len = LENS[li];
      size_t need = (off + len + 7) / 8;
      uint8_t *want = alloc_bytes(need);
      uint8_t *got = alloc_bytes(need);
      fill_random(want, need);
      memcpy(got, want, need);
      naive_pack(bytes, len, want, off);
      int rc = bitbytes_pack(bytes, len, got, need, off);
      CHECK_RC(rc, BITBYTES_OK);
      CHECK(memcmp(got, want, need) == 0, "pack off %zu len %zu", off, len);
      /* And back: unpack gives the 0/1 bytes. */
      uint8_t *back = alloc_bytes(len);
      rc = bitbytes_unpack(got, need, NULL, 0, off, len, false, back, len);
      CHECK_RC(rc, BITBYTES_OK);
      for (size_t i = 0; i < len; i++)
        CHECK(back[i] == (bytes[i] != 0), "round trip off %zu row %zu", off, i);
      free(back);
      free(want);
      free(got);
    }
  }
  free(bytes);
}

/* Every error: its code, and the output left as it was. */
static void test_errors_write_nothing(void) {
  uint8_t values[4] = {0xff, 0x0f, 0xf0, 0xaa};
  uint8_t validity[4] = {0xff, 0xff, 0xff, 0xff};
  uint8_t out[40];
  uint8_t keep[40];
  memset(out, 0x5a, sizeof out);
  memcpy(keep, out, sizeof out);
#define UNCHANGED() CHECK(memcmp(out, keep, sizeof out) == 0, "output written")

  /* NULL pointers with a length: their codes. */
  CHECK_RC(bitbytes_unpack(NULL, 4, NULL, 0, 0, 8, false, out, 40),
           BITBYTES_ERR_NULL_VALUES);
  CHECK_RC(bitbytes_unpack(values, 4, NULL, 4, 0, 8, false, out, 40),
           BITBYTES_ERR_NULL_VALIDITY);
  CHECK_RC(bitbytes_unpack(values, 4, NULL, 0, 0, 8, false, NULL, 8),
           BITBYTES_ERR_NULL_OUTPUT);
  CHECK_RC(bitbytes_pack(NULL, 3, out, 40, 0), BITBYTES_ERR_NULL_INPUT);
  CHECK_RC(bitbytes_pack(values, 4, NULL, 1, 0), BITBYTES_ERR_NULL_OUTPUT);
  CHECK_RC(bitbytes_unpack_arrow(NULL, NULL, false, out, 40),
           BITBYTES_ERR_NULL_ARGUMENT);
  /* A length no buffer can have. */
  CHECK_RC(bitbytes_unpack(values, SIZE_MAX, NULL, 0, 0, 8, false, out, 40),
           BITBYTES_ERR_LENGTH_TOO_LARGE);
  /* NULL with length 0 is an empty buffer: then the lengths decide. */
  CHECK_RC(bitbytes_unpack(NULL, 0, NULL, 0, 0, 0, false, NULL, 0), BITBYTES_OK);
  CHECK_RC(bitbytes_unpack(NULL, 0, NULL, 0, 0, 1, false, out, 40),
           BITBYTES_ERR_VALUES_TOO_SHORT);
  CHECK_RC(bitbytes_unpack(values, 4, NULL, 0, 0, 8, false, NULL, 0),
           BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_pack(NULL, 0, NULL, 0, 0), BITBYTES_OK);
  CHECK_RC(bitbytes_pack(NULL, 0, NULL, 0, 9), BITBYTES_ERR_OUTPUT_TOO_SHORT);
  /* Short buffers and overflow. */
  CHECK_RC(bitbytes_unpack(values, 4, NULL, 0, 3, 30, false, out, 40),
           BITBYTES_ERR_VALUES_TOO_SHORT);
  CHECK_RC(bitbytes_unpack(values, 4, validity, 3, 0, 30, false, out, 40),
           BITBYTES_ERR_VALIDITY_TOO_SHORT);
  CHECK_RC(bitbytes_unpack(values, 4, NULL, 0, 0, 30, false, out, 29),
           BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_unpack(values, 4, NULL, 0, SIZE_MAX, 2, false, out, 40),
           BITBYTES_ERR_OVERFLOW);
  CHECK_RC(bitbytes_unpack_offsets(values, 4, 0, validity, 4, SIZE_MAX - 1, 8,
                                   false, out, 40),
           BITBYTES_ERR_OVERFLOW);
  CHECK_RC(bitbytes_pack(values, 4, out, 1, 5), BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_pack(values, 4, out, 40, SIZE_MAX - 2),
           BITBYTES_ERR_OVERFLOW);
  UNCHANGED();
}

/* Every code has its own non-empty message that names the problem. */
static void test_messages(void) {
  static const struct {
    int code;
    const char *phrase;
  } table[] = {
      {BITBYTES_OK, "ok"},
      {BITBYTES_ERR_OUTPUT_TOO_SHORT, "output too short"},
      {BITBYTES_ERR_VALUES_TOO_SHORT, "values bitmap too short"},
      {BITBYTES_ERR_VALIDITY_TOO_SHORT, "validity bitmap too short"},
      {BITBYTES_ERR_OVERFLOW, "overflows"},
      {BITBYTES_ERR_CAPACITY_EXCEEDED, "writer full"},
      {BITBYTES_ERR_INDEX_OVERFLOW, "does not fit in uint32_t"},
      {BITBYTES_ERR_OTHER, "no code for"},
      {BITBYTES_ERR_NULL_VALUES, "values is NULL"},
      {BITBYTES_ERR_NULL_VALIDITY, "validity is NULL"},
      {BITBYTES_ERR_NULL_INPUT, "input bytes pointer"},
      {BITBYTES_ERR_NULL_OUTPUT, "out is NULL"},
      {BITBYTES_ERR_NULL_ARGUMENT, "required pointer argument is NULL"},
      {BITBYTES_ERR_LENGTH_TOO_LARGE, "PTRDIFF_MAX"},
      {BITBYTES_ERR_ARROW_RELEASED, "released"},
      {BITBYTES_ERR_ARROW_FORMAT, "format is not \"b\""},
      {BITBYTES_ERR_ARROW_LAYOUT, "n_buffers is not 2"},
      {BITBYTES_ERR_ARROW_NULL_BUFFER, "buffer is NULL"},
      {BITBYTES_ERR_ARROW_OFFSET_LENGTH, "offset or length is negative"},
      {BITBYTES_ERR_ARROW_STRUCTURE, "structure its type needs"},
      {BITBYTES_ERR_ARROW_DATA, "inconsistent Arrow data"},
      {BITBYTES_ERR_STATS_LAYOUT, "statistics struct"},
      {BITBYTES_ERR_JSON, "predicate JSON"},
      {BITBYTES_ERR_SCHEMA_MISMATCH, "does not match the predicate"},
      {BITBYTES_ERR_PREDICATE, "could not be evaluated"},
      {BITBYTES_ERR_PANIC, "panic"},
  };
  size_t n = sizeof table / sizeof table[0];
  for (size_t i = 0; i < n; i++) {
    const char *msg = bitbytes_strerror(table[i].code);
    CHECK(msg != NULL && strstr(msg, table[i].phrase) != NULL,
          "code %d: message \"%s\" lacks \"%s\"", table[i].code,
          msg ? msg : "(null)", table[i].phrase);
    for (size_t j = 0; j < i; j++) {
      CHECK(table[i].code != table[j].code, "duplicate code %d", table[i].code);
      CHECK(strcmp(msg, bitbytes_strerror(table[j].code)) != 0,
            "codes %d and %d share a message", table[i].code, table[j].code);
    }
  }
  CHECK(strstr(bitbytes_strerror(1), "unknown") != NULL, "code 1");
  CHECK(strstr(bitbytes_strerror(-1000), "unknown") != NULL, "code -1000");
}

/* ---- Selection vectors ------------------------------------------------- */

/* The oracle: base + i for every row unpack would set to 1. */
static size_t naive_indices(const uint8_t *values, size_t values_offset,
                            const uint8_t *validity, size_t validity_offset,
                            size_t len, bool negate, uint32_t base,
                            uint32_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    int valid = validity == NULL || get_bit(validity, validity_offset + i);
    int value = get_bit(values, values_offset + i);
    if (valid && value != (int)negate) out[n++] = base + (uint32_t)i;
  }
  return n;
}

static size_t naive_mask_indices(const uint8_t *mask, size_t len, uint32_t base,
                                 uint32_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (mask[i] != 0) out[n++] = base + (uint32_t)i;
  return n;
}

/* Random bits at one of five densities (sparse blocks take another path
 * than dense ones): ~50%, ~12.5%, ~87.5%, none, all. */
static void fill_density(uint8_t *buf, size_t n, int density) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = next_u64();
    switch (density) {
      case 0: buf[i] = (uint8_t)r; break;
      case 1: buf[i] = (uint8_t)(r & (r >> 8) & (r >> 16)); break;
      case 2: buf[i] = (uint8_t)(r | (r >> 8) | (r >> 16)); break;
      case 3: buf[i] = 0; break;
      default: buf[i] = 0xff; break;
    }
  }
}

#define GUARD_IDX 0xA5A5A5A5u
#define NO_COUNT ((size_t)0xC0FFEE)

static void fill_u32(uint32_t *p, size_t n, uint32_t v) {
  for (size_t i = 0; i < n; i++) p[i] = v;
}

static int all_u32(const uint32_t *p, size_t n, uint32_t v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v) return 0;
  return 1;
}

static uint32_t *alloc_u32(size_t n) {
  uint32_t *p = malloc((n ? n : 1) * sizeof *p);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

/* One bitmap call of unpack_indices (both offsets equal: the plain function;
 * else the _offsets one) against `want[0..n)`: out_cap == n exactly with
 * guard slots after it untouched, out_cap >= len (no counting pass), and
 * out_cap == n - 1 (an error, nothing written). */
static void check_indices_call(const uint8_t *values, size_t need, size_t off,
                               const uint8_t *valid, size_t vneed, size_t voff,
                               size_t len, bool negate, uint32_t base,
                               const uint32_t *want, size_t n, uint32_t *got) {
  size_t caps[3] = {n, len + PAD, n ? n - 1 : 0};
  for (int c = 0; c < (n ? 3 : 2); c++) {
    size_t count = NO_COUNT;
    fill_u32(got, len + 2 * PAD, GUARD_IDX);
    int rc = off == voff
                 ? bitbytes_unpack_indices(values, need, valid, vneed, off, len,
                                           negate, base, got, caps[c], &count)
                 : bitbytes_unpack_indices_offsets(values, need, off, valid,
                                                   vneed, voff, len, negate,
                                                   base, got, caps[c], &count);
    if (c < 2) {
      CHECK_RC(rc, BITBYTES_OK);
      CHECK(count == n, "indices count %zu, want %zu (off %zu voff %zu len %zu)",
            count, n, off, voff, len);
      CHECK(memcmp(got, want, n * sizeof *got) == 0 &&
                all_u32(got + n, len + 2 * PAD - n, GUARD_IDX),
            "indices off %zu voff %zu len %zu negate %d base %u cap %zu", off,
            voff, len, negate, base, caps[c]);
    } else {
      CHECK_RC(rc, BITBYTES_ERR_OUTPUT_TOO_SHORT);
      CHECK(count == NO_COUNT && all_u32(got, len + 2 * PAD, GUARD_IDX),
            "short output written: off %zu len %zu", off, len);
    }
  }
  size_t count = NO_COUNT;
  int rc = off == voff ? bitbytes_count_selected(values, need, valid, vneed, off,
                                                 len, negate, &count)
                       : bitbytes_count_selected_offsets(values, need, off, valid,
                                                         vneed, voff, len,
                                                         negate, &count);
  CHECK_RC(rc, BITBYTES_OK);
  CHECK(count == n, "count_selected %zu, want %zu (off %zu voff %zu len %zu)",
        count, n, off, voff, len);
}

static void test_indices_against_loop(void) {
  uint32_t *want = alloc_u32(MAX_ROWS + 2 * PAD);
  uint32_t *got = alloc_u32(MAX_ROWS + 2 * PAD);
  for (size_t off = 0; off < 64; off++) {
    for (size_t li = 0; li < N_LENS; li++) {
      size_t len = LENS[li];
      size_t need = (off + len + 7) / 8;
      int density = (int)((off + li) % 5);
      uint8_t *values = alloc_bytes(need);
      uint8_t *validity = alloc_bytes(need);
      fill_density(values, need, density);
      fill_random(validity, need);
      /* The largest base at which base + len - 1 still fits. */
      uint32_t top = len ? (uint32_t)(UINT32_MAX - (len - 1)) : UINT32_MAX;
      const uint32_t bases[3] = {0, (uint32_t)(off * 1000 + 7), top};
      for (int negate = 0; negate < 2; negate++) {
        for (int with_validity = 0; with_validity < 2; with_validity++) {
          const uint8_t *valid = with_validity ? validity : NULL;
          size_t vneed = with_validity ? need : 0;
          for (int b = 0; b < 3; b++) {
            size_t n = naive_indices(values, off, valid, off, len, negate,
                                     bases[b], want);
            check_indices_call(values, need, off, valid, vneed, off, len,
                               negate, bases[b], want, n, got);
          }
          /* One past the top: the largest index does not fit; nothing
           * written, not even the count. */
          if (len >= 2) {
            size_t count = NO_COUNT;
            fill_u32(got, len + PAD, GUARD_IDX);
            int rc = bitbytes_unpack_indices(values, need, valid, vneed, off, len,
                                             negate, top + 1, got, len + PAD,
                                             &count);
            CHECK_RC(rc, BITBYTES_ERR_INDEX_OVERFLOW);
            CHECK(count == NO_COUNT && all_u32(got, len + PAD, GUARD_IDX),
                  "index overflow wrote: off %zu len %zu", off, len);
          }
        }
      }
      /* Validity at its own offset. */
      if (len > 0) {
        size_t voff = (off * 5 + 3) % 64;
        size_t vneed = (voff + len + 7) / 8;
        uint8_t *vbits = alloc_bytes(vneed);
        fill_random(vbits, vneed);
        size_t n = naive_indices(values, off, vbits, voff, len, true, 5, want);
        check_indices_call(values, need, off, vbits, vneed, voff, len, true, 5,
                           want, n, got);
        free(vbits);
      }
      free(values);
      free(validity);
    }
  }
  free(want);
  free(got);
}

static void test_mask_indices_against_loop(void) {
  uint32_t *want = alloc_u32(MAX_ROWS + 2 * PAD);
  uint32_t *got = alloc_u32(MAX_ROWS + 2 * PAD);
  /* Every start alignment 0..64 inside one exact-size buffer. */
  uint8_t *buf = alloc_bytes(MAX_ROWS + 64);
  for (size_t off = 0; off < 64; off++) {
    for (size_t li = 0; li < N_LENS; li++) {
      size_t len = LENS[li];
      uint8_t *mask = buf + off;
      int density = (int)((off + li) % 5);
      fill_density(mask, len, density);
      /* Non-zero bytes other than 1 count as selected too. */
      for (size_t i = 0; i < len; i++)
        if (mask[i] && next_u64() % 4 == 0) mask[i] = (uint8_t)(next_u64() | 1);
      uint32_t top = len ? (uint32_t)(UINT32_MAX - (len - 1)) : UINT32_MAX;
      const uint32_t bases[3] = {0, (uint32_t)(off * 977 + 1), top};
      for (int b = 0; b < 3; b++) {
        size_t n = naive_mask_indices(mask, len, bases[b], want);
        size_t caps[3] = {n, len + PAD, n ? n - 1 : 0};
        for (int c = 0; c < (n ? 3 : 2); c++) {
          size_t count = NO_COUNT;
          fill_u32(got, len + 2 * PAD, GUARD_IDX);
          int rc = bitbytes_mask_to_indices(mask, len, bases[b], got, caps[c],
                                            &count);
          if (c < 2) {
            CHECK_RC(rc, BITBYTES_OK);
            CHECK(count == n &&
                      memcmp(got, want, n * sizeof *got) == 0 &&
                      all_u32(got + n, len + 2 * PAD - n, GUARD_IDX),
                  "mask_to_indices off %zu len %zu base %u cap %zu", off, len,
                  bases[b], caps[c]);
          } else {
            CHECK_RC(rc, BITBYTES_ERR_OUTPUT_TOO_SHORT);
            CHECK(count == NO_COUNT && all_u32(got, len + 2 * PAD, GUARD_IDX),
                  "short output written: mask off %zu len %zu", off, len);
          }
        }
        size_t count = NO_COUNT;
        CHECK_RC(bitbytes_mask_count(mask, len, &count), BITBYTES_OK);
        CHECK(count == n, "mask_count %zu, want %zu (len %zu)", count, n, len);
      }
      if (len >= 2) {
        size_t count = NO_COUNT;
        fill_u32(got, len + PAD, GUARD_IDX);
        CHECK_RC(bitbytes_mask_to_indices(mask, len, top + 1, got, len + PAD,
                                          &count),
                 BITBYTES_ERR_INDEX_OVERFLOW);
        CHECK(count == NO_COUNT && all_u32(got, len + PAD, GUARD_IDX),
              "mask index overflow wrote: len %zu", len);
      }
    }
  }
  free(buf);
  free(want);
  free(got);
}

/* The NULL rules and the other codes of the selection-vector functions. */
static void test_indices_errors(void) {
  const uint8_t values[2] = {0xCA, 0x01}; /* rows 1, 3, 6, 7, 8 */
  const uint8_t validity[2] = {0x7f, 0x01}; /* row 7 null */
  const uint8_t mask[4] = {0, 1, 9, 0};
  uint32_t out[16];
  size_t count = NO_COUNT;
  fill_u32(out, 16, GUARD_IDX);
#define NOTHING_WRITTEN()                                              \
  CHECK(count == NO_COUNT && all_u32(out, 16, GUARD_IDX), "written")

  CHECK_RC(bitbytes_unpack_indices(NULL, 2, NULL, 0, 0, 9, false, 0, out, 16,
                                   &count),
           BITBYTES_ERR_NULL_VALUES);
  CHECK_RC(bitbytes_unpack_indices(values, 2, NULL, 2, 0, 9, false, 0, out, 16,
                                   &count),
           BITBYTES_ERR_NULL_VALIDITY);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false, 0, NULL,
                                   16, &count),
           BITBYTES_ERR_NULL_OUTPUT);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false, 0, out,
                                   16, NULL),
           BITBYTES_ERR_NULL_ARGUMENT);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false, 0, out,
                                   SIZE_MAX, &count),
           BITBYTES_ERR_LENGTH_TOO_LARGE);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, SIZE_MAX, 2, false,
                                   0, out, 16, &count),
           BITBYTES_ERR_OVERFLOW);
  CHECK_RC(bitbytes_unpack_indices(values, 1, validity, 2, 0, 9, false, 0, out,
                                   16, &count),
           BITBYTES_ERR_VALUES_TOO_SHORT);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 1, 0, 9, false, 0, out,
                                   16, &count),
           BITBYTES_ERR_VALIDITY_TOO_SHORT);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false,
                                   UINT32_MAX - 7, out, 16, &count),
           BITBYTES_ERR_INDEX_OVERFLOW);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false, 0, out,
                                   3, &count),
           BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false, 0, NULL,
                                   0, &count),
           BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_unpack_indices_offsets(values, 2, 0, validity, 2, 8, 9,
                                           false, 0, out, 16, &count),
           BITBYTES_ERR_VALIDITY_TOO_SHORT);
  CHECK_RC(bitbytes_mask_to_indices(NULL, 4, 0, out, 16, &count),
           BITBYTES_ERR_NULL_INPUT);
  CHECK_RC(bitbytes_mask_to_indices(mask, 4, 0, NULL, 16, &count),
           BITBYTES_ERR_NULL_OUTPUT);
  CHECK_RC(bitbytes_mask_to_indices(mask, 4, 0, out, 16, NULL),
           BITBYTES_ERR_NULL_ARGUMENT);
  CHECK_RC(bitbytes_mask_to_indices(mask, 4, UINT32_MAX - 2, out, 16, &count),
           BITBYTES_ERR_INDEX_OVERFLOW);
  CHECK_RC(bitbytes_mask_to_indices(mask, 4, 0, out, 1, &count),
           BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_count_selected(NULL, 2, NULL, 0, 0, 9, false, &count),
           BITBYTES_ERR_NULL_VALUES);
  CHECK_RC(bitbytes_count_selected(values, 2, NULL, 2, 0, 9, false, &count),
           BITBYTES_ERR_NULL_VALIDITY);
  CHECK_RC(bitbytes_count_selected(values, 2, validity, 2, 0, 9, false, NULL),
           BITBYTES_ERR_NULL_ARGUMENT);
  CHECK_RC(bitbytes_count_selected(values, 2, validity, 2, 1, 16, false, &count),
           BITBYTES_ERR_VALUES_TOO_SHORT);
  CHECK_RC(bitbytes_count_selected_offsets(values, 2, 0, validity, 2, SIZE_MAX,
                                           9, false, &count),
           BITBYTES_ERR_OVERFLOW);
  CHECK_RC(bitbytes_mask_count(NULL, 4, &count), BITBYTES_ERR_NULL_INPUT);
  CHECK_RC(bitbytes_mask_count(mask, 4, NULL), BITBYTES_ERR_NULL_ARGUMENT);
  NOTHING_WRITTEN();

  /* NULL with length 0 is empty; the last fitting base works. */
  CHECK_RC(bitbytes_unpack_indices(NULL, 0, NULL, 0, 0, 0, true, UINT32_MAX,
                                   NULL, 0, &count),
           BITBYTES_OK);
  CHECK(count == 0, "empty count %zu", count);
  count = NO_COUNT;
  CHECK_RC(bitbytes_mask_to_indices(NULL, 0, UINT32_MAX, NULL, 0, &count),
           BITBYTES_OK);
  CHECK(count == 0, "empty mask count %zu", count);
  CHECK_RC(bitbytes_mask_count(NULL, 0, &count), BITBYTES_OK);
  CHECK(count == 0, "empty mask_count %zu", count);
  CHECK_RC(bitbytes_unpack_indices(values, 2, validity, 2, 0, 9, false,
                                   UINT32_MAX - 8, out, 4, &count),
           BITBYTES_OK);
  CHECK(count == 4 && out[0] == UINT32_MAX - 7 && out[3] == UINT32_MAX &&
            out[4] == GUARD_IDX,
        "top base: count %zu", count);
#undef NOTHING_WRITTEN
}

static void test_version(void) {
  CHECK(strcmp(bitbytes_version(), BITBYTES_VERSION) == 0,
        "library %s, header %s", bitbytes_version(), BITBYTES_VERSION);
}

static void test_kernel_name(void) {
  const char *name = bitbytes_kernel_name();
  CHECK(name != NULL, "NULL kernel name");
  if (name == NULL) return;
  CHECK(strcmp(name, "portable") == 0 || strcmp(name, "sse2") == 0 ||
            strcmp(name, "avx2") == 0 || strcmp(name, "avx512bw") == 0,
        "kernel %s", name);
  printf("kernel: %s\n", name);
  const char *idx = bitbytes_indices_kernel_name();
  CHECK(idx != NULL, "NULL indices kernel name");
  if (idx == NULL) return;
  CHECK(strcmp(idx, "portable") == 0 || strcmp(idx, "avx2") == 0 ||
            strcmp(idx, "avx512vbmi2") == 0,
        "indices kernel %s", idx);
  printf("indices kernel: %s\n", idx);
}

/* ---- A hand-built Arrow array ---------------------------------------- */

static int schema_releases;
static int array_releases;

static void release_schema(struct ArrowSchema *s) {
  schema_releases++;
  s->release = NULL;
}

static void release_array(struct ArrowArray *a) {
  array_releases++;
  a->release = NULL;
}

static struct ArrowSchema boolean_schema(const char *format) {
  struct ArrowSchema s;
  memset(&s, 0, sizeof s);
  s.format = format;
  s.name = "selected";
  s.flags = ARROW_FLAG_NULLABLE;
  s.release = release_schema;
  return s;
}

static struct ArrowArray boolean_array(const void **buffers, int64_t offset,
                                       int64_t length, int64_t null_count) {
  struct ArrowArray a;
  memset(&a, 0, sizeof a);
  a.length = length;
  a.null_count = null_count;
  a.offset = offset;
  a.n_buffers = 2;
  a.buffers = buffers;
  a.release = release_array;
  return a;
}

static void test_arrow_by_hand(void) {
  enum { ROWS = 300 };
  uint8_t values[(ROWS + 7) / 8];
  uint8_t validity[(ROWS + 7) / 8];
  fill_random(values, sizeof values);
  fill_random(validity, sizeof validity);
  uint8_t want[ROWS + PAD];
  uint8_t got[ROWS + PAD];
  struct ArrowSchema schema = boolean_schema("b");

  /* An offset and a NULL validity buffer (no nulls), and with validity. */
  for (int64_t offset = 0; offset < 70; offset += 3) {
    int64_t length = ROWS - offset - (offset % 7);
    for (int negate = 0; negate < 2; negate++) {
      const void *no_nulls[2] = {NULL, values};
      struct ArrowArray a = boolean_array(no_nulls, offset, length, 0);
      memset(want, 0xAA, sizeof want);
      memset(got, 0xAA, sizeof got);
      naive_unpack(values, (size_t)offset, NULL, 0, (size_t)length, negate, want);
      CHECK_RC(bitbytes_unpack_arrow(&a, &schema, negate, got, (size_t)length),
               BITBYTES_OK);
      CHECK(memcmp(got, want, sizeof got) == 0, "arrow offset %lld negate %d",
            (long long)offset, negate);
      CHECK(a.release == release_array, "the array was touched");

      const void *with_nulls[2] = {validity, values};
      for (int64_t nulls = -1; nulls <= 1; nulls += 2) { /* unknown, or > 0 */
        a = boolean_array(with_nulls, offset, length, nulls);
        memset(want, 0xAA, sizeof want);
        memset(got, 0xAA, sizeof got);
        naive_unpack(values, (size_t)offset, validity, (size_t)offset,
                     (size_t)length, negate, want);
        CHECK_RC(bitbytes_unpack_arrow(&a, &schema, negate, got, sizeof got),
                 BITBYTES_OK);
        CHECK(memcmp(got, want, sizeof got) == 0,
              "arrow validity offset %lld negate %d", (long long)offset, negate);
      }
      /* null_count unknown (-1) and no validity buffer: no nulls. */
      a = boolean_array(no_nulls, offset, length, -1);
      memset(got, 0xAA, sizeof got);
      naive_unpack(values, (size_t)offset, NULL, 0, (size_t)length, negate, want);
      CHECK_RC(bitbytes_unpack_arrow(&a, &schema, negate, got, sizeof got),
               BITBYTES_OK);
      CHECK(memcmp(got, want, (size_t)length) == 0, "null_count -1, no validity");
      /* null_count 0: the validity buffer is ignored (Arrow C++'s rule). */
      a = boolean_array(with_nulls, offset, length, 0);
      memset(got, 0xAA, sizeof got);
      naive_unpack(values, (size_t)offset, NULL, 0, (size_t)length, negate, want);
      CHECK_RC(bitbytes_unpack_arrow(&a, &schema, negate, got, sizeof got),
               BITBYTES_OK);
      CHECK(memcmp(got, want, (size_t)length) == 0, "null_count 0");
    }
  }

  /* Bad arrays: each its code, nothing written. */
  uint8_t out[64];
  uint8_t keep[64];
  memset(out, 0x5a, sizeof out);
  memcpy(keep, out, sizeof out);
  const void *bufs[2] = {validity, values};
  const void *no_values[2] = {validity, NULL};
  const void *no_validity[2] = {NULL, values};
  struct ArrowArray a = boolean_array(bufs, 5, 40, 3);
  struct ArrowSchema int32 = boolean_schema("i");
  struct ArrowSchema two = boolean_schema("bb");
  CHECK_RC(bitbytes_unpack_arrow(&a, NULL, false, out, 64),
           BITBYTES_ERR_NULL_ARGUMENT);
  CHECK_RC(bitbytes_unpack_arrow(&a, &int32, false, out, 64),
           BITBYTES_ERR_ARROW_FORMAT);
  CHECK_RC(bitbytes_unpack_arrow(&a, &two, false, out, 64),
           BITBYTES_ERR_ARROW_FORMAT);
  struct ArrowSchema no_format = boolean_schema(NULL);
  CHECK_RC(bitbytes_unpack_arrow(&a, &no_format, false, out, 64),
           BITBYTES_ERR_ARROW_FORMAT);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 39),
           BITBYTES_ERR_OUTPUT_TOO_SHORT);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, NULL, 40),
           BITBYTES_ERR_NULL_OUTPUT);
  a.n_buffers = 3;
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_LAYOUT);
  a.n_buffers = 1;
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_LAYOUT);
  a = boolean_array(bufs, 5, 40, 3);
  a.n_children = 1;
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_LAYOUT);
  a = boolean_array(NULL, 5, 40, 3);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_NULL_BUFFER);
  a = boolean_array(no_values, 5, 40, 3);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_NULL_BUFFER);
  a = boolean_array(no_validity, 5, 40, 3);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_NULL_BUFFER);
  a = boolean_array(bufs, -1, 40, 3);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_OFFSET_LENGTH);
  a = boolean_array(bufs, 5, -40, 3);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_OFFSET_LENGTH);
  a = boolean_array(bufs, INT64_MAX, 1, 3);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_OFFSET_LENGTH);
  a = boolean_array(bufs, 5, 40, 3);
  a.release = NULL;
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_RELEASED);
  a = boolean_array(bufs, 5, 40, 3);
  schema.release = NULL;
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, out, 64),
           BITBYTES_ERR_ARROW_RELEASED);
  schema.release = release_schema;
  CHECK(memcmp(out, keep, sizeof out) == 0, "an error wrote the output");

  /* An empty array needs neither buffers nor an output. */
  const void *none[2] = {NULL, NULL};
  a = boolean_array(none, 12, 0, 0);
  CHECK_RC(bitbytes_unpack_arrow(&a, &schema, false, NULL, 0), BITBYTES_OK);

  /* Never released, never owned: the caller releases. */
  CHECK(array_releases == 0 && schema_releases == 0,
        "bitbytes called release (%d array, %d schema)", array_releases,
        schema_releases);
  a.release(&a);
  schema.release(&schema);
  CHECK(array_releases == 1 && schema_releases == 1, "release counts");
}

int main(void) {
  struct {
    const char *name;
    void (*run)(void);
  } tests[] = {
      {"unpack_against_loop", test_unpack_against_loop},
      {"pack_against_loop", test_pack_against_loop},
      {"errors_write_nothing", test_errors_write_nothing},
      {"indices_against_loop", test_indices_against_loop},
      {"mask_indices_against_loop", test_mask_indices_against_loop},
      {"indices_errors", test_indices_errors},
      {"messages", test_messages},
      {"kernel_name", test_kernel_name},
      {"version", test_version},
      {"arrow_by_hand", test_arrow_by_hand},
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
  printf("%d checks\n", checks);
  printf("capi: %d passed, %d failed\n", n - failed, failed);
  return failed ? 1 : 0;
}
