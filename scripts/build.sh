#!/usr/bin/env bash
# Configures and builds with the given preset (default: "default"), after the one-time set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
scripts/setup.sh
cmake --preset "$preset" >/dev/null
start=$(date +%s)
cmake --build --preset "$preset"
echo "[build] preset $preset built in $(( $(date +%s) - start )) s"
