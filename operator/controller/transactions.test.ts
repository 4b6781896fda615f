import assert from 'node:assert/strict';
import {
  ANNOTATION_TRANSACTION,
  ANNOTATION_TRANSACTION_MEMBERS,
  ANNOTATION_TRANSACTION_SIZE,
} from '../../dataplane/kube/contract.js';
import { ManualClock } from '../../dataplane/core/clock.js';
import { NO_INPUTS } from './graph-inputs.js';
import { cluster } from './controller.fixtures.js';
import { TRANSACTION_TIMEOUT_MS, TransactionTracker } from './transactions.js';

const annotations = {
  [ANNOTATION_TRANSACTION]: 'tx-1',
  [ANNOTATION_TRANSACTION_SIZE]: '3',
  [ANNOTATION_TRANSACTION_MEMBERS]: 'Schema/orders,Relay/orders,Relay/audit',
};
const member = (kind: string, name: string, generation = 1) =>
  cluster(kind, name, {}, { generation, annotations });

describe('TransactionTracker', () => {
  it('holds the observed members of an incomplete transaction and asks to come back at the timeout', () => {
    const clock = new ManualClock(1000);
    const tracker = new TransactionTracker();
    const objects = [member('Schema', 'orders'), member('Relay', 'orders'), cluster('Relay', 'other', {})];
    const gate = tracker.gate('shop', objects, NO_INPUTS, clock.now());
    assert.deepEqual([...gate.held.keys()], ['Schema/orders', 'Relay/orders']);
    assert.equal(gate.requeueAfterMs, TRANSACTION_TIMEOUT_MS);
    assert.equal(gate.held.get('Schema/orders')?.timedOut, false);

    clock.advance(10_000);
    assert.equal(tracker.gate('shop', objects, NO_INPUTS, clock.now()).requeueAfterMs, 20_000);
  });

  it('reports the missing members after 30 s and stops asking to come back', () => {
    const clock = new ManualClock();
    const tracker = new TransactionTracker();
    const objects = [member('Schema', 'orders'), member('Relay', 'orders')];
    tracker.gate('shop', objects, NO_INPUTS, clock.now());
    clock.advance(TRANSACTION_TIMEOUT_MS);
    const gate = tracker.gate('shop', objects, NO_INPUTS, clock.now());
    const held = gate.held.get('Relay/orders');
    assert.equal(held?.timedOut, true);
    assert.deepEqual(held?.missing, ['Relay/audit']);
    assert.equal(gate.requeueAfterMs, undefined);
  });

  it('releases a completed transaction and remembers it when a member later goes away', () => {
    const clock = new ManualClock();
    const tracker = new TransactionTracker();
    const all = [member('Schema', 'orders'), member('Relay', 'orders'), member('Relay', 'audit')];
    assert.equal(tracker.gate('shop', all, NO_INPUTS, clock.now()).held.size, 0);
    assert.equal(tracker.gate('shop', all.slice(0, 2), NO_INPUTS, clock.now()).held.size, 0);
  });

  it('does not hold members already published at their current generation (an operator restart)', () => {
    const tracker = new TransactionTracker();
    const published = new Map([
      ['Schema/orders', { kind: 'Schema', name: 'orders', generation: 1, spec: {} }],
      ['Relay/orders', { kind: 'Relay', name: 'orders', generation: 1, spec: {} }],
    ]);
    const gate = tracker.gate('shop', [member('Schema', 'orders'), member('Relay', 'orders')], published, 0);
    assert.equal(gate.held.size, 0);
  });

  it('keeps domains apart', () => {
    const clock = new ManualClock();
    const tracker = new TransactionTracker();
    tracker.gate('a', [member('Schema', 'orders')], NO_INPUTS, clock.now());
    clock.advance(TRANSACTION_TIMEOUT_MS);
    const gate = tracker.gate('b', [member('Schema', 'orders')], NO_INPUTS, clock.now());
    assert.equal(gate.held.get('Schema/orders')?.timedOut, false);
  });
});
