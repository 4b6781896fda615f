// Our Kubernetes client (dataplane/kube-client/) and @kubernetes/client-node 1.4.0 side by side, on a real
// kube-apiserver + etcd on loopback (test/support/kube-apiserver.ts). Not a timed test. It measures
//   import:  a fresh `node --expose-gc` per run imports the module; the time of the import and the RSS it
//            adds (after a gc on both sides), interleaved, medians. Ours is kube-api.ts + list-watch.ts
//            bundled by esbuild (client-node left external: ours loads it only to read a kubeconfig).
//   sync:    list of OBJECTS ConfigMaps until the last one reaches the handler: runListWatch's onList,
//            client-node's informer (makeInformer + CoreV1Api.listNamespacedConfigMap) `add` callbacks.
//   watch:   UPDATES merge patches, one at a time, each timed from just before the PATCH is sent to the
//            event reaching each client's handler; both watch at once.
// and checks behaviour, printed as facts: a watch from a resourceVersion too old for the watch cache
// (410 Gone), a kube-apiserver restart, the query each informer watch sends (bookmarks), a metadata-only
// list, client-side rate limits, and server-side apply through KubernetesObjectApi.patch. Progress goes to
// stderr, the tables to stdout at the end. Decision record: docs/decisions/0016-own-kubernetes-client.md.
//
//   npx tsx test/bench/kube-client.bench.ts            # OBJECTS=2000 UPDATES=200 RUNS=7, about a minute
import {
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  ListWatch,
  makeInformer,
  PatchStrategy,
  Watch,
  Observable,
  setHeaderOptions,
  type RequestContext,
  type ResponseContext,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { systemClock } from '../../dataplane/core/clock.js';
import { KubeApi, type WatchEvent } from '../../dataplane/kube-client/kube-api.js';
import { runListWatch, type KubeObject } from '../../dataplane/kube-client/list-watch.js';
import { TokenBucket } from '../../dataplane/kube-client/token-bucket.js';
import { startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { percentile } from './kube-bench-support.js';

const OBJECTS = Number(process.env['OBJECTS'] ?? 2000);
const UPDATES = Number(process.env['UPDATES'] ?? 200);
const RUNS = Number(process.env['RUNS'] ?? 7);
const SYNC_RUNS = 3;
const NS = 'kube-client-bench';
const PATH = `/api/v1/namespaces/${NS}/configmaps`;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT_NODE = pathToFileURL(join(ROOT, 'node_modules/@kubernetes/client-node/dist/index.js')).href;

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: readonly number[]) => percentile(values, 50);
const began = Date.now();
/** Progress on stderr: the run is long and prints its tables at the end. */
const step = (what: string) =>
  process.stderr.write(`[${((Date.now() - began) / 1000).toFixed(1)} s] ${what}\n`);

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

// ---- import time and memory ----------------------------------------------------------------------------

async function bundleOurs(dir: string): Promise<string> {
  const outfile = join(dir, 'ours.mjs');
  await build({
    stdin: {
      contents:
        "export * from './dataplane/kube-client/kube-api.ts';\nexport * from './dataplane/kube-client/list-watch.ts';\n",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@kubernetes/client-node'],
    outfile,
    logLevel: 'silent',
  });
  return pathToFileURL(outfile).href;
}

/** One fresh process: ms to import `url` and the RSS it adds, both sides after a gc. */
async function importCost(url: string): Promise<{ ms: number; rssMiB: number }> {
  const script = `
    globalThis.gc(); const before = process.memoryUsage().rss; const start = performance.now();
    await import(${JSON.stringify(url)});
    const ms = performance.now() - start; globalThis.gc();
    console.log(JSON.stringify({ ms, rssMiB: (process.memoryUsage().rss - before) / 1048576 }));`;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: ROOT,
  });
  return JSON.parse(stdout) as { ms: number; rssMiB: number };
}

