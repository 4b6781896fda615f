// The controller runtime: the cache (every replica, so a new leader starts warm) feeds changed domains to
// the work queue, and the queue runs each domain's reconcile — only while this replica leads, and only
// once every initial list is done, so no reconcile ever sees half a domain. On becoming leader every
// known domain is queued; on losing the lease the queue is dropped and the reconcile's API refuses writes
// at once (a fence), so a replica that is no longer leader cannot publish.
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { registerControllerMetrics, type ControllerMetrics } from './controller-metrics.js';
import { errorText, type KubeApi, type RequestSpec } from '../../dataplane/kube-client/kube-api.js';
import type { runListWatch } from '../../dataplane/kube-client/list-watch.js';
import type { Clock } from '../../dataplane/core/clock.js';
import { LEASE_NAME } from '../../dataplane/kube/contract.js';
import { ClusterCache } from './cache.js';
import type { ReadyReport } from '../../dataplane/admin/health-server.js';
import type { ReconcileDeps, ReconcileDomain } from './domain-snapshot.js';
import { LeaderElector, type LEASE_DEFAULTS } from './leader-election.js';
import { WorkQueue, type ProcessResult, type WorkQueueOptions } from './work-queue.js';
import { FleetSizePublisher } from './fleet-size.js';

export interface LeaderElectionOptions {
  /** Lease name (default `streamroute-operator`), in the operator's namespace. */
  name?: string;
  identity: string;
  timing?: Partial<typeof LEASE_DEFAULTS>;
  /** A client of its own (as client-go's lock has), so busy reconciles never delay a renewal. */
  api?: KubeApi;
}

export interface ControllerOptions {
  /** The operator's client (rate-limited: 50 QPS, burst 100). */
  api: KubeApi;
  clock: Clock;
  logger: Logger;
  operatorNamespace: string;
  keepVersions: number;
  /** Only these namespaces; undefined: all. */
  watchNamespaces?: readonly string[];
  reconcileDomain: ReconcileDomain;
  /** false: this replica leads alone (`--no-leader-elect`). */
  leaderElection: LeaderElectionOptions | false;
  registry?: Registry;
  /** Wall-clock time (ISO 8601) for conditions and the lease. */
  now?: () => string;
  /** Tests: a hand-driven reflector, and queue timings. */
  listWatch?: typeof runListWatch;
  queue?: Pick<WorkQueueOptions, 'debounce' | 'retryBackoff'>;
}

/** A write attempted by a replica that no longer leads. */
export class NotLeaderError extends Error {
  constructor(spec: RequestSpec) {
    super(`${spec.method ?? 'GET'} ${spec.path}: refused, this replica is not the leader`);
    this.name = 'NotLeaderError';
  }
}

export class Controller {
  readonly registry: Registry;
  readonly #options: ControllerOptions;
  readonly #cache: ClusterCache;
  readonly #queue: WorkQueue;
  readonly #elector: LeaderElector | undefined;
  readonly #metrics: ControllerMetrics;
  readonly #fleet: FleetSizePublisher;
  #deps: Omit<ReconcileDeps, 'logger'>;
  /** Object changes seen per domain (a counter): a reconcile compares it to know it was superseded. */
  readonly #objectChanges = new Map<string, number>();
  #leading = false;
  #started = false;

