// The JAQ engine's counters on the node's /metrics (docs/codecs.md, "JAQ codecs").
import type { Registry } from 'prom-client';
import { registerStatCounters, statCounter, type StatCounter } from '../stat-counters.js';
import type { JaqPool, JaqPoolStats } from './jaq-pool.js';

export const JAQ_METRICS: readonly StatCounter<JaqPoolStats>[] = [
  statCounter('streamroute_jaq_calls_total', 'Calls of jq, each with a batch of inputs', 'calls'),
  statCounter('streamroute_jaq_inputs_total', 'Inputs run by the JAQ programs', 'inputs'),
  statCounter(
    'streamroute_jaq_time_limits_total',
    'Calls of jq stopped at the time limit (their worker thread was replaced)',
    'timeLimits',
  ),
  statCounter('streamroute_jaq_worker_crashes_total', 'JAQ worker threads that died', 'crashes'),
  statCounter(
    'streamroute_jaq_refused_total',
    'Inputs refused because too much input was waiting for the JAQ engine',
    'refused',
  ),
];

export function registerJaqMetrics(registry: Registry, pool: () => JaqPool | undefined): void {
  registerStatCounters(registry, JAQ_METRICS, () => pool()?.stats);
}
