// The node's control API on the admin server (docs/node.md#the-control-api): the admin server hands
// every request it does not serve itself to this hook, which answers its own paths and returns false for
// the rest.
//   POST /v1/domains/{domain}/statements   run a script (statement-executor.ts)
//   GET  /v1/domains                       the domains, their graph versions and object counts
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ControlError, MAX_BODY_BYTES, parseStatementRequest, readBody } from './control-request.js';
import { messageOf } from './domain-commit.js';
import type { ObjectStore } from './object-store.js';
import { isDomainName, type ControlErrorBody, type DomainsReply } from './protocol.js';
import type { SerialQueue } from './serial-queue.js';
import { InvalidRequestError, type StatementExecutor } from './statement-executor.js';

export type ControlHook = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;

export interface ControlRoutesOptions {
  executor: StatementExecutor;
  store: ObjectStore;
  queue: SerialQueue;
  logger: Logger;
  maxBodyBytes?: number;
}

const STATEMENTS = /^\/v1\/domains\/([^/]+)\/statements$/;

export function controlRoutes(options: ControlRoutesOptions): ControlHook {
  return async (request, response, url) => {
    const statements = STATEMENTS.exec(url.pathname);
    if (url.pathname !== '/v1/domains' && statements === null) return false;
    try {
      if (statements === null) await listDomains(request, response, options);
      else await runStatements(request, response, statements[1] ?? '', options);
    } catch (error: unknown) {
      sendError(response, error, options.logger);
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
  segment: string,
  options: ControlRoutesOptions,
): Promise<void> {
  allow(request, 'POST');
  const domain = decodeSegment(segment);
  if (!isDomainName(domain)) {
    const message = `${JSON.stringify(domain)} is not a domain name: lower-case letters, digits and -, at most 63, starting and ending with a letter or digit`;
    throw new ControlError(400, 'invalid_domain', message);
  }
  const body = await readBody(request, options.maxBodyBytes ?? MAX_BODY_BYTES);
  const statementRequest = parseStatementRequest(body);
  try {
    sendJson(response, 200, await options.executor.execute(domain, statementRequest));
  } catch (error: unknown) {
    if (error instanceof InvalidRequestError) throw new ControlError(400, 'invalid_request', error.message);
    throw error;
  }
}

function allow(request: IncomingMessage, method: string): void {
  if (request.method === method) return;
  throw new ControlError(405, 'method_not_allowed', `this path takes ${method} only`, { allow: method });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function sendError(response: ServerResponse, error: unknown, logger: Logger): void {
  const known = error instanceof ControlError;
  if (!known) logger.error({ error: messageOf(error) }, 'the control API failed');
  const body: ControlErrorBody = {
    error: known
      ? { code: error.code, message: error.message }
      : { code: 'internal_error', message: `the node failed: ${messageOf(error)}` },
  };
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (known) for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  sendJson(response, known ? error.status : 500, body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
