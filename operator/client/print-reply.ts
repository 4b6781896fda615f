// How a statements reply prints, psql-like: each statement that ran prints its tag and then its output
// on stdout; diagnostics, warnings and what did not run go to stderr.
import type { Output } from './report.js';
import type { StatementResult, StatementsReply } from './protocol.js';

export interface ReplyContext {
  domain: string;
  /** The script's source name, for a failed statement the node gave no diagnostic for. */
  source: string;
}

/** Prints the reply; returns whether every statement ran and succeeded. */
export function printReply(reply: StatementsReply, context: ReplyContext, output: Output): boolean {
  for (const diagnostic of reply.diagnostics) output.err(diagnostic);
  for (const result of reply.results) printResult(result, context, output);
  const failed = reply.results.some((result) => result.status === 'error');
  const notRun = reply.results.filter((result) => result.status === 'not_run').length;
  if (notRun > 0) {
    output.err(`${notRun} statement${notRun === 1 ? '' : 's'} not run${failed ? ' after the error' : ''}`);
  }
  const succeeded = reply.ok && !failed;
  if (!succeeded && !failed && reply.diagnostics.length === 0) {
    output.err(
      `streamroute: ${context.source}: the node reports that the script failed, and gives no reason`,
    );
  }
  return succeeded;
}

function printResult(result: StatementResult, context: ReplyContext, output: Output): void {
  if (result.status === 'ok') printSuccess(result, context, output);
  else if (result.status === 'error') printFailure(result, context, output);
  for (const warning of result.warnings ?? []) output.err(`warning: ${warning}`);
}

/** The tag (with the version an upload made), the output, and the graph version it activated. */
function printSuccess(result: StatementResult, context: ReplyContext, output: Output): void {
  const version = result.resourceVersion === undefined ? '' : ` VERSION ${result.resourceVersion}`;
  output.out(`${result.statement}${version}`);
  if (result.output !== undefined && result.output !== '') output.out(result.output);
  if (result.graphVersion !== undefined) {
    output.out(`-- domain ${context.domain} runs graph version ${result.graphVersion}`);
  }
}

function printFailure(result: StatementResult, context: ReplyContext, output: Output): void {
  const diagnostics = result.diagnostics ?? [];
  for (const diagnostic of diagnostics) output.err(diagnostic);
  if (diagnostics.length === 0) {
    output.err(`${context.source}:${result.line}:${result.column}: error: ${result.statement} failed`);
  }
}
