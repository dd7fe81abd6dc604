#!/usr/bin/env bash
# Sets up a fresh machine, builds everything and runs the whole test suite (the README's test
# command; CI runs exactly this).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${ONCE_PRESET:-default}
scripts/build.sh "$preset"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# Skipped is not passed: ctest lists the suites that skipped (a device suite on a machine
# without a GPU); say how many and which, after its own summary.
log=build/$preset/ctest.log
set -o pipefail
ctest --preset "$preset" 2>&1 | tee "$log"
skipped=$(grep -c "(Skipped)" "$log" || true)
echo "[test] skipped suites: $skipped"
grep "(Skipped)" "$log" | sed 's/^/[test]   /' || true
