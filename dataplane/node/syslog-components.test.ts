// Syslog listeners and emitters as the data plane runs them: DESCRIBE shows their state, transient error
// and backoff; a port in use and TLS files that fail are transient errors that clear on recovery; a
// reload keeps an unchanged listener's connections and moves a changed one to the new routes.
import assert from 'node:assert/strict';
import { createServer, Socket, type Server } from 'node:net';
import { paymentsGraph, START, testDataPlane, type TestDataPlane } from '../../test/fixtures/data-plane.js';
import { recordingSubscriber } from '../../test/fixtures/data-plane.js';
import { waitFor } from '../../test/support/raw-http.js';
import { testPki } from '../../test/support/test-pki.js';
import type { Graph, GraphSyslogClient } from '../graph/types.js';

const AT_START = new Date(START).toISOString().replace('.000Z', 'Z');

/** examples/payments plus a SYSLOG codec, a relay of syslog lines and a listener on `client`. */
function syslogGraph(client: GraphSyslogClient): Graph {
  const graph = paymentsGraph();
  graph.schemas['line'] = {
    fields: [
      { name: 'facility', type: 'U8', optional: false, sensitive: false },
      { name: 'severity', type: 'U8', optional: false, sensitive: false },
      { name: 'message', type: 'STRING', optional: false, sensitive: false },
    ],
  };
  graph.codecs['syslog'] = {
    kind: 'syslog',
    schema: 'line',
    canEncode: true,
    fields: ['facility', 'severity', 'message'],
  };
  graph.relays['lines'] = { schema: 'line', branching: 'UNBRANCHED' };
  graph.clients['in'] = client;
  graph.syslogIngestors['syslog-in'] = {
    client: 'in',
    mode: 'NO_ACK',
    quiesce: { action: 'SUSPEND' },
    codec: 'syslog',
    routes: [
      {
        to: 'lines',
        inherit: ['facility', 'severity', 'message'],
        set: [],
        branching: 'UNBRANCHED',
        flush: 'IMMEDIATE',
        onMessageError: { action: 'LOG' },
      },
    ],
    onGeneralError: 'LOG',
  };
  return graph;
}

const tcp = (port: number): GraphSyslogClient => ({
  protocol: 'tcp',
  host: '127.0.0.1',
  port,
  maxMessageSize: 131072,
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

function sendLine(port: number, text: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(text, () => resolve(socket)));
  });
}

