import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { readCounter } from '../../core/telemetry.js';
import { registerListenerMetrics } from './listener-metrics.js';
import { emptyStats } from './listener-stats.js';

describe('syslog listener metrics', () => {
  const labels = { domain: 'd', ingestor: 'in', protocol: 'tls' };

  it('collects the stats on scrape, and a listener built again counts on in the same series', async () => {
    const registry = new Registry();
    const first = emptyStats();
    const detach = registerListenerMetrics(registry, labels, () => first);
    first.connectionsAccepted = 3;
    first.frames = 10;
    first.tlsHandshakeFailures = 1;
    first.connectionsClosed = { peer: 1, tls_handshake: 1 };
    assert.equal(await readCounter(registry, 'streamroute_syslog_frames_total', labels), 10);
    first.frames = 12;
    first.connectionsClosed['peer'] = 2;
    detach();

    const second = emptyStats();
    registerListenerMetrics(registry, labels, () => second);
    second.frames = 5;
    second.connectionsClosed = { 'framing:count_zero': 1 };
    const read = (metric: string, extra: Record<string, string> = {}): Promise<number> =>
      readCounter(registry, metric, { ...labels, ...extra });
    assert.equal(await read('streamroute_syslog_frames_total'), 17);
    assert.equal(await read('streamroute_syslog_connections_total'), 3);
    assert.equal(await read('streamroute_syslog_tls_handshake_failures_total'), 1);
    assert.equal(await read('streamroute_syslog_connections_closed_total', { cause: 'peer' }), 2);
    assert.equal(
      await read('streamroute_syslog_connections_closed_total', { cause: 'framing:count_zero' }),
      1,
    );
    const text = await registry.metrics();
    assert.match(text, /streamroute_syslog_frames_total\{domain="d",ingestor="in",protocol="tls"\} 17/);
  });
});
