// A parser for the compiled subset of jq (docs/codecs.md, "Compiled programs"). jq-wasm has already
// accepted the program (the compile check runs first), so this parser does not diagnose syntax errors: text
// it does not take is outside the subset, and `Outside` names the first construct it stopped at, which
// DESCRIBE shows. Precedence is jq 1.8's: `|` < `,` < `//` < `or` < `and` < comparisons < `+ -` <
// `* / %` < unary minus and `try` < postfix; `E as $x | body` takes everything to its right.
import type { JsonValue } from '../../json-value.js';
import type { Ast, BinaryOperator } from './jq-ast.js';
import { builtinArities } from './jq-builtins-table.js';
import { wellFormed } from './jq-strings.js';

/** Why a program is not compiled: the construct, and where it starts in the program. */
export class Outside {
  constructor(
    readonly construct: string,
    readonly offset: number,
  ) {}
}

export interface ParsedProgram {
  ast: Ast;
  /** Variable slots the program binds (`as`, `reduce`, `foreach`). */
  slots: number;
}

const KEYWORDS = new Set([
  'def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label',
  'import', 'include', 'and', 'or', '__loc__',
]); // prettier-ignore
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const ASSIGNMENTS = ['|=', '+=', '-=', '*=', '/=', '%=', '//='];
const IDENT = /[A-Za-z_][A-Za-z_0-9]*/y;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const INTEGER = /^\d+$/;

export function parseJq(source: string): ParsedProgram {
  const parser = new Parser(source);
  const ast = parser.pipe();
  parser.skipSpace();
  if (!parser.atEnd()) throw new Outside(`\`${parser.source[parser.at]}\``, parser.at);
  return { ast, slots: parser.slots };
}

class Parser {
  at = 0;
  slots = 0;
  readonly #scope: { name: string; slot: number }[] = [];

  constructor(readonly source: string) {}

  atEnd(): boolean {
    return this.at >= this.source.length;
  }

  skipSpace(): void {
    for (;;) {
      const char = this.source[this.at];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') this.at += 1;
      else if (char === '#') {
        const end = this.source.indexOf('\n', this.at);
        const line = this.source.slice(this.at, end === -1 ? undefined : end).replace(/\r$/, '');
        // jq 1.8 continues a comment over a line ending in an odd number of backslashes
        if (/\\+$/.test(line) && (/\\+$/.exec(line)?.[0].length ?? 0) % 2 === 1)
          throw new Outside('a comment continued with a backslash', this.at);
        this.at = end === -1 ? this.source.length : end;
      } else return;
    }
  }

  /** True and consumed when the text at the current position is `token` (an operator). */
  #eat(token: string): boolean {
    this.skipSpace();
    if (!this.source.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  #peek(token: string): boolean {
    this.skipSpace();
    return this.source.startsWith(token, this.at);
  }

  #expect(token: string): void {
    if (!this.#eat(token)) throw new Outside(`\`${this.source[this.at] ?? 'the end'}\``, this.at);
  }

