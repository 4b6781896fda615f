# Shared settings and helpers of the single-node test cluster (sourced by up.sh,
# down.sh, restart.sh, load-image.sh, smoke.sh, test-images.sh). Not run directly.

cluster_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$cluster_here/../.." && pwd)"

STATE="${STREAMROUTE_CLUSTER_DIR:-/tmp/streamroute-cluster}"
CACHE="${STREAMROUTE_CLUSTER_CACHE:-${HOME:-/root}/.cache/streamroute/cluster}"
# The node lives in its own network namespace; the host reaches it over a veth pair.
NETNS="${STREAMROUTE_CLUSTER_NETNS:-streamroute-node}"
VETH_HOST="${STREAMROUTE_CLUSTER_VETH:-srnode0}"
HOST_IP=10.251.0.1
NODE_IP=10.251.0.2
NODE_NAME=streamroute-node
POD_CIDR=10.252.0.0/24
SERVICE_CIDR=10.96.0.0/24
KUBERNETES_SVC_IP=10.96.0.1
PAUSE_IMAGE=localhost/streamroute/pause:3.10
ECHO_IMAGE=localhost/streamroute/echo:test

CONTAINERD_SOCK="$STATE/containerd/containerd.sock"
LOGS="$STATE/logs"
PIDS="$STATE/pids"
PKI="$STATE/pki"

say() { echo "[cluster] $*" >&2; }
die() { echo "[cluster] ERROR: $*" >&2; exit 1; }

# Pick the snapshotter once per state dir: overlayfs where the kernel and the
# filesystem under STATE allow it, else native (plain copies, slower but works anywhere).
snapshotter() {
  if [[ -f "$STATE/snapshotter" ]]; then cat "$STATE/snapshotter"; return; fi
  local t s=native
  t="$(mktemp -d "$STATE/.ovl.XXXXXX")"
  mkdir -p "$t/l" "$t/u" "$t/w" "$t/m"
  if mount -t overlay overlay -o "lowerdir=$t/l,upperdir=$t/u,workdir=$t/w" "$t/m" 2>/dev/null; then
    umount "$t/m"
    s=overlayfs
  fi
  rm -rf "$t"
  echo "$s" >"$STATE/snapshotter"
  echo "$s"
}

# Runs a command in the node's network namespace. nsenter --net (rather than
# `ip netns exec`) keeps the host's mount namespace: `ip netns exec` remounts
# /sys, which hides /sys/fs/cgroup from the kubelet and runc, and it would put
# the kubelet's and containerd's mounts in a private namespace that a restarted
# kubelet or down.sh could not see.
in_node() { nsenter --net="/run/netns/$NETNS" -- "$@"; }

ctr_node() { ctr --address "$CONTAINERD_SOCK" --namespace k8s.io "$@"; }

pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

# PID recorded for a component, if that process still runs the same binary.
component_pid() {
  local name="$1" pid exe
  [[ -f "$PIDS/$name.pid" ]] || return 1
  read -r pid exe <"$PIDS/$name.pid" || return 1
  pid_alive "$pid" || return 1
  [[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" == "$exe" ]] || return 1
  echo "$pid"
}

# start_component NAME BINARY ARGS...: runs BINARY in the node netns, detached
# from this shell (its own session, stdin closed) so it outlives up.sh, output
# appended to $LOGS/NAME.log; records "PID BINARY" in $PIDS/NAME.pid.
start_component() {
  local name="$1" bin="$2"
  shift 2
  mkdir -p "$LOGS" "$PIDS" "$STATE/cmd"
  # restart.sh starts it again with exactly this command line.
  printf '%q ' "$bin" "$@" >"$STATE/cmd/$name"
  echo "==== $(date -u +%FT%TZ) start: $bin $*" >>"$LOGS/$name.log"
  # setsid and nsenter both exec in place (this background child is not a
  # process-group leader), so $! is the component's own PID.
  setsid nsenter --net="/run/netns/$NETNS" -- "$bin" "$@" </dev/null >>"$LOGS/$name.log" 2>&1 &
  local pid=$! exe i
  exe="$(readlink -f "$bin")"
  echo "$pid $exe" >"$PIDS/$name.pid"
  # Wait for the exec chain, so component_pid recognises it from here on.
  for ((i = 0; i < 50; i++)); do
    [[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" == "$exe" ]] && return 0
    pid_alive "$pid" || return 0
    sleep 0.05
  done
}

# stop_pid PID [GRACE_SECONDS]: SIGTERM, then SIGKILL after the grace period.
stop_pid() {
  local pid="$1" grace="${2:-10}" i
  pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    pid_alive "$pid" || return 0
    # A zombie child of ours counts as gone.
    [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" == Z ]] && return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

stop_component() {
  local name="$1" pid
  if pid="$(component_pid "$name")"; then stop_pid "$pid" "${2:-10}"; fi
  rm -f "$PIDS/$name.pid"
}

# wait_for WHAT SECONDS LOG CMD...: polls CMD every 0.5 s until it succeeds;
# on timeout prints what it waited for and the tail of LOG, and fails.
wait_for() {
  local what="$1" secs="$2" log="$3" start=$SECONDS
  shift 3
  say "waiting for $what (up to ${secs}s)"
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS - start >= secs)); then
      echo "[cluster] gave up after ${secs}s waiting for $what" >&2
      if [[ -n "$log" && -f "$log" ]]; then
        echo "[cluster] last lines of $log:" >&2
        tail -n 40 "$log" >&2
      fi
      return 1
    fi
    sleep 0.5
  done
  say "ok: $what ($((SECONDS - start))s)"
}

# Fails fast (with the log tail) when a component died while we wait on it.
require_running() {
  local name="$1"
  component_pid "$name" >/dev/null && return 0
  echo "[cluster] $name is not running; last lines of $LOGS/$name.log:" >&2
  tail -n 40 "$LOGS/$name.log" >&2 || true
  return 1
}

kube_binaries_dir() { bash "$repo_root/test/kube/build.sh" --print-dir; }

kubectl_admin() { kubectl --kubeconfig "$STATE/admin.kubeconfig" "$@"; }
