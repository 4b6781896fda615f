// The JAQ compile check's counter on the node's /metrics: programs jq could not compile within the check's
// limits, by why (the `failure` of compile-check.ts). Read from the check's plain numbers when scraped. The
// check is one per process, so the node counts what its statements and manifests asked for.
import { Counter, type Registry } from 'prom-client';
import { jaqCheckStats } from './compile-check.js';

const NAME = 'streamroute_jaq_compile_check_exhausted_total';

/** Registers the counter once per registry. */
export function registerJaqCheckMetrics(registry: Registry): void {
  if (registry.getSingleMetric(NAME) !== undefined) return;
  new Counter({
    name: NAME,
    help: 'JAQ programs jq could not compile within the compile check’s limits (SR2065), by reason',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(jaqCheckStats.exhausted)) this.inc({ reason }, count);
    },
  });
}
