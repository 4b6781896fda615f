// A stand-in for the node's admin HTTP API in CLI client tests: a real node:http server on loopback
// whose answers each test scripts (canned protocol replies, broken replies, streams written piece by
// piece). It records every request, so a test can also check what was — or was not — sent.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Output } from '../../operator/client/report.js';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type CannedHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface CannedNode {
  /** `http://127.0.0.1:PORT` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startCannedNode(handler: CannedHandler): Promise<CannedNode> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      void Promise.resolve(handler(request, response)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function replyJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** A loopback port where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An Output that keeps each call, and lets a test wait until so many lines reached stdout. */
export class CapturedOutput implements Output {
  readonly outs: string[] = [];
  readonly errs: string[] = [];
  #waiters: { count: number; wake: () => void }[] = [];

  out(text: string): void {
    this.outs.push(text);
    const ready = this.#waiters.filter((waiter) => this.outs.length >= waiter.count);
    this.#waiters = this.#waiters.filter((waiter) => this.outs.length < waiter.count);
    for (const waiter of ready) waiter.wake();
  }

  err(text: string): void {
    this.errs.push(text);
  }

  get stdout(): string {
    return this.outs.map((text) => (text.endsWith('\n') ? text : `${text}\n`)).join('');
  }

  get stderr(): string {
    return this.errs.map((text) => (text.endsWith('\n') ? text : `${text}\n`)).join('');
  }

  /** Resolves once `count` texts went to stdout. */
  untilOut(count: number): Promise<void> {
    if (this.outs.length >= count) return Promise.resolve();
    return new Promise((wake) => this.#waiters.push({ count, wake }));
  }
}
