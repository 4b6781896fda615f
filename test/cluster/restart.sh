#!/usr/bin/env bash
# Kills one node component of the running test cluster (SIGKILL: a crash, not a
# clean stop) and starts it again with the same command line, then waits until
# it serves again. Running pods must survive both.
#
#   bash test/cluster/restart.sh kubelet|containerd [--graceful]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

name="${1:-}"
[[ "$name" == kubelet || "$name" == containerd ]] || die "usage: restart.sh kubelet|containerd [--graceful]"
[[ -f "$STATE/cmd/$name" ]] || die "no $name command line in $STATE/cmd; is the cluster up (test/cluster/up.sh)?"
t0=$SECONDS

if pid="$(component_pid "$name")"; then
  if [[ "${2:-}" == --graceful ]]; then
    stop_pid "$pid" 10
  else
    kill -KILL "$pid"
    for _ in $(seq 50); do pid_alive "$pid" || break; sleep 0.1; done
  fi
  say "$name (pid $pid) stopped"
else
  say "$name was not running"
fi

eval "cmd=($(cat "$STATE/cmd/$name"))"
# shellcheck disable=SC2154
start_component "$name" "${cmd[@]}"

case "$name" in
  containerd)
    containerd_ok() { require_running containerd && ctr --address "$CONTAINERD_SOCK" version; }
    wait_for "containerd on $CONTAINERD_SOCK" 30 "$LOGS/containerd.log" containerd_ok
    ;;
  kubelet)
    kubelet_ok() { require_running kubelet && in_node curl -fsS http://127.0.0.1:10248/healthz; }
    wait_for "kubelet /healthz" 60 "$LOGS/kubelet.log" kubelet_ok
    ;;
esac
node_ready() {
  [[ "$(kubectl_admin get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}
wait_for "node $NODE_NAME Ready" 60 "$LOGS/kubelet.log" node_ready
say "$name restarted in $((SECONDS - t0))s"
