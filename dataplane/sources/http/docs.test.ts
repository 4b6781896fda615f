// The user docs name every reason and problem code the HTTP listener can report.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUIESCE_DROP_REASONS } from '../quiesce-buffer.js';
import { DEFAULT_HTTP_LISTEN_ADDR, DEFAULT_HTTPS_LISTEN_ADDR, DEFAULT_SERVER_LIMITS } from './config.js';
import { DISCARD_LIMIT_BYTES } from './ingest-handler.js';
import { ROUTING_PROBLEM_CODES } from './routing-table.js';
import { REJECT_REASONS } from './telemetry.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'http-ingestion.md'), 'utf8');

describe('docs/http-ingestion.md', () => {
  const named: [string, readonly string[]][] = [
    ['routing problem', ROUTING_PROBLEM_CODES],
    ['reject reason', REJECT_REASONS],
    ['quiesce drop reason', QUIESCE_DROP_REASONS.filter((reason) => reason !== 'deliver_failed')],
  ];
  for (const [what, codes] of named) {
    for (const code of codes) {
      it(`names the ${what} ${code}`, () => assert.ok(doc.includes(`\`${code}\``), code));
    }
  }

  it('states the defaults the code uses', () => {
    assert.ok(doc.includes(`\`${DEFAULT_HTTP_LISTEN_ADDR}\``));
    assert.ok(doc.includes(`\`${DEFAULT_HTTPS_LISTEN_ADDR}\``));
    assert.equal(DISCARD_LIMIT_BYTES, 64 * 1024);
    assert.match(doc, /larger than 64 KiB/);
    assert.deepEqual(DEFAULT_SERVER_LIMITS, {
      keepAliveTimeoutMs: 5_000,
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      maxHeaderBytes: 16_384,
      firstRequestTimeoutMs: 30_000,
      tlsHandshakeTimeoutMs: 10_000,
      timeoutCheckIntervalMs: 2_000,
    });
    assert.match(
      doc,
      /idle keep-alive connections close after 5 s; headers must arrive within 60 s and the\s+whole request within 60 s/,
    );
    assert.match(
      doc,
      /checked\s+every 2 s\. A connection that has not started its first request within 30 s/,
    );
    assert.match(doc, /TLS handshake\s+must finish within 10 s/);
    assert.match(doc, /at most 16 KiB/);
  });
});
