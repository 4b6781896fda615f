import assert from 'node:assert/strict';
import { memoryLogger } from '../../../test/fixtures/graph-from-statements.js';
import { ingestorDrops, silentTelemetry } from '../../../test/fixtures/http-ingestion.js';
import { ManualClock } from '../../core/clock.js';
import { readCounter, Telemetry } from '../../core/telemetry.js';
import { createIngestTarget, httpBufferingPolicy } from './ingest-target.js';
import { httpRouteOf, type HttpMetadata } from './target.js';

const metadata: HttpMetadata = {
  remote_addr: '127.0.0.1:1',
  host: 'localhost',
  path: '/in',
  content_type: null,
};
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** HTTP and runtime telemetry that count without logging. */
function silent() {
  const { telemetry, registry } = silentTelemetry();
  return { telemetry, drops: ingestorDrops(registry, 'in') };
}

describe('createIngestTarget', () => {
  it('passes bodies and metadata straight to ingest while open', () => {
    const seen: [string, unknown][] = [];
    const target = createIngestTarget({
      name: 'd/in',
      ingestor: { maxBodyBytes: 10, quiesce: { action: 'DROP' } },
      ingest: (payload, meta) => void seen.push([Buffer.from(payload).toString(), meta.host]),
      ...silent(),
    });
    assert.equal(target.maxBodyBytes, 10);
    target.deliver(bytes('a'), metadata);
    assert.deepEqual(seen, [['a', 'localhost']]);
    assert.equal(target.state, 'open');
  });

  it('stop drops the buffer and later bodies, counted as stopped drops of the ingestor', async () => {
    const { telemetry, registry } = silentTelemetry();
    const target = createIngestTarget({
      name: 'd/in',
      ingestor: { maxBodyBytes: 10, quiesce: { action: 'BUFFER', maxBytes: 10, onOverflow: 'DROP_NEWEST' } },
      ingest: () => assert.fail('nothing is delivered after stop'),
      telemetry,
      drops: ingestorDrops(registry, 'in'),
    });
    target.quiesce();
    target.deliver(bytes('a'), metadata);
    target.deliver(bytes('b'), metadata);
    assert.deepEqual(target.buffered, { items: 2, bytes: 2 });
    target.stop();
    target.deliver(bytes('c'), metadata);
    const labels = { domain: 'd', kind: 'http-ingestor', name: 'in', reason: 'stopped' };
    assert.equal(await readCounter(registry, 'streamroute_drops_total', labels), 3);
  });

  it('an asynchronous ingest is not awaited', () => {
    let calls = 0;
    const target = createIngestTarget({
      name: 'd/in',
      ingestor: { maxBodyBytes: 10, quiesce: { action: 'DROP' } },
      ingest: () => {
        calls++;
        return Promise.resolve();
      },
      ...silent(),
    });
    target.deliver(bytes('a'), metadata);
    assert.equal(calls, 1);
  });
});

describe('regression: quiesce drops logged one warn line per body', () => {
  function quiescedDropTarget() {
    const { telemetry, registry } = silentTelemetry();
    const { logger, logs } = memoryLogger();
    const clock = new ManualClock(1_000_000);
    const target = createIngestTarget({
      name: 'd/in',
      ingestor: { maxBodyBytes: 10, quiesce: { action: 'DROP' } },
      ingest: () => assert.fail('nothing is delivered while quiesced'),
      telemetry,
      drops: new Telemetry({ registry, logger, domain: 'd' }).component('http-ingestor', 'in'),
      clock,
    });
    const counted = (reason: string) =>
      readCounter(registry, 'streamroute_drops_total', { kind: 'http-ingestor', name: 'in', reason });
    const lines = () =>
      logs
        .filter((line) => line.level >= 40 && /dropped/.test(line.msg))
        .map((line) => [line.msg, line.reason, line.count, line.target]);
    return { target, clock, counted, lines };
  }
  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('counts each body at once and logs the drops at most once per interval', async () => {
    const { target, clock, counted, lines } = quiescedDropTarget();
    target.quiesce();
    for (let n = 0; n < 1_000; n++) target.deliver(bytes('a'), metadata);
    assert.equal(await counted('quiesce_drop'), 1_000);
    await tick();
    assert.deepEqual(lines(), [['records dropped', 'quiesce_drop', 1_000, 'd/in']]);
    for (let n = 0; n < 500; n++) target.deliver(bytes('a'), metadata);
    await tick();
    assert.equal(await counted('quiesce_drop'), 1_500, 'counted at once');
    assert.equal(lines().length, 1, 'logged later');
    clock.advance(10_000);
    assert.deepEqual(lines().at(-1), ['records dropped', 'quiesce_drop', 500, 'd/in']);
  });

  it('stop logs what is pending at once', async () => {
    const { target, clock, counted, lines } = quiescedDropTarget();
    target.quiesce();
    target.deliver(bytes('a'), metadata);
    await tick();
    target.deliver(bytes('b'), metadata);
    target.deliver(bytes('c'), metadata);
    target.stop();
    assert.deepEqual(lines(), [
      ['records dropped', 'quiesce_drop', 1, 'd/in'],
      ['records dropped', 'quiesce_drop', 2, 'd/in'],
    ]);
    assert.equal(await counted('quiesce_drop'), 3);
    assert.equal(clock.pendingTimers, 0);
  });
});

describe('httpBufferingPolicy', () => {
  it('keeps BUFFER and DROP; SUSPEND (rejected by the compiler for HTTP) becomes DROP', () => {
    const buffer = { action: 'BUFFER', maxBytes: 5, onOverflow: 'DROP_OLDEST' } as const;
    assert.deepEqual(httpBufferingPolicy(buffer), buffer);
    assert.deepEqual(httpBufferingPolicy({ action: 'DROP' }), { action: 'DROP' });
    assert.deepEqual(httpBufferingPolicy({ action: 'SUSPEND' }), { action: 'DROP' });
  });
});

describe('httpRouteOf', () => {
  it('takes hostnames, path and TLS from the graph ingestor', () => {
    const target = { name: 'd/in', maxBodyBytes: 1, deliver: () => {} };
    const spec = {
      endpoint: 'ep',
      vhost: 'v',
      hostnames: ['a.example.com'],
      path: '/in',
      mode: 'NO_ACK' as const,
      quiesce: { action: 'DROP' as const },
      codec: 'c',
      maxBodyBytes: 1,
      routes: [],
      onGeneralError: 'LOG' as const,
    };
    assert.deepEqual(httpRouteOf('d', spec, target), {
      domain: 'd',
      hostnames: ['a.example.com'],
      path: '/in',
      target,
    });
    const tls = { secretName: 's' };
    assert.deepEqual(httpRouteOf('d', { ...spec, tls }, target), {
      domain: 'd',
      hostnames: ['a.example.com'],
      path: '/in',
      tls,
      target,
    });
  });
});
