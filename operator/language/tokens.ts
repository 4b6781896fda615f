// The tokens of statement text as a user sees them: words, strings, `$jaq$` programs, two-character
// operators and single characters, with blanks and comments between them. syntax-error.ts uses them to
// place an error that the parser found at the end of the input; the generated syntax-error tests use
// them to check that every error points at the start of one.
import { BLANKS, skipToken } from './split-statements.js';

export interface Token {
  /** 0-based offset of the first character. */
  start: number;
  /** Offset just after the last character. */
  end: number;
}

const WORD = /[A-Za-z0-9_]/;
const OPERATORS = ['<=', '>=', '!=', '||'];

/** The end of the token that starts at `offset` (which is neither blank nor a comment). */
function tokenEnd(text: string, offset: number): number {
  const quoted = skipToken(text, offset);
  if (quoted !== undefined) return quoted.end < 0 ? text.length : quoted.end;
  if (WORD.test(text.charAt(offset))) {
    let end = offset + 1;
    while (end < text.length && WORD.test(text.charAt(end))) end++;
    return end;
  }
  if (OPERATORS.some((operator) => text.startsWith(operator, offset))) return offset + 2;
  return offset + String.fromCodePoint(text.codePointAt(offset) ?? 0).length;
}

/** Every token of `text`, in order; comments and blanks are not tokens. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  while (offset < text.length) {
    if (BLANKS.includes(text.charAt(offset))) {
      offset++;
      continue;
    }
    // A `/*` that never closes is no comment: the parser stops at it.
    const skipped = skipToken(text, offset);
    if (skipped?.what === 'comment' && skipped.end >= 0) {
      offset = skipped.end;
      continue;
    }
    const end = tokenEnd(text, offset);
    tokens.push({ start: offset, end });
    offset = end;
  }
  return tokens;
}

/** The end of the last token that starts before `offset` (0 when there is none). */
export function endOfTokensBefore(text: string, offset: number): number {
  let end = 0;
  for (const token of tokenize(text)) {
    if (token.start >= offset) break;
    end = token.end;
  }
  return end;
}
