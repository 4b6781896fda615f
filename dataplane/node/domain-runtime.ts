// One domain on this node: the graph it runs, its topology, its HTTP targets, and the reload that moves
// it to a new graph without stopping what did not change.
//
//   diff → hold changed ingestors (ON QUIESCE) → prepare the topology (reusing unchanged parts)
//        → plan the targets' swap → publish the routes                       ← any of these may fail
//   refused or failed → release the held ingestors; the running graph is untouched
//   done → commit the targets → activate the topology (start new parts, retire replaced ones)
//        → subscribers follow their relays → removed targets stop, held ones resume      ← cannot fail
//
// Nothing of the running graph is touched before every step that can fail has passed: a refusal, and a
// throw (a defect anywhere on the way), both leave the domain running the graph it had.
// The HTTP targets, the syslog listeners and the topic consumers are SourceSwaps (source-swap.ts), driven
// through the same steps in this order; emitters are parts of the topology.
import type { Logger } from 'pino';
import { errorName } from '../core/error-text.js';
import { diffGraphs, type GraphDiff } from '../graph/diff.js';
import type { Graph } from '../graph/types.js';
import { Telemetry } from '../core/telemetry.js';
import { systemNow } from '../core/values.js';
import {
  prepareTopology,
  type PrepareResult,
  type Topology,
  type TopologyDeps,
} from '../runtime/topology.js';
import type { HttpTelemetry } from '../sources/http/telemetry.js';
import type { RetryPolicy } from '../net/retrying-listener.js';
import { DomainHttpTargets } from './http-targets.js';
import type { SourceSwap } from './source-swap.js';
import type { DomainReadiness } from './readiness.js';
import type { Subscriptions } from './subscriptions.js';
import { DomainSyslogListeners } from './syslog-listeners.js';
import { DomainTopicIngestors } from './topic-ingestors.js';
import type { IngestConnections } from '../net/ingest-connections.js';

export interface DomainDeps {
  topology: TopologyDeps;
  http: HttpTelemetry;
  subscriptions: Subscriptions;
  /** Bind retries of syslog listeners (default: the standard reconnect backoff). */
  retry?: RetryPolicy;
  /** Syslog listeners on a wildcard address bind this IP instead (`--bind-host`). */
  bindHost?: string;
  /** The node's ingestion connection pool, per-peer share and syslog stream timeouts. */
  connections?: IngestConnections;
  /** Consumer group timing of topic ingestors (default: the library's usual 30 s session); tests shorten it. */
  kafkaGroup?: { sessionTimeoutMs: number; heartbeatIntervalMs: number };
}

/** What a domain runs. */
export interface RunningGraph {
  graph: Graph;
  version: number;
  topology: Topology;
}

export type ReloadOutcome = { ok: true; diff: GraphDiff } | { ok: false; errors: string[] };

/** The newest version refused since the running one was applied, and why. */
export interface Refusal {
  version: number;
  errors: readonly string[];
}

export class DomainRuntime {
  readonly targets: DomainHttpTargets;
  readonly syslog: DomainSyslogListeners;
  readonly topics: DomainTopicIngestors;
  /** Undefined until the first graph of the domain runs. */
  running: RunningGraph | undefined;
  /** Set by the data plane when a version is refused; cleared when one is applied. */
  refused: Refusal | undefined;
  readonly #deps: DomainDeps;
  readonly #log: Logger;
  /** Every kind of source, in the order the reload steps visit them. */
  readonly #sources: readonly SourceSwap[];

