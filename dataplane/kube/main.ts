// The data plane in Kubernetes mode (`streamroute dataplane`, the DaemonSet's process). Wiring only —
// every part lives in dataplane/kube/ or dataplane/node/. The order matters, as in the embedded node:
//
//   read the index once → read and apply every domain's graph → open the HTTP listeners, the admin API
//   and the health listener → start the report → watch the index
//
// so a restarted node serves the graph it should run before its first request. Stopping runs the other
// way: stop watching → stop the report (waits for a write in flight) → health and admin servers → data
// plane. The admin API carries records (subscriptions, describe) and stays on loopback on a cluster; the
// health listener (`--health-listen-addr`) answers only probes and metrics, for the kubelet and Prometheus.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { startHealthServer, type HealthServer } from '../admin/health-server.js';
import { AdminServer, type InternalListenerOptions } from '../admin/admin-server.js';
import type { InternalListenerFiles } from './internal-flags.js';
import { corePath, INDEX_NAME, type GraphIndex } from './contract.js';
import {
  DATAPLANE_FLAGS,
  resolveDataplaneFlags,
  type DataplaneFlags,
  type ResolvedFlags,
} from './dataplane-flags.js';
import type { ConfigMap } from './graph-configmap.js';
import { GraphSync } from './graph-sync.js';
import { errorText, isStatus, KubeApi } from '../kube-client/kube-api.js';
import { indexOf, watchIndex } from './index-watch.js';
import { NodeReporter } from './node-reporter.js';
import type { ReportTiming } from './report-schedule.js';
import { ResourceCache } from './resource-versions.js';
import { DataPlane } from '../node/data-plane.js';
import { adminListeners, assertBound, startupRetry, type BindErrorMode } from '../node/node-listeners.js';
import { systemClock, type Clock } from '../core/clock.js';
import { logFormatFor } from '../core/log-format.js';
import { processLogger } from '../core/process-logger.js';
import { systemNow, type Instant } from '../core/values.js';
import type { RetryPolicy } from '../net/retrying-listener.js';
import type { HttpErrorBody } from '../sources/http/config.js';

export interface DataplaneOptions extends Omit<
  ResolvedFlags,
  'logLevel' | 'logFormat' | 'rateLimit' | 'connections' | 'onBindError' | 'httpErrorBody'
> {
  /** What a refused HTTP request's body says (default `empty`). */
  httpErrorBody?: HttpErrorBody;
  /** A listener that cannot bind at start: `retry` (the default) or `exit` (a BindError). */
  onBindError?: BindErrorMode;
  /** Connection limits of the ingestion listeners (default: from the descriptor limit). */
  connections?: ResolvedFlags['connections'];
  logger: Logger;
  /** Client-side API rate limit (default 1 QPS, burst 5). */
  rateLimit?: { qps: number; burst: number };
  registry?: Registry;
  clock?: Clock;
  now?: () => Instant;
  /** Uniform in [0, 1): the report's delay after a new graph and the heartbeat jitter. */
  random?: () => number;
  /** Report timing (default: 10 s spacing, 0–5 s after a new graph, heartbeat 5 min ± 50 %). */
  reportTiming?: Partial<ReportTiming>;
  /** How often component states are compared with the last report (default 10 s). */
  reportPollMs?: number;
  /** Retry of graph or resource reads that failed (default 1 s doubling to 60 s). */
  syncRetry?: { initialMs: number; maxMs: number };
  /** Listener bind retries. */
  retry?: RetryPolicy;
  /** How long the first read of the index may keep failing before the listeners open anyway (30 s). */
  startupTimeoutMs?: number;
}

export interface RunningDataplane {
  readonly dataPlane: DataPlane;
  readonly admin: AdminServer;
  readonly sync: GraphSync;
  readonly reporter: NodeReporter;
  readonly api: KubeApi;
  /** Bound ports (0 while a listener is not running, or no health listener was asked for). */
  ports(): { http: number; https: number; admin: number; health: number; internal: number };
  /** Stops everything; a second call waits for the first. */
  stop(): Promise<void>;
}

