// One listener's request handling (docs/http-ingestion.md, "Requests and statuses"): route by Host and path,
// then answer
//
//   404  no vhost has the host, or the vhost has no endpoint at the path
//   405  a known endpoint, another method than POST (with `Allow: POST`)
//   413  the body is longer than the target's limit: known from Content-Length before reading, or found
//        while reading (chunked); reading stops and the connection is closed after the response
//   202  the whole body was handed to the target (fire-and-forget: not a promise that it decodes)
//   500  the target threw while taking the body (a bug in the runtime; counted and logged)
//
// Responses have no body (`Content-Length: 0`), unless the handler explains refusals (`--http-error-body
// explain`): then a refusal's body is one line of text saying why (reject-text.ts). A request rejected before its body was read closes the connection (the
// alternative is reading and discarding a body of any size to keep it open). A client that goes away
// mid-body gets no response; the upload is counted as aborted and nothing is delivered.
//
// The table is read once when the request's headers arrive, so a request is served by the table that
// routed it even if `table` is swapped while its body is still arriving.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { wasRefused } from '../../net/connection-gate.js';
import { declaredLength, hasBody, readBody, type BodyOutcome, type BodySink } from './read-body.js';
import { requestTarget } from './request-target.js';
import { rejectText } from './reject-text.js';
import { RoutingTable } from './routing-table.js';
import type { HttpMetadata, HttpTarget } from './target.js';
import type { HttpTelemetry, ListenerName, RejectReason } from './telemetry.js';

export interface IngestHandlerOptions {
  /** Refusals get a text body saying why (default: an empty body). */
  explain?: boolean;
  /** The other listener's table, named in an explanation (a TLS host asked over HTTP). */
  otherTable?: () => RoutingTable;
}

export class IngestHandler implements BodySink<Routed> {
  readonly #listener: ListenerName;
  readonly #telemetry: HttpTelemetry;
  readonly #explain: boolean;
  readonly #otherTable: () => RoutingTable;
  #table: RoutingTable = RoutingTable.EMPTY;

  constructor(listener: ListenerName, telemetry: HttpTelemetry, options: IngestHandlerOptions = {}) {
    this.#listener = listener;
    this.#telemetry = telemetry;
    this.#explain = options.explain ?? false;
    this.#otherTable = options.otherTable ?? (() => RoutingTable.EMPTY);
  }

  get table(): RoutingTable {
    return this.#table;
  }

  /** Atomic: requests whose headers arrive afterwards are routed by the new table. */
  set table(table: RoutingTable) {
    this.#table = table;
  }

  /** The server's `request` event. */
  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => this.#handle(req, res, false);

  /** The server's `checkContinue` event: `100 Continue` only once the body is wanted. */
  readonly onCheckContinue = (req: IncomingMessage, res: ServerResponse): void =>
    this.#handle(req, res, true);

  /**
   * The server's `clientError` event: a malformed request, a timeout, or (HTTPS) a failed TLS handshake.
   * Counted; an HTTP-level error gets Node's own answer (400, 408, 413, 431) unless a response has begun.
   */
  readonly onClientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
    // A connection refused by the connection limits was counted there (its TLS socket reports ECONNRESET).
    if (wasRefused(socket)) return void socket.destroy();
    const code = error.code ?? 'UNKNOWN';
    this.#telemetry.clientError(this.#listener, code);
    const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    const httpLevel = code.startsWith('HPE_') || code === 'ERR_HTTP_REQUEST_TIMEOUT';
    if (httpLevel && socket.writable && response?.headersSent !== true) {
      socket.write(rawResponse(clientErrorStatus(code)));
    }
    socket.destroy();
  };

  #handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    const { host, path } = requestTarget(req.url ?? '', req.headers.host);
    const table = this.#table;
    const target = host === undefined ? 'unknown_host' : table.lookup(host, path);
    const refused = { res, host, path, table };
    if (typeof target === 'string') return this.#reject(refused, 404, target);
    if (req.method !== 'POST') return this.#reject(refused, 405, 'method_not_allowed', target);
    const declared = declaredLength(req);
    if (declared !== undefined && declared > target.maxBodyBytes)
      return this.#reject(refused, 413, 'body_too_large', target);
    if (expectsContinue) res.writeContinue();
    readBody(req, target.maxBodyBytes, this, { req, res, target, host: host ?? '', path });
  }

  /** How reading a routed request's body ended (called by `readBody`). */
  bodyRead({ req, res, target, host, path }: Routed, outcome: BodyOutcome): void {
    const refused = { res, host, path, table: this.#table };
    if (outcome.kind === 'too_large') return this.#reject(refused, 413, 'body_too_large', target);
    if (outcome.kind === 'aborted') return this.#telemetry.aborted(this.#listener, target, outcome.bytesRead);
    const metadata: HttpMetadata = {
      remote_addr: remoteAddr(req.socket),
      host,
      path,
      content_type: req.headers['content-type'] ?? null,
    };
    try {
      target.deliver(outcome.body, metadata);
    } catch {
      return this.#reject(refused, 500, 'deliver_failed', target);
    }
    this.#telemetry.accepted(this.#listener, target, outcome.body.byteLength);
    res.statusCode = 202;
    res.end();
  }

  #reject(refused: Refused, status: number, reason: RejectReason, target?: HttpTarget): void {
    const { res, host, path, table } = refused;
    const hostHeader = res.req.headers.host;
    this.#telemetry.rejected(this.#listener, status, reason, { to: target, host: host ?? hostHeader });
    if (status === 405) res.setHeader('Allow', 'POST');
    if (status === 413 || (!res.req.complete && !discardable(res.req))) res.setHeader('Connection', 'close');
    res.statusCode = status;
    if (!this.#explain) return void res.end();
    const text = rejectText(reason, {
      listener: this.#listener,
      hostHeader,
      host,
      path,
      method: res.req.method ?? '',
      table,
      otherTable: this.#otherTable(),
      ...(target === undefined ? {} : { maxBodyBytes: target.maxBodyBytes }),
    });
    const body = `${text}\n`;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(body);
  }
}

/** What a refusal's answer and log line are made from. */
interface Refused {
  res: ServerResponse;
  /** Canonical; undefined when the request named no host we could serve. */
  host: string | undefined;
  path: string;
  /** The table that routed the request. */
  table: RoutingTable;
}

/** A request whose headers picked a target; its body is being read. */
interface Routed {
  req: IncomingMessage;
  res: ServerResponse;
  target: HttpTarget;
  host: string;
  path: string;
}

/** Largest unread body of a rejected request that is read and discarded to keep the connection. */
export const DISCARD_LIMIT_BYTES = 65_536;

function discardable(req: IncomingMessage): boolean {
  if (!hasBody(req)) return true;
  const declared = declaredLength(req);
  return declared !== undefined && declared <= DISCARD_LIMIT_BYTES;
}

function clientErrorStatus(code: string): number {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      return 400;
  }
}

function rawResponse(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
}

/** `ip:port`, `[ip]:port` for IPv6, IPv4-mapped IPv6 shown as IPv4; null once the socket is gone. */
export function remoteAddr(socket: Socket | null): string | null {
  const ip = socket?.remoteAddress;
  const port = socket?.remotePort;
  if (ip === undefined || port === undefined) return null;
  if (ip.startsWith('::ffff:') && ip.includes('.')) return `${ip.slice(7)}:${port}`;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}
