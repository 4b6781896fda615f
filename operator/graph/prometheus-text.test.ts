import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Counter, Gauge, Registry } from 'prom-client';
import { parsePrometheusText } from './prometheus-text.js';

describe('reading /metrics', () => {
  it('reads the families asked for, with escaped label values, and skips the rest and comments', () => {
    const text = [
      '# HELP streamroute_records_in_total Records a component received',
      '# TYPE streamroute_records_in_total counter',
      'streamroute_records_in_total{domain="default",kind="relay",name="a\\"b\\\\c\\nd"} 12',
      'streamroute_records_in_total{domain="default",kind="relay",name="x",} 3 1700000000000',
      'streamroute_records_out_total 7',
      'other_total{a="b"} 9',
      'streamroute_records_in_total{broken} 1',
      'streamroute_pending_records{domain="d",kind="correlator",name="c"} NaN',
      '',
    ].join('\n');
    const samples = parsePrometheusText(
      text,
      new Set(['streamroute_records_in_total', 'streamroute_pending_records']),
    );
    assert.deepEqual(samples.slice(0, 2), [
      {
        name: 'streamroute_records_in_total',
        labels: { domain: 'default', kind: 'relay', name: 'a"b\\c\nd' },
        value: 12,
      },
      {
        name: 'streamroute_records_in_total',
        labels: { domain: 'default', kind: 'relay', name: 'x' },
        value: 3,
      },
    ]);
    assert.equal(samples.length, 3);
    assert.ok(Number.isNaN(samples[2]!.value));
  });

  it('reads back whatever prom-client writes: any label value, any count', async () => {
    const label = fc.string({ maxLength: 12, unit: 'binary' });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(label, fc.nat()), { maxLength: 6, selector: ([name]) => name }),
        async (series) => {
          const registry = new Registry();
          const counter = new Counter({
            name: 'c_total',
            help: 'h',
            labelNames: ['name'],
            registers: [registry],
          });
          new Gauge({ name: 'g', help: 'h', registers: [registry] }).set(1);
          for (const [name, count] of series) counter.inc({ name }, count);
          const samples = parsePrometheusText(await registry.metrics(), new Set(['c_total']));
          assert.deepEqual(
            samples.map((sample) => [sample.labels['name'], sample.value]),
            series.map(([name, count]) => [name, count]),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