/** Starts the data plane: applies the index's graphs, then opens the listeners and watches the index. */
export async function startDataplane(options: DataplaneOptions): Promise<RunningDataplane> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const now = options.now ?? systemNow;
  const api = new KubeApi({
    ...(options.kubeconfig === undefined ? {} : { kubeconfig: options.kubeconfig }),
    ...(options.context === undefined ? {} : { context: options.context }),
    rateLimit: options.rateLimit ?? { qps: 1, burst: 5 },
    userAgent: `streamroute-dataplane/0.1.0 (node ${options.nodeName})`,
    clock,
  });
  const cache = new ResourceCache();
  const binding = startupRetry(options.onBindError ?? 'retry', options.retry);
  const dataPlane = new DataPlane({
    httpAddress: options.httpAddress,
    httpsAddress: options.httpsAddress,
    logger,
    registry: options.registry ?? new Registry(),
    tls: {
      readMountedFile: (file, domain) => cache.readMountedFile(file, domain),
      readSecret: (name, domain) => cache.readSecret(name, domain),
    },
    clock,
    now,
    retry: binding.policy,
    ...(options.httpErrorBody === undefined ? {} : { httpErrorBody: options.httpErrorBody }),
    ...(options.bindHost === undefined ? {} : { bindHost: options.bindHost }),
    connections: options.connections,
  });
  const sync = new GraphSync({
    api,
    target: dataPlane,
    cache,
    logger,
    clock,
    now: () => now().toRfc3339(),
    onApplied: () => reporter.graphApplied(),
    onChange: () => reporter.changed(),
    ...(options.syncRetry === undefined ? {} : { retry: options.syncRetry }),
  });
  const reporter: NodeReporter = new NodeReporter({
    api,
    nodeName: options.nodeName,
    describe: (domain, kind, name) => dataPlane.describe(domain, kind, name),
    sync,
    logger,
    clock,
    random: options.random ?? Math.random,
    now: () => now().toRfc3339(),
    ...(options.reportTiming === undefined ? {} : { timing: options.reportTiming }),
    ...(options.reportPollMs === undefined ? {} : { pollMs: options.reportPollMs }),
  });

  const internal = options.internal === undefined ? undefined : await readInternal(options.internal);
  const initial = await readIndex(api, options, clock);
  if (initial !== undefined) await sync.update(initial);
  const admin = new AdminServer({
    ...(internal === undefined ? {} : { internal }),
    address: options.adminAddress,
    backend: dataPlane,
    logger,
    clock,
    maxConnections: options.adminMaxConnections,
    subscriptionLimits: options.subscriptionLimits ?? {},
    retry: binding.policy,
  });
  const health = await openListeners(options, { dataPlane, admin }).catch(async (error: unknown) => {
    await sync.stop();
    await reporter.stop(); // the initial graph asked it for a report, which it would send later
    await admin.stop();
    await dataPlane.stop();
    throw error;
  });
  binding.started();
  reporter.start();
  const watch = watchIndex(api, {
    namespace: options.operatorNamespace,
    logger,
    clock,
    onIndex: (index) => void sync.update(index),
  });
  logger.info(
    { event: 'dataplane_started', node: options.nodeName, domains: dataPlane.versions().size },
    'data plane started',
  );

  let stopping: Promise<void> | undefined;
  return {
    dataPlane,
    admin,
    sync,
    reporter,
    api,
    ports: () => ({
      http: dataPlane.httpIngestion.http.status.port ?? 0,
      https: dataPlane.httpIngestion.https.status.port ?? 0,
      admin: admin.status.port ?? 0,
      health: health?.port ?? 0,
      internal: admin.internalStatus?.port ?? 0,
    }),
    stop: () =>
      (stopping ??= (async () => {
        watch.abort();
        await watch.done;
        await sync.stop(); // a sync in flight finishes before the data plane stops
        await reporter.stop();
        await health?.close();
        await admin.stop();
        await dataPlane.stop();
      })()),
  };
}

/** The internal listener's PEM files; a file that cannot be read stops the start with its flag named. */
async function readInternal(files: InternalListenerFiles): Promise<InternalListenerOptions> {
  const read = (file: string, flag: string): Promise<Buffer> =>
    readFile(file).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new Error(`${flag} ${file}: cannot be read (${code})`);
    });
  const [cert, key, clientCa] = await Promise.all([
    read(files.certFile, '--internal-tls-cert-file'),
    read(files.keyFile, '--internal-tls-key-file'),
    read(files.clientCaFile, '--internal-client-ca-file'),
  ]);
  return { address: files.address, cert, key, clientCa, clientName: files.clientName };
}

/**
 * HTTP (and HTTPS), the admin API and the health listener, in that order; with `--on-bind-error exit` a
 * listener that cannot bind (the graphs' syslog listeners included) throws a BindError naming it.
 */
