// DESCRIBE INGESTOR: the state table, and the data plane's answers over real sockets (a port in use,
// a certificate that cannot be read, counters after traffic).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { paymentsGraph, START, testDataPlane, type TestDataPlane } from '../../test/fixtures/data-plane.js';
import { sendOnce, waitFor } from '../../test/support/raw-http.js';
import type { RuntimeState } from '../core/status.js';
import type { QuiesceState } from '../sources/quiesce-buffer.js';
import type { ListenerState } from '../net/retrying-listener.js';
import { httpIngestorState } from './describe.js';

const AT_START = new Date(START).toISOString().replace('.000Z', 'Z');

describe('httpIngestorState', () => {
  const table: [ListenerState, QuiesceState | undefined, RuntimeState][] = [
    ['Running', 'open', 'Running'],
    ['Running', 'quiesced', 'Quiescing'],
    ['Running', 'draining', 'Quiescing'],
    ['Retrying', 'quiesced', 'Quiescing'],
    ['Retrying', 'open', 'Retrying'],
    ['Starting', 'open', 'Starting'],
    ['Stopped', 'open', 'Stopped'],
    ['Running', 'stopped', 'Stopped'],
    ['Running', undefined, 'Running'],
  ];
  for (const [listener, target, state] of table) {
    it(`listener ${listener}, target ${target ?? 'none'} → ${state}`, () =>
      assert.equal(httpIngestorState(listener, target), state));
  }
});

describe('DataPlane.describe', () => {
  let node: TestDataPlane;
  let blocker: Server | undefined;
  afterEach(async () => {
    await node.dataPlane.stop(0);
    blocker?.close();
    blocker = undefined;
  });

  it('an HTTP ingestor: Running, its settings and its edge metrics', async () => {
    node = testDataPlane();
    assert.ok((await node.dataPlane.apply(paymentsGraph(), 7)).ok);
    await node.dataPlane.start();
    const send = (body: string) => sendOnce(node.port(), { host: 'localhost', path: '/web/orders', body });
    await send('{"order_id":"A1","amount":250}');
    await send('not json');

    const described = await node.dataPlane.describe('default', 'ingestor', 'web-in');
    assert.ok(described !== undefined);
    assert.deepEqual(
      [
        described.kind,
        described.name,
        described.displayName,
        described.state,
        described.graphVersion,
        described.transientError,
        described.backoffMs,
      ],
      // The resource name stays its identity; the statement wrote web_in (decision 0025).
      ['http-ingestor', 'web-in', 'web_in', 'Running', 7, null, null],
    );
    assert.deepEqual(described.details, {
      hostnames: ['localhost'],
      path: '/web/orders',
      vhost: 'local',
      endpoint: 'web_ep',
      tls: false,
      listener: { name: 'http', address: '127.0.0.1:0', port: node.port(), state: 'Running' },
      codec: 'order_json',
      maxBodyBytes: 1048576,
      quiesce: { action: 'BUFFER', maxBytes: 1048576, onOverflow: 'DROP_NEWEST' },
      routes: [{ to: 'web_orders', onMessageError: 'SEND TO errors' }],
    });
    const m = described.metrics;
    assert.deepEqual(
      [m.payloads, m.records_in, m.records_out, m.message_errors, m['message_errors.SR3002'], m.drops],
      [2, 1, 1, 1, 1, 0],
    );
    assert.deepEqual(
      [m.requests_accepted, m.request_bytes, m.requests_too_large, m.quiesce_buffered],
      [2, 38, 0, 0],
    );
  });

  it('Retrying with the error, since and backoff while the port is taken; Running once it frees', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    node = testDataPlane({ httpAddress: { host: '127.0.0.1', port } });
    assert.ok((await node.dataPlane.apply(paymentsGraph(), 1)).ok);
    await node.dataPlane.start();

    const retrying = await node.dataPlane.describe('default', 'ingestor', 'web-in');
    assert.equal(retrying?.state, 'Retrying');
    assert.equal(retrying.transientError?.code, 'EADDRINUSE');
    assert.equal(retrying.transientError.since, AT_START);
    assert.equal(retrying.backoffMs, 1000);

    node.clock.advance(1000); // the second attempt fails too: the error keeps its start, the wait doubles
    await waitFor(() => node.dataPlane.httpIngestion.http.status.failures === 2);
    const again = await node.dataPlane.describe('default', 'ingestor', 'web-in');
    assert.deepEqual([again?.transientError?.since, again?.backoffMs], [AT_START, 2000]);

    await new Promise<void>((resolve) => blocker!.close(() => resolve()));
    blocker = undefined;
    node.clock.advance(2000);
    await waitFor(() => node.dataPlane.httpIngestion.http.status.state === 'Running');
    const recovered = await node.dataPlane.describe('default', 'ingestor', 'web-in');
    assert.deepEqual(
      [recovered?.state, recovered?.transientError, recovered?.backoffMs],
      ['Running', null, null],
    );
  });

  it('a TLS vhost whose certificate cannot be read: a warning on apply, tls_unavailable on describe', async () => {
    node = testDataPlane();
    const graph = paymentsGraph();
    const file = (name: string) => ({ resource: 'pki', version: 1, file: name });
    Object.assign(graph.httpIngestors['payments-in']!, {
      hostnames: ['pay.example.com'],
      tls: { certFile: file('tls.crt'), keyFile: file('tls.key') },
    });
    const applied = await node.dataPlane.apply(graph, 1);
    assert.ok(applied.ok);
    assert.equal(applied.warnings.length, 1);
    assert.match(
      applied.warnings[0]!,
      /^http-ingestor payments_in: tls_unavailable: .*pki@1\/tls\.crt.*\(ENOENT\)/,
    );
    await node.dataPlane.start();

    const described = await node.dataPlane.describe('default', 'ingestor', 'payments-in');
    assert.equal(described?.state, 'Stopped', 'no TLS vhost is served: the HTTPS listener is not open');
    assert.equal(described.transientError?.code, 'tls_unavailable');
    assert.equal(described.transientError.since, AT_START);
    assert.deepEqual(described.details.tls, true);
    assert.doesNotMatch(JSON.stringify(described), /BEGIN|PRIVATE/);
  });

  it('undefined for an unknown domain or name, and for a kind the name is not', async () => {
    node = testDataPlane();
    assert.ok((await node.dataPlane.apply(paymentsGraph(), 1)).ok);
    assert.equal(await node.dataPlane.describe('nope', 'ingestor', 'web-in'), undefined);
    assert.equal(await node.dataPlane.describe('default', 'ingestor', 'nope'), undefined);
    assert.equal(await node.dataPlane.describe('default', 'ingestor', 'constructor'), undefined);
    assert.equal(await node.dataPlane.describe('default', 'emitter', 'web-in'), undefined);
  });
});
