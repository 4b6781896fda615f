import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { readCounter } from '../../core/telemetry.js';
import { registerListenerMetrics } from './listener-metrics.js';
import { emptyStats } from './listener-stats.js';

describe('syslog listener metrics', () => {
  const labels = { domain: 'd', name: 'in', protocol: 'tls' };
  const series = { ...labels, kind: 'syslog-ingestor' };

  it('collects the stats on scrape, and a listener built again counts on in the same series', async () => {
    const registry = new Registry();
    const first = emptyStats();
    const detach = registerListenerMetrics(registry, labels, () => first);
    first.connectionsAccepted = 3;
    first.tlsHandshakeFailures = 1;
    first.connectionsClosed = { peer: 1, tls_handshake: 1 };
    assert.equal(await readCounter(registry, 'streamroute_syslog_connections_total', series), 3);
    first.connectionsAccepted = 4;
    first.connectionsClosed['peer'] = 2;
    detach();

    const second = emptyStats();
    registerListenerMetrics(registry, labels, () => second);
    second.connectionsAccepted = 5;
    second.connectionsClosed = { 'framing:count_zero': 1 };
    const read = (metric: string, extra: Record<string, string> = {}): Promise<number> =>
      readCounter(registry, metric, { ...series, ...extra });
    assert.equal(await read('streamroute_syslog_connections_total'), 9);
    assert.equal(await read('streamroute_syslog_tls_handshake_failures_total'), 1);
    assert.equal(await read('streamroute_syslog_connections_closed_total', { cause: 'peer' }), 2);
    assert.equal(
      await read('streamroute_syslog_connections_closed_total', { cause: 'framing:count_zero' }),
      1,
    );
    const text = await registry.metrics();
    assert.match(
      text,
      /streamroute_syslog_connections_total\{domain="d",kind="syslog-ingestor",name="in",protocol="tls"\} 9/,
    );
    assert.doesNotMatch(text, /ingestor=/);
  });
});
