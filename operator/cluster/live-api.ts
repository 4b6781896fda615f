// Starts the operator's live API (decision 0019) beside the controller: every replica serves it (reads
// only; the APIService's Service spreads users over them). It reads what the API server publishes about
// its front proxy once at start, its serving certificate and, for the internal channel to the pods, the
// internal CA and its client certificate from files (Secrets the chart mounts).
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { systemClock } from '../../dataplane/core/clock.js';
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { ListenAddress } from '../../dataplane/net/retrying-listener.js';
import { AccessReview } from '../access/access-review.js';
import { createAggregatedApi } from '../access/aggregated-api.js';
import { EXTENSION_AUTH_CONFIGMAP, frontProxyConfig } from '../access/front-proxy.js';
import { LiveMetrics } from '../access/live-metrics.js';
import type { ClusterOptions } from './cluster-target.js';
import { internalAccess, WatchedPods } from './internal-access.js';
import { liveHandlers } from './live-handlers.js';
import type { PodAccess } from './pod-access.js';

export interface LiveApiConfig {
  address: ListenAddress;
  certFile: string;
  keyFile: string;
  /** How often open streams are reviewed again, and how long one may stay open (aggregated-api.ts). */
  reauthorizeMs?: number;
  maxStreamMs?: number;
  /** The data plane's internal listeners (decision 0019); without them, port-forwards. */
  internal?: { caFile: string; certFile: string; keyFile: string; serverName: string };
}

export interface LiveApiDeps {
  api: KubeApi;
  clusterOptions: ClusterOptions;
  operatorNamespace: string;
  logger: Logger;
  /** The operator's registry: the live API's counters go to its /metrics. */
  registry?: Registry;
}

export interface RunningLiveApi {
  port: number;
  close(): Promise<void>;
}

/** Rejects with a reason a person can act on (no front proxy published, unreadable files, port taken). */
export async function startLiveApi(config: LiveApiConfig, deps: LiveApiDeps): Promise<RunningLiveApi> {
  const { namespace, name } = EXTENSION_AUTH_CONFIGMAP;
  const published = await deps.api.request<{ data?: Record<string, string> }>({
    path: `/api/v1/namespaces/${namespace}/configmaps/${name}`,
  });
  const frontProxy = frontProxyConfig(published.data);
  if (!frontProxy.ok) throw new Error(frontProxy.reason);
  const [cert, key] = await Promise.all([readFile(config.certFile), readFile(config.keyFile)]);
  const stopWatch = new AbortController();
  const access = config.internal && (await podsOverInternalChannel(config.internal, deps, stopWatch.signal));
  const metrics = new LiveMetrics(deps.registry);
  const server = createAggregatedApi({
    serving: { cert, key },
    frontProxy: frontProxy.config,
    review: new AccessReview({ api: deps.api }),
    handlers: liveHandlers({ ...deps, metrics, ...(access === undefined ? {} : { access }) }),
    logger: deps.logger,
    metrics,
    ...(config.reauthorizeMs === undefined ? {} : { reauthorizeMs: config.reauthorizeMs }),
    ...(config.maxStreamMs === undefined ? {} : { maxStreamMs: config.maxStreamMs }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.address.port, config.address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  deps.logger.info({ event: 'live_api_listening', host: config.address.host, port }, 'live API listening');
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        stopWatch.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The watched pods, reached on their internal listeners with the operator's client certificate. */
async function podsOverInternalChannel(
  files: NonNullable<LiveApiConfig['internal']>,
  deps: LiveApiDeps,
  signal: AbortSignal,
): Promise<PodAccess> {
  const [ca, cert, key] = await Promise.all([
    readFile(files.caFile),
    readFile(files.certFile),
    readFile(files.keyFile),
  ]);
  const pods = new WatchedPods({
    api: deps.api,
    namespace: deps.operatorNamespace,
    clock: systemClock,
    logger: deps.logger,
    signal,
  });
  return internalAccess(pods, { ca, cert, key, serverName: files.serverName });
}
