// Records per JAQ engine on the node's /metrics (docs/codecs.md, "Compiled programs"): how much of the
// traffic runs compiled, and how often a compiled program hands an input to jq-wasm.
import type { Registry } from 'prom-client';
import { counterOf, counterSpec } from '../../core/metric-spec.js';
import { programPathStats } from './program-path.js';

export const JAQ_RECORDS_METRIC = counterSpec(
  'streamroute_jaq_records_total',
  'Records made or encoded by JAQ programs, by the engine that ran them (compiled or jq-wasm)',
  ['path'],
);

export const JAQ_FALLBACKS_METRIC = counterSpec(
  'streamroute_jaq_compiled_fallbacks_total',
  'Inputs of compiled JAQ programs that only jq could answer, run on jq-wasm instead',
);

export function registerProgramPathMetrics(registry: Registry): void {
  if (registry.getSingleMetric(JAQ_RECORDS_METRIC.name) !== undefined) return;
  counterOf(JAQ_RECORDS_METRIC, registry, function () {
    this.reset();
    this.inc({ path: 'compiled' }, programPathStats.compiledRecords);
    this.inc({ path: 'jq-wasm' }, programPathStats.engineRecords);
  });
  counterOf(JAQ_FALLBACKS_METRIC, registry, function () {
    this.reset();
    this.inc(programPathStats.compiledFallbacks);
  });
}
