/*
 * bitbytes_unpack from C against the per-row loop a C engine would write,
 * side by side in one run, with memset of the same output as the store limit.
 *
 *     cargo build -p bitbytes-capi --release
 *     cc -std=c11 -O2 -I capi/include capi/bench/bench_unpack.c \
 *        target/release/libbitbytes_capi.a -lc -lm -lrt -lpthread -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc \
 *        -o target/capi/bench_unpack
 *     target/capi/bench_unpack            # --quick: fewer samples (CI)
 *
 * 64 Ki and 1 Mi rows, bit offsets 0 and 3, with validity, negate on. The
 * three ways are sampled in turn (naive, bitbytes, memset, naive, ...), each
 * sample repeating its call for at least 2 ms; each figure is the best
 * sample (on a shared machine the median moves with the neighbours' load,
 * the best much less), the median is printed beside it.
 * Grows/s = 10^9 rows (output bytes) per second.
 *
 * Then bitbytes_unpack_indices (row indices, base 0) against the two per-row
 * loops a C engine would write for a selection vector: with a branch
 * (`if (bit) out[n++] = i`) and branch-free (`out[n] = i; n += bit`), at
 * 64 Ki and 1 Mi rows, no validity, random values: 50% of the rows selected.
 * Grows/s = 10^9 input rows per second.
 */
#define _POSIX_C_SOURCE 199309L
#include "bitbytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The loop bitbytes replaces: test validity, read the bit, apply negate. */
static void naive_unpack(const uint8_t *values, const uint8_t *validity,
                         size_t offset, size_t len, bool negate, uint8_t *out) {
  for (size_t i = 0; i < len; i++) {
    size_t b = offset + i;
    int valid = (validity[b >> 3] >> (b & 7)) & 1;
    int value = (values[b >> 3] >> (b & 7)) & 1;
    out[i] = (uint8_t)(valid & (value ^ (int)negate));
  }
}

/* The selection-vector loops bitbytes_unpack_indices replaces. */
static size_t branchy_indices(const uint8_t *values, size_t len,
                              uint32_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if ((values[i >> 3] >> (i & 7)) & 1) out[n++] = (uint32_t)i;
  return n;
}

static size_t branchless_indices(const uint8_t *values, size_t len,
                                 uint32_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    out[n] = (uint32_t)i;
    n += (values[i >> 3] >> (i & 7)) & 1;
  }
  return n;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum { NAIVE, BITBYTES, MEMSET, N_WAYS };
static const char *const WAY_NAMES[N_WAYS] = {"naive", "bitbytes", "memset"};
/* The ways of the indices table, after the unpack ones. */
enum { IDX_BRANCHY = N_WAYS, IDX_BRANCHLESS, IDX_BITBYTES };

struct bench_case {
  const uint8_t *values;
  const uint8_t *validity;
  size_t bytes;
  size_t offset;
  size_t rows;
  uint8_t *out;
  uint32_t *idx; /* rows + 1 slots (the branch-free loop stores one more) */
};

static volatile uint8_t sink;

/* One call of `way`; returns 0, or the bitbytes status. */
static int run_once(int way, const struct bench_case *c) {
  int rc = BITBYTES_OK;
  switch (way) {
    case NAIVE:
      naive_unpack(c->values, c->validity, c->offset, c->rows, true, c->out);
      break;
    case BITBYTES:
      rc = bitbytes_unpack(c->values, c->bytes, c->validity, c->bytes, c->offset,
                           c->rows, true, c->out, c->rows);
      break;
    case MEMSET:
      memset(c->out, (int)(c->offset & 1), c->rows);
      break;
    default: {
      size_t n = 0;
      if (way == IDX_BRANCHY)
        n = branchy_indices(c->values, c->rows, c->idx);
      else if (way == IDX_BRANCHLESS)
        n = branchless_indices(c->values, c->rows, c->idx);
      else
        rc = bitbytes_unpack_indices(c->values, c->bytes, NULL, 0, 0, c->rows,
                                     false, 0, c->idx, c->rows + 1, &n);
      sink ^= (uint8_t)(c->idx[n / 2] ^ n);
      return rc;
    }
  }
  sink ^= c->out[c->rows / 2]; /* the stores are used */
  return rc;
}

