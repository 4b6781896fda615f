// The index ConfigMap (`streamroute-index`, data `index.json`) as a pure edit: one domain's entry set or
// removed. Decided here, written by read-modify-write with resourceVersion in graph-store.ts.
import { INDEX_KEY, type GraphIndex } from '../../dataplane/kube/contract.js';
import { decodeIndex, type ConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { canonicalJson } from '../api/canonical-json.js';

export type IndexEntry = GraphIndex['domains'][string];

/** The index's `data` with the domain's entry set (or removed), or undefined when nothing changes. */
function indexOf(configMap: ConfigMap | undefined): GraphIndex {
  const decoded = configMap === undefined ? undefined : decodeIndex(configMap);
  return decoded?.ok === true ? decoded.value : { domains: {} };
}

export function editIndex(
  configMap: ConfigMap | undefined,
  domain: string,
  entry: IndexEntry | undefined,
): Record<string, string> | undefined {
  const index = indexOf(configMap);
  const current = index.domains[domain];
  if (current?.version === entry?.version && current?.sha256 === entry?.sha256) return undefined;
  const domains = { ...index.domains };
  if (entry === undefined) delete domains[domain];
  else domains[domain] = { version: entry.version, sha256: entry.sha256 };
  return { ...(configMap?.data ?? {}), [INDEX_KEY]: canonicalJson({ domains }) };
}
