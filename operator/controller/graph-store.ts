// The graph objects of a domain on the API server (docs/decisions/0015): the immutable version
// ConfigMaps, the pointer and the index. Thin I/O: what to write is decided in publish-decision.ts and
// graph-index.ts. Version ConfigMaps are immutable, so what is read of them is kept in memory: the
// versions of a domain are listed once (label-selected), and a version's inputs are read once.
import {
  ANNOTATION_SHA256,
  INDEX_NAME,
  LABEL_COMPONENT,
  LABEL_DOMAIN,
  LABEL_GRAPH_VERSION,
  MANAGED_BY,
  POINTER_NAME,
  corePath,
  graphConfigMapName,
  type GraphPointer,
} from '../../dataplane/kube/contract.js';
import type { ConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { isStatus, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { decodeInputs, INPUTS_GZIP_KEY, type GraphInputs } from './graph-inputs.js';
import { editIndex, type IndexEntry } from './graph-index.js';
import { parsePointer, pointerData, type VersionHead } from './publish-decision.js';

interface DomainCache {
  /** Version → sha256 of every version known to exist. */
  versions: Map<number, string>;
  inputs: Map<number, GraphInputs>;
}

export interface PointerState {
  pointer: GraphPointer | undefined;
  /** The pointer ConfigMap as read (for its resourceVersion); undefined when it does not exist. */
  object: ConfigMap | undefined;
}

const INDEX_RETRIES = 8;

export class GraphStore {
  readonly #api: KubeApi;
  readonly #domains = new Map<string, DomainCache>();
  /** The index entry last written or confirmed per domain (null: confirmed absent). */

  constructor(api: KubeApi) {
    this.#api = api;
  }

  async readPointer(domain: string): Promise<PointerState> {
    const object = await this.#get(corePath('configmaps', domain, POINTER_NAME));
    return { pointer: parsePointer(object?.data), object };
  }

  /** The newest version of the domain (listed on first use). */
  async head(domain: string): Promise<VersionHead | undefined> {
    const cache = await this.#cache(domain);
    if (cache.versions.size === 0) return undefined;
    const version = Math.max(...cache.versions.keys());
    return { version, sha256: cache.versions.get(version) ?? '' };
  }

  /** The sha256 annotation of a kept version; undefined when it does not exist. */
  async sha256Of(domain: string, version: number): Promise<string | undefined> {
    return (await this.#cache(domain)).versions.get(version);
  }

  async inputsOf(domain: string, version: number): Promise<GraphInputs> {
    const cache = await this.#cache(domain);
    const known = cache.inputs.get(version);
    if (known !== undefined) return known;
    const object = await this.#get(corePath('configmaps', domain, graphConfigMapName(version)));
    const inputs = decodeInputs(object?.binaryData?.[INPUTS_GZIP_KEY]);
    cache.inputs.set(version, inputs);
    return inputs;
  }

  /** Creates a version ConfigMap; a conflict (another writer, a stale cache) forgets the domain. */
  async createVersion(
    domain: string,
    version: number,
    configMap: ConfigMap,
    inputs: GraphInputs,
  ): Promise<void> {
    try {
      await this.#api.request({ method: 'POST', path: corePath('configmaps', domain), body: configMap });
    } catch (error) {
      if (isStatus(error, 409)) this.#domains.delete(domain);
      throw error;
    }
    const cache = await this.#cache(domain);
    cache.versions.set(version, configMap.metadata.annotations?.[ANNOTATION_SHA256] ?? '');
    cache.inputs.set(version, inputs);
  }

  /** Creates or replaces the pointer (replace carries the resourceVersion read, so a lost race is a 409). */
  async writePointer(domain: string, state: PointerState, pointer: GraphPointer): Promise<void> {
    const body: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        ...(state.object?.metadata ?? {}),
        name: POINTER_NAME,
        namespace: domain,
        labels: { ...(state.object?.metadata.labels ?? {}), ...MANAGED_BY },
      },
      data: pointerData(pointer),
    };
    if (state.object === undefined)
      await this.#api.request({ method: 'POST', path: corePath('configmaps', domain), body });
    else await this.#api.request({ method: 'PUT', path: corePath('configmaps', domain, POINTER_NAME), body });
  }

  /**
   * Sets (or removes) the domain's index entry: read-modify-write, retried on conflict. The index is read
   * every time (never cached): another replica, or a person, may have changed or deleted it.
   */
  async setIndex(namespace: string, domain: string, entry: IndexEntry | undefined): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      const object = await this.#get(corePath('configmaps', namespace, INDEX_NAME));
      const data = editIndex(object, domain, entry);
      try {
        if (data !== undefined) await this.#writeIndex(namespace, object, data);
        return data !== undefined;
      } catch (error) {
        if (!(isStatus(error, 409) && attempt < INDEX_RETRIES)) throw error;
      }
    }
  }

  /** Deletes the given versions (already gone is fine). */
  async prune(domain: string, versions: readonly number[]): Promise<void> {
    const cache = await this.#cache(domain);
    for (const version of versions) {
      try {
        await this.#api.request({
          method: 'DELETE',
          path: corePath('configmaps', domain, graphConfigMapName(version)),
        });
      } catch (error) {
        if (!isStatus(error, 404)) throw error;
      }
      cache.versions.delete(version);
      cache.inputs.delete(version);
    }
  }

  async versions(domain: string): Promise<number[]> {
    return [...(await this.#cache(domain)).versions.keys()];
  }

  /** Forgets what is cached of a domain (after an error, or when it is gone). */
  forget(domain: string): void {
    this.#domains.delete(domain);
  }

  async #writeIndex(
    namespace: string,
    object: ConfigMap | undefined,
    data: Record<string, string>,
  ): Promise<void> {
    const metadata = {
      ...(object?.metadata ?? {}),
      name: INDEX_NAME,
      namespace,
      labels: { ...(object?.metadata.labels ?? {}), ...MANAGED_BY },
    };
    const body: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
    if (object === undefined)
      await this.#api.request({ method: 'POST', path: corePath('configmaps', namespace), body });
    else
      await this.#api.request({ method: 'PUT', path: corePath('configmaps', namespace, INDEX_NAME), body });
  }

  async #cache(domain: string): Promise<DomainCache> {
    const known = this.#domains.get(domain);
    if (known !== undefined) return known;
    const selector = `${LABEL_COMPONENT}=graph,${LABEL_DOMAIN}=${domain}`;
    const list = await this.#api.request<{ items: ConfigMap[] }>({
      path: corePath('configmaps', domain),
      query: { labelSelector: selector },
    });
    const cache: DomainCache = { versions: new Map(), inputs: new Map() };
    for (const item of list.items) {
      const version = Number(item.metadata.labels?.[LABEL_GRAPH_VERSION]);
      if (!Number.isSafeInteger(version) || version < 1) continue;
      cache.versions.set(version, item.metadata.annotations?.[ANNOTATION_SHA256] ?? '');
      cache.inputs.set(version, decodeInputs(item.binaryData?.[INPUTS_GZIP_KEY]));
    }
    this.#domains.set(domain, cache);
    return cache;
  }

  async #get(path: string): Promise<ConfigMap | undefined> {
    try {
      return await this.#api.request<ConfigMap>({ path });
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  }
}
