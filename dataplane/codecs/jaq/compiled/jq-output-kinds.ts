// What a program of the compiled subset can put under each key of the objects it yields, where that is
// plain from the program alone (the compiler's SR2066 reads it against the codec's schema): the kinds a
// value can have, or undefined when they depend on the input. Conservative: an expression whose kinds
// are not certain is undefined, never guessed.
import type { Ast } from './jq-ast.js';
import type { Kind } from './jq-values.js';

export type Kinds = ReadonlySet<Kind> | undefined;

const STRING_BUILTINS = new Set(['tostring', 'tojson', 'type', 'join', 'ascii_downcase', 'ascii_upcase', 'trim', 'ltrim', 'rtrim', 'implode']); // prettier-ignore
const NUMBER_BUILTINS = new Set(['length', 'utf8bytelength', 'floor', 'ceil', 'round', 'sqrt', 'fabs', 'tonumber']); // prettier-ignore
const BOOLEAN_BUILTINS = new Set(['not', 'has', 'in', 'contains', 'inside', 'startswith', 'endswith', 'any', 'all', 'isempty']); // prettier-ignore
const ARRAY_BUILTINS = new Set(['keys', 'keys_unsorted', 'to_entries', 'map', 'sort', 'sort_by', 'group_by', 'unique', 'unique_by', 'reverse', 'explode', 'split', 'flatten', 'toarray']); // prettier-ignore
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

const of = (...kinds: Kind[]): Kinds => new Set(kinds);

/** Each key set by an object the program yields (its last stage), with the kinds of its value. */
export function outputKeyKinds(ast: Ast): { key: string; kinds: Kinds }[] {
  switch (ast.kind) {
    case 'pipe':
    case 'bind':
      return outputKeyKinds(ast.kind === 'pipe' ? ast.right : ast.body);
    case 'comma':
      return [...outputKeyKinds(ast.left), ...outputKeyKinds(ast.right)];
    case 'if':
      return [
        ...outputKeyKinds(ast.then),
        ...(ast.otherwise === undefined ? [] : outputKeyKinds(ast.otherwise)),
      ];
    case 'object':
      return ast.entries.flatMap(({ key, value }) =>
        key.kind === 'literal' && typeof key.value === 'string'
          ? [{ key: key.value, kinds: kindsOf(value) }]
          : [],
      );
    default:
      return [];
  }
}

/** The kinds of every output of an expression, or undefined when the input decides them. */
export function kindsOf(ast: Ast): Kinds {
  switch (ast.kind) {
    case 'literal':
      return of(kindOfLiteral(ast.value));
    case 'string':
      return of('string');
    case 'array':
      return of('array');
    case 'object':
      return of('object');
    case 'negate':
      return of('number');
    case 'and':
    case 'or':
      return of('boolean');
    case 'binary':
      return COMPARISONS.has(ast.operator)
        ? of('boolean')
        : arithmeticKinds(ast.operator, ast.left, ast.right);
    case 'pipe':
      return kindsOf(ast.right);
    case 'bind':
      return kindsOf(ast.body);
    case 'try':
      return ast.handler === undefined ? kindsOf(ast.body) : union(kindsOf(ast.body), kindsOf(ast.handler));
    case 'if':
      return ast.otherwise === undefined ? undefined : union(kindsOf(ast.then), kindsOf(ast.otherwise));
    case 'alternative':
      return union(kindsOf(ast.left), kindsOf(ast.right));
    case 'call':
      return callKinds(ast.name);
    default:
      return undefined;
  }
}

function kindOfLiteral(value: unknown): Kind {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'string' ? 'string' : 'number';
}

/** `-`, `*`, `/`, `%` of two numbers is a number; `+` of two of a kind is that kind. */
function arithmeticKinds(operator: string, left: Ast, right: Ast): Kinds {
  const [a, b] = [kindsOf(left), kindsOf(right)];
  if (a === undefined || b === undefined || a.size !== 1 || b.size !== 1) return undefined;
  const [kindA] = a;
  const [kindB] = b;
  if (kindA !== kindB) return undefined;
  if (operator === '+') return kindA === 'null' ? undefined : a;
  return kindA === 'number' ? a : undefined;
}

function callKinds(name: string): Kinds {
  if (STRING_BUILTINS.has(name)) return of('string');
  if (NUMBER_BUILTINS.has(name)) return of('number');
  if (BOOLEAN_BUILTINS.has(name)) return of('boolean');
  if (ARRAY_BUILTINS.has(name)) return of('array');
  return undefined;
}

function union(a: Kinds, b: Kinds): Kinds {
  return a === undefined || b === undefined ? undefined : new Set([...a, ...b]);
}
