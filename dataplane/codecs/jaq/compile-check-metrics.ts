// The JAQ compile check's counter on the node's /metrics: programs jq could not compile within the check's
// limits, by why (the `failure` of compile-check.ts). Read from the check's plain numbers when scraped. The
// check is one per process, so the node counts what its statements and manifests asked for.
import type { Registry } from 'prom-client';
import { counterOf, counterSpec } from '../../core/metric-spec.js';
import { jaqCheckStats } from './compile-check.js';

export const JAQ_CHECK_METRIC = counterSpec(
  'streamroute_jaq_compile_check_exhausted_total',
  'JAQ programs jq could not compile within the compile check’s limits (SR2065), by reason',
  ['reason'],
);

/** Registers the counter once per registry. */
export function registerJaqCheckMetrics(registry: Registry): void {
  if (registry.getSingleMetric(JAQ_CHECK_METRIC.name) !== undefined) return;
  counterOf(JAQ_CHECK_METRIC, registry, function () {
    this.reset();
    for (const [reason, count] of Object.entries(jaqCheckStats.exhausted)) this.inc({ reason }, count);
  });
}
