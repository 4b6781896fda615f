import { table } from '../../test/fixtures/compile-cases.js';

const codec = (name: string, program: string): string =>
  `CREATE CODEC ${name} FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$ ${program} $jaq$;`;

describe('check-jaq-types: outputs of a kind the field does not take', () => {
  table([
    {
      name: 'a string into an integer, a number into a string, a boolean from a comparison; paths and defaults pass',
      statements: [
        codec('a', '.orders[] | {order_id: .id, amount: (.amount | tostring)}'),
        codec('b', '{order_id: (.id | length), amount: .amount}'),
        codec('c', '{order_id: .id, amount: (.amount > 1)}'),
        codec('d', 'if .ok then {order_id: "\\(.id)", amount: [.amount]} else empty end'),
        codec('fine', '.orders[] | {order_id: .id, amount: (.amount // 0), note: (.note | tostring)}'),
        codec('outside', 'def f: "x"; {order_id: .id, amount: f}'),
      ].join('\n'),
      expect: [
        {
          code: 'SR2066',
          object: 'Codec/a',
          path: 'spec.jaq.ingestion',
          message: 'yields a string for amount, but schema orders declares amount I64, which takes a number',
        },
        {
          code: 'SR2066',
          object: 'Codec/b',
          path: 'spec.jaq.ingestion',
          message: 'yields a number for order_id',
        },
        {
          code: 'SR2066',
          object: 'Codec/c',
          path: 'spec.jaq.ingestion',
          message: 'yields a boolean for amount',
        },
        {
          code: 'SR2066',
          object: 'Codec/d',
          path: 'spec.jaq.ingestion',
          message: 'yields an array for amount',
        },
      ],
      inGraph: ['codecs/fine', 'codecs/outside'],
    },
  ]);
});
