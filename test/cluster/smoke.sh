#!/usr/bin/env bash
# Proves the cluster of up.sh runs real pods: a hostNetwork pod and a bridge pod of the
# pause image, an echo server whose `kubectl logs` and `kubectl port-forward` work, a
# ClusterIP Service reached from another pod, the API server reached from a pod through
# the `kubernetes` Service with its projected token, and pods + node surviving a
# kubelet and a containerd restart. Run after up.sh:  bash test/cluster/smoke.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ -f "$STATE/cluster.env" ]] || die "no cluster in $STATE; run test/cluster/up.sh first"
source "$STATE/cluster.env"
t0=$SECONDS
ns=smoke
pf_pid=""
cleanup() {
  [[ -n "$pf_pid" ]] && kill "$pf_pid" 2>/dev/null
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
}
trap cleanup EXIT

echo_archive="$(bash "$cluster_here/test-images.sh" | awk '$1 == "echo" {print $2}')"
bash "$cluster_here/load-image.sh" "$echo_archive"

kubectl delete namespace "$ns" --ignore-not-found --wait=true --timeout=60s >/dev/null
kubectl create namespace "$ns" >/dev/null
wait_for "ServiceAccount $ns/default" 30 "$LOGS/kube-controller-manager.log" kubectl -n "$ns" get sa default

kubectl -n "$ns" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: { name: pause-host }
spec:
  hostNetwork: true
  containers: [{ name: pause, image: $PAUSE_IMAGE, imagePullPolicy: Never }]
---
apiVersion: v1
kind: Pod
metadata: { name: pause-bridge }
spec:
  containers: [{ name: pause, image: $PAUSE_IMAGE, imagePullPolicy: Never }]
---
apiVersion: v1
kind: Pod
metadata: { name: echo, labels: { app: echo } }
spec:
  containers:
  - name: echo
    image: $ECHO_IMAGE
    imagePullPolicy: Never
    args: [serve, "8080"]
    ports: [{ containerPort: 8080 }]
    readinessProbe: { httpGet: { path: /ready, port: 8080 }, periodSeconds: 1 }
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }
---
apiVersion: v1
kind: Service
metadata: { name: echo }
spec:
  selector: { app: echo }
  ports: [{ port: 80, targetPort: 8080 }]
EOF
for p in pause-host pause-bridge echo; do
  wait_for "pod $ns/$p Ready" 60 "$LOGS/kubelet.log" kubectl -n "$ns" wait --for=condition=Ready "pod/$p" --timeout=2s
done
kubectl -n "$ns" get pods -o wide
host_ip="$(kubectl -n "$ns" get pod pause-host -o jsonpath='{.status.podIP}')"
bridge_ip="$(kubectl -n "$ns" get pod pause-bridge -o jsonpath='{.status.podIP}')"
[[ "$host_ip" == "$NODE_IP" ]] || die "hostNetwork pod has IP $host_ip, want $NODE_IP"
[[ "$bridge_ip" == 10.252.0.* ]] || die "bridge pod has IP $bridge_ip, want one in $POD_CIDR"
say "ok: hostNetwork pod on $host_ip, bridge pod on $bridge_ip"

# kubectl logs: the API server reaches the kubelet on the node IP with its client cert.
wait_for "kubectl logs echo shows 'listening'" 20 "" bash -c "kubectl -n $ns logs echo | grep -q listening"
say "ok: kubectl logs"

# A pod reaches the echo ClusterIP Service (kube-proxy DNAT + SNAT on the same bridge)...
svc_ip="$(kubectl -n "$ns" get svc echo -o jsonpath='{.spec.clusterIP}')"
run_job() { # NAME ARGS...: a one-shot pod of the echo image; prints its logs, fails if it failed
  local name="$1"
  shift
  kubectl -n "$ns" run "$name" --image="$ECHO_IMAGE" --image-pull-policy=Never --restart=Never -- "$@" >/dev/null
  wait_for "pod $ns/$name to finish" 60 "$LOGS/kubelet.log" bash -c \
    "kubectl -n $ns get pod $name -o jsonpath='{.status.phase}' | grep -qE 'Succeeded|Failed'"
  kubectl -n "$ns" logs "$name"
  [[ "$(kubectl -n "$ns" get pod "$name" -o jsonpath='{.status.phase}')" == Succeeded ]]
}
out="$(run_job fetch-svc fetch "http://$svc_ip/via-service")" || die "fetch through Service $svc_ip failed: $out"
grep -q 'echo from echo /via-service' <<<"$out" || die "unexpected answer through the Service: $out"
say "ok: pod -> ClusterIP Service $svc_ip -> echo pod"

