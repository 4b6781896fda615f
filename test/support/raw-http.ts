// A byte-level HTTP/1.1 client for tests: writes exactly the bytes given (odd Host headers, chunked
// bodies, half-sent uploads, several requests on one connection) and parses the responses that come back,
// so a test sees what a listener really sends and when it closes the connection.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  readonly socket: Socket | TLSSocket;
  #buffer = Buffer.alloc(0);
  #closed = false;
  #wake: (() => void) | undefined;

  private constructor(socket: Socket | TLSSocket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = netConnect({ port, host }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  static connectTls(port: number, options: ConnectionOptions): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = tlsConnect({ port, host: '127.0.0.1', ...options }, () =>
        resolve(new RawConnection(socket)),
      );
      socket.once('error', reject);
    });
  }

  /** True once the peer closed (or reset) the connection. */
  get closed(): boolean {
    return this.#closed;
  }

  write(data: string | Uint8Array): void {
    this.socket.write(data);
  }

  /** The next response (a `100 Continue` counts as one). Rejects when the connection closes first. */
  async response(): Promise<RawResponse> {
    for (;;) {
      const parsed = this.#parse();
      if (parsed !== undefined) return parsed;
      if (this.#closed)
        throw new Error(`connection closed; unparsed: ${JSON.stringify(this.#buffer.toString('latin1'))}`);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Resolves when the peer has closed the connection. */
  async closedByPeer(): Promise<void> {
    while (!this.#closed) await new Promise<void>((resolve) => (this.#wake = resolve));
  }

  /** Sends a request and reads its response. */
  async request(request: RawRequest): Promise<RawResponse> {
    this.write(formatRequest(request));
    return this.response();
  }

  destroy(): void {
    this.socket.destroy();
  }

  #parse(): RawResponse | undefined {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine = '', ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.#buffer.length < end + 4 + length) return undefined;
    const body = this.#buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.#buffer = this.#buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

export interface RawRequest {
  method?: string;
  path?: string;
  /** The Host header as sent; null sends none. */
  host?: string | null;
  headers?: Record<string, string>;
  /** Sent with Content-Length unless `headers` has Transfer-Encoding. */
  body?: string | Uint8Array;
  version?: '1.0' | '1.1';
}

/** One request on a fresh connection, closed afterwards. */
export async function sendOnce(port: number, request: RawRequest): Promise<RawResponse> {
  const connection = await RawConnection.connect(port);
  try {
    return await connection.request(request);
  } finally {
    connection.destroy();
  }
}

export function formatRequest(request: RawRequest): Buffer {
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : Buffer.from(request.body ?? []);
  const headers: Record<string, string> = { ...request.headers };
  if (request.host !== null) headers.Host = request.host ?? 'localhost';
  const chunked = Object.keys(headers).some((name) => name.toLowerCase() === 'transfer-encoding');
  const method = request.method ?? 'POST';
  if (!chunked && (body.length > 0 || method === 'POST')) headers['Content-Length'] = String(body.length);
  const head = [
    `${method} ${request.path ?? '/'} HTTP/${request.version ?? '1.1'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body]);
}

/** A chunked body from its pieces. */
export function chunked(pieces: readonly string[]): string {
  return `${pieces.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`).join('')}0\r\n\r\n`;
}

/** Polls `condition` until it holds (for effects that follow a socket event on the server side). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 2000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