describe('syslog listeners and emitters on the data plane', function () {
  this.timeout(10_000);
  let node: TestDataPlane | undefined;
  let blocker: Server | undefined;
  const sockets: Socket[] = [];

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await node?.dataPlane.stop(0);
    node = undefined;
    if (blocker !== undefined) await new Promise<void>((resolve) => blocker!.close(() => resolve()));
    blocker = undefined;
  });

  it('a TCP listener runs, shows its port and counters, and delivers to its relay with peer_addr in metadata', async () => {
    node = testDataPlane();
    const applied = await node.dataPlane.apply(syslogGraph(tcp(0)), 1);
    assert.ok(applied.ok, JSON.stringify(applied));
    assert.deepEqual(applied.warnings, []);
    const subscriber = recordingSubscriber();
    assert.ok(node.dataPlane.subscribe('default', 'lines', subscriber).ok);
    const described = await node.dataPlane.describe('default', 'ingestor', 'syslog-in');
    assert.equal(described?.state, 'Running');
    const port = (described.details.listener as { port: number }).port;
    assert.ok(port > 0);
    sockets.push(await sendLine(port, '<34>1 2026-11-24T10:00:00Z host app - - - hello\n17 <13>1 - - - -'));
    await waitFor(() => subscriber.records.length === 1);
    sockets[0]!.write(' - -\n');
    await waitFor(() => subscriber.records.length === 2);
    assert.deepEqual(subscriber.records, [
      { facility: 4, severity: 2, message: 'hello' },
      { facility: 1, severity: 5, message: '' },
    ]);
    const after = await node.dataPlane.describe('default', 'ingestor', 'syslog-in');
    assert.equal(after?.metrics['frames'], 2);
    assert.equal(after.metrics['connections_open'], 1);
  });

  it('a port in use: Retrying with EADDRINUSE and the backoff, a warning on apply; freed, it runs and the error clears', async () => {
    blocker = createServer();
    const port = await listen(blocker);
    node = testDataPlane({ retry: { initialMs: 1000, maxMs: 4000 } });
    const applied = await node.dataPlane.apply(syslogGraph(tcp(port)), 1);
    assert.ok(applied.ok);
    assert.equal(applied.warnings.length, 1);
    assert.match(applied.warnings[0]!, /^syslog-ingestor syslog-in: EADDRINUSE: .*\(retrying\)$/);
    const described = await node.dataPlane.describe('default', 'ingestor', 'syslog-in');
    assert.deepEqual(
      [
        described?.state,
        described?.transientError?.code,
        described?.transientError?.since,
        described?.backoffMs,
      ],
      ['Retrying', 'EADDRINUSE', AT_START, 1000],
    );
    await new Promise<void>((resolve) => blocker!.close(() => resolve()));
    blocker = undefined;
    node.clock.advance(1000);
    await waitFor(
      async () => (await node!.dataPlane.describe('default', 'ingestor', 'syslog-in'))?.state === 'Running',
    );
    const recovered = await node.dataPlane.describe('default', 'ingestor', 'syslog-in');
    assert.deepEqual([recovered?.transientError, recovered?.backoffMs], [null, null]);
  });

  it('TLS files that fail: Retrying with the cause (setting, file, code), never their content; good files later: Running', async () => {
    node = testDataPlane();
    const pki = testPki();
    const file = (name: string) => ({ resource: 'pki', version: 1, file: name });
    const client: GraphSyslogClient = {
      ...tcp(0),
      protocol: 'tls',
      mount: { resource: 'pki', version: 1 },
      tls: { certFile: file('server.crt'), keyFile: file('server.key') },
    };
    node.files.set('pki@1/server.crt', pki.server.cert);
    node.files.set('pki@1/server.key', pki.client.key); // not the certificate's key
    const applied = await node.dataPlane.apply(syslogGraph(client), 1);
    assert.ok(applied.ok);
    const described = await node.dataPlane.describe('default', 'ingestor', 'syslog-in');
    assert.equal(described?.state, 'Retrying');
    assert.equal(described.transientError?.code, 'tls_invalid');
    assert.match(
      described.transientError.message,
      /^syslog client in: TLS configuration failed: tls_key_file \{\{ pki \}\}\/server\.key \(resource pki version 1\) cannot be used \(ERR_OSSL_\w+\)/,
    );
    assert.doesNotMatch(JSON.stringify(described) + JSON.stringify(node.logs), /BEGIN|PRIVATE KEY/);
    node.files.set('pki@1/server.key', pki.server.key);
    node.clock.advance(described.backoffMs ?? 0);
    await waitFor(
      async () => (await node!.dataPlane.describe('default', 'ingestor', 'syslog-in'))?.state === 'Running',
    );
  });

  it('an emitter to a port nobody listens on: Retrying with ECONNREFUSED and its backoff', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    node = testDataPlane();
    const graph = syslogGraph(tcp(0));
    graph.clients['out'] = tcp(port);
    graph.emitters['out'] = {
      from: 'lines',
      client: 'out',
      codec: 'syslog',
      mode: 'NO_ACK',
      retry: { backoffMs: 500, maxMs: 4000 },
      flush: 'IMMEDIATE',
      onMessageError: { action: 'LOG' },
      onGeneralError: 'LOG',
    };
    assert.ok((await node.dataPlane.apply(graph, 1)).ok);
    await waitFor(
      async () => (await node!.dataPlane.describe('default', 'emitter', 'out'))?.state === 'Retrying',
    );
    const described = await node.dataPlane.describe('default', 'emitter', 'out');
    assert.equal(described?.kind, 'emitter');
    assert.equal(described.transientError?.code, 'ECONNREFUSED');
    assert.equal(described.backoffMs, 500);
    assert.deepEqual(described.details.retry, { backoffMs: 500, maxMs: 4000 });
    assert.equal(described.details.protocol, 'tcp');
  });

  it('a reload that changes only the routes keeps the listener and its connection; removing it closes the port', async () => {
    node = testDataPlane();
    const graph = syslogGraph(tcp(0));
    assert.ok((await node.dataPlane.apply(graph, 1)).ok);
    const port = (
      (await node.dataPlane.describe('default', 'ingestor', 'syslog-in'))!.details.listener as {
        port: number;
      }
    ).port;
    const subscriber = recordingSubscriber();
    assert.ok(node.dataPlane.subscribe('default', 'lines', subscriber).ok);
    const socket = await sendLine(port, '<13>1 - - - - - - one\n');
    sockets.push(socket);
    await waitFor(() => subscriber.records.length === 1);

    const changed = structuredClone(graph);
    changed.syslogIngestors['syslog-in']!.routes[0]!.inherit = ['facility', 'severity'];
    changed.syslogIngestors['syslog-in']!.routes[0]!.set = [
      {
        field: 'message',
        value: { kind: 'literal', literal: 'STRING', value: 'replaced', type: 'STRING', nullable: false },
      },
    ] as never;
    const applied = await node.dataPlane.apply(changed, 2);
    assert.ok(applied.ok, JSON.stringify(applied));
    assert.deepEqual(applied.changes.changed, ['syslog-ingestor syslog-in']);
    socket.write('<13>1 - - - - - - two\n');
    await waitFor(() => subscriber.records.length === 2);
    assert.equal(subscriber.records[1]!['message'], 'replaced');

    const removed = structuredClone(changed);
    delete removed.syslogIngestors['syslog-in'];
    assert.ok((await node.dataPlane.apply(removed, 3)).ok);
    await waitFor(() => socket.destroyed || socket.readyState === 'closed');
    await assert.rejects(sendLine(port, 'x\n'), /ECONNREFUSED/);
  });
});
