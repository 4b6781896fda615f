// A small AST of jq programs in the compiled subset (docs/codecs.md, "Compiled programs") and its printer
// to jq text, for the differential test of the compiled path against jq-wasm. The printer adds parentheses
// only where jq's grammar needs them (so the compiler's own precedence is exercised), and names variables
// by scope: a `var` node picks one of the names bound around it, or `$ENV` when none is.

export type Ast =
  | { k: 'identity' }
  | { k: 'recurse' }
  | { k: 'env' }
  | { k: 'literal'; text: string }
  | { k: 'string'; parts: (string | Ast)[] }
  | { k: 'field'; of: Ast; name: string; style: 'dot' | 'quoted' | 'bracket' }
  | { k: 'index'; of: Ast; index: Ast }
  | { k: 'slice'; of: Ast; from: Ast | null; to: Ast | null }
  | { k: 'each'; of: Ast }
  | { k: 'optional'; of: Ast }
  | { k: 'array'; of: Ast | null }
  | { k: 'object'; entries: ObjectEntry[] }
  | { k: 'binary'; op: BinaryOp; left: Ast; right: Ast }
  | { k: 'neg'; of: Ast }
  | { k: 'try'; body: Ast; handler: Ast | null }
  | { k: 'if'; branches: [Ast, Ast][]; otherwise: Ast | null }
  | { k: 'bind'; source: Ast; name: number; body: Ast }
  | { k: 'var'; pick: number }
  | { k: 'reduce'; source: Ast; name: number; init: Ast; update: Ast }
  | { k: 'foreach'; source: Ast; name: number; init: Ast; update: Ast; extract: Ast | null }
  | { k: 'call'; name: string; args: Ast[] };

export type ObjectEntry =
  | { key: 'ident' | 'quoted'; name: string; value: Ast | null }
  | { key: 'expr'; expr: Ast; value: Ast }
  | { key: 'interp'; parts: (string | Ast)[]; value: Ast }
  | { key: 'var'; pick: number };

export type BinaryOp =
  '|' | ',' | '//' | 'or' | 'and' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

/** jq's precedence (parser.y): higher binds tighter; `right` operators group to the right. */
const PRECEDENCE: Record<BinaryOp, { level: number; right?: true; nonassoc?: true }> = {
  '|': { level: 1, right: true },
  ',': { level: 2 },
  '//': { level: 3, right: true },
  or: { level: 4 },
  and: { level: 5 },
  '==': { level: 6, nonassoc: true },
  '!=': { level: 6, nonassoc: true },
  '<': { level: 6, nonassoc: true },
  '<=': { level: 6, nonassoc: true },
  '>': { level: 6, nonassoc: true },
  '>=': { level: 6, nonassoc: true },
  '+': { level: 7 },
  '-': { level: 7 },
  '*': { level: 8 },
  '/': { level: 8 },
  '%': { level: 8 },
};
/** A term: what a postfix (`.a`, `[e]`, `?`) or an operand needs no parentheses for. */
const TERM = 100;
/** Expressions that extend as far right as they can (`… as $x | body`, `try`, unary minus). */
const OPEN = 0;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** jq text of `ast`; variables are named after the scopes they are bound in. */
export function printProgram(ast: Ast): string {
  return print(ast, [], 0);
}

function level(ast: Ast): number {
  if (ast.k === 'binary') return PRECEDENCE[ast.op].level;
  if (ast.k === 'bind' || ast.k === 'try' || ast.k === 'neg') return OPEN;
  return TERM;
}

/** `ast` printed where an expression of at least `min` is needed, in parentheses when it is less. */
function print(ast: Ast, scope: string[], min: number): string {
  const text = printBare(ast, scope);
  return level(ast) < min || (level(ast) === OPEN && min > 0) ? `(${text})` : text;
}

/** A base for a postfix: a path chain, a variable or anything in parentheses. */
function postfixBase(ast: Ast, scope: string[]): string {
  const chain = ['field', 'index', 'slice', 'each', 'optional', 'var', 'env'].includes(ast.k);
  if (ast.k === 'identity') return '.';
  return chain ? printBare(ast, scope) : `(${printBare(ast, scope)})`;
}

function varName(pick: number, scope: string[]): string {
  return scope.length === 0 ? '$ENV' : `$${scope[pick % scope.length]}`;
}

function bound(scope: string[], name: number): string[] {
  return [...scope, `x${name % 3}`];
}

function printString(parts: (string | Ast)[], scope: string[]): string {
  const body = parts
    .map((part) =>
      typeof part === 'string' ? JSON.stringify(part).slice(1, -1) : `\\(${print(part, scope, 0)})`,
    )
    .join('');
  return `"${body}"`;
}

