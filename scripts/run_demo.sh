#!/usr/bin/env bash
# The main job on the embedded default: the demo clip (a real one, resources/demo/NOTICE.md),
# encoded by the demo encoder, compressed with the demo codebook (built from real clips) at a
# few budgets, then two peer baselines at the same budget for comparison; then, where a display
# exists, ONCE Studio opens with the same demo loaded. Sets up and builds first (idempotent).
# ONCE_DEMO_STUDIO=0 keeps to the command line; =1 opens the studio even without $DISPLAY
# (e.g. with QT_QPA_PLATFORM set by the caller).
set -euo pipefail
cd "$(dirname "$0")/.."
studio=${ONCE_DEMO_STUDIO:-auto}
if [ "$studio" = auto ]; then
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then studio=1; else studio=0; fi
fi
targets=(once)
if [ "$studio" = 1 ]; then targets+=(once-studio); fi
scripts/build.sh default "${targets[@]}" >/dev/null
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
if [ "$studio" = 1 ]; then
    echo "== opening ONCE Studio with the demo (close the window to finish)"
    exec build/default/app/studio/once-studio --demo
else
    echo "== no display: ONCE Studio not opened (with one, this command opens it on the demo;"
    echo "   or run build/default/app/studio/once-studio --demo yourself)"
fi
