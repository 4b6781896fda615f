#!/usr/bin/env bash
# Brings up a real single-node Kubernetes (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, containerd, kubelet, kube-proxy) inside its own network namespace,
# reachable from the host at https://10.251.0.2:6443. Everything lives under
#   ${STREAMROUTE_CLUSTER_DIR:-/tmp/streamroute-cluster}
# and keeps running after this script exits; `bash test/cluster/down.sh` stops it.
# Writes $STATE/cluster.env (KUBECONFIG, NODE_IP, NODE_NAME, NETNS, CONTAINERD_ADDRESS, ...).
# Idempotent: exits 0 at once when this state dir's cluster is healthy; a stale or
# broken one is torn down first. See test/cluster/README.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t0=$SECONDS
[[ $EUID -eq 0 ]] || die "up.sh needs root (network namespaces, mounts, containerd)"

components=(etcd kube-apiserver kube-controller-manager kube-scheduler containerd kubelet kube-proxy)

healthy() {
  local c
  [[ -f "$STATE/cluster.env" ]] || return 1
  for c in "${components[@]}"; do component_pid "$c" >/dev/null || return 1; done
  kubectl_admin get --raw /readyz >/dev/null 2>&1 || return 1
  [[ "$(kubectl_admin get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" == True ]]
}

if healthy; then
  say "cluster in $STATE is already running and healthy (source $STATE/cluster.env)"
  exit 0
fi
if [[ -d "$STATE" ]] || ip netns list 2>/dev/null | grep -qw "$NETNS"; then
  say "stale cluster state in $STATE: tearing it down first"
  bash "$cluster_here/down.sh"
fi

# ---- host prerequisites ------------------------------------------------------
need=()
for pkg in containerd runc containernetworking-plugins iptables conntrack iproute2 util-linux openssl curl buildah; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  say "installing ${need[*]}"
  apt-get install -y --no-install-recommends "${need[@]}" >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends "${need[@]}" >&2; }
fi
command -v kubectl >/dev/null || die "kubectl is required"

bash "$repo_root/test/kube/build.sh" >&2
bins="$(kube_binaries_dir)"
pause_archive="$(bash "$cluster_here/test-images.sh" | awk '$1 == "pause" {print $2}')"

rm -rf "$LOGS" # down.sh keeps the previous cluster's logs until now
mkdir -p "$STATE" "$LOGS" "$PIDS"
echo "$bins" >"$STATE/binaries"

# ---- certificates, network namespace, configs --------------------------------
bash "$cluster_here/pki.sh"

ip netns add "$NETNS"
ip link add "$VETH_HOST" type veth peer name eth0 netns "$NETNS"
ip addr add "$HOST_IP/30" dev "$VETH_HOST"
ip link set "$VETH_HOST" up
in_node ip link set lo up
in_node ip addr add "$NODE_IP/30" dev eth0
in_node ip link set eth0 up
# No default route: nothing in the node can reach past the host. Service IPs still
# need a route for the kernel to pick before kube-proxy's DNAT rewrites them.
in_node ip route add "$SERVICE_CIDR" dev eth0
# The host routes pod IPs to the node, so pods reach peers listening on HOST_IP
# (and the host reaches pods); it goes away with the veth.
ip route add "$POD_CIDR" via "$NODE_IP" dev "$VETH_HOST"
in_node sysctl -qw net.ipv4.ip_forward=1
# Pod-to-pod traffic through a Service on the same bridge must pass iptables.
in_node sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || say "warning: bridge-nf-call-iptables not settable"

bash "$cluster_here/configs.sh"

# ---- control plane -----------------------------------------------------------
start_component etcd "$bins/etcd" \
  --name=node --data-dir="$STATE/etcd" \
  --listen-client-urls=http://127.0.0.1:2379 --advertise-client-urls=http://127.0.0.1:2379 \
  --listen-peer-urls=http://127.0.0.1:2380 --initial-advertise-peer-urls=http://127.0.0.1:2380 \
  --initial-cluster=node=http://127.0.0.1:2380 --listen-metrics-urls=http://127.0.0.1:2381 \
  --unsafe-no-fsync=true --log-level=warn
