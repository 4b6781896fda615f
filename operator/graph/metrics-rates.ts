// Live rates for `streamroute graph --rates`: two readings of a node's /metrics (Prometheus text
// format), some seconds apart, turned into records a second into and out of each component of the
// graph. Components are matched by the `domain`, `kind` and `name` labels of
// streamroute_records_in_total and streamroute_records_out_total; a name is compared as an identifier,
// so `orders-in` and `orders_in` both match.
import { nameToIdentifier } from '../api/names.js';
import type { DomainGraph } from './domain-graph.js';
import type { NodeRates } from './render-graph.js';

export const RECORDS_IN = 'streamroute_records_in_total';
export const RECORDS_OUT = 'streamroute_records_out_total';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/u;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gu;

/** The samples of one family in an exposition; comments, other families and bad lines are skipped. */
export function samplesOf(text: string, family: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line.trim());
    if (match === null || match[1] !== family) continue;
    const value = Number(match[3]);
    if (!Number.isFinite(value)) continue;
    const labels: Record<string, string> = {};
    for (const [, name = '', raw = ''] of (match[2] ?? '').matchAll(LABEL)) labels[name] = unescapeLabel(raw);
    samples.push({ labels, value });
  }
  return samples;
}

/** `\\`, `\"` and `\n` as the exposition format escapes them in label values. */
function unescapeLabel(raw: string): string {
  return raw.replace(/\\(.)/gu, (_, char: string) => (char === 'n' ? '\n' : char));
}

/** Each component's counter in one reading, summed over its other labels: key `kind/identifier`. */
export function countersOf(text: string, family: string, domain: string): Map<string, number> {
  const counters = new Map<string, number>();
  for (const { labels, value } of samplesOf(text, family)) {
    if (labels['domain'] !== domain || labels['kind'] === undefined || labels['name'] === undefined) continue;
    const key = `${labels['kind']}/${nameToIdentifier(labels['name'])}`;
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
    const key = `${node.metrics.kind}/${nameToIdentifier(node.metrics.name)}`;
    rates.set(node.id, { in: rate(recordsIn, key), out: rate(recordsOut, key) });
  }
  return rates;
}
