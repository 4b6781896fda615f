#!/usr/bin/env bash
# Builds the product's two images with podman from the repository's own Dockerfile.operator and
# Dockerfile.dataplane, without a Docker engine or any registry: the bases are local stand-ins
# (image-bases.sh), `npm ci` inside reaches the npm registry over the host's network.
#
#   bash test/cluster/images.sh [--tag TAG] [--extra-tag TAG]
#
# --tag        the images' tag (default: a short hash of every input, so a change of code gives a new
#              tag and an unchanged tree reuses the cached images and archives at once)
# --extra-tag  the same images under a second tag too (a rolling update to "another" image)
#
# Output, on stdout and in ~/.cache/streamroute/images/current.env (or $STREAMROUTE_IMAGES_ENV):
#   IMAGE_TAG, OPERATOR_IMAGE, DATAPLANE_IMAGE, OPERATOR_ARCHIVE, DATAPLANE_ARCHIVE
#   and with --extra-tag: EXTRA_TAG, OPERATOR_EXTRA_IMAGE, DATAPLANE_EXTRA_IMAGE,
#   OPERATOR_EXTRA_ARCHIVE, DATAPLANE_EXTRA_ARCHIVE.
# Archives are docker-archive tarballs that `ctr -n k8s.io images import` loads under the image's name.
# Cached: bases by their own key (image-bases.sh), product images and archives by the key of the
# repository's inputs under ~/.cache/streamroute/images/<tag>/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=test/cluster/image-env.sh
source "$here/image-env.sh"
log() { printf 'images: %s\n' "$*" >&2; }

tag=""
extra_tag=""
while (($#)); do
  case "$1" in
    --tag) tag="${2:?--tag needs a value}"; shift 2 ;;
    --extra-tag) extra_tag="${2:?--extra-tag needs a value}"; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) log "unknown argument: $1 (see --help)"; exit 2 ;;
  esac
done
started=$SECONDS

# ---- bases --------------------------------------------------------------------------------------------
bases="$(bash "$here/image-bases.sh")" # (an assignment, so that its failure stops this script)
eval "$bases"
: "${BUILD_IMAGE:?}" "${RUNTIME_IMAGE:?}"

# ---- key of the product's inputs: the bases, the Dockerfiles, what they COPY, this script -------------
cd "$repo"
inputs() {
  # The build context as .dockerignore leaves it (tests, fixtures and test data out).
  find operator dataplane crds -type f ! -name '*.test.ts' ! -name '*.fixtures.ts' ! -path '*/testdata/*' -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum
  sha256sum package.json package-lock.json tsconfig.json tsconfig.build.json .dockerignore \
    Dockerfile.operator Dockerfile.dataplane test/cluster/images.sh # (relative: the same key in any checkout)
  # The bases by content (layers and config), not by image id: an import's id carries its time.
  podman image inspect --format '{{json .RootFS.Layers}} {{json .Config}}' "$BUILD_IMAGE" "$RUNTIME_IMAGE"
}
key="$(inputs | sha256sum | cut -c1-12)"
tag="${tag:-$key}"
out="$image_cache/$tag"
mkdir -p "$out"

# ---- build ---------------------------------------------------------------------------------------------
build_one() { # role
  local role="$1" image="localhost/streamroute/$1:$tag"
  local archive="$out/$1.tar"
  if [ -s "$archive" ] && [ "$(cat "$out/$1.key" 2>/dev/null)" = "$key" ]; then
    podman image exists "$image" || podman load -q -i "$archive" >/dev/null
    log "cached: $image"
    return
  fi
  log "building $image from Dockerfile.$role"
  # --network host: npm ci reaches the registry the host uses (the build base is configured for it);
  # --layers: the operator build reuses every layer of the data plane's, and a code change rebuilds
  # only the layers after COPY operator/dataplane.
  podman build --pull=never --network host --layers -q \
    --build-arg "BUILD_IMAGE=$BUILD_IMAGE" --build-arg "RUNTIME_IMAGE=$RUNTIME_IMAGE" \
    --label "io.streamroute.inputs=$key" \
    -f "Dockerfile.$role" -t "$image" . >"$out/$role.build.log" 2>&1 || {
    log "podman build of $image failed; its log ($out/$role.build.log) ends:"
    tail -30 "$out/$role.build.log" >&2
    exit 1
  }
  save_one "$image" "$archive"
  echo "$key" >"$out/$role.key"
}
save_one() { # image archive
  rm -f "$2.partial"
  podman save -q --format docker-archive -o "$2.partial" "$1"
  mv "$2.partial" "$2"
}
build_one dataplane
build_one operator

env_file="${STREAMROUTE_IMAGES_ENV:-$image_cache/current.env}"
{
  echo "IMAGE_TAG=$tag"
  echo "OPERATOR_IMAGE=localhost/streamroute/operator:$tag"
  echo "DATAPLANE_IMAGE=localhost/streamroute/dataplane:$tag"
  echo "OPERATOR_ARCHIVE=$out/operator.tar"
  echo "DATAPLANE_ARCHIVE=$out/dataplane.tar"
} >"$env_file.partial"

if [ -n "$extra_tag" ]; then
  for role in operator dataplane; do
    extra_archive="$out/$role-$extra_tag.tar"
    podman tag "localhost/streamroute/$role:$tag" "localhost/streamroute/$role:$extra_tag"
    if [ ! -s "$extra_archive" ] || [ "$(cat "$extra_archive.key" 2>/dev/null)" != "$key" ]; then
      log "saving localhost/streamroute/$role:$extra_tag"
      save_one "localhost/streamroute/$role:$extra_tag" "$extra_archive"
      echo "$key" >"$extra_archive.key"
    fi
  done
  {
    echo "EXTRA_TAG=$extra_tag"
    echo "OPERATOR_EXTRA_IMAGE=localhost/streamroute/operator:$extra_tag"
    echo "DATAPLANE_EXTRA_IMAGE=localhost/streamroute/dataplane:$extra_tag"
    echo "OPERATOR_EXTRA_ARCHIVE=$out/operator-$extra_tag.tar"
    echo "DATAPLANE_EXTRA_ARCHIVE=$out/dataplane-$extra_tag.tar"
  } >>"$env_file.partial"
fi
mv "$env_file.partial" "$env_file"

# Keep the archives of the three newest hash-tagged builds (each is ~0.4-0.8 GB) and drop older ones
# with their podman tags; the build stages' layers stay, as the cache of the next build.
keep=3
for old in $(ls -1td "$image_cache"/[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f] 2>/dev/null | tail -n +$((keep + 1))); do
  [ "$old" = "$out" ] && continue
  old_tag="$(basename "$old")"
  log "dropping the old build $old_tag"
  podman rmi -i "localhost/streamroute/operator:$old_tag" "localhost/streamroute/dataplane:$old_tag" >/dev/null 2>&1 || true
  rm -rf "$old"
done
log "done in $((SECONDS - started)) s; written $env_file"
cat "$env_file"