function printPostfix(ast: Ast & { of: Ast }, scope: string[]): string {
  const base = postfixBase(ast.of, scope);
  const dot = base === '.' ? '' : base;
  switch (ast.k) {
    case 'field':
      if (ast.style === 'dot' && IDENT.test(ast.name)) return `${dot}.${ast.name}`;
      if (ast.style === 'bracket') return `${dot}${dot === '' ? '.' : ''}[${JSON.stringify(ast.name)}]`;
      return `${dot}.${JSON.stringify(ast.name)}`;
    case 'index':
      return `${dot}${dot === '' ? '.' : ''}[${print(ast.index, scope, 0)}]`;
    case 'slice': {
      const from = ast.from === null ? '' : print(ast.from, scope, 0);
      const to = ast.to === null ? '' : print(ast.to, scope, 0);
      return `${dot}${dot === '' ? '.' : ''}[${from}:${to === '' && from === '' ? '1' : to}]`;
    }
    case 'each':
      return `${dot}${dot === '' ? '.' : ''}[]`;
    default:
      return `${base}?`;
  }
}

function printObject(entries: ObjectEntry[], scope: string[]): string {
  const text = entries.map((entry) => {
    switch (entry.key) {
      case 'ident':
      case 'quoted': {
        const key = entry.key === 'ident' && IDENT.test(entry.name) ? entry.name : JSON.stringify(entry.name);
        return entry.value === null ? key : `${key}: ${print(entry.value, scope, TERM)}`;
      }
      case 'expr':
        return `(${print(entry.expr, scope, 0)}): ${print(entry.value, scope, TERM)}`;
      case 'interp':
        return `${printString(entry.parts, scope)}: ${print(entry.value, scope, TERM)}`;
      default:
        return scope.length === 0 ? '$ENV' : varName(entry.pick, scope);
    }
  });
  return `{${text.join(', ')}}`;
}

function printBinary(ast: Ast & { k: 'binary' }, scope: string[]): string {
  const { level: at, right, nonassoc } = PRECEDENCE[ast.op];
  const left = print(ast.left, scope, right === true || nonassoc === true ? at + 1 : at);
  // `a | b as $x | c`: a binding is an expression the right side of a pipe may be
  const rightText =
    ast.op === '|' && ast.right.k === 'bind'
      ? printBare(ast.right, scope)
      : print(ast.right, scope, right === true ? at : at + 1);
  return ast.op === ',' ? `${left}, ${rightText}` : `${left} ${ast.op} ${rightText}`;
}

function printBare(ast: Ast, scope: string[]): string {
  switch (ast.k) {
    case 'identity':
      return '.';
    case 'recurse':
      return '..';
    case 'env':
      return '$ENV';
    case 'literal':
      return ast.text;
    case 'string':
      return printString(ast.parts, scope);
    case 'field':
    case 'index':
    case 'slice':
    case 'each':
    case 'optional':
      return printPostfix(ast, scope);
    case 'array':
      return ast.of === null ? '[]' : `[${print(ast.of, scope, 0)}]`;
    case 'object':
      return printObject(ast.entries, scope);
    case 'binary':
      return printBinary(ast, scope);
    case 'neg':
      return `-${print(ast.of, scope, TERM)}`;
    case 'try':
      return `try ${print(ast.body, scope, TERM)}${ast.handler === null ? '' : ` catch ${print(ast.handler, scope, TERM)}`}`;
    case 'if':
      return printIf(ast, scope);
    case 'bind': {
      const inner = bound(scope, ast.name);
      return `${postfixBase(ast.source, scope)} as $${inner.at(-1)} | ${print(ast.body, inner, 0)}`;
    }
    case 'var':
      return varName(ast.pick, scope);
    case 'reduce':
    case 'foreach':
      return printFold(ast, scope);
    case 'call':
      return ast.args.length === 0
        ? ast.name
        : `${ast.name}(${ast.args.map((arg) => print(arg, scope, 0)).join('; ')})`;
  }
}

function printIf(ast: Ast & { k: 'if' }, scope: string[]): string {
  const branches = ast.branches
    .map(
      ([test, then], at) =>
        `${at === 0 ? 'if' : ' elif'} ${print(test, scope, 0)} then ${print(then, scope, 0)}`,
    )
    .join('');
  return `${branches}${ast.otherwise === null ? '' : ` else ${print(ast.otherwise, scope, 0)}`} end`;
}

function printFold(ast: Ast & { k: 'reduce' | 'foreach' }, scope: string[]): string {
  const inner = bound(scope, ast.name);
  const head = `${ast.k} ${postfixBase(ast.source, scope)} as $${inner.at(-1)}`;
  const init = print(ast.init, scope, 0);
  const update = print(ast.update, inner, 0);
  const extract = ast.k === 'foreach' && ast.extract !== null ? `; ${print(ast.extract, inner, 0)}` : '';
  return `${head} (${init}; ${update}${extract})`;
}
