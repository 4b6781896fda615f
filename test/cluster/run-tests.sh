#!/usr/bin/env bash
# `npm run test:cluster`: the product on a real single-node Kubernetes. Builds the images (cached), brings the
# cluster up (cached binaries), runs the suites in test/cluster/*.cluster.test.ts, and tears the cluster down.
#
# Outside CI a machine that cannot run the cluster (not root, no Go) skips with a visible message; with CI set
# every failure to build or start is a failure. STREAMROUTE_KEEP_CLUSTER=1 leaves the cluster running after the
# tests (for debugging: source "$STREAMROUTE_CLUSTER_DIR/cluster.env" and use kubectl).
set -euo pipefail
cd "$(dirname "$0")/../.."

in_ci() { [[ -n "${CI:-}" && "${CI}" != 0 && "${CI,,}" != false ]]; }
skip_or_fail() {
  if in_ci; then
    echo "test:cluster: $1 (CI is set, so this fails instead of skipping)" >&2
    exit 1
  fi
  printf '\n  [cluster] SKIPPING the real-cluster tests: %s\n\n' "$1" >&2
  exit 0
}

[[ "$(id -u)" == 0 ]] || skip_or_fail "the cluster needs root (network namespace, containerd, kubelet)"
command -v go >/dev/null || skip_or_fail "Go is needed to build the Kubernetes binaries"

bash test/kube/build.sh
bash test/helm/build.sh
bash test/cluster/images.sh --extra-tag next
bash test/cluster/up.sh
if [[ -z "${STREAMROUTE_KEEP_CLUSTER:-}" ]]; then trap 'bash test/cluster/down.sh' EXIT; fi
# shellcheck source=/dev/null
source "${STREAMROUTE_IMAGES_ENV:-$HOME/.cache/streamroute/images/current.env}"
bash test/cluster/load-image.sh "$OPERATOR_ARCHIVE" "$DATAPLANE_ARCHIVE" "$OPERATOR_EXTRA_ARCHIVE" "$DATAPLANE_EXTRA_ARCHIVE"

npx mocha --timeout 600000 'test/cluster/**/*.cluster.test.ts' "$@"
