import { table } from '../../test/fixtures/compile-cases.js';

const codec = (name: string, program: string): string =>
  `CREATE CODEC ${name} FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$ ${program} $jaq$;`;

describe('check-jaq-nulls: plainly-null outputs into fields that are not OPTIONAL', () => {
  table([
    {
      name: 'null, … // null and if … else null end into required fields; OPTIONAL and plain paths pass',
      statements: [
        codec('a', '.[] | {order_id: .id, amount: null, note: null}'),
        codec('b', '{order_id: (.id // null), amount: .amount}'),
        codec('c', '{order_id: .id, amount: (if .ok then .amount else null end)}'),
        codec('fine', '.orders[] | {order_id: .id, amount: .amount, note: (.note // null)}'),
      ].join('\n'),
      expect: [
        {
          code: 'SR2010',
          object: 'Codec/a',
          path: 'spec.jaq.ingestion',
          message: 'can yield null for amount (null)',
        },
        {
          code: 'SR2010',
          object: 'Codec/b',
          path: 'spec.jaq.ingestion',
          message: 'can yield null for order_id (… // null)',
        },
        {
          code: 'SR2010',
          object: 'Codec/c',
          path: 'spec.jaq.ingestion',
          message: 'can yield null for amount (if … null … end)',
        },
      ],
      inGraph: ['codecs/fine'],
    },
  ]);
});
