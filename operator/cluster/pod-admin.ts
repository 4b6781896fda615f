// A GET to a data-plane pod's admin API through a port-forward of the API server (port-forward.ts): the
// admin API listens on the pod's loopback only. One forward per call, closed when the response ends, so
// a long subscription holds one websocket and a describe opens and closes its own.
import { request, type IncomingMessage } from 'node:http';
import { connectionOf } from '../../dataplane/kube-client/kube-api.js';
import type { Cluster } from './cluster-target.js';
import { forwardPort, type ApiConnection, type ForwardHooks } from './port-forward.js';

export const DEFAULT_ADMIN_PORT = 8081;

export interface Pod {
  metadata: { name: string };
  spec?: { containers?: { ports?: { name?: string; containerPort?: number }[] }[] };
  status?: { phase?: string; podIP?: string };
}

/** The container port named `admin` (declared by the chart, bound on 127.0.0.1), else 8081. */
export function adminPort(pod: Pod): number {
  for (const container of pod.spec?.containers ?? []) {
    const port = (container.ports ?? []).find((each) => each.name === 'admin')?.containerPort;
    if (port !== undefined) return port;
  }
  return DEFAULT_ADMIN_PORT;
}

/** A port-forward needs a running container. */
export function reachable(pod: Pod): boolean {
  return pod.status?.phase === 'Running';
}

/** The API connection of a cluster (kubeconfig credentials), loaded once per Cluster. */
const connections = new WeakMap<Cluster, ApiConnection>();
export function apiConnection(cluster: Cluster): ApiConnection {
  let connection = connections.get(cluster);
  if (connection === undefined) {
    connection = connectionOf(cluster.options);
    connections.set(cluster, connection);
  }
  return connection;
}

export interface PodGet {
  cluster: Cluster;
  namespace: string;
  pod: Pod;
  /** Path and query on the admin API, e.g. `/v1/domains/shop/ingestors/web-in`. */
  path: string;
  accept: string;
  signal?: AbortSignal;
  /** Tests: the connection and websocket to use. */
  connection?: ApiConnection;
  hooks?: Pick<ForwardHooks, 'open'>;
}

/**
 * The admin API's response (any status) through a fresh port-forward, which closes when the response
 * ends. A refused forward rejects with the API server's or kubelet's reason.
 */
export async function podAdminGet(spec: PodGet): Promise<IncomingMessage> {
  let reason: Error | undefined;
  const forward = await forwardPort(
    spec.connection ?? apiConnection(spec.cluster),
    { namespace: spec.namespace, pod: spec.pod.metadata.name, port: adminPort(spec.pod) },
    { ...spec.hooks, onError: (error) => (reason ??= error) },
  );
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port: forward.port,
          path: spec.path,
          headers: { accept: spec.accept },
          agent: false,
          ...(spec.signal === undefined ? {} : { signal: spec.signal }),
        },
        resolve,
      );
      outgoing.on('error', (error) => reject(reason ?? error));
      outgoing.end();
    });
    response.once('close', () => void forward.close());
    return response;
  } catch (error: unknown) {
    await forward.close();
    throw error;
  }
}
