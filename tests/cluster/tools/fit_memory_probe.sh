#!/bin/bash
# Builds fit_memory_probe.cpp against build/default's once_core and runs it:
#   tests/cluster/tools/fit_memory_probe.sh U D K B [epochs]
# Prints one JSON line (peak resident set of the streamed Stage-B fit). The cache is written
# under a mktemp -d folder, removed afterwards.
#   tests/cluster/tools/fit_memory_probe.sh --cli ONCE U D K B [once train fit options...]
# writes the same synthetic cache (with provenance) and measures the whole command
# `ONCE train fit --cache C -K K --batch B --epochs 1 ...` under /usr/bin/time -v, sampling the
# process's anonymous resident memory (RssAnon: heap and tensors, not the mapped cache pages
# that /usr/bin/time's maximum resident set also counts) every 10 ms.
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
if [ "${1:-}" != "--cli" ]; then
    "$bin" "$t/cache" "$@"
    exit
fi
once=$2 u=$3 d=$4 k=$5 b=$6
shift 6
"$bin" "$t/cache" "$u" "$d" "$k" "$b" 0
/usr/bin/time -v -o "$t/time.txt" "$once" train fit --cache "$t/cache" -K "$k" --batch "$b" \
    --epochs 1 -o "$t/codebook.safetensors" --json "$@" >"$t/out.json" &
pid=$!
peak=0
# /usr/bin/time's child is the command: sample it.
while kill -0 "$pid" 2>/dev/null; do
    for c in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
        a=$(awk '/^RssAnon:/ {print $2}' /proc/"$c"/status 2>/dev/null || true)
        if [ -n "$a" ] && [ "$a" -gt "$peak" ]; then peak=$a; fi
    done
    sleep 0.01
done
wait "$pid"
grep -E 'Maximum resident|Elapsed \(wall|Exit status' "$t/time.txt"
echo "peak anonymous resident (RssAnon, sampled every 10 ms): $peak kB"
echo "codebook: $(stat -c %s "$t/codebook.safetensors") bytes"
