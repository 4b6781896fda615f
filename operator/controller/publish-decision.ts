// Whether and how a compiled graph is published, decided without I/O (docs/decisions/0015): only a
// graph whose SHA-256 (over its canonical JSON) differs from the newest version gets a new immutable
// `streamroute-graph-v<N+1>`; gzip above 256 KiB; refused above the 900 KiB guard; the pointer moves
// unless a rollback pinned it; old versions beyond K are pruned, never the pointed-at or pinned one.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  ANNOTATION_ENCODING,
  ANNOTATION_SHA256,
  GRAPH_GZIP_KEY,
  GRAPH_JSON_KEY,
  GRAPH_SIZE_GUARD_BYTES,
  GZIP_ABOVE_BYTES,
  LABEL_COMPONENT,
  LABEL_DOMAIN,
  LABEL_GRAPH_VERSION,
  MANAGED_BY,
  graphConfigMapName,
  type GraphPointer,
} from '../../dataplane/kube/contract.js';
import type { ConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { INPUTS_GZIP_KEY } from './graph-inputs.js';

/** The newest graph version that exists for a domain. */
export interface VersionHead {
  version: number;
  sha256: string;
}

export type PublishDecision =
  | { action: 'unchanged'; sha256: string }
  /** The newest version already holds this graph, but the (unpinned) pointer names another. */
  | { action: 'repoint'; sha256: string; version: number }
  | { action: 'too-large'; sha256: string; bytes: number; limit: number }
  | {
      action: 'publish';
      sha256: string;
      version: number;
      configMap: ConfigMap;
      bytes: number;
      movePointer: boolean;
    };

export interface PublishInput {
  domain: string;
  /** Canonical JSON of the graph (canonical-json.ts). */
  graphJson: string;
  /** Gzip of the graph's inputs (graph-inputs.ts). */
  inputs: Buffer;
  head: VersionHead | undefined;
  pointer: GraphPointer | undefined;
  sizeGuardBytes?: number;
}

export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export function decidePublish(input: PublishInput): PublishDecision {
  const sha256 = sha256Hex(input.graphJson);
  const { head, pointer } = input;
  if (head !== undefined && head.sha256 === sha256) return sameAsHead(sha256, head, pointer);
  const version = nextVersion(head, pointer);
  const { domain, graphJson, inputs } = input;
  const configMap = graphConfigMap({ domain, version, sha256, graphJson, inputs });
  const bytes = payloadBytes(configMap);
  const limit = input.sizeGuardBytes ?? GRAPH_SIZE_GUARD_BYTES;
  if (bytes > limit) return { action: 'too-large', sha256, bytes, limit };
  return { action: 'publish', sha256, version, configMap, bytes, movePointer: pointer?.pinned === undefined };
}

/** After every version known: the newest, the pointed-at and the pinned one. */
function nextVersion(head: VersionHead | undefined, pointer: GraphPointer | undefined): number {
  const known = [head?.version, pointer?.version, pointer?.pinned].filter((v) => v !== undefined);
  return Math.max(0, ...known) + 1;
}

function sameAsHead(sha256: string, head: VersionHead, pointer: GraphPointer | undefined): PublishDecision {
  if (pointer?.pinned !== undefined || pointer?.version === head.version)
    return { action: 'unchanged', sha256 };
  return { action: 'repoint', sha256, version: head.version };
}

/** Bytes the ConfigMap's payload occupies: text as UTF-8, binary values as decoded bytes. */
export function payloadBytes(configMap: ConfigMap): number {
  let bytes = 0;
  for (const value of Object.values(configMap.data ?? {})) bytes += Buffer.byteLength(value, 'utf8');
  for (const value of Object.values(configMap.binaryData ?? {})) bytes += Buffer.from(value, 'base64').length;
  return bytes;
}

export interface GraphVersionContent {
  domain: string;
  version: number;
  sha256: string;
  graphJson: string;
  /** Gzip of the graph's inputs. */
  inputs: Buffer;
}

export function graphConfigMap({
  domain,
  version,
  sha256,
  graphJson,
  inputs,
}: GraphVersionContent): ConfigMap {
  const gzip = Buffer.byteLength(graphJson, 'utf8') > GZIP_ABOVE_BYTES;
  const binaryData: Record<string, string> = { [INPUTS_GZIP_KEY]: inputs.toString('base64') };
  if (gzip) binaryData[GRAPH_GZIP_KEY] = gzipSync(Buffer.from(graphJson, 'utf8')).toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: graphConfigMapName(version),
      namespace: domain,
      labels: {
        ...MANAGED_BY,
        [LABEL_COMPONENT]: 'graph',
        [LABEL_DOMAIN]: domain,
        [LABEL_GRAPH_VERSION]: String(version),
      },
      annotations: { [ANNOTATION_SHA256]: sha256, [ANNOTATION_ENCODING]: gzip ? 'gzip' : 'json' },
    },
    immutable: true,
    ...(gzip ? {} : { data: { [GRAPH_JSON_KEY]: graphJson } }),
    binaryData,
  };
}

/** The pointer's data after publishing `version` (a pin is kept as it is). */
export function pointerData(pointer: GraphPointer): Record<string, string> {
  return {
    version: String(pointer.version),
    configMap: pointer.configMap,
    sha256: pointer.sha256,
    ...(pointer.pinned === undefined ? {} : { pinned: String(pointer.pinned) }),
  };
}

/** Reads a pointer ConfigMap's data defensively; undefined when it names no version. */
export function parsePointer(data: Record<string, string> | undefined): GraphPointer | undefined {
  const version = Number(data?.version);
  if (data === undefined || !Number.isSafeInteger(version) || version < 1) return undefined;
  const pinned = Number(data.pinned);
  return {
    version,
    configMap: data.configMap ?? graphConfigMapName(version),
    sha256: data.sha256 ?? '',
    ...(Number.isSafeInteger(pinned) && pinned >= 1 ? { pinned } : {}),
  };
}

/** Versions to delete: all but the newest `keep`, never the pointed-at or pinned one. */
export function versionsToPrune(
  versions: readonly number[],
  keep: number,
  pointer: GraphPointer | undefined,
): number[] {
  const protectedVersions = new Set([pointer?.version, pointer?.pinned]);
  const newestFirst = [...new Set(versions)].sort((a, b) => b - a);
  return newestFirst.slice(Math.max(1, keep)).filter((version) => !protectedVersions.has(version));
}
