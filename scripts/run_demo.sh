#!/usr/bin/env bash
# The main job on the embedded default: the demo video, encoded by the demo encoder, compressed
# with the demo codebook at a few budgets, then two peer baselines at the same budget for
# comparison. Sets up and builds the command line first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh default once >/dev/null
once=build/default/app/once
out=build/demo
mkdir -p "$out"
video=resources/demo/demo.mp4
codebook=resources/demo/demo_codebook.safetensors
echo "== encode $video (demo encoder, 32 uniform frames)"
"$once" encode "$video" --backbone demo --sample uniform:32 -o "$out/demo_features.safetensors"
echo "== codebook"
"$once" info "$codebook"
for budget in 16 64 256; do
    echo "== compress at budget $budget"
    "$once" compress --features "$out/demo_features.safetensors" --codebook "$codebook" \
        --budget "$budget" -o "$out/demo_B$budget.safetensors" --json
done
for method in tome spatial-pool; do
    echo "== peer baseline $method at budget 64"
    "$once" compress --features "$out/demo_features.safetensors" --method "$method" \
        --budget 64 -o "$out/demo_${method}_B64.safetensors" --json
done
echo "== done: results in $out/"