  constructor(
    readonly domain: string,
    deps: DomainDeps,
  ) {
    this.#deps = deps;
    this.#log = deps.topology.logger.child({ component: 'data-plane', domain });
    const runtime = new Telemetry({ registry: deps.topology.registry, logger: deps.topology.logger, domain });
    this.targets = new DomainHttpTargets(domain, { http: deps.http, runtime, clock: deps.topology.clock });
    const { topology } = deps;
    this.syslog = new DomainSyslogListeners({
      domain,
      tls: topology.tls,
      drops: (ingestor) => runtime.component('syslog-ingestor', ingestor),
      logger: topology.logger,
      registry: topology.registry,
      clock: topology.clock,
      now: topology.now ?? systemNow,
      retry: deps.retry,
      bindHost: deps.bindHost,
      connections: deps.connections,
    });
    this.topics = new DomainTopicIngestors({
      domain,
      tls: topology.tls,
      runtime,
      registry: topology.registry,
      logger: topology.logger,
      clock: topology.clock,
      now: topology.now ?? systemNow,
      retry: deps.retry,
      group: deps.kafkaGroup,
    });
    this.#sources = [this.targets, this.syslog, this.topics];
  }

  /**
   * Moves the domain to `graph`. `publish` hands every domain's routes (this one's as `targets.routes()`
   * answers them) to the listeners; it is called once the new topology is built, and again after a
   * failure, to put the running routes back. Never throws: a failure is `{ ok: false }`.
   */
  async reload(graph: Graph, version: number, publish: () => void): Promise<ReloadOutcome> {
    const previous = this.running;
    let diff: GraphDiff;
    let prepared: PrepareResult;
    let published = false;
    try {
      diff = diffGraphs(previous?.graph, graph);
      for (const source of this.#sources) source.hold(diff);
      const reuse = previous === undefined ? undefined : { previous: previous.topology, diff };
      prepared = prepareTopology(graph, this.#deps.topology, reuse);
      if (prepared.ok) {
        for (const source of this.#sources) source.plan(graph, prepared.topology, diff);
        published = true;
        publish();
      }
    } catch (error: unknown) {
      return this.#failed(version, error, published ? publish : undefined);
    }
    if (!prepared.ok) {
      await this.#release();
      return { ok: false, errors: prepared.errors };
    }
    // Nothing from here on can fail.
    for (const source of this.#sources) source.commit();
    prepared.activate();
    this.running = { graph, version, topology: prepared.topology };
    this.refused = undefined;
    this.#deps.subscriptions.reattach(prepared.topology, version);
    await Promise.all(this.#sources.map((source) => source.settle()));
    return { ok: true, diff };
  }

  async #release(): Promise<void> {
    await Promise.all(this.#sources.map((source) => source.release()));
  }

  /** A step threw (a defect): drop the plan, put the running routes back, resume the held ingestors. */
  async #failed(
    version: number,
    error: unknown,
    republish: (() => void) | undefined,
  ): Promise<ReloadOutcome> {
    for (const source of this.#sources) source.abandon();
    const errors = [
      `graph version ${version} could not be applied: the data plane failed (${errorName(error)}); the running graph stays`,
    ];
    this.#log.error(
      { event: 'graph_apply_failed', version, error: errorName(error) },
      'applying a graph failed',
    );
    try {
      republish?.();
    } catch (again: unknown) {
      errors.push(`the running routes could not be published again (${errorName(again)})`);
      this.#log.error(
        { event: 'routes_restore_failed', error: errorName(again) },
        'restoring the routes failed',
      );
    }
    await this.#release();
    return { ok: false, errors };
  }

  /** The domain's readiness check input; undefined until its first graph runs. */
  readiness(): DomainReadiness | undefined {
    if (this.running === undefined) return undefined;
    return { domain: this.domain, version: this.running.version, refused: this.refused };
  }

  /** The domain leaves the node (its routes are already withdrawn): stop everything, end subscribers. */
  async stop(reason: string): Promise<void> {
    this.targets.stopAll();
    await Promise.all([this.syslog.stopAll(), this.topics.stopAll()]);
    // Emitters get their grace to flush what they hold; the rest of the topology stops at once.
    const emitters = [...(this.running?.topology.emitters.values() ?? [])];
    await Promise.all(emitters.map((emitter) => emitter.stop()));
    this.running?.topology.stop();
    this.running = undefined;
    this.#deps.subscriptions.endDomain(this.domain, reason);
  }
}
