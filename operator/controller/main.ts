// The operator process, wired: the rate-limited API client, the controller (cache, work queue, leader
// election, reconcile) and the health server. Wiring only; `streamroute operator` parses the flags and
// handles the signals, and tests start it in-process with their own reconcile.
import type { Logger } from 'pino';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { systemClock, type Clock } from '../../dataplane/core/clock.js';
import type { ListenAddress } from '../../dataplane/net/retrying-listener.js';
import { Controller, type LeaderElectionOptions } from './controller.js';
import type { ReconcileDomain } from './domain-snapshot.js';
import { startHealthServer, type HealthServer } from '../../dataplane/admin/health-server.js';
import { registerProcessMetrics } from '../../dataplane/core/process-metrics.js';
import { reconcileDomain as realReconcileDomain } from './reconcile-domain.js';

const USER_AGENT = 'streamroute-operator/0.1.0';
/** A renewal every 2 s is two requests (read, write). */
const LEASE_RATE_LIMIT = { qps: 5, burst: 10 };

export interface OperatorConfig {
  /** A kubeconfig file; without one, the in-cluster service account (else the default kubeconfig). */
  kubeconfig?: string;
  context?: string;
  /** The operator's namespace: the lease and the index ConfigMap. */
  namespace: string;
  /** Only these namespaces; undefined: all. */
  watchNamespaces?: readonly string[];
  keepVersions: number;
  /** undefined: lead alone (`--no-leader-elect`). */
  leaderElection?: LeaderElectionOptions;
  healthAddress: ListenAddress;
  rateLimit: { qps: number; burst: number };
  logger: Logger;
  /** Default: the real reconcile (operator/controller/reconcile-domain.ts). */
  reconcileDomain?: ReconcileDomain;
  clock?: Clock;
}

export interface RunningOperator {
  controller: Controller;
  /** The health server's port (useful when asked for port 0). */
  healthPort: number;
  /** Stops reconciling, steps down (releasing the lease unless `release` is false), stops watches. */
  stop(options?: { release?: boolean }): Promise<void>;
}

export async function startOperator(config: OperatorConfig): Promise<RunningOperator> {
  const clock = config.clock ?? systemClock;
  const connection = {
    clock,
    ...(config.kubeconfig === undefined ? {} : { kubeconfig: config.kubeconfig }),
    ...(config.context === undefined ? {} : { context: config.context }),
  };
  const api = new KubeApi({ ...connection, rateLimit: config.rateLimit, userAgent: USER_AGENT });
  // The lease has a client (and a rate limit) of its own: a busy reconcile never delays a renewal.
  const leaderElection =
    config.leaderElection === undefined
      ? false
      : {
          ...config.leaderElection,
          api: new KubeApi({ ...connection, rateLimit: LEASE_RATE_LIMIT, userAgent: USER_AGENT }),
        };
  const controller = new Controller({
    api,
    clock,
    logger: config.logger,
    operatorNamespace: config.namespace,
    keepVersions: config.keepVersions,
    reconcileDomain: config.reconcileDomain ?? realReconcileDomain,
    leaderElection,
    ...(config.watchNamespaces === undefined ? {} : { watchNamespaces: config.watchNamespaces }),
  });
  registerProcessMetrics(controller.registry);
  const health: HealthServer = await startHealthServer({
    address: config.healthAddress,
    ready: () => controller.readiness(),
    registry: controller.registry,
    logger: config.logger,
  });
  controller.start();
  config.logger.info(
    {
      namespace: config.namespace,
      watchNamespaces: config.watchNamespaces ?? 'all',
      leaderElection: config.leaderElection === undefined ? false : config.leaderElection.identity,
    },
    'operator started',
  );
  let stopping: Promise<void> | undefined;
  return {
    controller,
    healthPort: health.port,
    stop: (options) =>
      (stopping ??= (async () => {
        await controller.stop(options);
        await health.close();
        config.logger.info('operator stopped');
      })()),
  };
}
