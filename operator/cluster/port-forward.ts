// A port-forward to a pod through the API server, for the CLI's subscribe and describe: the data plane's
// admin API listens on the pod's loopback only, which the pod proxy cannot reach; a port-forward can, and
// `pods/portforward` RBAC guards it. A local net.Server on 127.0.0.1:0 pipes each accepted connection
// through its own websocket (`/pods/<pod>/portforward?ports=<port>`), so plain node:http requests to the
// local port reach the pod's port.
//
// The websocket speaks `v4.channel.k8s.io`, which the API server passes to the kubelet unchanged (it
// tunnels only `SPDY/3.1+portforward.k8s.io`; k8s.io/apimachinery wsstream, v0.34): every binary message
// starts with its channel byte, channel 0 data and 1 errors, and the first message of each channel from
// the server is the port, 2 bytes little-endian. client-node's PortForward speaks the same, but writes to
// one stream per call and offers v5 first; this is the few lines the CLI needs, on the `ws` package
// (loaded on the first port-forward: the data plane never needs it).
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { RequestOptions } from 'node:https';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
interface WsModule {
  WebSocket: new (url: URL, protocols: string[], options: RequestOptions) => ForwardSocket;
}
let wsModule: WsModule | undefined;

export const PORT_FORWARD_PROTOCOL = 'v4.channel.k8s.io';
const DATA = 0;
const ERROR = 1;

/** Where the API server is and how requests to it are authorized (dataplane/kube-client/kube-api.ts). */
export interface ApiConnection {
  server: URL;
  authorize: (options: RequestOptions) => void | Promise<void>;
}

export interface PortForwardTarget {
  namespace: string;
  pod: string;
  port: number;
}

export interface LocalForward {
  /** The local port on 127.0.0.1 that reaches the pod's port. */
  readonly port: number;
  /** Stops accepting and cuts every forwarded connection. */
  close(): Promise<void>;
}

/** The part of a `ws` WebSocket used here. */
export interface ForwardSocket {
  readonly protocol: string;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'unexpected-response', listener: (request: unknown, response: UpgradeResponse) => void): void;
  send(data: Buffer): void;
  close(): void;
  terminate(): void;
  /** Stops (and resumes) reading from the API server: the local reader is full (`ws` ≥ 8). */
  pause?(): void;
  resume?(): void;
}

interface UpgradeResponse {
  statusCode?: number;
  statusMessage?: string;
  on(event: 'data', listener: (chunk: Buffer) => void): void;
  on(event: 'end', listener: () => void): void;
}

export type OpenSocket = (url: URL, protocols: string[], options: RequestOptions) => ForwardSocket;

export interface ForwardHooks {
  /** Opens the websocket (default: `ws`); tests pass their own. */
  open?: OpenSocket;
  /** Why a forwarded connection was cut (refused upgrade, kubelet error): the local client sees only a reset. */
  onError?: (error: Error) => void;
}

/** The websocket URL of a pod port's port-forward. */
export function portForwardUrl(server: URL, target: PortForwardTarget): URL {
  const base = server.pathname.replace(/\/$/, '');
  const path = `${base}/api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward`;
  const url = new URL(path, server);
  url.protocol = server.protocol === 'http:' ? 'ws:' : 'wss:';
  url.searchParams.set('ports', String(target.port));
  return url;
}

/** A data frame: the channel byte, then the bytes. */
export function dataFrame(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from([DATA]), bytes]);
}

/**
 * Reads the server's frames: strips each channel's leading port (its first 2 bytes, which may come in a
 * message of their own), hands data on, and collects the error channel's text.
 */
export class FrameReader {
  readonly #portBytes = new Map<number, number>();
  error = '';

  /** The data bytes of one message (empty for error or port-only messages). */
  read(message: Buffer): Buffer {
    if (message.length === 0) return Buffer.alloc(0);
    const channel = message[0]!;
    let body = message.subarray(1);
    const pending = 2 - (this.#portBytes.get(channel) ?? 0);
    if (pending > 0) {
      const taken = Math.min(pending, body.length);
      this.#portBytes.set(channel, 2 - pending + taken);
      body = body.subarray(taken);
    }
    if (channel === ERROR) {
      this.error += body.toString('utf8');
      return Buffer.alloc(0);
    }
    return channel === DATA ? body : Buffer.alloc(0);
  }
}

/** Listens on 127.0.0.1:0 and forwards each connection to the pod's port through the API server. */
export async function forwardPort(
  connection: ApiConnection,
  target: PortForwardTarget,
  hooks: ForwardHooks = {},
): Promise<LocalForward> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    void pipe(connection, target, hooks, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => closeServer(server, sockets),
  };
}

async function pipe(
  connection: ApiConnection,
  target: PortForwardTarget,
  hooks: ForwardHooks,
  socket: Socket,
): Promise<void> {
  const fail = (error: Error): void => {
    hooks.onError?.(error);
    socket.destroy();
  };
  const options: RequestOptions = { headers: {} };
  try {
    await connection.authorize(options);
  } catch (error: unknown) {
    fail(error instanceof Error ? error : new Error('cannot authorize the port-forward'));
    return;
  }
  const ws = (hooks.open ?? wsOpen)(
    portForwardUrl(connection.server, target),
    [PORT_FORWARD_PROTOCOL],
    options,
  );
  const reader = new FrameReader();
  const held: Buffer[] = [];
  let opened = false;
  socket.on('data', (bytes: Buffer) => (opened ? ws.send(dataFrame(bytes)) : held.push(bytes)));
  socket.once('end', () => ws.close());
  socket.once('close', () => ws.terminate());
  socket.on('error', () => ws.terminate());
  ws.on('open', () => {
    opened = true;
    for (const bytes of held.splice(0)) ws.send(dataFrame(bytes));
  });
  // A reader that does not keep up (a slow subscriber) stops the websocket, and with it TCP back to the
  // API server and the pod: the bytes wait there, not in this process.
  socket.on('drain', () => ws.resume?.());
  ws.on('message', (data) => {
    const bytes = reader.read(Buffer.isBuffer(data) ? data : Buffer.from(data));
    if (bytes.length > 0 && !socket.write(bytes)) ws.pause?.();
  });
  ws.on('unexpected-response', (_request, response) => {
    let body = '';
    response.on('data', (chunk) => (body += chunk.toString('utf8')));
    response.on('end', () => {
      const status = `${response.statusCode ?? 0} ${response.statusMessage ?? ''}`.trim();
      fail(new Error(`port-forward refused: ${status}: ${statusMessage(body)}`));
    });
  });
  ws.on('error', (error) => fail(error));
  ws.on('close', () => {
    if (reader.error !== '') fail(new Error(`port-forward: ${reader.error.trim()}`));
    else socket.end();
  });
}

/** The `message` of a Kubernetes Status body, else the body cut short. */
function statusMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not a Status
  }
  return body.slice(0, 200);
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  });
}

/** Opens the websocket with `ws`, loaded on the first port-forward. */
function wsOpen(url: URL, protocols: string[], options: RequestOptions): ForwardSocket {
  return new (wsModule ??= require('ws') as WsModule).WebSocket(url, protocols, options);
}
