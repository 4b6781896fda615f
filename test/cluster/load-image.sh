#!/usr/bin/env bash
# Imports image archives (docker-archive or oci-archive tars) into the running
# test node's containerd, in the k8s.io namespace the kubelet uses, unpacked
# for the node's snapshotter. Pods then use them with imagePullPolicy Never or
# IfNotPresent (no registry is reachable).
#
#   bash test/cluster/load-image.sh ARCHIVE...
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

(($# > 0)) || die "usage: load-image.sh ARCHIVE..."
[[ -S "$CONTAINERD_SOCK" ]] || die "no containerd socket at $CONTAINERD_SOCK; run test/cluster/up.sh first"
snap="$(snapshotter)"
for archive in "$@"; do
  [[ -f "$archive" ]] || die "no such archive: $archive"
  start=$SECONDS
  ctr_node images import --snapshotter "$snap" "$archive" >&2
  say "imported $archive ($((SECONDS - start))s)"
done
