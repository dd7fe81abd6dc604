#!/usr/bin/env bash
# Issue 19's GPU measurements on a fresh GPU machine that has CUDA, PyTorch (with its LibTorch),
# CMake and Ninja, but no Qt and no FFmpeg. Writes JSON files and a Markdown table to $RESULTS
# (default build/gpu-results; $OUT/results when the device tool's $OUT is set).
#
#   bench/gpu/run.sh [--dry-run] [STEP ...]
#
# STEPs, in order (default: all): build check compress e2e-0.5b e2e-7b report
#   build     configure the `gpu` preset (core + gpu + CLI + bench, no Qt/FFmpeg/tests) and build
#             bench_gpu and once_gpu (about 3–5 min on 16 cores; incremental afterwards)
#   check     GPU vs CPU comparison of the compression (the Qt-free twin of the `gpu` tests)
#   compress  N = 23,329, K = 8,192, D = 3,584 BF16, B = 512: ours vs LibTorch eager ops vs the
#             same-shape cuBLAS GEMM
#   e2e-0.5b  LLaVA-OneVision-0.5B architecture, random weights, 32 frames, pool stride 1,
#   e2e-7b    7B likewise: Dense and ONCE at B = 32 … 1024, per-stage times, peak memory
#   report    results/*.json → results/gpu_results.md
#
# Time: build ~4 min, check+compress ~1 min, e2e-0.5b ~2 min, e2e-7b ~4 min (weights drawn on
# the GPU in seconds, written to /dev/shm or /tmp and deleted after). Two device calls:
#   run.sh build check compress e2e-0.5b report      then      run.sh build e2e-7b report
# (the second build is a no-op while the machine is still warm, a full build otherwise).
#
# --dry-run: the same code on the CPU at toy shapes, in build/default (CI machine's build), so
# the script itself is tested without a GPU.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

dry=0
steps=()
for a in "$@"; do
    case "$a" in
    --dry-run) dry=1 ;;
    build | check | compress | e2e-0.5b | e2e-7b | report) steps+=("$a") ;;
    *)
        echo "run.sh: unknown argument '$a'" >&2
        exit 2
        ;;
    esac
done
[ ${#steps[@]} -gt 0 ] || steps=(build check compress e2e-0.5b e2e-7b report)
want() { [[ " ${steps[*]} " == *" $1 "* ]]; }

results=${RESULTS:-${OUT:+$OUT/results}}
results=${results:-$root/build/gpu-results}
mkdir -p "$results"
python=${PYTHON:-$(command -v python3)}
[ "$dry" = 1 ] && [ -x "$root/.venv/bin/python" ] && python=$root/.venv/bin/python
log() { echo "== $(date +%T) $*" >&2; }

if [ "$dry" = 1 ]; then
    build=build/default
    device=cpu
    sizes=(--n 2000 --k 512 --d 128 --budget 64 --reps 3)
    e2e=(--frames 4 --budgets 4,8,16 --new-tokens 4 --reps 1 --k 64)
    archs=(tiny)
else
    build=build/gpu
    device=cuda
    sizes=(--n 23329 --k 8192 --d 3584 --budget 512 --reps 10)
    e2e=(--frames 32 --budgets 32,64,128,256,512,1024 --new-tokens 32 --reps 3 --k 8192)
    archs=()
    want e2e-0.5b && archs+=(0.5b)
    want e2e-7b && archs+=(7b)
fi
bench=$build/bench/bench_gpu

if want build; then
    if [ "$dry" = 1 ]; then
        log "build (dry run: build/default, under the shared build lock)"
        flock /tmp/once-build.lock cmake --build build/default --target bench_gpu
    else
        # Build dependencies the image may lack come from build/gpudeps (make_deps.sh; carried).
        if ! pkg-config --exists libpcre2-8 icu-uc 2>/dev/null && [ -d build/gpudeps ]; then
            deps=$root/build/gpudeps
            sed -i "s#^prefix=.*#prefix=$deps#" "$deps"/lib/pkgconfig/*.pc
            export PATH=$deps/bin:$PATH LD_LIBRARY_PATH=$deps/lib:${LD_LIBRARY_PATH:-}
            export PKG_CONFIG_PATH=$deps/lib/pkgconfig CMAKE_PREFIX_PATH=$deps
            export CPATH=$deps/include${CPATH:+:$CPATH}
            log "using carried build dependencies in $deps"
        fi
        log "configure (preset gpu)"
        cmake --preset gpu -DONCE_PYTHON="$python" >"$results/configure.log" 2>&1 ||
            { tail -40 "$results/configure.log"; exit 1; }
        log "build bench_gpu and once_gpu on $(nproc) cores"
        cmake --build build/gpu --target bench_gpu -j "$(nproc)" >"$results/build.log" 2>&1 ||
            { grep -m20 -A5 "error" "$results/build.log"; exit 1; }
    fi
fi
if [ -d "$root/build/gpudeps/lib" ]; then
    export LD_LIBRARY_PATH=$root/build/gpudeps/lib:${LD_LIBRARY_PATH:-}
fi
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$([ "$dry" = 1 ] && echo 2 || nproc)}

if want check; then
    log "check: GPU vs CPU ($device)"
    "$bench" check --device "$device" | tee "$results/check.txt"
    if [ "$dry" = 0 ]; then
        nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$results/gpu.txt" || true
    fi
fi

if want compress; then
    log "compress: ours vs eager LibTorch vs GEMM"
    "$bench" compress --device "$device" "${sizes[@]}" --out "$results/compress.json" >/dev/null
fi

for arch in "${archs[@]}"; do
    tag=e2e-$arch
    want "$([ "$dry" = 1 ] && echo e2e-0.5b || echo "$tag")" || continue
    # RAM-backed when there is room (the 7B weights are 16 GB).
    tmp=/tmp
    if [ -d /dev/shm ] && [ "$(df --output=avail -k /dev/shm | tail -1)" -gt 20000000 ]; then
        tmp=/dev/shm
    fi
    model=$(mktemp -d "$tmp/once-llava-$arch.XXXX")
    trap 'rm -rf "$model"' EXIT
    log "e2e $arch: random weights into $model"
    "$python" bench/gpu/make_model.py "$model" "$arch" --device "$device" 2>&1 | grep -v Writing
    log "e2e $arch: dense and ONCE"
    "$bench" e2e --model "$model" --device "$device" "${e2e[@]}" --out "$results/$tag.json" \
        >/dev/null
    rm -rf "$model"
    trap - EXIT
done

if want report; then
    log "report"
    "$python" bench/gpu/report.py "$results" >"$results/gpu_results.md"
    cat "$results/gpu_results.md"
fi
