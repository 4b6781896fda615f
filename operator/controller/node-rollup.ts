// The nodes' reports rolled up into an ingestor's or emitter's status, decided without I/O: how many
// nodes run the domain, how many run the component, which report a transient error (a few samples),
// which graph versions they run, how many have reported the published version and how many will within
// the fleet's report window (decision 0018), and the `Ready` condition. Bounded whatever the number of
// nodes; read from the counts FleetReports keeps as reports arrive (fleet-reports.ts).
import type { ClusterObject } from './domain-snapshot.js';
import { fleetPolicy } from '../../dataplane/kube/fleet-policy.js';
import { FleetReports, parseVersionKey, type DomainCounts, type VersionCounts } from './fleet-reports.js';

export const ERROR_SAMPLES = 5;
export const VERSION_ENTRIES = 10;

export interface NodeRollup {
  running: number;
  withError: number;
  total: number;
  errorSamples: { node: string; error: string }[];
  versions: { version: number; nodes: number }[];
  /** The version the pointer names (set when known). */
  publishedVersion?: number;
  /** Nodes whose report names the published version (or a newer one). */
  reported?: number;
  /** Nodes whose report still names an older version, without a graph error: they report within the window. */
  pending?: number;
  /** The fleet's report window: a node reports a new version within this many seconds of running it. */
  reportWithinSeconds?: number;
}

export interface ReadyCondition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** One domain's counts, with what the roll-up compares them to. */
export interface DomainNodes {
  counts: DomainCounts;
  /** The version the pointer names; undefined: no pointer yet (nothing is pending). */
  publishedVersion?: number;
  /** The fleet's report window (its heartbeat period, fleet-policy.ts). */
  reportWithinMs?: number;
}

/**
 * A report whose heartbeat is older than this is from a node that is gone (or cut off): it is left out
 * of the roll-up. The default of a fleet that has no published size (3 × 5 min); a larger fleet's is
 * three of its heartbeat periods (fleet-policy.ts).
 */
export const STALE_REPORT_MS = fleetPolicy(undefined).staleMs;

/** The counts of `reports` from scratch (tests; the controller keeps a FleetReports up to date instead). */
export function domainNodes(
  reports: readonly ClusterObject[],
  domain: string,
  nowMs: number = Date.now(),
  staleMs: number = STALE_REPORT_MS,
): DomainNodes {
  const fleet = new FleetReports();
  for (const report of reports) fleet.put(report, nowMs, staleMs);
  return { counts: fleet.domain(domain) };
}

function sum(
  counts: VersionCounts | undefined,
  pick: (version: number | undefined, error: boolean) => boolean,
) {
  let total = 0;
  for (const [key, value] of counts ?? []) {
    const { version, error } = parseVersionKey(key);
    if (pick(version, error)) total += value;
  }
  return total;
}

/** The roll-up and its Ready condition. */
export function rollUpReady(
  nodes: DomainNodes,
  kind: string,
  name: string,
): { rollup: NodeRollup; ready: ReadyCondition } {
  const rollup = rollUp(nodes, kind, name);
  const published = nodes.publishedVersion;
  if (published === undefined) return { rollup, ready: readyCondition(rollup) };
  const component = nodes.counts.components.get(`${kind}/${name}`);
  const pendingKey = (version: number | undefined, error: boolean) =>
    !error && (version === undefined || version < published);
  const pendingRunning = sum(component?.running, pendingKey);
  return { rollup, ready: readyCondition(rollup, (rollup.pending ?? 0) - pendingRunning) };
}

export function rollUp(nodes: DomainNodes, kind: string, name: string): NodeRollup {
  const { counts } = nodes;
  const component = counts.components.get(`${kind}/${name}`);
  const errors = component?.errors ?? new Map<string, string>();
  const rollup: NodeRollup = {
    running: sum(component?.running, () => true),
    withError: errors.size,
    total: sum(counts.nodes, () => true),
    errorSamples: [...errors.keys()]
      .sort()
      .slice(0, ERROR_SAMPLES)
      .map((node) => ({ node, error: errors.get(node) ?? 'Retrying' })),
    versions: [],
  };
  const versions = new Map<number, number>();
  for (const [key, value] of counts.nodes) {
    const { version } = parseVersionKey(key);
    if (version !== undefined) versions.set(version, (versions.get(version) ?? 0) + value);
  }
  rollup.versions = [...versions]
    .sort(([a], [b]) => b - a)
    .slice(0, VERSION_ENTRIES)
    .map(([version, count]) => ({ version, nodes: count }));
  const published = nodes.publishedVersion;
  if (published !== undefined) {
    rollup.publishedVersion = published;
    rollup.reported = sum(counts.nodes, (version) => version !== undefined && version >= published);
    rollup.pending = sum(
      counts.nodes,
      (version, error) => !error && (version === undefined || version < published),
    );
    rollup.reportWithinSeconds = Math.ceil(
      (nodes.reportWithinMs ?? fleetPolicy(undefined).heartbeatMs) / 1000,
    );
  }
  return rollup;
}

/**
 * True when every node that runs the domain runs the component; Unknown when no node reports it, or when
 * the only nodes not running it are nodes that have not reported the published version yet
 * (`pendingNotRunning`: a new component, on nodes whose reports ride their heartbeats, decision 0018).
 */
export function readyCondition(rollup: NodeRollup, pendingNotRunning = 0): ReadyCondition {
  if (rollup.total === 0)
    return {
      status: 'Unknown',
      reason: 'NoNodeReports',
      message: 'no data-plane node reports this domain yet',
    };
  const waiting = pendingNote(rollup);
  if (rollup.running === rollup.total)
    return {
      status: 'True',
      reason: 'Running',
      message: `running on ${rollup.running} of ${rollup.total} nodes${waiting}`,
    };
  if (rollup.withError === 0 && pendingNotRunning > 0 && rollup.total - rollup.running <= pendingNotRunning)
    return {
      status: 'Unknown',
      reason: 'ReportsPending',
      message: `running on ${rollup.running} of ${rollup.total} nodes, no problem reported${waiting}`,
    };
  const sample = rollup.errorSamples[0];
  const counts = `running on ${rollup.running} of ${rollup.total} nodes, ${rollup.withError} with a transient error`;
  if (sample === undefined) return { status: 'False', reason: 'NotRunning', message: counts };
  return { status: 'False', reason: 'Retrying', message: `${counts}; node ${sample.node}: ${sample.error}` };
}

/** "; graph version 2 reported by 120 nodes, the other 14880 report within 14 min" (empty: none pending). */
function pendingNote(rollup: NodeRollup): string {
  if (rollup.pending === undefined || rollup.pending === 0) return '';
  const minutes = Math.ceil((rollup.reportWithinSeconds ?? 0) / 60);
  return `; graph version ${rollup.publishedVersion} reported by ${rollup.reported} nodes, the other ${rollup.pending} report within ${minutes} min`;
}
