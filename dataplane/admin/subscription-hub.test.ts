import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { TestAdminBackend } from '../../test/fixtures/admin-backend.js';
import { ManualClock } from '../core/clock.js';
import { readCounter } from '../core/telemetry.js';
import { SubscriptionHub, type SubscriptionKey } from './subscription-hub.js';
import type { SubscriberOutput } from './subscription-member.js';

/** A writable that keeps the lines it got and can stop taking them (a client that stops reading). */
class MemoryOutput implements SubscriberOutput {
  readonly stream: Writable;
  readonly lines: string[] = [];
  endedWith: string | undefined;
  #paused = false;
  #held: (() => void)[] = [];

  constructor(highWaterMark = 1024) {
    this.stream = new Writable({
      highWaterMark,
      decodeStrings: false,
      write: (chunk: Buffer | string, _encoding, callback) => {
        for (const line of String(chunk).split('\n')) if (line !== '') this.lines.push(line);
        if (this.#paused) this.#held.push(() => callback());
        else callback();
      },
    });
  }

  gone(): boolean {
    return this.stream.destroyed;
  }

  end(reason: string): void {
    this.endedWith = reason;
    this.stream.end();
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    for (const release of this.#held.splice(0)) release();
  }

  ids(): number[] {
    return this.lines.map((line) => (JSON.parse(line) as { id: number }).id);
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const key = (subscription: string, relay = 'orders'): SubscriptionKey => ({
  domain: 'shop',
  relay,
  subscription,
});

function setup(options: { retainedNames?: number } = {}) {
  const backend = new TestAdminBackend();
  const orders = backend.addRelay('orders');
  const clock = new ManualClock();
  const hub = new SubscriptionHub({ backend, logger: backend.logger, clock, ...options });
  const join = (subscription: string, capacity = 100, output = new MemoryOutput()): MemoryOutput => {
    const joined = hub.join(key(subscription), output, capacity);
    assert.ok(joined.ok);
    joined.member.open();
    return output;
  };
  const publish = (from: number, to: number): void => {
    for (let id = from; id < to; id++) orders.publish({ id });
  };
  const drops = (reason: string, subscription = 'audit'): Promise<number> =>
    readCounter(backend.registry, 'streamroute_drops_total', {
      domain: 'shop',
      kind: 'subscriber',
      name: `orders/${subscription}`,
      reason,
    });
  return { backend, orders, clock, hub, join, publish, drops };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, n) => from + n);

describe('SubscriptionHub', () => {
  it('gives each subscription name every record', async () => {
    const { backend, join, publish } = setup();
    const audit = join('audit');
    const billing = join('billing');
    publish(0, 50);
    await tick();
    assert.deepEqual(audit.ids(), range(0, 50));
    assert.deepEqual(billing.ids(), range(0, 50));
    // One backend subscription for the relay: each record is serialized once for every name.
    assert.equal(backend.subscribeCalls, 1);
  });

  it('shares the records of one name among its members, each record exactly once, round-robin', async () => {
    const { backend, hub, join, publish } = setup();
    const first = join('audit');
    const second = join('audit');
    assert.equal(backend.subscribeCalls, 1);
    assert.equal(hub.memberCount(key('audit')), 2);
    publish(0, 10);
    await tick();
    assert.deepEqual(first.ids(), [0, 2, 4, 6, 8]);
    assert.deepEqual(second.ids(), [1, 3, 5, 7, 9]);
  });

  it('gives a full member’s turn to a sibling with room instead of dropping', async () => {
    const { join, publish, drops } = setup();
    const slow = new MemoryOutput(1);
    slow.pause();
    join('audit', 3, slow);
    const fast = join('audit', 3);
    publish(0, 6);
    await tick();
    // The slow member took its first records into the stream, then stopped; its queue fills up while the
    // fast one writes each record it gets at once.
    for (let id = 6; id < 100; id++) {
      publish(id, id + 1);
      await tick();
    }
    assert.ok(slow.lines.length < 10, `${slow.lines.length} lines reached the slow member`);
    slow.resume();
    await tick();
    assert.deepEqual(
      [...slow.ids(), ...fast.ids()].sort((a, b) => a - b),
      range(0, 100),
    );
    assert.equal(await drops('subscriber_overflow'), 0);
  });

  it('drops the oldest records of a member that stops reading, counts them exactly, and never waits', async () => {
    const { clock, join, publish, drops, backend } = setup();
    const paused = new MemoryOutput(64);
    paused.pause();
    join('audit', 1_000, paused);
    let published = 0;
    const started = performance.now();
    for (let round = 0; round < 10; round++) {
      publish(published, published + 10_000);
      published += 10_000;
      await tick();
    }
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 3_000, `publishing 100k records took ${elapsed.toFixed(0)} ms`);
    clock.advance(10_000);
    const dropped = await drops('subscriber_overflow');
    assert.ok(dropped >= 90_000, `dropped ${dropped}`);
    paused.resume();
    backend.removeRelay('orders', 'relay orders was removed');
    await tick();
    await tick();
    assert.equal(paused.endedWith, 'relay orders was removed');
    // Nothing lost silently: every record was either written or counted.
    assert.equal(paused.lines.length + dropped, published);
    // What was written is in order, and the last records are the newest ones.
    const ids = paused.ids();
    assert.deepEqual(ids.slice(-1_000), range(published - 1_000, published));
    assert.ok(ids.every((id, n) => n === 0 || id > (ids[n - 1] as number)));
    const lines = backend.logs.filter((line) => line.msg === 'records dropped');
    assert.ok(lines.length <= 2, `${lines.length} drop log lines`);
    assert.ok(lines.every((line) => line.reason === 'subscriber_overflow' && line.name === 'orders/audit'));
  });

  it('keeps the newest records when a burst overflows the queue before the first write', async () => {
    const { join, publish, drops } = setup();
    const output = join('audit', 100);
    publish(0, 100_000);
    await tick();
    assert.deepEqual(output.ids(), range(99_900, 100_000));
    assert.equal(await drops('subscriber_overflow'), 99_900);
  });

  it('removes a member whose client goes away, its sibling takes what the subscription holds, and the last one counts what it leaves untaken', async () => {
    const { backend, hub, join, publish, drops } = setup();
    const first = new MemoryOutput(1);
    first.pause();
    join('audit', 10, first);
    const second = join('audit', 10);
    publish(0, 4);
    await tick();
    publish(4, 40);
    first.stream.destroy();
    await tick();
    assert.equal(hub.memberCount(key('audit')), 1);
    assert.equal(backend.activeCount('orders'), 1);
    const overflow = await drops('subscriber_overflow');
    // What the first member's stream had taken is lost with its connection, uncounted (as TCP would).
    const inFirstStream = first.lines.length;
    assert.equal(inFirstStream + second.lines.length + overflow, 40);
    assert.equal(await drops('stopped'), 0, 'a member leaving a sibling behind leaves nothing untaken');
    second.stream.destroy();
    await tick();
    assert.equal(hub.groupCount, 0);
    assert.equal(backend.activeCount('orders'), 0);
    assert.equal(hub.usage.bytes, 0, 'the relay keeps no line once its last subscriber has gone');
    join('audit');
    assert.equal(backend.subscribeCalls, 2);
  });

  it('counts the lines a subscription had not taken as stopped when its last member leaves', async () => {
    const { hub, join, publish, drops } = setup();
    const paused = new MemoryOutput(1);
    paused.pause();
    join('audit', 100, paused);
    publish(0, 10);
    await tick();
    publish(10, 50);
    await tick();
    const taken = paused.lines.length;
    assert.equal(taken, 10, 'the first chunk went to the stream, which then wanted no more');
    paused.stream.destroy();
    await tick();
    assert.equal(await drops('stopped'), 40);
    assert.equal(hub.usage.bytes, 0);
  });

  it('ends every member’s stream when the backend ends the subscription, after writing what is queued', async () => {
    const { backend, hub, join, publish } = setup();
    const first = join('audit');
    const second = join('audit');
    publish(0, 10);
    backend.removeRelay('orders', 'relay orders was removed by graph version 7');
    await tick();
    await tick();
    assert.deepEqual(
      [...first.ids(), ...second.ids()].sort((a, b) => a - b),
      range(0, 10),
    );
    assert.equal(first.endedWith, 'relay orders was removed by graph version 7');
    assert.equal(second.endedWith, 'relay orders was removed by graph version 7');
    assert.equal(hub.groupCount, 0);
  });

  it('answers unknown domains and relays with the backend’s reason', () => {
    const { hub } = setup();
    const relay = hub.join(key('audit', 'nope'), new MemoryOutput(), 10);
    assert.deepEqual(relay, { ok: false, reason: 'unknown_relay', message: 'domain shop has no relay nope' });
    const domain = hub.join(
      { domain: 'other', relay: 'orders', subscription: 'audit' },
      new MemoryOutput(),
      10,
    );
    assert.equal(domain.ok ? '' : domain.reason, 'unknown_domain');
    assert.equal(hub.groupCount, 0);
    assert.equal(hub.nameCount, 0, 'a refused join keeps nothing of its name');
  });

  it('queues records that arrive before the member is opened', async () => {
    const { hub, publish } = setup();
    const output = new MemoryOutput();
    const joined = hub.join(key('audit'), output, 10);
    assert.ok(joined.ok);
    publish(0, 3);
    await tick();
    assert.deepEqual(output.lines, []);
    joined.member.open();
    await tick();
    assert.deepEqual(output.ids(), [0, 1, 2]);
  });

  it('ends everything and refuses new members when the server stops', async () => {
    const { backend, hub, join, publish } = setup();
    const output = join('audit');
    publish(0, 3);
    hub.endAll('admin server stopping');
    await tick();
    assert.equal(output.endedWith, 'admin server stopping');
    assert.deepEqual(output.ids(), [0, 1, 2]);
    assert.equal(backend.activeCount('orders'), 0);
    const refused = hub.join(key('audit'), new MemoryOutput(), 10);
    assert.equal(refused.ok ? '' : refused.reason, 'shutting_down');
    hub.reopen();
    assert.ok(hub.join(key('audit'), new MemoryOutput(), 10).ok);
  });

  it('logs no record values', async () => {
    const { backend, join, orders } = setup();
    const output = new MemoryOutput(1);
    output.pause();
    join('audit', 1, output);
    for (let n = 0; n < 10; n++) orders.publish({ secret: 'SECRET-VALUE' });
    await tick();
    output.stream.destroy();
    await tick();
    assert.ok(backend.logs.length > 0);
    assert.doesNotMatch(JSON.stringify(backend.logs), /SECRET-VALUE/);
  });

  describe('regression: unbounded memory per subscription name', () => {
    /** A member of `name` that stops reading, loses records, and goes away. */
    async function overflowAndLeave(t: ReturnType<typeof setup>, name: string): Promise<void> {
      const output = new MemoryOutput(1);
      output.pause();
      t.join(name, 1, output);
      t.publish(0, 5);
      await tick();
      output.stream.destroy();
      await tick();
    }
    const logged = (t: ReturnType<typeof setup>, name: string) =>
      t.backend.logs
        .filter((line) => line.msg === 'records dropped' && line.name === `orders/${name}`)
        .reduce((sum, line) => sum + Number(line.count), 0);

    it('forgets a name when its last group finishes, logging its pending drops at once', async () => {
      const t = setup();
      await overflowAndLeave(t, 'once');
      assert.equal(t.hub.groupCount, 0);
      const counted = (await t.drops('subscriber_overflow', 'once')) + (await t.drops('stopped', 'once'));
      assert.ok(counted > 0);
      // No clock advance: the drops pending in the log interval were logged when the name finished.
      assert.equal(logged(t, 'once'), counted);
      assert.equal(t.clock.pendingTimers, 0);
    });

    it('keeps the counter series of the most recently finished names only', async () => {
      const t = setup({ retainedNames: 2 });
      for (const name of ['n0', 'n1', 'n2', 'n3']) await overflowAndLeave(t, name);
      assert.equal(t.hub.nameCount, 2);
      assert.equal(await t.drops('subscriber_overflow', 'n0'), 0, 'series of n0 removed');
      assert.equal(await t.drops('subscriber_overflow', 'n1'), 0, 'series of n1 removed');
      const kept = await t.drops('subscriber_overflow', 'n3');
      assert.ok(kept > 0);
      // A retained name that comes back counts on in its series.
      await overflowAndLeave(t, 'n3');
      assert.ok((await t.drops('subscriber_overflow', 'n3')) > kept);
      assert.equal(t.hub.nameCount, 2);
      // Names of members still connected are all accounted; once they go, `retainedNames` stay.
      for (let n = 0; n < 1_000; n++) t.join(`burst-${n}`);
      assert.equal(t.hub.groupCount, 1_000);
      assert.equal(t.hub.nameCount, 1_002);
      t.hub.endAll('stop');
      await tick();
      await tick();
      assert.equal(t.hub.groupCount, 0);
      assert.equal(t.hub.nameCount, 2);
    });

    it('a name the backend ended stays accounted while its members still write, then is forgotten', async () => {
      const t = setup();
      const slow = new MemoryOutput(1);
      slow.pause();
      t.join('audit', 2, slow);
      t.publish(0, 6);
      await tick();
      t.publish(6, 9); // queued behind the stream that stopped taking data
      t.backend.removeRelay('orders', 'relay orders was removed');
      assert.equal(t.hub.groupCount, 0);
      assert.equal(t.hub.nameCount, 1, 'the member still holds records');
      slow.stream.destroy();
      await tick();
      assert.equal(t.hub.nameCount, 1, 'retained series only');
      const overflow = await t.drops('subscriber_overflow');
      const stopped = await t.drops('stopped');
      assert.ok(stopped > 0);
      assert.equal(slow.lines.length + overflow + stopped, 9);
      assert.equal(logged(t, 'audit'), overflow + stopped);
    });
  });
});
