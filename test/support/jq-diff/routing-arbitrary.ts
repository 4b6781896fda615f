// Programs shaped as routing codecs write them (select on a field, an object of fields, `//` defaults,
// interpolated strings, to_entries), with small general programs (program-arbitrary.ts) in the holes: the
// half of the differential test's programs that looks like what users run.
import fc from 'fast-check';
import type { Ast, BinaryOp } from './program-ast.js';
import {
  call,
  COMPARE,
  fieldName,
  identity,
  literal,
  numberLiteral,
  programArbitrary,
  stringLiteral,
} from './program-arbitrary.js';

/** A path from the input: `.a`, `.a.b`, `.tags[0]`, `.a[]?`. */
const path: fc.Arbitrary<Ast> = fc
  .array(
    fc.oneof(
      {
        arbitrary: fieldName.map((name) => (of: Ast): Ast => ({ k: 'field', of, name, style: 'dot' })),
        weight: 6,
      },
      {
        arbitrary: numberLiteral.map((n) => (of: Ast): Ast => ({ k: 'index', of, index: literal(n) })),
        weight: 1,
      },
      { arbitrary: fc.constant((of: Ast): Ast => ({ k: 'each', of: { k: 'optional', of } })), weight: 1 },
      { arbitrary: fc.constant((of: Ast): Ast => ({ k: 'optional', of })), weight: 1 },
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((steps) => steps.reduce<Ast>((of, step) => step(of), identity));

const pipe = (left: Ast, right: Ast): Ast => ({ k: 'binary', op: '|', left, right });

/** Programs shaped as routing codecs write them, with small general expressions in the holes. */
export function routingArbitrary(): fc.Arbitrary<Ast> {
  const small = programArbitrary(2);
  const value = fc.oneof({ arbitrary: path, weight: 3 }, { arbitrary: small, weight: 2 });
  const compare = fc
    .tuple(path, fc.constantFrom(...COMPARE), fc.oneof(numberLiteral.map(literal), stringLiteral, path))
    .map(([left, op, right]): Ast => ({ k: 'binary', op, left, right }));
  const object = fc
    .uniqueArray(fc.tuple(fieldName, value), { minLength: 1, maxLength: 4, selector: ([name]) => name })
    .map((entries): Ast => ({
      k: 'object',
      entries: entries.map(([name, v]) => ({ key: 'ident', name, value: v })),
    }));
  const stage = fc.oneof(
    { arbitrary: object, weight: 4 },
    { arbitrary: compare.map((test) => call('select', test)), weight: 3 },
    {
      arbitrary: fc.tuple(path, value).map(([left, right]): Ast => ({ k: 'binary', op: '//', left, right })),
      weight: 3,
    },
    { arbitrary: path, weight: 3 },
    {
      arbitrary: fc.tuple(path, value).map(([a, b]): Ast => ({ k: 'string', parts: [a, '-', b] })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(compare, value, value)
        .map(([test, then, otherwise]): Ast => ({ k: 'if', branches: [[test, then]], otherwise })),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom('tostring', 'tonumber', 'ascii_downcase', 'length', 'to_entries', 'keys', 'type')
        .map((name) => call(name)),
      weight: 3,
    },
    { arbitrary: value.map((f) => call('map', f)), weight: 2 },
    {
      arbitrary: fc.constant(
        pipe(
          call('to_entries'),
          pipe(
            call(
              'map',
              call('select', {
                k: 'binary',
                op: '!=',
                left: { k: 'field', of: identity, name: 'value', style: 'dot' },
                right: literal('null'),
              }),
            ),
            call('from_entries'),
          ),
        ),
      ),
      weight: 1,
    },
    { arbitrary: fc.constant<Ast>({ k: 'each', of: { k: 'optional', of: identity } }), weight: 2 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('split', 'ltrimstr', 'startswith', 'join'), stringLiteral)
        .map(([name, arg]) => call(name, arg)),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(path, fc.constantFrom<BinaryOp>('+', '-', '*'), fc.oneof(numberLiteral.map(literal), path))
        .map(([left, op, right]): Ast => ({ k: 'binary', op, left, right })),
      weight: 2,
    },
  );
  return fc
    .array(stage, { minLength: 1, maxLength: 4 })
    .map((stages) => stages.reduceRight((right, left) => pipe(left, right)));
}

/** What the differential test feeds: routing-shaped programs and general ones, half and half. */
export function subsetProgramArbitrary(): fc.Arbitrary<Ast> {
  return fc.oneof(routingArbitrary(), programArbitrary());
}
