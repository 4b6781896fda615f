// The controller's informer cache: one list-then-watch per kind (per namespace when the operator watches
// a set of namespaces) of every graph kind, the resource-version ConfigMaps and Secrets (label-selected)
// and the DataplaneNode reports. It keeps what it saw by kind, namespace and name, and tells the work
// queue which domain changed and why: its own objects, or the part of a node report that names it.
// Every replica runs it, so a replica that becomes leader starts with a warm cache.
// Node reports are kept slim (no managedFields, no counters: 15,000 of them are most of the operator's
// memory otherwise) and counted as they arrive into FleetReports (decision 0018), so a roll-up never
// walks the fleet; a minute's scan leaves out the reports that stopped being written.
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { GRAPH_KINDS } from '../api/index.js';
import {
  API_VERSION,
  corePath,
  customPath,
  DATAPLANE_NODE_PLURAL,
  LABEL_RESOURCE,
} from '../../dataplane/kube/contract.js';
import { errorText, missingCrd, missingCrdText, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { runListWatch, type KubeObject } from '../../dataplane/kube-client/list-watch.js';
import type { Clock } from '../../dataplane/core/clock.js';
import type { ClusterObject, DomainSnapshot } from './domain-snapshot.js';
import type { ChangeReason } from './work-queue.js';
import type { TimerHandle } from '../../dataplane/core/clock.js';
import { fleetPolicy } from '../../dataplane/kube/fleet-policy.js';
import { FleetReports } from './fleet-reports.js';

/** How often reports are checked for staleness (they leave the roll-up this late at most). */
export const EXPIRE_EVERY_MS = 60_000;

/** One list-watch: a kind, where it is read from, and whether it names domains or reports on them. */
export interface CacheStream {
  kind: string;
  apiVersion: string;
  /** The collection path (namespaced when the stream covers one namespace). */
  path: string;
  labelSelector?: string;
  /** The namespace this stream covers; undefined: all namespaces (or a cluster-scoped kind). */
  namespace?: string;
  role: 'graph' | 'resourceVersion' | 'nodeReport';
  /** Only names, labels and annotations are sent (Secrets: the operator never receives key material). */
  metadataOnly?: boolean;
}

export const CONFIG_MAP = 'ConfigMap';
export const SECRET = 'Secret';
export const DATAPLANE_NODE = 'DataplaneNode';

/** The streams of a cache over all namespaces (`namespaces` undefined) or one stream per namespace. */
export function cacheStreams(namespaces: readonly string[] | undefined): CacheStream[] {
  const scopes = namespaces === undefined ? [undefined] : [...new Set(namespaces)];
  const streams: CacheStream[] = [];
  for (const namespace of scopes) {
    for (const definition of GRAPH_KINDS) {
      const path = customPath(definition.plural, namespace);
      streams.push({ kind: definition.kind, apiVersion: API_VERSION, path, role: 'graph', ...ns(namespace) });
    }
    for (const [kind, plural] of [
      [CONFIG_MAP, 'configmaps'],
      [SECRET, 'secrets'],
    ] as const) {
      const path = corePath(plural, namespace);
      const labelSelector = LABEL_RESOURCE;
      streams.push({
        kind,
        apiVersion: 'v1',
        path,
        labelSelector,
        role: 'resourceVersion',
        ...(kind === SECRET ? { metadataOnly: true } : {}),
        ...ns(namespace),
      });
    }
  }
  const nodePath = customPath(DATAPLANE_NODE_PLURAL);
  streams.push({ kind: DATAPLANE_NODE, apiVersion: API_VERSION, path: nodePath, role: 'nodeReport' });
  return streams;
}

function ns(namespace: string | undefined): { namespace?: string } {
  return namespace === undefined ? {} : { namespace };
}

export interface ClusterCacheOptions {
  api: KubeApi;
  clock: Clock;
  /** Only these namespaces (one watch per kind and namespace); undefined: all namespaces. */
  namespaces?: readonly string[];
  logger?: Logger;
  /** Called for every domain whose objects or node-report part changed. */
  onChange: (domain: string, reason: ChangeReason) => void;
  /** The reflector; tests pass one that feeds lists and events by hand. */
  listWatch?: typeof runListWatch;
  /** Wall-clock epoch ms (reports carry wall-clock heartbeat times); default Date.now. */
  wallNow?: () => number;
  /** The fleet size the index publishes (its stale age and report window follow it, fleet-policy.ts). */
  fleetNodes?: () => number | undefined;
}

/** kind → namespace ('' when cluster-scoped) → name → object. */
type Store = Map<string, Map<string, Map<string, ClusterObject>>>;

export class ClusterCache {
  readonly #options: ClusterCacheOptions;
  readonly #streams: CacheStream[];
  readonly #store: Store = new Map();
  readonly #listed = new Set<CacheStream>();
  /** Why a stream not listed yet failed last (cleared by its first list). */
  readonly #listErrors = new Map<CacheStream, string>();
  readonly #abort = new AbortController();
  #loops: Promise<void>[] = [];
  #syncedWaiters: (() => void)[] = [];
  readonly #fleet = new FleetReports();
  #expireTimer: TimerHandle | undefined;

  constructor(options: ClusterCacheOptions) {
    this.#options = options;
    this.#streams = cacheStreams(options.namespaces);
    // every stream (and each of its requests) listens on the one signal
    setMaxListeners(0, this.#abort.signal);
  }

  /** Starts every list-watch; they run until stop(). */
  start(): void {
    if (this.#loops.length > 0) return;
    this.#armExpire();
    const listWatch = this.#options.listWatch ?? runListWatch;
    this.#loops = this.#streams.map((stream) =>
      listWatch<ClusterObject>(
        {
          api: this.#options.api,
          path: stream.path,
          clock: this.#options.clock,
          signal: this.#abort.signal,
          ...(stream.labelSelector === undefined ? {} : { labelSelector: stream.labelSelector }),
          ...(stream.metadataOnly === true ? { metadataOnly: true } : {}),
        },
        {
          onList: (items) => this.#onList(stream, items),
          onEvent: (type, object) => this.#onEvent(stream, type, object),
          onError: (error, backoffMs) => this.#failed(stream, error, backoffMs),
        },
      ),
    );
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    if (this.#expireTimer !== undefined) this.#options.clock.clearTimeout(this.#expireTimer);
    this.#expireTimer = undefined;
    await Promise.all(this.#loops);
  }

  /** True once every stream has completed its first list. */
  get synced(): boolean {
    return this.#listed.size === this.#streams.length;
  }

  /** The streams whose first list is not done, each with its last failure if it had one. */
  unsynced(): { path: string; error?: string }[] {
    return this.#streams
      .filter((stream) => !this.#listed.has(stream))
      .map((stream) => {
        const error = this.#listErrors.get(stream);
        return { path: stream.path, ...(error === undefined ? {} : { error }) };
      });
  }

  /** Resolves once synced (at once if it is). */
  whenSynced(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.#syncedWaiters.push(resolve));
  }

  /** Domains (namespaces) that hold graph objects or resource versions. */
  domains(): string[] {
    const domains = new Set<string>();
    for (const stream of this.#streams) {
      if (stream.role === 'nodeReport') continue;
      for (const [namespace, objects] of this.#store.get(stream.kind) ?? []) {
        if (objects.size > 0) domains.add(namespace);
      }
    }
    return [...domains].sort();
  }

  /**
   * Everything the cache holds for one domain, in a stable order (kind order, then name); the node
   * reports as counts (`nodes`), and as a list only when asked for (`nodeReports`, sorted on demand).
   */
  snapshot(domain: string): DomainSnapshot {
    const objects: ClusterObject[] = [];
    for (const definition of GRAPH_KINDS) objects.push(...this.#list(definition.kind, domain));
    const resourceVersions = [...this.#list(CONFIG_MAP, domain), ...this.#list(SECRET, domain)];
    const list = (): ClusterObject[] => this.#list(DATAPLANE_NODE, '');
    const nodes = { counts: this.#fleet.domain(domain), reportWithinMs: this.#policy().heartbeatMs };
    return {
      domain,
      objects,
      resourceVersions,
      get nodeReports() {
        return list();
      },
      nodes,
    };
  }

  /** DataplaneNode reports held (the fleet's size as this cache sees it). */
  get nodeReportCount(): number {
    return this.#fleet.size;
  }

  #policy(): ReturnType<typeof fleetPolicy> {
    return fleetPolicy(this.#options.fleetNodes?.());
  }

  #wallNow(): number {
    return (this.#options.wallNow ?? Date.now)();
  }

  #armExpire(): void {
    this.#expireTimer = this.#options.clock.setTimeout(() => {
      this.#expireTimer = undefined;
      if (this.#abort.signal.aborted) return;
      for (const domain of this.#fleet.expire(this.#wallNow(), this.#policy().staleMs))
        this.#emit(domain, 'nodes');
      this.#armExpire();
    }, EXPIRE_EVERY_MS);
  }

  /** One object as last observed. */
  get(kind: string, namespace: string, name: string): ClusterObject | undefined {
    return this.#store.get(kind)?.get(namespace)?.get(name);
  }

  #list(kind: string, namespace: string): ClusterObject[] {
    const objects = [...(this.#store.get(kind)?.get(namespace)?.values() ?? [])];
    return objects.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  }

  #onList(stream: CacheStream, items: ClusterObject[]): void {
    const byNamespace = this.#kindStore(stream.kind);
    const before = new Map<string, Map<string, ClusterObject>>();
    for (const [namespace, objects] of byNamespace) {
      if (stream.namespace === undefined || stream.namespace === namespace) before.set(namespace, objects);
    }
    for (const namespace of before.keys()) byNamespace.delete(namespace);
    for (const item of items) this.#put(byNamespace, stream, item);
    const covered = (namespace: string): boolean =>
      stream.namespace === undefined || stream.namespace === namespace;
    const after = new Map<string, Map<string, ClusterObject>>(
      [...byNamespace].filter(([namespace]) => covered(namespace)),
    );
    if (stream.role === 'nodeReport') {
      this.#recount(before.get(''), after.get(''));
      this.#notifyReports(before.get(''), after.get(''));
    } else this.#notifyRelisted(before, after);
    this.#markListed(stream);
  }

  #onEvent(stream: CacheStream, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: ClusterObject): void {
    const byNamespace = this.#kindStore(stream.kind);
    const namespace = object.metadata.namespace ?? '';
    const old = byNamespace.get(namespace)?.get(object.metadata.name);
    if (!this.#apply(stream, type, object, old)) return;
    if (stream.role !== 'nodeReport') {
      // the operator's own status writes come back as events: they change nothing to compile
      // (a delete keeps generation and labels: it always counts)
      if (type !== 'DELETED' && stream.role === 'graph' && statusOnlyChange(old, object)) return;
      this.#emit(namespace, 'objects');
      return;
    }
    const current = type === 'DELETED' ? undefined : byNamespace.get('')?.get(object.metadata.name);
    this.#onReport(object.metadata.name, old, current);
  }

  /** A node report was written or deleted: its counts follow, and the domains whose part moved are queued. */
  #onReport(name: string, old: ClusterObject | undefined, current: ClusterObject | undefined): void {
    if (current === undefined) this.#fleet.delete(name);
    else this.#fleet.put(current, this.#wallNow(), this.#policy().staleMs);
    for (const domain of changedReportDomains(old, current)) this.#emit(domain, 'nodes');
  }

  /** Applies one event to the store; false when it changes nothing (a replay, an unknown delete). */
  #apply(
    stream: CacheStream,
    type: 'ADDED' | 'MODIFIED' | 'DELETED',
    object: ClusterObject,
    old: ClusterObject | undefined,
  ): boolean {
    const byNamespace = this.#kindStore(stream.kind);
    if (type === 'DELETED')
      return (
        old !== undefined &&
        byNamespace.get(object.metadata.namespace ?? '')?.delete(object.metadata.name) === true
      );
    if (old?.metadata.resourceVersion === object.metadata.resourceVersion && old !== undefined) return false;
    this.#put(byNamespace, stream, object);
    return true;
  }

  #put(byNamespace: Map<string, Map<string, ClusterObject>>, stream: CacheStream, item: ClusterObject): void {
    const object = normalize(stream, item);
    const namespace = object.metadata.namespace ?? '';
    let objects = byNamespace.get(namespace);
    if (objects === undefined) byNamespace.set(namespace, (objects = new Map<string, ClusterObject>()));
    objects.set(object.metadata.name, object);
  }

  #notifyRelisted(
    before: Map<string, Map<string, ClusterObject>>,
    after: Map<string, Map<string, ClusterObject>>,
  ): void {
    const namespaces = new Set([...before.keys(), ...after.keys()]);
    for (const namespace of namespaces) {
      if (!sameVersions(before.get(namespace), after.get(namespace))) this.#emit(namespace, 'objects');
    }
  }

  #notifyReports(
    before: Map<string, ClusterObject> | undefined,
    after: Map<string, ClusterObject> | undefined,
  ): void {
    const domains = new Set<string>();
    for (const name of new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])])) {
      for (const domain of changedReportDomains(before?.get(name), after?.get(name))) domains.add(domain);
    }
    for (const domain of [...domains].sort()) this.#emit(domain, 'nodes');
  }

  /** After a (re)list: counts follow the listed reports. */
  #recount(
    before: Map<string, ClusterObject> | undefined,
    after: Map<string, ClusterObject> | undefined,
  ): void {
    for (const name of before?.keys() ?? []) if (after?.has(name) !== true) this.#fleet.delete(name);
    const now = this.#wallNow();
    const { staleMs } = this.#policy();
    for (const [name, report] of after ?? []) {
      const version = before?.get(name)?.metadata.resourceVersion;
      if (version === undefined || version !== report.metadata.resourceVersion)
        this.#fleet.put(report, now, staleMs);
    }
  }

  #emit(domain: string, reason: ChangeReason): void {
    const watched = this.#options.namespaces;
    if (watched !== undefined && !watched.includes(domain)) return;
    this.#options.onChange(domain, reason);
  }

  #failed(stream: CacheStream, error: unknown, backoffMs: number): void {
    const crd = missingCrd(error);
    if (crd === undefined) {
      this.#options.logger?.warn(
        { path: stream.path, backoffMs, error: errorText(error) },
        'list/watch failed; retrying',
      );
      if (!this.#listed.has(stream)) this.#listErrors.set(stream, errorText(error));
      return;
    }
    // A CRD that is not installed is an install mistake (helm --skip-crds), not a passing fault: say which.
    const message = missingCrdText(crd);
    this.#options.logger?.error({ path: stream.path, crd, backoffMs }, message);
    if (!this.#listed.has(stream)) this.#listErrors.set(stream, message);
  }

  #markListed(stream: CacheStream): void {
    this.#listErrors.delete(stream);
    this.#listed.add(stream);
    if (!this.synced) return;
    const waiters = this.#syncedWaiters;
    this.#syncedWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #kindStore(kind: string): Map<string, Map<string, ClusterObject>> {
    let byNamespace = this.#store.get(kind);
    if (byNamespace === undefined) {
      byNamespace = new Map<string, Map<string, ClusterObject>>();
      this.#store.set(kind, byNamespace);
    }
    return byNamespace;
  }
}

