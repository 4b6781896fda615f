// Cluster mode of the CLI: chosen by --kubeconfig FILE and/or --context NAME (before or after the
// command), or by $STREAMROUTE_KUBECONFIG; without them the CLI talks to the embedded node. The domain
// is the namespace: -d, else the kubeconfig context's namespace, else `default`. Every request goes
// through KubeApi behind the CLI's rate limit.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isStatus,
  KubeApi,
  KubeApiError,
  missingCrd,
  missingCrdText,
  type RequestSpec,
} from '../../dataplane/kube-client/kube-api.js';
import type { RateLimit } from '../../dataplane/kube-client/token-bucket.js';
import { ClusterError, networkReason, UnreachableClusterError } from '../client/errors.js';
import { InputError } from '../language/input-error.js';
import type { ClusterOptions } from '../client/target-rule.js';

export { KUBECONFIG_ENV, type ClusterOptions } from '../client/target-rule.js';

export const CLI_RATE_LIMIT: RateLimit = { qps: 20, burst: 40 };

/** A connection to the API server, and the namespace (domain) commands work in. */
export interface Cluster {
  api: KubeApi;
  namespace: string;
  /** How it was chosen: streams (pod proxy) load the same kubeconfig. */
  options: ClusterOptions;
}

/** Opens the connection; a kubeconfig that cannot be read is an InputError (exit 3). */
export function connect(options: ClusterOptions, domain: string | undefined): Cluster {
  let api: KubeApi;
  try {
    api = new KubeApi({ ...options, rateLimit: CLI_RATE_LIMIT, userAgent: 'streamroute-cli' });
  } catch (error: unknown) {
    const where = options.kubeconfig ?? 'the default kubeconfig';
    throw new InputError(
      `cannot use ${where}${options.context === undefined ? '' : ` (context ${options.context})`}: ${networkReason(error)}`,
    );
  }
  return { api, namespace: domain ?? api.defaultNamespace ?? 'default', options };
}

export { ClusterError } from '../client/errors.js';

/** Runs an API call; a failure that is not an API answer (no connection, TLS) becomes a ClusterError. */
export async function clusterCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error: unknown) {
    if (error instanceof KubeApiError) throw error;
    throw new UnreachableClusterError(`cannot reach the API server: ${networkReason(error)}`);
  }
}

/**
 * Runs a read the command cannot go on without; any failure (no connection, 403, …) becomes a
 * ClusterError naming what was read (exit 3).
 */
export async function readCluster<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error: unknown) {
    // No answer at all (not an API error): the command line can say how the cluster was chosen.
    const Failure = error instanceof KubeApiError ? ClusterError : UnreachableClusterError;
    throw new Failure(`cannot ${what}: ${apiFailureText(error)}`);
  }
}

/** A GET, sent again (up to 5 times, backing off from 200 ms) while the server answers 429. */
export async function getWithRetry<T>(api: KubeApi, spec: RequestSpec): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.request<T>(spec);
    } catch (error: unknown) {
      if (!isStatus(error, 429) || attempt >= 4) throw error;
      await sleep(200 * 2 ** attempt);
    }
  }
}

/** An API failure in one line: `403 Forbidden: …`. */
export function apiFailureText(error: unknown): string {
  const crd = missingCrd(error);
  if (crd !== undefined) return missingCrdText(crd);
  if (error instanceof KubeApiError) return `${error.status} ${error.reason}: ${error.detail}`;
  return networkReason(error);
}
