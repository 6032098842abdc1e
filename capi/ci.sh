#!/usr/bin/env bash
# CI for the C ABI (capi/), called by .ci/run; runs alone as well:
#     bash capi/ci.sh
# Lints and tests the Rust side, builds libbitbytes_capi.{a,so}, then from
# outside Rust: the C tests (C11, -Werror; the core, and the predicate API on
# hand-built Arrow structs; under valgrind when it is installed) on the static library, the header as
# C++17 (-Werror) and next to Arrow's own arrow/c/abi.h, the C examples of
# README.md and docs/c-abi.md, the no_std build linked with libc only, pyarrow
# through the C Data Interface on the shared library, and one short run of the
# C benchmark.
# A warm run takes well under a minute; the first one also installs pyarrow
# (about 200 MB) into a virtual environment under target/ that later runs reuse.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

step() { printf '\n=== capi: %s\n' "$*"; }
out=target/capi
mkdir -p "$out"
CC="${CC:-cc}"
CXX="${CXX:-c++}"
CFLAGS_STRICT=(-std=c11 -Wall -Wextra -Werror -pedantic)
CXXFLAGS_STRICT=(-std=c++17 -Wall -Wextra -Werror -pedantic)

step "clippy and tests (Rust side: codes against the header, Arrow struct layout, NULL and panic rules)"
cargo clippy -p bitbytes-capi --all-targets -- -D warnings
# Without std, panic=abort (see the no_std step), in the no_std target dir.
CARGO_TARGET_DIR=target/capi-nostd RUSTFLAGS="-C panic=abort" \
  cargo clippy -p bitbytes-capi --lib --no-default-features -- -D warnings
cargo test -p bitbytes-capi
RUSTDOCFLAGS="-D warnings" cargo doc -p bitbytes-capi --no-deps

step "build libbitbytes_capi.a and .so (release)"
# What a Rust staticlib needs from the system, as rustc reports it; the README
# and docs/c-abi.md quote the same line (checked below).
native_libs=$(cargo rustc -p bitbytes-capi --release --crate-type staticlib -- --print native-static-libs 2>&1 |
  sed -n 's/.*native-static-libs: //p' | tail -n 1)
echo "native-static-libs: $native_libs"
test -n "$native_libs"
for doc in README.md docs/c-abi.md; do
  grep -qF -- "$native_libs" "$doc" || {
    echo "$doc does not quote the link line rustc reports: $native_libs" >&2
    exit 1
  }
done
cargo build -p bitbytes-capi --release
lib_a=target/release/libbitbytes_capi.a
lib_so=target/release/libbitbytes_capi.so
read -r -a native <<<"$native_libs"

step "C test: C11 -Werror, static library"
"$CC" "${CFLAGS_STRICT[@]}" -O1 -g -I capi/include capi/tests/test_capi.c "$lib_a" "${native[@]}" -o "$out/test_capi"
"$out/test_capi"

step "C test of the predicate API: hand-built record batches and statistics, every error"
"$CC" "${CFLAGS_STRICT[@]}" -O1 -g -I capi/include capi/tests/test_predicate.c "$lib_a" "${native[@]}" -o "$out/test_predicate"
"$out/test_predicate"
if command -v valgrind >/dev/null 2>&1; then
  # Catches a read past the exact-size buffers the tests allocate, and a
  # leak (a predicate, a string, an imported array not freed).
  for t in test_capi test_predicate; do
    valgrind -q --error-exitcode=1 --leak-check=full "$out/$t" >/dev/null
  done
  echo "valgrind: no invalid read or write, no leak"
else
  echo "valgrind not installed: the C tests ran without it"
fi

step "header as C++17 -Werror"
"$CXX" "${CXXFLAGS_STRICT[@]}" -I capi/include capi/tests/header_cpp.cpp "$lib_a" "${native[@]}" -o "$out/header_cpp"
"$out/header_cpp"

