#!/usr/bin/env bash
# Builds a real helm from the Go modules pinned in this directory's go.mod,
# into a per-version cache directory:
#   ${STREAMROUTE_HELM_CACHE:-$HOME/.cache/streamroute/helm}/<version-key>/helm
# A build is skipped when that directory already holds the binary, so only the
# first run on a machine pays for the compile. Mirrors test/kube/build.sh.
#
#   bash test/helm/build.sh              build if needed, print the directory
#   bash test/helm/build.sh --print-dir  only print the directory (no build);
#                                        test/support/helm.ts uses it
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${STREAMROUTE_HELM_CACHE:-${HOME:-/root}/.cache/streamroute/helm}"

modver() { # version of a required module, read from go.mod (in a block or on a `require` line)
  sed -n "s#^[[:space:]]*\(require[[:space:]]\{1,\}\)\{0,1\}$1 \(v[^ ]*\).*#\2#p" "$here/go.mod" | head -n1
}
helm_version="$(modver helm.sh/helm/v3)"
client_go_version="$(modver k8s.io/client-go)"
if [[ -z "$helm_version" || -z "$client_go_version" ]]; then
  echo "build.sh: cannot read versions from $here/go.mod" >&2
  exit 1
fi
# Stamp what helm's Makefile stamps: its own version (a plain `go build` would
# report v3.22 without the patch) and the Kubernetes version its client-go
# speaks, which `helm lint`/`helm template` use as .Capabilities.KubeVersion.
k8s_minor="${client_go_version#v0.}"; k8s_minor="${k8s_minor%%.*}"
helm_ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$helm_version"
helm_ldflags+=" -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  helm_ldflags+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$k8s_minor"
done
build_flags=(-trimpath)

# The key hashes go.mod, go.sum and the build flags, so any change to what gets
# built lands in a fresh directory instead of reusing a stale binary.
recipe_hash="$(printf '%s\n' "${build_flags[*]}" "$helm_ldflags" | cat "$here/go.mod" "$here/go.sum" - | sha256sum | cut -c1-10)"
platform="$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)"
out="$cache_root/helm-${helm_version}_${platform}_${recipe_hash}"

if [[ "${1:-}" == "--print-dir" ]]; then
  echo "$out"
  exit 0
fi

if [[ -x "$out/helm" ]]; then
  echo "helm (cached): $out"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: 'go' is required (Go >= 1.26, see go.mod)" >&2; exit 1; }

# -mod=readonly: go.mod/go.sum are complete and committed; a build must never
# rewrite them. GOSUMDB=off: the checksum DB is unreachable from these
# machines; the hashes in go.sum still verify every downloaded module.
export GOFLAGS="-mod=readonly" GOSUMDB="${GOSUMDB:-off}" CGO_ENABLED=0
export GOMAXPROCS="${GOMAXPROCS:-$(nproc)}"

mkdir -p "$cache_root"
tmp="$(mktemp -d "$cache_root/.build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

start=$SECONDS
echo "building helm $helm_version (Kubernetes 1.$k8s_minor, GOMAXPROCS=$GOMAXPROCS); a cold build takes a few minutes..."
cd "$here"
go build "${build_flags[@]}" -ldflags="$helm_ldflags" -o "$tmp/helm" helm.sh/helm/v3/cmd/helm

# Publish atomically: a concurrent or interrupted build never leaves a
# half-written directory behind that later runs would treat as complete.
chmod 755 "$tmp"
if ! mv -T "$tmp" "$out" 2>/dev/null; then
  # Another build published the same key first; keep its binary.
  [[ -x "$out/helm" ]] || { echo "build.sh: could not publish $out" >&2; exit 1; }
  rm -rf "$tmp"
fi
trap - EXIT
echo "built in $((SECONDS - start))s"
echo "helm: $out"
