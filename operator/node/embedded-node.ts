// The embedded node: the compiler, the node's object store and the data plane in one process, with the
// admin API on top. Wiring only — every part lives in its own module. The order matters:
//
//   open the data dir (lock) → restore the stored graphs → read the manifests → open the listeners
//
// so a restarted node serves the graph it ran before its first request, and a manifest edited while it
// was down becomes the next graph version before anything is received. The graphs' syslog listeners
// bind as the graphs apply, then HTTP (and HTTPS), then the admin API; with `onBindError: 'exit'` the
// first that cannot bind stops the start there (BindError), before any later one opens. Stopping runs the other way:
//
//   close the queue (new statements 503, no reloads) → stop watching → wait for the running statement
//   or reload → stop the admin server → stop the data plane → release the lock → delete a temporary dir
//
// so nothing writes to the data dir or activates a graph once the data plane or the lock are gone. Each
// step runs even when one before it fails; stop() twice stops once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { AdminServer } from '../../dataplane/admin/admin-server.js';
import { DataPlane, type DataPlaneOptions } from '../../dataplane/node/data-plane.js';
import {
  adminListeners,
  assertBound,
  startupRetry,
  type BindErrorMode,
  type NodeListener,
} from '../../dataplane/node/node-listeners.js';
import type { Clock } from '../../dataplane/core/clock.js';
import type { Instant } from '../../dataplane/core/values.js';
import type { ListenAddress, RetryPolicy } from '../../dataplane/net/retrying-listener.js';
import type { IngestConnectionOptions } from '../../dataplane/net/ingest-connections.js';
import type { HttpErrorBody } from '../../dataplane/sources/http/config.js';
import type { SubscriptionLimits } from '../../dataplane/admin/subscription-limits.js';
import { controlRoutes } from './control-routes.js';
import { DataDir } from './data-dir.js';
import { dataDirIoError } from './data-dir-error.js';
import { DomainCommitter, type Activate } from './domain-commit.js';
import { Manifests } from './manifests.js';
import { ObjectStore } from './object-store.js';
import { ResourceStore } from './resource-store.js';
import { restoreGraphs, type RestoredDomain } from './restore.js';
import { SerialQueue } from '../../dataplane/core/serial-queue.js';
import { Shutdown } from './shutdown.js';
import { StatementExecutor } from './statement-executor.js';

export interface EmbeddedNodeOptions {
  /** `--manifests`: statements and resource YAML to run (watched). */
  manifests?: string;
  /** `--data-dir`; without one the node keeps its state in a temporary directory removed at stop. */
  dataDir?: string;
  httpAddress: ListenAddress;
  httpsAddress: ListenAddress;
  adminAddress: ListenAddress;
  /** Host names the admin API answers for besides loopback names and IP literals (DNS-rebinding guard). */
  adminAllowedHosts?: readonly string[];
  logger: Logger;
  registry?: Registry;
  /** Timers (correlator MAX TIME, retries); tests pass a ManualClock. The manifest watch uses real time. */
  clock?: Clock;
  now?: () => Instant;
  retry?: RetryPolicy;
  /**
   * A listener that cannot bind while the node starts: `exit` (the default) stops the start with a
   * BindError; `retry` keeps retrying it (docs/node.md, "Starting and stopping").
   */
  onBindError?: BindErrorMode;
  /** What a refused HTTP request's body says: `explain` (the default) or `empty`. */
  httpErrorBody?: HttpErrorBody;
  /** Debounce of manifest changes (ms). */
  manifestDebounceMs?: number;
  /** Connection limits of the ingestion listeners (default: from the descriptor limit; docs/runtime.md). */
  connections?: IngestConnectionOptions;
  /** Connections of the admin API at once (default: from the descriptor limit). */
  adminMaxConnections?: number;
  /** Subscriber streams and buffered bytes the admin API allows (default: docs/admin-api.md). */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /** Consumer group timing of topic ingestors (default: Kafka's 30 s session); tests shorten it. */
  kafkaGroup?: DataPlaneOptions['kafkaGroup'];
}

export interface EmbeddedNode {
  readonly dataPlane: DataPlane;
  readonly admin: AdminServer;
  readonly manifests: Manifests | undefined;
  readonly restored: readonly RestoredDomain[];
  /** The data directory in use (a temporary one without `--data-dir`). */
  readonly dataDir: string;
  /** Bound ports (0 while a listener is not running). */
  ports(): { http: number; https: number; admin: number };
  /** Every listener with its status: HTTP, HTTPS once a TLS vhost is routed, syslog, admin. */
  listeners(): NodeListener[];
  /** Stops everything (see the top of this file); a second call waits for the first. */
  stop(): Promise<void>;
}

/**
 * Starts a node; throws DataDirError, ManifestError or BindError when it cannot start (nothing is left
 * open).
 */
