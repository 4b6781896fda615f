import { table } from '../../test/fixtures/compile-cases.js';

const codec = (name: string, ingestion: string, emitting?: string): string =>
  `CREATE CODEC ${name} FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$${ingestion}$jaq$` +
  (emitting === undefined ? ';' : ` ON EMITTING $jaq$${emitting}$jaq$;`);

describe('check-jaq-programs: every program compiles (SR2009)', () => {
  table([
    {
      name: 'syntax errors and undefined names, located in the program; a runaway program is only compiled',
      statements: [
        codec('syntax', '.orders[] |\n  {order_id: }'),
        codec('unknown', '{order_id: .id | frobnicate, amount: .amount}'),
        codec('variable', '{order_id: $id, amount: .amount}'),
        codec('emit', '{order_id: .id, amount: .amount}', '{id: .order_id'),
        codec('unfinished', '{order_id: .id, amount: .amount} |'),
        codec('fine', 'repeat(.) | {order_id: .id, amount: .amount}', '{id: .order_id, amount}'),
      ].join('\n'),
      expect: [
        {
          code: 'SR2009',
          object: 'Codec/syntax',
          path: 'spec.jaq.ingestion',
          message:
            "the ON INGESTION program does not compile: syntax error, unexpected '}' (line 2, column 14)",
        },
        {
          code: 'SR2009',
          object: 'Codec/unknown',
          path: 'spec.jaq.ingestion',
          message: 'frobnicate/0 is not defined (line 1, column 18)',
        },
        {
          code: 'SR2009',
          object: 'Codec/variable',
          path: 'spec.jaq.ingestion',
          message: '$id is not defined (line 1, column 12)',
        },
        {
          code: 'SR2009',
          object: 'Codec/emit',
          path: 'spec.jaq.emitting',
          message: 'the ON EMITTING program does not compile: syntax error',
        },
        {
          code: 'SR2009',
          object: 'Codec/unfinished',
          path: 'spec.jaq.ingestion',
          message: '(at the end of the program)',
        },
      ],
      inGraph: ['codecs/fine'],
    },
  ]);
});
