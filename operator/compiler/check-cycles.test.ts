import { table } from '../../test/fixtures/compile-cases.js';

const junction = (name: string, from: string, to: string): string =>
  `CREATE JUNCTION ${name} FROM ${from} TO ${to} INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`;

describe('check-cycles: relays never form a cycle', () => {
  table([
    {
      name: 'a chain is fine',
      statements: `CREATE RELAY a SCHEMA orders UNBRANCHED; CREATE RELAY b SCHEMA orders UNBRANCHED;
        ${junction('j1', 'orders', 'a')} ${junction('j2', 'a', 'b')}`,
      expect: [],
      inGraph: ['junctions/j1', 'junctions/j2'],
    },
    {
      name: 'the junction that closes a cycle is rejected, the older ones stay; a self-loop too',
      statements: `CREATE RELAY a SCHEMA orders UNBRANCHED; CREATE RELAY b SCHEMA orders UNBRANCHED;
        CREATE RELAY c SCHEMA orders UNBRANCHED;
        ${junction('j1', 'a', 'b')} ${junction('j2', 'b', 'c')} ${junction('j3', 'c', 'a')}
        ${junction('self', 'orders', 'orders')}`,
      expect: [
        {
          code: 'SR2062',
          object: 'Junction/j3',
          path: 'spec',
          message: 'c → (Junction j3) → a → (Junction j1) → b → (Junction j2) → c',
        },
        {
          code: 'SR2062',
          object: 'Junction/self',
          path: 'spec',
          message: 'orders → (Junction self) → orders',
        },
      ],
      inGraph: ['junctions/j1', 'junctions/j2'],
    },
    {
      name: 'a correlator timeout back to its own input is a cycle',
      statements: `CREATE SCHEMA pair (order_id STRING);
        CREATE RELAY pairs SCHEMA pair UNBRANCHED;
        CREATE CORRELATOR loop LEFT FROM orders RIGHT FROM orders CORRELATE WHERE left.order_id = right.order_id
          MATCH EARLIEST MAX TIME 1s ON CORRELATION TIMEOUT SEND TO orders, DROP UNBRANCHED
          TO pairs SET order_id = left.order_id FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
      expect: [
        {
          code: 'SR2062',
          object: 'Correlator/loop',
          path: 'spec',
          message: 'orders → (Correlator loop) → orders',
        },
      ],
    },
  ]);
});
