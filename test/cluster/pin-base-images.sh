#!/usr/bin/env bash
# Pins the upstream base images of Dockerfile.operator and Dockerfile.dataplane by digest: rewrites
# their `ARG BUILD_IMAGE=…` and `ARG RUNTIME_IMAGE=…` defaults to `image:tag@sha256:…`, the digest of
# the tag's manifest (the multi-platform index where there is one), so every later build gets the
# same bases whatever the tag comes to point at.
#
# Needs registry access (Docker Hub for node, gcr.io for distroless) and skopeo (Debian package
# `skopeo`; `crane` from go-containerregistry is used instead when skopeo is missing). It cannot run
# on the development machine of this repository: no container registry is reachable there, which is
# why images are built on local stand-ins there (test/cluster/images.sh). Run it where Docker runs:
#
#   bash test/cluster/pin-base-images.sh                    # re-pin the tags the Dockerfiles name
#   BUILD_IMAGE=node:24.12.0-bookworm-slim bash test/cluster/pin-base-images.sh   # move to a new tag
#
# then review `git diff Dockerfile.*` and commit it.
set -euo pipefail
cd "$(dirname "$0")/../.."
dockerfiles=(Dockerfile.operator Dockerfile.dataplane)

current() { # ARG name → its default in Dockerfile.operator, digest dropped
  sed -nE "s/^ARG $1=([^@[:space:]]+).*/\1/p" "${dockerfiles[0]}" | head -1
}
digest_of() { # image:tag → sha256:…
  local ref="$1"
  if command -v skopeo >/dev/null; then
    # The digest is the sha256 of the manifest's bytes as the registry serves them (--raw: not
    # resolved to one platform, so the pin keeps every platform the tag has).
    # Through a file: $(…) would drop the manifest's trailing newline, and with it the digest.
    local manifest
    manifest="$(mktemp)"
    skopeo inspect --raw "docker://$ref" >"$manifest" && [ -s "$manifest" ] || { rm -f "$manifest"; return 1; }
    echo "sha256:$(sha256sum <"$manifest" | cut -d' ' -f1)"
    rm -f "$manifest"
  elif command -v crane >/dev/null; then
    crane digest "$ref"
  else
    echo "pin-base-images: needs skopeo (apt-get install skopeo) or crane" >&2
    return 1
  fi
}

for name in BUILD_IMAGE RUNTIME_IMAGE; do
  ref="${!name:-$(current "$name")}"
  [ -n "$ref" ] || { echo "pin-base-images: no ARG $name=… in ${dockerfiles[0]}" >&2; exit 1; }
  if ! digest="$(digest_of "$ref")" || [[ "$digest" != sha256:* ]]; then
    echo "pin-base-images: could not resolve $ref (is the registry reachable from here?)" >&2
    exit 1
  fi
  for file in "${dockerfiles[@]}"; do
    sed -i -E "s|^ARG $name=.*|ARG $name=$ref@$digest|" "$file"
  done
  echo "$name=$ref@$digest"
done
