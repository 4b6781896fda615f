#!/usr/bin/env bash
# Writes the config files of containerd, CNI, the kubelet and kube-proxy into
# the state dir (run by up.sh; README.md says why each setting is there).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

snap="$(snapshotter)"
mkdir -p "$STATE/containerd" "$STATE/cni/net.d" "$STATE/kubelet" "$STATE/pod-logs"

# containerd 1.6 (config version 2). Every path is under the state dir, so it never
# touches /run/containerd or /var/lib/containerd (the runc shim still puts its
# socket in /run/containerd/s/, hashed with our address: no clash).
cat >"$STATE/containerd/config.toml" <<EOF
version = 2
root = "$STATE/containerd/root"
state = "$STATE/containerd/state"
oom_score = 0

[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$CONTAINERD_SOCK.ttrpc"
[metrics]
  address = ""

[plugins."io.containerd.internal.v1.opt"]
  path = "$STATE/containerd/opt"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # The sandbox may not lower oom_score_adj: without this runc fails every pod
  # with "can't get final child's PID from pipe: EOF".
  restrict_oom_score_adj = true
  # Pod network namespaces pinned under our state dir, not /var/run/netns.
  netns_mounts_under_state_dir = true
  enable_unprivileged_ports = true
  enable_unprivileged_icmp = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "$snap"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$STATE/containerd/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
    max_conf_num = 1
EOF

# One bridge (cni0) in the node netns; pods get 10.252.0.x with the bridge as
# gateway. No masquerade: pods talk only to the node and to each other.
# containerd adds the loopback interface itself (the loopback plugin).
cat >"$STATE/cni/net.d/10-streamroute.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "streamroute",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{ "subnet": "$POD_CIDR" }]],
        "routes": [{ "dst": "0.0.0.0/0" }],
        "dataDir": "$STATE/cni/ipam"
      }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF

cat >"$STATE/kubelet/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
tlsCertFile: $PKI/kubelet-server.crt
tlsPrivateKeyFile: $PKI/kubelet-server.key
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $PKI/ca.crt }
authorization:
  mode: Webhook
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
# This machine: cgroup v1, no systemd, a sandbox that may not create the QoS
# cgroup tree nor enforce allocatable, and no swap accounting.
cgroupDriver: cgroupfs
failCgroupV1: false
cgroupsPerQOS: false
enforceNodeAllocatable: []
failSwapOn: false
podLogsDir: $STATE/pod-logs
# Images cannot be pulled again here: never garbage-collect them, and evict
# only when the disk is really full.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard:
  memory.available: 100Mi
  nodefs.available: 1%
  imagefs.available: 1%
  nodefs.inodesFree: 1%
serializeImagePulls: false
rotateCertificates: false
serverTLSBootstrap: false
EOF

cat >"$STATE/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clientConnection:
  kubeconfig: $STATE/kube-proxy.kubeconfig
hostnameOverride: $NODE_NAME
bindAddress: $NODE_IP
clusterCIDR: $POD_CIDR
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# SNAT Service traffic too: a pod reaching a Service backed by a pod on the same
# bridge then gets its reply back through the node, un-DNATed.
iptables:
  masqueradeAll: true
# Leave the conntrack sysctls alone (nf_conntrack_max is machine-wide).
conntrack:
  maxPerCore: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
EOF
