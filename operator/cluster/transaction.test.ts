import assert from 'node:assert/strict';
import type { GraphObject } from '../api/index.js';
import { withoutTransaction, withTransaction } from './transaction.js';

const relay = {
  apiVersion: 'streamroute.io/v1alpha1',
  kind: 'Relay',
  metadata: { name: 'orders', annotations: { keep: 'me' } },
  spec: { schema: 'orders', branching: 'UNBRANCHED' },
} as unknown as GraphObject;
const schema = {
  ...relay,
  kind: 'Schema',
  metadata: { name: 'orders' },
  spec: { fields: [] },
} as unknown as GraphObject;

describe('transaction annotations', () => {
  it('gives every object of a batch its id, size and members, keeping other annotations', () => {
    const [first, second] = withTransaction([schema, relay], 'tx-1');
    for (const object of [first, second]) {
      assert.equal(object?.metadata.annotations?.['streamroute.io/transaction'], 'tx-1');
      assert.equal(object?.metadata.annotations?.['streamroute.io/transaction-size'], '2');
      assert.equal(
        object?.metadata.annotations?.['streamroute.io/transaction-members'],
        'Schema/orders,Relay/orders',
      );
    }
    assert.equal(second?.metadata.annotations?.['keep'], 'me');
    assert.equal(
      relay.metadata.annotations?.['streamroute.io/transaction'],
      undefined,
      'the input is not changed',
    );
  });

  it('uses a random UUID per batch', () => {
    const a = withTransaction([relay])[0]?.metadata.annotations?.['streamroute.io/transaction'] ?? '';
    const b = withTransaction([relay])[0]?.metadata.annotations?.['streamroute.io/transaction'] ?? '';
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.notEqual(a, b);
  });

  it('removes them again', () => {
    const [annotated] = withTransaction([schema], 'tx');
    assert.deepEqual(withoutTransaction(annotated as GraphObject).metadata, { name: 'orders' });
  });
});
