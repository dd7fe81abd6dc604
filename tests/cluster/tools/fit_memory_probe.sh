#!/bin/bash
# Builds fit_memory_probe.cpp against build/default's once_core and runs it:
#   tests/cluster/tools/fit_memory_probe.sh U D K B [epochs]
# Prints one JSON line (peak resident set of the streamed Stage-B fit). The cache is written
# under a mktemp -d folder, removed afterwards.
set -eu
repo=$(cd "$(dirname "$0")/../../.." && pwd)
torch="$repo/.venv/lib/python3.11/site-packages/torch"
bin="$repo/build/default/fit_memory_probe"
if [ ! -x "$bin" ] || [ "$repo/tests/cluster/tools/fit_memory_probe.cpp" -nt "$bin" ]; then
    c++ -std=c++20 -O2 -D_GLIBCXX_USE_CXX11_ABI=1 -I"$repo/core" -isystem "$torch/include" \
        -isystem "$torch/include/torch/csrc/api/include" \
        "$repo/tests/cluster/tools/fit_memory_probe.cpp" -o "$bin" \
        -L"$repo/build/default/core" -lonce_core -L"$torch/lib" -ltorch -ltorch_cpu -lc10 \
        -Wl,-rpath,"$repo/build/default/core:$torch/lib"
fi
t=$(mktemp -d /tmp/once-fit-probe.XXXXXX)
trap 'rm -rf "$t"' EXIT
"$bin" "$t/cache" "$@"
