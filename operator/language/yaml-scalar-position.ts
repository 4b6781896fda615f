// Where a place inside a YAML scalar's string value is written in the file, so that a diagnostic about
// expression text (SR1015) can point into the text rather than at its field. Exact only where the value
// is written as it is: a plain or quoted scalar on one line without escapes, or a literal block (`|`).
// Folded, escaped or multi-line flow text has no simple mapping, and the caller points at the value.
import type { Scalar } from 'yaml';
import { lineStarts, offsetAt } from './text-positions.js';

/**
 * The offset in `file` (the whole YAML text) of line and column `inner` (1-based) of the scalar's value,
 * or undefined when the value is not written there unchanged.
 */
export function offsetInScalar(
  file: string,
  node: Scalar,
  inner: { line: number; column: number },
): number | undefined {
  if (!node.range || typeof node.value !== 'string') return undefined;
  const [start, end] = node.range;
  const lineStart = valueLineStart(node.type, file.slice(start, end), inner.line);
  if (lineStart === undefined) return undefined;
  const value = node.value;
  const lineText = value
    .slice(offsetAt(lineStarts(value), { line: inner.line, column: 1 }))
    .split('\n', 1)[0];
  // Only when the whole line of the value is written there, character for character.
  if (!file.startsWith(lineText ?? '', start + lineStart)) return undefined;
  return start + lineStart + inner.column - 1;
}

/** Where a line of the value would start inside the scalar's own source, by how the scalar is written. */
function valueLineStart(type: Scalar['type'], source: string, line: number): number | undefined {
  if (type === 'BLOCK_LITERAL') return blockLineStart(source, line);
  const quote = type === 'QUOTE_SINGLE' || type === 'QUOTE_DOUBLE' ? 1 : 0;
  return line === 1 && (quote === 1 || type === 'PLAIN') ? quote : undefined;
}

/** A literal block: `|` and its header line, then every line of the value with the same indentation. */
function blockLineStart(source: string, line: number): number | undefined {
  const body = source.indexOf('\n') + 1;
  if (body === 0) return undefined;
  const indent = /^ */.exec(source.slice(body))?.[0].length ?? 0;
  const start = lineStarts(source.slice(body))[line - 1];
  return start === undefined ? undefined : body + start + indent;
}
