import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { registerJaqCheckMetrics } from './compile-check-metrics.js';
import { checkJaqProgram, loadJaqCheck } from './compile-check.js';

describe('compile-check-metrics', () => {
  it('counts the programs the check could not compile, by reason', async () => {
    await loadJaqCheck();
    const registry = new Registry();
    registerJaqCheckMetrics(registry);
    registerJaqCheckMetrics(registry); // once per registry
    const count = async (): Promise<number> =>
      (await registry.getSingleMetric('streamroute_jaq_compile_check_exhausted_total')!.get()).values.find(
        (value) => value.labels.reason === 'out_of_memory',
      )?.value ?? 0;
    const before = await count();
    checkJaqProgram(`"x" * ${1_000_000_000 + Math.floor(Math.random() * 1000)}`);
    assert.equal(await count(), before + 1);
    assert.match(
      await registry.metrics(),
      /streamroute_jaq_compile_check_exhausted_total\{reason="time_limit"\} \d+/,
    );
  });
});
