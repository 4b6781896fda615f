// The JAQ engine's counters on the node's /metrics (docs/codecs.md, "JAQ codecs").
import type { Registry } from 'prom-client';
import { registerStatCounters, type StatCounter } from '../stat-counters.js';
import type { JaqPool, JaqPoolStats } from './jaq-pool.js';

const COUNTERS: StatCounter<JaqPoolStats>[] = [
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

export function registerJaqMetrics(registry: Registry, pool: () => JaqPool | undefined): void {
  registerStatCounters(registry, COUNTERS, () => pool()?.stats);
}
