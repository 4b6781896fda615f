// Counters on the node's /metrics read from a worker pool's plain numbers when scraped: the pools count per
// call, never through prom-client on their hot path.
import { Counter, type Registry } from 'prom-client';

export interface StatCounter<Stats> {
  name: string;
  help: string;
  stat: keyof Stats;
}

/** Registers the counters once per registry; `stats` is asked for at scrape time (pools start lazily). */
export function registerStatCounters<Stats extends { [K in keyof Stats]: number }>(
  registry: Registry,
  counters: readonly StatCounter<Stats>[],
  stats: () => Stats | undefined,
): void {
  for (const { name, help, stat } of counters) {
    if (registry.getSingleMetric(name) !== undefined) continue;
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(stats()?.[stat] ?? 0);
      },
    });
  }
}
