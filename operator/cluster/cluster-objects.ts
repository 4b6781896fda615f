// The objects of one namespace (a domain) as the CLI reads them from the API server: every graph kind,
// and the resource-version ConfigMaps and Secrets of UPLOAD RESOURCE (decision 0015). The graph objects
// are kept twice: as the compiler reads them (apiVersion, kind, identifying metadata and spec) and as
// listed (with status and managedFields, for DESCRIBE and SHOW).
import { GRAPH_KINDS, isGraphKind, type GraphObject } from '../api/index.js';
import { objectKeyString } from '../diagnostics/diagnostic.js';
import { LABEL_RESOURCE, corePath, customPath } from '../../dataplane/kube/contract.js';
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { ObjectMeta } from '../../dataplane/kube-client/object-meta.js';
import type { DataObject } from '../../dataplane/kube/resource-versions.js';
import { getWithRetry } from './cluster-target.js';

/** A graph object as the API returns it. */
export interface ListedObject {
  apiVersion?: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: Record<string, unknown>;
}

/** A resource-version object: its kind tells how `data` is encoded. */
export interface VersionObject {
  kind: 'ConfigMap' | 'Secret';
  object: DataObject;
}

export interface DomainObjects {
  namespace: string;
  /** By `Kind/name`, as listed. */
  listed: Map<string, ListedObject>;
  versions: VersionObject[];
}

interface List<T> {
  items?: T[];
}

/** `Kind/name`. */
export function idOf(object: { kind: string; metadata: { name: string } }): string {
  return objectKeyString({ kind: object.kind, name: object.metadata.name });
}

/** What the compiler and the statements see of a listed object: no status, no server bookkeeping. */
export function toGraphObject(object: ListedObject): GraphObject {
  const { name, namespace, labels, annotations } = object.metadata;
  const metadata = {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    ...(labels === undefined ? {} : { labels }),
    ...(annotations === undefined ? {} : { annotations }),
  };
  return {
    apiVersion: object.apiVersion ?? '',
    kind: object.kind,
    metadata,
    spec: object.spec,
  } as GraphObject;
}

/** Every graph object of the namespace, then its resource versions: one list per kind. */
export async function listDomain(api: KubeApi, namespace: string): Promise<DomainObjects> {
  const listed = new Map<string, ListedObject>();
  const lists = await Promise.all(
    GRAPH_KINDS.map(async (definition) => {
      const list = await getWithRetry<List<ListedObject>>(api, {
        path: customPath(definition.plural, namespace),
      });
      return (list.items ?? []).map((item) => ({ ...item, kind: definition.kind }));
    }),
  );
  for (const item of lists.flat()) if (isGraphKind(item.kind)) listed.set(idOf(item), item);
  return { namespace, listed, versions: await listVersions(api, namespace) };
}

/** The resource-version ConfigMaps and Secrets of the namespace (label `streamroute.io/resource`). */
export async function listVersions(
  api: KubeApi,
  namespace: string,
  resource?: string,
): Promise<VersionObject[]> {
  const labelSelector = resource === undefined ? LABEL_RESOURCE : `${LABEL_RESOURCE}=${resource}`;
  // Secrets: names, labels and annotations only; the CLI never needs (or receives) key material.
  const [configMaps, secrets] = await Promise.all([
    getWithRetry<List<DataObject>>(api, {
      path: corePath('configmaps', namespace),
      query: { labelSelector },
    }),
    getWithRetry<List<DataObject>>(api, {
      path: corePath('secrets', namespace),
      query: { labelSelector },
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    }),
  ]);
  return [
    ...(configMaps?.items ?? []).map((object) => ({ kind: 'ConfigMap' as const, object })),
    ...(secrets?.items ?? []).map((object) => ({ kind: 'Secret' as const, object })),
  ];
}

/** The field managers of an object, for SHOW's DECLARED IN column. */
export function managersOf(object: ListedObject): string {
  const managers = new Set((object.metadata.managedFields ?? []).map((entry) => entry.manager ?? '?'));
  return managers.size === 0 ? '-' : [...managers].sort().join(', ');
}
