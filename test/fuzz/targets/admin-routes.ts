// Admin API request routing (dataplane/admin/): a request target becomes a URL on a fixed origin as the
// server does (admin-routes.ts requestUrl), its path a route, `invalid` or `none` (admin-routes.ts), its
// `buffer` query a number or an error (request-params.ts), and the Host check a yes or no (host-check.ts).
// None of them may throw; a matched route's names must be valid names.
import assert from 'node:assert/strict';
import { matchRoute, requestUrl, type AdminRoute } from '../../../dataplane/admin/admin-routes.js';
import { HostPolicy } from '../../../dataplane/admin/host-check.js';
import { checkName, parseBuffer } from '../../../dataplane/admin/request-params.js';
import { docBlocks, texts } from '../seeds.js';
import type { FuzzTarget } from '../target.js';

const decoder = new TextDecoder();
const policy = new HostPolicy({
  listenHost: '127.0.0.1',
  allowedHosts: ['admin.example', '.svc.cluster.local'],
});

function checkRoute(route: AdminRoute): void {
  if (route.route === 'subscription') {
    assert.ok(
      checkName('domain', route.domain).ok && checkName('relay', route.relay).ok,
      'route with a bad name',
    );
    assert.ok(checkName('subscription', route.subscription).ok, 'route with a bad subscription name');
  } else if (route.route === 'describe') {
    assert.ok(
      checkName('domain', route.domain).ok && checkName(route.kind, route.name).ok,
      'route with a bad name',
    );
  }
}

export const target: FuzzTarget = {
  // Node's default maximum header size: the request line cannot be longer.
  maxBytes: 16 * 1024,
  tokens: [
    '/',
    '/v1',
    '/domains/',
    'shop',
    '/relays/',
    'orders',
    '/subscriptions/',
    'audit',
    '/ingestors/',
    '/emitters/',
    '/healthz',
    '/readyz',
    '/metrics',
    '?',
    '&',
    '=',
    'buffer=',
    '#',
    '%',
    '%2F',
    '%00',
    '%E0%A4%A',
    '%ZZ',
    '%C3%A9',
    '..',
    '.',
    '//',
    '\\',
    'http://',
    'https://',
    'host:8080',
    '@',
    '[::1]',
    ':',
    ' ',
    '\n',
    '\r',
    '\t',
    'é',
    '\ud800',
    '0',
    '1000000',
    '-1',
    'a'.repeat(254),
  ],
  nests: [
    ['/', ''],
    ['%25', ''],
    ['../', ''],
    ['?buffer=1&', ''],
  ],
  seeds: () => [
    ...docBlocks(['sh', 'text']).filter((block) => block.length < 4096),
    ...texts(
      '/healthz',
      '/metrics?x=1',
      '/v1/domains/shop/relays/orders/subscriptions/audit?buffer=100',
      '/v1/domains/shop/ingestors/orders-in',
      '/v1/domains/shop/emitters/audit-out',
      'http://127.0.0.1:9090/v1/domains/shop/relays/orders/subscriptions/a%2Fb?buffer=1&buffer=2',
      '/v1/domains/shop/relays/%6Frders/subscriptions/audit',
    ),
  ],
  run(input) {
    const text = decoder.decode(input);
    // The first line is the request target, the rest (if any) a Host header.
    const newline = text.indexOf('\n');
    const requestTarget = newline === -1 ? text : text.slice(0, newline);
    const host = newline === -1 ? undefined : text.slice(newline + 1);
    policy.allows(host, requestTarget);
    const raw = matchRoute(requestTarget);
    if (raw.kind === 'route') checkRoute(raw.route);
    const url = requestUrl(requestTarget);
    if (url === undefined) return false;
    const match = matchRoute(url.pathname);
    parseBuffer(url.searchParams.getAll('buffer'));
    if (match.kind !== 'route') return false;
    checkRoute(match.route);
    return true;
  },
};
