// Decoding the objects the operator publishes (docs/decisions/0015-kubernetes-objects.md): the index
// ConfigMap (`index.json`: every domain and its version) and one immutable graph-version ConfigMap
// (`graph.json`, or gzip in `binaryData["graph.json.gz"]`, checked against its sha256 annotation). Pure:
// a decode never throws; a refusal says which object and what was expected, never the graph's content.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import {
  ANNOTATION_FLEET_NODES,
  ANNOTATION_ENCODING,
  ANNOTATION_SHA256,
  GRAPH_GZIP_KEY,
  GRAPH_JSON_KEY,
  INDEX_KEY,
  type GraphIndex,
} from './contract.js';
import type { KubeObject } from '../kube-client/list-watch.js';
import { parseFleetNodes } from './fleet-policy.js';

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  /** Base64 values. */
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

/** A graph ConfigMap decoded: the graph JSON (not yet checked by the loader) and its sizes. */
export interface DecodedGraph {
  json: unknown;
  sha256: string;
  /** Bytes of the graph JSON, and of the payload as stored (smaller when gzipped). */
  jsonBytes: number;
  storedBytes: number;
  encoding: 'json' | 'gzip';
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

/** Graphs larger than this after gunzip are refused (a stored payload is ≤ 900 KiB; keep a bound). */
export const MAX_GRAPH_JSON_BYTES = 64 * 1024 * 1024;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The graph of `streamroute-graph-v<N>`: decoded, its sha256 verified, parsed as JSON. */
export function decodeGraphConfigMap(configMap: ConfigMap): Decoded<DecodedGraph> {
  const what = `ConfigMap ${configMap.metadata.namespace ?? ''}/${configMap.metadata.name}`;
  const annotations = configMap.metadata.annotations ?? {};
  const encoding = annotations[ANNOTATION_ENCODING] ?? 'json';
  const expected = annotations[ANNOTATION_SHA256];
  if (expected === undefined || !/^[0-9a-f]{64}$/.test(expected))
    return refuse(`${what} has no valid ${ANNOTATION_SHA256} annotation (expected 64 lower-case hex digits)`);
  const payload = payloadOf(configMap, encoding, what);
  if (!payload.ok) return payload;
  const { bytes, storedBytes } = payload.value;
  const actual = sha256Hex(bytes);
  if (actual !== expected)
    return refuse(
      `${what}: sha256 mismatch: the annotation ${ANNOTATION_SHA256} says ${expected}, the graph JSON (${bytes.length} bytes) hashes to ${actual}; the graph is not used`,
    );
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return refuse(`${what}: ${GRAPH_JSON_KEY} is not valid JSON`);
  }
  return {
    ok: true,
    value: {
      json,
      sha256: actual,
      jsonBytes: bytes.length,
      storedBytes,
      encoding: encoding as 'json' | 'gzip',
    },
  };
}

function payloadOf(
  configMap: ConfigMap,
  encoding: string,
  what: string,
): Decoded<{ bytes: Buffer; storedBytes: number }> {
  if (encoding === 'json') {
    const text = configMap.data?.[GRAPH_JSON_KEY];
    if (text === undefined) return refuse(`${what} (encoding json) has no data["${GRAPH_JSON_KEY}"]`);
    const bytes = Buffer.from(text, 'utf8');
    return { ok: true, value: { bytes, storedBytes: bytes.length } };
  }
  if (encoding === 'gzip') {
    const base64 = configMap.binaryData?.[GRAPH_GZIP_KEY];
    if (base64 === undefined) return refuse(`${what} (encoding gzip) has no binaryData["${GRAPH_GZIP_KEY}"]`);
    const stored = Buffer.from(base64, 'base64');
    try {
      const bytes = gunzipSync(stored, { maxOutputLength: MAX_GRAPH_JSON_BYTES });
      return { ok: true, value: { bytes, storedBytes: stored.length } };
    } catch {
      return refuse(
        `${what}: binaryData["${GRAPH_GZIP_KEY}"] is not a gzip stream of at most ${MAX_GRAPH_JSON_BYTES} bytes`,
      );
    }
  }
  return refuse(`${what}: unknown ${ANNOTATION_ENCODING} "${encoding}" (expected json or gzip)`);
}

/** `index.json` of the index ConfigMap; entries that are not `{version ≥ 1, sha256}` are reported. */
export function decodeIndex(configMap: ConfigMap): Decoded<GraphIndex> {
  const what = `ConfigMap ${configMap.metadata.namespace ?? ''}/${configMap.metadata.name}`;
  const text = configMap.data?.[INDEX_KEY];
  if (text === undefined) return refuse(`${what} has no data["${INDEX_KEY}"]`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refuse(`${what}: ${INDEX_KEY} is not valid JSON`);
  }
  const domains = (parsed as { domains?: unknown } | null)?.domains;
  if (typeof domains !== 'object' || domains === null || Array.isArray(domains))
    return refuse(`${what}: ${INDEX_KEY} has no "domains" object`);
  const fleetNodes = parseFleetNodes(configMap.metadata.annotations?.[ANNOTATION_FLEET_NODES]);
  const index: GraphIndex = { domains: {}, ...(fleetNodes === undefined ? {} : { fleetNodes }) };
  for (const [domain, entry] of Object.entries(domains as Record<string, unknown>)) {
    const parsedEntry = indexEntry(entry);
    if (parsedEntry === undefined)
      return refuse(`${what}: ${INDEX_KEY} domain "${domain}" needs {"version": N ≥ 1, "sha256": "…"}`);
    index.domains[domain] = parsedEntry;
  }
  return { ok: true, value: index };
}

function indexEntry(entry: unknown): { version: number; sha256: string } | undefined {
  const { version, sha256 } = (entry ?? {}) as { version?: unknown; sha256?: unknown };
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) return undefined;
  return typeof sha256 === 'string' ? { version, sha256 } : undefined;
}

function refuse<T>(error: string): Decoded<T> {
  return { ok: false, error };
}