/* Seconds per call: the call repeated for at least `min_s`. */
static double sample(int way, const struct bench_case *c, double min_s) {
  long iters = 0;
  double start = now_s(), elapsed;
  do {
    if (run_once(way, c) != BITBYTES_OK) {
      fprintf(stderr, "bitbytes call failed\n");
      exit(1);
    }
    iters++;
    elapsed = now_s() - start;
  } while (elapsed < min_s);
  return elapsed / (double)iters;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void print_cpu(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[256];
  char family[64] = "?", model[64] = "?", name[192] = "?";
  if (f == NULL) return;
  while (fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (colon == NULL) continue;
    char *v = colon + 2;
    v[strcspn(v, "\n")] = 0;
    if (strncmp(line, "cpu family", 10) == 0 && family[0] == '?')
      snprintf(family, sizeof family, "%s", v);
    else if (strncmp(line, "model name", 10) == 0 && name[0] == '?')
      snprintf(name, sizeof name, "%s", v);
    else if (strncmp(line, "model\t", 6) == 0 && model[0] == '?')
      snprintf(model, sizeof model, "%s", v);
  }
  fclose(f);
  printf("CPU: %s (family %s, model %s)\n", name, family, model);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int samples = quick ? 3 : 41;
  double min_s = quick ? 0.5e-3 : 2e-3;
  static const size_t ROWS[] = {64 << 10, 1 << 20};
  static const size_t OFFSETS[] = {0, 3};

  print_cpu();
  printf("kernel: %s; with validity, negate on; best (median) of %d samples\n",
         bitbytes_kernel_name(), samples);
  printf("%8s %6s %14s %14s %14s %15s %16s\n", "rows", "offset", "naive",
         "bitbytes", "memset", "bitbytes/naive", "bitbytes/memset");

  size_t max_bytes = ((1 << 20) + 64) / 8 + 1;
  uint8_t *values = malloc(max_bytes);
  uint8_t *validity = malloc(max_bytes);
  uint8_t *out = malloc(1 << 20);
  uint8_t *want = malloc(1 << 20);
  uint32_t *idx = malloc(((1 << 20) + 1) * sizeof *idx);
  uint32_t *idx_want = malloc(((1 << 20) + 1) * sizeof *idx_want);
  if (!values || !validity || !out || !want || !idx || !idx_want) return 2;
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < max_bytes; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    values[i] = (uint8_t)x;
    validity[i] = (uint8_t)(x >> 8) | (uint8_t)(x >> 16); /* ~75% valid */
  }

  for (size_t r = 0; r < sizeof ROWS / sizeof ROWS[0]; r++) {
    for (size_t o = 0; o < sizeof OFFSETS / sizeof OFFSETS[0]; o++) {
      struct bench_case c = {values, validity, (OFFSETS[o] + ROWS[r] + 7) / 8,
                             OFFSETS[o], ROWS[r], out, idx};
      /* Same output as the loop, or the timing means nothing. */
      naive_unpack(values, validity, c.offset, c.rows, true, want);
      run_once(BITBYTES, &c);
      if (memcmp(out, want, c.rows) != 0) {
        fprintf(stderr, "bitbytes and the loop differ at %zu rows\n", c.rows);
        return 1;
      }
      double t[N_WAYS][64]; /* samples <= 64 */
      for (int s = 0; s < samples; s++)
        for (int w = 0; w < N_WAYS; w++) t[w][s] = sample(w, &c, min_s);
      double g[N_WAYS], med[N_WAYS];
      for (int w = 0; w < N_WAYS; w++) {
        qsort(t[w], (size_t)samples, sizeof(double), cmp_double);
        g[w] = (double)c.rows / t[w][0] * 1e-9;
        med[w] = (double)c.rows / t[w][samples / 2] * 1e-9;
      }
      printf("%8zu %6zu %6.2f (%5.2f) %6.2f (%5.2f) %6.2f (%5.2f) %14.1fx %16.2f\n",
             c.rows, c.offset, g[NAIVE], med[NAIVE], g[BITBYTES], med[BITBYTES],
             g[MEMSET], med[MEMSET], g[BITBYTES] / g[NAIVE],
             g[BITBYTES] / g[MEMSET]);
    }
  }
  printf("(Grows/s: %s, %s, %s)\n", WAY_NAMES[NAIVE], WAY_NAMES[BITBYTES],
         WAY_NAMES[MEMSET]);

  printf("\nbitbytes_unpack_indices (kernel: %s), no validity, 50%% selected;"
         " Grows/s, best (median)\n", bitbytes_indices_kernel_name());
  printf("%8s %14s %14s %14s %18s %20s\n", "rows", "branchy loop",
         "branch-free", "bitbytes", "bitbytes/branchy", "bitbytes/branch-free");
  for (size_t r = 0; r < sizeof ROWS / sizeof ROWS[0]; r++) {
    struct bench_case c = {values, NULL, (ROWS[r] + 7) / 8, 0, ROWS[r], out, idx};
    size_t n_want = branchy_indices(values, c.rows, idx_want), n = 0;
    if (bitbytes_unpack_indices(values, c.bytes, NULL, 0, 0, c.rows, false, 0,
                                idx, c.rows + 1, &n) != BITBYTES_OK ||
        n != n_want || memcmp(idx, idx_want, n * sizeof *idx) != 0 ||
        branchless_indices(values, c.rows, idx) != n_want ||
        memcmp(idx, idx_want, n * sizeof *idx) != 0) {
      fprintf(stderr, "the index loops and bitbytes differ at %zu rows\n", c.rows);
      return 1;
    }
    double t[3][64];
    for (int s = 0; s < samples; s++)
      for (int w = 0; w < 3; w++) t[w][s] = sample(IDX_BRANCHY + w, &c, min_s);
    double g[3], med[3];
    for (int w = 0; w < 3; w++) {
      qsort(t[w], (size_t)samples, sizeof(double), cmp_double);
      g[w] = (double)c.rows / t[w][0] * 1e-9;
      med[w] = (double)c.rows / t[w][samples / 2] * 1e-9;
    }
    printf("%8zu %6.2f (%5.2f) %6.2f (%5.2f) %6.2f (%5.2f) %17.1fx %19.1fx\n",
           c.rows, g[0], med[0], g[1], med[1], g[2], med[2], g[2] / g[0],
           g[2] / g[1]);
  }
  free(idx);
  free(idx_want);
  free(values);
  free(validity);
  free(out);
  free(want);
  return 0;
}
