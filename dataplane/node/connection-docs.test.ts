// docs/runtime.md ("Connection limits") is the user's copy of the connection limits every listener keeps:
// the formula's figures, the timeouts, the metric names and their reasons.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ADMIN_FIRST_REQUEST_TIMEOUT_MS } from '../admin/admin-server.js';
import { DEFAULT_HEALTH_FIRST_REQUEST_TIMEOUT_MS } from '../admin/health-server.js';
import { CONNECTION_METRICS, REFUSAL_REASONS, TIMEOUT_REASONS } from '../net/connection-telemetry.js';
import { connectionDefaults, DEFAULT_HEALTH_MAX_CONNECTIONS } from '../net/fd-limit.js';
import { DEFAULT_SERVER_LIMITS } from '../sources/http/config.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_PARTIAL_FRAME_TIMEOUT_MS,
} from '../sources/syslog/stream-listener.js';

const DOCS = join(import.meta.dirname, '..', '..', 'docs');
const runtime = readFileSync(join(DOCS, 'runtime.md'), 'utf8');
const section = runtime.slice(
  runtime.indexOf('## Connection limits'),
  runtime.indexOf('## Records and values'),
);

describe('docs/runtime.md, "Connection limits"', () => {
  it('names every metric and every reason', () => {
    for (const { name } of Object.values(CONNECTION_METRICS))
      assert.ok(section.includes(`\`${name}\``), name);
    for (const reason of [...REFUSAL_REASONS, ...TIMEOUT_REASONS])
      assert.ok(section.includes(`\`${reason}\``), reason);
  });

  it('states the figures the formula gives', () => {
    assert.match(section, /max\(384, ⌊L \/ 8⌋\)/);
    assert.match(section, /max\(16, min\(65,536, L − R\)\)/);
    assert.match(section, /max\(8, ⌈I \/ 10⌉\)/);
    assert.match(section, /min\(2,048, ⌊R \/ 2⌋\)/);
    const small = connectionDefaults(1_024);
    const large = connectionDefaults(1_048_576);
    assert.deepEqual([small.ingest, small.perPeer, small.admin], [640, 64, 192]);
    assert.deepEqual([large.ingest, large.perPeer, large.admin], [65_536, 6_554, 2_048]);
    assert.match(section, /`L` = 1,024: 640 ingestion connections, 64 per peer, 192 for the admin API/);
    assert.match(section, /65,536, 6,554 and 2,048/);
    assert.equal(DEFAULT_HEALTH_MAX_CONNECTIONS, 64);
    assert.match(section, /\| health listener connections \(`--health-listen-addr`\) \| 64 \|/);
  });

  it('states the timeouts the code uses', () => {
    assert.equal(DEFAULT_SERVER_LIMITS.firstRequestTimeoutMs, 30_000);
    assert.equal(DEFAULT_SERVER_LIMITS.tlsHandshakeTimeoutMs, 10_000);
    assert.equal(DEFAULT_ADMIN_FIRST_REQUEST_TIMEOUT_MS, 10_000);
    assert.equal(DEFAULT_HEALTH_FIRST_REQUEST_TIMEOUT_MS, 10_000);
    assert.equal(DEFAULT_PARTIAL_FRAME_TIMEOUT_MS, 30_000);
    assert.equal(DEFAULT_IDLE_TIMEOUT_MS, 600_000);
    assert.match(
      section,
      /it has not started a request \(no byte, or a TLS handshake and then nothing\) \| 30 s \|/,
    );
    assert.match(section, /the TLS handshake has not finished \| 10 s \|/);
    assert.match(section, /admin API, health listener \| it has not started a request \| 10 s \|/);
    assert.match(section, /counted from its first byte, so trickling does not help\) \| 30 s \|/);
    assert.match(section, /\| syslog TCP, TLS \| it sent nothing \| 10 min \|/);
  });
});
