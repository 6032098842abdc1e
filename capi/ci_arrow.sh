#!/usr/bin/env bash
# The predicate C ABI (issue 19) driven by Arrow producers nobody here wrote;
# called by .ci/run after capi/ci.sh, runs alone as well:
#     bash capi/ci_arrow.sh
# Builds libbitbytes_capi.so, then:
#  - capi/tests/predicate_arrow.cpp, compiled against the Arrow C++ headers and
#    libraries of two pyarrow wheels and run: Arrow 19 as C++17 (the standard
#    paimon-cpp builds with) and Arrow 26 as C++20 (Arrow 23 and later use
#    std::span in their headers, so C++17 cannot include them);
#  - the C++ examples of README.md and docs/c-abi.md, compiled the same ways;
#  - capi/tests/test_pyarrow.py (capi/ci.sh runs it on pyarrow 26) on pyarrow 19
#    with pypaimon, whose own JSON-to-mask evaluation it then compares with.
# The first run installs the two virtual environments under target/capi
# (about 200 MB and 180 MB, a minute); later runs reuse them.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

step() { printf '\n=== capi (Arrow producers): %s\n' "$*"; }
out=target/capi
mkdir -p "$out"
CXX="${CXX:-c++}"

# make_venv DIR REQUIREMENTS: a virtual environment with those pins, reused
# while the file is unchanged and pyarrow imports (as capi/ci.sh does).
make_venv() {
  local dir=$1 req=$2
  if ! cmp -s "$req" "$dir/bitbytes-requirements.txt" ||
    ! "$dir/bin/python" -c "import pyarrow, pyarrow.cffi" >/dev/null 2>&1; then
    rm -rf "$dir"
    python3 -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --no-cache-dir --disable-pip-version-check -r "$req"
    # Lines "# no-deps: PIN" are installed without their dependencies.
    local pins
    pins=$(sed -n 's/^# no-deps: //p' "$req")
    if [ -n "$pins" ]; then
      # shellcheck disable=SC2086
      "$dir/bin/python" -m pip install --quiet --no-cache-dir --disable-pip-version-check --no-deps $pins
    fi
    cp "$req" "$dir/bitbytes-requirements.txt"
  fi
}

step "build libbitbytes_capi.so (release)"
cargo build -p bitbytes-capi --release
lib_dir=$PWD/target/release

step "Python environments: pyarrow 26 (requirements.txt), pypaimon + pyarrow 19 (requirements-pypaimon.txt)"
venv26="${BITBYTES_CAPI_VENV:-$out/venv}"
venv19="$out/venv-pypaimon"
make_venv "$venv26" capi/tests/requirements.txt
make_venv "$venv19" capi/tests/requirements-pypaimon.txt

for pair in "$venv19:c++17" "$venv26:c++20"; do
  venv=${pair%:*} std=${pair##*:}
  read -r version include arrow_dir < <("$venv/bin/python" -c \
    "import pyarrow; print(pyarrow.__version__, pyarrow.get_include(), pyarrow.get_library_dirs()[0])")
  step "predicate_arrow.cpp: Arrow C++ $version (pyarrow wheel), -std=$std"
  # The wheel ships versioned names only (libarrow.so.1900); Arrow 21 and later
  # keep the kernels in libarrow_compute.
  arrow_libs=("$arrow_dir"/libarrow.so.[0-9]*)
  compute_libs=("$arrow_dir"/libarrow_compute.so.[0-9]*)
  test -e "${compute_libs[0]}" && arrow_libs+=("${compute_libs[0]}")
  exe="$out/predicate_arrow_${version%%.*}"
  # -isystem: Arrow's own headers are not held to -Werror.
  "$CXX" -std="$std" -Wall -Wextra -Werror -pedantic -O1 -g -pthread -I capi/include -isystem "$include" \
    capi/tests/predicate_arrow.cpp -L "$lib_dir" -l:libbitbytes_capi.so "${arrow_libs[@]}" \
    -Wl,-rpath,"$lib_dir" -Wl,-rpath,"$arrow_dir" -o "$exe"
  "$exe"
  if [ "$std" = c++17 ] && command -v valgrind >/dev/null 2>&1; then
    # Every read bitbytes makes of Arrow C++'s buffers, checked. Arrow's own
    # AVX-512 kernels and jemalloc are turned off: valgrind supports neither.
    ARROW_USER_SIMD_LEVEL=NONE ARROW_DEFAULT_MEMORY_POOL=system \
      valgrind -q --error-exitcode=1 "$exe" >/dev/null
    echo "valgrind: no invalid read or write"
  fi
  # The C++ examples, compiled and run as shown: README.md's (in "From C and
  # C++") and docs/c-abi.md's (in "From Arrow C++").
  for doc in "README.md:# From C and C++" "docs/c-abi.md:# From Arrow C++"; do
    file=${doc%%:*} heading=${doc#*:}
    name="$out/$(basename "$file" .md | tr 'A-Z-' 'a-z_')_arrow_${version%%.*}"
    python3 - "$file" "$heading" "$name.cpp" <<'PY'
import re, sys
section = open(sys.argv[1]).read().split(sys.argv[2], 1)[1]
open(sys.argv[3], "w").write(re.search(r"```cpp\n(.*?)```", section, re.S).group(1))
PY
    echo "--- the C++ example of $file"
    "$CXX" -std="$std" -Wall -Wextra -Werror -pedantic -I capi/include -isystem "$include" "$name.cpp" \
      -L "$lib_dir" -l:libbitbytes_capi.so "${arrow_libs[@]}" -Wl,-rpath,"$lib_dir" -Wl,-rpath,"$arrow_dir" -o "$name"
    "$name"
  done
done

step "test_pyarrow.py on pyarrow 19, compared with pypaimon too"
BITBYTES_REQUIRE_PYPAIMON=1 "$venv19/bin/python" capi/tests/test_pyarrow.py "$lib_dir/libbitbytes_capi.so"
