// Moves the data plane to what the index says: for each domain whose version differs from the one it
// runs, read the immutable graph ConfigMap once (cached by domain and version), read every resource
// version and TLS Secret it mounts, then `DataPlane.apply` it (the hot reload). A graph that cannot be
// read, decoded or run leaves the domain on the graph it runs, with the error kept for the node report. A
// domain gone from the index is removed. Syncs run one at a time; an index that arrives during one is
// synced next (only the newest). A transient failure (an API error, a resource version not yet there) is
// tried again on a doubling backoff; a refused version is not tried again until the index moves on.
import type { Logger } from 'pino';
import type { ApplyResult } from '../node/apply-result.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { corePath, graphConfigMapName, resourceVersionObjectName, type GraphIndex } from './contract.js';
import { decodeGraphConfigMap, type ConfigMap, type Decoded, type DecodedGraph } from './graph-configmap.js';
import { errorText, isStatus, type KubeApi } from '../kube-client/kube-api.js';
import {
  decodeResourceVersion,
  decodeTlsSecret,
  mountsOf,
  ResourceCache,
  type DataObject,
  type ResourceRef,
} from './resource-versions.js';

/** What the sync needs of the data plane. */
export interface SyncTarget {
  apply(graph: unknown, version: number): Promise<ApplyResult>;
  removeDomain(domain: string): Promise<void>;
}

export interface GraphSyncOptions {
  api: Pick<KubeApi, 'request'>;
  target: SyncTarget;
  cache: ResourceCache;
  logger: Logger;
  clock: Clock;
  /** Wall-clock time as RFC 3339 (appliedAt). */
  now: () => string;
  /** A new graph version runs (the report's first write waits a random delay). */
  onApplied?: (domain: string, version: number) => void;
  /** Something the node report shows changed (an error appeared or cleared, a domain left). */
  onChange?: () => void;
  retry?: { initialMs: number; maxMs: number };
}

/** One domain as the node report shows it. */
export interface DomainState {
  domain: string;
  /** The version it runs (0: none yet). */
  graphVersion: number;
  appliedAt?: string;
  /** Why the newest version the index names does not run. */
  error?: string;
}

interface Domain {
  running: number;
  /** The running graph's JSON (its components are what the report describes). */
  graph: unknown;
  appliedAt?: string;
  error?: string;
  /** Version whose failure is final (refused or undecodable): not tried again. */
  refused?: number;
  /** Resource versions the running graph mounts that were not found yet. */
  missing: ResourceRef[];
}

const ERROR_MAX = 1024;

export class GraphSync {
  readonly #o: GraphSyncOptions;
  readonly #log: Logger;
  readonly #domains = new Map<string, Domain>();
  /** Decoded graph ConfigMaps by `domain@version` (immutable objects: read once). */
  readonly #graphs = new Map<string, Decoded<DecodedGraph>>();
  #wanted: GraphIndex | undefined;
  #synced: GraphIndex | undefined;
  #loop: Promise<void> | undefined;
  #retryTimer: TimerHandle | undefined;
  #retryMs: number;
  #stopped = false;

  constructor(options: GraphSyncOptions) {
    this.#o = options;
    this.#log = options.logger.child({ component: 'graph-sync' });
    this.#retryMs = options.retry?.initialMs ?? 1000;
  }

  /** Syncs to `index` (after any sync running now); resolves when the node runs what it can of it. */
  update(index: GraphIndex): Promise<void> {
    this.#wanted = index;
    this.#loop ??= this.#run().finally(() => (this.#loop = undefined));
    return this.#loop;
  }

