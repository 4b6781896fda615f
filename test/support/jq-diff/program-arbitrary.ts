// fast-check arbitraries of jq programs in the compiled subset (/work/notes/jaq-subset.md, docs/codecs.md),
// weighted toward what routing programs do: field access, object construction, `.[]`, pipes, select, map,
// `//`, if, string functions, arithmetic, tostring/tonumber, to_entries. Depth-bounded, and cheap to run:
// `range` and `limit` take small literal counts, so no generated program runs for long in jq.
import fc from 'fast-check';
import type { Ast, BinaryOp, ObjectEntry } from './program-ast.js';

/** Field names the generated inputs use too (input-arbitrary.ts), so paths often find something. */
export const FIELD_NAMES = [
  'a',
  'b',
  'name',
  'n',
  's',
  'tags',
  '__proto__',
  'constructor',
  'toString',
  '1',
  '10',
  '',
  'é',
  '😀 x',
  'if',
] as const;

const NUMBERS = ['0', '1', '2', '3', '-1', '10', '1.5', '0.25', '-2.5', '100', '0.1', '3.7'];
const RARE_NUMBERS = ['9007199254740992', '1e+21', '0.30000000000000004', '1e-7', '123456789012'];
const STRINGS = [
  '',
  'a',
  'b',
  'x,y',
  ',',
  'A-b',
  'é',
  '😀',
  '\uffff',
  ' pad ',
  '1',
  '10',
  '-3.5',
  'nan',
  '1e2',
  'null',
];

const ZERO_ARITY = [
  'length', 'keys', 'keys_unsorted', 'add', 'type', 'tostring', 'tonumber', 'tojson', 'not', 'to_entries',
  'from_entries', 'ascii_downcase', 'ascii_upcase', 'values', 'nulls', 'booleans', 'numbers', 'strings',
  'arrays', 'objects', 'iterables', 'scalars', 'floor', 'ceil', 'round', 'sqrt', 'fabs', 'abs', 'min',
  'max', 'sort', 'unique', 'reverse', 'first', 'last', 'env', 'explode', 'implode', 'trim', 'ltrim',
  'rtrim', 'any', 'all', 'utf8bytelength', 'empty', 'error', 'recurse',
] as const; // prettier-ignore

/** Builtins whose argument is a filter run on each element or on the input. */
const FILTER_ARG = ['map', 'select', 'with_entries', 'sort_by', 'group_by', 'unique_by', 'min_by', 'max_by', 'first', 'isempty', 'any', 'all'] as const; // prettier-ignore
/** Builtins whose argument is a value. */
const VALUE_ARG = ['has', 'split', 'join', 'ltrimstr', 'rtrimstr', 'startswith', 'endswith', 'contains', 'inside', 'error', 'in'] as const; // prettier-ignore

export const COMPARE: BinaryOp[] = ['==', '!=', '<', '<=', '>', '>='];
const ARITHMETIC: BinaryOp[] = ['+', '-', '*', '/', '%'];

export const call = (name: string, ...args: Ast[]): Ast => ({ k: 'call', name, args });
export const literal = (text: string): Ast => ({ k: 'literal', text });
export const identity: Ast = { k: 'identity' };

export const fieldName = fc.constantFrom(...FIELD_NAMES);
export const numberLiteral = fc.oneof(
  { arbitrary: fc.constantFrom(...NUMBERS), weight: 8 },
  { arbitrary: fc.constantFrom(...RARE_NUMBERS), weight: 1 },
);
export const stringLiteral = fc.constantFrom(...STRINGS).map((text) => literal(JSON.stringify(text)));
const smallCount = fc.constantFrom('0', '1', '2', '3', '-1', '1.5').map(literal);

const leaf: fc.Arbitrary<Ast> = fc.oneof(
  { arbitrary: fc.constant(identity), weight: 3 },
  {
    arbitrary: fc
      .tuple(fieldName, fc.constantFrom<'dot' | 'quoted' | 'bracket'>('dot', 'quoted', 'bracket'))
      .map(([name, style]): Ast => ({ k: 'field', of: identity, name, style })),
    weight: 8,
  },
  { arbitrary: numberLiteral.map(literal), weight: 3 },
  { arbitrary: stringLiteral, weight: 3 },
  { arbitrary: fc.constantFrom('null', 'true', 'false').map(literal), weight: 2 },
  { arbitrary: fc.nat(5).map((pick): Ast => ({ k: 'var', pick })), weight: 2 },
  { arbitrary: fc.constantFrom(...ZERO_ARITY).map((name) => call(name)), weight: 6 },
  { arbitrary: fc.constant<Ast>({ k: 'env' }), weight: 1 },
  { arbitrary: fc.constant<Ast>({ k: 'recurse' }), weight: 1 },
  { arbitrary: fc.constant<Ast>({ k: 'each', of: identity }), weight: 2 },
);

