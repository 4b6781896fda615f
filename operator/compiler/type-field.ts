// One expression field (a SET value, CORRELATE WHERE): parsed, typed against its scopes, and every
// problem reported at the field with where inside its text the fault is (`within`), so that a statement
// diagnostic points at `input.nope` rather than at the start of the expression.
import type { Diagnostic, ObjectKey } from '../diagnostics/diagnostic.js';
import { positionIn } from '../diagnostics/diagnostic.js';
import type { CompileContext } from './context.js';
import { typeExpression, type Scopes, type TypedExpression } from './type-expression.js';

export interface ExpressionField {
  path: string;
  text: string;
  /** What the messages start with: `route 1 of HttpIngestor in, SET note`. */
  subject: string;
}

/** The typed expression, kept for lowering; undefined when the text does not parse (SR1015). */
export function typeField(
  ctx: CompileContext,
  key: ObjectKey,
  field: ExpressionField,
  scopes: Scopes,
): TypedExpression | undefined {
  const report = (code: Diagnostic['code'], message: string, within: Diagnostic['within']): void => {
    const diagnostic: Diagnostic = { code, severity: 'error', message, object: key, path: field.path };
    if (within !== undefined) diagnostic.within = within;
    ctx.add(diagnostic);
  };
  const parsed = ctx.parse(field.text);
  if (parsed.expr === undefined) {
    const why = parsed.diagnostics.map((d) => d.message).join('; ');
    const first = parsed.diagnostics[0]?.location;
    report(
      'SR1015',
      `${field.subject}: the expression does not parse: ${why}`,
      first && {
        line: first.line,
        column: first.column,
      },
    );
    return undefined;
  }
  const typed = typeExpression(parsed.expr, scopes);
  for (const problem of typed.problems) {
    const within = problem.span && positionIn(field.text, problem.span.start);
    report(problem.code, `${field.subject}: ${problem.message}`, within);
  }
  ctx.setTyped(key, field.path, typed.expr);
  return typed;
}
