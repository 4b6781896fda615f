// Just enough of jq's syntax to find, conservatively, the object keys a program's last stage sets to
// something that is plainly null: `key: null`, `key: … // null`, or an `if … end` with a null branch.
// Anything the outline does not recognise is left alone (no finding), never guessed at.

/** Keys of top-level object constructions in the last pipeline stage, with why each may be null. */
export function nullableOutputKeys(program: string): { key: string; why: string }[] {
  const stages = splitTop(stripComments(program), { separator: '|' });
  const last = stages[stages.length - 1]?.trim() ?? '';
  const found: { key: string; why: string }[] = [];
  for (const output of splitTop(last, { separator: ',' })) {
    const inner = enclosed(output.trim(), '{', '}');
    if (inner === undefined) continue;
    for (const entry of splitTop(inner, { separator: ',' })) {
      const [rawKey, ...rest] = splitTop(entry, { separator: ':' });
      const key = rawKey === undefined ? undefined : keyName(rawKey.trim());
      const why = rest.length > 0 ? nullReason(rest.join(':').trim()) : undefined;
      if (key !== undefined && why !== undefined) found.push({ key, why });
    }
  }
  return found;
}

function nullReason(value: string): string | undefined {
  if (value === 'null') return 'null';
  const alternatives = splitTop(value, { separator: '//' });
  if (alternatives.length > 1 && alternatives[alternatives.length - 1]?.trim() === 'null') return '… // null';
  const grouped = enclosed(value, '(', ')');
  if (grouped !== undefined) return nullReason(grouped.trim());
  const body = /^if\b([\s\S]*)\bend$/.exec(value)?.[1];
  if (body === undefined) return undefined;
  const parts = splitTop(body, { keywords: ['then', 'elif', 'else'] });
  // parts: condition, then-branch, [elif-condition, then-branch]…, [else-branch]
  const branches = parts.filter((_, index) => index % 2 === 1 || index === parts.length - 1);
  return parts.length > 1 && branches.some((branch) => nullReason(branch.trim()) !== undefined)
    ? 'if … null … end'
    : undefined;
}

function keyName(raw: string): string | undefined {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw)) return raw;
  const quoted = /^"((?:[^"\\]|\\[^(])*)"$/.exec(raw)?.[1];
  return quoted === undefined ? undefined : quoted.replace(/\\(.)/g, '$1');
}

/** The text between `open` at the start and its matching `close` at the very end, else undefined. */
function enclosed(text: string, open: string, close: string): string | undefined {
  if (!text.startsWith(open) || !text.endsWith(close)) return undefined;
  const inner = text.slice(1, -1);
  // The opening bracket closes at the end exactly when the inner text is itself balanced.
  return balanced(inner) ? inner : undefined;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const token of tokens(text)) {
    depth += token.depthChange;
    if (depth < 0) return false;
  }
  return depth === 0;
}

type Split = { separator: string } | { keywords: readonly string[] };

/** Splits at a separator or keyword that stands outside brackets, strings and `if … end` blocks. */
export function splitTop(text: string, split: Split): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (const token of tokens(text)) {
    if (depth === 0 && token.depthChange <= 0 && matches(token.text, split)) {
      parts.push(text.slice(start, token.at));
      start = token.at + token.text.length;
    }
    depth += token.depthChange;
  }
  parts.push(text.slice(start));
  return parts;
}

function matches(token: string, split: Split): boolean {
  return 'separator' in split ? token === split.separator : split.keywords.includes(token);
}

interface Token {
  at: number;
  text: string;
  depthChange: number;
}

const OPENERS = new Set(['(', '[', '{', 'if']);
const CLOSERS = new Set([')', ']', '}', 'end']);
const OPERATORS = ['//=', '|=', '//', '|', ',', ':'];

/** Words, operators and brackets outside string literals. */
function* tokens(text: string): Generator<Token> {
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (char === '"') {
      i = skipString(text, i);
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 64))?.[0];
    if (word !== undefined) {
      const previous = text[i - 1] ?? '';
      const keyword = previous !== '.' && previous !== '$' ? word : '';
      yield { at: i, text: word, depthChange: OPENERS.has(keyword) ? 1 : CLOSERS.has(keyword) ? -1 : 0 };
      i += word.length;
      continue;
    }
    const operator = OPERATORS.find((op) => text.startsWith(op, i)) ?? char;
    yield { at: i, text: operator, depthChange: OPENERS.has(operator) ? 1 : CLOSERS.has(operator) ? -1 : 0 };
    i += operator.length;
  }
}

/** Index just past the string starting at `start`, stepping over escapes and `\( … )` interpolations. */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') {
    if (text.startsWith('\\(', i)) i = skipInterpolation(text, i + 2);
    else i += text[i] === '\\' ? 2 : 1;
  }
  return i + 1;
}

/** Index just past the `)` that closes an interpolation whose code starts at `start`. */
function skipInterpolation(text: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < text.length && depth > 0) {
    const char = text[i];
    if (char === '"') {
      i = skipString(text, i);
      continue;
    }
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    i += 1;
  }
  return i;
}

function stripComments(program: string): string {
  let out = '';
  let i = 0;
  while (i < program.length) {
    if (program[i] === '"') {
      const end = skipString(program, i);
      out += program.slice(i, end);
      i = end;
    } else if (program[i] === '#') {
      while (i < program.length && program[i] !== '\n') i += 1;
    } else {
      out += program[i] ?? '';
      i += 1;
    }
  }
  return out;
}
