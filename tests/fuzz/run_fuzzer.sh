#!/usr/bin/env bash
# Builds the safetensors parser fuzzer with clang (libFuzzer + AddressSanitizer + UBSan) and runs
# it for SECONDS (default 60) from a seed corpus of valid and broken files.
# Usage: tests/fuzz/run_fuzzer.sh [SECONDS] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
work=${2:-build/fuzz}
mkdir -p "$work/corpus"
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Icore tests/fuzz/fuzz_safetensors.cpp core/io/safetensors.cpp core/io/dtype.cpp \
    core/io/mapped_file.cpp core/util/error.cpp core/util/atomic_file.cpp \
    -o "$work/fuzz_safetensors"
# Seeds: a valid two-tensor file with metadata, and a few broken headers.
python3 - "$work/corpus" <<'PY'
import json, struct, sys, os
out = sys.argv[1]
def image(header, data):
    h = json.dumps(header).encode()
    return struct.pack("<Q", len(h)) + h + data
valid = image({"__metadata__": {"format": "once-codebook/1"},
               "a": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
               "b": {"dtype": "BF16", "shape": [3], "data_offsets": [16, 22]}}, bytes(22))
seeds = {"valid": valid, "short": b"\x01\x02", "nojson": struct.pack("<Q", 3) + b"{a:",
         "overlap": image({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
                           "b": {"dtype": "F32", "shape": [1], "data_offsets": [2, 6]}}, bytes(8))}
for name, blob in seeds.items():
    open(os.path.join(out, name), "wb").write(blob)
PY
"$work/fuzz_safetensors" -max_total_time="$secs" -max_len=4096 -print_final_stats=1 \
    "$work/corpus" 2>&1 | tail -n 12
