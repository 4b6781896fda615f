// Issue 15, item 2, in one process and for every kind of listener (HTTP, HTTPS, syslog TCP, syslog TLS,
// admin API, health): generated floods of idle TCP connections from several loopback addresses, against
// small caps. A model says which connections are admitted and why the others are refused; the counters in
// /metrics must say the same, a sender from another address must still be served exactly when the model
// leaves room, and every place comes back when the flood goes away. Then the timers that free descriptors
// held by silent connections: an HTTP(S), admin or health connection that never sends a request is closed.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import fc from 'fast-check';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { AdminServer } from '../../dataplane/admin/admin-server.js';
import { startHealthServer } from '../../dataplane/admin/health-server.js';
import { systemClock } from '../../dataplane/core/clock.js';
import { readCounter, Telemetry } from '../../dataplane/core/telemetry.js';
import { ingestConnections } from '../../dataplane/net/ingest-connections.js';
import { HttpIngestion } from '../../dataplane/sources/http/http-ingestion.js';
import { HttpTelemetry } from '../../dataplane/sources/http/telemetry.js';
import { createSyslogListener } from '../../dataplane/sources/syslog/syslog-listener.js';
import { TestAdminBackend } from '../fixtures/admin-backend.js';
import { recordingTarget, route } from '../fixtures/http-ingestion.js';
import { makeSelfSignedCert, type TestCert } from '../support/openssl.js';
import { waitFor } from '../support/raw-http.js';

const silent = pino({ level: 'silent' });
const loopback = { host: '127.0.0.1', port: 0 };

interface Limits {
  cap: number;
  perPeer: number;
  /** Idle (first-request) timeout of HTTP-like listeners. */
  firstRequestTimeoutMs?: number;
}

interface Subject {
  port: number;
  registry: Registry;
  /** The labels of its connection counters' series (`listener`, and a syslog ingestor's own). */
  labels: Record<string, string>;
  /** Whether the listener applies a per-peer share (the admin API and health listener do not). */
  fair: boolean;
  tls: boolean;
  /** Bytes a sender writes, and whether what came back (or arrived) shows it was served. */
  request: string;
  /** HTTP answers; a syslog listener does not, so a sender only waits briefly for its frame to arrive. */
  answers: boolean;
  served(reply: string): boolean;
  stop(): Promise<void>;
}

const HTTP_REQUEST =
  'POST /in HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';
const HEALTH_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';
let cert: TestCert;

async function httpIngestion(limits: Limits, secure: boolean): Promise<Subject> {
  const registry = new Registry();
  const ingestion = new HttpIngestion({
    httpAddress: loopback,
    httpsAddress: loopback,
    tls: { readMountedFile: (file) => (file.file === 'tls.crt' ? cert.cert : cert.key) },
    telemetry: new HttpTelemetry(silent, registry),
    limits: { firstRequestTimeoutMs: limits.firstRequestTimeoutMs ?? 60_000 },
    connections: ingestConnections(
      { maxConnections: limits.cap, maxConnectionsPerPeer: limits.perPeer },
      { registry, logger: silent },
    ),
  });
  const file = (name: string) => ({ resource: 'pki', version: 1, file: name });
  const tls = secure ? { certFile: file('tls.crt'), keyFile: file('tls.key') } : undefined;
  ingestion.setRoutes([route(recordingTarget('d/in'), ['localhost'], '/in', tls)]);
  await ingestion.start();
  const status = secure ? await ingestion.https.start() : ingestion.http.status;
  return {
    port: status.port!,
    registry,
    labels: { listener: secure ? 'https' : 'http' },
    fair: true,
    tls: secure,
    request: HTTP_REQUEST,
    answers: true,
    served: (reply) => reply.startsWith('HTTP/1.1 202'),
    stop: () => ingestion.stop(0),
  };
}

