// Where a JSON text (RFC 8259) goes wrong, and how deep it nests. `JSON.parse` decides whether a payload
// is JSON (fast, native); it says neither where nor why in a form we may quote (V8's messages include
// payload text), so on failure this small state machine walks the text again to find the offset and
// what was expected there. The depth scan runs on valid text only and skips string contents.

export interface JsonProblem {
  offset: number;
  expected: string;
}

type State = 'value' | 'key' | 'after';

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERALS = ['true', 'false', 'null'];
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class Scanner {
  at = 0;
  problem: JsonProblem | undefined;
  private readonly closers: string[] = [];

  constructor(private readonly text: string) {}

  run(): JsonProblem {
    let state: State | undefined = 'value';
    while (state !== undefined && this.problem === undefined) {
      this.skipSpace();
      state = state === 'value' ? this.value() : state === 'key' ? this.key() : this.after();
    }
    return this.problem ?? { offset: this.text.length, expected: 'a JSON text' };
  }

  private value(): State | undefined {
    const char = this.text[this.at];
    if (char === '{' || char === '[') {
      this.closers.push(char === '{' ? '}' : ']');
      this.at += 1;
      this.skipSpace();
      if (this.text[this.at] !== this.closers.at(-1)) return char === '{' ? 'key' : 'value';
      this.closers.pop();
      this.at += 1;
      return 'after';
    }
    if (char === '"') return this.string() ? 'after' : undefined;
    return this.scalar() ? 'after' : undefined;
  }

  private key(): State | undefined {
    if (this.text[this.at] !== '"') return this.expect('a key (a string in double quotes)');
    if (!this.string()) return undefined;
    this.skipSpace();
    if (this.text[this.at] !== ':') return this.expect("':' after the key");
    this.at += 1;
    return 'value';
  }

  private after(): State | undefined {
    const closer = this.closers.at(-1);
    const char = this.text[this.at];
    if (closer === undefined)
      return this.at < this.text.length ? this.expect('the end of the payload') : undefined;
    if (char === closer) {
      this.closers.pop();
      this.at += 1;
      return 'after';
    }
    if (char !== ',') return this.expect(`',' or '${closer}'`);
    this.at += 1;
    return closer === '}' ? 'key' : 'value';
  }

  private scalar(): boolean {
    const literal = LITERALS.find((word) => this.text.startsWith(word, this.at));
    if (literal !== undefined) {
      this.at += literal.length;
      return true;
    }
    NUMBER.lastIndex = this.at;
    if (!NUMBER.test(this.text)) return this.miss('a value');
    this.at = NUMBER.lastIndex;
    return true;
  }

  /** A string from its opening quote; false (with a problem) when it is not well-formed. */
  private string(): boolean {
    for (this.at += 1; this.at < this.text.length; this.at += 1) {
      const code = this.text.charCodeAt(this.at);
      if (code === QUOTE) {
        this.at += 1;
        return true;
      }
      if (code < 0x20) return this.miss('a control character to be escaped');
      if (code === BACKSLASH && !this.escape()) return false;
    }
    return this.miss('a closing quote');
  }

  private escape(): boolean {
    const next = this.text[this.at + 1] ?? '';
    if ('"\\/bfnrt'.includes(next) && next !== '') {
      this.at += 1;
      return true;
    }
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) {
      this.at += 5;
      return true;
    }
    return this.miss('a valid escape sequence');
  }

  private skipSpace(): void {
    while (' \t\n\r'.includes(this.text[this.at] ?? 'x')) this.at += 1;
  }

  /** Records the problem and ends the walk (as a state function). */
  private expect(expected: string): undefined {
    this.problem = { offset: this.at, expected };
    return undefined;
  }

  /** Records the problem and ends the walk (as a token function). */
  private miss(expected: string): false {
    this.expect(expected);
    return false;
  }
}

/** The first syntax problem of a text that is not JSON (call it after JSON.parse has refused the text). */
export function jsonProblem(text: string): JsonProblem {
  return new Scanner(text).run();
}

/** Offset of the first `[` or `{` that opens nesting deeper than `max` in valid JSON text; -1 if none. */
export function tooDeepOffset(text: string, max: number): number {
  let depth = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = closingQuote(text, at);
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth += 1;
      if (depth > max) return at;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth -= 1;
    }
  }
  return -1;
}

/** Offset of the quote that closes the string opening at `at` (valid JSON text). */
function closingQuote(text: string, at: number): number {
  let end = at + 1;
  for (let code = text.charCodeAt(end); code !== QUOTE; code = text.charCodeAt(end)) {
    end += code === BACKSLASH ? 2 : 1;
  }
  return end;
}
