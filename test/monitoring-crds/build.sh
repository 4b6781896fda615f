#!/usr/bin/env bash
# Generates the Prometheus Operator's ServiceMonitor and PodMonitor CRDs (monitoring.coreos.com/v1)
# from the Go modules pinned in this directory's go.mod — controller-gen run on the Prometheus
# Operator's own API types, as its release does — into a per-version cache directory:
#   ${STREAMROUTE_MONITORING_CACHE:-$HOME/.cache/streamroute/monitoring-crds}/<version-key>/
# The chart tests install them into the real test kube-apiserver and create the monitors the chart
# renders, with strict field validation. A run is skipped when that directory already holds both
# files. Mirrors test/helm/build.sh.
#
#   bash test/monitoring-crds/build.sh              generate if needed, print the directory
#   bash test/monitoring-crds/build.sh --print-dir  only print the directory (no build);
#                                                   test/support/monitoring-crds.ts uses it
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${STREAMROUTE_MONITORING_CACHE:-${HOME:-/root}/.cache/streamroute/monitoring-crds}"
types=github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring

modver() { # version of a required module, read from go.mod (in a block or on a `require` line)
  sed -n "s#^[[:space:]]*\(require[[:space:]]\{1,\}\)\{0,1\}$1 \(v[^ ]*\).*#\2#p" "$here/go.mod" | head -n1
}
operator_version="$(modver "$types")"
tools_version="$(modver sigs.k8s.io/controller-tools)"
if [[ -z "$operator_version" || -z "$tools_version" ]]; then
  echo "build.sh: cannot read versions from $here/go.mod" >&2
  exit 1
fi
# No descriptions (maxDescLen=0): the schema, its types and enums are what the tests check.
gen_options="crd:crdVersions=v1,maxDescLen=0"

recipe_hash="$(printf '%s\n' "$gen_options" | cat "$here/go.mod" "$here/go.sum" - | sha256sum | cut -c1-10)"
out="$cache_root/prometheus-operator-${operator_version}_controller-tools-${tools_version}_${recipe_hash}"
files=(monitoring.coreos.com_servicemonitors.yaml monitoring.coreos.com_podmonitors.yaml)

if [[ "${1:-}" == "--print-dir" ]]; then
  echo "$out"
  exit 0
fi

all_there() {
  local f
  for f in "${files[@]}"; do [[ -s "$1/$f" ]] || return 1; done
}
if all_there "$out"; then
  echo "monitoring CRDs (cached): $out"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: 'go' is required (Go >= 1.26, see go.mod)" >&2; exit 1; }

# -mod=readonly: go.mod/go.sum are complete and committed. GOSUMDB=off: the checksum DB is unreachable
# from these machines; the hashes in go.sum still verify every downloaded module.
export GOFLAGS="-mod=readonly" GOSUMDB="${GOSUMDB:-off}" CGO_ENABLED=0
export GOMAXPROCS="${GOMAXPROCS:-$(nproc)}"

mkdir -p "$cache_root"
tmp="$(mktemp -d "$cache_root/.build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

start=$SECONDS
echo "generating the monitoring.coreos.com CRDs of the Prometheus Operator $operator_version (controller-tools $tools_version)..."
cd "$here"
go build -trimpath -o "$tmp/controller-gen" sigs.k8s.io/controller-tools/cmd/controller-gen
mkdir "$tmp/all"
"$tmp/controller-gen" "$gen_options" paths="$types/v1" output:crd:dir="$tmp/all"
mkdir "$tmp/crds"
for f in "${files[@]}"; do cp "$tmp/all/$f" "$tmp/crds/$f"; done

# Publish atomically: an interrupted run never leaves a half-written directory behind.
chmod 755 "$tmp/crds"
if ! mv -T "$tmp/crds" "$out" 2>/dev/null; then
  all_there "$out" || { echo "build.sh: could not publish $out" >&2; exit 1; }
fi
echo "generated in $((SECONDS - start))s"
echo "monitoring CRDs: $out"
