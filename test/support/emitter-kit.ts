// Test support for the emitter tests (not used by the data plane): receivers on 127.0.0.1 that a test
// controls (a TCP or TLS server that records what each connection sent, a UDP socket that records
// datagrams), an emitter factory with real telemetry over a private registry and a logger whose lines
// are kept, and `waitFor`, which polls a condition on the event loop instead of sleeping a fixed time.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket, type TlsOptions } from 'node:tls';
import { pino, type Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Codec } from '../../dataplane/codecs/codec.js';
import type { GraphEmitter, GraphSyslogClient } from '../../dataplane/graph/types.js';
import { ManualClock, type Clock } from '../../dataplane/core/clock.js';
import type { Failure } from '../../dataplane/flow/error-policy.js';
import { readCounter, Telemetry } from '../../dataplane/core/telemetry.js';
import type { RecordValues } from '../../dataplane/core/values.js';
import { SyslogEmitter, type SyslogEmitterOptions } from '../../dataplane/emitters/syslog-emitter.js';

/** Polls `check` every few milliseconds until it holds; fails after `timeoutMs` naming `what`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export interface Connection {
  socket: Socket;
  chunks: Buffer[];
  bytes(): Buffer;
  /** TLS only: the SNI the client sent and the client certificate's CN. */
  servername?: string | false | null;
  peerCn?: string;
}

export type OnConnection = (connection: Connection, index: number) => void;

/** A TCP (or, with `tls`, TLS) server on 127.0.0.1 that records every connection's bytes. */
export class StreamReceiver {
  readonly connections: Connection[] = [];
  readonly server: Server;
  onConnection: OnConnection | undefined;
  tlsErrors: string[] = [];

  constructor(tls?: TlsOptions) {
    const accept = (socket: Socket): void => {
      const connection: Connection = { socket, chunks: [], bytes: () => Buffer.concat(connection.chunks) };
      if (tls !== undefined) {
        const secure = socket as TLSSocket;
        connection.servername = secure.servername;
        const cn = secure.getPeerCertificate().subject?.CN;
        if (typeof cn === 'string') connection.peerCn = cn;
      }
      socket.on('data', (chunk: Buffer) => connection.chunks.push(chunk));
      socket.on('error', () => {});
      this.connections.push(connection);
      this.onConnection?.(connection, this.connections.length - 1);
    };
    this.server = tls === undefined ? createNetServer(accept) : createTlsServer(tls, accept);
    this.server.on('tlsClientError', (error: Error & { code?: string }) =>
      this.tlsErrors.push(error.code ?? 'UNKNOWN'),
    );
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    return this;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  /** Everything every connection received, in connection order. */
  all(): Buffer {
    return Buffer.concat(this.connections.map((connection) => connection.bytes()));
  }

  async close(): Promise<void> {
    for (const { socket } of this.connections) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A UDP socket on 127.0.0.1 that records datagrams. */
export class DatagramReceiver {
  readonly datagrams: Buffer[] = [];
  readonly #socket: UdpSocket = createSocket('udp4');

  async listen(): Promise<this> {
    this.#socket.on('message', (message) => this.datagrams.push(message));
    await new Promise<void>((resolve) => this.#socket.bind(0, '127.0.0.1', () => resolve()));
    return this;
  }

  get port(): number {
    return this.#socket.address().port;
  }

  close(): void {
    this.#socket.close();
  }
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const receiver = await new StreamReceiver().listen();
  const { port } = receiver;
  await receiver.close();
  return port;
}

/** Splits an octet-counted stream into its payloads (test-side reader; fails on a malformed stream). */
export function octetFrames(stream: Buffer): string[] {
  const frames: string[] = [];
  let at = 0;
  while (at < stream.length) {
    const space = stream.indexOf(0x20, at);
    if (space < 0) throw new Error(`no octet count at ${at}`);
    const length = Number(stream.subarray(at, space).toString('latin1'));
    if (!Number.isInteger(length) || length <= 0) throw new Error(`bad octet count at ${at}`);
    const end = space + 1 + length;
    if (end > stream.length) break; // an incomplete last frame (a connection cut mid-write)
    frames.push(stream.subarray(space + 1, end).toString('utf8'));
    at = end;
  }
  return frames;
}

export interface EmitterFixture {
  emitter: SyslogEmitter;
  registry: Registry;
  failures: Failure[];
  logs: string[];
  clock: Clock;
  counter: (
    metric: 'drops' | 'records_out' | 'records_in' | 'general_errors',
    reason?: string,
  ) => Promise<number>;
}

export interface FixtureOptions {
  client: Partial<GraphSyslogClient> & Pick<GraphSyslogClient, 'protocol' | 'port'>;
  codec: Codec;
  batch?: GraphEmitter['batch'];
  retry?: GraphEmitter['retry'];
  clock?: Clock;
  extra?: Partial<SyslogEmitterOptions>;
}

const METRIC_NAMES = {
  drops: 'streamroute_drops_total',
  records_out: 'streamroute_records_out_total',
  records_in: 'streamroute_records_in_total',
  general_errors: 'streamroute_general_errors_total',
} as const;

const live = new Set<SyslogEmitter>();

/** Stops every emitter the fixtures made (for afterEach, so a failed test leaves no socket open). */
export async function stopEmitters(): Promise<void> {
  const emitters = [...live];
  live.clear();
  await Promise.all(emitters.map((emitter) => emitter.stop(0)));
}

export function emitterFixture(options: FixtureOptions): EmitterFixture {
  const logs: string[] = [];
  const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => logs.push(line) });
  const registry = new Registry();
  const telemetry = new Telemetry({ registry, logger, domain: 'test' }).component('emitter', 'out');
  const failures: Failure[] = [];
  const clock = options.clock ?? new ManualClock(1_000_000);
  const spec: GraphEmitter = {
    from: 'relay',
    client: 'target',
    codec: 'codec',
    mode: 'NO_ACK',
    retry: options.retry ?? { backoffMs: 100, maxMs: 400 },
    flush: 'IMMEDIATE',
    onMessageError: { action: 'LOG' },
    onGeneralError: 'LOG',
    ...(options.batch === undefined ? {} : { batch: options.batch }),
  };
  const client: GraphSyslogClient = { host: '127.0.0.1', maxMessageSize: 131_072, ...options.client };
  const emitter = new SyslogEmitter({
    domain: 'test',
    name: 'out',
    spec,
    client,
    codec: options.codec,
    onMessageError: (failure) => failures.push(failure),
    telemetry,
    logger,
    clock,
    ...options.extra,
  });
  live.add(emitter);
  const counter = async (metric: keyof typeof METRIC_NAMES, reason?: string): Promise<number> => {
    telemetry.flush();
    return readCounter(
      registry,
      METRIC_NAMES[metric],
      reason === undefined ? { name: 'out' } : { name: 'out', reason },
    );
  };
  return { emitter, registry, failures, logs, clock, counter };
}

/** A syslog record (all nine fields) with the given message; app `app`, host `h`, facility 1, severity 5. */
export function syslogRecord(message: string, extra: Partial<RecordValues> = {}): RecordValues {
  return {
    facility: 1,
    severity: 5,
    timestamp: null,
    hostname: 'h',
    app_name: 'app',
    proc_id: null,
    msg_id: null,
    structured_data: null,
    message,
    ...extra,
  };
}

/** The RFC 5424 text `syslogRecord(message)` encodes to. */
export function syslogText(message: string): string {
  return `<13>1 - h app - - - ${message}`;
}
