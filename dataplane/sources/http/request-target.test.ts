import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeHost, requestTarget } from './request-target.js';

describe('normalizeHost', () => {
  const cases: [string | undefined, string | undefined][] = [
    ['localhost', 'localhost'],
    ['LocalHost', 'localhost'],
    ['Shop.Example.COM:8080', 'shop.example.com'],
    ['shop.example.com:', 'shop.example.com'],
    ['shop.example.com.', 'shop.example.com'],
    ['shop.example.com.:443', 'shop.example.com'],
    ['127.0.0.1:8080', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['[::1]:8080', '[::1]'],
    ['[2001:DB8::1]:80', '[2001:db8::1]'],
    ['::1', '[::1]'],
    [undefined, undefined],
    ['', undefined],
    ['.', undefined],
    [':8080', undefined],
    ['shop.example.com:80x', undefined],
    ['shop.example.com:80:81', undefined],
    ['[::1', undefined],
    ['[::1]x', undefined],
    ['[::1]:x', undefined],
    ['[not-ip]:80', undefined],
  ];
  for (const [raw, expected] of cases) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizeHost(raw), expected);
    });
  }

  it('property: case and port never change the result', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 4 }),
        fc.nat(65535),
        fc.boolean(),
        (labels, port, upper) => {
          const name = labels.join('.');
          const sent = upper ? name.toUpperCase() : name;
          assert.equal(normalizeHost(`${sent}:${port}`), name);
          assert.equal(normalizeHost(`${sent}.`), name);
        },
      ),
    );
  });
});

describe('requestTarget', () => {
  const cases: [string, string | undefined, { host: string | undefined; path: string }][] = [
    ['/orders', 'localhost:8080', { host: 'localhost', path: '/orders' }],
    ['/orders?x=1&y=2', 'localhost', { host: 'localhost', path: '/orders' }],
    ['/orders/', 'localhost', { host: 'localhost', path: '/orders/' }],
    ['/%6Frders', 'localhost', { host: 'localhost', path: '/%6Frders' }],
    ['/', undefined, { host: undefined, path: '/' }],
    ['http://Shop.Example.com:8080/orders?x', 'other', { host: 'shop.example.com', path: '/orders' }],
    ['HTTPS://shop.example.com', 'other', { host: 'shop.example.com', path: '/' }],
    ['http://user@shop.example.com/orders', 'other', { host: 'shop.example.com', path: '/orders' }],
    ['http://shop.example.com?x', 'other', { host: 'shop.example.com', path: '/' }],
    ['*', 'localhost', { host: undefined, path: '' }],
    ['shop.example.com:443', 'localhost', { host: undefined, path: '' }],
  ];
  for (const [url, host, expected] of cases) {
    it(`${url} with Host ${String(host)}`, () => {
      assert.deepEqual(requestTarget(url, host), expected);
    });
  }
});
