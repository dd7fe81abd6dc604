#!/usr/bin/env bash
# Prepares a GPU machine's call here, on the CPU machine, so the lent minutes only measure:
#
#   bench/gpu/pack.sh            → build/gpucarry (pass it in the device tool's `carry`)
#
# 1. Builds the `gpu` preset's programs (bench_gpu, once; core + gpu/ kernels for sm_90, no Qt,
#    no FFmpeg) against the LibTorch of the GPU image: torch $GPU_TORCH (default: the version in
#    bench/gpu/device-torch-version.txt, the image's 2.11.0+cu130; PyPI's 2.11.0 wheel is the same
#    CUDA 13.0 build) from a second virtualenv, so the project's own pin (scripts/torch-version.txt)
#    is not what the device links. A compile or link error shows up here, not on the device.
# 2. Packs the stripped programs, libonce_core.so, and the Debian 12 libraries the image may lack
#    (ICU 72 for the tokenizer's NFC normaliser, PCRE2) into build/gpucarry/{bin,lib}, with the
#    headers and pkg-config files of those libraries for a fallback build there (make_deps.sh).
#    LibTorch and CUDA come from the image itself: run.sh puts its torch/lib first in
#    LD_LIBRARY_PATH, and refuses the carried programs when the image's torch differs.
# 3. Encodes the input of run.sh's `bench` step (bench_inputs.sh: 8 frames of a real clip with a
#    0.5B LLaVA-OneVision architecture, BF16, 10.4 MB) into build/gpucarry/inputs, with
#    build/default's `once` (the GPU build has no FFmpeg); about a minute on one core.
#
# Time here: about 20 min on 2 cores from an empty ccache (core is most of it), seconds after.
# Size: about 55 MiB (ICU's data library is 30 of it, the feature file 10), under the tool's
# 64 MiB carry limit.
set -euo pipefail
cd "$(dirname "$0")/../.."
version=${GPU_TORCH:-$(cat bench/gpu/device-torch-version.txt)}
venv=${GPU_TORCH_VENV:-$HOME/.cache/once-studio/torch-$version}
if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
    echo "[pack] torch $version into $venv (a second virtualenv; .venv keeps the project's pin)"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q "torch==$version"
fi
build=${GPU_BUILD_DIR:-build/gpu-torch$version}
cmake --preset gpu -B "$build" -DONCE_PYTHON="$venv/bin/python" >/dev/null
# Under the machine's shared build lock unless the caller already holds it.
lock=(flock /tmp/once-build.lock)
[ -n "${ONCE_BUILD_LOCK_HELD:-}" ] && lock=()
"${lock[@]}" cmake --build "$build" --target bench_gpu once once_backend_cuda
out=build/gpucarry
# Headers, pkg-config files and the Debian libraries (make_deps.sh), then the programs beside them.
GPUDEPS_OUT=$out bench/gpu/make_deps.sh >/dev/null
strip -o "$out/bin/bench_gpu" "$build/bench/bench_gpu"
strip -o "$out/bin/once" "$build/app/once"
strip -o "$out/lib/libonce_core.so" "$build/core/libonce_core.so"
# The CUDA backend module, beside the engine where it looks for it (util/device.h).
strip -o "$out/lib/libonce_backend_cuda.so" "$build/core/libonce_backend_cuda.so"
[ -f build/default/CMakeCache.txt ] || cmake --preset default >/dev/null
"${lock[@]}" cmake --build build/default --target once >/dev/null
OMP_NUM_THREADS=1 bench/gpu/bench_inputs.sh "$out/inputs" 0.5b 8 >/dev/null
"$venv/bin/python" -c "import torch; print(torch.__version__)" >"$out/torch-version"
git rev-parse HEAD >"$out/commit"
git status --porcelain >"$out/uncommitted"
du -sh "$out"
