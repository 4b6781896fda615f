// The embedded node: the compiler, the node's object store and the data plane in one process, with the
// admin API on top. Wiring only — every part lives in its own module. The order matters:
//
//   open the data dir (lock) → restore the stored graphs → read the manifests → open the listeners
//
// so a restarted node serves the graph it ran before its first request, and a manifest edited while it
// was down becomes the next graph version before anything is received.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { AdminServer } from '../../dataplane/admin/admin-server.js';
import { DataPlane } from '../../dataplane/node/data-plane.js';
import type { Clock } from '../../dataplane/runtime/clock.js';
import type { Instant } from '../../dataplane/runtime/values.js';
import type { ListenAddress, RetryPolicy } from '../../dataplane/sources/retrying-listener.js';
import { controlRoutes } from './node/control-routes.js';
import { DataDir } from './node/data-dir.js';
import { DomainCommitter, type Activate } from './node/domain-commit.js';
import { Manifests } from './node/manifests.js';
import { ObjectStore } from './node/object-store.js';
import { ResourceStore } from './node/resource-store.js';
import { restoreGraphs, type RestoredDomain } from './node/restore.js';
import { SerialQueue } from './node/serial-queue.js';
import { StatementExecutor } from './node/statement-executor.js';

export interface EmbeddedNodeOptions {
  /** `--manifests`: statements and resource YAML to run (watched). */
  manifests?: string;
  /** `--data-dir`; without one the node keeps its state in a temporary directory removed at stop. */
  dataDir?: string;
  httpAddress: ListenAddress;
  httpsAddress: ListenAddress;
  adminAddress: ListenAddress;
  logger: Logger;
  registry?: Registry;
  /** Timers (correlator MAX TIME, retries); tests pass a ManualClock. */
  clock?: Clock;
  now?: () => Instant;
  retry?: RetryPolicy;
  /** Debounce of manifest changes (ms). */
  manifestDebounceMs?: number;
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
  stop(): Promise<void>;
}

/** Starts a node; throws DataDirError or ManifestError when it cannot start (nothing is left open). */
export async function startEmbeddedNode(options: EmbeddedNodeOptions): Promise<EmbeddedNode> {
  const { logger } = options;
  const temporary = options.dataDir === undefined;
  const root = options.dataDir ?? mkdtempSync(join(tmpdir(), 'streamroute-node-'));
  if (temporary) logger.warn({ dataDir: root }, 'no --data-dir: state is kept until the node stops');
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.reverse()) await step();
    if (temporary) rmSync(root, { recursive: true, force: true });
  };
  try {
    return await assemble(options, root, cleanups, cleanup);
  } catch (error: unknown) {
    await cleanup();
    throw error;
  }
}

async function assemble(
  options: EmbeddedNodeOptions,
  root: string,
  cleanups: (() => Promise<void> | void)[],
  cleanup: () => Promise<void>,
): Promise<EmbeddedNode> {
  const { logger } = options;
  const dataDir = DataDir.open(root, logger);
  cleanups.push(() => dataDir.close());
  const store = ObjectStore.open(dataDir);
  const resources = ResourceStore.open(dataDir.resourcesRoot, logger);
  const dataPlane = new DataPlane({
    httpAddress: options.httpAddress,
    httpsAddress: options.httpsAddress,
    logger,
    registry: options.registry ?? new Registry(),
    tls: { readMountedFile: (file, domain) => resources.readMountedFile(domain, file) },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  cleanups.push(() => dataPlane.stop());
  const activate: Activate = async (domain, graph, version) => {
    const result = await dataPlane.apply(graph, version);
    return result.ok ? { ok: true, warnings: result.warnings } : { ok: false, errors: result.errors };
  };
  const queue = new SerialQueue();
  const committer = new DomainCommitter({ store, resources, activate, logger });
  const restored = await restoreGraphs(store, activate, logger);
  const manifests = await readManifests(options, { store, committer, queue });
  if (manifests !== undefined) cleanups.push(() => manifests.close());

  const executor = new StatementExecutor({
    store,
    resources,
    committer,
    queue,
    describe: (domain, kind, name) => dataPlane.describe(domain, kind, name),
  });
  const admin = new AdminServer({
    address: options.adminAddress,
    backend: dataPlane,
    logger,
    control: controlRoutes({ executor, store, queue, logger }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  cleanups.push(() => admin.stop());
  await dataPlane.start();
  await admin.start();
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
    stop: cleanup,
  };
}

async function readManifests(
  options: EmbeddedNodeOptions,
  parts: Pick<ConstructorParameters<typeof Manifests>[0], 'store' | 'committer' | 'queue'>,
): Promise<Manifests | undefined> {
  if (options.manifests === undefined) return undefined;
  const manifests = new Manifests({
    path: options.manifests,
    logger: options.logger,
    ...parts,
    ...(options.manifestDebounceMs === undefined ? {} : { debounceMs: options.manifestDebounceMs }),
  });
  await manifests.reload({ initial: true });
  return manifests;
}
