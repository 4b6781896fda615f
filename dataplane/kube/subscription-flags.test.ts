import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DATAPLANE_FLAGS, resolveDataplaneFlags } from './dataplane-flags.js';
import { resolveSubscriptionFlags, SUBSCRIPTION_FLAGS } from './subscription-flags.js';

describe('subscription limit flags', () => {
  it('takes whole numbers, and sizes with KiB, MiB or GiB', () => {
    assert.deepEqual(
      resolveSubscriptionFlags({
        maxSubscribers: '250',
        subscriptionBufferBytes: '4MiB',
        nodeSubscriptionBufferBytes: '1073741824',
      }),
      {
        subscriptionLimits: {
          maxSubscribers: 250,
          subscriptionBufferBytes: 4 * 1024 * 1024,
          nodeBufferBytes: 1024 * 1024 * 1024,
        },
      },
    );
    assert.deepEqual(resolveSubscriptionFlags({}), { subscriptionLimits: {} });
  });

  it('refuses anything else, naming the flag', () => {
    const bad = fc.oneof(
      fc.constantFrom('0', '-1', '1.5', '', ' 1', '1e3', '10MB', '10 MiB', '0MiB', '99999999999999999999'),
      fc.string().filter((text) => !/^[1-9][0-9]*(KiB|MiB|GiB)?$/.test(text)),
    );
    fc.assert(
      fc.property(bad, fc.constantFrom(...SUBSCRIPTION_FLAGS), (text, [key, usage]) => {
        const result = resolveSubscriptionFlags({ [key]: text });
        assert.ok('message' in result, `${usage} ${JSON.stringify(text)} was taken`);
        assert.ok(result.message.startsWith(usage.split(' ')[0] ?? ''), result.message);
      }),
    );
    assert.ok('message' in resolveSubscriptionFlags({ maxSubscribers: '5MiB' }), 'a count has no unit');
  });

  it('are flags of streamroute dataplane, resolved with the others', () => {
    for (const [key] of SUBSCRIPTION_FLAGS)
      assert.ok(
        DATAPLANE_FLAGS.some(([name]) => name === key),
        key,
      );
    const resolved = resolveDataplaneFlags({ nodeName: 'n1', maxSubscribers: '10' }, {});
    assert.ok(resolved.ok);
    assert.deepEqual(resolved.flags.subscriptionLimits, { maxSubscribers: 10 });
    const refused = resolveDataplaneFlags({ nodeName: 'n1', subscriptionBufferBytes: '1GB' }, {});
    assert.deepEqual(refused, {
      ok: false,
      message:
        '--subscription-buffer-bytes 1GB: expected a whole number of bytes ≥ 1, or with KiB, MiB or GiB',
    });
  });
});