/**
 * List items of core kinds carry no kind/apiVersion; Secrets are kept without their data; node reports
 * keep only what the roll-up and change detection read (name, resourceVersion, the status without counters).
 */
function normalize(stream: CacheStream, item: ClusterObject): ClusterObject {
  if (stream.role === 'nodeReport') return slimReport(stream, item);
  const object: ClusterObject = { ...item, kind: stream.kind, apiVersion: stream.apiVersion };
  if (stream.kind === SECRET) {
    const {
      data: _data,
      stringData: _stringData,
      ...rest
    } = object as ClusterObject & {
      data?: unknown;
      stringData?: unknown;
    };
    return rest;
  }
  return object;
}

function slimReport(stream: CacheStream, item: ClusterObject): ClusterObject {
  const { name, resourceVersion } = item.metadata;
  const status = item.status ?? {};
  const components = Array.isArray(status['components'])
    ? (status['components'] as Record<string, unknown>[]).map((component) => {
        if (typeof component !== 'object' || component === null) return component;
        const { metrics: _metrics, ...rest } = component;
        return rest;
      })
    : status['components'];
  return {
    kind: stream.kind,
    apiVersion: stream.apiVersion,
    metadata: { name, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    status: { ...status, ...(components === undefined ? {} : { components }) },
  };
}

function sameVersions(
  a: Map<string, KubeObject> | undefined,
  b: Map<string, KubeObject> | undefined,
): boolean {
  const left = a ?? new Map<string, KubeObject>();
  const right = b ?? new Map<string, KubeObject>();
  if (left.size !== right.size) return false;
  for (const [name, object] of left) {
    if (right.get(name)?.metadata.resourceVersion !== object.metadata.resourceVersion) return false;
  }
  return true;
}

/**
 * A graph object whose generation, labels, annotations and deletion mark are unchanged: only its status
 * (or other server-kept metadata) moved, so its domain has nothing new to compile.
 */
export function statusOnlyChange(before: ClusterObject | undefined, after: ClusterObject): boolean {
  if (before === undefined || before.metadata.generation === undefined) return false;
  const a = before.metadata;
  const b = after.metadata;
  return (
    a.generation === b.generation &&
    a.deletionTimestamp === b.deletionTimestamp &&
    JSON.stringify(a.labels ?? {}) === JSON.stringify(b.labels ?? {}) &&
    JSON.stringify(a.annotations ?? {}) === JSON.stringify(b.annotations ?? {})
  );
}

interface ReportStatus {
  domains?: { domain?: unknown }[];
  components?: { domain?: unknown; metrics?: unknown }[];
}

/** Each domain's part of a node report, as comparable text. */
export function reportParts(report: ClusterObject | undefined): Map<string, string> {
  const status = (report?.status ?? {}) as ReportStatus;
  const parts = new Map<string, unknown[]>();
  // a component's counters ride along with every write; they are not what the roll-up shows
  const components = (status.components ?? []).map(({ metrics: _metrics, ...rest }) => rest);
  for (const entry of [...(status.domains ?? []), ...components]) {
    if (typeof entry.domain !== 'string') continue;
    const list = parts.get(entry.domain) ?? [];
    list.push(entry);
    parts.set(entry.domain, list);
  }
  return new Map([...parts].map(([domain, entries]) => [domain, JSON.stringify(entries)]));
}

/** The domains whose part differs between two versions of one node report (either may be absent). */
export function changedReportDomains(
  before: ClusterObject | undefined,
  after: ClusterObject | undefined,
): string[] {
  const old = reportParts(before);
  const current = reportParts(after);
  const domains = new Set([...old.keys(), ...current.keys()]);
  return [...domains].filter((domain) => old.get(domain) !== current.get(domain)).sort();
}
