#!/usr/bin/env bash
# Rebuilds resources/demo/demo_codebook.safetensors with this repository's trainer from the demo
# clips and the demo encoder, following configs/demo_codebook.json. Deterministic: the same
# build and thread count give the same bytes.
# Usage: scripts/build_demo_codebook.sh [path/to/once] [output]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
once="${1:-$root/build/default/app/once}"
out="${2:-$root/resources/demo/demo_codebook.safetensors}"
config="$root/configs/demo_codebook.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
py="$(command -v python3)"
# Flattens one section of the JSON config into --key value arguments.
args() { "$py" -c 'import json,sys; c=json.load(open(sys.argv[1]))[sys.argv[2]]; print(" ".join(f"--{k} {v}" for k,v in c.items()))' "$config" "$1"; }
# Absolute paths are the real clips Debian ships (the config's "packages"); the rest are the
# repository's. A missing clip stops the build: a codebook from fewer clips is another codebook.
# The clips are linked into one folder first, so the codebook's exemplars name them by file name
# alone (the explorer finds demo.mp4 beside the codebook) and no path of this machine is kept.
mkdir -p "$work/clips"
"$py" -c 'import json,os,sys; c=json.load(open(sys.argv[1]))
for v in c["videos"]:
    p = v if v.startswith("/") else os.path.join(sys.argv[2], v)
    if not os.path.exists(p):
        sys.exit(p + ": missing (apt install " + " ".join(c.get("packages", [])) + ")")
    link = os.path.join(sys.argv[3], os.path.basename(p))
    os.symlink(os.path.realpath(p), link)
    print(json.dumps({"video": link, "category": "demo"}))' \
    "$config" "$root" "$work/clips" > "$work/corpus.jsonl"
backbone="$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["backbone"])' "$config")"
sample="$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["sample"])' "$config")"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}"
# shellcheck disable=SC2046
"$once" train sketch --manifest "$work/corpus.jsonl" -o "$work/cache" --backbone "$backbone" \
    --sample "$sample" $(args sketch) --json
# shellcheck disable=SC2046
"$once" train fit --cache "$work/cache" $(args fit) -o "$out" --json
"$once" diagnose --codebook "$out" --cache "$work/cache" --bootstrap 200 --json
