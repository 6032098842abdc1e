// bitbytes.h from C++: compiled by capi/ci.sh with
//     c++ -std=c++17 -Wall -Wextra -Werror -pedantic
// With -DWITH_ARROW_ABI it also includes Arrow C++'s own <arrow/c/abi.h>
// (from the pyarrow wheel), before or after bitbytes.h (-DARROW_FIRST): the
// ARROW_C_DATA_INTERFACE guard must keep the two declarations from clashing.
#if defined(WITH_ARROW_ABI) && defined(ARROW_FIRST)
#include <arrow/c/abi.h>
#endif
#include "bitbytes.h"
#if defined(WITH_ARROW_ABI) && !defined(ARROW_FIRST)
#include <arrow/c/abi.h>
#endif

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  const std::array<std::uint8_t, 2> values{0b10101101, 0b1};
  const std::array<std::uint8_t, 2> validity{0b11110111, 0b1};
  std::vector<std::uint8_t> mask(6, 9);
  int rc = bitbytes_unpack(values.data(), values.size(), validity.data(),
                           validity.size(), 3, mask.size(), false, mask.data(),
                           mask.size());
  const std::vector<std::uint8_t> want{0, 0, 1, 0, 1, 1};
  if (rc != BITBYTES_OK || mask != want) {
    std::fprintf(stderr, "unpack: %s\n", bitbytes_strerror(rc));
    return 1;
  }
  // A short output is an error with a message, and writes nothing.
  rc = bitbytes_unpack(values.data(), values.size(), nullptr, 0, 0, 16, false,
                       mask.data(), mask.size());
  if (rc != BITBYTES_ERR_OUTPUT_TOO_SHORT || mask != want ||
      std::strstr(bitbytes_strerror(rc), "output too short") == nullptr) {
    return 1;
  }
  // Selection vectors: the rows of the same bitmap as uint32_t indices.
  std::vector<std::uint32_t> rows(6, 0);
  std::size_t count = 0;
  rc = bitbytes_unpack_indices(values.data(), values.size(), validity.data(),
                               validity.size(), 3, 6, false, 100, rows.data(),
                               rows.size(), &count);
  if (rc != BITBYTES_OK || count != 3 || rows[0] != 102 || rows[1] != 104 ||
      rows[2] != 105) {
    std::fprintf(stderr, "unpack_indices: %s\n", bitbytes_strerror(rc));
    return 1;
  }
  // The Arrow structs are usable from C++ as declared.
  const void *buffers[2] = {nullptr, values.data()};
  ArrowArray array{};
  array.length = 6;
  array.offset = 3;
  array.n_buffers = 2;
  array.buffers = buffers;
  array.release = [](ArrowArray *a) { a->release = nullptr; };
  ArrowSchema schema{};
  schema.format = "b";
  schema.release = [](ArrowSchema *s) { s->release = nullptr; };
  rc = bitbytes_unpack_arrow(&array, &schema, true, mask.data(), mask.size());
  const std::vector<std::uint8_t> negated{0, 1, 0, 1, 0, 0};
  if (rc != BITBYTES_OK || mask != negated) return 1;
  array.release(&array);
  schema.release(&schema);
  std::printf("C++17 header check: ok (kernel %s)\n", bitbytes_kernel_name());
  return 0;
}
