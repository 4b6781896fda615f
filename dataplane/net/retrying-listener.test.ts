import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { ManualClock } from '../core/clock.js';
import { waitFor } from '../../test/support/raw-http.js';
import { RetryingListener, type ListenerHooks, type ListenerStatus } from './retrying-listener.js';

function recordingHooks() {
  const events: string[] = [];
  const statuses: ListenerStatus[] = [];
  const hooks: ListenerHooks = {
    listening: (address) => events.push(`listening ${address}`),
    listenFailed: (address, code, retryInMs) => events.push(`failed ${address} ${code} ${retryInMs}`),
    serverError: (code) => events.push(`error ${code}`),
    stopped: () => events.push('stopped'),
    statusChanged: (status) => statuses.push(status),
  };
  return { events, statuses, hooks };
}

async function occupiedPort(): Promise<{ blocker: Server; port: number }> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const address = blocker.address();
  assert.ok(address !== null && typeof address === 'object');
  return { blocker, port: address.port };
}

describe('RetryingListener', () => {
  it('starts: Starting → Running with the bound port', async () => {
    const { events, statuses, hooks } = recordingHooks();
    const listener = new RetryingListener(
      createServer(),
      { host: '127.0.0.1', port: 0 },
      { clock: new ManualClock(), hooks },
    );
    const status = await listener.start();
    assert.equal(status.state, 'Running');
    assert.ok(status.port !== undefined && status.port > 0);
    assert.deepEqual(events, ['listening 127.0.0.1:0']);
    assert.deepEqual(
      statuses.map((s) => s.state),
      ['Starting', 'Running'],
    );
    await listener.stop();
    assert.equal(listener.status.state, 'Stopped');
    assert.deepEqual(events.at(-1), 'stopped');
  });

  it('address in use: Retrying with the error and a doubling backoff up to the maximum, then recovers and resets', async () => {
    const { blocker, port } = await occupiedPort();
    const clock = new ManualClock();
    const { events, hooks } = recordingHooks();
    const listener = new RetryingListener(
      createServer(),
      { host: '127.0.0.1', port },
      {
        clock,
        retry: { initialMs: 100, maxMs: 300 },
        hooks,
      },
    );
    const first = await listener.start();
    assert.equal(first.state, 'Retrying');
    assert.equal(first.error?.code, 'EADDRINUSE');
    assert.match(first.error?.message ?? '', /EADDRINUSE/);
    assert.equal(first.backoffMs, 100);
    assert.equal(first.failures, 1);

    for (const [failures, backoffMs] of [
      [2, 200],
      [3, 300],
      [4, 300],
    ] as const) {
      clock.advance(listener.status.backoffMs!);
      await waitFor(() => listener.status.failures === failures);
      assert.equal(listener.status.backoffMs, backoffMs);
    }
    assert.deepEqual(
      events.map((e) => e.split(' ').at(-1)),
      ['100', '200', '300', '300'],
    );

    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    clock.advance(300);
    await waitFor(() => listener.status.state === 'Running');
    assert.equal(listener.status.failures, 0);
    assert.equal(listener.status.error, undefined);
    assert.equal(events.at(-1), `listening 127.0.0.1:${port}`);
    await listener.stop();
  });

  it('a policy that does not retry: Stopped with the error, no timer, the hook told; a later start binds afresh', async () => {
    const { blocker, port } = await occupiedPort();
    const clock = new ManualClock();
    const { events, hooks } = recordingHooks();
    let retries = false;
    const listener = new RetryingListener(
      createServer(),
      { host: '127.0.0.1', port },
      { clock, retry: { initialMs: 100, maxMs: 100, retries: () => retries }, hooks },
    );
    const status = await listener.start();
    assert.equal(status.state, 'Stopped');
    assert.equal(status.error?.code, 'EADDRINUSE');
    assert.equal(status.backoffMs, undefined);
    assert.equal(clock.pendingTimers, 0, 'nothing is retried');
    assert.deepEqual(events, [`failed 127.0.0.1:${port} EADDRINUSE undefined`]);

    // Once the policy retries, a new start goes the usual way (Retrying, then Running).
    retries = true;
    assert.equal((await listener.start()).state, 'Retrying');
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    clock.advance(100);
    await waitFor(() => listener.status.state === 'Running');
    assert.equal(listener.status.error, undefined);
    await listener.stop();
  });

  it('stop while Retrying cancels the retry', async () => {
    const { blocker, port } = await occupiedPort();
    const clock = new ManualClock();
    const listener = new RetryingListener(
      createServer(),
      { host: '127.0.0.1', port },
      { clock, hooks: recordingHooks().hooks },
    );
    assert.equal((await listener.start()).state, 'Retrying');
    assert.equal(clock.pendingTimers, 1);
    await listener.stop();
    assert.equal(clock.pendingTimers, 0);
    assert.equal(listener.status.state, 'Stopped');
    blocker.close();
  });

  it('an address that is not local is a transient error too (EADDRNOTAVAIL), not a crash', async () => {
    const listener = new RetryingListener(
      createServer(),
      { host: '192.0.2.1', port: 0 },
      {
        clock: new ManualClock(),
        hooks: recordingHooks().hooks,
      },
    );
    const status = await listener.start();
    assert.equal(status.state, 'Retrying');
    assert.equal(status.error?.code, 'EADDRNOTAVAIL');
    await listener.stop();
  });

  it('stop closes idle keep-alive connections and cuts busy ones after the grace period', async () => {
    let busyRequests = 0;
    const server = createHttpServer((req, res) => {
      if (req.url === '/busy')
        busyRequests++; // never answered: the connection stays busy
      else res.end();
    });
    const clock = new ManualClock();
    const listener = new RetryingListener(
      server,
      { host: '127.0.0.1', port: 0 },
      { clock, hooks: recordingHooks().hooks },
    );
    const { port } = await listener.start();
    const busy = connect(port!, '127.0.0.1');
    busy.on('error', () => {});
    const idle = connect(port!, '127.0.0.1');
    idle.on('error', () => {});
    let answered = false;
    idle.once('data', () => (answered = true));
    idle.write('GET /done HTTP/1.1\r\nHost: x\r\n\r\n');
    busy.write('GET /busy HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitFor(() => busyRequests === 1 && answered);
    const stopped = listener.stop(1000);
    await waitFor(() => idle.readableEnded || idle.destroyed);
    assert.equal(busy.readableEnded, false, 'the busy connection gets its grace period');
    clock.advance(1000);
    await stopped;
    await waitFor(() => busy.readableEnded || busy.destroyed);
  });

  it('stop during the bind, then start again at once: no throw, and it ends up Running', async () => {
    const clock = new ManualClock();
    const listener = new RetryingListener(
      createServer(),
      { host: '127.0.0.1', port: 0 },
      {
        clock,
        retry: { initialMs: 10, maxMs: 10 },
        hooks: recordingHooks().hooks,
      },
    );
    void listener.start();
    await listener.stop();
    const again = await listener.start();
    if (again.state === 'Retrying') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      clock.advance(10);
    }
    await waitFor(() => listener.status.state === 'Running');
    await listener.stop();
  });

  it('start while running or retrying returns the current status', async () => {
    const listener = new RetryingListener(
      createServer(),
      { host: '127.0.0.1', port: 0 },
      {
        clock: new ManualClock(),
        hooks: recordingHooks().hooks,
      },
    );
    const [one, two] = await Promise.all([listener.start(), listener.start()]);
    assert.equal(one.state, 'Running');
    assert.equal(two.state, 'Running');
    assert.equal((await listener.start()).port, one.port);
    await listener.stop();
  });
});
