import assert from 'node:assert/strict';
import fc from 'fast-check';
import { recordingTarget } from '../../../test/fixtures/http-ingestion.js';
import {
  CLIENT_TEXT_LIMIT,
  KNOWN_LIMIT,
  quoteClientText,
  rejectText,
  type RejectContext,
} from './reject-text.js';
import { RoutingTable } from './routing-table.js';
import type { HttpTarget } from './target.js';

/** A table serving `paths` on each of `hosts`. */
function table(hosts: readonly string[], paths: readonly string[] = ['/in']): RoutingTable {
  const target: HttpTarget = recordingTarget('d/in');
  const served = new Map(paths.map((path) => [path, target]));
  return new RoutingTable(new Map(hosts.map((host) => [host, served])), new Map());
}

function context(overrides: Partial<RejectContext>): RejectContext {
  return {
    listener: 'http',
    hostHeader: undefined,
    host: undefined,
    path: '/in',
    method: 'POST',
    table: RoutingTable.EMPTY,
    otherTable: RoutingTable.EMPTY,
    ...overrides,
  };
}

describe('rejectText', () => {
  it('names a TLS host asked over HTTP, and a plain host asked over HTTPS, by the listener that serves it', () => {
    const plain = table(['localhost']);
    const secure = table(['pay.example.com']);
    assert.equal(
      rejectText('unknown_host', context({ host: 'pay.example.com', table: plain, otherTable: secure })),
      'host "pay.example.com" is not served over HTTP; its vhost is served over HTTPS',
    );
    assert.equal(
      rejectText(
        'unknown_host',
        context({ listener: 'https', host: 'localhost', table: secure, otherTable: plain }),
      ),
      'host "localhost" is not served over HTTPS; its vhost is served over HTTP',
    );
    assert.equal(
      rejectText('unknown_host', context({ listener: 'https', host: 'x.example', table: secure })),
      'no TLS vhost for host "x.example"; known: pay.example.com',
    );
  });

  it('says `none` on a node that serves nothing, and lists at most ten names, sorted', () => {
    assert.equal(
      rejectText('unknown_host', context({ host: 'localhost' })),
      'no vhost for host "localhost"; known: none',
    );
    const hosts = Array.from({ length: KNOWN_LIMIT + 3 }, (_, i) => `h${String(i).padStart(2, '0')}.example`);
    const text = rejectText('unknown_host', context({ host: 'x', table: table([...hosts].reverse()) }));
    assert.equal(
      text,
      `no vhost for host "x"; known: ${hosts.slice(0, KNOWN_LIMIT).join(', ')}, … and 3 more`,
    );
  });

  it('explains a failed delivery without any detail of the request', () => {
    assert.equal(
      rejectText('deliver_failed', context({ host: 'localhost' })),
      'the node failed to take the body; its log says why',
    );
  });
});

describe('quoteClientText', () => {
  it('keeps printable ASCII, escapes quote, backslash and everything else, and cuts after 64 characters', () => {
    assert.equal(quoteClientText('shop.example.com'), '"shop.example.com"');
    assert.equal(quoteClientText('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(
      quoteClientText('\u0000\u001b[31m\u00e9\u2028😀'),
      '"\\x00\\x1b[31m\\xe9\\u{2028}\\u{1f600}"',
    );
    assert.equal(quoteClientText('x'.repeat(65)), `"${'x'.repeat(64)}"…`);
    assert.equal(quoteClientText('x'.repeat(64)), `"${'x'.repeat(64)}"`);
  });

  it('property: any text becomes one quoted line of printable ASCII, bounded, that cannot end the quote early', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (text) => {
        const quoted = quoteClientText(text);
        assert.match(
          quoted,
          /^"(?:[\x20-\x21\x23-\x5b\x5d-\x7e]|\\["\\]|\\x[0-9a-f]{2}|\\u\{[0-9a-f]+\})*"…?$/,
        );
        // The longest escape is \u{10ffff}: 9 characters for one code point.
        assert.ok(quoted.length <= 2 + 9 * CLIENT_TEXT_LIMIT + 1);
        assert.equal(quoted.endsWith('…'), [...text].length > CLIENT_TEXT_LIMIT);
      }),
    );
  });
});
