import { table } from '../../test/fixtures/compile-cases.js';

describe('check-junctions: merged relays carry the same fields', () => {
  table([
    {
      name: 'same fields (optionality may differ) merge; input. is nullable where any relay is',
      statements: `CREATE SCHEMA loose (order_id STRING OPTIONAL, amount I64, note STRING OPTIONAL);
        CREATE RELAY loose SCHEMA loose UNBRANCHED;
        CREATE RELAY merged SCHEMA orders UNBRANCHED;
        CREATE JUNCTION j FROM orders, loose TO merged SET order_id = coalesce(input.order_id, '?'), amount = input.amount
          FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
        CREATE JUNCTION k FROM orders, loose TO merged INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
      expect: [
        {
          code: 'SR2007',
          object: 'Junction/k',
          path: 'spec.routes[0].inheritAll',
          message: 'copies input.order_id, which may be null',
        },
      ],
      inGraph: ['junctions/j'],
    },
    {
      name: 'relays with other fields or types (SR2063)',
      statements: `CREATE SCHEMA other (order_id STRING, amount STRING, note STRING OPTIONAL);
        CREATE RELAY other SCHEMA other UNBRANCHED;
        CREATE RELAY merged SCHEMA orders UNBRANCHED;
        CREATE JUNCTION j FROM orders, other, lines TO merged INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
      expect: [
        {
          code: 'SR2063',
          object: 'Junction/j',
          path: 'spec.from[1]',
          message: 'amount is I64 in relay orders but STRING in relay other',
        },
        {
          code: 'SR2063',
          object: 'Junction/j',
          path: 'spec.from[2]',
          message: 'relay lines has no field order_id',
        },
      ],
    },
  ]);
});
