// Cuts a script into statements at top-level `;` before parsing, so one bad statement cannot hide the
// errors of the ones after it. Quoted strings, `$jaq$` programs and comments may hold `;`, so they are
// skipped whole; one that never closes swallows the rest of the text and is reported where it opened.
import { lineStarts, positionAt, type Position } from './text-positions.js';

export interface Segment {
  /** The statement text, without its `;`. */
  text: string;
  /** Where `text` starts in the whole script. */
  start: Position;
  /** Whether a `;` ends the statement (rather than the end of the script). */
  terminated: boolean;
}

export type Unclosed = 'string' | 'jaq' | 'comment';

export interface SplitResult {
  segments: Segment[];
  /** A string, program or comment that never closes; it lies inside the last segment. */
  unclosed?: { what: Unclosed; at: Position };
}

const JAQ = '$jaq$';
/** What the grammar skips as whitespace. */
export const BLANKS = ' \t\r\n\f\uFEFF';

/** Where a token starting at `offset` ends, or -1 when it never closes; undefined when none starts there. */
export function skipToken(text: string, offset: number): { end: number; what: Unclosed } | undefined {
  const char = text[offset];
  if (char === "'") return { end: closeQuote(text, offset + 1), what: 'string' };
  if (text.startsWith(JAQ, offset)) {
    const close = text.indexOf(JAQ, offset + JAQ.length);
    return { end: close < 0 ? -1 : close + JAQ.length, what: 'jaq' };
  }
  if (text.startsWith('--', offset)) {
    const newline = text.indexOf('\n', offset);
    return { end: newline < 0 ? text.length : newline, what: 'comment' };
  }
  if (text.startsWith('/*', offset)) {
    const close = text.indexOf('*/', offset + 2);
    return { end: close < 0 ? -1 : close + 2, what: 'comment' };
  }
  return undefined;
}

/** `''` inside a string is an escaped quote, so it does not close the string. */
function closeQuote(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] !== "'") continue;
    if (text[index + 1] === "'") index++;
    else return index + 1;
  }
  return -1;
}

export function splitStatements(text: string): SplitResult {
  const lines = lineStarts(text);
  const segments: Segment[] = [];
  let start = 0;
  let offset = 0;
  while (offset < text.length) {
    const token = skipToken(text, offset);
    if (token !== undefined && token.end < 0) {
      segments.push({ text: text.slice(start), start: positionAt(lines, start), terminated: false });
      return { segments, unclosed: { what: token.what, at: positionAt(lines, offset) } };
    }
    if (token !== undefined) {
      offset = token.end;
    } else if (text[offset] === ';') {
      segments.push({ text: text.slice(start, offset), start: positionAt(lines, start), terminated: true });
      start = offset + 1;
      offset = start;
    } else {
      offset++;
    }
  }
  // The last `;` is optional: trailing text is a statement too (or only blanks and comments).
  segments.push({ text: text.slice(start), start: positionAt(lines, start), terminated: false });
  return { segments };
}

/**
 * The offset of the first character that is neither blank nor inside a comment (the text's length when
 * there is none): where a statement really starts.
 */
export function firstTokenOffset(text: string): number {
  let offset = 0;
  while (offset < text.length) {
    if (BLANKS.includes(text.charAt(offset))) {
      offset++;
      continue;
    }
    const token = skipToken(text, offset);
    if (token?.what !== 'comment') return offset;
    if (token.end < 0) return text.length;
    offset = token.end;
  }
  return offset;
}

/** Finds a string, program or comment that never closes (for a lone expression). */
export function findUnclosed(text: string): SplitResult['unclosed'] {
  return splitStatements(text).unclosed;
}

export const UNCLOSED_MESSAGES: Record<Unclosed, string> = {
  string: "this string has no closing ' (write '' for a quote inside a string)",
  jaq: 'this $jaq$ program has no closing $jaq$',
  comment: 'this /* comment has no closing */',
};
