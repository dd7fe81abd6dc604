#!/usr/bin/env bash
# Sets up a fresh machine, builds everything and runs the whole test suite (the README's test
# command; CI runs exactly this).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${ONCE_PRESET:-default}
scripts/build.sh "$preset"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
ctest --preset "$preset"
