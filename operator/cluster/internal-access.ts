// The operator's way to the data-plane pods for the live API (decision 0019): the pods come from a watch
// (so a subscription start asks the API server nothing), and each pod is read on its internal listener
// (`--internal-listen-addr`, the container port named `internal`) over TLS, the operator presenting its
// client certificate and checking the pod's serving certificate against the internal CA and one name.
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { corePath } from '../../dataplane/kube/contract.js';
import { errorText, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { runListWatch } from '../../dataplane/kube-client/list-watch.js';
import type { Clock } from '../../dataplane/core/clock.js';
import { DEFAULT_INTERNAL_SERVER_NAME } from '../access/live-api-defaults.js';
import type { Pod } from './pod-admin.js';
import { DATAPLANE_SELECTOR, runningInOrder, type DataplanePod, type PodAccess } from './pod-access.js';

export const DEFAULT_INTERNAL_PORT = 9444;
/** How long pods() waits for the first list before it gives up with the watch's last error. */
const FIRST_LIST_TIMEOUT_MS = 10_000;

export interface InternalTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** The name to check on the pod's certificate (default streamroute-dataplane). */
  serverName?: string;
}

/** The container port named `internal`, else 9444. */
export function internalPort(pod: Pod): number {
  for (const container of pod.spec?.containers ?? []) {
    const port = (container.ports ?? []).find((each) => each.name === 'internal')?.containerPort;
    if (port !== undefined) return port;
  }
  return DEFAULT_INTERNAL_PORT;
}

/** The data-plane pods of a namespace as a watch keeps them. */
export class WatchedPods {
  readonly #pods = new Map<string, DataplanePod>();
  readonly #listed: Promise<void>;
  #lastError = 'the first list has not come back yet';

  constructor(options: {
    api: KubeApi;
    namespace: string;
    clock: Clock;
    logger: Logger;
    signal: AbortSignal;
  }) {
    let listed!: () => void;
    this.#listed = new Promise((resolve) => (listed = resolve));
    void runListWatch<DataplanePod & { metadata: { name: string } }>(
      {
        api: options.api,
        path: corePath('pods', options.namespace),
        labelSelector: DATAPLANE_SELECTOR,
        clock: options.clock,
        signal: options.signal,
      },
      {
        onList: (items) => {
          this.#pods.clear();
          for (const pod of items) this.#pods.set(pod.metadata.name, pod);
          listed();
        },
        onEvent: (type, pod) => {
          if (type === 'DELETED') this.#pods.delete(pod.metadata.name);
          else this.#pods.set(pod.metadata.name, pod);
        },
        onError: (error, backoffMs) => {
          this.#lastError = errorText(error);
          options.logger.warn(
            { event: 'dataplane_pod_watch_failed', error: this.#lastError, backoffMs },
            'watching the data-plane pods failed; retrying',
          );
        },
      },
    );
  }

  /** The running pods once the first list is in; rejects with the watch's error after 10 s without one. */
  async running(): Promise<DataplanePod[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(this.#lastError)), FIRST_LIST_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.#listed, timeout]);
    } finally {
      clearTimeout(timer);
    }
    return runningInOrder(this.#pods.values());
  }
}

/** Pods from `pods`, each read on its internal listener with the operator's client certificate. */
export function internalAccess(pods: Pick<WatchedPods, 'running'>, tls: InternalTls): PodAccess {
  // Kept-alive connections and resumed sessions make a repeated describe a request, not a handshake.
  const agent = new Agent({ keepAlive: true, ca: tls.ca, cert: tls.cert, key: tls.key });
  const servername = tls.serverName ?? DEFAULT_INTERNAL_SERVER_NAME;
  return {
    pods: () => pods.running(),
    get: (pod, path, accept, signal) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const host = pod.status?.podIP;
        if (host === undefined || host === '') {
          reject(new Error(`pod ${pod.metadata.name} has no IP yet`));
          return;
        }
        const outgoing = request(
          {
            host,
            port: internalPort(pod),
            path,
            servername,
            headers: { accept },
            agent,
            ...(signal === undefined ? {} : { signal }),
          },
          resolve,
        );
        outgoing.on('error', reject);
        outgoing.end();
      }),
  };
}
