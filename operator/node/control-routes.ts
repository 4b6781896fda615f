// The node's control API on the admin server (docs/node.md#the-control-api): the admin server hands
// every request it does not serve itself to this hook, which answers its own paths and returns false for
// the rest.
//   POST /v1/domains/{domain}/statements   run a script (statement-executor.ts); the body must be JSON
//   GET  /v1/domains                       the domains, their graph versions and object counts
// Errors are the admin API's (`sendError`, codes in admin-errors.ts). Statement requests are taken one at
// a time, from reading the body to the answer: a request waits its turn with its body unread (it stays in
// the socket), so the node holds at most one body (MAX_BODY_BYTES) however many clients send at once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { sendError, sendFailure, sendJson } from '../../dataplane/admin/admin-errors.js';
import { decode } from '../../dataplane/admin/admin-routes.js';
import { checkName } from '../../dataplane/admin/request-params.js';
import {
  ClientGoneError,
  ControlError,
  MAX_BODY_BYTES,
  parseStatementRequest,
  readBody,
  requireJson,
} from './control-request.js';
import { errorName } from '../../dataplane/core/error-text.js';
import type { ObjectStore } from './object-store.js';
import type { DomainsReply } from './protocol.js';
import { SerialQueue, ShuttingDownError } from '../../dataplane/core/serial-queue.js';
import { InvalidRequestError, type StatementExecutor } from './statement-executor.js';

export type ControlHook = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;

export interface ControlRoutesOptions {
  executor: StatementExecutor;
  store: ObjectStore;
  /** The node's queue of statements and reloads; once closed, requests are answered 503. */
  queue: SerialQueue;
  logger: Logger;
  maxBodyBytes?: number;
}

const STATEMENTS = /^\/v1\/domains\/([^/]+)\/statements$/;

export function controlRoutes(options: ControlRoutesOptions): ControlHook {
  /** One statement request at a time, from its body to its answer. */
  const turns = new SerialQueue();
  return async (request, response, url) => {
    const statements = STATEMENTS.exec(url.pathname);
    if (url.pathname !== '/v1/domains' && statements === null) return false;
    try {
      if (statements === null) await listDomains(request, response, options);
      else await runStatements(request, response, { segment: statements[1] ?? '', turns, options });
    } catch (error: unknown) {
      answerError(response, error, options.logger);
    }
    return true;
  };
}

async function listDomains(
  request: IncomingMessage,
  response: ServerResponse,
  options: ControlRoutesOptions,
): Promise<void> {
  allow(request, 'GET');
  const reply: DomainsReply = {
    domains: await options.queue.run(() => Promise.resolve(options.store.summaries())),
  };
  sendJson(response, 200, reply);
}

async function runStatements(
  request: IncomingMessage,
  response: ServerResponse,
  context: { segment: string; turns: SerialQueue; options: ControlRoutesOptions },
): Promise<void> {
  const { options } = context;
  allow(request, 'POST');
  requireJson(request);
  const domain = domainOf(context.segment);
  if (options.queue.closed) throw new ShuttingDownError();
  await context.turns.run(async () => {
    if (options.queue.closed) throw new ShuttingDownError();
    const body = await readBody(request, options.maxBodyBytes ?? MAX_BODY_BYTES);
    const statementRequest = parseStatementRequest(body);
    try {
      sendJson(response, 200, await options.executor.execute(domain, statementRequest));
    } catch (error: unknown) {
      if (error instanceof InvalidRequestError) throw new ControlError('invalid_request', error.message);
      throw error;
    }
  });
}

/** The domain segment, decoded and checked as the admin API checks names. */
function domainOf(segment: string): string {
  const decoded = decode(segment);
  if (decoded === undefined) {
    throw new ControlError('invalid_path', 'the domain segment of the path is not valid percent-encoding');
  }
  const checked = checkName('domain', decoded);
  if (!checked.ok) throw new ControlError(checked.code, checked.message);
  return checked.value;
}

function allow(request: IncomingMessage, method: string): void {
  if (request.method === method) return;
  throw new ControlError('method_not_allowed', `this path takes ${method} only`, { Allow: method });
}

/**
 * A refusal with its code; a stopping node 503; anything else is a defect: logged by the error's name
 * only (a message could quote a value) and answered with a fixed message (or the stream is cut).
 */
function answerError(response: ServerResponse, error: unknown, logger: Logger): void {
  if (error instanceof ClientGoneError) {
    response.destroy();
    return;
  }
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (error instanceof ControlError) {
    sendError(response, error.code, error.message, { ...error.headers });
    return;
  }
  if (error instanceof ShuttingDownError) {
    sendError(response, 'shutting_down', error.message);
    return;
  }
  logger.error({ event: 'control_failed', error: errorName(error) }, 'the control API failed');
  sendFailure(response);
}
