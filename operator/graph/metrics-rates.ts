// Live rates for `streamroute graph --rates`: two readings of a node's /metrics (Prometheus text
// format), some seconds apart, turned into records a second into and out of each component of the
// graph. Components are matched by the `domain`, `kind` and `name` labels of
// streamroute_records_in_total and streamroute_records_out_total; names meet by componentKey, so
// `orders-in`, `orders_in` and `Orders_In` all match.
import { parsePrometheusText } from './prometheus-text.js';
import type { DomainGraph } from './domain-graph.js';
import type { NodeRates } from './render-graph.js';

export const RECORDS_IN = 'streamroute_records_in_total';
export const RECORDS_OUT = 'streamroute_records_out_total';

/**
 * The key of a component in counters: its kind and name with `_` as `-`, in lower case, so the resource
 * name and the display name (decision 0025) of one object meet.
 */
export function componentKey(kind: string, name: string): string {
  return `${kind}/${name.toLowerCase().replaceAll('_', '-')}`;
}

/** Each component's counter in one reading, summed over its other labels, by componentKey. */
export function countersOf(text: string, family: string, domain: string): Map<string, number> {
  const counters = new Map<string, number>();
  for (const { labels, value } of parsePrometheusText(text, new Set([family]))) {
    if (labels['domain'] !== domain || labels['kind'] === undefined || labels['name'] === undefined) continue;
    const key = componentKey(labels['kind'], labels['name']);
    counters.set(key, (counters.get(key) ?? 0) + value);
  }
  return counters;
}

/**
 * Records a second into and out of each node that is a component, between two readings `seconds`
 * apart (summed over nodes when the readings come from several). A counter that went down (the node
 * restarted) counts from zero.
 */
export function ratesBetween(
  graph: DomainGraph,
  readings: { before: string; after: string },
  seconds: number,
): NodeRates {
  const counter = (family: string) => ({
    before: countersOf(readings.before, family, graph.domain),
    after: countersOf(readings.after, family, graph.domain),
  });
  const recordsIn = counter(RECORDS_IN);
  const recordsOut = counter(RECORDS_OUT);
  const rate = (pair: ReturnType<typeof counter>, key: string): number => {
    const after = pair.after.get(key) ?? 0;
    const before = pair.before.get(key) ?? 0;
    return (after >= before ? after - before : after) / seconds;
  };
  const rates = new Map<string, { in: number; out: number }>();
  for (const node of graph.nodes) {
    if (node.metrics === undefined) continue;
    const key = componentKey(node.metrics.kind, node.metrics.name);
    rates.set(node.id, { in: rate(recordsIn, key), out: rate(recordsOut, key) });
  }
  return rates;
}
