// The JAQ engine's counters on the node's /metrics, read from the pool's plain numbers when scraped (the
// pool counts per call, never through prom-client on its hot path).
import { Counter, type Registry } from 'prom-client';
import type { JaqPool, JaqPoolStats } from './jaq-pool.js';

const COUNTERS: { name: string; help: string; stat: keyof JaqPoolStats }[] = [
  { name: 'streamroute_jaq_calls_total', help: 'Calls of jq, each with a batch of inputs', stat: 'calls' },
  { name: 'streamroute_jaq_inputs_total', help: 'Inputs run by the JAQ programs', stat: 'inputs' },
  {
    name: 'streamroute_jaq_time_limits_total',
    help: 'Calls of jq stopped at the time limit (their worker thread was replaced)',
    stat: 'timeLimits',
  },
  { name: 'streamroute_jaq_worker_crashes_total', help: 'JAQ worker threads that died', stat: 'crashes' },
  {
    name: 'streamroute_jaq_refused_total',
    help: 'Inputs refused because too much input was waiting for the JAQ engine',
    stat: 'refused',
  },
];

/** Registers the counters once per registry; `pool` is asked for at scrape time (it starts lazily). */
export function registerJaqMetrics(registry: Registry, pool: () => JaqPool | undefined): void {
  for (const { name, help, stat } of COUNTERS) {
    if (registry.getSingleMetric(name) !== undefined) continue;
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(pool()?.stats[stat] ?? 0);
      },
    });
  }
}
