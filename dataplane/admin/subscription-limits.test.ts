import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { TestAdminBackend } from '../../test/fixtures/admin-backend.js';
import { ManualClock } from '../core/clock.js';
import { readCounter } from '../core/telemetry.js';
import { LINE_OVERHEAD_BYTES } from './line-log.js';
import { SubscriptionHub } from './subscription-hub.js';
import { DEFAULT_SUBSCRIPTION_LIMITS, type SubscriptionLimits } from './subscription-limits.js';
import type { SubscriberOutput } from './subscription-member.js';

/** A subscriber's stream: keeps every line it is handed; paused, it takes one write and then no more. */
class Output implements SubscriberOutput {
  readonly stream: Writable;
  lines = 0;
  paused = false;
  #held: (() => void)[] = [];

  constructor() {
    this.stream = new Writable({
      highWaterMark: 64,
      write: (chunk: Buffer, _encoding, callback) => {
        for (const byte of chunk) if (byte === 10) this.lines++;
        if (this.paused) this.#held.push(() => callback());
        else callback();
      },
    });
  }

  gone(): boolean {
    return this.stream.destroyed;
  }

  end(): void {
    this.stream.end();
  }

  resume(): void {
    this.paused = false;
    for (const release of this.#held.splice(0)) release();
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const RELAYS = ['orders', 'audit'] as const;
const NAMES = ['a', 'b', 'c'] as const;

type Op =
  | { join: { relay: number; name: number; buffer: number } }
  | { publish: { relay: number; count: number; size: number } }
  | { pause: number }
  | { resume: number }
  | { leave: number }
  | { tick: true };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    join: fc.record({
      relay: fc.nat(RELAYS.length - 1),
      name: fc.nat(NAMES.length - 1),
      buffer: fc.integer({ min: 1, max: 60 }),
    }),
  }),
  fc.record({
    publish: fc.record({
      relay: fc.nat(RELAYS.length - 1),
      count: fc.integer({ min: 1, max: 40 }),
      size: fc.integer({ min: 0, max: 300 }),
    }),
  }),
  fc.record({ pause: fc.nat(20) }),
  fc.record({ resume: fc.nat(20) }),
  fc.record({ leave: fc.nat(20) }),
  fc.constant({ tick: true as const }),
);

const limitsArbitrary: fc.Arbitrary<SubscriptionLimits> = fc.record({
  maxSubscribers: fc.integer({ min: 1, max: 6 }),
  subscriptionBufferBytes: fc.integer({ min: 1, max: 8_000 }),
  nodeBufferBytes: fc.integer({ min: 1, max: 12_000 }),
});

interface Member {
  key: string;
  output: Output;
  left: boolean;
}

