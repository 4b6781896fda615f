#!/usr/bin/env bash
# Checks the images images.sh built, and measures them:
#   - the CLI runs as the chart runs it (--read-only, user 65532, every capability dropped, no network);
#   - the data plane without its node name exits 2 with a message, at once;
#   - there is no shell in the image, and no native add-on (*.node) in its node_modules;
#   - each archive imports into a throwaway containerd (`ctr images import`, unpacked to overlayfs)
#     under the name the chart uses, and runs there under runc as the image's user, read-only;
#   - sizes: as podman reports them, the archives, the archives gzipped, and the layers.
# Reads the images from current.env (images.sh writes it; $STREAMROUTE_IMAGES_ENV overrides).
#   bash test/cluster/image-check.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test/cluster/image-env.sh
source "$here/image-env.sh"
env_file="${STREAMROUTE_IMAGES_ENV:-$image_cache/current.env}"
[ -s "$env_file" ] || { echo "image-check: $env_file is missing: run test/cluster/images.sh first" >&2; exit 1; }
# shellcheck disable=SC1090
source "$env_file"
failures=0
pass() { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failures=$((failures + 1)); }
# As the chart runs the containers; no network: nothing here needs one.
run=(podman run --rm --network none --read-only --user 65532:65532 --cap-drop ALL --security-opt no-new-privileges)

for image in "$OPERATOR_IMAGE" "$DATAPLANE_IMAGE"; do
  started=$(date +%s%N)
  if version="$(timeout 30 "${run[@]}" "$image" --version 2>&1)"; then
    pass "$image --version: $version ($(( ($(date +%s%N) - started) / 1000000 )) ms, podman's start included)"
  else
    fail "$image --version: $version"
  fi
  if timeout 30 "${run[@]}" --entrypoint /bin/sh "$image" -c true >/dev/null 2>&1; then
    fail "$image has a shell (/bin/sh ran)"
  else
    pass "$image has no /bin/sh"
  fi
  container="$(podman create "$image")"
  addons="$(podman export "$container" | tar -t | grep -E '^app/node_modules/.*\.node$' || true)"
  podman rm -f "$container" >/dev/null
  if [ -z "$addons" ]; then pass "$image has no native add-on"; else fail "$image has native add-ons: $addons"; fi
  pass "$image user, entrypoint, cmd: $(podman image inspect --format '{{.Config.User}} {{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$image")"
done

# No node name: a clear message and exit 2 (usage), not a hang.
set +e
output="$(timeout 30 "${run[@]}" "$DATAPLANE_IMAGE" 2>&1)"
status=$?
set -e
if [ "$status" = 2 ]; then
  pass "dataplane without NODE_NAME exits 2: $output"
else
  fail "dataplane without NODE_NAME: exit $status (wanted 2): $output"
fi

# ---- a throwaway containerd: does `ctr images import` take the archives? ----------------------------
if ! dpkg -s containerd >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends containerd >&2
fi
state="$(mktemp -d /tmp/streamroute-image-check.XXXXXX)"
containerd_pid=""
cleanup() {
  if [ -n "$containerd_pid" ]; then
    kill "$containerd_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$containerd_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # containerd leaves its snapshotter's mounts on stop only if killed hard; unmount what is left.
  grep -o " $state[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount 2>/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT
cat >"$state/config.toml" <<CONF
version = 2
root = "$state/root"
state = "$state/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$state/containerd.sock"
[ttrpc]
  address = "$state/containerd-ttrpc.sock"
CONF
containerd --config "$state/config.toml" >"$state/containerd.log" 2>&1 &
containerd_pid=$!
ctr=(ctr --address "$state/containerd.sock" -n k8s.io)
deadline=$((SECONDS + 30))
until "${ctr[@]}" version >/dev/null 2>&1; do
  if ((SECONDS > deadline)) || ! kill -0 "$containerd_pid" 2>/dev/null; then
    fail "throwaway containerd did not answer on $state/containerd.sock within 30 s; its log ends:"
    tail -5 "$state/containerd.log"
    exit 1
  fi
  sleep 0.2
done
for pair in "$OPERATOR_IMAGE=$OPERATOR_ARCHIVE" "$DATAPLANE_IMAGE=$DATAPLANE_ARCHIVE"; do
  image="${pair%%=*}" archive="${pair#*=}"
  started=$(date +%s%N)
  if timeout 120 "${ctr[@]}" images import "$archive" >"$state/import.log" 2>&1 &&
    "${ctr[@]}" images ls -q | grep -qxF "$image"; then
    pass "ctr images import $(basename "$archive") → $image in $(( ($(date +%s%N) - started) / 1000000 )) ms"
  else
    fail "ctr images import $archive did not give $image: $(cat "$state/import.log")"
  fi
done

# Run by containerd and runc as the kubelet would (the image's user and working directory, read-only
# root): ctr replaces the whole command line, entrypoint included.
set +e
output="$(timeout 60 "${ctr[@]}" run --rm --read-only "$DATAPLANE_IMAGE" "streamroute-image-check-$$" \
  /nodejs/bin/node dist/operator/cli/main.js --version 2>&1)"
status=$?
set -e
uid="$(timeout 60 "${ctr[@]}" run --rm --read-only "$DATAPLANE_IMAGE" "streamroute-image-check-uid-$$" \
  /nodejs/bin/node -p 'process.getuid() + ":" + process.getgid()' 2>&1 || true)"
if [ "$status" = 0 ] && [ "$uid" = 65532:65532 ]; then
  pass "ctr run --read-only $DATAPLANE_IMAGE (runc): --version: $output, as $uid"
else
  fail "ctr run $DATAPLANE_IMAGE --version: exit $status: $output; uid:gid $uid (wanted 65532:65532)"
fi

# ---- sizes ------------------------------------------------------------------------------------------
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
for pair in "$OPERATOR_IMAGE=$OPERATOR_ARCHIVE" "$DATAPLANE_IMAGE=$DATAPLANE_ARCHIVE"; do
  image="${pair%%=*}" archive="${pair#*=}"
  size="$(podman image inspect --format '{{.Size}}' "$image")"
  archive_size="$(stat -c %s "$archive")"
  gzipped="$(gzip -1 -c "$archive" | wc -c)"
  printf 'size  %s: image %s, archive %s, archive gzip -1 %s\n' "$image" "$(mb "$size")" "$(mb "$archive_size")" "$(mb "$gzipped")"
  ((size < 200000000)) || fail "$image is over 200 MB"
done
# Where the bytes go: the data-plane image's layers (the operator's are the same ones).
podman history --format '{{.Size}}|{{.CreatedBy}}' "$DATAPLANE_IMAGE" | awk -F'|' '$1 != "0 B" { printf "layer %-9s %s\n", $1, substr($2, 1, 90) }'

echo "image-check: $failures failure(s)"
((failures == 0))
