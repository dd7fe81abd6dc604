#!/usr/bin/env bash
# Configures and builds with the given preset (default: "default"), after the one-time set-up.
# Further arguments name targets to build instead of everything (e.g. `scripts/build.sh default
# once` builds only the command line and the engine).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
shift || true
scripts/setup.sh
cmake --preset "$preset" >/dev/null
start=$(date +%s)
if [ $# -gt 0 ]; then
    cmake --build --preset "$preset" --target "$@"
else
    cmake --build --preset "$preset"
fi
echo "[build] preset $preset built in $(( $(date +%s) - start )) s"
