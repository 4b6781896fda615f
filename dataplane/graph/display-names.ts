// The names the data plane shows people — in logs, metric label values, DESCRIBE and subscription errors
// — looked up in the Graph's `names` (docs/decisions/0025-names-as-typed.md). Entries stay keyed by
// resource name; only the text changes: `Orders_In` for an object a statement made, the key otherwise.
import type { DisplayNameRecords, DisplayRecord } from './types.js';

/** A Graph, or anything carrying its `names`. */
export interface WithNames {
  names?: DisplayNameRecords | undefined;
}

/** The display name of `name` in `record`, or `name` itself when the graph gives none. */
export function displayOf(graph: WithNames, record: DisplayRecord, name: string): string {
  const names = graph.names?.[record];
  return names !== undefined && Object.hasOwn(names, name) ? (names[name] ?? name) : name;
}

/** The ingestor records share one name space (SR2060), so either kind's display name serves. */
export function ingestorDisplay(graph: WithNames, name: string): string {
  const http = displayOf(graph, 'httpIngestors', name);
  return http !== name ? http : displayOf(graph, 'syslogIngestors', name);
}
