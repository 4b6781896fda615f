// The data plane of one node: the HTTP and HTTPS listeners shared by every domain, one DomainRuntime per
// domain, and the admin API's view of them (subscribe, describe, readiness). The embedded node and
// Kubernetes mode both drive it with `apply(graph, version)`; applying diffs the new graph against the
// running one and swaps only what changed (docs/runtime.md, "Hot reload"). Applies, removals and stop run
// one at a time, in call order, so two reloads never interleave.
import { displayOf } from '../graph/display-names.js';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AdminBackend, RelaySubscriber, SubscribeResult } from '../admin/backend.js';
import type { ComponentDescription, DescribedKind, HealthCheck } from '../core/status.js';
import type { Resolver } from '../emitters/syslog-emitter.js';
import { loadGraph } from '../graph/load.js';
import type { GraphHttpIngestor } from '../graph/types.js';
import { systemClock, type Clock } from '../core/clock.js';
import { SerialQueue } from '../core/serial-queue.js';
import type { Topology } from '../runtime/topology.js';
import { systemNow, type Instant } from '../core/values.js';
import type { HttpErrorBody, ServerLimits } from '../sources/http/config.js';
import { HttpIngestion, type RoutingReport } from '../sources/http/http-ingestion.js';
import { HttpTelemetry, type ListenerName } from '../sources/http/telemetry.js';
import type { TlsMaterialSource } from '../net/tls-contexts.js';
import type { ListenAddress, RetryPolicy } from '../net/retrying-listener.js';
import { ingestConnections, type IngestConnectionOptions } from '../net/ingest-connections.js';
import { applyWarnings, changesOf, type ApplyResult } from './apply-result.js';
import { componentMetrics } from './component-metrics.js';
import { registerNodeMetrics } from './node-metrics.js';
import {
  describeEmitter,
  describeHttpIngestor,
  describeSyslogIngestor,
  describeTopicIngestor,
} from './describe.js';
import { codecProgramPaths } from '../codecs/jaq/program-path.js';
import { DomainRuntime, type DomainDeps, type Refusal, type RunningGraph } from './domain-runtime.js';
import { targetName } from './http-targets.js';
import type { NodeListener } from './node-listeners.js';
import { readinessChecks, type DomainReadiness } from './readiness.js';
import { Subscriptions } from './subscriptions.js';
import { TransientErrors } from './transient-errors.js';

export interface DataPlaneOptions {
  httpAddress: ListenAddress;
  httpsAddress: ListenAddress;
  logger: Logger;
  /** The node's registry: every counter of every domain, served by the admin API's /metrics. */
  registry: Registry;
  tls: TlsMaterialSource;
  /** Monotonic time: correlator timers, listener retries (default: the system clock). */
  clock?: Clock;
  /** Wall-clock time: `now()` in expressions, `since` of transient errors (default: `systemNow`). */
  now?: () => Instant;
  retry?: RetryPolicy;
  limits?: Partial<ServerLimits>;
  /** What a refused HTTP request's body says (default `empty`; the embedded node passes `explain`). */
  httpErrorBody?: HttpErrorBody;
  /** Emitters' address resolution (tests); default: the node's resolver. */
  resolve?: Resolver;
  /** Syslog listeners declared on 0.0.0.0 or :: bind this IP instead (`--bind-host`). */
  bindHost?: string;
  /**
   * Connection limits of the ingestion listeners (HTTP, HTTPS, syslog TCP/TLS) together, per peer, and the
   * syslog stream timeouts; what is not set comes from the descriptor limit (docs/runtime.md).
   */
  connections?: IngestConnectionOptions | undefined;
  /** Consumer group timing of topic ingestors (default: Kafka's 30 s session); tests shorten it. */
  kafkaGroup?: DomainDeps['kafkaGroup'] | undefined;
}

const STOPPING = 'the node is stopping';