# ... and the API server through the `kubernetes` Service with its projected SA token.
out="$(run_job whoami whoami-apiserver)" || die "pod could not reach the API server: $out"
grep -q "system:serviceaccount:$ns:default" <<<"$out" || die "unexpected SelfSubjectReview: $out"
say "ok: pod -> kubernetes Service $KUBERNETES_SERVICE_IP -> API server as system:serviceaccount:$ns:default"

# A bridge pod reaches a peer on the host side of the veth (HOST_IP), and back.
mkdir -p "$STATE/smoke-www" && echo "hello from the host" >"$STATE/smoke-www/index.html"
python3 -m http.server 18181 --bind "$HOST_IP" --directory "$STATE/smoke-www" >"$LOGS/smoke-http.log" 2>&1 &
http_pid=$!
out="$(run_job fetch-host fetch "http://$HOST_IP:18181/")" || { kill "$http_pid"; die "pod could not reach $HOST_IP: $out"; }
kill "$http_pid" 2>/dev/null || true
grep -q 'hello from the host' <<<"$out" || die "unexpected answer from the host peer: $out"
say "ok: bridge pod -> host peer on $HOST_IP"

# kubectl port-forward from the host to the echo pod.
pf_log="$LOGS/smoke-port-forward.log"
kubectl -n "$ns" port-forward pod/echo 18080:8080 >"$pf_log" 2>&1 &
pf_pid=$!
wait_for "port-forward 127.0.0.1:18080 -> echo" 20 "$pf_log" curl -fsS -m 2 http://127.0.0.1:18080/pf
curl -fsS -m 2 http://127.0.0.1:18080/via-port-forward | grep -q 'echo from echo' || die "port-forward answered wrongly"
kill "$pf_pid" 2>/dev/null || true
pf_pid=""
say "ok: kubectl port-forward"

# Kubelet and containerd crashes: pods keep running (same containers), node stays Ready.
before="$(kubectl -n "$ns" get pods pause-host pause-bridge echo -o jsonpath='{range .items[*]}{.status.containerStatuses[0].containerID} {end}')"
for c in kubelet containerd; do
  bash "$cluster_here/restart.sh" "$c"
done
sleep 3
for p in pause-host pause-bridge echo; do
  wait_for "pod $ns/$p Ready after the restarts" 60 "$LOGS/kubelet.log" kubectl -n "$ns" wait --for=condition=Ready "pod/$p" --timeout=2s
done
after="$(kubectl -n "$ns" get pods pause-host pause-bridge echo -o jsonpath='{range .items[*]}{.status.containerStatuses[0].containerID} {end}')"
[[ "$before" == "$after" ]] || die "containers changed across the restarts: before [$before] after [$after]"
restarts="$(kubectl -n "$ns" get pods pause-host pause-bridge echo -o jsonpath='{range .items[*]}{.status.containerStatuses[0].restartCount}{end}')"
[[ "$restarts" == 000 ]] || die "containers restarted across the kubelet/containerd restarts: $restarts"
wait_for "kubectl logs after the restarts" 20 "" bash -c "kubectl -n $ns logs echo | grep -q listening"
say "ok: pods kept running (same containers, no restarts) across kubelet and containerd restarts"
out="$(run_job fetch-after fetch "http://$svc_ip/after-restarts")" || die "new pod after the restarts failed: $out"
say "ok: a new pod starts and reaches the Service after the restarts"

say "smoke check passed in $((SECONDS - t0))s"
