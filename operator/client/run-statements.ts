// `streamroute [-d DOMAIN] [--server URL] -c STATEMENTS | -f FILE | < stdin`: runs scripts on a node,
// psql-style. Every script and every UPLOAD RESOURCE directory is read before the first request, so a
// path that cannot be read sends nothing; then each script is sent in order, and the first that fails
// stops the rest.
import { parseScript } from '../language/parse.js';
import { isDocumentFormat, printDocument, type OutputFormat } from './output-format.js';
import { EXIT, type Output } from './report.js';
import { domainUrl, type NodeTarget } from './endpoint.js';
import { callNode, type Answer } from './node-call.js';
import { printReply, type ReplyContext } from './print-reply.js';
import { decodeStatementsReply, type StatementsReply, type StatementsRequest } from './protocol.js';
import { readScripts, type ScriptInput, type Stdin } from './scripts.js';
import type { StatementDocuments } from './statement-document.js';
import { collectUploads } from './uploads.js';

export interface StatementsOptions {
  target: NodeTarget;
  /** The -c and -f options in order; none reads stdin. */
  inputs: readonly ScriptInput[];
  stdin: Stdin;
  /** Where relative UPLOAD RESOURCE directories resolve. */
  cwd: string;
  /** -o: table (default), wide, json or yaml. */
  format?: OutputFormat;
}

export async function runStatements(options: StatementsOptions, output: Output): Promise<number> {
  const scripts = await readScripts(options.inputs, options.stdin);
  const requests = scripts.flatMap((script): StatementsRequest[] => {
    const parsed = parseScript(script.text, script.source);
    // Nothing but blanks and comments: nothing to run, and no reason to need a node.
    if (parsed.statements.length === 0 && parsed.diagnostics.length === 0) return [];
    const uploads = collectUploads(parsed, script.source, options.cwd);
    return [{ script: script.text, source: script.source, uploads }];
  });
  const format = options.format ?? 'table';
  const results: unknown[] = [];
  // What -o wide|json|yaml print with is loaded only for them: the table is the node's own text.
  const documents = format === 'table' ? undefined : await import('./statement-document.js');
  const code = await sendAll(requests, { ...options, format, results, documents }, output);
  // -o json|yaml: one document, also when a script failed (it holds what ran before the failure).
  if (isDocumentFormat(format) && documents !== undefined) {
    await printDocument(documents.statementDocument(options.target.domain, results), format, output);
  }
  return code;
}

async function sendAll(
  requests: readonly StatementsRequest[],
  options: StatementsOptions & {
    format: OutputFormat;
    results: unknown[];
    documents: StatementDocuments | undefined;
  },
  output: Output,
): Promise<number> {
  for (const [index, request] of requests.entries()) {
    const answer = await callNode(
      {
        server: options.target.server,
        method: 'POST',
        url: domainUrl(options.target, ['statements']),
        body: request,
      },
      decodeStatementsReply,
    );
    const { format, results, documents } = options;
    const context: ReplyContext = {
      domain: options.target.domain,
      source: request.source,
      format,
      results,
      ...(documents === undefined ? {} : { documents }),
    };
    if (!printAnswer(answer, context, output)) {
      const rest = requests.slice(index + 1).map((skipped) => skipped.source);
      if (rest.length > 0) output.err(`streamroute: not run after the error: ${rest.join(', ')}`);
      return EXIT.invalid;
    }
  }
  return EXIT.ok;
}

function printAnswer(answer: Answer<StatementsReply>, context: ReplyContext, output: Output): boolean {
  if (answer.ok) return printReply(answer.value, context, output);
  const { code, message } = answer.error;
  output.err(
    `streamroute: ${context.source}: the node refused the script: ${message} (${code}, HTTP ${answer.status})`,
  );
  return false;
}
