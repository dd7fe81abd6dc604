#!/bin/sh
# Validates packaging/cluster/kubernetes/*.yaml against the Kubernetes OpenAPI schemas with
# kubernetes-validate (PyPI), strict mode (unknown fields are errors), for Kubernetes 1.29 (the
# first where the Indexed Job's backoffLimitPerIndex is on by default; 1.27's schema lacks it)
# and the newest the tool knows; and checks that the tool does reject a broken Job (so a pass means something).
# Installs the tool into a throwaway virtualenv when it is not on PATH. No cluster needed.
#   tests/cluster/validate_kubernetes.sh
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
kv=$(command -v kubernetes-validate || true)
if [ -z "$kv" ]; then
    venv=$(mktemp -d /tmp/once-kv.XXXXXX)
    trap 'rm -rf "$venv"' EXIT
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q kubernetes-validate
    kv="$venv/bin/kubernetes-validate"
fi
"$kv" --version
for version in 1.29.0 1.37.0; do
    "$kv" --strict -k "$version" "$repo"/packaging/cluster/kubernetes/*.yaml
done
bad=$(mktemp /tmp/once-kv-bad.XXXXXX.yaml)
cat > "$bad" <<'YAML'
apiVersion: batch/v1
kind: Job
metadata: {name: broken}
spec:
  completionMode: Indexed
  completions: "three"
  template: {spec: {restartPolicy: Never, containers: [{name: a, image: b, comand: [x]}]}}
YAML
if "$kv" --strict --quiet "$bad" >/dev/null 2>&1; then
    echo "validate_kubernetes: the validator accepted a broken Job" >&2
    rm -f "$bad"
    exit 1
fi
rm -f "$bad"
echo "validate_kubernetes: PASS"
