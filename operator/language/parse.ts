// The language's entry points: a script becomes statements, an expression becomes an Expr tree. Bad
// input gives diagnostics, never an exception.
import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import type { Expr } from '../../dataplane/graph/expression.js';
import { parse } from './grammar.generated.js';
import type { Statement } from './ast.js';
import type { RawStatement } from './raw-syntax.js';
import { findTooDeep, TOO_DEEP_MESSAGE } from './measure-nesting.js';
import { resolveStatement, type Locate } from './resolve-statement.js';
import {
  findUnclosed,
  firstTokenOffset,
  splitStatements,
  UNCLOSED_MESSAGES,
  type Segment,
} from './split-statements.js';
import { isPeggySyntaxError, STATEMENT_KEYWORDS, syntaxErrorToDiagnostic } from './syntax-error.js';
import { lineStarts, positionAt, shiftPosition, withFile } from './text-positions.js';

/** A lone CR (old Mac line ends) is a line end; CRLF is left alone. */
const LONE_CR = /\r(?!\n)/g;

export interface ExpressionResult {
  expr?: Expr;
  diagnostics: Diagnostic[];
}

/**
 * Parses expression text (as stored in a resource spec). Locations are 1-based and relative to the text;
 * node spans are 0-based offsets into it.
 */
export function parseExpression(text: string): ExpressionResult {
  const unclosed = findUnclosed(text);
  if (unclosed !== undefined && unclosed.what !== 'jaq') {
    const { line, column } = unclosed.at;
    return { diagnostics: [failure('SR1015', UNCLOSED_MESSAGES[unclosed.what], { line, column })] };
  }
  if (findTooDeep(text) !== undefined) {
    return { diagnostics: [failure('SR1015', TOO_DEEP_MESSAGE, startOf(text))] };
  }
  try {
    return { expr: parse(text, { startRule: 'Expression' }) as Expr, diagnostics: [] };
  } catch (error: unknown) {
    return {
      diagnostics: [
        isPeggySyntaxError(error)
          ? syntaxErrorToDiagnostic(error, { text, locate: (position) => position, code: 'SR1015' })
          : failure('SR1015', unreadable(error, 'the expression'), startOf(text)),
      ],
    };
  }
}

function failure(code: Diagnostic['code'], message: string, location: SourceLocation): Diagnostic {
  return { code, severity: 'error', message, location };
}

export interface ScriptResult {
  statements: Statement[];
  diagnostics: Diagnostic[];
}

/**
 * Parses a script. Statements are separated by `;` (the last one is optional). A script with a syntax
 * error is parsed again statement by statement, so every statement's errors are reported; a statement
 * with a syntax error, or nested too deeply to parse, is left out. A lone CR ends a line, as LF does.
 */
export function parseScript(source: string, file?: string): ScriptResult {
  const text = source.replaceAll(LONE_CR, '\n');
  const whole = findTooDeep(text) === undefined ? parseOnce(text) : undefined;
  const raws: { raw: RawStatement; locate: Locate }[] = [];
  const diagnostics: Diagnostic[] = [];
  if (whole !== undefined) {
    // The common case, and about four times faster than one parser run per statement.
    const locate: Locate = (position) => withFile({ line: position.line, column: position.column }, file);
    raws.push(...whole.map((raw) => ({ raw, locate })));
  } else {
    for (const segment of segmentsOf(text, file, diagnostics)) {
      const locate: Locate = (position) => shiftPosition(segment.start, position, file);
      if (findTooDeep(segment.text) === undefined) {
        raws.push(...parseSegment(segment, locate, diagnostics).map((raw) => ({ raw, locate })));
      } else {
        diagnostics.push(failure('SR1001', TOO_DEEP_MESSAGE, locate(startOf(segment.text))));
      }
    }
  }
  const statements: Statement[] = [];
  for (const { raw, locate } of raws) {
    const resolved = resolveStatement(raw, locate);
    statements.push(resolved.statement);
    diagnostics.push(...resolved.diagnostics);
  }
  return { statements, diagnostics: sortByPlace(diagnostics) };
}

/**
 * Whether the first token that is not a comment (`--`, `/* *\/`) is a statement keyword; undefined when
 * the text holds nothing but blanks and comments. (How the CLI tells statements from YAML on stdin.)
 */
export function startsWithStatement(source: string): boolean | undefined {
  const text = source.replaceAll(LONE_CR, '\n');
  const start = firstTokenOffset(text);
  if (start >= text.length) return undefined;
  // A word followed by what can follow a keyword (so `create: x`, a YAML key, is not one).
  const word = /^([A-Za-z]+)(?=\s|;|--|\/\*|$)/.exec(text.slice(start, start + 16))?.[1] ?? '';
  return (STATEMENT_KEYWORDS as readonly string[]).includes(word.toUpperCase());
}

function parseOnce(text: string): RawStatement[] | undefined {
  try {
    return parse(text, { startRule: 'Script' }) as RawStatement[];
  } catch {
    return undefined;
  }
}

/** The statements to parse one by one; a string, program or comment that never closes ends them. */
function segmentsOf(text: string, file: string | undefined, diagnostics: Diagnostic[]): Segment[] {
  const { segments, unclosed } = splitStatements(text);
  if (unclosed === undefined) return segments;
  const { line, column } = unclosed.at;
  diagnostics.push(failure('SR1001', UNCLOSED_MESSAGES[unclosed.what], withFile({ line, column }, file)));
  return segments.slice(0, -1);
}

/**
 * A statement is parsed with the `;` that ends it, so an error where the statement stops reads
 * "found ';'" at that `;`, and "found end of input" only where the script really ends.
 */
function parseSegment(segment: Segment, locate: Locate, diagnostics: Diagnostic[]): RawStatement[] {
  const text = segment.terminated ? `${segment.text};` : segment.text;
  try {
    return parse(text, { startRule: 'Script' }) as RawStatement[];
  } catch (error: unknown) {
    diagnostics.push(
      isPeggySyntaxError(error)
        ? syntaxErrorToDiagnostic(error, { text, locate })
        : failure('SR1001', unreadable(error, 'the statement'), locate(startOf(text))),
    );
    return [];
  }
}

/** Where the text really starts: its first character that is not blank or a comment. */
function startOf(text: string): { line: number; column: number } {
  const { line, column } = positionAt(lineStarts(text), firstTokenOffset(text));
  return { line, column };
}

/** The parser fails only with a syntax error, or by running out of stack on input nested too deeply. */
function unreadable(error: unknown, what: string): string {
  return error instanceof RangeError ? TOO_DEEP_MESSAGE : `${what} could not be read`;
}

/** In the order of the text (a stable sort: diagnostics at one place keep their order). */
function sortByPlace(diagnostics: Diagnostic[]): Diagnostic[] {
  const place = (diagnostic: Diagnostic) => diagnostic.location ?? { line: 0, column: 0 };
  return diagnostics.sort((a, b) => place(a).line - place(b).line || place(a).column - place(b).column);
}