/** Programs of the subset, at most `maxDepth` nodes deep. */
export function programArbitrary(maxDepth = 4): fc.Arbitrary<Ast> {
  const { expr } = fc.letrec<{ expr: Ast }>((tie) => {
    const e = (): fc.Arbitrary<Ast> => tie('expr');
    const binary = (ops: BinaryOp[]): fc.Arbitrary<Ast> =>
      fc
        .tuple(fc.constantFrom(...ops), e(), e())
        .map(([op, left, right]): Ast => ({ k: 'binary', op, left, right }));
    const interpolation = fc.array(fc.oneof(fc.constantFrom('-', 'k', ' ', 'é'), e()), {
      minLength: 1,
      maxLength: 3,
    });
    const entry: fc.Arbitrary<ObjectEntry> = fc.oneof(
      {
        arbitrary: fc
          .tuple(fieldName, e())
          .map(([name, value]): ObjectEntry => ({ key: 'ident', name, value })),
        weight: 6,
      },
      { arbitrary: fieldName.map((name): ObjectEntry => ({ key: 'ident', name, value: null })), weight: 2 },
      {
        arbitrary: fc
          .tuple(fieldName, e())
          .map(([name, value]): ObjectEntry => ({ key: 'quoted', name, value })),
        weight: 1,
      },
      {
        arbitrary: fc.tuple(e(), e()).map(([expr, value]): ObjectEntry => ({ key: 'expr', expr, value })),
        weight: 2,
      },
      {
        arbitrary: fc
          .tuple(interpolation, e())
          .map(([parts, value]): ObjectEntry => ({ key: 'interp', parts, value })),
        weight: 1,
      },
      { arbitrary: fc.nat(5).map((pick): ObjectEntry => ({ key: 'var', pick })), weight: 1 },
    );
    const postfix = fc.oneof(
      {
        arbitrary: fc
          .tuple(e(), fieldName)
          .map(([of, name]): Ast => ({ k: 'field', of, name, style: 'dot' })),
        weight: 5,
      },
      {
        arbitrary: fc
          .tuple(e(), fc.oneof(numberLiteral.map(literal), stringLiteral, e()))
          .map(([of, index]): Ast => ({ k: 'index', of, index })),
        weight: 3,
      },
      {
        arbitrary: fc
          .tuple(e(), fc.option(e()), fc.option(e()))
          .map(([of, from, to]): Ast => ({ k: 'slice', of, from, to })),
        weight: 1,
      },
      { arbitrary: e().map((of): Ast => ({ k: 'each', of })), weight: 3 },
      { arbitrary: e().map((of): Ast => ({ k: 'optional', of })), weight: 2 },
    );
    const calls = fc.oneof(
      {
        arbitrary: fc.tuple(fc.constantFrom(...FILTER_ARG), e()).map(([name, arg]) => call(name, arg)),
        weight: 6,
      },
      {
        arbitrary: fc.tuple(fc.constantFrom(...VALUE_ARG), e()).map(([name, arg]) => call(name, arg)),
        weight: 5,
      },
      { arbitrary: fc.tuple(smallCount, e()).map(([count, of]) => call('limit', count, of)), weight: 1 },
      { arbitrary: smallCount.map((count) => call('range', count)), weight: 1 },
      { arbitrary: fc.tuple(smallCount, smallCount).map(([from, to]) => call('range', from, to)), weight: 1 },
    );
    const fold = fc
      .tuple(fc.constantFrom('reduce', 'foreach'), e(), fc.nat(2), e(), e(), fc.option(e()))
      .map(([k, source, name, init, update, extract]): Ast =>
        k === 'reduce' ? { k, source, name, init, update } : { k, source, name, init, update, extract },
      );
    return {
      expr: fc.oneof(
        { maxDepth, depthSize: 'small', depthIdentifier: 'jq-program' },
        { arbitrary: leaf, weight: 12 },
        { arbitrary: postfix, weight: 8 },
        { arbitrary: binary(['|']), weight: 7 },
        { arbitrary: binary([',']), weight: 3 },
        { arbitrary: binary(['//']), weight: 3 },
        { arbitrary: binary(['and', 'or']), weight: 2 },
        { arbitrary: binary(COMPARE), weight: 3 },
        { arbitrary: binary(ARITHMETIC), weight: 4 },
        { arbitrary: e().map((of): Ast => ({ k: 'neg', of })), weight: 1 },
        {
          arbitrary: fc
            .tuple(e(), fc.option(e()))
            .map(([body, handler]): Ast => ({ k: 'try', body, handler })),
          weight: 2,
        },
        {
          arbitrary: fc
            .tuple(fc.array(fc.tuple(e(), e()), { minLength: 1, maxLength: 2 }), fc.option(e()))
            .map(([branches, otherwise]): Ast => ({ k: 'if', branches, otherwise })),
          weight: 3,
        },
        {
          arbitrary: fc
            .tuple(e(), fc.nat(2), e())
            .map(([source, name, body]): Ast => ({ k: 'bind', source, name, body })),
          weight: 2,
        },
        { arbitrary: fold, weight: 2 },
        { arbitrary: fc.option(e(), { freq: 6 }).map((of): Ast => ({ k: 'array', of })), weight: 3 },
        {
          arbitrary: fc.array(entry, { maxLength: 3 }).map((entries): Ast => ({ k: 'object', entries })),
          weight: 4,
        },
        { arbitrary: interpolation.map((parts): Ast => ({ k: 'string', parts })), weight: 2 },
        { arbitrary: calls, weight: 6 },
      ),
    };
  });
  return expr;
}
