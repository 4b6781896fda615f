// Subscriptions end to end over real sockets: AdminServer on 127.0.0.1 (port 0), real relays, node:http
// clients that read, stop reading, and go away.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startAdmin, StreamClient } from '../../test/fixtures/admin-client.js';
import { waitFor } from '../../test/support/raw-http.js';
import { readCounter } from '../core/telemetry.js';
import { Instant } from '../core/values.js';

type Started = Awaited<ReturnType<typeof startAdmin>>;

const path = (subscription: string, query = ''): string =>
  `/v1/domains/shop/relays/orders/subscriptions/${subscription}${query}`;
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, n) => from + n);
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('subscription streams', () => {
  let admin: Started;
  afterEach(async () => admin.server.stop(0));

  async function setup() {
    admin = await startAdmin();
    const orders = admin.backend.addRelay('orders');
    const publish = (from: number, to: number, extra: Record<string, string> = {}): void => {
      for (let id = from; id < to; id++) orders.publish({ id, ...extra });
    };
    const drops = (reason: string, subscription: string): Promise<number> =>
      readCounter(admin.backend.registry, 'streamroute_drops_total', {
        domain: 'shop',
        kind: 'subscriber',
        name: `orders/${subscription}`,
        reason,
      });
    return { ...admin, orders, publish, drops };
  }

  it('sends the 200 head before the first record, then one JSON object per line', async () => {
    const { port, orders } = await setup();
    const client = await StreamClient.open(port, path('audit'));
    assert.equal(client.response.statusCode, 200);
    assert.equal(client.response.headers['content-type'], 'application/x-ndjson');
    assert.equal(client.response.headers['transfer-encoding'], 'chunked');
    assert.deepEqual(client.lines, []);
    orders.publish({
      id: 1,
      amount: 9223372036854775807n,
      at: new Instant(BigInt(Date.parse('2026-11-22T03:08:00Z')) * 1_000_000n + 1n),
      text: 'Grüße',
    });
    await waitFor(() => client.lines.length === 1);
    assert.equal(
      client.lines[0],
      '{"id":1,"amount":9223372036854775807,"at":"2026-11-22T03:08:00.000000001Z","text":"Grüße"}',
    );
  });

  it('gives two different subscription names every record each', async () => {
    const { port, publish, backend } = await setup();
    const audit = await StreamClient.open(port, path('audit'));
    const billing = await StreamClient.open(port, path('billing'));
    publish(0, 200);
    await waitFor(() => audit.lines.length === 200 && billing.lines.length === 200);
    assert.deepEqual(audit.ids(), range(0, 200));
    assert.deepEqual(billing.ids(), range(0, 200));
    assert.equal(backend.subscribeCalls, 1, 'one backend subscription per relay');
  });

  it('shares the records of one name between its two members, each record exactly once', async () => {
    const { port, publish, backend } = await setup();
    const first = await StreamClient.open(port, path('audit'));
    const second = await StreamClient.open(port, path('audit'));
    assert.equal(backend.subscribeCalls, 1);
    publish(0, 1_000);
    await waitFor(() => first.lines.length + second.lines.length === 1_000);
    assert.ok(first.lines.length > 0 && second.lines.length > 0);
    assert.deepEqual(
      [...first.ids(), ...second.ids()].sort((a, b) => a - b),
      range(0, 1_000),
    );
  });

  it('a client that stops reading overflows its buffer: the publisher never waits, and every record is written or counted', async () => {
    const { port, publish, drops, clock, backend } = await setup();
    const client = await StreamClient.open(port, path('slow', '?buffer=1000'));
    client.pause();
    const filler = 'x'.repeat(1_000);
    let published = 0;
    let slowest = 0;
    for (let round = 0; round < 20; round++) {
      const started = performance.now();
      publish(published, published + 5_000, { filler });
      slowest = Math.max(slowest, performance.now() - started);
      published += 5_000;
      await tick();
    }
    // 5,000 records per synchronous burst: publishing costs the same whether anyone reads or not.
    assert.ok(slowest < 1_000, `a burst of 5,000 publishes took ${slowest.toFixed(0)} ms`);
    clock.advance(10_000);
    await tick();
    const overflow = await drops('subscriber_overflow', 'slow');
    assert.ok(overflow > 50_000, `only ${overflow} dropped`);
    client.resume();
    backend.removeRelay('orders', 'relay orders was removed');
    const trailers = await client.ended;
    assert.equal(trailers['streamroute-end-reason'], 'relay orders was removed');
    clock.advance(10_000);
    assert.equal(await drops('stopped', 'slow'), 0);
    assert.equal(client.lines.length + overflow, published);
    const ids = client.ids();
    assert.deepEqual(ids.slice(-1_000), range(published - 1_000, published));
    assert.ok(
      ids.every((id, n) => n === 0 || id > (ids[n - 1] as number)),
      'in order, oldest dropped',
    );
    const logged = backend.logs.filter((line) => line.msg === 'records dropped');
    assert.ok(logged.length >= 1 && logged.length <= 3, `${logged.length} drop lines`);
    assert.equal(
      logged.reduce((sum, line) => sum + (line.count as number), 0),
      overflow,
    );
    assert.doesNotMatch(JSON.stringify(backend.logs), /xxxxxxxx/);
  });

  it('a raw client that never reads a byte does not hold up the others', async () => {
    const { port, publish, drops, clock } = await setup();
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write(`GET ${path('audit', '?buffer=10')} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    // The reader's buffer holds everything, so only the stuck client can drop (CI machines are slow).
    const reader = await StreamClient.open(port, path('billing', '?buffer=100000'));
    await waitFor(() => admin.server.subscriptions.groupCount === 2);
    const filler = 'y'.repeat(600);
    for (let round = 0; round < 20; round++) {
      publish(round * 1_000, (round + 1) * 1_000, { filler });
      await tick();
    }
    await waitFor(() => reader.lines.length === 20_000, 10_000);
    clock.advance(10_000);
    await tick();
    assert.ok((await drops('subscriber_overflow', 'audit')) > 0);
    assert.equal(await drops('subscriber_overflow', 'billing'), 0);
    socket.destroy();
  });

  it('streams to an HTTP/1.0 client without chunks or trailers, ending with the connection', async () => {
    const { port, publish, backend, server } = await setup();
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`GET ${path('audit')} HTTP/1.0\r\n\r\n`);
    await waitFor(() => server.subscriptions.groupCount === 1);
    publish(0, 2);
    await waitFor(() => received.includes('{"id":1}'));
    backend.removeRelay('orders', 'relay orders was removed');
    await closed;
    const [head = '', body] = received.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.doesNotMatch(head, /transfer-encoding|trailer/i);
    assert.equal(body, '{"id":0}\n{"id":1}\n');
  });

  it('removes a member whose client disconnects, and releases the backend subscription with the last one', async () => {
    const { port, publish, backend, server } = await setup();
    const first = await StreamClient.open(port, path('audit'));
    const second = await StreamClient.open(port, path('audit'));
    assert.equal(backend.activeCount('orders'), 1);
    first.disconnect();
    await waitFor(
      () =>
        server.subscriptions.memberCount({ domain: 'shop', relay: 'orders', subscription: 'audit' }) === 1,
    );
    publish(0, 10);
    await waitFor(() => second.lines.length === 10);
    second.disconnect();
    await waitFor(() => backend.activeCount('orders') === 0);
    assert.equal(server.subscriptions.groupCount, 0);
    assert.ok(backend.logs.some((line) => line.event === 'subscriber_left' && line.finished === false));
  });

  it('ends the stream with the reason when the backend ends the subscription, after the queued records', async () => {
    const { port, publish, backend } = await setup();
    const client = await StreamClient.open(port, path('audit'));
    publish(0, 500);
    backend.removeRelay('orders', 'relay orders was removed by graph version 4');
    const trailers = await client.ended;
    assert.equal(trailers['streamroute-end-reason'], 'relay orders was removed by graph version 4');
    assert.deepEqual(client.ids(), range(0, 500));
    assert.equal(backend.activeCount('orders'), 0);
  });

  it('stop(0) cuts every stream at once, counts what was still queued, and releases every backend subscription', async () => {
    const { port, publish, backend, server, drops } = await setup();
    const client = await StreamClient.open(port, path('audit'));
    publish(0, 5);
    await server.stop(0);
    await client.ended.catch(() => undefined);
    assert.equal(client.lines.length + (await drops('stopped', 'audit')), 5);
    assert.equal(backend.activeCount('orders'), 0);
    assert.equal(server.subscriptions.groupCount, 0);
  });

  it('stop() with a grace period lets a reading client get everything, then closes its connection', async () => {
    const { port, publish, backend, server } = await setup();
    const client = await StreamClient.open(port, path('audit'));
    publish(0, 100);
    await server.stop(60_000);
    const trailers = await client.ended;
    assert.equal(trailers['streamroute-end-reason'], 'the admin server is stopping');
    assert.deepEqual(client.ids(), range(0, 100));
    assert.equal(backend.activeCount('orders'), 0);
    assert.equal(server.status.state, 'Stopped');
  });
});
