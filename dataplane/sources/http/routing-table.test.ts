import assert from 'node:assert/strict';
import { recordingTarget, route } from '../../../test/fixtures/http-ingestion.js';
import { buildRoutingTables, RoutingTable } from './routing-table.js';

const noFiles = { readMountedFile: (): Buffer => Buffer.alloc(0) };

describe('buildRoutingTables', () => {
  const orders = recordingTarget('shop/orders');
  const payments = recordingTarget('shop/payments');
  const other = recordingTarget('other/orders');

  it('looks up host then path; tells an unknown host from an unknown path', () => {
    const { plain, secure, problems } = buildRoutingTables(
      [
        route(orders, ['shop.example.com', 'localhost'], '/orders'),
        route(payments, ['shop.example.com'], '/payments'),
      ],
      noFiles,
    );
    assert.deepEqual(problems, []);
    assert.equal(plain.lookup('shop.example.com', '/orders'), orders);
    assert.equal(plain.lookup('localhost', '/orders'), orders);
    assert.equal(plain.lookup('shop.example.com', '/payments'), payments);
    assert.equal(plain.lookup('localhost', '/payments'), 'unknown_path');
    assert.equal(plain.lookup('nowhere', '/orders'), 'unknown_host');
    assert.deepEqual(plain.hostnames.sort(), ['localhost', 'shop.example.com']);
    assert.deepEqual(plain.targets, [orders, payments]);
    assert.deepEqual(secure.hostnames, []);
  });

  it('a host and path claimed twice (another domain): the first keeps it, the second is a problem', () => {
    const { plain, problems } = buildRoutingTables(
      [
        route(orders, ['shop.example.com'], '/orders'),
        route(other, ['shop.example.com', 'other.example.com'], '/orders'),
      ],
      noFiles,
    );
    assert.equal(plain.lookup('shop.example.com', '/orders'), orders);
    assert.equal(plain.lookup('other.example.com', '/orders'), other, 'its other hosts are still served');
    assert.deepEqual(problems, [
      {
        code: 'route_conflict',
        target: 'other/orders',
        message:
          'POST shop.example.com/orders is already received by shop/orders; other/orders does not receive it',
      },
    ]);
  });

  it('the same host and path on plain and TLS vhosts do not conflict: they are different listeners', () => {
    const { problems } = buildRoutingTables(
      [
        route(orders, ['shop.example.com'], '/orders'),
        route(other, ['shop.example.com'], '/orders', { secretName: 's' }),
      ],
      { ...noFiles, readSecret: () => ({ cert: Buffer.alloc(0), key: Buffer.alloc(0) }) },
    );
    assert.deepEqual(
      problems.map((p) => p.code),
      ['tls_invalid'],
      'only the empty certificate is a problem',
    );
  });

  it('the empty table knows nothing', () => {
    assert.equal(RoutingTable.EMPTY.lookup('localhost', '/'), 'unknown_host');
    assert.equal(RoutingTable.EMPTY.secureContext('localhost'), undefined);
  });
});
