#!/usr/bin/env bash
# Builds real Kubernetes server binaries (kube-apiserver, kube-controller-manager,
# kube-scheduler, kube-proxy, kubelet) and etcd from the Go modules pinned in
# this directory's go.mod, into a per-version cache directory:
#   ${STREAMROUTE_KUBE_CACHE:-$HOME/.cache/streamroute/kube}/<version-key>/
# A build is skipped when that directory already holds every binary, so only
# the first run on a machine pays for the compile. The API server tests need
# only kube-apiserver and etcd; test/cluster/up.sh needs them all.
#
#   bash test/kube/build.sh              build if needed, print the directory
#   bash test/kube/build.sh --print-dir  only print the directory (no build);
#                                        test/support/kube-apiserver.ts uses it
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${STREAMROUTE_KUBE_CACHE:-${HOME:-/root}/.cache/streamroute/kube}"

modver() { # version of a required module, read from go.mod
  sed -n "s#^[[:space:]]*$1 \(v[^ ]*\).*#\1#p" "$here/go.mod" | head -n1
}
k8s_version="$(modver k8s.io/kubernetes)"
etcd_version="$(modver go.etcd.io/etcd/server/v3)"
if [[ -z "$k8s_version" || -z "$etcd_version" ]]; then
  echo "build.sh: cannot read versions from $here/go.mod" >&2
  exit 1
fi
# Stamp the real version into the apiserver (a plain `go build` would report
# v0.0.0-master, which breaks clients that check the server version).
minor="${k8s_version#v1.}"; minor="${minor%%.*}"
vpkg=k8s.io/component-base/version
k8s_ldflags="-s -w -X $vpkg.gitVersion=$k8s_version -X $vpkg.gitMajor=1 -X $vpkg.gitMinor=$minor"
build_flags=(-trimpath)

# The key hashes go.mod, go.sum and the build flags, so any change to what gets
# built lands in a fresh directory instead of reusing stale binaries.
recipe_hash="$(printf '%s\n' "${build_flags[*]}" "$k8s_ldflags" | cat "$here/go.mod" "$here/go.sum" - | sha256sum | cut -c1-10)"
platform="$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)"
out="$cache_root/k8s-${k8s_version}_etcd-${etcd_version}_${platform}_${recipe_hash}"

if [[ "${1:-}" == "--print-dir" ]]; then
  echo "$out"
  exit 0
fi

# Every command comes from k8s.io/kubernetes/cmd/<name> (pinned in tools.go).
k8s_cmds=(kube-apiserver kube-controller-manager kube-scheduler kube-proxy kubelet)
all_built() {
  local b
  for b in "${k8s_cmds[@]}" etcd; do [[ -x "$1/$b" ]] || return 1; done
}

if all_built "$out"; then
  echo "kube test binaries (cached): $out"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: 'go' is required (Go >= 1.24)" >&2; exit 1; }

# -mod=readonly: go.mod/go.sum are complete and committed; a build must never
# rewrite them. GOSUMDB=off: the checksum DB is unreachable from these
# machines; the hashes in go.sum still verify every downloaded module.
export GOFLAGS="-mod=readonly" GOSUMDB="${GOSUMDB:-off}" CGO_ENABLED=0
# Compiling the apiserver is CPU-bound; use every core unless told otherwise.
export GOMAXPROCS="${GOMAXPROCS:-$(nproc)}"

mkdir -p "$cache_root"
tmp="$(mktemp -d "$cache_root/.build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

start=$SECONDS
echo "building ${k8s_cmds[*]} $k8s_version and etcd $etcd_version (GOMAXPROCS=$GOMAXPROCS); a cold build takes several minutes..."
cd "$here"
for cmd in "${k8s_cmds[@]}"; do
  echo "  $cmd"
  go build "${build_flags[@]}" -ldflags="$k8s_ldflags" -o "$tmp/$cmd" "k8s.io/kubernetes/cmd/$cmd"
done
echo "  etcd"
go build "${build_flags[@]}" -ldflags="-s -w" -o "$tmp/etcd" go.etcd.io/etcd/server/v3

# Publish atomically: a concurrent or interrupted build never leaves a
# half-written directory behind that later runs would treat as complete.
chmod 755 "$tmp"
if ! mv -T "$tmp" "$out" 2>/dev/null; then
  # Another build published the same key first; keep its binaries.
  all_built "$out" || { echo "build.sh: could not publish $out" >&2; exit 1; }
  rm -rf "$tmp"
fi
trap - EXIT
echo "built in $((SECONDS - start))s"
echo "kube test binaries: $out"
