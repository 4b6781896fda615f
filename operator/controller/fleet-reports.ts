// The node reports aggregated as they arrive (decision 0018): a report's write replaces that node's part
// of each domain's counts (subtract the old part, add the new), so a roll-up costs the same with 15,000
// nodes as with 15, and no reconcile walks every report. Kept per domain: nodes by (graph version, graph
// error), and per component the nodes running it by the same key and the nodes reporting an error. A
// report that stops being written leaves the counts once its last write is older than the fleet's stale
// age (`expire`, a scan of timestamps), and comes back with its next write. No I/O.
import type { ClusterObject } from './domain-snapshot.js';

/** A node's part of one domain: its version, whether the domain has an error, its components' states. */
interface NodePart {
  /** The graph version (undefined when the report names none usable). */
  version: number | undefined;
  error: boolean;
  /** `Kind/name` → running, and the transient error (or 'Retrying') when it reports one. */
  components: Map<string, { running: boolean; error: string | undefined }>;
}

interface NodeEntry {
  /** Epoch ms of heartbeatTime; NaN when absent (never stale). */
  heartbeat: number;
  parts: Map<string, NodePart>;
  counted: boolean;
}

/** Counts keyed by `version:error` (version '' when unknown, error 0/1): a handful of keys. */
export type VersionCounts = Map<string, number>;

export interface ComponentCounts {
  /** Nodes running the component, by `version:error` of their domain part. */
  running: VersionCounts;
  /** Node → its transient error (or 'Retrying'). */
  errors: Map<string, string>;
}

/** One domain's aggregate (a live view: read it, do not keep it across changes). */
export interface DomainCounts {
  /** Nodes running the domain, by `version:error`. */
  nodes: VersionCounts;
  components: Map<string, ComponentCounts>;
}

export function versionKey(version: number | undefined, error: boolean): string {
  return `${version ?? ''}:${error ? 1 : 0}`;
}

/** The key's parts back. */
export function parseVersionKey(key: string): { version: number | undefined; error: boolean } {
  const [version = '', error = '0'] = key.split(':');
  return { version: version === '' ? undefined : Number(version), error: error === '1' };
}

const ERROR_MAX = 512;

export class FleetReports {
  readonly #nodes = new Map<string, NodeEntry>();
  readonly #domains = new Map<string, DomainCounts>();

  /** Reports held (counted or stale): the fleet's size as the operator sees it. */
  get size(): number {
    return this.#nodes.size;
  }

  /** A report was written (or listed): its parts replace the node's previous ones. */
  put(report: ClusterObject, nowMs: number, staleMs: number): void {
    const name = report.metadata.name;
    this.delete(name);
    const heartbeatTime = report.status?.['heartbeatTime'];
    const heartbeat = typeof heartbeatTime === 'string' ? Date.parse(heartbeatTime) : Number.NaN;
    const entry: NodeEntry = { heartbeat, parts: partsOf(report.status), counted: false };
    this.#nodes.set(name, entry);
    if (!isStale(entry, nowMs, staleMs)) this.#count(name, entry, 1);
  }

  delete(name: string): void {
    const entry = this.#nodes.get(name);
    if (entry === undefined) return;
    if (entry.counted) this.#count(name, entry, -1);
    this.#nodes.delete(name);
  }

  /**
   * Leaves out reports not written for `staleMs`, and takes back those within it again (the stale age
   * grows with the fleet). Returns the domains whose counts moved.
   */
  expire(nowMs: number, staleMs: number): string[] {
    const moved = new Set<string>();
    for (const [name, entry] of this.#nodes) {
      const fresh = !isStale(entry, nowMs, staleMs);
      if (fresh === entry.counted) continue;
      this.#count(name, entry, fresh ? 1 : -1);
      for (const domain of entry.parts.keys()) moved.add(domain);
    }
    return [...moved].sort();
  }

  /** The domain's counts (empty when no counted node runs it). */
  domain(domain: string): DomainCounts {
    return this.#domains.get(domain) ?? { nodes: new Map(), components: new Map() };
  }

  #count(name: string, entry: NodeEntry, sign: 1 | -1): void {
    entry.counted = sign === 1;
    for (const [domain, part] of entry.parts) {
      let counts = this.#domains.get(domain);
      if (counts === undefined)
        this.#domains.set(domain, (counts = { nodes: new Map(), components: new Map() }));
      const key = versionKey(part.version, part.error);
      add(counts.nodes, key, sign);
      for (const [id, component] of part.components)
        countComponent(counts, id, { name, key, sign, ...component });
      if (counts.nodes.size === 0) this.#domains.delete(domain);
    }
  }
}

function countComponent(
  counts: DomainCounts,
  id: string,
  part: { name: string; key: string; sign: 1 | -1; running: boolean; error: string | undefined },
): void {
  let totals = counts.components.get(id);
  if (totals === undefined) counts.components.set(id, (totals = { running: new Map(), errors: new Map() }));
  if (part.running) add(totals.running, part.key, part.sign);
  if (part.error !== undefined && part.sign === 1) totals.errors.set(part.name, part.error);
  if (part.error !== undefined && part.sign === -1) totals.errors.delete(part.name);
  if (totals.running.size === 0 && totals.errors.size === 0) counts.components.delete(id);
}

function isStale(entry: NodeEntry, nowMs: number, staleMs: number): boolean {
  return Number.isFinite(entry.heartbeat) && nowMs - entry.heartbeat > staleMs;
}

function add(counts: VersionCounts, key: string, sign: 1 | -1): void {
  const value = (counts.get(key) ?? 0) + sign;
  if (value === 0) counts.delete(key);
  else counts.set(key, value);
}

interface DomainReport {
  domain?: unknown;
  graphVersion?: unknown;
  error?: unknown;
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

/** A report's parts by domain: only domains the report lists (components of other domains are ignored). */
function partsOf(status: Record<string, unknown> | undefined): Map<string, NodePart> {
  const parts = new Map<string, NodePart>();
  for (const domain of listOf<DomainReport>(status, 'domains')) {
    if (typeof domain?.domain !== 'string' || parts.has(domain.domain)) continue;
    const version = Number(domain.graphVersion);
    parts.set(domain.domain, {
      version: Number.isSafeInteger(version) ? version : undefined,
      error: typeof domain.error === 'string',
      components: new Map(),
    });
  }
  for (const component of listOf<ComponentReport>(status, 'components')) {
    const part = typeof component?.domain === 'string' ? parts.get(component.domain) : undefined;
    if (part === undefined) continue;
    const error = typeof component.transientError === 'string' ? component.transientError : undefined;
    const failing = component.state === 'Retrying' || error !== undefined;
    part.components.set(`${String(component.kind)}/${String(component.name)}`, {
      running: component.state === 'Running',
      error: failing ? (error ?? 'Retrying').slice(0, ERROR_MAX) : undefined,
    });
  }
  return parts;
}