etcd_ok() { require_running etcd && in_node curl -fsS http://127.0.0.1:2379/health; }
wait_for "etcd /health" 30 "$LOGS/etcd.log" etcd_ok

start_component kube-apiserver "$bins/kube-apiserver" \
  --etcd-servers=http://127.0.0.1:2379 \
  --bind-address=0.0.0.0 --advertise-address="$NODE_IP" --secure-port=6443 \
  --cert-dir="$STATE/apiserver-certs" \
  --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
  --client-ca-file="$PKI/ca.crt" \
  --authorization-mode=Node,RBAC \
  --enable-admission-plugins=NodeRestriction \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
  --service-cluster-ip-range="$SERVICE_CIDR" \
  --kubelet-preferred-address-types=InternalIP \
  --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" \
  --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
  --kubelet-certificate-authority="$PKI/ca.crt" \
  --allow-privileged=true --profiling=false \
  --requestheader-client-ca-file="$PKI/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
  --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
  --requestheader-extra-headers-prefix=X-Remote-Extra- \
  --proxy-client-cert-file="$PKI/front-proxy-client.crt" --proxy-client-key-file="$PKI/front-proxy-client.key"
api_ok() { require_running kube-apiserver && kubectl_admin get --raw /readyz; }
wait_for "kube-apiserver /readyz" 60 "$LOGS/kube-apiserver.log" api_ok

start_component kube-controller-manager "$bins/kube-controller-manager" \
  --kubeconfig="$STATE/controller-manager.kubeconfig" \
  --authentication-kubeconfig="$STATE/controller-manager.kubeconfig" \
  --authorization-kubeconfig="$STATE/controller-manager.kubeconfig" \
  --bind-address=127.0.0.1 --secure-port=10257 --leader-elect=false \
  --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
  --use-service-account-credentials=true \
  --cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" \
  --service-cluster-ip-range="$SERVICE_CIDR" --allocate-node-cidrs=false --profiling=false
start_component kube-scheduler "$bins/kube-scheduler" \
  --kubeconfig="$STATE/scheduler.kubeconfig" \
  --authentication-kubeconfig="$STATE/scheduler.kubeconfig" \
  --authorization-kubeconfig="$STATE/scheduler.kubeconfig" \
  --bind-address=127.0.0.1 --secure-port=10259 --leader-elect=false --profiling=false

# ---- node --------------------------------------------------------------------
start_component containerd /usr/bin/containerd --config "$STATE/containerd/config.toml"
containerd_ok() { require_running containerd && ctr --address "$CONTAINERD_SOCK" version; }
wait_for "containerd on $CONTAINERD_SOCK" 30 "$LOGS/containerd.log" containerd_ok
bash "$cluster_here/load-image.sh" "$pause_archive"

start_component kubelet "$bins/kubelet" \
  --config="$STATE/kubelet/config.yaml" --kubeconfig="$STATE/kubelet.kubeconfig" \
  --root-dir="$STATE/kubelet/root" --node-ip="$NODE_IP" --hostname-override="$NODE_NAME" --v=1
start_component kube-proxy "$bins/kube-proxy" --config="$STATE/kube-proxy.yaml"

node_ready() {
  require_running kubelet && require_running kube-proxy &&
    [[ "$(kubectl_admin get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}
wait_for "node $NODE_NAME Ready" 90 "$LOGS/kubelet.log" node_ready
wait_for "ServiceAccount default/default" 60 "$LOGS/kube-controller-manager.log" \
  kubectl_admin -n default get serviceaccount default
wait_for "ConfigMap default/kube-root-ca.crt" 60 "$LOGS/kube-controller-manager.log" \
  kubectl_admin -n default get configmap kube-root-ca.crt
svc_rules() { in_node iptables -t nat -S KUBE-SERVICES | grep -q "$KUBERNETES_SVC_IP/32"; }
wait_for "kube-proxy rules for the kubernetes Service" 60 "$LOGS/kube-proxy.log" svc_rules

cat >"$STATE/cluster.env" <<EOF
# Written by test/cluster/up.sh; source it to talk to the test cluster.
export KUBECONFIG=$STATE/admin.kubeconfig
export NODE_IP=$NODE_IP
export NODE_NAME=$NODE_NAME
export HOST_IP=$HOST_IP
export NETNS=$NETNS
export CONTAINERD_ADDRESS=$CONTAINERD_SOCK
export CONTAINERD_NAMESPACE=k8s.io
export CLUSTER_STATE_DIR=$STATE
export CLUSTER_LOGS=$LOGS
export POD_CIDR=$POD_CIDR
export SERVICE_CIDR=$SERVICE_CIDR
export KUBERNETES_SERVICE_IP=$KUBERNETES_SVC_IP
export PAUSE_IMAGE=$PAUSE_IMAGE
export KUBE_BINARIES=$bins
EOF
say "cluster up in $((SECONDS - t0))s: source $STATE/cluster.env (logs in $LOGS)"
