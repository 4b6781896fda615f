import { httpIngestor, route, table } from '../../test/fixtures/compile-cases.js';

const ROUTE = route('orders', 'INHERIT ALL');

describe('check-http-paths: one ingestor per endpoint and per host and path', () => {
  table([
    {
      name: 'an endpoint read twice (SR2042) and a host+path claimed through another vhost (SR2041)',
      statements: `CREATE VHOST shop2 www.example.com, shop.example.com;
        CREATE ENDPOINT same_path ON shop2 PATH '/orders' TYPE HTTP;
        CREATE ENDPOINT other_path ON shop2 PATH '/other' TYPE HTTP;
        ${httpIngestor('first', 'orders_json', ROUTE)}
        ${httpIngestor('twice', 'orders_json', ROUTE)}
        ${httpIngestor('clash', 'orders_json', ROUTE, 'same_path')}
        ${httpIngestor('fine', 'orders_json', ROUTE, 'other_path')}`,
      expect: [
        {
          code: 'SR2042',
          object: 'HttpIngestor/twice',
          path: 'spec.endpoint',
          message: 'reads endpoint orders_ep, which HttpIngestor first already reads',
        },
        {
          code: 'SR2041',
          object: 'HttpIngestor/clash',
          path: 'spec.endpoint',
          message: 'would receive POST shop.example.com/orders',
        },
      ],
      inGraph: ['httpIngestors/first', 'httpIngestors/fine'],
    },
  ]);
});
