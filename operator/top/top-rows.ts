// The rows `top` shows: each component of each node with its rates, from two looks in a row (records in
// and out per second over the time between them), sorted as asked.
import type { ComponentCounts, NodeSample, TopKind } from './top-sample.js';
import { TOP_KINDS } from './top-sample.js';
import type { SortKey } from './sort-keys.js';

export interface TopRow extends ComponentCounts {
  node: string;
  /** Null until there are two looks, and when a counter went back (the node restarted). */
  inPerSecond: number | null;
  outPerSecond: number | null;
}

export type { SortKey } from './sort-keys.js';

/** The keys of the live view that sort, and what by. */
export const SORT_KEYS_PRESSED: Readonly<Record<string, SortKey>> = {
  k: 'kind',
  n: 'name',
  i: 'in',
  o: 'out',
  e: 'errors',
  d: 'drops',
  p: 'pending',
};

/** Rows of the current look, with rates against the previous look of the same node. */
export function rowsOf(previous: readonly NodeSample[], current: readonly NodeSample[]): TopRow[] {
  return current.flatMap((sample) => {
    const before = previous.find((each) => each.node === sample.node && each.pod === sample.pod);
    const seconds = before === undefined ? 0 : (sample.at - before.at) / 1000;
    return sample.components.map((component) => {
      const earlier = before?.components.find(
        (each) => each.kind === component.kind && each.name === component.name,
      );
      return {
        ...component,
        node: sample.node,
        inPerSecond: rate(earlier?.recordsIn, component.recordsIn, seconds),
        outPerSecond: rate(earlier?.recordsOut, component.recordsOut, seconds),
      };
    });
  });
}

function rate(before: number | undefined, now: number, seconds: number): number | null {
  if (before === undefined || seconds <= 0 || now < before) return null;
  return (now - before) / seconds;
}

const KIND_ORDER = new Map<TopKind, number>(TOP_KINDS.map((kind, index) => [kind, index]));

const NUMBER: Readonly<Record<Exclude<SortKey, 'kind' | 'name'>, (row: TopRow) => number>> = {
  in: (row) => row.inPerSecond ?? -1,
  out: (row) => row.outPerSecond ?? -1,
  errors: (row) => row.errors,
  drops: (row) => row.drops,
  pending: (row) => row.pending ?? -1,
};

/** By kind (ingestors first, emitters last) then name; by name; or the largest number first. */
export function sortRows(rows: readonly TopRow[], key: SortKey): TopRow[] {
  const byKind = (a: TopRow, b: TopRow) => (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0);
  const byName = (a: TopRow, b: TopRow) => a.name.localeCompare(b.name) || a.node.localeCompare(b.node);
  if (key === 'kind') return [...rows].sort((a, b) => byKind(a, b) || byName(a, b));
  if (key === 'name') return [...rows].sort((a, b) => byName(a, b) || byKind(a, b));
  const value = NUMBER[key];
  return [...rows].sort((a, b) => value(b) - value(a) || byKind(a, b) || byName(a, b));
}
