import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { Relay } from './relay.js';
import { readCounter, Telemetry } from '../core/telemetry.js';
import type { RecordValues } from '../core/values.js';

function relay(): { relay: Relay; registry: Registry; logs: ReturnType<typeof memoryLogger>['logs'] } {
  const registry = new Registry();
  const { logger, logs } = memoryLogger();
  const telemetry = new Telemetry({ registry, logger, domain: 'shop' }).component('relay', 'orders');
  return { relay: new Relay('orders', { fields: [] }, telemetry), registry, logs };
}

describe('relays', () => {
  it('fan a record out to every consumer synchronously, in subscription order', () => {
    const { relay: orders } = relay();
    const seen: string[] = [];
    orders.subscribe('first', (record) => void seen.push(`first ${record.id as string}`));
    orders.subscribe('second', (record) => void seen.push(`second ${record.id as string}`));
    orders.publish({ id: 'a' });
    assert.deepEqual(seen, ['first a', 'second a']);
  });

  it('keep delivering to the others when one consumer throws, and count the loss', async () => {
    const { relay: orders, registry, logs } = relay();
    const seen: RecordValues[] = [];
    orders.subscribe('broken', () => {
      throw new TypeError('value SECRET-1 is bad');
    });
    orders.subscribe('good', (record) => void seen.push(record));
    orders.publish({ id: 'a' });
    assert.equal(seen.length, 1);
    const labels = { kind: 'relay', name: 'orders' };
    assert.equal(
      await readCounter(registry, 'streamroute_drops_total', { ...labels, reason: 'consumer_failed' }),
      1,
    );
    assert.equal(await readCounter(registry, 'streamroute_records_in_total', labels), 1);
    assert.equal(await readCounter(registry, 'streamroute_records_out_total', labels), 1);
    assert.match(JSON.stringify(logs), /consumer broken failed \(TypeError\)/);
    assert.doesNotMatch(JSON.stringify(logs), /SECRET/);
  });

  it('let a consumer unsubscribe while a record is fanned out', () => {
    const { relay: orders } = relay();
    const seen: string[] = [];
    const stop = orders.subscribe('once', () => {
      seen.push('once');
      stop();
    });
    orders.subscribe('always', () => void seen.push('always'));
    orders.publish({});
    orders.publish({});
    assert.deepEqual(seen, ['once', 'always', 'always']);
    assert.equal(orders.consumerCount, 1);
  });
});
