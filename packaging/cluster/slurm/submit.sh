#!/bin/sh
# Submits the whole codebook build to Slurm: Stage A as an array of SHARDS tasks, the merge
# when every task succeeded, the fit when the merge succeeded (sbatch --dependency=afterok).
# Edit the variables below (or set them in the environment), then run: sh submit.sh
# Walk-through: docs/cluster.md.
: "${ONCE:=once}"                         # the once binary, on every node
: "${WORK:=$HOME/once-work}"              # a folder every node sees (NFS, Lustre, ...)
: "${MANIFEST:=$WORK/corpus.jsonl}"       # {"video": path, "category": name} a line
: "${SHARDS:=16}"                         # array tasks (each sketches videos v with v mod SHARDS = its index)
: "${BACKBONE:=llava-onevision}"          # encoder of `once train sketch --backbone`
: "${MODEL:=}"                            # its Hugging Face folder (empty for demo)
: "${SKETCH_OPTIONS:=}"                   # further `once train sketch` options (--cap, --bins, ...)
: "${K:=8192}"                            # codebook size
: "${FIT_OPTIONS:=}"                      # further `once train fit` options
: "${SBATCH_OPTIONS:=}"                   # e.g. "--partition=gpu --account=lab"
export ONCE WORK MANIFEST SHARDS BACKBONE MODEL SKETCH_OPTIONS K FIT_OPTIONS
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK/logs"
# shellcheck disable=SC2086  # SBATCH_OPTIONS is a list of options
sketch=$(sbatch --parsable $SBATCH_OPTIONS --array="0-$((SHARDS - 1))" \
    --output="$WORK/logs/stage-a-%A_%a.out" "$here/stage_a.sbatch")
sketch=${sketch%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable $SBATCH_OPTIONS --dependency="afterok:$sketch" \
    --output="$WORK/logs/merge-%j.out" "$here/merge.sbatch")
merge=${merge%%;*}
# shellcheck disable=SC2086
fit=$(sbatch --parsable $SBATCH_OPTIONS --dependency="afterok:$merge" \
    --output="$WORK/logs/fit-%j.out" "$here/fit.sbatch")
fit=${fit%%;*}
echo "stage A array $sketch (tasks 0-$((SHARDS - 1))), merge $merge, fit $fit"
echo "a failed task is rerun alone and resumes: sbatch --array=I $here/stage_a.sbatch"
