import assert from 'node:assert/strict';
import { eventBody } from './events.js';

describe('eventBody', () => {
  it('builds a core v1 Event named <object>.<hex> from streamroute-operator', () => {
    const involved = {
      apiVersion: 'streamroute.io/v1alpha1',
      kind: 'Relay',
      name: 'orders',
      namespace: 'shop',
      uid: 'u1',
    };
    const body = eventBody(
      { involved, type: 'Warning', reason: 'SR2004', message: 'x'.repeat(5000) },
      '2026-01-01T00:00:00Z',
      'ab12',
    );
    assert.deepEqual(body.metadata, { name: 'orders.ab12', namespace: 'shop' });
    assert.deepEqual(body.involvedObject, involved);
    assert.deepEqual(body.source, { component: 'streamroute-operator' });
    assert.equal(body.type, 'Warning');
    assert.equal(body.count, 1);
    assert.equal((body.message as string).length, 1024);
  });
});