async function openListeners(
  options: DataplaneOptions,
  { dataPlane, admin }: { dataPlane: DataPlane; admin: AdminServer },
): Promise<HealthServer | undefined> {
  assertBound(dataPlane.listeners()); // the graphs' syslog listeners
  await dataPlane.start();
  assertBound(dataPlane.listeners());
  await admin.start();
  assertBound(adminListeners(admin));
  return openHealth(options, dataPlane);
}

/** The probe and metrics listener, when `--health-listen-addr` asks for one; its bind failure throws. */
async function openHealth(
  options: DataplaneOptions,
  dataPlane: DataPlane,
): Promise<HealthServer | undefined> {
  if (options.healthAddress === undefined) return undefined;
  return startHealthServer({
    address: options.healthAddress,
    registry: dataPlane.registry,
    logger: options.logger,
    ready: () => {
      const checks = dataPlane.readiness();
      const ready = checks.every((check) => check.ok);
      return { ready, body: { ready, checks } };
    },
  });
}

/** The index as it is now; undefined when there is none yet, or it cannot be read before the timeout. */
async function readIndex(
  api: KubeApi,
  options: DataplaneOptions,
  clock: Clock,
): Promise<GraphIndex | undefined> {
  const { logger, operatorNamespace } = options;
  const deadline = clock.now() + (options.startupTimeoutMs ?? 30_000);
  for (let wait = 500; ; wait = Math.min(wait * 2, 5_000)) {
    try {
      const configMap = await api.request<ConfigMap>({
        path: corePath('configmaps', operatorNamespace, INDEX_NAME),
      });
      return indexOf(configMap, logger);
    } catch (error: unknown) {
      if (isStatus(error, 404)) {
        logger.info({ event: 'index_missing', namespace: operatorNamespace }, 'no index yet: no domains');
        return undefined;
      }
      logger.warn(
        { event: 'index_read_failed', error: errorText(error) },
        'reading the index failed; retrying',
      );
      if (clock.now() + wait > deadline) return undefined;
      await new Promise((resolve) => clock.setTimeout(() => resolve(undefined), wait));
    }
  }
}

/**
 * Runs until `signal` aborts (or SIGINT/SIGTERM when none is given). Returns the exit code: 0 after a
 * clean stop, 2 for a wrong command line, 3 when the data plane cannot start.
 */
export async function runDataplane(
  flags: DataplaneFlags,
  context: {
    env?: Readonly<Record<string, string | undefined>>;
    signal?: AbortSignal;
    logger?: Logger;
    err?: (line: string) => void;
  } = {},
): Promise<number> {
  const err = context.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const resolved = resolveDataplaneFlags(flags, context.env ?? process.env);
  if (!resolved.ok) {
    err(`streamroute dataplane: ${resolved.message}`);
    return 2;
  }
  const { logLevel, logFormat, ...options } = resolved.flags;
  const logger = context.logger ?? processLogger(logLevel, logFormatFor(logFormat, process.stderr));
  const signal = context.signal ?? processSignal();
  let running: RunningDataplane;
  try {
    running = await startDataplane({ ...options, logger });
  } catch (error: unknown) {
    err(`streamroute dataplane: cannot start: ${error instanceof Error ? error.message : 'unknown error'}`);
    return 3;
  }
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  logger.info('stopping');
  await running.stop();
  return 0;
}

function processSignal(): AbortSignal {
  const controller = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM'] as const) process.once(name, () => controller.abort());
  return controller.signal;
}

/** `node dataplane/main.js --node-name … [flags]` (the same flags as `streamroute dataplane`). */
export async function main(argv: readonly string[]): Promise<number> {
  /** `node-name` → `nodeName`, from the flag table. */
  const keys = new Map(DATAPLANE_FLAGS.map(([key, usage]) => [usage.split(' ')[0]!.slice(2), key]));
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries([...keys.keys()].map((name) => [name, { type: 'string' as const }]));
    values = parseArgs({ args: [...argv], options, strict: true }).values;
  } catch (error: unknown) {
    process.stderr.write(
      `streamroute dataplane: ${error instanceof Error ? error.message : 'bad arguments'}\n`,
    );
    return 2;
  }
  const flags: DataplaneFlags = {};
  for (const [name, value] of Object.entries(values)) {
    const key = keys.get(name);
    if (key !== undefined && typeof value === 'string') flags[key] = value;
  }
  return runDataplane(flags);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
