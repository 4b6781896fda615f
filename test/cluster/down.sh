#!/usr/bin/env bash
# Tears down the test cluster of up.sh: stops every component by its recorded PID,
# every container and runc shim of our containerd, unmounts what the kubelet and
# containerd mounted under the state dir, deletes the network namespace (with the
# veth pair, the cni0 bridge and kube-proxy's iptables rules in it), and removes the
# state dir except logs/. Safe to run when nothing (or half a cluster) is there.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t0=$SECONDS
[[ $EUID -eq 0 ]] || die "down.sh needs root"

# Processes whose command line names our containerd socket: the runc shims.
our_shims() {
  local d
  for d in /proc/[0-9]*; do
    tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -q -- "containerd-shim.* -address $CONTAINERD_SOCK" && echo "${d#/proc/}"
  done
  return 0
}
# PID and all its descendants (containers are children of their shim).
descendants() {
  local pid="$1" child
  echo "$pid"
  for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do descendants "$child"; done
}

# 1. The node agents first, so nothing restarts the containers we stop.
for c in kube-proxy kubelet kube-scheduler kube-controller-manager; do stop_component "$c" 10; done

# 2. Containers: delete every task through containerd (runc removes its cgroups,
#    the shims exit cleanly), then stop containerd.
container_ids=()
if component_pid containerd >/dev/null && [[ -S "$CONTAINERD_SOCK" ]]; then
  mapfile -t container_ids < <(timeout 10 ctr --address "$CONTAINERD_SOCK" -n k8s.io containers ls -q 2>/dev/null || true)
  for id in $(timeout 10 ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks ls -q 2>/dev/null || true); do
    timeout 10 ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks kill -a -s SIGKILL "$id" >/dev/null 2>&1 || true
  done
  for id in $(timeout 10 ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks ls -q 2>/dev/null || true); do
    timeout 15 ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks delete -f "$id" >/dev/null 2>&1 || true
  done
fi
stop_component containerd 10

# 3. Whatever survived: shims of our socket with their containers, then anything
#    still running inside the node's network namespace (hostNetwork containers).
for shim in $(our_shims); do
  for pid in $(descendants "$shim"); do kill -KILL "$pid" 2>/dev/null || true; done
done
if ip netns list 2>/dev/null | grep -qw "$NETNS"; then
  for pid in $(ip netns pids "$NETNS" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
fi
stop_component kube-apiserver 10
stop_component etcd 10
for _ in $(seq 50); do
  [[ -z "$(our_shims)" ]] && break
  sleep 0.1
done

# 4. Mounts under the state dir (pod volumes, rootfs, shm, pinned pod netns, the
#    kubelet's rshared root-dir bind): deepest first, lazily if busy.
if [[ -d "$STATE" ]]; then
  for _ in 1 2 3; do
    mapfile -t mnts < <(awk -v s="$STATE/" 'index($5, s) == 1 {print $5}' /proc/self/mountinfo | sort -r)
    ((${#mnts[@]})) || break
    for m in "${mnts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  done
fi

# 5. The network namespace; deleting it drops the veth pair, cni0 and the
#    iptables rules kube-proxy and portmap wrote there.
if ip netns list 2>/dev/null | grep -qw "$NETNS"; then ip netns delete "$NETNS"; fi
if ip link show "$VETH_HOST" >/dev/null 2>&1; then ip link delete "$VETH_HOST"; fi

# 6. Leftovers outside the state dir: empty cgroups of killed containers, the
#    kubelet's /var/log/containers links into our pod logs.
for id in "${container_ids[@]}"; do
  [[ -n "$id" ]] || continue
  find /sys/fs/cgroup -depth -type d -name "$id" -exec rmdir {} + 2>/dev/null || true
done
# containerd puts pod cgroups under <controller>/k8s.io; rmdir only removes it if empty.
for d in /sys/fs/cgroup/*/k8s.io; do [[ -d "$d" ]] && rmdir "$d" 2>/dev/null || true; done
# The kubelet always registers its device-plugin socket under /var/lib/kubelet.
rm -f /var/lib/kubelet/device-plugins/kubelet.sock
if [[ -d /var/log/containers ]]; then
  find /var/log/containers -maxdepth 1 -type l -lname "$STATE/*" -delete 2>/dev/null || true
fi

# 7. The state itself; logs stay for post-mortems (up.sh starts them afresh).
if [[ -d "$STATE" ]]; then
  if awk -v s="$STATE/" 'index($5, s) == 1 {f = 1} END {exit !f}' /proc/self/mountinfo; then
    say "warning: mounts still under $STATE; leaving it in place"
  else
    find "$STATE" -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf {} +
  fi
fi
say "cluster down in $((SECONDS - t0))s (logs kept in $LOGS)"
