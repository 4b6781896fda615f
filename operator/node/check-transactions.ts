// Before a script runs: BEGIN, COMMIT and ROLLBACK must pair up, and UPLOAD RESOURCE may not sit inside
// a batch — the same rules (and words) as `streamroute convert` (SR1007, SR1008). A script that breaks
// them runs no statement at all. A BEGIN still open at the end is not checked here: the script runs, and
// the batch is rolled back and reported at the end (statement-executor.ts).
import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import type { Statement } from '../language/ast.js';

export function checkTransactions(statements: readonly Statement[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let open: SourceLocation | undefined;
  for (const statement of statements) {
    const { location } = statement;
    if (statement.type === 'begin') {
      if (open === undefined) open = location;
      else {
        const message = `BEGIN inside a batch: the BEGIN at ${open.line}:${open.column} is still open, and batches do not nest`;
        diagnostics.push(error('SR1008', message, location));
      }
    } else if (statement.type === 'commit' || statement.type === 'rollback') {
      const word = statement.type.toUpperCase();
      if (open === undefined)
        diagnostics.push(error('SR1008', `${word} without a BEGIN: no batch is open`, location));
      open = undefined;
    } else if (statement.type === 'upload-resource' && open !== undefined) {
      const message =
        'UPLOAD RESOURCE cannot be used inside BEGIN … COMMIT: upload before the batch, then refer to the version';
      diagnostics.push(error('SR1007', message, location));
    }
  }
  return diagnostics;
}

function error(code: Diagnostic['code'], message: string, location: SourceLocation): Diagnostic {
  return { code, severity: 'error', message, location };
}
