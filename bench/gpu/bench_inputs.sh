#!/usr/bin/env bash
# The feature file that run.sh's `bench` step measures (`once bench --features`: the GPU build has
# no FFmpeg, so the frames are decoded and encoded here, on the CPU machine, and carried).
#
#   bench/gpu/bench_inputs.sh OUT_DIR [ARCH] [FRAMES]     (defaults: 0.5b 8)
#
# Writes OUT_DIR/features-$ARCH-${FRAMES}f.safetensors: `once encode` of a real clip
# (cockatoo.mp4 of Debian's python3-imageio, 1280 × 720) with a LLaVA-OneVision model of the
# architecture ARCH and random weights (make_model.py + add_processor.py, in a temporary folder
# deleted after), FRAMES frames sampled uniformly, pool stride 1, stored in BF16. The device's
# model has other random weights: the values steer what the compressors keep, not how much work
# a budget is. For 0.5b, 8 frames: 5,832 tokens of 896, 10.4 MB (float32 would be 21 MB, and with
# the programs and a carried codebook over the device tool's 64 MiB; run.sh draws the codebook
# there from this file, random_codebook.py --fill). Needs build/default's `once` (with FFmpeg).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench_inputs.sh OUT_DIR [ARCH] [FRAMES]}
arch=${2:-0.5b}
frames=${3:-8}
python=${PYTHON:-.venv/bin/python}
once=${ONCE_CPU:-build/default/app/once}
clip=${BENCH_CLIP:-/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4}
[ -f "$clip" ] || { echo "bench_inputs.sh: no clip $clip (Debian package python3-imageio)" >&2; exit 1; }
[ -x "$once" ] || { echo "bench_inputs.sh: no $once (cmake --build build/default --target once)" >&2; exit 1; }
mkdir -p "$out"
tmp=/tmp
[ -d /dev/shm ] && tmp=/dev/shm
model=$(mktemp -d "$tmp/once-bench-inputs.XXXX")
trap 'rm -rf "$model"' EXIT
"$python" bench/gpu/make_model.py "$model" "$arch" --device cpu | grep -v Writing
"$python" bench/add_processor.py "$model"
"$once" encode "$clip" --model "$model" --sampling "uniform:$frames" --store-dtype bfloat16 \
    --overwrite -o "$out/features-$arch-${frames}f.safetensors"
