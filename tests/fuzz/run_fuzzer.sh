#!/usr/bin/env bash
# Builds every libFuzzer target tests/fuzz/fuzz_<name>.cpp with clang (libFuzzer + AddressSanitizer
# + UBSan) and runs each for SECONDS from its seed corpus. Fails (exit 1) when a target does not
# build or any input crashes, leaks, hangs (-timeout) or exceeds -rss_limit_mb.
#
# Usage: tests/fuzz/run_fuzzer.sh [SECONDS] [WORKDIR] [NAME...]
#   SECONDS  run time of each target (default 20); 0 only builds; total:N shares N seconds
#            among the targets run (at least 3 s each), so CI's time does not grow with them
#   WORKDIR  build and work folder (default build/fuzz); its corpora keep what earlier runs found
#   NAME     run only these targets (e.g. npy gguf); default all
#
# A target declares in comment lines near its top (see docs in the helper notes):
#   // fuzz-sources: core/a.cpp core/b.cpp   core sources it links (paths from the repository root)
#   // fuzz-needs: torch                    link LibTorch from .venv (as cmake/LibTorch.cmake)
#   // fuzz-pkgconfig: libpcre2-8 icu-uc    pkg-config packages it compiles and links with
#   // fuzz-max-len: 65536                  largest input libFuzzer generates (default 8192)
# Seeds: tests/fuzz/corpus/<name>/ (or corpus/fuzz_<name>/), copied into WORKDIR so that the
# tree's corpus is never modified; tests/fuzz/<name>.dict is passed as a libFuzzer dictionary and
# tests/fuzz/<name>.lsan as LeakSanitizer suppressions (for leaks inside third-party libraries).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
work=${2:-build/fuzz}
shift $(($# > 2 ? 2 : $#))
only=("$@")

CXX=${CXX_FUZZ:-clang++}
# FUZZ_OPT=-O0 halves the build (nlohmann::json and LibTorch headers dominate it) at the cost of
# about half the executions per second; CI uses it for its short runs.
cflags="-std=c++20 ${FUZZ_OPT:--O1} -g -fno-omit-frame-pointer -fsanitize=address,undefined
        -fno-sanitize-recover=undefined -D_GLIBCXX_USE_CXX11_ABI=1 -I$PWD/core"
mkdir -p "$work/obj" "$work/corpus" "$work/artifacts"

# LibTorch of the project virtualenv: headers, libraries, and the rpath of the CUDA runtime the
# wheel's libtorch_cpu needs at load time (as cmake/LibTorch.cmake).
torch_dir=""
torch_cflags=""
torch_libs=""
find_torch() {
    [[ -n "$torch_dir" ]] && return
    local dirs=(.venv/lib/python3*/site-packages/torch)
    torch_dir=$(cd "${dirs[0]}" 2>/dev/null && pwd) || {
        echo "run_fuzzer: no LibTorch in .venv (scripts/setup.sh)" >&2
        exit 1
    }
    torch_cflags="-isystem $torch_dir/include -isystem $torch_dir/include/torch/csrc/api/include"
    local rpath="$torch_dir/lib"
    for d in "$torch_dir"/../nvidia/*/lib; do
        [[ -d "$d" ]] && rpath="$rpath:$(cd "$d" && pwd)"
    done
    torch_libs="-L$torch_dir/lib -ltorch_cpu -lc10 -Wl,-rpath,$rpath -pthread"
}

header_field() {  # header_field FILE KEY: the values of "// KEY:" lines in the first 40 lines
    head -n 40 "$1" | sed -n "s|^// $2:[[:space:]]*||p" | tr '\n' ' '
}

# Write a ninja file: each source is compiled once (with LibTorch's include folders when a torch
# target uses it), each target linked from its objects; ninja rebuilds only what changed.
names=()
ninja_file="$work/build.ninja"
{
    echo "cxx = $CXX"
    echo "cflags = $(echo $cflags)"
    echo "rule cc"
    echo "  command = \$cxx \$cflags \$extra -fsanitize=fuzzer-no-link -MD -MF \$out.d -c \$in -o \$out"
    echo "  depfile = \$out.d"
    echo "  deps = gcc"
    echo "  description = compile \$in"
    echo "rule link"
    echo "  command = \$cxx \$cflags -fsanitize=fuzzer \$in -o \$out \$libs"
    echo "  description = link \$out"
} >"$ninja_file.tmp"
declare -A objflags=()
declare -A objs_of=()
declare -A libs_of=()
for src in tests/fuzz/fuzz_*.cpp; do
    name=$(basename "$src" .cpp)
    name=${name#fuzz_}
    sources="$src $(header_field "$src" fuzz-sources)"
    extra=""
    libs=""
    if [[ "$(header_field "$src" fuzz-needs)" == *torch* ]]; then
        find_torch
        extra="$torch_cflags"
        libs="$torch_libs"
    fi
    pkgs=$(header_field "$src" fuzz-pkgconfig)
    if [[ -n "${pkgs// /}" ]]; then
        extra="$extra $(pkg-config --cflags $pkgs)"
        libs="$libs $(pkg-config --libs $pkgs)"
    fi
    objs=""
    for s in $sources; do
        [[ -f "$s" ]] || { echo "run_fuzzer: $src names a missing source $s" >&2; exit 1; }
        obj="obj/${s%.cpp}.o"
        objflags[$obj]="${objflags[$obj]:-} $extra"
        objs_of[$name]="${objs_of[$name]:-} $obj"
        objs="$objs $obj"
    done
    libs_of[$name]="$libs"
    names+=("$name")
done
for obj in "${!objflags[@]}"; do
    src=${obj#obj/}
    src=${src%.o}
    # Union of the include flags of the targets that use this source, without repeats.
    flags=$(echo ${objflags[$obj]} | xargs -n1 2>/dev/null | awk '
        /^-isystem$/ {getline d; if (!seen["-isystem " d]++) printf "-isystem %s ", d; next}
        !seen[$0]++ {printf "%s ", $0}')
    {
        echo "build $obj: cc $PWD/${src}.cpp"
        echo "  extra = $flags"
    } >>"$ninja_file.tmp"
done
for name in "${names[@]}"; do
    {
        echo "build fuzz_$name: link ${objs_of[$name]}"
        echo "  libs = ${libs_of[$name]}"
    } >>"$ninja_file.tmp"
done
mv "$ninja_file.tmp" "$ninja_file"

# Build only the targets that will run (all by default): checking one parser's fix should not
# wait for every other target's sanitizer build.
selected=()
for n in "${names[@]}"; do
    if [[ ${#only[@]} -eq 0 || " ${only[*]} " == *" $n "* ]]; then selected+=("$n"); fi
done
for n in "${only[@]}"; do
    [[ " ${names[*]} " == *" $n "* ]] || { echo "run_fuzzer: no target tests/fuzz/fuzz_$n.cpp" >&2; exit 1; }
done
start=$(date +%s)
if ! ninja -C "$work" $(for n in "${selected[@]}"; do echo "fuzz_$n"; done) >"$work/build.log" 2>&1
then
    grep -v '^\[' "$work/build.log" | tail -n 40 >&2
    echo "run_fuzzer: build failed (log $work/build.log)" >&2
    exit 1
fi
echo "run_fuzzer: built ${#selected[@]} targets in $(($(date +%s) - start)) s"
[[ "$secs" != 0 ]] || exit 0

if [[ "$secs" == total:* ]]; then
    count=${#names[@]}
    [[ ${#only[@]} -gt 0 ]] && count=${#only[@]}
    secs=$((${secs#total:} / count))
    ((secs >= 3)) || secs=3
fi
failed=()
for name in "${names[@]}"; do
    if [[ ${#only[@]} -gt 0 && ! " ${only[*]} " == *" $name "* ]]; then
        continue
    fi
    src=tests/fuzz/fuzz_$name.cpp
    corpus="$work/corpus/$name"
    mkdir -p "$corpus"
    for seeds in tests/fuzz/corpus/$name tests/fuzz/corpus/fuzz_$name; do
        [[ -d "$seeds" ]] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
    done
    max_len=$(header_field "$src" fuzz-max-len | tr -d ' ')
    args=(-max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
          -max_len="${max_len:-8192}" -artifact_prefix="$work/artifacts/$name-")
    [[ -f tests/fuzz/$name.dict ]] && args+=(-dict="tests/fuzz/$name.dict")
    lsan=""
    [[ -f tests/fuzz/$name.lsan ]] && lsan="suppressions=$PWD/tests/fuzz/$name.lsan"
    log="$work/$name.log"
    echo "run_fuzzer: fuzz_$name for ${secs}s ($(ls "$corpus" | wc -l) inputs in the corpus)"
    if LSAN_OPTIONS="$lsan" "$work/fuzz_$name" "${args[@]}" "$corpus" >"$log" 2>&1; then
        grep -E "^stat::(number_of_executed_units|peak_rss_mb)" "$log" | tr '\n' ' '
        echo
    else
        echo "run_fuzzer: fuzz_$name FAILED (log $log, inputs $work/artifacts/$name-*):" >&2
        grep -E "ERROR|SUMMARY|Test unit written|runtime error|==[0-9]+==" "$log" | head -20 >&2
        failed+=("$name")
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "run_fuzzer: failing targets: ${failed[*]}" >&2
    exit 1
fi
echo "run_fuzzer: all targets ran clean"