  constructor(options: ControllerOptions) {
    this.#options = options;
    this.registry = options.registry ?? new Registry();
    this.#cache = new ClusterCache({
      api: options.api,
      clock: options.clock,
      logger: options.logger,
      onChange: (domain, reason) => {
        if (reason === 'objects') this.#objectChanges.set(domain, (this.#objectChanges.get(domain) ?? 0) + 1);
        if (this.#leading && this.#cache.synced) this.#queue.add(domain, reason);
      },
      ...(options.watchNamespaces === undefined ? {} : { namespaces: options.watchNamespaces }),
      ...(options.listWatch === undefined ? {} : { listWatch: options.listWatch }),
      fleetNodes: () => this.#fleet.published,
    });
    this.#fleet = new FleetSizePublisher({
      api: () => this.#deps.api,
      clock: options.clock,
      logger: options.logger,
      namespace: options.operatorNamespace,
      count: () => (this.#cache.synced ? this.#cache.nodeReportCount : undefined),
    });
    this.#queue = new WorkQueue({
      clock: options.clock,
      process: (key) => this.#reconcile(key),
      ...options.queue,
    });
    this.#elector = options.leaderElection === false ? undefined : this.#newElector(options.leaderElection);
    this.#deps = {
      api: fenced(options.api, () => this.#leading),
      clock: options.clock,
      now: options.now ?? (() => new Date().toISOString()),
      operatorNamespace: options.operatorNamespace,
      keepVersions: options.keepVersions,
    };
    this.#metrics = registerControllerMetrics(this.registry, {
      queueDepth: () => this.#queue.depth,
      leading: () => this.#leading,
      synced: () => this.#cache.synced,
    });
  }

  /** Starts the cache and the campaign for the lease (or leads at once without leader election). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#cache.start();
    if (this.#elector === undefined) this.#startLeading();
    else this.#elector.start();
  }

  /**
   * Stops: no new reconciles, waits for the one running, then steps down (releasing the lease unless
   * `release` is false — what a crash looks like) and stops the watches.
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    await this.#queue.stop();
    if (this.#elector === undefined) this.#stopLeading();
    else await this.#elector.stop(options);
    await this.#cache.stop();
  }

  /** Every initial list is done. */
  get ready(): boolean {
    return this.#cache.synced;
  }

  /** /readyz: ready once every initial list is done; until then each list still missing, and why. */
  readiness(): ReadyReport {
    const checks = this.#cache.unsynced().map(({ path, error }) => ({
      name: `list ${path}`,
      ok: false,
      detail: error ?? 'the first list has not finished',
    }));
    return { ready: checks.length === 0, body: { ready: checks.length === 0, checks } };
  }

  whenSynced(): Promise<void> {
    return this.#cache.whenSynced();
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  get cache(): ClusterCache {
    return this.#cache;
  }

  #newElector(options: LeaderElectionOptions): LeaderElector {
    return new LeaderElector({
      api: options.api ?? this.#options.api,
      namespace: this.#options.operatorNamespace,
      name: options.name ?? LEASE_NAME,
      identity: options.identity,
      clock: this.#options.clock,
      logger: this.#options.logger,
      ...(options.timing === undefined ? {} : { timing: options.timing }),
      onStartedLeading: () => this.#startLeading(),
      onStoppedLeading: () => this.#stopLeading(),
    });
  }

  #startLeading(): void {
    this.#leading = true;
    this.#fleet.start();
    // A new client object each term: the reconcile keys its caches (graph versions, pointers) by it, so a
    // replica that leads again starts from what the API holds, not from what it saw last time it led.
    this.#deps = { ...this.#deps, api: fenced(this.#options.api, () => this.#leading) };
    void this.#cache.whenSynced().then(() => {
      if (!this.#leading) return;
      const domains = this.#cache.domains();
      this.#options.logger.info({ domains: domains.length }, 'leading: queueing every known domain');
      for (const domain of domains) this.#queue.addAfter(domain, 0);
    });
  }

  #stopLeading(): void {
    this.#leading = false;
    this.#fleet.stop();
    this.#queue.clear();
  }

  async #reconcile(domain: string): Promise<ProcessResult> {
    if (!this.#leading) return { ok: true };
    const logger = this.#options.logger.child({ domain });
    const started = this.#options.clock.now();
    const observe = (result: 'success' | 'error'): void => {
      this.#metrics.reconciles.inc({ result });
      this.#metrics.duration.observe((this.#options.clock.now() - started) / 1000);
    };
    try {
      const changes = this.#objectChanges.get(domain) ?? 0;
      const outcome = await this.#options.reconcileDomain(this.#cache.snapshot(domain), {
        ...this.#deps,
        logger,
        superseded: () => (this.#objectChanges.get(domain) ?? 0) !== changes,
      });
      observe('success');
      logger.debug({ outcome }, 'reconciled');
      return {
        ok: true,
        ...(outcome.requeueAfterMs === undefined ? {} : { requeueAfterMs: outcome.requeueAfterMs }),
      };
    } catch (error: unknown) {
      observe('error');
      if (error instanceof NotLeaderError) logger.info('reconcile stopped: no longer the leader');
      else logger.error({ error: errorText(error) }, 'reconcile failed; retrying with backoff');
      return { ok: false };
    }
  }
}

/** The API as the reconcile sees it: writes are refused once `leading()` turns false. */
export function fenced(api: KubeApi, leading: () => boolean): KubeApi {
  return new Proxy(api, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'request') {
        return (spec: RequestSpec) => {
          if ((spec.method ?? 'GET') !== 'GET' && !leading()) return Promise.reject(new NotLeaderError(spec));
          return target.request(spec);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
