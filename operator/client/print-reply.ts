// How a statements reply prints, psql-like: each statement that ran prints its tag and then its output
// on stdout; diagnostics, warnings and what did not run go to stderr. With -o wide a SHOW prints its wide
// table; with -o json|yaml the data of each SHOW, SHOW CREATE and DESCRIBE is collected for the one
// document printed at the end, and the lines that would have gone to stdout go to stderr.
import { besideDocument, isDocumentFormat, type OutputFormat } from './output-format.js';
import type { Output } from './report.js';
import type { StatementResult, StatementsReply } from './protocol.js';
import type { StatementDocuments } from './statement-document.js';

export interface ReplyContext {
  domain: string;
  /** The script's source name, for a failed statement the node gave no diagnostic for. */
  source: string;
  /** -o (default table). */
  format: OutputFormat;
  /** Where -o json|yaml collects the entries of the document. */
  results: unknown[];
  /** What -o wide|json|yaml print with (statement-document.ts, loaded only for them). */
  documents?: StatementDocuments;
}

/** Prints the reply; returns whether every statement ran and succeeded. */
export function printReply(reply: StatementsReply, context: ReplyContext, stdout: Output): boolean {
  const output = besideDocument(stdout, context.format);
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

/**
 * The tag (with the version an upload made), the output, and the graph version it activated; for
 * -o json|yaml, an inspecting statement's entry instead.
 */
function printSuccess(result: StatementResult, context: ReplyContext, output: Output): void {
  const { documents } = context;
  if (isDocumentFormat(context.format) && result.data !== undefined && documents !== undefined) {
    const { statement, line, column } = result;
    const place = { statement, source: context.source, line, column };
    context.results.push(documents.resultEntry(place, result.data));
    return;
  }
  const version = result.resourceVersion === undefined ? '' : ` VERSION ${result.resourceVersion}`;
  output.out(`${result.statement}${version}`);
  const text = outputText(result, context);
  if (text !== '') output.out(text);
  if (result.graphVersion !== undefined) {
    output.out(`-- domain ${context.domain} runs graph version ${result.graphVersion}`);
  }
}

/** What the statement prints below its tag: under -o wide, SHOW's wide table. */
function outputText(result: StatementResult, context: ReplyContext): string {
  const wide = context.format === 'wide' ? context.documents?.wideText(result.data) : undefined;
  return wide ?? result.output ?? '';
}

function printFailure(result: StatementResult, context: ReplyContext, output: Output): void {
  const diagnostics = result.diagnostics ?? [];
  for (const diagnostic of diagnostics) output.err(diagnostic);
  if (diagnostics.length === 0) {
    output.err(`${context.source}:${result.line}:${result.column}: error: ${result.statement} failed`);
  }
}
