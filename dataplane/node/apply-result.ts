// What `DataPlane.apply` answers: the graph runs (with what changed, and what the node could not serve),
// or it was refused with every reason and the domain keeps the graph it had.
import type { TransientError } from '../core/status.js';
import type { ComponentRecord, GraphDiff } from '../graph/diff.js';
import { displayOf } from '../graph/display-names.js';
import type { Graph } from '../graph/types.js';
import type { RoutingProblem } from '../sources/http/routing-table.js';
import { targetName } from './http-targets.js';

/** Components by what the reload did to them, each named `<kind> <name>` (`relay orders`). */
export interface ApplyChanges {
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: string[];
}

export type ApplyResult =
  | {
      ok: true;
      domain: string;
      version: number;
      changes: ApplyChanges;
      /** What runs but is not (fully) served: a vhost's certificate unavailable, a contested route, … */
      warnings: string[];
    }
  | { ok: false; errors: string[] };

/** The kind of a record's components as DESCRIBE, logs and metrics name it. */
export const KIND_OF_RECORD: Record<ComponentRecord, string> = {
  relays: 'relay',
  httpIngestors: 'http-ingestor',
  syslogIngestors: 'syslog-ingestor',
  topicIngestors: 'topic-ingestor',
  junctions: 'junction',
  correlators: 'correlator',
  emitters: 'emitter',
};

/** Each component by its display name: from the new graph, a removed one's from the previous graph. */
export function changesOf(diff: GraphDiff, graph: Graph, previous: Graph | undefined): ApplyChanges {
  const changes: ApplyChanges = { added: [], changed: [], removed: [], unchanged: [] };
  for (const [record, kind] of Object.entries(KIND_OF_RECORD) as [ComponentRecord, string][]) {
    for (const change of ['added', 'changed', 'removed', 'unchanged'] as const) {
      const names = change === 'removed' ? (previous ?? graph) : graph;
      changes[change].push(
        ...diff[record][change].map((name) => `${kind} ${displayOf(names, record, name)}`),
      );
    }
  }
  return changes;
}

/** What of `graph` runs but is not served: its HTTP ingestors' route problems, its syslog listeners' errors. */
export function applyWarnings(
  graph: Graph,
  problems: readonly RoutingProblem[],
  listeners: readonly { name: string; error: TransientError }[],
): string[] {
  const prefix = targetName(graph.domain, '');
  const warnings = problems
    .filter((problem) => problem.target.startsWith(prefix))
    .map(
      (problem) =>
        `http-ingestor ${problem.target.slice(prefix.length)}: ${problem.code}: ${problem.message}`,
    );
  for (const { name, error } of listeners)
    warnings.push(`syslog-ingestor ${name}: ${error.code}: ${error.message} (retrying)`);
  return warnings;
}
