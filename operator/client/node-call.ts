// One request to the node over node:http(s), and its answer read as the protocol: 200 with the expected
// JSON, or an error reply `{ "error": { code, message } }`. Anything else is not the protocol (exit 3).
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Server } from './endpoint.js';
import { notProtocol, unreachable } from './errors.js';
import { decodeErrorReply, type Decoded, type ErrorReply } from './protocol.js';

/** A JSON reply larger than this is not the protocol (statement output is small). */
export const MAX_JSON_REPLY_BYTES = 64 * 1024 * 1024;

export interface NodeRequest {
  server: Server;
  method: 'GET' | 'POST';
  url: URL;
  /** Sent as JSON. */
  body?: unknown;
  accept?: string;
  signal?: AbortSignal;
}

/** What the node answered, when it answered in the protocol. */
export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; error: ErrorReply };

/**
 * Sends the request; resolves with the response once its headers arrive, or undefined when `signal`
 * aborted it first. A node that cannot be reached is a NodeError.
 */
export function openRequest(call: NodeRequest): Promise<IncomingMessage | undefined> {
  const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body), 'utf8');
  const options: RequestOptions = {
    method: call.method,
    agent: false,
    headers: {
      accept: call.accept ?? 'application/json',
      ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }),
    },
    ...(call.signal && { signal: call.signal }),
  };
  const send = call.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(call.url, options, resolve);
    request.on('error', (error) =>
      call.signal?.aborted ? resolve(undefined) : reject(unreachable(call.server.shown, error)),
    );
    request.end(payload);
  });
}

/** Sends the request and reads the answer whole; `decode` judges a 200 body. */
export async function callNode<T>(
  call: NodeRequest,
  decode: (value: unknown) => Decoded<T>,
): Promise<Answer<T>> {
  const response = await openRequest(call);
  if (response === undefined) throw unreachable(call.server.shown, new Error('the request was interrupted'));
  if (response.statusCode !== 200) return errorAnswer(response, call.server);
  const body = await readJson(response, call.server);
  const decoded = decode(body);
  if (!decoded.ok)
    throw notProtocol(
      call.server.shown,
      `${answered(response)} that does not fit the protocol (${decoded.problem})`,
    );
  return decoded;
}

/** A response that is not 200 must carry the protocol's error body. */
export async function errorAnswer(response: IncomingMessage, server: Server): Promise<Answer<never>> {
  const body = await readJson(response, server);
  const decoded = decodeErrorReply(body);
  if (!decoded.ok) throw notProtocol(server.shown, `${answered(response)} without the protocol's error body`);
  return { ok: false, status: response.statusCode ?? 0, error: decoded.value };
}

async function readJson(response: IncomingMessage, server: Server): Promise<unknown> {
  const text = await readText(response, server);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw notProtocol(server.shown, `${answered(response)}, which is not JSON`);
  }
}

async function readText(response: IncomingMessage, server: Server): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_JSON_REPLY_BYTES) {
        response.destroy();
        throw notProtocol(server.shown, `${answered(response)} of more than ${MAX_JSON_REPLY_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error: unknown) {
    if (size > MAX_JSON_REPLY_BYTES) throw error;
    throw unreachable(server.shown, error);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `HTTP 502 (text/html)`: what the server answered, for messages. */
export function answered(response: IncomingMessage): string {
  const type = response.headers['content-type'];
  return `HTTP ${response.statusCode ?? '?'}${type === undefined ? '' : ` (${type})`}`;
}
