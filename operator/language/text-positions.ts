// Offsets in a text ↔ the 1-based line and column a diagnostic shows. The one place that counts lines:
// statements (split-statements.ts, parse.ts) and YAML input (yaml-input.ts) both use it. A line ends at
// `\n`; parse.ts turns a lone `\r` into `\n` before anything is counted.
import type { SourceLocation } from '../diagnostics/diagnostic.js';

export interface Position {
  /** 0-based offset into the whole text. */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** The offset where each line starts. */
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

/** The offset of a 1-based line and column (clamped to the text). */
export function offsetAt(lines: readonly number[], position: { line: number; column: number }): number {
  const start = lines[Math.min(position.line, lines.length) - 1] ?? 0;
  return start + position.column - 1;
}

/** Where an offset of `text` is, as a diagnostic location. */
export function locationAt(text: string, offset: number, file?: string): SourceLocation {
  const { line, column } = positionAt(lineStarts(text), offset);
  return withFile({ line, column }, file);
}

/** Turns a 1-based line/column inside a piece of text that starts at `start` into one in the whole. */
export function shiftPosition(
  start: Pick<Position, 'line' | 'column'>,
  inner: { line: number; column: number },
  file: string | undefined,
): SourceLocation {
  const line = start.line + inner.line - 1;
  const column = inner.line === 1 ? start.column + inner.column - 1 : inner.column;
  return withFile({ line, column }, file);
}

export function withFile(location: SourceLocation, file: string | undefined): SourceLocation {
  return file === undefined ? location : { file, ...location };
}