async function syslogListener(limits: Limits, secure: boolean): Promise<Subject> {
  const registry = new Registry();
  const received: string[] = [];
  const listener = createSyslogListener({
    domain: 'd',
    ingestor: 'in',
    protocol: secure ? 'tls' : 'tcp',
    address: loopback,
    maxMessageSize: 1024,
    ...(secure ? { tls: { cert: cert.cert, key: cert.key } } : {}),
    quiesce: { action: 'SUSPEND' },
    deliver: (payload) => void received.push(Buffer.from(payload).toString()),
    drops: new Telemetry({ registry, logger: silent, domain: 'd' }).component('syslog-ingestor', 'in'),
    logger: silent,
    clock: systemClock,
    registry,
    connections: ingestConnections(
      { maxConnections: limits.cap, maxConnectionsPerPeer: limits.perPeer },
      { registry, logger: silent },
    ),
  });
  const status = await listener.start();
  return {
    port: status.port!,
    registry,
    labels: { listener: 'syslog', domain: 'd', kind: 'syslog-ingestor', name: 'in' },
    fair: true,
    tls: secure,
    request: '<13>from another peer\n',
    answers: false,
    served: () => received.includes('<13>from another peer'),
    stop: () => listener.stop(),
  };
}

async function adminServer(limits: Limits): Promise<Subject> {
  const backend = new TestAdminBackend();
  const admin = new AdminServer({
    address: loopback,
    backend,
    logger: silent,
    maxConnections: limits.cap,
    ...(limits.firstRequestTimeoutMs === undefined
      ? {}
      : { firstRequestTimeoutMs: limits.firstRequestTimeoutMs }),
  });
  const status = await admin.start();
  return {
    port: status.port!,
    registry: backend.registry,
    labels: { listener: 'admin' },
    fair: false,
    tls: false,
    request: HEALTH_REQUEST,
    answers: true,
    served: (reply) => reply.startsWith('HTTP/1.1 200'),
    stop: () => admin.stop(0),
  };
}

async function healthServer(limits: Limits): Promise<Subject> {
  const registry = new Registry();
  const health = await startHealthServer({
    address: loopback,
    ready: () => true,
    registry,
    maxConnections: limits.cap,
    ...(limits.firstRequestTimeoutMs === undefined
      ? {}
      : { firstRequestTimeoutMs: limits.firstRequestTimeoutMs }),
  });
  return {
    port: health.port,
    registry,
    labels: { listener: 'health' },
    fair: false,
    tls: false,
    request: HEALTH_REQUEST,
    answers: true,
    served: (reply) => reply.startsWith('HTTP/1.1 200'),
    stop: () => health.close(),
  };
}

const KINDS: [string, (limits: Limits) => Promise<Subject>][] = [
  ['HTTP ingestion', (limits) => httpIngestion(limits, false)],
  ['HTTPS ingestion', (limits) => httpIngestion(limits, true)],
  ['syslog TCP', (limits) => syslogListener(limits, false)],
  ['syslog TLS', (limits) => syslogListener(limits, true)],
  ['admin API', adminServer],
  ['health listener', healthServer],
];

