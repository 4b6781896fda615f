// How a fleet's node reports are spread so that its cost on the API server does not grow with its size
// (docs/decisions/0018-fleet-sized-reports.md). The operator counts the DataplaneNode reports and
// publishes the fleet's size, rounded up to a power of two, as an annotation of the index every node
// already watches; nodes and operator derive the same timings from it here. Pure: no clock, no I/O.

/** The heartbeat of a fleet this small or smaller (and of a node that has not seen a fleet size yet). */
export const BASE_HEARTBEAT_MS = 300_000;
/** Heartbeat writes per second a whole fleet aims at: the period grows with the fleet beyond 6,000 nodes. */
export const HEARTBEAT_WRITES_PER_S = 20;
/** Nodes (expected) that report a new graph version at once: the early signal; the rest ride heartbeats. */
export const IMMEDIATE_REPORTS = 500;
/** A report without a write for this many heartbeat periods is from a node that is gone. */
export const STALE_HEARTBEATS = 3;

/** What a node does with its reports, and what the operator expects of them, for a fleet size. */
export interface FleetPolicy {
  /** The published fleet size (undefined: none published, the defaults of a small fleet apply). */
  fleetNodes: number | undefined;
  /** Mean heartbeat period; each falls in ± 50 % of it. Also the window in which deferred reports arrive. */
  heartbeatMs: number;
  /** Probability that a node reports a new graph version at once (0–5 s) instead of with its heartbeat. */
  immediateProbability: number;
  /** Reports whose last write is older than this are left out of the roll-up. */
  staleMs: number;
}

export function fleetPolicy(fleetNodes: number | undefined): FleetPolicy {
  const nodes = fleetNodes === undefined || !(fleetNodes >= 1) ? undefined : Math.ceil(fleetNodes);
  const heartbeatMs = Math.max(BASE_HEARTBEAT_MS, ((nodes ?? 0) / HEARTBEAT_WRITES_PER_S) * 1000);
  return {
    fleetNodes: nodes,
    heartbeatMs,
    immediateProbability: nodes === undefined ? 1 : Math.min(1, IMMEDIATE_REPORTS / nodes),
    staleMs: STALE_HEARTBEATS * heartbeatMs,
  };
}

/**
 * The fleet size to publish for `count` reports, given the one published now: the next power of two at
 * or above the count, moved only when the count outgrows it or falls to a quarter of it, so a fleet that
 * breathes (autoscaling, rolling updates) does not rewrite the index every minute.
 */
export function fleetBucket(count: number, published: number | undefined): number {
  const wanted = 2 ** Math.ceil(Math.log2(Math.max(1, count)));
  if (published === undefined || !(published >= 1)) return wanted;
  if (count > published || count <= published / 4) return wanted;
  return published;
}

/** The published annotation's value as a fleet size (undefined when absent or not a positive integer). */
export function parseFleetNodes(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]{0,8}$/.test(text)) return undefined;
  return Number(text);
}