export class DataPlane implements AdminBackend {
  readonly registry: Registry;
  readonly httpIngestion: HttpIngestion;
  readonly #log: Logger;
  readonly #http: HttpTelemetry;
  readonly #errors: TransientErrors;
  readonly #subscriptions = new Subscriptions();
  /** Domains that run a graph (and, during its first apply, the domain being applied). */
  readonly #domains = new Map<string, DomainRuntime>();
  /** Domains given a graph that was refused and that run nothing: not ready (docs/runtime.md). */
  readonly #refusedDomains = new Map<string, Refusal>();
  readonly #deps: DomainDeps;
  readonly #queue = new SerialQueue();
  #routing: RoutingReport = { plainHosts: 0, secureHosts: 0, problems: [] };
  #stopped = false;

  constructor(options: DataPlaneOptions) {
    const clock = options.clock ?? systemClock;
    const now = options.now ?? systemNow;
    this.registry = options.registry;
    this.#log = options.logger.child({ component: 'data-plane' });
    this.#errors = new TransientErrors(now);
    this.#http = new HttpTelemetry(options.logger, options.registry, clock);
    registerNodeMetrics(options.registry);
    const connections = ingestConnections(options.connections, {
      registry: options.registry,
      logger: options.logger,
      clock,
    });
    this.httpIngestion = new HttpIngestion({
      connections,
      httpAddress: options.httpAddress,
      httpsAddress: options.httpsAddress,
      tls: options.tls,
      telemetry: this.#http,
      clock,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.httpErrorBody === undefined ? {} : { errorBody: options.httpErrorBody }),
      statusChanged: (listener, status) => this.#errors.listenerChanged(listener, status),
    });
    this.#deps = {
      topology: {
        registry: options.registry,
        logger: options.logger,
        clock,
        now,
        tls: options.tls,
        ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
      },
      http: this.#http,
      subscriptions: this.#subscriptions,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      ...(options.bindHost === undefined ? {} : { bindHost: options.bindHost }),
      ...(options.kafkaGroup === undefined ? {} : { kafkaGroup: options.kafkaGroup }),
      connections,
    };
  }

  /**
   * Opens the listeners; resolves after the first attempt (a port in use is Retrying, or Stopped with the
   * error when the retry policy does not retry: see `listeners()`).
   */
  async start(): Promise<void> {
    if (this.#stopped) throw new Error('a stopped data plane cannot be started again');
    await this.httpIngestion.start();
  }

  /**
   * Runs `graph` (JSON, checked here) as `version` of its domain, reusing what did not change. A graph
   * this data plane cannot run is refused with every reason; the domain keeps the graph it runs.
   */
  apply(graph: unknown, version: number): Promise<ApplyResult> {
    return this.#queue.run(() => this.#apply(graph, version));
  }

  /** Withdraws a domain's routes, stops its components and ends its subscribers. */
  removeDomain(domain: string): Promise<void> {
    return this.#queue.run(async () => {
      this.#refusedDomains.delete(domain);
      const runtime = this.#domains.get(domain);
      if (runtime === undefined) return;
      this.#domains.delete(domain);
      this.#publishRoutes();
      await runtime.stop(`domain ${domain} was removed from this node`);
      this.#log.info({ event: 'domain_removed', domain }, 'domain removed');
    });
  }

  /** Stops the listeners (busy requests get `graceMs`), every domain, and ends every subscriber. */
  stop(graceMs?: number): Promise<void> {
    return this.#queue.run(async () => {
      if (this.#stopped) return;
      this.#stopped = true;
      await this.httpIngestion.stop(graceMs);
      await Promise.all([...this.#domains.values()].map((runtime) => runtime.stop(STOPPING)));
      this.#domains.clear();
      this.#refusedDomains.clear();
      this.#subscriptions.endAll(STOPPING);
    });
  }

  /**
   * The listeners a node must own: HTTP, HTTPS once a TLS vhost is routed, and every syslog listener of
   * every domain (the start-up check of `--on-bind-error`, and the banner of `streamroute node`).
   */
  listeners(): NodeListener[] {
    const { http, https, wantsHttps } = this.httpIngestion;
    const listeners: NodeListener[] = [
      { kind: 'http', what: 'HTTP', setBy: '--http-listen-addr', status: http.status },
    ];
    if (wantsHttps)
      listeners.push({ kind: 'https', what: 'HTTPS', setBy: '--https-listen-addr', status: https.status });
    for (const [domain, runtime] of this.#domains)
      for (const { name, protocol, status } of runtime.syslog.listeners())
        listeners.push({
          kind: 'syslog',
          protocol,
          what: `syslog ${protocol} ingestor ${name} of domain ${domain}`,
          setBy: "its client's addr",
          status,
        });
    return listeners;
  }

  /** Domain → the graph version it runs. */
  versions(): ReadonlyMap<string, number> {
    const versions = new Map<string, number>();
    for (const [domain, runtime] of this.#domains)
      if (runtime.running !== undefined) versions.set(domain, runtime.running.version);
    return versions;
  }

  /** The topology a domain runs (read only: diagnostics and tests). */
  topology(domain: string): Topology | undefined {
    return this.#running(domain)?.topology;
  }

  subscribe(domain: string, relay: string, subscriber: RelaySubscriber): SubscribeResult {
    return this.#subscriptions.subscribe(domain, this.#running(domain)?.topology, relay, subscriber);
  }

  async describe(
    domain: string,
    kind: DescribedKind,
    name: string,
  ): Promise<ComponentDescription | undefined> {
    const running = this.#running(domain);
    if (running === undefined) return undefined;
    const { graph } = running;
    if (kind === 'emitter') return this.#describeEmitter(domain, running, name);
    if (Object.hasOwn(graph.httpIngestors, name))
      return this.#describeHttp(domain, running, name, graph.httpIngestors[name]!);
    if (Object.hasOwn(graph.topicIngestors, name)) return this.#describeTopic(domain, running, name);
    const syslog = Object.hasOwn(graph.syslogIngestors, name) ? graph.syslogIngestors[name] : undefined;
    if (syslog === undefined) return undefined;
    // Described, and counted, under its display name (decision 0025).
    const shown = displayOf(graph, 'syslogIngestors', name);
    return describeSyslogIngestor({
      domain,
      name,
      names: graph.names,
      graphVersion: running.version,
      spec: syslog,
      codecProgram: codecProgramPaths(graph.codecs[syslog.codec])?.ingestion,
      client: graph.clients[syslog.client],
      listener: this.#domains.get(domain)?.syslog.get(name)?.view,
      metrics: await componentMetrics(this.registry, { domain, kind: 'syslog-ingestor', name: shown }),
    });
  }

  async #describeTopic(domain: string, running: RunningGraph, name: string): Promise<ComponentDescription> {
    const { graph } = running;
    const spec = graph.topicIngestors[name]!;
    return describeTopicIngestor({
      domain,
      name,
      names: graph.names,
      graphVersion: running.version,
      spec,
      codecProgram: codecProgramPaths(graph.codecs[spec.codec])?.ingestion,
      client: graph.kafkaClients[spec.client],
      consumer: this.#domains.get(domain)?.topics.get(name)?.view,
      metrics: await componentMetrics(this.registry, {
        domain,
        kind: 'topic-ingestor',
        name: displayOf(graph, 'topicIngestors', name),
      }),
    });
  }

  async #describeEmitter(
    domain: string,
    running: RunningGraph,
    name: string,
  ): Promise<ComponentDescription | undefined> {
    const { graph } = running;
    const spec = Object.hasOwn(graph.emitters, name) ? graph.emitters[name] : undefined;
    if (spec === undefined) return undefined;
    const shown = displayOf(graph, 'emitters', name);
    return describeEmitter({
      domain,
      name,
      names: graph.names,
      graphVersion: running.version,
      spec,
      codecProgram: codecProgramPaths(graph.codecs[spec.codec])?.emitting,
      client: spec.kafka === undefined ? graph.clients[spec.client] : graph.kafkaClients[spec.client],
      emitter: running.topology.emitters.get(name)?.view,
      metrics: await componentMetrics(this.registry, { domain, kind: 'emitter', name: shown }),
    });
  }

  readiness(): HealthCheck[] {
    const running = [...this.#domains.values()].flatMap((runtime) => runtime.readiness() ?? []);
    const refused = [...this.#refusedDomains].map(([domain, refusal]): DomainReadiness => ({
      domain,
      version: undefined,
      refused: refusal,
    }));
    return readinessChecks({
      http: this.httpIngestion.http.status,
      https: this.httpIngestion.https.status,
      httpsRouted: this.#routing.secureHosts > 0,
      domains: [...running, ...refused],
    });
  }

  async #apply(json: unknown, version: number): Promise<ApplyResult> {
    if (this.#stopped) return { ok: false, errors: ['the data plane is stopped'] };
    const loaded = loadGraph(json);
    if (!loaded.ok) return this.#refused(domainOf(json), version, loaded.errors);
    const { graph } = loaded;
    let runtime = this.#domains.get(graph.domain);
    if (runtime === undefined) {
      // Taken in now, so the routes it publishes come after those of the domains before it.
      runtime = new DomainRuntime(graph.domain, this.#deps);
      this.#domains.set(graph.domain, runtime);
    }
    const before = runtime.running?.graph;
    const outcome = await runtime.reload(graph, version, () => this.#publishRoutes());
    if (!outcome.ok) {
      if (runtime.running === undefined) this.#domains.delete(graph.domain);
      return this.#refused(graph.domain, version, outcome.errors);
    }
    this.#refusedDomains.delete(graph.domain);
    const changes = changesOf(outcome.diff, graph, before);
    const warnings = applyWarnings(graph, this.#routing.problems, runtime.syslog.errors());
    const counts = Object.fromEntries(
      Object.entries(changes).map(([change, names]: [string, string[]]) => [change, names.length]),
    );
    this.#log.info(
      { event: 'graph_applied', domain: graph.domain, version, ...counts, warnings: warnings.length },
      'graph applied',
    );
    return { ok: true, domain: graph.domain, version, changes, warnings };
  }

  /** Notes the refusal on the domain: beside the graph it runs, or as the reason it runs nothing. */
  #refused(domain: string | undefined, version: number, errors: string[]): ApplyResult {
    const runtime = domain === undefined ? undefined : this.#domains.get(domain);
    if (runtime?.running !== undefined) runtime.refused = { version, errors };
    else if (domain !== undefined) this.#refusedDomains.set(domain, { version, errors });
    this.#log.warn(
      { event: 'graph_refused', domain, version, errors },
      'graph refused; the running one stays',
    );
    return { ok: false, errors };
  }

  /** Hands every domain's routes, in the order the domains arrived, to the listeners. */
  #publishRoutes(): void {
    const routes = [...this.#domains.values()].flatMap((runtime) => runtime.targets.routes());
    this.#routing = this.httpIngestion.setRoutes(routes);
    this.#errors.routesApplied(this.#routing.problems);
  }

  async #describeHttp(
    domain: string,
    running: RunningGraph,
    name: string,
    spec: GraphHttpIngestor,
  ): Promise<ComponentDescription> {
    const listener: ListenerName = spec.tls === undefined ? 'http' : 'https';
    const status = this.httpIngestion[listener].status;
    const shown = displayOf(running.graph, 'httpIngestors', name);
    const target = targetName(domain, shown);
    return describeHttpIngestor({
      domain,
      name,
      names: running.graph.names,
      graphVersion: running.version,
      spec,
      codecProgram: codecProgramPaths(running.graph.codecs[spec.codec])?.ingestion,
      target: this.#domains.get(domain)?.targets.get(name)?.target,
      listener: { name: listener, status, error: this.#errors.ofListener(listener, status) },
      routeError: this.#errors.ofTarget(target),
      metrics: await componentMetrics(this.registry, { domain, kind: 'http-ingestor', name: shown }),
      requests: this.#http.countsOf(target),
    });
  }

  #running(domain: string): RunningGraph | undefined {
    return this.#domains.get(domain)?.running;
  }
}

/** The domain a graph that failed to load names, when it names one (to note the refusal on it). */
function domainOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || !('domain' in json)) return undefined;
  return typeof json.domain === 'string' ? json.domain : undefined;
}