describe('subscription limits', () => {
  it('for any joins, publishes, stalls and departures: the bounds hold, every line is written or counted, and everything is given back', async () => {
    await fc.assert(
      fc.asyncProperty(limitsArbitrary, fc.array(op, { maxLength: 80 }), async (limits, ops) => {
        const backend = new TestAdminBackend();
        const relays = RELAYS.map((name) => backend.addRelay(name));
        const hub = new SubscriptionHub({
          backend,
          logger: backend.logger,
          clock: new ManualClock(),
          limits,
        });
        const members: Member[] = [];
        /** Records each subscription (relay/name) should account for: published while it had members. */
        const expected = new Map<string, number>();
        const open = (key: string): number => members.filter((m) => m.key === key && !m.left).length;
        let refused = 0;
        let serial = 0;
        const check = (): void => {
          const usage = hub.usage;
          assert.ok(
            usage.bytes <= limits.nodeBufferBytes,
            `node: ${usage.bytes} > ${limits.nodeBufferBytes}`,
          );
          for (const [relay, bytes] of usage.relays)
            assert.ok(bytes <= limits.subscriptionBufferBytes, `${relay}: ${bytes} bytes`);
          assert.equal(usage.subscribers, members.filter((m) => !m.left).length);
          assert.ok(usage.subscribers <= limits.maxSubscribers);
        };
        for (const step of ops) {
          if ('join' in step) {
            const { relay, name, buffer } = step.join;
            const key = `${RELAYS[relay]}/${NAMES[name]}`;
            const output = new Output();
            const joined = hub.join(
              { domain: 'shop', relay: RELAYS[relay] ?? '', subscription: NAMES[name] ?? '' },
              output,
              buffer,
            );
            if (!joined.ok) {
              assert.equal(joined.reason, 'too_many_subscribers');
              refused++;
              continue;
            }
            joined.member.open();
            if (!expected.has(key)) expected.set(key, 0);
            members.push({ key, output, left: false });
          } else if ('publish' in step) {
            const { relay, count, size } = step.publish;
            const relayName = RELAYS[relay];
            for (let n = 0; n < count; n++) relays[relay]?.publish({ id: serial++, note: 'x'.repeat(size) });
            for (const name of NAMES) {
              const key = `${relayName}/${name}`;
              if (open(key) > 0) expected.set(key, (expected.get(key) ?? 0) + count);
            }
          } else if ('pause' in step) {
            const member = members[step.pause];
            if (member !== undefined && !member.left) member.output.paused = true;
          } else if ('resume' in step) {
            members[step.resume]?.output.resume();
          } else if ('leave' in step) {
            const member = members[step.leave];
            // A paused member's stream may hold written lines in its buffer, lost with it uncounted (as a
            // socket's would be): let it take them first.
            if (member === undefined || member.left) continue;
            member.output.resume();
            await tick();
            await tick();
            member.left = true;
            const closed = new Promise((resolve) => member.output.stream.once('close', resolve));
            member.output.stream.destroy();
            await closed;
          } else {
            await tick();
          }
          check();
        }
        for (const member of members) member.output.resume();
        for (let n = 0; n < 4; n++) await tick();
        check();
        for (const key of expected.keys()) {
          const [relay = '', name = ''] = key.split('/');
          const labels = { domain: 'shop', kind: 'subscriber', name: `${relay}/${name}` };
          const overflow = await readCounter(backend.registry, 'streamroute_drops_total', {
            ...labels,
            reason: 'subscriber_overflow',
          });
          const stopped = await readCounter(backend.registry, 'streamroute_drops_total', {
            ...labels,
            reason: 'stopped',
          });
          const written = members.filter((m) => m.key === key).reduce((sum, m) => sum + m.output.lines, 0);
          assert.equal(
            written + overflow + stopped,
            expected.get(key),
            `${key}: ${written} + ${overflow} + ${stopped}`,
          );
        }
        assert.equal(
          await readCounter(backend.registry, 'streamroute_subscribers_refused_total', {
            reason: 'node_limit',
          }),
          refused,
        );
        for (const member of members) member.output.stream.destroy();
        await tick();
        await tick();
        assert.deepEqual(
          { ...hub.usage, relays: [...hub.usage.relays] },
          { subscribers: 0, bytes: 0, relays: [] },
          'everything is given back once every subscriber has gone',
        );
        assert.equal(hub.groupCount, 0);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a subscriber beyond the node’s limit with too_many_subscribers, counts it and logs it once per interval', async () => {
    const backend = new TestAdminBackend();
    backend.addRelay('orders');
    const clock = new ManualClock();
    const hub = new SubscriptionHub({
      backend,
      logger: backend.logger,
      clock,
      limits: { maxSubscribers: 2 },
    });
    const key = { domain: 'shop', relay: 'orders', subscription: 'a' };
    const outputs = [new Output(), new Output()];
    for (const output of outputs) assert.ok(hub.join(key, output, 10).ok);
    for (let n = 0; n < 5; n++) {
      const refused = hub.join({ ...key, subscription: `n${n}` }, new Output(), 10);
      assert.deepEqual(refused.ok ? undefined : refused.reason, 'too_many_subscribers');
      assert.match(refused.ok ? '' : refused.message, /2 subscriber streams/);
      await tick();
    }
    const counted = await readCounter(backend.registry, 'streamroute_subscribers_refused_total', {
      reason: 'node_limit',
    });
    assert.equal(counted, 5);
    const lines = backend.logs.filter((line) => line.event === 'subscribers_refused');
    assert.deepEqual(
      lines.map((line) => line.count),
      [1],
      'the first refusal at once, the others when the interval has passed',
    );
    clock.advance(10_000);
    assert.deepEqual(
      backend.logs.filter((line) => line.event === 'subscribers_refused').map((line) => line.count),
      [1, 4],
    );
    assert.equal(hub.nameCount, 1, 'a refused subscriber leaves nothing of its name behind');
    outputs[0]?.stream.destroy();
    await tick();
    assert.ok(hub.join(key, new Output(), 10).ok, 'a slot that is given back is taken again');
  });

  it('keeps one copy of each line for every subscription of a relay: a thousand stalled subscribers cost what one does', async () => {
    const backend = new TestAdminBackend();
    const orders = backend.addRelay('orders');
    const hub = new SubscriptionHub({ backend, logger: backend.logger, clock: new ManualClock() });
    const line = `{"id":0,"note":"${'x'.repeat(100)}"}\n`.length;
    const outputs: Output[] = [];
    for (let n = 0; n < 1_000; n++) {
      const output = new Output();
      output.paused = true;
      const joined = hub.join({ domain: 'shop', relay: 'orders', subscription: `s${n}` }, output, 10_000);
      assert.ok(joined.ok);
      joined.member.open();
      outputs.push(output);
    }
    for (let n = 0; n < 5_000; n++) orders.publish({ id: n % 10, note: 'x'.repeat(100) });
    await tick();
    assert.equal(backend.subscribeCalls, 1);
    assert.ok(
      hub.usage.bytes <= 5_000 * (line + LINE_OVERHEAD_BYTES),
      `${hub.usage.bytes} bytes kept for 1,000 subscribers of 5,000 lines`,
    );
    for (const output of outputs) output.stream.destroy();
    await tick();
    assert.equal(hub.usage.bytes, 0);
  });

  it('has defaults: 1,000 subscribers, 16 MiB per subscription, 64 MiB per node', () => {
    assert.deepEqual(DEFAULT_SUBSCRIPTION_LIMITS, {
      maxSubscribers: 1_000,
      subscriptionBufferBytes: 16 * 1024 * 1024,
      nodeBufferBytes: 64 * 1024 * 1024,
    });
  });
});