  /** The identifier or keyword at the current position, consumed, or undefined. */
  #word(): string | undefined {
    this.skipSpace();
    IDENT.lastIndex = this.at;
    const match = IDENT.exec(this.source);
    if (match === null) return undefined;
    if (this.source.startsWith('::', this.at + match[0].length)) throw new Outside('a module path', this.at);
    this.at += match[0].length;
    return match[0];
  }

  #peekWord(): string | undefined {
    const start = this.at;
    const word = this.#word();
    this.at = start;
    return word;
  }

  #keyword(word: string): boolean {
    if (this.#peekWord() !== word) return false;
    this.#word();
    return true;
  }

  pipe(): Ast {
    const left = this.#comma();
    if (this.#peek('|=')) throw new Outside('assignment `|=`', this.at);
    if (this.#eat('|')) return { kind: 'pipe', left, right: this.pipe() };
    return left;
  }

  #comma(): Ast {
    let left = this.#alternative();
    while (this.#eat(',')) left = { kind: 'comma', left, right: this.#alternative() };
    return left;
  }

  #alternative(): Ast {
    const left = this.#or();
    for (const assignment of ASSIGNMENTS)
      if (this.#peek(assignment)) throw new Outside(`assignment \`${assignment}\``, this.at);
    if (this.#peek('=') && !this.#peek('==')) throw new Outside('assignment `=`', this.at);
    if (this.#peek('?//')) throw new Outside('the alternative destructuring `?//`', this.at);
    if (this.#eat('//')) return { kind: 'alternative', left, right: this.#alternative() };
    return left;
  }

  #or(): Ast {
    let left = this.#and();
    while (this.#keyword('or')) left = { kind: 'or', left, right: this.#and() };
    return left;
  }

  #and(): Ast {
    let left = this.#comparison();
    while (this.#keyword('and')) left = { kind: 'and', left, right: this.#comparison() };
    return left;
  }

  #comparison(): Ast {
    const left = this.#additive();
    this.skipSpace();
    const two = this.source.slice(this.at, this.at + 2);
    const one = this.source[this.at] ?? '';
    const operator = COMPARISONS.has(two) ? two : one === '<' || one === '>' ? one : undefined;
    if (operator === undefined) return left;
    this.at += operator.length;
    return binary(operator as BinaryOperator, left, this.#additive());
  }

  #additive(): Ast {
    let left = this.#multiplicative();
    for (;;) {
      this.skipSpace();
      const char = this.source[this.at];
      if ((char !== '+' && char !== '-') || this.source[this.at + 1] === '=') return left;
      this.at += 1;
      left = binary(char, left, this.#multiplicative());
    }
  }

  #multiplicative(): Ast {
    let left = this.#unary();
    for (;;) {
      this.skipSpace();
      const char = this.source[this.at];
      if ((char !== '*' && char !== '/' && char !== '%') || this.source[this.at + 1] === '=') return left;
      if (char === '/' && this.source[this.at + 1] === '/') return left;
      this.at += 1;
      left = binary(char, left, this.#unary());
    }
  }

  /** jq 1.8's unary minus binds tighter than `*`: `-1 * "a"` is `(-1) * "a"` (null), not an error. */
  #unary(): Ast {
    if (this.#peek('-') && !this.#peek('-=')) {
      this.at += 1;
      return { kind: 'negate', operand: this.#unary() };
    }
    return this.#postfix();
  }

  #postfix(binds = true): Ast {
    let term = this.#primary();
    for (;;) {
      this.skipSpace();
      const char = this.source[this.at];
      if (char === '.' && this.source[this.at + 1] !== '.') {
        this.at += 1;
        term = this.#suffixAfterDot(term);
      } else if (char === '[') term = this.#bracket(term);
      else if (char === '?' && this.source[this.at + 1] !== '/') {
        this.at += 1;
        term = optional(term);
      } else if (binds && this.#peekWord() === 'as') {
        this.#word();
        return this.#binding(term);
      } else return term;
    }
  }

  /** After a `.` that follows a term: `.name`, `."name"`, `.[…]`. */
  #suffixAfterDot(target: Ast): Ast {
    const char = this.source[this.at];
    if (char === '[') return this.#bracket(target);
    if (char === '"') return { kind: 'index', target, key: this.#string() };
    IDENT.lastIndex = this.at;
    const match = IDENT.exec(this.source);
    if (match === null) throw new Outside('`.`', this.at - 1);
    this.at += match[0].length;
    return { kind: 'index', target, key: { kind: 'literal', value: match[0] } };
  }

  /** `[]`, `[e]`, `[e:e]` after a term. */
  #bracket(target: Ast): Ast {
    this.#expect('[');
    if (this.#eat(']')) return { kind: 'iterate', target };
    const from = this.#peek(':') ? undefined : this.pipe();
    if (this.#eat(':')) {
      const to = this.#peek(']') ? undefined : this.pipe();
      this.#expect(']');
      return { kind: 'slice', target, from, to };
    }
    this.#expect(']');
    return { kind: 'index', target, key: from as Ast };
  }

  #binding(source: Ast): Ast {
    const slot = this.#variableName();
    this.#expect('|');
    return this.#scoped(slot.name, (index) => ({ kind: 'bind', source, slot: index, body: this.pipe() }));
  }

  #variableName(): { name: string } {
    this.skipSpace();
    if (this.source[this.at] === '[' || this.source[this.at] === '{')
      throw new Outside('a destructuring pattern', this.at);
    this.#expect('$');
    const name = this.#word();
    if (name === undefined || name === '__loc__') throw new Outside('`$`', this.at);
    return { name };
  }

  #scoped<T>(name: string, body: (slot: number) => T): T {
    const slot = this.slots++;
    this.#scope.push({ name, slot });
    try {
      return body(slot);
    } finally {
      this.#scope.pop();
    }
  }

  #primary(): Ast {
    this.skipSpace();
    const start = this.at;
    const char = this.source[this.at];
    if (char === undefined) throw new Outside('the end of the program', start);
    if (char === '.') {
      if (this.source.startsWith('..', this.at)) {
        this.at += 2;
        return { kind: 'recurse' };
      }
      this.at += 1;
      const next = this.source[this.at];
      if (next === '"' || next === '[' || (next !== undefined && /[A-Za-z_]/.test(next)))
        return this.#suffixAfterDot({ kind: 'identity' });
      if (next !== undefined && /\d/.test(next)) {
        this.at -= 1;
        return this.#number();
      }
      return { kind: 'identity' };
    }
    if (/\d/.test(char)) return this.#number();
    if (char === '"') return this.#string();
    if (char === '(') {
      this.at += 1;
      const body = this.pipe();
      this.#expect(')');
      return body;
    }
    if (char === '[') {
      this.at += 1;
      if (this.#eat(']')) return { kind: 'array', body: undefined };
      const body = this.pipe();
      this.#expect(']');
      return { kind: 'array', body };
    }
    if (char === '{') return this.#object();
    if (char === '$') return this.#variable();
    if (char === '@') throw new Outside('a format string (`@…`)', start);
    const word = this.#word();
    if (word === undefined) throw new Outside(`\`${char}\``, start);
    return this.#wordTerm(word, start);
  }

  #wordTerm(word: string, start: number): Ast {
    switch (word) {
      case 'if':
        return this.#if();
      case 'try': {
        const body = this.#postfixNoBinding();
        const handler = this.#keyword('catch') ? this.#postfixNoBinding() : undefined;
        return { kind: 'try', body, handler };
      }
      case 'reduce':
      case 'foreach':
        return this.#fold(word, start);
      case 'null':
      case 'true':
      case 'false':
        if (!this.#peek('(')) return { kind: 'literal', value: word === 'null' ? null : word === 'true' };
        break;
    }
    if (KEYWORDS.has(word)) throw new Outside(`\`${word}\``, start);
    return this.#call(word, start);
  }

  /** A `try` body or `catch` handler: a postfix term (jq gives `try` a higher precedence than any operator). */
  #postfixNoBinding(): Ast {
    if (this.#peek('-')) throw new Outside('a negation after `try`', this.at);
    return this.#postfix();
  }

  #call(name: string, start: number): Ast {
    const args: Ast[] = [];
    if (this.#eat('(')) {
      do args.push(this.pipe());
      while (this.#eat(';'));
      this.#expect(')');
    }
    const arities = builtinArities(name);
    if (arities === undefined || !arities.includes(args.length))
      throw new Outside(`the function \`${name}/${args.length}\``, start);
    return { kind: 'call', name, args };
  }

  #if(): Ast {
    const condition = this.pipe();
    if (!this.#keyword('then')) throw new Outside('`if` without `then`', this.at);
    const then = this.pipe();
    let otherwise: Ast | undefined;
    if (this.#keyword('elif')) otherwise = this.#if();
    else {
      if (this.#keyword('else')) otherwise = this.pipe();
      if (!this.#keyword('end')) throw new Outside('`if` without `end`', this.at);
    }
    return { kind: 'if', condition, then, otherwise };
  }

  #fold(word: 'reduce' | 'foreach', offset: number): Ast {
    const source = this.#postfix(false);
    if (!this.#keyword('as')) throw new Outside(`\`${word}\` without \`as\``, this.at);
    const { name } = this.#variableName();
    this.#expect('(');
    const init = this.pipe();
    this.#expect(';');
    return this.#scoped(name, (slot) => {
      const update = this.pipe();
      if (word === 'reduce') {
        this.#expect(')');
        return { kind: 'reduce', source, slot, init, update, offset };
      }
      const extract = this.#eat(';') ? this.pipe() : undefined;
      this.#expect(')');
      return { kind: 'foreach', source, slot, init, update, extract };
    });
  }

  #variable(): Ast {
    const start = this.at;
    this.at += 1;
    const name = this.#word();
    if (name === 'ENV') return { kind: 'env' };
    const bound = this.#scope.findLast((entry) => entry.name === name);
    if (bound === undefined) throw new Outside(`the variable \`$${name ?? ''}\``, start);
    return { kind: 'variable', slot: bound.slot };
  }

  #object(): Ast {
    this.#expect('{');
    const entries: { key: Ast; value: Ast }[] = [];
    if (this.#eat('}')) return { kind: 'object', entries };
    do entries.push(this.#entry());
    while (this.#eat(','));
    this.#expect('}');
    return { kind: 'object', entries };
  }

  #entry(): { key: Ast; value: Ast } {
    this.skipSpace();
    const start = this.at;
    const char = this.source[this.at];
    let key: Ast;
    let shorthand: Ast;
    if (char === '$') {
      const variable = this.#variable();
      if (variable.kind === 'env') throw new Outside('`{$ENV}`', start);
      const name = this.source.slice(start + 1, this.at).trim();
      key = { kind: 'literal', value: name };
      shorthand = variable;
    } else if (char === '"') {
      key = this.#string();
      shorthand = { kind: 'index', target: { kind: 'identity' }, key };
    } else if (char === '(') {
      this.at += 1;
      key = this.pipe();
      this.#expect(')');
      // jq refuses a constant key that is not a string when it compiles the program
      if (key.kind === 'literal' && typeof key.value !== 'string')
        throw new Outside('a key that is not a string', start);
      shorthand = key; // never used: a computed key needs a value
    } else if (char === '@') throw new Outside('a format string (`@…`)', start);
    else {
      const word = this.#word();
      if (word === undefined) throw new Outside(`\`${char ?? 'the end'}\``, start);
      key = { kind: 'literal', value: word };
      shorthand = { kind: 'index', target: { kind: 'identity' }, key };
    }
    if (!this.#eat(':')) {
      if (char === '(') throw new Outside('`{(…)}` without a value', start);
      return { key, value: shorthand };
    }
    return { key, value: this.#objectValue() };
  }

  /** jq's ObjVal: postfix terms joined by `|`, each maybe negated (`{a: 1 + 2}` is not jq). */
  #objectValue(): Ast {
    const negated = this.#peek('-') ? (this.at++, true) : false;
    const term = this.#postfix();
    const left: Ast = negated ? { kind: 'negate', operand: term } : term;
    if (this.#peek('|=')) throw new Outside('assignment `|=`', this.at);
    if (this.#eat('|')) return { kind: 'pipe', left, right: this.#objectValue() };
    return left;
  }

  #number(): Ast {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.source);
    if (match === null) throw new Outside('a number', this.at);
    const text = match[0];
    const start = this.at;
    this.at += text.length;
    const value = Number(text);
    if (INTEGER.test(text) && !Number.isSafeInteger(value)) return literal(BigInt(text));
    // jq keeps a number's text and prints `1.0` as `1.0`; only JavaScript's own spelling prints the same
    if (String(value) !== text) throw new Outside(`the number \`${text}\` (jq keeps its spelling)`, start);
    return literal(value);
  }

  /** A string literal, with its `\(…)` interpolations. */
  #string(): Ast {
    this.skipSpace();
    this.#expect('"');
    const parts: (string | Ast)[] = [];
    let text = '';
    for (;;) {
      const char = this.source[this.at];
      if (char === undefined) throw new Outside('an unterminated string', this.at);
      this.at += 1;
      if (char === '"') break;
      if (char !== '\\') {
        text += char;
        continue;
      }
      const escape = this.source[this.at];
      this.at += 1;
      if (escape === '(') {
        parts.push(wellFormed(text));
        text = '';
        parts.push(this.pipe());
        this.#expect(')');
      } else if (escape === 'u') {
        const hex = this.source.slice(this.at, this.at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Outside('a `\\u` escape', this.at - 2);
        text += String.fromCharCode(parseInt(hex, 16));
        this.at += 4;
      } else {
        const simple = ESCAPES[escape ?? ''];
        if (simple === undefined) throw new Outside(`the escape \`\\${escape ?? ''}\``, this.at - 2);
        text += simple;
      }
    }
    parts.push(wellFormed(text));
    const strings = parts.filter((part) => part !== '');
    if (strings.length === 0) return literal('');
    if (strings.length === 1 && typeof strings[0] === 'string') return literal(strings[0]);
    return { kind: 'string', parts };
  }
}

const ESCAPES: Record<string, string> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
}; // prettier-ignore

/** `t?`: an index, slice or iteration step made optional (jq's `Term FIELD '?'` rules), else `try t`. */
function optional(term: Ast): Ast {
  if ((term.kind === 'index' || term.kind === 'slice' || term.kind === 'iterate') && term.optional !== true)
    return { ...term, optional: true };
  return { kind: 'try', body: term, handler: undefined };
}

function binary(operator: BinaryOperator, left: Ast, right: Ast): Ast {
  return { kind: 'binary', operator, left, right };
}

function literal(value: JsonValue): Ast {
  return { kind: 'literal', value };
}

/** Line and column (from 1) of an offset, for a reason. */
export function lineColumn(source: string, offset: number): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
