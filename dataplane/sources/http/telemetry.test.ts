import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { recordingTarget, route } from '../../../test/fixtures/http-ingestion.js';
import { chunked, RawConnection, waitFor } from '../../../test/support/raw-http.js';
import { HttpIngestion } from './http-ingestion.js';
import { HttpTelemetry } from './telemetry.js';

/** A node at trace level whose log lines are kept. */
async function loggingNode() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const registry = new Registry();
  const telemetry = new HttpTelemetry(pino({ level: 'trace' }, sink), registry);
  const ingestion = new HttpIngestion({
    httpAddress: { host: '127.0.0.1', port: 0 },
    httpsAddress: { host: '127.0.0.1', port: 0 },
    tls: { readMountedFile: () => Buffer.from('-----BEGIN PRIVATE KEY-----\nSECRETKEYMATERIAL\n') },
    telemetry,
  });
  const { port } = await ingestion.start();
  return { lines, registry, telemetry, ingestion, port: port! };
}

describe('HTTP telemetry', () => {
  it('logs names, statuses, codes and sizes, never bodies, header values, paths or key material; a host only in the sampled refusal line', async () => {
    const node = await loggingNode();
    const secret = 'SECRET-PAYLOAD-4711';
    const target = recordingTarget('d/in', 64);
    node.ingestion.setRoutes([
      route(target, ['localhost'], '/in'),
      route(recordingTarget('d/tls'), ['pay.example.com'], '/in', {
        certFile: { resource: 'pki', version: 1, file: 'tls.crt' },
        keyFile: { resource: 'pki', version: 1, file: 'tls.key' },
      }),
    ]);
    const requests: Parameters<RawConnection['request']>[0][] = [
      { host: 'localhost', path: '/in', headers: { 'Content-Type': secret }, body: secret },
      { host: `${secret}.example.com`, path: '/in', body: secret },
      { host: 'localhost', path: `/${secret}`, body: secret },
      { method: 'GET', host: 'localhost', path: '/in' },
      { host: 'localhost', path: '/in', body: secret.repeat(10) },
      {
        host: 'localhost',
        path: '/in',
        headers: { 'Transfer-Encoding': 'chunked' },
        body: chunked([secret.repeat(10)]),
      },
    ];
    for (const request of requests) {
      const connection = await RawConnection.connect(node.port);
      await connection.request(request);
      connection.destroy();
    }
    const aborted = await RawConnection.connect(node.port);
    aborted.write(`POST /in HTTP/1.1\r\nHost: localhost\r\nContent-Length: 60\r\n\r\n${secret}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    aborted.destroy();
    await waitFor(() => node.telemetry.countsOf('d/in').aborted === 1);
    const bad = await RawConnection.connect(node.port);
    bad.write(`POST /in HTTP/1.1\r\nHost: localhost\r\nX-${secret}: ${secret}\x01\r\n\r\n`);
    await bad.closedByPeer();
    await node.ingestion.stop(0);

    const log = node.lines.join('');
    for (const event of [
      'http_listening',
      'http_routes_applied',
      'http_route_problem',
      'http_request_rejected',
      'http_request_aborted',
      'http_client_error',
      'http_stopped',
    ])
      assert.match(log, new RegExp(`"event":"${event}"`));
    // The one client-chosen text a line may carry: the unknown host, escaped, in the sampled line.
    const lines = node.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const hosts = lines.filter((line) => /secret/i.test(JSON.stringify(line)));
    assert.deepEqual(
      hosts.map(({ event, reason, host }) => ({ event, reason, host })),
      [{ event: 'http_request_refused', reason: 'unknown_host', host: 'secret-payload-4711.example.com' }],
    );
    assert.doesNotMatch(log, /BEGIN/);
  });

  it('regression: http_listening showed the configured address (127.0.0.1:0), not the bound one', async () => {
    const node = await loggingNode();
    await node.ingestion.stop(0);
    const listening = node.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.event === 'http_listening');
    assert.deepEqual(
      { address: listening?.address, port: listening?.port },
      { address: `127.0.0.1:${node.port}`, port: node.port },
    );
    assert.notEqual(node.port, 0);
  });

  it('exposes Prometheus counters per listener, and the failed requests per ingestor by domain, kind, name', async () => {
    const node = await loggingNode();
    const component = { domain: 'd', name: 'in' };
    node.ingestion.setRoutes([
      route({ ...recordingTarget('d/in', 4), component }, ['localhost'], '/in'),
      route(recordingTarget('d/bare', 4), ['localhost'], '/bare'),
    ]);
    const connection = await RawConnection.connect(node.port);
    await connection.request({ host: 'localhost', path: '/in', body: 'abc' });
    await connection.request({ host: 'localhost', path: '/nope', body: 'abc' });
    await connection.request({ host: 'localhost', path: '/in', body: 'abcde' });
    connection.destroy();
    const bare = await RawConnection.connect(node.port);
    await bare.request({ host: 'localhost', path: '/bare', body: 'abcde' });
    bare.destroy();
    const aborted = await RawConnection.connect(node.port);
    aborted.write('POST /in HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nab');
    await new Promise((resolve) => setTimeout(resolve, 20));
    aborted.destroy();
    await waitFor(() => node.telemetry.countsOf('d/in').aborted === 1);
    await node.ingestion.stop(0);
    const metrics = await node.registry.metrics();
    const failed = 'streamroute_http_ingestor_requests_failed_total';
    for (const line of [
      'streamroute_http_responses_total{listener="http",status="202",reason="accepted"} 1',
      'streamroute_http_responses_total{listener="http",status="404",reason="unknown_path"} 1',
      'streamroute_http_responses_total{listener="http",status="413",reason="body_too_large"} 2',
      `${failed}{domain="d",kind="http-ingestor",name="in",reason="body_too_large"} 1`,
      `${failed}{domain="d",kind="http-ingestor",name="in",reason="aborted"} 1`,
    ])
      assert.ok(metrics.includes(line), `${line}\n--- in ---\n${metrics}`);
    // A target that names no component (a listener test's) is counted for DESCRIBE only.
    assert.equal(node.telemetry.countsOf('d/bare').tooLarge, 1);
    assert.doesNotMatch(metrics, /bare|ingestor=|deliver_failed"\} 0/);
  });
});
