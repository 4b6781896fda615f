#!/usr/bin/env bash
# Builds the cluster's own small images from static Go programs, FROM scratch, with
# buildah (no registry, no base image to pull):
#   pause/ -> localhost/streamroute/pause:3.10  (containerd's sandbox_image)
#   echo/  -> localhost/streamroute/echo:test   (workload of smoke.sh)
# Each becomes a docker-archive tar cached under
#   ${STREAMROUTE_CLUSTER_CACHE:-~/.cache/streamroute/cluster}/images/<name>-<hash>.tar
# keyed by a hash of its sources, the Go version and the build flags.
#
#   bash test/cluster/test-images.sh           build what is missing; print "NAME ARCHIVE" lines
#   bash test/cluster/test-images.sh --print   print "NAME ARCHIVE" lines only (no build)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

go_flags=(-trimpath "-ldflags=-s -w")
archive_of() { # NAME -> cached archive path for its current inputs
  local name="$1" h
  h="$( (cat "$cluster_here/$name/main.go" "$cluster_here/$name/Containerfile"
    echo "${go_flags[*]}" "$(go env GOVERSION 2>/dev/null || echo nogo)") | sha256sum | cut -c1-12)"
  echo "$CACHE/images/$name-$h.tar"
}

build_one() { # NAME TAG
  local name="$1" tag="$2" out tmp
  out="$(archive_of "$name")"
  [[ -s "$out" ]] && return 0
  command -v buildah >/dev/null || { dpkg -s buildah >/dev/null 2>&1 || apt-get install -y buildah >&2; }
  mkdir -p "$CACHE/images"
  tmp="$(mktemp -d "$CACHE/images/.build.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" RETURN
  say "building $tag"
  mkdir -p "$tmp/ctx"
  (cd "$cluster_here/$name" && CGO_ENABLED=0 GO111MODULE=on go build "${go_flags[@]}" -o "$tmp/ctx/$name" ./main.go)
  cp "$cluster_here/$name/Containerfile" "$tmp/ctx/"
  # The sandbox may not raise RLIMIT_NPROC/NOFILE: podman/buildah need default_ulimits = [].
  printf '[containers]\ndefault_ulimits = []\n' >"$tmp/containers.conf"
  # A throwaway storage (vfs: nothing to mount) keeps buildah's state out of the host's.
  local st=(--root "$tmp/storage" --runroot "$tmp/run" --storage-driver vfs)
  CONTAINERS_CONF="$tmp/containers.conf" buildah "${st[@]}" build --quiet --layers=false \
    -f "$tmp/ctx/Containerfile" -t "$tag" "$tmp/ctx" >/dev/null
  CONTAINERS_CONF="$tmp/containers.conf" buildah "${st[@]}" push --quiet "$tag" "docker-archive:$tmp/image.tar:$tag" >/dev/null
  mv "$tmp/image.tar" "$out"
  say "built $tag -> $out"
}

if [[ "${1:-}" != "--print" ]]; then
  command -v go >/dev/null || die "'go' is required to build the pause and echo images"
  build_one pause "$PAUSE_IMAGE"
  build_one echo "$ECHO_IMAGE"
fi
echo "pause $(archive_of pause)"
echo "echo $(archive_of echo)"