  /** Domains and the versions they run, with errors. */
  states(): DomainState[] {
    return [...this.#domains].map(([domain, state]) => ({
      domain,
      graphVersion: state.running,
      ...(state.appliedAt === undefined ? {} : { appliedAt: state.appliedAt }),
      ...(state.error === undefined ? {} : { error: state.error }),
    }));
  }

  /** The fleet size the newest index publishes (fleet-policy.ts); undefined when it publishes none. */
  fleetNodes(): number | undefined {
    return this.#wanted?.fleetNodes;
  }

  /** The JSON of the graph a domain runs (undefined when none runs). */
  runningGraph(domain: string): unknown {
    return this.#domains.get(domain)?.graph;
  }

  /** Stops syncing; resolves once a sync in flight has finished (it applies nothing more after it). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retryTimer !== undefined) this.#o.clock.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped && this.#wanted !== undefined && this.#wanted !== this.#synced) {
      const index = this.#wanted;
      let transient: boolean;
      try {
        transient = await this.#syncIndex(index);
      } catch (error: unknown) {
        // the data plane threw (it should answer with a refusal): try again on the backoff, never
        // leave a rejection nobody awaits (callers start syncs with `void`)
        this.#log.error(
          { event: 'sync_failed', error: error instanceof Error ? error.name : 'unknown' },
          'applying the index failed; retrying',
        );
        transient = true;
      }
      this.#synced = index;
      this.#armRetry(transient);
    }
  }

  /** One pass; resolves whether something failed that is worth trying again. */
  async #syncIndex(index: GraphIndex): Promise<boolean> {
    let transient = false;
    for (const domain of [...this.#domains.keys()]) {
      if (Object.hasOwn(index.domains, domain)) continue;
      this.#domains.delete(domain);
      this.#forgetGraphs(domain, undefined);
      await this.#o.target.removeDomain(domain);
      this.#o.cache.dropDomain(domain);
      this.#log.info({ event: 'domain_left_index', domain }, 'domain removed from the index');
      this.#o.onChange?.();
    }
    for (const [domain, entry] of Object.entries(index.domains)) {
      if (this.#stopped) return false;
      if (!(await this.#syncDomain(domain, entry))) transient = true;
    }
    return transient;
  }

  /** Resolves false when a transient failure should be tried again. */
  async #syncDomain(domain: string, entry: { version: number; sha256: string }): Promise<boolean> {
    const state = this.#domains.get(domain) ?? { running: 0, graph: undefined, missing: [] };
    this.#domains.set(domain, state);
    if (state.running === entry.version) return this.#fetchMissing(domain, state);
    if (state.refused === entry.version) return true;
    const loaded = await this.#readGraph(domain, entry.version);
    if ('transient' in loaded)
      return this.#fail(domain, state, { version: entry.version, error: loaded.transient, final: false });
    if (!loaded.ok)
      return this.#fail(domain, state, { version: entry.version, error: loaded.error, final: true });
    const graph = loaded.value;
    if (graph.sha256 !== entry.sha256) {
      const error = `index names sha256 ${entry.sha256} for version ${entry.version}, ConfigMap ${graphConfigMapName(entry.version)} holds ${graph.sha256}`;
      return this.#fail(domain, state, { version: entry.version, error, final: true });
    }
    const mounts = await this.#readMounts(domain, graph.json);
    if ('transient' in mounts)
      return this.#fail(domain, state, { version: entry.version, error: mounts.transient, final: false });
    const result = await this.#o.target.apply(graph.json, entry.version);
    if (!result.ok)
      return this.#fail(domain, state, {
        version: entry.version,
        error: result.errors.join('; '),
        final: true,
      });
    this.#applied(domain, state, { version: entry.version, graph, missing: mounts.missing });
    return mounts.missing.length === 0;
  }

  #applied(
    domain: string,
    state: Domain,
    applied: { version: number; graph: DecodedGraph; missing: ResourceRef[] },
  ): void {
    const previous = state.running;
    Object.assign(state, {
      running: applied.version,
      graph: applied.graph.json,
      appliedAt: this.#o.now(),
      missing: applied.missing,
    });
    delete state.error;
    delete state.refused;
    this.#forgetGraphs(domain, applied.version);
    this.#log.info(
      {
        event: 'graph_loaded',
        domain,
        version: applied.version,
        previousVersion: previous,
        encoding: applied.graph.encoding,
        jsonBytes: applied.graph.jsonBytes,
        storedBytes: applied.graph.storedBytes,
        missingResources: applied.missing.length,
        cachedResourceBytes: this.#o.cache.bytes,
      },
      'graph version loaded and applied',
    );
    this.#o.onApplied?.(domain, applied.version);
    this.#o.onChange?.();
  }

  #fail(domain: string, state: Domain, failure: { version: number; error: string; final: boolean }): boolean {
    const { version, error, final } = failure;
    const text = `graph version ${version}: ${error}`.slice(0, ERROR_MAX);
    if (final) state.refused = version;
    const changed = state.error !== text;
    state.error = text;
    if (changed) {
      this.#log.warn(
        { event: 'graph_load_failed', domain, version, running: state.running, final, error: text },
        'graph version not applied; the running one stays',
      );
      this.#o.onChange?.();
    }
    return final;
  }

  async #readGraph(domain: string, version: number): Promise<Decoded<DecodedGraph> | { transient: string }> {
    const key = `${domain}@${version}`;
    const cached = this.#graphs.get(key);
    if (cached !== undefined) return cached;
    const name = graphConfigMapName(version);
    try {
      const configMap = await this.#o.api.request<ConfigMap>({ path: corePath('configmaps', domain, name) });
      const decoded = decodeGraphConfigMap(configMap);
      this.#graphs.set(key, decoded);
      return decoded;
    } catch (error: unknown) {
      return { transient: `cannot read ConfigMap ${domain}/${name}: ${errorText(error)}` };
    }
  }

  /** Reads what the graph mounts and is not cached; missing resource versions are listed, not fatal. */
  async #readMounts(
    domain: string,
    json: unknown,
  ): Promise<{ missing: ResourceRef[] } | { transient: string }> {
    const mounts = mountsOf(json);
    try {
      for (const name of mounts.secrets) {
        const secret = await this.#get('secrets', domain, name);
        if (secret !== undefined) this.#o.cache.putSecret(domain, name, decodeTlsSecret(secret));
      }
      const missing: ResourceRef[] = [];
      for (const ref of mounts.resources) if (!(await this.#readResource(domain, ref))) missing.push(ref);
      return { missing };
    } catch (error: unknown) {
      return { transient: errorText(error) };
    }
  }

  /** Whether the resource version is (now) in the cache. */
  async #readResource(domain: string, ref: ResourceRef): Promise<boolean> {
    if (this.#o.cache.hasVersion(domain, ref)) return true;
    const name = resourceVersionObjectName(ref.resource, ref.version);
    const configMap = await this.#get('configmaps', domain, name);
    const secret = configMap === undefined ? await this.#get('secrets', domain, name) : undefined;
    const object = configMap ?? secret;
    if (object === undefined) {
      this.#log.warn(
        { event: 'resource_version_missing', domain, resource: ref.resource, version: ref.version },
        'a resource version the graph mounts is not there yet; retrying',
      );
      return false;
    }
    const files = decodeResourceVersion(object, configMap === undefined ? 'Secret' : 'ConfigMap');
    this.#o.cache.putVersion(domain, ref, files);
    const bytes = [...files.values()].reduce((sum, file) => sum + file.length, 0);
    this.#log.info(
      {
        event: 'resource_version_read',
        domain,
        resource: ref.resource,
        version: ref.version,
        files: files.size,
        bytes,
      },
      'resource version read',
    );
    return true;
  }

  /** Resource versions that were missing when the running graph was applied; re-applies once all arrive. */
  async #fetchMissing(domain: string, state: Domain): Promise<boolean> {
    if (state.missing.length === 0) return true;
    try {
      const still: ResourceRef[] = [];
      for (const ref of state.missing) if (!(await this.#readResource(domain, ref))) still.push(ref);
      const arrived = still.length < state.missing.length;
      state.missing = still;
      // Routes are rebuilt on apply: a vhost's certificate that just arrived is served from now on.
      if (arrived) await this.#o.target.apply(state.graph, state.running);
      return still.length === 0;
    } catch (error: unknown) {
      this.#log.warn({ event: 'resource_read_failed', domain, error: errorText(error) }, 'retrying');
      return false;
    }
  }

  async #get(
    plural: 'configmaps' | 'secrets',
    domain: string,
    name: string,
  ): Promise<DataObject | undefined> {
    try {
      return await this.#o.api.request<DataObject>({ path: corePath(plural, domain, name) });
    } catch (error: unknown) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  }

  /** Keeps the decoded graph of `keep` (the running version) only. */
  #forgetGraphs(domain: string, keep: number | undefined): void {
    for (const key of [...this.#graphs.keys()])
      if (key.startsWith(`${domain}@`) && key !== `${domain}@${keep}`) this.#graphs.delete(key);
  }

  #armRetry(needed: boolean): void {
    if (this.#retryTimer !== undefined) this.#o.clock.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const policy = this.#o.retry ?? { initialMs: 1000, maxMs: 60_000 };
    if (!needed || this.#stopped) {
      this.#retryMs = policy.initialMs;
      return;
    }
    const wait = this.#retryMs;
    this.#retryMs = Math.min(policy.maxMs, wait * 2);
    this.#retryTimer = this.#o.clock.setTimeout(() => {
      this.#retryTimer = undefined;
      this.#synced = undefined;
      if (this.#wanted !== undefined) void this.update(this.#wanted);
    }, wait);
  }
}
