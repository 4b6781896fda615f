// Registering the operator's live API (decision 0019) on the test API server, as a cluster would but on
// loopback, and reading its streams: shared by its e2e test and its benchmark.
import { request } from 'node:https';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { LIVE_GROUP, LIVE_VERSION } from '../../operator/access/aggregated-api.js';
import { eventually } from './cluster-processes.js';
import type { KubeTestServer } from './kube-apiserver.js';
import { applyRaw } from './kube-client.js';

export const LIVE_SYSTEM = 'streamroute-system';
export const LIVE_SERVICE = 'streamroute-live';

export const READER_ROLE = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'streamroute-live-reader' },
  rules: [
    {
      apiGroups: [LIVE_GROUP],
      resources: [
        'relays/log',
        'httpingestors/describe',
        'syslogingestors/describe',
        'topicingestors/describe',
        'emitters/describe',
      ],
      verbs: ['get'],
    },
  ],
};

/**
 * Registers the live API as a cluster would, but on loopback: an ExternalName Service (Endpoints may not
 * name a loopback address, and there is no kube-proxy here); resolves once the APIService is Available.
 */
export async function register(server: KubeTestServer, port: number, caBundle: Buffer): Promise<void> {
  const admin = new KubeApi({
    kubeconfig: server.kubeconfigPath,
    rateLimit: { qps: 100, burst: 100 },
    userAgent: 'live-api-test',
  });
  await applyRaw(server, `/api/v1/namespaces/${LIVE_SYSTEM}/services/${LIVE_SERVICE}`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: LIVE_SERVICE, namespace: LIVE_SYSTEM },
    spec: { type: 'ExternalName', externalName: 'localhost' },
  });
  const apiService = `${LIVE_VERSION}.${LIVE_GROUP}`;
  await applyRaw(server, `/apis/apiregistration.k8s.io/v1/apiservices/${apiService}`, {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: apiService },
    spec: {
      group: LIVE_GROUP,
      version: LIVE_VERSION,
      groupPriorityMinimum: 1000,
      versionPriority: 15,
      service: { namespace: LIVE_SYSTEM, name: LIVE_SERVICE, port },
      caBundle: caBundle.toString('base64'),
    },
  });
  await eventually(
    'the APIService to be Available',
    async () => {
      const object = await admin.request<{ status?: { conditions?: { type: string; status: string }[] } }>({
        path: `/apis/apiregistration.k8s.io/v1/apiservices/${apiService}`,
      });
      return object.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True');
    },
    60_000,
  );
}

/**
 * A data-plane Pod as the kubelet would report it (there is no kubelet here): Running, its IP `ip`, its
 * internal listener on `internalPort`, labelled as the chart labels the DaemonSet's pods.
 */
export async function registerDataplanePod(
  server: KubeTestServer,
  admin: KubeApi,
  namespace: string,
  pod: { name: string; ip: string; internalPort: number },
): Promise<void> {
  const path = `/api/v1/namespaces/${namespace}/pods/dataplane-${pod.name}`;
  await applyRaw(server, path, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `dataplane-${pod.name}`,
      namespace,
      labels: { 'app.kubernetes.io/name': 'streamroute', 'app.kubernetes.io/component': 'dataplane' },
    },
    spec: {
      nodeName: pod.name,
      containers: [
        {
          name: 'dataplane',
          image: 'streamroute-dataplane:test',
          ports: [{ name: 'internal', containerPort: pod.internalPort }],
        },
      ],
    },
  });
  await admin.request({
    method: 'PATCH',
    path: `${path}/status`,
    contentType: 'application/merge-patch+json',
    body: { status: { phase: 'Running', podIP: pod.ip, podIPs: [{ ip: pod.ip }] } },
  });
}

/** The first line of a streamed answer; the request is cut after it. */
export function firstLine(url: string, auth: { cert: string; key: string; ca: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = request(url, { ...auth, agent: false }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        const newline = text.indexOf('\n');
        if (newline < 0) return;
        req.destroy();
        resolve(text.slice(0, newline));
      });
    });
    req.on('error', (error) => (text.includes('\n') ? undefined : reject(error)));
    req.end();
  });
}
