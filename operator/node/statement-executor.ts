// Runs a script of statements against a domain, psql-style (docs/node.md#statements):
// - the whole script is parsed first; a syntax error, or BEGIN/COMMIT/UPLOAD out of place, and nothing runs;
// - then the statements run in order, each in autocommit unless inside BEGIN … COMMIT;
// - the first statement that fails stops the script (psql's ON_ERROR_STOP): the rest are `not_run`, and
//   an open batch is discarded; a BEGIN still open at the end is rolled back and reported on the BEGIN.
// Scripts (and manifest reloads) run one at a time, so every script sees the store as the last one left it.
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Statement, UploadResourceStatement } from '../language/ast.js';
import { parseScript } from '../language/parse.js';
import { checkTransactions } from './check-transactions.js';
import { sortByPlace } from './domain-commit.js';
import type { StatementReply, StatementRequest, StatementResult, Upload } from './protocol.js';
import type { SerialQueue } from '../../dataplane/core/serial-queue.js';
import { StatementSession, type SessionServices } from './statement-session.js';
import { statementTag } from './statement-tag.js';

export interface ExecutorOptions extends Omit<SessionServices, 'now'> {
  queue: SerialQueue;
  now?: () => Date;
}

/** The request cannot be run as sent (its uploads do not match the script): the client's mistake, a 400. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

export class StatementExecutor {
  readonly #options: ExecutorOptions;

  constructor(options: ExecutorOptions) {
    this.#options = options;
  }

  /** Runs the script after every script and reload queued before it. Throws InvalidRequestError. */
  execute(domain: string, request: StatementRequest): Promise<StatementReply> {
    return this.#options.queue.run(() => this.#execute(domain, request));
  }

  async #execute(domain: string, request: StatementRequest): Promise<StatementReply> {
    const parsed = parseScript(request.script, request.source);
    const early = sortByPlace([...parsed.diagnostics, ...checkTransactions(parsed.statements)]);
    if (early.some((diagnostic) => diagnostic.severity === 'error')) {
      return { ok: false, diagnostics: early.map(formatDiagnostic), results: [] };
    }
    matchUploads(parsed.statements, request.uploads);
    const services: SessionServices = { ...this.#options, now: this.#options.now ?? (() => new Date()) };
    const session = new StatementSession(services, { domain, source: request.source, parsed: early });
    const run = await runInOrder(session, parsed.statements, request.uploads);
    return { ok: run.ok, diagnostics: early.map(formatDiagnostic), results: run.results };
  }
}

/** Runs the statements until one fails; the rest are `not_run`. */
async function runInOrder(
  session: StatementSession,
  statements: readonly Statement[],
  requestUploads: readonly Upload[],
): Promise<{ ok: boolean; results: StatementResult[] }> {
  const results: StatementResult[] = [];
  const uploads = [...requestUploads];
  let failed = false;
  let openBegin: { statement: Statement; result: StatementResult } | undefined;
  for (const statement of statements) {
    const result = placeOf(statement);
    results.push(result);
    if (failed) continue;
    const upload = statement.type === 'upload-resource' ? uploads.shift() : undefined;
    Object.assign(result, await session.run(statement, upload));
    failed = result.status === 'error';
    if (statement.type === 'begin') openBegin = { statement, result };
    if (!session.inBatch) openBegin = undefined;
  }
  session.abort();
  if (!failed && openBegin !== undefined) rollBackAtEnd(openBegin.statement, openBegin.result);
  return { ok: !failed && openBegin === undefined, results };
}

function placeOf(statement: Statement): StatementResult {
  const { line, column } = statement.location;
  return { statement: statementTag(statement), line, column, status: 'not_run' };
}

/** A BEGIN never closed: its batch was discarded; the BEGIN says so. */
function rollBackAtEnd(statement: Statement, begin: StatementResult): void {
  const diagnostic: Diagnostic = {
    code: 'SR1008',
    severity: 'error',
    message:
      'this BEGIN is never closed: its batch was rolled back at the end of the script (end it with COMMIT)',
    location: statement.location,
  };
  begin.status = 'error';
  begin.diagnostics = [formatDiagnostic(diagnostic)];
}

/** Each UPLOAD RESOURCE statement takes the next upload of the request, which must be for its resource. */
function matchUploads(statements: readonly Statement[], uploads: readonly Upload[]): void {
  const wanted = statements.filter((s): s is UploadResourceStatement => s.type === 'upload-resource');
  if (wanted.length !== uploads.length) {
    throw new InvalidRequestError(
      `the request carries ${uploads.length} upload(s) for ${wanted.length} UPLOAD RESOURCE statement(s); send one per statement, in order`,
    );
  }
  wanted.forEach((statement, index) => {
    const upload = uploads[index];
    const name = upload?.resource.toLowerCase().replaceAll('_', '-');
    if (name !== statement.name) {
      throw new InvalidRequestError(
        `upload ${index + 1} is for resource ${upload?.resource ?? '?'}, but UPLOAD RESOURCE ${statement.identifier} is statement ${index + 1}`,
      );
    }
  });
}