/** An idle TCP connection from `from`; resolves once connected (the listener may close it at once). */
function idle(port: number, from: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    socket.on('error', () => {});
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

/** Sends `bytes` from `from` (over TLS when asked) and collects what comes back for up to a second. */
function exchange(subject: Subject, from: string): Promise<string> {
  return new Promise((resolve) => {
    const options = { host: '127.0.0.1', port: subject.port, localAddress: from };
    const socket = subject.tls
      ? tlsConnect({ ...options, servername: 'localhost', rejectUnauthorized: false })
      : connect(options);
    let reply = '';
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(done, subject.answers ? 1_000 : 100);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
    socket.once(subject.tls ? 'secureConnect' : 'connect', () => socket.write(subject.request));
  });
}

async function servedFrom(subject: Subject, from: string): Promise<boolean> {
  const reply = await exchange(subject, from);
  if (subject.served(reply)) return true;
  // A syslog sender gets no reply: the frame must have arrived.
  return waitFor(() => subject.served(reply), 300).then(
    () => true,
    () => false,
  );
}

const metric = (subject: Subject, name: string, labels: Record<string, string>): Promise<number> =>
  readCounter(subject.registry, name, { ...subject.labels, ...labels });

describe('connection limits of every listener kind (issue 15, item 2)', function () {
  this.timeout(120_000);
  before(() => {
    cert = makeSelfSignedCert('localhost');
  });

  for (const [kind, make] of KINDS) {
    it(`${kind}: generated floods are admitted and refused as the limits say; others are served when there is room`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 2, max: 24 }),
          fc.integer({ min: 1, max: 12 }),
          fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 4 }),
          async (cap, share, floods) => {
            const perPeer = Math.min(share, cap);
            const subject = await make({ cap, perPeer });
            const sockets: Socket[] = [];
            try {
              const expected = { peer_limit: 0, listener_limit: 0 };
              let open = 0;
              for (const [index, count] of floods.entries()) {
                let held = 0;
                for (let n = 0; n < count; n++) {
                  sockets.push(await idle(subject.port, `127.0.0.${10 + index}`));
                  // A share as large as the cap is no share: the listener's limit is what refuses.
                  if (subject.fair && perPeer < cap && held >= perPeer) expected.peer_limit++;
                  else if (open >= cap) expected.listener_limit++;
                  else {
                    open++;
                    held++;
                  }
                }
              }
              const attempts = floods.reduce((a, b) => a + b, 0);
              const refused = (reason: string) =>
                metric(subject, 'streamroute_connections_refused_total', { reason });
              const counted = async () =>
                (await metric(subject, 'streamroute_connections_open', {})) +
                (await refused('peer_limit')) +
                (await refused('listener_limit'));
              await waitFor(async () => (await counted()) === attempts, 3_000, 'every connection counted');
              assert.equal(await refused('peer_limit'), expected.peer_limit);
              assert.equal(await refused('listener_limit'), expected.listener_limit);
              assert.equal(await metric(subject, 'streamroute_connections_open', {}), open);
              // Another sender is served exactly when the flood left room.
              assert.equal(await servedFrom(subject, '127.0.0.99'), open < cap, `open ${open} of ${cap}`);
              for (const socket of sockets.splice(0)) socket.destroy();
              await waitFor(
                async () => (await metric(subject, 'streamroute_connections_open', {})) === 0,
                3_000,
                'every place given back',
              );
              assert.equal(await servedFrom(subject, '127.0.0.98'), true, 'served after the flood');
            } finally {
              for (const socket of sockets) socket.destroy();
              await subject.stop();
            }
          },
        ),
        { numRuns: 6 },
      );
    });
  }

  for (const [kind, make] of KINDS.filter(([kind]) => !kind.startsWith('syslog'))) {
    it(`${kind}: a connection that never sends a request is closed after the first-request timeout and counted`, async () => {
      const subject = await make({ cap: 50, perPeer: 50, firstRequestTimeoutMs: 150 });
      try {
        const started = Date.now();
        const silentOnes = await Promise.all(
          Array.from({ length: 20 }, () => idle(subject.port, '127.0.0.20')),
        );
        await waitFor(
          () => silentOnes.every((socket) => socket.closed),
          3_000,
          'the silent connections closed',
        );
        assert.ok(Date.now() - started >= 140, 'closed before the timeout');
        assert.equal(
          await metric(subject, 'streamroute_connections_timed_out_total', { reason: 'idle' }),
          20,
        );
        // A connection that sends its request in time is served and not counted.
        assert.equal(await servedFrom(subject, '127.0.0.21'), true);
        assert.equal(
          await metric(subject, 'streamroute_connections_timed_out_total', { reason: 'idle' }),
          20,
        );
      } finally {
        await subject.stop();
      }
    });
  }

  for (const secure of [false, true]) {
    it(`${secure ? 'HTTPS' : 'HTTP'}: a keep-alive connection in use is not cut by the first-request timeout`, async () => {
      const subject = await httpIngestion({ cap: 10, perPeer: 10, firstRequestTimeoutMs: 100 }, secure);
      const options = { host: '127.0.0.1', port: subject.port };
      const socket = secure
        ? tlsConnect({ ...options, servername: 'localhost', rejectUnauthorized: false })
        : connect(options);
      socket.on('error', () => {});
      let reply = '';
      socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
      try {
        await new Promise((resolve) => socket.once(secure ? 'secureConnect' : 'connect', resolve));
        const request = HTTP_REQUEST.replace('Connection: close', 'Connection: keep-alive');
        // Pauses longer than the first-request timeout, shorter than keep-alive (5 s): Node's timer rules.
        for (let n = 1; n <= 3; n++) {
          socket.write(request);
          await waitFor(() => reply.split('HTTP/1.1 202').length - 1 === n, 2_000, `answer ${n}`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        assert.equal(socket.closed, false);
        assert.equal(await metric(subject, 'streamroute_connections_timed_out_total', { reason: 'idle' }), 0);
      } finally {
        socket.destroy();
        await subject.stop();
      }
    });
  }

  it('HTTPS: refused connections are not counted as client errors (their TLS socket reports ECONNRESET)', async () => {
    const subject = await httpIngestion({ cap: 1, perPeer: 1 }, true);
    const sockets: Socket[] = [];
    try {
      for (let n = 0; n < 5; n++) sockets.push(await idle(subject.port, '127.0.0.40'));
      await waitFor(async () => (await metric(subject, 'streamroute_connections_refused_total', {})) === 4);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await readCounter(subject.registry, 'streamroute_http_client_errors_total', {}), 0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await subject.stop();
    }
  });

  it('the admin API: a subscription-like long response is not cut by the first-request timeout', async () => {
    const backend = new TestAdminBackend();
    let held: (() => void) | undefined;
    const admin = new AdminServer({
      address: loopback,
      backend,
      logger: silent,
      firstRequestTimeoutMs: 100,
      control: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('started\n');
        held = () => response.end('done\n');
        return true;
      },
    });
    const { port } = await admin.start();
    try {
      const socket = connect({ host: '127.0.0.1', port: port! });
      let reply = '';
      socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
      socket.write('GET /v1/long HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await waitFor(() => reply.includes('started'));
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(socket.closed, false);
      held?.();
      await waitFor(() => reply.includes('done'));
      socket.destroy();
    } finally {
      await admin.stop(0);
    }
  });

  it('HTTP and syslog listeners share the node pool: when it is full, both refuse with node_limit', async () => {
    const registry = new Registry();
    const connections = ingestConnections(
      { maxConnections: 10, maxConnectionsPerPeer: 10 },
      { registry, logger: silent },
    );
    const ingestion = new HttpIngestion({
      httpAddress: loopback,
      httpsAddress: loopback,
      tls: { readMountedFile: () => Buffer.alloc(0) },
      telemetry: new HttpTelemetry(silent, registry),
      connections,
    });
    const listener = createSyslogListener({
      domain: 'd',
      ingestor: 'in',
      protocol: 'tcp',
      address: loopback,
      maxMessageSize: 100,
      quiesce: { action: 'SUSPEND' },
      deliver: () => {},
      logger: silent,
      clock: systemClock,
      registry,
      drops: new Telemetry({ registry, logger: silent, domain: 'd' }).component('syslog-ingestor', 'in'),
      connections,
    });
    const httpPort = (await ingestion.start()).port!;
    const syslogPort = (await listener.start()).port!;
    const sockets: Socket[] = [];
    try {
      for (let n = 0; n < 6; n++) sockets.push(await idle(httpPort, '127.0.0.30'));
      for (let n = 0; n < 6; n++) sockets.push(await idle(syslogPort, '127.0.0.31'));
      sockets.push(await idle(httpPort, '127.0.0.32'));
      const refused = (listener: string, labels: Record<string, string> = {}) =>
        readCounter(registry, 'streamroute_connections_refused_total', {
          listener,
          ...labels,
          reason: 'node_limit',
        });
      const syslog = { domain: 'd', kind: 'syslog-ingestor', name: 'in' };
      await waitFor(async () => (await refused('syslog', syslog)) === 2 && (await refused('http')) === 1);
      assert.equal(connections.pool.open, 10);
    } finally {
      for (const socket of sockets) socket.destroy();
      await ingestion.stop(0);
      await listener.stop();
    }
  });
});