async function importCosts(): Promise<Record<string, { ms: number; rssMiB: number }>> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-client-bench-'));
  try {
    const cases: Record<string, string> = {
      'node:https alone': 'node:https',
      'ours (kube-api + list-watch)': await bundleOurs(dir),
      '@kubernetes/client-node': CLIENT_NODE,
    };
    const samples = new Map<string, { ms: number[]; rss: number[] }>();
    for (let i = 0; i < RUNS; i++) {
      for (const [name, url] of Object.entries(cases)) {
        const cost = await importCost(url);
        const entry = samples.get(name) ?? { ms: [], rss: [] };
        entry.ms.push(cost.ms);
        entry.rss.push(cost.rssMiB);
        samples.set(name, entry);
      }
    }
    return Object.fromEntries(
      [...samples].map(([name, s]) => [name, { ms: median(s.ms), rssMiB: median(s.rss) }]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---- clients ----------------------------------------------------------------------------------------

function ours(server: KubeTestServer, qps = 1, burst = 5): KubeApi {
  return new KubeApi({
    kubeconfig: server.kubeconfigPath,
    rateLimit: { qps, burst },
    userAgent: 'bench-ours',
  });
}

function clientNode(server: KubeTestServer): { config: KubeConfig; core: CoreV1Api } {
  const config = new KubeConfig();
  config.loadFromFile(server.kubeconfigPath);
  return { config, core: config.makeApiClient(CoreV1Api) };
}

type Informer = ReturnType<typeof makeInformer<V1ConfigMap>>;

function informerOf(server: KubeTestServer): Informer {
  const { config, core } = clientNode(server);
  return makeInformer<V1ConfigMap>(config, PATH, () => core.listNamespacedConfigMap({ namespace: NS }));
}

/** Runs ours until aborted; resolves once the first list reached onList. */
function startOurs(
  api: KubeApi,
  signal: AbortSignal,
  onEvent: (object: ConfigMap) => void,
  extra: { metadataOnly?: boolean; onList?: (items: ConfigMap[]) => void; onError?: () => void } = {},
): Promise<void> {
  return new Promise((resolve) => {
    void runListWatch<ConfigMap>(
      { api, path: PATH, clock: systemClock, signal, metadataOnly: extra.metadataOnly === true },
      {
        onList: (items) => {
          extra.onList?.(items);
          resolve();
        },
        onEvent: (_type, object) => onEvent(object),
        onError: () => extra.onError?.(),
      },
    );
  });
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(2);
  }
  return true;
}

// ---- measurements -----------------------------------------------------------------------------------

async function createObjects(admin: KubeApi): Promise<void> {
  await admin.request({
    method: 'POST',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  });
  let next = 0;
  const worker = async () => {
    while (next < OBJECTS) {
      const i = next++;
      await admin.request({
        method: 'POST',
        path: PATH,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${i}`, labels: { 'bench.streamroute.io/set': 'a' } },
          data: { seq: '0', payload: 'x'.repeat(256) },
        },
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function syncOnce(server: KubeTestServer, which: 'ours' | 'client-node'): Promise<number> {
  if (which === 'ours') {
    const api = ours(server);
    const controller = new AbortController();
    const start = performance.now();
    let count = 0;
    await startOurs(api, controller.signal, () => undefined, { onList: (items) => (count = items.length) });
    const ms = performance.now() - start;
    controller.abort();
    if (count !== OBJECTS) throw new Error(`ours listed ${count}`);
    return ms;
  }
  const informer = informerOf(server);
  let adds = 0;
  let done = 0;
  informer.on('add', () => {
    if (++adds === OBJECTS) done = performance.now();
  });
  const start = performance.now();
  await informer.start();
  await waitUntil(() => done > 0, 30_000);
  await informer.stop();
  return done - start;
}

async function watchLatency(
  server: KubeTestServer,
  admin: KubeApi,
): Promise<{ ours: number[]; clientNode: number[]; patch: number[]; missed: number }> {
  const seen = { ours: new Map<string, number>(), clientNode: new Map<string, number>() };
  const key = (object: ConfigMap) => `${object.metadata.name}:${object.data?.['seq'] ?? ''}`;
  const controller = new AbortController();
  await startOurs(ours(server), controller.signal, (object) => seen.ours.set(key(object), performance.now()));
  const informer = informerOf(server);
  informer.on('update', (object) =>
    seen.clientNode.set(key(object as unknown as ConfigMap), performance.now()),
  );
  await informer.start();
  await sleep(1000); // both watches open
  const result = { ours: [] as number[], clientNode: [] as number[], patch: [] as number[], missed: 0 };
  for (let i = 1; i <= UPDATES; i++) {
    const name = `cm-${(i * 7) % OBJECTS}`;
    const wanted = `${name}:${i}`;
    const start = performance.now();
    await admin.request({
      method: 'PATCH',
      path: `${PATH}/${name}`,
      contentType: 'application/merge-patch+json',
      body: { data: { seq: String(i) } },
    });
    result.patch.push(performance.now() - start);
    const both = await waitUntil(() => seen.ours.has(wanted) && seen.clientNode.has(wanted), 10_000);
    if (!both) {
      result.missed++;
      step(`update ${i}: ours ${seen.ours.has(wanted)}, client-node ${seen.clientNode.has(wanted)}`);
    }
    const atOurs = seen.ours.get(wanted);
    const atClientNode = seen.clientNode.get(wanted);
    if (atOurs !== undefined) result.ours.push(atOurs - start);
    if (atClientNode !== undefined) result.clientNode.push(atClientNode - start);
  }
  controller.abort();
  await informer.stop();
  return result;
}

// ---- behaviour checks -------------------------------------------------------------------------------

type Facts = Record<string, string>;

/**
 * etcd compacted to the current revision, then: what the server sends a watch from resourceVersion 1, and
 * whether each client relists after it. Run after restart(): a watch cache started on an empty etcd holds
 * every event from resourceVersion 1 and replays them instead of answering 410.
 */
async function tooOldVersion(server: KubeTestServer, admin: KubeApi, facts: Facts): Promise<void> {
  const current = await admin.request<{ metadata: { resourceVersion: string } }>({
    path: PATH,
    query: { limit: 1 },
  });
  await etcd(server, '/v3/kv/compaction', { revision: current.metadata.resourceVersion, physical: true });
  const { config, core } = clientNode(server);
  const events: string[] = [];
  let stop: AbortController | undefined;
  const ended = new Promise<unknown>((resolve) => {
    void new Watch(config)
      .watch(
        PATH,
        { resourceVersion: '1' },
        (type, object: { code?: number; reason?: string }) =>
          events.push(type === 'ERROR' ? `ERROR ${object.code} ${object.reason}` : type),
        resolve,
      )
      .then((controller) => (stop = controller));
  });
  const error = await Promise.race([ended, sleep(5000).then(() => 'still open after 5 s')]);
  stop?.abort();
  facts['server: watch from resourceVersion 1'] =
    `${events.length} events, first: ${events.slice(0, 3).join('; ')}; done(${error === null ? 'null' : error instanceof Error ? error.message : JSON.stringify(error)})`;

  // client-node's ListWatch, its first list answering with resourceVersion 1; the watch query recorded.
  const real = new Watch(config);
  const queries: string[] = [];
  const recording = {
    watch: (path: string, query: Record<string, string>, callback: never, done: never) => {
      queries.push(JSON.stringify(query));
      return real.watch(path, query, callback, done);
    },
  } as unknown as Watch;
  let lists = 0;
  const informer = new ListWatch<V1ConfigMap>(
    PATH,
    recording,
    async () => {
      lists++;
      const list = await core.listNamespacedConfigMap({ namespace: NS });
      if (lists === 1) list.metadata = { ...list.metadata, resourceVersion: '1' };
      return list;
    },
    false,
  );
  const start = performance.now();
  await informer.start();
  const relisted = await waitUntil(() => lists >= 2, 10_000);
  facts['client-node informer: watch answered 410 (ERROR event)'] = relisted
    ? `relisted after ${Math.round(performance.now() - start)} ms; ${informer.list(NS).length} objects held`
    : 'did not relist within 10 s';
  facts['client-node informer: watch query'] = queries.slice(0, 2).join(', ');
  await informer.stop();

  // Ours, its first list answering with resourceVersion 1 (the same trick).
  const api = ours(server);
  let ourLists = 0;
  let listed = 0;
  let onLists = 0;
  const stale = {
    request: async <T>(spec: Parameters<KubeApi['request']>[0]): Promise<T> => {
      const body = await api.request<{ metadata: { resourceVersion: string } }>(spec);
      if (++ourLists === 1) body.metadata.resourceVersion = '1';
      return body as T;
    },
    watch: <T>(
      spec: Parameters<KubeApi['watch']>[0],
      onEvent: (event: WatchEvent<T>) => void,
      signal: AbortSignal,
    ) => api.watch(spec, onEvent, signal),
  } as unknown as KubeApi;
  const controller = new AbortController();
  const ourStart = performance.now();
  void runListWatch<ConfigMap>(
    { api: stale, path: PATH, clock: systemClock, signal: controller.signal },
    {
      onList: (items) => {
        onLists++;
        listed = items.length;
      },
      onEvent: () => undefined,
    },
  );
  const ourRelisted = await waitUntil(() => onLists >= 2, 10_000);
  facts['ours: watch answered 410 (ERROR event)'] = ourRelisted
    ? `relisted after ${Math.round(performance.now() - ourStart)} ms (1 QPS burst 5); ${listed} objects`
    : 'did not relist within 10 s';
  controller.abort();
}

/** One call to etcd's JSON gateway (the API server's own storage, on loopback). */
function etcd(server: KubeTestServer, path: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.etcdEndpoint), { method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`etcd ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Bumps etcd's revision directly (while the API server is down). */
function etcdPut(server: KubeTestServer): Promise<void> {
  return etcd(server, '/v3/kv/put', {
    key: Buffer.from('/bench/revision-bump').toString('base64'),
    value: Buffer.from(String(Date.now())).toString('base64'),
  });
}

/** A kube-apiserver restart (down 3 s): who sees a change made afterwards, and how many lists it took. */
async function restart(server: KubeTestServer, admin: KubeApi, facts: Facts): Promise<void> {
  const counts = { ours: 0, bare: 0, restarting: 0 };
  const lists = { ours: 0, bare: 0, restarting: 0 };
  const errors = { ours: 0, bare: 0, restarting: 0 };
  const wanted = 'after-restart';
  const controller = new AbortController();
  await startOurs(
    ours(server),
    controller.signal,
    (object) => {
      if (object.data?.['seq'] === wanted) counts.ours++;
    },
    { onList: () => lists.ours++, onError: () => errors.ours++ },
  );
  const informers: Record<'bare' | 'restarting', ListWatch<V1ConfigMap>> = {} as never;
  for (const which of ['bare', 'restarting'] as const) {
    const { config, core } = clientNode(server);
    const informer = new ListWatch<V1ConfigMap>(
      PATH,
      new Watch(config),
      () => {
        lists[which]++;
        return core.listNamespacedConfigMap({ namespace: NS });
      },
      false,
    );
    informer.on('update', (object) => {
      if (object.data?.['seq'] === wanted) counts[which]++;
    });
    informer.on('error', () => {
      errors[which]++;
      // the pattern client-node's README shows: restart the informer after an error
      if (which === 'restarting') setTimeout(() => void informer.start(), 1000);
    });
    await informer.start();
    informers[which] = informer;
  }
  await sleep(500);
  const before = { ...lists };
  const start = performance.now();
  await server.restartApiServer(3000);
  await etcdPut(server).catch(() => undefined);
  const upMs = performance.now() - start;
  await admin.request({
    method: 'PATCH',
    path: `${PATH}/cm-1`,
    contentType: 'application/merge-patch+json',
    body: { data: { seq: wanted } },
  });
  const changed = performance.now();
  await waitUntil(() => counts.ours > 0 && counts.bare > 0 && counts.restarting > 0, 20_000);
  const describe = (which: keyof typeof counts) =>
    `${counts[which] > 0 ? 'saw the change' : 'did NOT see the change within 20 s'}; ` +
    `${errors[which]} error callback(s); ${lists[which] - before[which]} relist(s)`;
  facts['restart: API server down 3 s, back after'] =
    `${Math.round(upMs)} ms; change made at +${Math.round(changed - start)} ms`;
  facts['restart: ours (runListWatch)'] = describe('ours');
  facts['restart: client-node informer, no error handler'] = describe('bare');
  facts['restart: client-node informer, restarted 1 s after each error'] = describe('restarting');
  controller.abort();
  for (const informer of Object.values(informers)) await informer.stop();
}

/** Metadata-only list: ours by option; client-node through a middleware setting the Accept header. */
async function metadataOnly(server: KubeTestServer, facts: Facts): Promise<void> {
  const describe = (count: number, item: ConfigMap | undefined) =>
    `${count} items; cm-0 has data: ${item?.data !== undefined}, labels: ${JSON.stringify(item?.metadata.labels)}`;
  const controller = new AbortController();
  let items: ConfigMap[] = [];
  await startOurs(ours(server), controller.signal, () => undefined, {
    metadataOnly: true,
    onList: (listed) => (items = listed),
  });
  controller.abort();
  facts['ours: metadataOnly list'] = describe(
    items.length,
    items.find((item) => item.metadata.name === 'cm-0'),
  );

  const { core } = clientNode(server);
  try {
    // setHeaderOptions is client-node's own helper for one header on a generated call
    const accept = setHeaderOptions(
      'Accept',
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    );
    const list = await core.listNamespacedConfigMap({ namespace: NS }, accept);
    const cm0 = list.items.find((item) => item.metadata?.name === 'cm-0');
    facts['client-node: list with an Accept middleware'] =
      `kind ${list.kind}, deserialized as V1ConfigMapList: ${describe(list.items.length, cm0 as ConfigMap | undefined)}`;
  } catch (error) {
    facts['client-node: list with an Accept middleware'] = `failed: ${String(error).slice(0, 200)}`;
  }
}

/** Client-side rate limits: N requests at once, elapsed. */
async function rateLimits(server: KubeTestServer, facts: Facts): Promise<void> {
  const count = 15;
  const read = (api: KubeApi) => api.request({ path: `${PATH}/cm-1` });
  let start = performance.now();
  const limited = ours(server, 5, 5);
  await Promise.all(Array.from({ length: count }, () => read(limited)));
  facts[`ours at 5 QPS burst 5: ${count} GETs at once`] = `${Math.round(performance.now() - start)} ms`;

  const { config, core } = clientNode(server);
  start = performance.now();
  await Promise.all(
    Array.from({ length: count }, () => core.readNamespacedConfigMap({ name: 'cm-1', namespace: NS })),
  );
  facts[`client-node CoreV1Api: ${count} GETs at once`] =
    `${Math.round(performance.now() - start)} ms (no limit)`;

  // A limit bolted on as a middleware covers the generated APIs, not Watch (node-fetch, no middleware).
  const bucket = new TokenBucket({ qps: 5, burst: 5 }, systemClock);
  let passed = 0;
  // The generated APIs' object-parameter form takes Observable middleware (client-node's own stub).
  const limit = {
    middleware: [
      {
        pre: (context: RequestContext) =>
          new Observable(
            bucket.take().then(() => {
              passed++;
              return context;
            }),
          ),
        post: (context: ResponseContext) => new Observable(Promise.resolve(context)),
      },
    ],
    middlewareMergeStrategy: 'append' as const,
  };
  start = performance.now();
  await Promise.all(
    Array.from({ length: count }, () => core.readNamespacedConfigMap({ name: 'cm-1', namespace: NS }, limit)),
  );
  facts[`client-node CoreV1Api + a token-bucket middleware (5/5): ${count} GETs`] =
    `${Math.round(performance.now() - start)} ms`;
  passed = 0;
  const informer = makeInformer<V1ConfigMap>(config, PATH, () =>
    core.listNamespacedConfigMap({ namespace: NS }, limit),
  );
  let connects = 0;
  informer.on('connect', () => connects++);
  await informer.start();
  facts['client-node informer with that middleware on its list'] =
    `${passed} request(s) took a token for ${connects} list + ${connects} watch request(s) sent`;
  await informer.stop();
}

/** Server-side apply: client-node's KubernetesObjectApi.patch against ours; the field manager recorded. */
async function serverSideApply(
  server: KubeTestServer,
  facts: Facts,
): Promise<{ ours: number; clientNode: number }> {
  const { config } = clientNode(server);
  const objects = KubernetesObjectApi.makeApiClient(config);
  const api = ours(server, 1000, 1000);
  const document = (i: number, manager: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `applied-${manager}`, namespace: NS },
    data: { round: String(i) },
  });
  const times = { ours: [] as number[], clientNode: [] as number[] };
  let managed = '';
  for (let i = 0; i <= 30; i++) {
    let start = performance.now();
    const applied = await objects.patch(
      document(i, 'client-node'),
      undefined,
      undefined,
      'bench-client-node',
      true,
      PatchStrategy.ServerSideApply,
    );
    if (i > 0) times.clientNode.push(performance.now() - start);
    managed = JSON.stringify(
      (applied as V1ConfigMap).metadata?.managedFields?.map((f) => [f.manager, f.operation]),
    );
    start = performance.now();
    await api.request({
      method: 'PATCH',
      path: `${PATH}/applied-ours`,
      query: { fieldManager: 'bench-ours', force: true },
      contentType: 'application/apply-patch+yaml',
      body: document(i, 'ours'),
    });
    if (i > 0) times.ours.push(performance.now() - start);
  }
  facts['client-node KubernetesObjectApi.patch(…, ServerSideApply)'] = `works; managedFields ${managed}`;
  return { ours: median(times.ours), clientNode: median(times.clientNode) };
}

/** Runs one behaviour check; a failure becomes a fact, and the facts so far go to stderr. */
async function check(facts: Facts, name: string, body: () => Promise<void>): Promise<void> {
  step(name);
  const known = new Set(Object.keys(facts));
  try {
    await body();
  } catch (error) {
    facts[`${name}: check failed`] = error instanceof Error ? error.message : String(error);
  }
  for (const [key, value] of Object.entries(facts)) if (!known.has(key)) step(`  ${key}: ${value}`);
}

// ---- main -------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  step('import costs');
  const imports = await importCosts();
  step('kube-apiserver');
  const server = await startKubeApiServer();
  const facts: Facts = {};
  try {
    const admin = ours(server, 10_000, 10_000);
    step(`creating ${OBJECTS} ConfigMaps`);
    const createStart = performance.now();
    await createObjects(admin);
    const createMs = performance.now() - createStart;

    const sync = { ours: [] as number[], clientNode: [] as number[] };
    step('sync');
    for (let i = 0; i < SYNC_RUNS; i++) {
      sync.ours.push(await syncOnce(server, 'ours'));
      sync.clientNode.push(await syncOnce(server, 'client-node'));
    }
    step('watch latency');
    const latency = await watchLatency(server, admin);
    step('server-side apply');
    const apply = await serverSideApply(server, facts);
    await check(facts, 'metadata-only', () => metadataOnly(server, facts));
    await check(facts, 'rate limits', () => rateLimits(server, facts));
    await check(facts, 'restart', () => restart(server, admin, facts));
    await check(facts, '410', () => tooOldVersion(server, admin, facts));

    const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
    const ratio = (a: number, b: number) => `${(b / a).toFixed(2)}×`;
    console.log(`\nNode ${process.version}; ${OBJECTS} ConfigMaps created in ${ms(createMs)}\n`);
    console.log('| measure | ours | client-node 1.4.0 | client-node / ours |\n|---|---:|---:|---:|');
    const base = imports['node:https alone'];
    const own = imports['ours (kube-api + list-watch)'];
    const theirs = imports['@kubernetes/client-node'];
    if (base !== undefined && own !== undefined && theirs !== undefined) {
      console.log(
        `| import, fresh process (median of ${RUNS}; node:https alone ${ms(base.ms)}) | ${ms(own.ms)} | ${ms(theirs.ms)} | ${ratio(own.ms, theirs.ms)} |`,
      );
      console.log(
        `| RSS added by the import (node:https alone ${base.rssMiB.toFixed(1)} MiB) | ${own.rssMiB.toFixed(1)} MiB | ${theirs.rssMiB.toFixed(1)} MiB | ${ratio(Math.max(own.rssMiB, 0.1), theirs.rssMiB)} |`,
      );
    }
    const syncOurs = median(sync.ours);
    const syncTheirs = median(sync.clientNode);
    console.log(
      `| list of ${OBJECTS} → all in the handler (median of ${SYNC_RUNS}) | ${ms(syncOurs)} | ${ms(syncTheirs)} | ${ratio(syncOurs, syncTheirs)} |`,
    );
    for (const p of [50, 99]) {
      const a = percentile(latency.ours, p);
      const b = percentile(latency.clientNode, p);
      console.log(
        `| PATCH sent → watch event in the handler, p${p} (n=${latency.ours.length}/${latency.clientNode.length}) | ${ms(a)} | ${ms(b)} | ${ratio(a, b)} |`,
      );
    }
    console.log(
      `| server-side apply of a ConfigMap, median of 30 | ${ms(apply.ours)} | ${ms(apply.clientNode)} | ${ratio(apply.ours, apply.clientNode)} |`,
    );
    console.log(
      `\nPATCH round trip alone: p50 ${ms(percentile(latency.patch, 50))}; updates missed by either: ${latency.missed}\n`,
    );
    console.log('| fact | observed |\n|---|---|');
    for (const [name, value] of Object.entries(facts))
      console.log(`| ${name} | ${value.replaceAll('|', '\\|')} |`);
    console.log(`\nwhole run: ${Math.round((Date.now() - began) / 1000)} s`);
  } finally {
    await server.stop();
  }
}

await main();
process.exit(0);
