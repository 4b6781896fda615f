#!/usr/bin/env bash
# Writes the test cluster's certificates and kubeconfigs into $STATE/pki (run by up.sh):
# one CA (EC P-256, 7 days) signing the API server's and kubelet's serving certs and a
# client cert per identity; a ServiceAccount token signing key pair; one kubeconfig per
# component, all pointing at https://NODE_IP:6443.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$PKI"
cd "$PKI"
umask 077
days=7
newkey=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)

openssl req -x509 "${newkey[@]}" -keyout ca.key -out ca.crt -days "$days" -subj /CN=streamroute-cluster-ca \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null

# sign NAME SUBJECT EXTENSIONS: NAME.key + NAME.crt signed by the CA.
sign() {
  local name="$1" subj="$2" ext="$3"
  openssl req -new "${newkey[@]}" -keyout "$name.key" -out "$name.csr" -subj "$subj" 2>/dev/null
  printf '%b' "$ext" >"$name.ext"
  openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -set_serial "0x$(openssl rand -hex 8)" \
    -days "$days" -extfile "$name.ext" -out "$name.crt" 2>/dev/null
  rm -f "$name.csr" "$name.ext"
}
server_ext() { printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n' "$1"; }
client_ext='extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n'

# The API server is reached at the node IP (host and kubelet), 127.0.0.1 (in the node)
# and the `kubernetes` Service IP (pods).
sign apiserver /CN=kube-apiserver "$(server_ext "IP:$NODE_IP,IP:127.0.0.1,IP:$KUBERNETES_SVC_IP,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local")"
# The API server verifies this one (--kubelet-certificate-authority) for logs/exec/port-forward.
sign kubelet-server "/CN=$NODE_NAME" "$(server_ext "IP:$NODE_IP,DNS:$NODE_NAME")"

# Client identities: RBAC's bootstrap roles are bound to these user names; the
# Node authorizer wants system:node:<name> in group system:nodes.
sign admin "/O=system:masters/CN=streamroute-admin" "$client_ext"
sign apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "$client_ext"
sign controller-manager /CN=system:kube-controller-manager "$client_ext"
sign scheduler /CN=system:kube-scheduler "$client_ext"
sign kube-proxy /CN=system:kube-proxy "$client_ext"
sign kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" "$client_ext"

# The front proxy, as kubeadm sets it up: a CA of its own and the client certificate the API server
# proxies aggregated APIs (the operator's live API) with.
openssl req -x509 "${newkey[@]}" -keyout front-proxy-ca.key -out front-proxy-ca.crt -days "$days" \
  -subj /CN=front-proxy-ca -addext basicConstraints=critical,CA:TRUE \
  -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
openssl req -new "${newkey[@]}" -keyout front-proxy-client.key -out front-proxy-client.csr \
  -subj /CN=front-proxy-client 2>/dev/null
printf '%b' "$client_ext" >front-proxy-client.ext
openssl x509 -req -in front-proxy-client.csr -CA front-proxy-ca.crt -CAkey front-proxy-ca.key \
  -set_serial "0x$(openssl rand -hex 8)" -days "$days" -extfile front-proxy-client.ext \
  -out front-proxy-client.crt 2>/dev/null
rm -f front-proxy-client.csr front-proxy-client.ext

openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out sa.key
openssl ec -in sa.key -pubout -out sa.pub 2>/dev/null

for who in admin controller-manager scheduler kube-proxy kubelet; do
  cat >"$STATE/$who.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: streamroute
  cluster:
    server: https://$NODE_IP:6443
    certificate-authority: $PKI/ca.crt
users:
- name: $who
  user:
    client-certificate: $PKI/$who.crt
    client-key: $PKI/$who.key
contexts:
- name: streamroute
  context: {cluster: streamroute, user: $who}
current-context: streamroute
EOF
done
chmod 644 ca.crt
