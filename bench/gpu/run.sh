#!/usr/bin/env bash
# The GPU measurements (issue 25) on a fresh GPU machine that has CUDA, PyTorch (with its
# LibTorch), CMake and Ninja, but no Qt and no FFmpeg. Writes JSON files, logs and a Markdown
# table to $RESULTS (default build/gpu-results; $OUT/results when the device tool's $OUT is set).
#
#   bench/gpu/run.sh [--dry-run] [--deadline SECONDS] [STEP ...]
#
# STEPs, in order (default: all but profile): build check compress tiles e2e-0.5b e2e-7b bench
#   report
#   build     use the programs bench/gpu/pack.sh built on the CPU machine against the image's
#             LibTorch (build/gpucarry, carried; seconds), or, when they are absent or the
#             image's torch differs, configure the `gpu` preset here and build (3–5 min, 16 cores)
#   check     GPU vs CPU comparison of the compression (the Qt-free twin of the `gpu` tests)
#   compress  N = 23,329, K = 8,192, D = 3,584 BF16, B = 512: ours vs LibTorch eager ops vs the
#             same-shape cuBLAS GEMM
#   tiles     the same at other score-tile heights (rows per cuBLAS call and scan)
#   e2e-0.5b  LLaVA-OneVision-0.5B architecture, random weights, 32 frames, pool stride 1,
#   e2e-7b    7B likewise: Dense and ONCE at B = 32 … 1024, per-stage times, peak memory
#   bench     `once bench --features` (the efficiency table of issue 27, docs/performance.md):
#             Dense, ONCE, ForestPrune and FastVID at B = 32 … 1024 on the 0.5B architecture,
#             8 frames of a real clip encoded on the CPU machine (pack.sh → bench_inputs.sh)
#   sanitize  check again under compute-sanitizer's memcheck (only when named)
#   profile   Nsight Compute on the compression's kernels (only when named)
#   report    results/*.json → results/gpu_results.md
#
# --deadline S: skip a step that would start later than S seconds after the script began (the
# device call's limit, less the time to write the report), so a call always ends with results.
# Time with carried programs: check + compress + tiles ~1 min, e2e-0.5b ~1 min, e2e-7b ~3 min
# (weights drawn on the GPU in seconds, written to /dev/shm and deleted after).
#
# --dry-run: the same code on the CPU at toy shapes, in build/default (CI machine's build), so
# the script itself is tested without a GPU.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
began=$(date +%s)
invocation="bench/gpu/run.sh $*"

dry=0
deadline=0
steps=()
while [ $# -gt 0 ]; do
    case "$1" in
    --dry-run) dry=1 ;;
    --deadline)
        deadline=$2
        shift
        ;;
    build | check | compress | tiles | e2e-0.5b | e2e-7b | bench | sanitize | profile | report)
        steps+=("$1")
        ;;
    *)
        echo "run.sh: unknown argument '$1'" >&2
        exit 2
        ;;
    esac
    shift