export async function startEmbeddedNode(options: EmbeddedNodeOptions): Promise<EmbeddedNode> {
  const { logger } = options;
  const root = options.dataDir ?? temporaryDataDir();
  const shutdown = new Shutdown(logger);
  if (options.dataDir === undefined) {
    logger.warn({ dataDir: root }, 'no --data-dir: state is kept until the node stops');
    shutdown.add('delete the temporary data dir', () => rmSync(root, { recursive: true, force: true }));
  }
  try {
    return await assemble(options, root, shutdown);
  } catch (error: unknown) {
    await shutdown.run();
    throw error;
  }
}

function temporaryDataDir(): string {
  const parent = tmpdir();
  try {
    return mkdtempSync(join(parent, 'streamroute-node-'));
  } catch (error: unknown) {
    throw dataDirIoError('cannot create a temporary data dir in', parent, error);
  }
}

/** Builds the node; every part that needs stopping registers its step as soon as it exists. */
async function assemble(
  options: EmbeddedNodeOptions,
  root: string,
  shutdown: Shutdown,
): Promise<EmbeddedNode> {
  const { logger } = options;
  const dataDir = DataDir.open(root, logger);
  shutdown.add('release the data dir lock', () => dataDir.close());
  const store = ObjectStore.open(dataDir);
  const resources = ResourceStore.open(dataDir.resourcesRoot, logger);
  const binding = startupRetry(options.onBindError ?? 'exit', options.retry);
  const dataPlane = new DataPlane({
    httpAddress: options.httpAddress,
    httpsAddress: options.httpsAddress,
    logger,
    registry: options.registry ?? new Registry(),
    tls: { readMountedFile: (file, domain) => resources.readMountedFile(domain, file) },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.now === undefined ? {} : { now: options.now }),
    retry: binding.policy,
    httpErrorBody: options.httpErrorBody ?? 'explain',
    connections: options.connections,
    kafkaGroup: options.kafkaGroup,
  });
  shutdown.add('stop the data plane', () => dataPlane.stop());
  const activate: Activate = async (_domain, graph, version) => {
    const result = await dataPlane.apply(graph, version);
    return result.ok ? { ok: true, warnings: result.warnings } : { ok: false, errors: result.errors };
  };
  const queue = new SerialQueue();
  const committer = new DomainCommitter({
    store,
    resources,
    activate,
    deactivate: (domain) => dataPlane.removeDomain(domain),
    logger,
  });
  const restored = await restoreGraphs(store, committer, logger);
  const manifests = await readManifests(options, { store, resources, committer, queue });
  if (manifests !== undefined) shutdown.add('stop watching the manifests', () => manifests.close());

  const executor = new StatementExecutor({
    store,
    resources,
    committer,
    queue,
    describe: (domain, kind, name) => dataPlane.describe(domain, kind, name),
  });
  const admin = new AdminServer({
    address: options.adminAddress,
    ...(options.adminAllowedHosts === undefined ? {} : { allowedHosts: options.adminAllowedHosts }),
    backend: dataPlane,
    logger,
    control: controlRoutes({ executor, store, queue, logger }),
    maxConnections: options.adminMaxConnections,
    subscriptionLimits: options.subscriptionLimits ?? {},
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    retry: binding.policy,
  });
  shutdown.add('stop the admin server', () => admin.stop());
  // Runs before the admin server stops: the client of the running statement still gets its answer.
  shutdown.add('wait for the running statement or reload', () => queue.close());
  assertBound(dataPlane.listeners()); // the graphs' syslog listeners
  await dataPlane.start();
  assertBound(dataPlane.listeners());
  await admin.start();
  assertBound(adminListeners(admin));
  binding.started();
  manifests?.watch();
  return {
    dataPlane,
    admin,
    manifests,
    restored,
    dataDir: root,
    ports: () => ({
      http: dataPlane.httpIngestion.http.status.port ?? 0,
      https: dataPlane.httpIngestion.https.status.port ?? 0,
      admin: admin.status.port ?? 0,
    }),
    listeners: () => [...dataPlane.listeners(), ...adminListeners(admin)],
    stop: () => {
      // New work is refused from the first moment of the stop, before the admin server has stopped.
      void queue.close();
      manifests?.close();
      return shutdown.run();
    },
  };
}

async function readManifests(
  options: EmbeddedNodeOptions,
  parts: Pick<ConstructorParameters<typeof Manifests>[0], 'store' | 'resources' | 'committer' | 'queue'>,
): Promise<Manifests | undefined> {
  if (options.manifests === undefined) return undefined;
  const manifests = new Manifests({
    path: options.manifests,
    logger: options.logger,
    ...parts,
    ...(options.manifestDebounceMs === undefined
      ? {}
      : { watch: { debounceMs: options.manifestDebounceMs } }),
  });
  await manifests.reload({ initial: true });
  return manifests;
}
