import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertDiagnostics, compileCase, table } from '../../test/fixtures/compile-cases.js';
import { HOSTILE_EXAMPLES, hostileProgram } from '../../test/fixtures/hostile-jaq-programs.js';

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

describe('check-jaq-programs: a program that exhausts jq’s compiler is SR2065, and the compile goes on', () => {
  let unique = 0;
  /** A domain with the hostile program and a fine codec; each compile's fine program is new to the check. */
  function compileWith(program: string, clause: 'INGESTION' | 'EMITTING') {
    const fine = `{order_id: .id, amount: .amount} | .n${unique++}`;
    const statements =
      clause === 'INGESTION'
        ? codec('hostile', program, '{id: .order_id}')
        : codec('hostile', '{order_id: .id, amount: .amount}', program);
    return compileCase({ statements: `${statements}\n${codec('fine', fine)}` });
  }

  function assertContained(program: string, clause: 'INGESTION' | 'EMITTING'): void {
    const result = compileWith(program, clause);
    assertDiagnostics(result, [
      {
        code: 'SR2065',
        object: 'Codec/hostile',
        path: `spec.jaq.${clause.toLowerCase()}`,
        message: `Codec hostile: the ON ${clause} program cannot be checked: `,
      },
    ]);
    assert.ok(Object.hasOwn(result.graph.codecs, 'fine'), 'the other codec is compiled');
    // The next compile has an intact jq: a fine program compiles and a broken one is still SR2009.
    const next = compileCase({ statements: codec('next', `.id | {order_id: ., amount: 1} | .n${unique++}`) });
    assertDiagnostics(next, []);
    const broken = compileCase({
      statements: codec('broken', `{order_id: .id | frobnicate} | .n${unique++}`),
    });
    assert.deepEqual(
      broken.diagnostics.map((d) => d.code),
      ['SR2009'],
    );
  }

  for (const { name, program } of HOSTILE_EXAMPLES) {
    it(`bug: ${name} crashed or hung compileDomain — now SR2065`, function () {
      this.timeout(30_000);
      assertContained(program, 'INGESTION');
    });
  }

  it('generated: any program of any hostile class, in either clause', function () {
    this.timeout(180_000);
    fc.assert(
      fc.property(
        hostileProgram,
        fc.constantFrom('INGESTION' as const, 'EMITTING' as const),
        (hostile, clause) => assertContained(hostile.program, clause),
      ),
      { numRuns: 10 },
    );
  });
});
