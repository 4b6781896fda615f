// The language's entry points: a script becomes statements, an expression becomes an Expr tree. Bad
// input gives diagnostics, never an exception.
import type { Diagnostic, SourceLocation } from '../compiler/diagnostic.js';
import type { Expr } from '../../dataplane/graph/expression.js';
import { parse } from './grammar.generated.js';
import type { Statement } from './ast.js';
import type { RawStatement } from './raw-syntax.js';
import { resolveStatement, type Locate } from './resolve-statement.js';
import {
  findUnclosed,
  shiftPosition,
  splitStatements,
  UNCLOSED_MESSAGES,
  type Segment,
} from './split-statements.js';
import { isPeggySyntaxError, syntaxErrorToDiagnostic } from './syntax-error.js';

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
  if (unclosed?.what === 'string') {
    const { line, column } = unclosed.at;
    return { diagnostics: [failure('SR1015', UNCLOSED_MESSAGES.string, { line, column })] };
  }
  try {
    return { expr: parse(text, { startRule: 'Expression' }) as Expr, diagnostics: [] };
  } catch (error: unknown) {
    return {
      diagnostics: [
        isPeggySyntaxError(error)
          ? syntaxErrorToDiagnostic(error, { text, locate: (position) => position, code: 'SR1015' })
          : failure('SR1015', 'the expression could not be read', { line: 1, column: 1 }),
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
 * with a syntax error is left out.
 */
export function parseScript(text: string, file?: string): ScriptResult {
  const whole = parseOnce(text);
  const raws: { raw: RawStatement; locate: Locate }[] = [];
  const diagnostics: Diagnostic[] = [];
  if (whole !== undefined) {
    // The common case, and about four times faster than one parser run per statement.
    const locate: Locate = (position) => withFile({ line: position.line, column: position.column }, file);
    raws.push(...whole.map((raw) => ({ raw, locate })));
  } else {
    for (const segment of segmentsOf(text, file, diagnostics)) {
      const locate: Locate = (position) => shiftPosition(segment.start, position, file);
      raws.push(...parseSegment(segment.text, locate, diagnostics).map((raw) => ({ raw, locate })));
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

function parseSegment(text: string, locate: Locate, diagnostics: Diagnostic[]): RawStatement[] {
  try {
    return parse(text, { startRule: 'Script' }) as RawStatement[];
  } catch (error: unknown) {
    diagnostics.push(
      isPeggySyntaxError(error)
        ? syntaxErrorToDiagnostic(error, { text, locate })
        : failure('SR1001', 'the statement could not be read', locate({ line: 1, column: 1 })),
    );
    return [];
  }
}

/** In the order of the text (a stable sort: diagnostics at one place keep their order). */
function sortByPlace(diagnostics: Diagnostic[]): Diagnostic[] {
  const place = (diagnostic: Diagnostic) => diagnostic.location ?? { line: 0, column: 0 };
  return diagnostics.sort((a, b) => place(a).line - place(b).line || place(a).column - place(b).column);
}

function withFile(location: SourceLocation, file: string | undefined): SourceLocation {
  return file === undefined ? location : { file, ...location };
}
