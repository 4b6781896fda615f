// docs/admin-api.md states what the code does: the error catalog, the defaults and the names it uses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_ERRORS } from './admin-errors.js';
import { DEFAULT_ADMIN_LISTEN_ADDR, DEFAULT_ADMIN_STOP_GRACE_MS } from './admin-server.js';
import {
  DEFAULT_RETAINED_NAMES,
  DEFAULT_SUBSCRIBER_BUFFER,
  MAX_SUBSCRIBER_BUFFER,
} from './subscription-hub.js';
import { END_REASON_TRAILER, NDJSON_TYPE } from './subscription-route.js';
import { DEFAULT_SUBSCRIPTION_LIMITS, SUBSCRIPTION_METRICS } from './subscription-limits.js';
import { LINE_OVERHEAD_BYTES } from './line-log.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS } from '../core/throttled-drops.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'admin-api.md'), 'utf8');

describe('docs/admin-api.md', () => {
  it('has the error catalog: every code with its status and meaning, in order', () => {
    const section = doc.slice(doc.indexOf('### Errors'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (.+) \|$/gm)].map(
      ([, code, status, meaning]) => [code, Number(status), meaning],
    );
    assert.deepEqual(
      rows,
      Object.entries(ADMIN_ERRORS).map(([code, { status, meaning }]) => [code, status, meaning]),
    );
  });

  it('states the defaults the code uses', () => {
    assert.ok(doc.includes(`\`${DEFAULT_ADMIN_LISTEN_ADDR}\``));
    assert.equal(DEFAULT_SUBSCRIBER_BUFFER, 10_000);
    assert.match(doc, /\*\*10,000\*\* records by default/);
    assert.equal(MAX_SUBSCRIBER_BUFFER, 1_000_000);
    assert.match(doc, /from 1 to 1,000,000/);
    assert.equal(DEFAULT_DROP_LOG_INTERVAL_MS, 10_000);
    assert.match(doc, /at most once per 10 s per subscription/);
    assert.equal(DEFAULT_RETAINED_NAMES, 1_000);
    assert.match(doc, /those for the \*\*1,000\*\* names that went most recently/);
    assert.equal(DEFAULT_ADMIN_STOP_GRACE_MS, 5_000);
    assert.match(doc, /\*\*5 s\*\* to write what they hold/);
    assert.deepEqual(DEFAULT_SUBSCRIPTION_LIMITS, {
      maxSubscribers: 1_000,
      subscriptionBufferBytes: 16 * 1024 * 1024,
      nodeBufferBytes: 64 * 1024 * 1024,
    });
    assert.match(
      doc,
      /\| subscriber streams open at once on the node \| \*\*1,000\*\* \| `--max-subscribers` \|/,
    );
    assert.match(doc, /\| bytes one subscription may lag behind by \| \*\*16 MiB\*\* \|/);
    assert.match(doc, /\| bytes kept for all subscriptions of the node together \| \*\*64 MiB\*\* \|/);
    assert.equal(LINE_OVERHEAD_BYTES, 64);
    assert.match(doc, /its bytes plus 64 bytes/);
    for (const { name } of Object.values(SUBSCRIPTION_METRICS)) assert.ok(doc.includes(`\`${name}`), name);
    assert.ok(doc.includes(`\`${NDJSON_TYPE}\``));
    assert.ok(doc.includes(`\`${END_REASON_TRAILER}\``));
  });
});
