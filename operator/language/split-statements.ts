// Cuts a script into statements at top-level `;` before parsing, so one bad statement cannot hide the
// errors of the ones after it. Quoted strings, `$jaq$` programs and comments may hold `;`, so they are
// skipped whole; one that never closes swallows the rest of the text and is reported where it opened.
import type { SourceLocation } from '../compiler/diagnostic.js';

export interface Position {
  /** 0-based offset into the whole text. */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface Segment {
  /** The statement text, without its `;`. */
  text: string;
  /** Where `text` starts in the whole script. */
  start: Position;
}

export type Unclosed = 'string' | 'jaq' | 'comment';

export interface SplitResult {
  segments: Segment[];
  /** A string, program or comment that never closes; it lies inside the last segment. */
  unclosed?: { what: Unclosed; at: Position };
}

const JAQ = '$jaq$';

/** Where a token starting at `offset` ends, or -1 when it never closes; undefined when none starts there. */
function skipToken(text: string, offset: number): { end: number; what: Unclosed } | undefined {
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
      segments.push({ text: text.slice(start), start: positionAt(lines, start) });
      return { segments, unclosed: { what: token.what, at: positionAt(lines, offset) } };
    }
    if (token !== undefined) {
      offset = token.end;
    } else if (text[offset] === ';') {
      segments.push({ text: text.slice(start, offset), start: positionAt(lines, start) });
      start = offset + 1;
      offset = start;
    } else {
      offset++;
    }
  }
  // The last `;` is optional: trailing text is a statement too (or only blanks and comments).
  segments.push({ text: text.slice(start), start: positionAt(lines, start) });
  return { segments };
}

/** Finds a string, program or comment that never closes (for a lone expression). */
export function findUnclosed(text: string): SplitResult['unclosed'] {
  return splitStatements(text).unclosed;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
    starts.push(index + 1);
  }
  return starts;
}

export function positionAt(lines: readonly number[], offset: number): Position {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((lines[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return { offset, line: low + 1, column: offset - (lines[low] ?? 0) + 1 };
}

/** Turns a 1-based line/column inside a segment into one inside the whole script. */
export function shiftPosition(
  start: Pick<Position, 'line' | 'column'>,
  inner: { line: number; column: number },
  file: string | undefined,
): SourceLocation {
  const line = start.line + inner.line - 1;
  const column = inner.line === 1 ? start.column + inner.column - 1 : inner.column;
  return file === undefined ? { line, column } : { file, line, column };
}

export const UNCLOSED_MESSAGES: Record<Unclosed, string> = {
  string: "this string has no closing ' (write '' for a quote inside a string)",
  jaq: 'this $jaq$ program has no closing $jaq$',
  comment: 'this /* comment has no closing */',
};
