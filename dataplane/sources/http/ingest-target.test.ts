import assert from 'node:assert/strict';
import { ingestorDrops, silentTelemetry } from '../../../test/fixtures/http-ingestion.js';
import { readCounter } from '../../runtime/telemetry.js';
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
