// Counters on the node's /metrics read from a worker pool's plain numbers when scraped: the pools count per
// call, never through prom-client on their hot path.
import type { Registry } from 'prom-client';
import { counterOf, counterSpec, type MetricSpec } from '../core/metric-spec.js';

export interface StatCounter<Stats> extends MetricSpec {
  stat: keyof Stats;
}

/** A counter of no labels whose value is the pool's `stat`. */
export function statCounter<Stats>(name: string, help: string, stat: keyof Stats): StatCounter<Stats> {
  return { ...counterSpec(name, help), stat };
}

/** Registers the counters once per registry; `stats` is asked for at scrape time (pools start lazily). */
export function registerStatCounters<Stats extends { [K in keyof Stats]: number }>(
  registry: Registry,
  counters: readonly StatCounter<Stats>[],
  stats: () => Stats | undefined,
): void {
  for (const counter of counters) {
    if (registry.getSingleMetric(counter.name) !== undefined) continue;
    counterOf(counter, registry, function () {
      this.reset();
      this.inc(stats()?.[counter.stat] ?? 0);
    });
  }
}