done
[ ${#steps[@]} -gt 0 ] || steps=(build check compress tiles e2e-0.5b e2e-7b bench report)
want() { [[ " ${steps[*]} " == *" $1 "* ]]; }
# A step that needs about $2 seconds starts only if it ends before the deadline.
in_time() {
    [ "$deadline" = 0 ] && return 0
    local left=$((deadline - ($(date +%s) - began)))
    if [ "$left" -lt "$2" ]; then
        log "skip $1: ${left} s left before the deadline, it needs about $2"
        echo "$1: skipped, ${left} s left before the deadline" >>"$results/skipped.txt"
        return 1
    fi
}

# Under the device tool, results are gathered in /tmp and packed into $OUT/results.tgz after
# every step (the tool returns at most 8 files, and what is under $OUT even when the call is
# stopped at its limit).
results=${RESULTS:-${OUT:+/tmp/once-gpu-results}}
results=${results:-$root/build/gpu-results}
mkdir -p "$results"
rm -f "$results/failed.txt" "$results/skipped.txt"  # a warm machine keeps the last call's
snapshot() {
    if [ -n "${OUT:-}" ]; then
        tar czf "$OUT/results.tgz.part" -C "$results" . && mv "$OUT/results.tgz.part" "$OUT/results.tgz"
    fi
}
python=${PYTHON:-$(command -v python3)}
[ "$dry" = 1 ] && [ -x "$root/.venv/bin/python" ] && python=$root/.venv/bin/python
log() { echo "== $(date +%T) $*" >&2; }

if [ "$dry" = 1 ]; then
    build=build/default
    device=cpu
    sizes=(--n 2000 --k 512 --d 128 --budget 64 --reps 3)
    tiles=(256 1024)
    e2e=(--frames 4 --budgets 4,8,16 --new-tokens 4 --reps 1 --k 64 --compare-eager 8
        --trace-budget 8)
    archs=(tiny)
    # `once bench`: the tiny model's features of 4 frames (16 tokens each), made here.
    bench_arch=tiny
    bench_args=(--budgets 4,8,16 --new-tokens 2 --reps 1 --warmup 0)
    bench_k=96  # more than the 64 tokens: exercises random_codebook.py --fill
else
    build=build/gpu
    device=cuda
    sizes=(--n 23329 --k 8192 --d 3584 --budget 512 --reps 10)
    tiles=(1024 4096 8192 23329)
    # The captured decoding step against the eager one, same run (--compare-eager), and one
    # more run at B = 512 of each under the profiler (--trace-budget).
    e2e=(--frames 32 --budgets 32,64,128,256,512,1024 --new-tokens 32 --reps 3 --k 8192
        --compare-eager 512 --trace-budget 512)
    bench_arch=0.5b
    bench_args=(--budgets 32,64,128,256,512,1024 --new-tokens 32 --reps 3 --warmup 1)
    bench_k=8192
    archs=()
    want e2e-0.5b && archs+=(0.5b)
    want e2e-7b && archs+=(7b)
fi
bench=${BENCH_GPU:-$build/bench/bench_gpu}
carry=$root/build/gpucarry
once=${ONCE_CLI:-$build/app/once}
[ "$dry" = 0 ] && [ -x "$carry/bin/once" ] && [ ! -x "$once" ] && once=$carry/bin/once

if [ "$dry" = 0 ]; then
    # LibTorch and its CUDA libraries from the image's own torch; the carried Debian libraries
    # (ICU, PCRE2) and libonce_core after them.
    torch_dir=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
    nv_dirs=$(ls -d "$torch_dir"/../nvidia/*/lib "$torch_dir"/../nvidia/cu*/lib 2>/dev/null |
        tr '\n' ':' || true)
    export LD_LIBRARY_PATH=$torch_dir/lib:$nv_dirs${LD_LIBRARY_PATH:-}
    [ -d "$carry/lib" ] && export LD_LIBRARY_PATH=$carry/lib:$LD_LIBRARY_PATH
    {
        echo "command: $invocation"
        echo "began: $(date -u +%FT%TZ)"
        echo "torch: $("$python" -c 'import torch; print(torch.__version__, torch.version.cuda)')"
        nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv || true
        nvcc --version | tail -2 || true
        echo "carried: $(cat "$carry/torch-version" 2>/dev/null || echo none)," \
            "commit $(cat "$carry/commit" 2>/dev/null || echo none)"
    } >"$results/environment.txt" 2>&1
fi

if want build; then
    if [ "$dry" = 1 ]; then
        log "build (dry run: build/default, under the shared build lock)"
        flock /tmp/once-build.lock cmake --build build/default --target bench_gpu once
    else
        image_torch=$("$python" -c 'import torch; print(torch.__version__.split("+")[0])')
        carried_torch=$(cut -d+ -f1 "$carry/torch-version" 2>/dev/null || echo none)
        if [ -x "$carry/bin/bench_gpu" ] && [ "$image_torch" = "$carried_torch" ] &&
            ! ldd "$carry/bin/bench_gpu" | grep -q "not found"; then
            log "using the carried programs (built for torch $carried_torch by pack.sh)"
            bench=$carry/bin/bench_gpu
            once=$carry/bin/once
        else
            log "carried programs unusable (image torch $image_torch, carried $carried_torch):"
            [ -x "$carry/bin/bench_gpu" ] && ldd "$carry/bin/bench_gpu" | grep "not found" || true
            # Build dependencies the image may lack come from the carried folder (make_deps.sh).
            if ! pkg-config --exists libpcre2-8 icu-uc 2>/dev/null && [ -d "$carry/include" ]; then
                sed -i "s#^prefix=.*#prefix=$carry#" "$carry"/lib/pkgconfig/*.pc
                export PATH=$carry/bin:$PATH PKG_CONFIG_PATH=$carry/lib/pkgconfig
                export CMAKE_PREFIX_PATH=$carry CPATH=$carry/include${CPATH:+:$CPATH}
                log "using carried build dependencies in $carry"
            fi
            log "configure (preset gpu)"
            cmake --preset gpu -DONCE_PYTHON="$python" >"$results/configure.log" 2>&1 ||
                { tail -40 "$results/configure.log"; exit 1; }
            log "build bench_gpu on $(nproc) cores"
            cmake --build build/gpu --target bench_gpu once -j "$(nproc)" >"$results/build.log" 2>&1 ||
                { grep -m20 -A5 "error" "$results/build.log"; exit 1; }
        fi
    fi
elif [ "$dry" = 0 ] && [ -x "$carry/bin/bench_gpu" ] && [ ! -x "$bench" ]; then
    bench=$carry/bin/bench_gpu
fi
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$([ "$dry" = 1 ] && echo 2 || nproc)}

# A failing step is logged and the next one runs: one broken measurement must not cost the rest.
status=0
step() {
    local name=$1
    shift
    local rc=0
    "$@" || rc=$?
    snapshot
    if [ "$rc" != 0 ]; then
        log "$name FAILED (exit $rc)"
        echo "$name: exit $rc" >>"$results/failed.txt"
        status=1
    fi
}

if want check && in_time check 60; then
    log "check: GPU vs CPU ($device)"
    step check bash -c "set -o pipefail; '$bench' check --device $device 2>&1 | tee '$results/check.txt'"
fi

if want compress && in_time compress 60; then
    log "compress: ours vs eager LibTorch vs GEMM"
    step compress "$bench" compress --device "$device" "${sizes[@]}" --out "$results/compress.json" \
        --trace "$results/compress-trace.json"
fi

if want tiles && in_time tiles 60; then
    for t in "${tiles[@]}"; do
        log "compress, tile of $t rows"
        step "tiles-$t" "$bench" compress --device "$device" "${sizes[@]}" --tile-rows "$t" \
            --out "$results/tiles-$t.json"
    done >"$results/tiles.log" 2>&1
fi

for arch in "${archs[@]}"; do
    tag=e2e-$arch
    want "$([ "$dry" = 1 ] && echo e2e-0.5b || echo "$tag")" || continue
    in_time "$tag" "$([ "$arch" = 7b ] && echo 200 || echo 60)" || continue
    # RAM-backed when there is room (the 7B weights are 16 GB).
    tmp=/tmp
    if [ -d /dev/shm ] && [ "$(df --output=avail -k /dev/shm | tail -1)" -gt 20000000 ]; then
        tmp=/dev/shm
    fi
    model=$(mktemp -d "$tmp/once-llava-$arch.XXXX")
    trap 'rm -rf "$model"' EXIT
    log "e2e $arch: random weights into $model"
    step "make-model-$arch" bash -c "set -o pipefail; '$python' bench/gpu/make_model.py '$model' \
        '$arch' --device '$device' 2>&1 | grep -v Writing"
    log "e2e $arch: dense and ONCE"
    step "$tag" bash -c "set -o pipefail; '$bench' e2e --model '$model' --device '$device' \
        ${e2e[*]} --out '$results/$tag.json' 2>&1 >/dev/null | tee '$results/$tag.log'"
    rm -rf "$model"
    trap - EXIT
done

if want bench && in_time bench 150; then
    # Model on the device as for e2e; the feature file comes with the carried programs (the GPU
    # build cannot decode video), the codebook is drawn from it here (K 8,192 does not fit the
    # carry beside the programs; random_codebook.py --fill, K above the file's 5,832 tokens).
    features=$carry/inputs/features-$bench_arch-8f.safetensors
    tmp=/tmp
    [ -d /dev/shm ] && tmp=/dev/shm
    work=$(mktemp -d "$tmp/once-bench-$bench_arch.XXXX")
    trap 'rm -rf "$work"' EXIT
    if [ "$dry" = 1 ]; then
        features=$work/features-tiny-4f.safetensors
        log "bench (dry run): features of the tiny model, 4 frames"
        step bench-inputs bash -c "PYTHON='$python' bench/gpu/bench_inputs.sh '$work' tiny 4 \
            >'$results/bench-inputs.log' 2>&1"
    fi
    if [ ! -f "$features" ]; then
        log "bench: no $features (bench/gpu/pack.sh writes it)"
        echo "bench: no feature file" >>"$results/failed.txt"
        status=1
    else
        log "bench $bench_arch: random weights into $work/model, codebook K = $bench_k"
        step "bench-model" bash -c "set -o pipefail; '$python' bench/gpu/make_model.py \
            '$work/model' '$bench_arch' --device '$device' 2>&1 | grep -v Writing && \
            '$python' bench/add_processor.py '$work/model' && '$python' bench/random_codebook.py \
            '$work/codebook.npy' $bench_k --features '$features' --fill"
        log "bench $bench_arch: once bench --features, dense, once, forestprune, fastvid"
        step bench bash -c "set -o pipefail; '$once' bench --features '$features' \
            --model '$work/model' --device '$device' --dtype bfloat16 \
            --methods dense,once,forestprune,fastvid --codebook '$work/codebook.npy' \
            ${bench_args[*]} -o '$results/bench-$bench_arch.json' \
            --csv '$results/bench-$bench_arch' --overwrite | tee '$results/bench-$bench_arch.txt'"
    fi
    rm -rf "$work"
    trap - EXIT
fi

if want sanitize && [ "$dry" = 0 ] && in_time sanitize 90 && command -v compute-sanitizer >/dev/null
then
    log "sanitize: check under compute-sanitizer memcheck"
    step sanitize bash -c "timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 \
        '$bench' check --device cuda >'$results/sanitize.txt' 2>&1"
fi

if want profile && [ "$dry" = 0 ] && in_time profile 90 && command -v ncu >/dev/null; then
    log "profile: Nsight Compute on the compression's kernels"
    step profile bash -c "ncu --clock-control none -k 'regex:topLScan|segmentedSum|gemm' \
        -c 12 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        '$bench' compress --device cuda ${sizes[*]} --reps 1 >'$results/profile.txt' 2>&1"
fi

if want report; then
    log "report"
    "$python" bench/gpu/report.py "$results" >"$results/gpu_results.md"
    cat "$results/gpu_results.md"
    [ -n "${OUT:-}" ] && cp "$results/gpu_results.md" "$OUT/"
fi
snapshot
exit $status
