import assert from 'node:assert/strict';
import { matchRoute, type RouteMatch } from './admin-routes.js';
import { checkName, isDomainName, isResourceName, parseBuffer } from './request-params.js';

describe('admin routes', () => {
  const cases: [string, RouteMatch | string][] = [
    ['/healthz', { kind: 'route', route: { route: 'healthz' } }],
    ['/readyz', { kind: 'route', route: { route: 'readyz' } }],
    ['/metrics', { kind: 'route', route: { route: 'metrics' } }],
    [
      '/v1/domains/shop/relays/orders/subscriptions/audit.v2_x-1',
      {
        kind: 'route',
        route: { route: 'subscription', domain: 'shop', relay: 'orders', subscription: 'audit.v2_x-1' },
      },
    ],
    [
      '/v1/domains/shop/ingestors/orders-in',
      { kind: 'route', route: { route: 'describe', kind: 'ingestor', domain: 'shop', name: 'orders-in' } },
    ],
    [
      '/v1/domains/shop/emitters/audit-out',
      { kind: 'route', route: { route: 'describe', kind: 'emitter', domain: 'shop', name: 'audit-out' } },
    ],
    [
      '/v1/domains/shop/relays/%6Frders/subscriptions/audit',
      {
        kind: 'route',
        route: { route: 'subscription', domain: 'shop', relay: 'orders', subscription: 'audit' },
      },
    ],
    ['/v1/domains/Shop/relays/orders/subscriptions/audit', 'invalid_name domain'],
    ['/v1/domains/shop/relays/orders_x/subscriptions/audit', 'invalid_name relay'],
    ['/v1/domains/shop/relays/-orders/subscriptions/audit', 'invalid_name relay'],
    ['/v1/domains/shop/relays/orders/subscriptions/.hidden', 'invalid_name subscription'],
    ['/v1/domains/shop/relays/orders/subscriptions/', 'invalid_name subscription'],
    [`/v1/domains/shop/relays/orders/subscriptions/${'a'.repeat(129)}`, 'invalid_name subscription'],
    ['/v1/domains/shop/relays/orders/subscriptions/a%2Fb', 'invalid_name subscription'],
    ['/v1/domains/shop/relays/orders/subscriptions/%E0%A4%A', 'invalid_path subscription'],
    [`/v1/domains/${'a'.repeat(254)}/ingestors/x`, 'invalid_name domain'],
    ['/v1/domains/shop/ingestors/Orders', 'invalid_name ingestor'],
    ['/v1/domains/shop/emitters/', 'invalid_name emitter'],
    ['/healthz/', { kind: 'none' }],
    ['/Healthz', { kind: 'none' }],
    ['/', { kind: 'none' }],
    ['/v1/domains/shop/statements', { kind: 'none' }],
    ['/v1/domains/shop/relays/orders', { kind: 'none' }],
    ['/v1/domains/shop/relays/orders/subscriptions/a/b', { kind: 'none' }],
    ['/v1/domains/shop/constructor/x', { kind: 'none' }],
    ['/v1/domains/shop/__proto__/x', { kind: 'none' }],
    ['/v2/domains/shop/ingestors/x', { kind: 'none' }],
  ];
  for (const [path, expected] of cases) {
    it(`${path.length > 70 ? `${path.slice(0, 70)}…` : path} → ${typeof expected === 'string' ? expected : expected.kind}`, () => {
      const match = matchRoute(path);
      if (typeof expected !== 'string') return assert.deepEqual(match, expected);
      const [code, kind] = expected.split(' ');
      assert.equal(match.kind, 'invalid');
      assert.equal(match.kind === 'invalid' && match.code, code);
      assert.match(match.kind === 'invalid' ? match.message : '', new RegExp(`^(the )?${kind} `));
    });
  }
});

describe('request parameters', () => {
  it('one name predicate, with the Kubernetes limits: a domain is a namespace, a name an object name', () => {
    const label63 = 'a'.repeat(63);
    assert.equal(isDomainName(label63), true);
    assert.equal(isDomainName(`${label63}a`), false, 'a namespace name has at most 63 characters');
    assert.equal(isDomainName('team.a'), false, 'a namespace name is a DNS-1123 label');
    for (const name of ['orders', 'a', '0-x', 'audit.v2', `${'a'.repeat(63)}.${'b'.repeat(189)}`])
      assert.equal(isResourceName(name), true, name);
    for (const name of ['Orders', '-a', 'a-', 'a..b', '.a', 'a.', 'a_b', '', 'x'.repeat(254)])
      assert.equal(isResourceName(name), false, name);
    assert.equal(checkName('domain', 'a'.repeat(64)).ok, false);
    assert.equal(checkName('relay', 'audit.v2').ok, true);
  });

  it('names the parameter, quotes what was sent briefly, and says what is expected', () => {
    const checked = checkName('relay', 'Orders');
    assert.deepEqual(checked, {
      ok: false,
      code: 'invalid_name',
      message:
        "relay name \"Orders\" is not valid: expected lower-case letters, digits, '-' and '.', each '.'-separated part starting and ending with a letter or digit, at most 253 characters",
    });
    const long = checkName('subscription', 'x'.repeat(300));
    assert.ok(!long.ok && long.message.includes(`"${'x'.repeat(64)}…"`));
  });

  const buffers: [string[], number | string][] = [
    [[], 10_000],
    [['1'], 1],
    [['1000000'], 1_000_000],
    [['0042'], 42],
    [['0'], 'buffer "0" is not valid: expected a whole number of records from 1 to 1000000'],
    [['1000001'], 'buffer "1000001" is not valid'],
    [['-5'], 'buffer "-5" is not valid'],
    [['1.5'], 'buffer "1.5" is not valid'],
    [['1e3'], 'buffer "1e3" is not valid'],
    [[' 5'], 'buffer " 5" is not valid'],
    [[''], 'buffer "" is not valid'],
    [['5', '6'], 'buffer is given 2 times'],
  ];
  for (const [values, expected] of buffers) {
    it(`buffer ${JSON.stringify(values)} → ${expected}`, () => {
      const parsed = parseBuffer(values);
      if (typeof expected === 'number') return assert.deepEqual(parsed, { ok: true, value: expected });
      assert.ok(!parsed.ok);
      assert.equal(parsed.code, 'invalid_buffer');
      assert.ok(parsed.message.startsWith(expected), parsed.message);
    });
  }
});
