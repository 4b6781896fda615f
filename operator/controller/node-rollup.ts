// The nodes' reports rolled up into an ingestor's or emitter's status, decided without I/O: how many
// nodes run the domain, how many run the component, which report a transient error (a few samples),
// which graph versions they run, and the `Ready` condition. Bounded whatever the number of nodes.
import type { ClusterObject } from './domain-snapshot.js';

export const ERROR_SAMPLES = 5;
export const VERSION_ENTRIES = 10;

export interface NodeRollup {
  running: number;
  withError: number;
  total: number;
  errorSamples: { node: string; error: string }[];
  versions: { version: number; nodes: number }[];
}

export interface ReadyCondition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

interface DomainReport {
  domain?: unknown;
  graphVersion?: unknown;
}
interface ComponentReport {
  domain?: unknown;
  kind?: unknown;
  name?: unknown;
  state?: unknown;
  transientError?: unknown;
}

function listOf<T>(status: Record<string, unknown> | undefined, key: string): T[] {
  const value = status?.[key];
  return Array.isArray(value) ? (value as T[]) : [];
}

/** Which nodes run the domain, at which graph version; reused for every component of the domain. */
export interface DomainNodes {
  /** Node name → its report of this domain's components, by `Kind/name`. */
  nodes: Map<string, Map<string, ComponentReport>>;
  versions: Map<number, number>;
}

/**
 * A report whose heartbeat is older than this is from a node that is gone (or cut off): it is left out
 * of the roll-up. Heartbeats come every 2.5–7.5 minutes; failed writes back off to at most 5 minutes.
 */
export const STALE_REPORT_MS = 15 * 60_000;

export function domainNodes(
  reports: readonly ClusterObject[],
  domain: string,
  nowMs: number = Date.now(),
): DomainNodes {
  const found: DomainNodes = { nodes: new Map(), versions: new Map() };
  for (const report of reports) {
    const heartbeatTime = report.status?.['heartbeatTime'];
    const heartbeat = typeof heartbeatTime === 'string' ? Date.parse(heartbeatTime) : Number.NaN;
    if (Number.isFinite(heartbeat) && nowMs - heartbeat > STALE_REPORT_MS) continue;
    const domainReport = listOf<DomainReport>(report.status, 'domains').find((d) => d?.domain === domain);
    if (domainReport === undefined) continue;
    const components = new Map<string, ComponentReport>();
    for (const component of listOf<ComponentReport>(report.status, 'components')) {
      if (component?.domain !== domain) continue;
      components.set(`${String(component.kind)}/${String(component.name)}`, component);
    }
    found.nodes.set(report.metadata.name, components);
    const version = Number(domainReport.graphVersion);
    if (Number.isSafeInteger(version)) found.versions.set(version, (found.versions.get(version) ?? 0) + 1);
  }
  return found;
}

export function rollUp(nodes: DomainNodes, kind: string, name: string): NodeRollup {
  const rollup: NodeRollup = {
    running: 0,
    withError: 0,
    total: nodes.nodes.size,
    errorSamples: [],
    versions: [],
  };
  const names = [...nodes.nodes.keys()].sort();
  for (const node of names) count(rollup, node, nodes.nodes.get(node)?.get(`${kind}/${name}`));
  rollup.versions = [...nodes.versions]
    .sort(([a], [b]) => b - a)
    .slice(0, VERSION_ENTRIES)
    .map(([version, count]) => ({ version, nodes: count }));
  return rollup;
}

function count(rollup: NodeRollup, node: string, component: ComponentReport | undefined): void {
  if (component?.state === 'Running') rollup.running += 1;
  const error = typeof component?.transientError === 'string' ? component.transientError : undefined;
  if (component?.state !== 'Retrying' && error === undefined) return;
  rollup.withError += 1;
  if (rollup.errorSamples.length < ERROR_SAMPLES)
    rollup.errorSamples.push({ node, error: (error ?? 'Retrying').slice(0, 512) });
}

/** True when every node that runs the domain runs the component; Unknown when no node reports it. */
export function readyCondition(rollup: NodeRollup): ReadyCondition {
  if (rollup.total === 0)
    return {
      status: 'Unknown',
      reason: 'NoNodeReports',
      message: 'no data-plane node reports this domain yet',
    };
  if (rollup.running === rollup.total)
    return {
      status: 'True',
      reason: 'Running',
      message: `running on ${rollup.running} of ${rollup.total} nodes`,
    };
  const sample = rollup.errorSamples[0];
  const counts = `running on ${rollup.running} of ${rollup.total} nodes, ${rollup.withError} with a transient error`;
  if (sample === undefined) return { status: 'False', reason: 'NotRunning', message: counts };
  return { status: 'False', reason: 'Retrying', message: `${counts}; node ${sample.node}: ${sample.error}` };
}
