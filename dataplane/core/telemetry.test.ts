import assert from 'node:assert/strict';
import {
  exampleStatements,
  graphFromStatements,
  harness,
  utf8,
} from '../../test/fixtures/graph-from-statements.js';
import fc from 'fast-check';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { ManualClock } from './clock.js';
import { METRICS, PENDING_METRIC, readCounter, Telemetry } from './telemetry.js';

describe('telemetry', () => {
  it('counts payloads, records in and out, and message errors per component', async () => {
    const h = harness(graphFromStatements(exampleStatements('quickstart'), 'shop'));
    const ingest = h.topology.ingestors.get('orders-in')!;
    const good = utf8({ order_id: 'o-1', amount: 1 });
    const bad = utf8('{"order_id": 1, "amount": 1}');
    await ingest.ingest(good, {});
    await ingest.ingest(good, {});
    await ingest.ingest(bad, {});
    // Counted under the name the statement wrote (decision 0025).
    const ingestor = { domain: 'shop', kind: 'http-ingestor', name: 'orders_in' };
    const relay = { domain: 'shop', kind: 'relay', name: 'orders' };
    const read = (metric: string, labels: Record<string, string>): Promise<number> =>
      readCounter(h.registry, metric, labels);
    assert.deepEqual(
      {
        payloads: await read(METRICS.payloads.name, ingestor),
        bytes: await read(METRICS.payloadBytes.name, ingestor),
        decoded: await read(METRICS.recordsIn.name, ingestor),
        routed: await read(METRICS.recordsOut.name, ingestor),
        mistyped: await read(METRICS.messageErrors.name, { ...ingestor, reason: 'SR3005' }),
        relayIn: await read(METRICS.recordsIn.name, relay),
        relayOut: await read(METRICS.recordsOut.name, relay), // to the harness's recorder
      },
      {
        payloads: 3,
        bytes: 2 * good.byteLength + bad.byteLength,
        decoded: 2,
        routed: 2,
        mistyped: 1,
        relayIn: 2,
        relayOut: 2,
      },
    );
  });

  it('names every counter *_total (gauges not), and labels it with names and codes only', async () => {
    const h = harness(graphFromStatements(exampleStatements('quickstart'), 'shop'));
    await h.topology.ingestors
      .get('orders-in')!
      .ingest(utf8('{"order_id": "SECRET", "amount": "SECRET"}'), {});
    const metrics = await h.registry.getMetricsAsJSON();
    assert.ok(metrics.length > 0);
    for (const metric of metrics) {
      if (String(metric.type) === 'counter') assert.match(metric.name, /^streamroute_[a-z_]+_total$/);
      else assert.doesNotMatch(metric.name, /_total$/);
      for (const value of metric.values) {
        assert.deepEqual(
          Object.keys(value.labels).sort(),
          Object.keys(value.labels).includes('reason')
            ? ['domain', 'kind', 'name', 'reason']
            : ['domain', 'kind', 'name'],
        );
      }
    }
    assert.doesNotMatch(await h.registry.metrics(), /SECRET/);
    assert.doesNotMatch(JSON.stringify(h.logs), /SECRET/);
  });

  it('logs single drops at most once per 10 s per reason and detail, with exact counts (property, regression)', async () => {
    // Before, every drop (a correlator's timeout DROP, a failed consumer) wrote a warn line of its own.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom('left', 'right')), {
          maxLength: 300,
        }),
        async (drops) => {
          const lines: { count: number; side: string }[] = [];
          const logger = pino(
            { level: 'warn' },
            { write: (line: string) => void lines.push(JSON.parse(line) as { count: number; side: string }) },
          );
          const clock = new ManualClock(0);
          const telemetry = new Telemetry({ registry: new Registry(), logger, domain: 'd', clock });
          const component = telemetry.component('correlator', 'c');
          for (const [wait, side] of drops) {
            clock.advance(wait);
            component.drop('correlation_timeout', `a ${side} record found no partner within MAX TIME`, {
              side,
            });
            await Promise.resolve();
          }
          clock.advance(10_000);
          await Promise.resolve();
          const elapsed = drops.reduce((sum, [wait]) => sum + wait, 0);
          for (const side of ['left', 'right']) {
            const mine = lines.filter((line) => line.side === side);
            const sent = drops.filter(([, dropped]) => dropped === side).length;
            assert.equal(
              mine.reduce((sum, line) => sum + line.count, 0),
              sent,
              'every drop is in a line',
            );
            assert.ok(
              mine.length <= Math.floor(elapsed / 10_000) + 2,
              `${mine.length} lines in ${elapsed} ms`,
            );
          }
          const counted = await readCounter(telemetry.options.registry, METRICS.drops.name, {
            reason: 'correlation_timeout',
          });
          assert.equal(counted, drops.length);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('reports what a component holds in streamroute_pending_records while it says so; a rebuilt one takes over', async () => {
    const registry = new Registry();
    const telemetry = new Telemetry({ registry, logger: pino({ level: 'silent' }), domain: 'd' });
    const pending = async () => (await registry.getSingleMetric(PENDING_METRIC.name)!.get()).values;
    let held = 3;
    const stopOld = telemetry.component('correlator', 'c').holdsPending(() => held);
    assert.deepEqual(await pending(), [{ value: 3, labels: { domain: 'd', kind: 'correlator', name: 'c' } }]);
    held = 5;
    assert.equal((await pending())[0]?.value, 5);
    // hot reload: the new correlator starts reporting before the old one stops
    const stopNew = telemetry.component('correlator', 'c').holdsPending(() => 7);
    stopOld();
    assert.equal((await pending())[0]?.value, 7);
    stopNew();
    assert.deepEqual(await pending(), []);
  });
});
