import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { registerProcessMetrics } from './process-metrics.js';

describe('process metrics (process-metrics.ts)', () => {
  it('shows resident memory, heap and event-loop delay under the standard names, registered once', async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    registerProcessMetrics(registry);
    const text = await registry.metrics();
    const value = (name: string): number => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]);
    assert.ok(value('process_resident_memory_bytes') > 10 * 2 ** 20, 'resident memory');
    assert.ok(value('nodejs_heap_size_used_bytes') > 0, 'heap used');
    assert.ok(value('nodejs_eventloop_lag_p99_seconds') >= 0, 'event-loop delay p99');
  });
});