step "C examples (the C block of \"From C and C++\" in README.md and in docs/c-abi.md, compiled as shown)"
for doc in README.md docs/c-abi.md; do
  name=$(basename "$doc" .md | tr 'A-Z-' 'a-z_')_example
  python3 - "$doc" "$out/$name.c" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
section = text.split("# From C and C++", 1)[1]
block = re.search(r"```c\n(.*?)```", section, re.S).group(1)
open(sys.argv[2], "w").write(block)
EOF
  echo "--- $doc"
  "$CC" "${CFLAGS_STRICT[@]}" -I capi/include "$out/$name.c" "$lib_a" "${native[@]}" -o "$out/$name"
  "$out/$name"
done

step "no_std build: allocation-free, linked with libc only"
# panic=abort: the precompiled core cannot unwind without std. Separate target
# dir: same file names, other features.
CARGO_TARGET_DIR=target/capi-nostd RUSTFLAGS="-C panic=abort" \
  cargo build -p bitbytes-capi --release --no-default-features
nostd_a=target/capi-nostd/release/libbitbytes_capi.a
# --gc-sections drops the unwind tables of the precompiled core, the only
# reference to rust_eh_personality.
"$CC" "${CFLAGS_STRICT[@]}" -O1 -I capi/include capi/tests/test_capi.c -Wl,--gc-sections "$nostd_a" -o "$out/test_capi_nostd"
"$out/test_capi_nostd"
if nm -u "$nostd_a" 2>/dev/null | awk '{print $NF}' | grep -qxE 'malloc|calloc|realloc|free|posix_memalign'; then
  echo "the no_std library references an allocator" >&2
  exit 1
fi
echo "no allocator symbol referenced"

step "pyarrow: arrays exported through the C Data Interface, on the shared library"
venv="${BITBYTES_CAPI_VENV:-$out/venv}"
req=capi/tests/requirements.txt
# Reused while requirements.txt is unchanged and pyarrow imports; otherwise
# (first run, new pins, a broken venv) made anew.
if ! cmp -s "$req" "$venv/bitbytes-requirements.txt" ||
  ! "$venv/bin/python" -c "import pyarrow, pyarrow.cffi" >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --no-cache-dir --disable-pip-version-check -r "$req"
  cp "$req" "$venv/bitbytes-requirements.txt"
fi
"$venv/bin/python" capi/tests/test_pyarrow.py "$lib_so"

step "bitbytes.h next to Arrow C++'s arrow/c/abi.h (from the pyarrow wheel), both orders, C11 and C++17"
arrow_include=$("$venv/bin/python" -c "import pyarrow; print(pyarrow.get_include())")
test -f "$arrow_include/arrow/c/abi.h"
for first in "" -DARROW_FIRST; do
  "$CXX" "${CXXFLAGS_STRICT[@]}" -DWITH_ARROW_ABI $first -I capi/include -I "$arrow_include" \
    capi/tests/header_cpp.cpp "$lib_a" "${native[@]}" -o "$out/header_cpp_abi"
  "$out/header_cpp_abi" >/dev/null
done
"$CC" "${CFLAGS_STRICT[@]}" -I capi/include -I "$arrow_include" -include arrow/c/abi.h \
  -fsyntax-only capi/tests/test_capi.c
printf '#include "bitbytes.h"\n#include <arrow/c/abi.h>\nint main(void) { return 0; }\n' >"$out/abi_after.c"
"$CC" "${CFLAGS_STRICT[@]}" -I capi/include -I "$arrow_include" -fsyntax-only "$out/abi_after.c"
echo "no clash in either order"

step "C benchmark, one quick run (docs/performance.md's figures come from a full run: see capi/bench/bench_unpack.c)"
"$CC" "${CFLAGS_STRICT[@]}" -O2 -I capi/include capi/bench/bench_unpack.c "$lib_a" "${native[@]}" -o "$out/bench_unpack"
"$out/bench_unpack" --quick
