// The objects the operator, the data plane and the CLI share on a cluster: names, labels, annotations
// and the formats of the graph, pointer, index and resource-version objects. One place, so the three
// sides cannot drift; docs/decisions/0015-kubernetes-objects.md explains each choice.

export const GROUP = 'streamroute.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const FIELD_MANAGER = 'streamroute';

/** Label every object written by streamroute carries. */
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'streamroute' } as const;

export const LABEL_DOMAIN = 'streamroute.io/domain';
export const LABEL_GRAPH_VERSION = 'streamroute.io/graph-version';
export const LABEL_RESOURCE = 'streamroute.io/resource';
export const LABEL_RESOURCE_VERSION = 'streamroute.io/resource-version';
/** Label selecting the immutable graph-version ConfigMaps of a domain. */
export const LABEL_COMPONENT = 'app.kubernetes.io/component';

export const ANNOTATION_SHA256 = 'streamroute.io/sha256';
/** `json` (data `graph.json`) or `gzip` (binaryData `graph.json.gz`). */
export const ANNOTATION_ENCODING = 'streamroute.io/encoding';
/** JSON array of the paths inside a resource version, in the order of its keys `file-0`, `file-1`, … */
export const ANNOTATION_FILES = 'streamroute.io/files';
/**
 * On the index: the fleet's size as the operator counts DataplaneNode reports, rounded up to a power of
 * two; every node derives its report timing from it (fleet-policy.ts, decision 0018).
 */
export const ANNOTATION_FLEET_NODES = 'streamroute.io/fleet-nodes';
/** A CLI transaction (BEGIN … COMMIT): its id, how many objects it applied, and which (Kind/name, …). */
export const ANNOTATION_TRANSACTION = 'streamroute.io/transaction';
export const ANNOTATION_TRANSACTION_SIZE = 'streamroute.io/transaction-size';
export const ANNOTATION_TRANSACTION_MEMBERS = 'streamroute.io/transaction-members';

/** Immutable ConfigMap holding graph version `n` of a domain, in the domain's namespace. */
export function graphConfigMapName(version: number): string {
  return `streamroute-graph-v${version}`;
}
/** The pointer ConfigMap in each domain's namespace (data: see GraphPointer). */
export const POINTER_NAME = 'streamroute-graph';
/** The index ConfigMap in the operator's namespace: every domain's active version (data: `index.json`). */
export const INDEX_NAME = 'streamroute-index';
export const INDEX_KEY = 'index.json';
/** The Lease two operator replicas elect a leader with, in the operator's namespace. */
export const LEASE_NAME = 'streamroute-operator';

export const GRAPH_JSON_KEY = 'graph.json';
export const GRAPH_GZIP_KEY = 'graph.json.gz';
/** Graphs larger than this are gzipped into binaryData. */
export const GZIP_ABOVE_BYTES = 256 * 1024;
/** A graph ConfigMap's payload may not exceed this (the API's object limit is 1 MiB; keep room). */
export const GRAPH_SIZE_GUARD_BYTES = 900 * 1024;

/** Immutable ConfigMap (or Secret, when a file holds a private key) holding one resource version. */
export function resourceVersionObjectName(resource: string, version: number): string {
  return `streamroute-resource-${resource}-v${version}`;
}
export function resourceFileKey(index: number): string {
  return `file-${index}`;
}

/** The pointer's data: which version a domain runs. `pinned` is set by `streamroute rollback`. */
export interface GraphPointer {
  version: number;
  configMap: string;
  sha256: string;
  /** Version pinned by rollback; the operator publishes no newer version while it is set. */
  pinned?: number;
}

/** `index.json` in the index ConfigMap: one watch of it tells a node every domain and its version. */
export interface GraphIndex {
  domains: Record<string, { version: number; sha256: string }>;
  /** The fleet size annotation (ANNOTATION_FLEET_NODES), when the operator has published one. */
  fleetNodes?: number;
}

export const DATAPLANE_NODE_PLURAL = 'dataplanenodes';
/** A node report is never larger than this (JSON of the status). */
export const NODE_REPORT_MAX_BYTES = 4096;

/** `/apis/streamroute.io/v1alpha1[/namespaces/<ns>]/<plural>[/<name>]` */
export function customPath(plural: string, namespace?: string, name?: string): string {
  const scope = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
  const tail = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  return `/apis/${API_VERSION}${scope}/${plural}${tail}`;
}
/** `/api/v1[/namespaces/<ns>]/<plural>[/<name>]` for core kinds (configmaps, secrets, pods, events). */
export function corePath(plural: string, namespace?: string, name?: string): string {
  const scope = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
  const tail = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  return `/api/v1${scope}/${plural}${tail}`;
}
