// The TCP (RFC 6587) and TLS (RFC 5425) side of a syslog listener: accepts any number of connections, runs
// one StreamFramer per connection and hands each frame with its peer address to the intake. A framing
// error, a failed TLS handshake or a socket error closes only that connection (docs/syslog-wire.md,
// "Listeners"); binding retries with backoff through RetryingListener (docs/syslog-wire.md, "Listeners", Bind
// failures).
//
// Per connection the listener keeps one small record (peer, close cause, framer, shared metadata): idle
// connections cost a socket and little else. Every accepted TCP socket is tracked by its peer address
// (unique among open connections of one listening socket), so stop() closes idle and half-handshaken
// ones too, and a TLS handshake failure finds its record. Reading stops and starts for every established
// connection at once (SUSPEND, intake overload): socket.pause() leaves data in the kernel, so the peer
// sees TCP backpressure.
//
// Hostile peers (docs/syslog-wire.md, "Listeners"): a connection is admitted by the listener's
// ConnectionGate (node, listener and per-peer limits) before anything is read; one that sent part of a
// frame and has not finished it within `partialFrameTimeoutMs` of its first byte, or that sent nothing for
// `idleTimeoutMs`, is closed. One sweep per listener checks the connections every quarter of the shorter
// timeout (a connection may live up to 1.25× its timeout), so the hot path only notes the time. While
// reading is stopped (SUSPEND, intake overload) nothing times out, and every connection's time starts again
// when reading resumes: the peer cannot send what we do not read.
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { wasRefused, type ConnectionGate } from '../../net/connection-gate.js';
import type { IngestMetadata } from '../../core/ingest.js';
import {
  formatAddress,
  RetryingListener,
  type ListenAddress,
  type ListenerHooks,
  type ListenerStatus,
  type RetryPolicy,
} from '../../net/retrying-listener.js';
import { countClosed, type SyslogListenerStats } from './listener-stats.js';
import { StreamFramer } from './stream-framer.js';
import type { SyslogIntake } from './syslog-intake.js';
import { errorCode } from '../../core/error-code.js';

export interface SyslogTlsMaterial {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
}

export const DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
/** A frame begun and not finished within this time closes its connection. */
export const DEFAULT_PARTIAL_FRAME_TIMEOUT_MS = 30_000;
/** A connection that sends nothing for this long is closed (senders reconnect when they next have a message). */
export const DEFAULT_IDLE_TIMEOUT_MS = 600_000;
const KEEPALIVE_DELAY_MS = 60_000;

export interface StreamListenerOptions {
  address: ListenAddress;
  maxMessageSize: number;
  /** TLS when present; `ca` turns on mutual TLS. */
  tls: SyslogTlsMaterial | undefined;
  tlsHandshakeTimeoutMs: number;
  partialFrameTimeoutMs: number;
  idleTimeoutMs: number;
  /** Admits connections (node, listener and per-peer limits); counts refusals and timeouts. */
  gate: ConnectionGate;
  intake: SyslogIntake;
  stats: SyslogListenerStats;
  logger: Logger;
  clock: Clock;
  retry: RetryPolicy | undefined;
  hooks: ListenerHooks;
}

interface Connection {
  readonly peer: string;
  /** Why it closed, once known ('peer' until something else happens). */
  cause: string;
  /** The socket frames are read from (the TLS socket once its handshake is done). */
  stream: Socket | undefined;
  framer: StreamFramer | undefined;
  /** clock.now() of the last chunk read (or of the connection's start, or of reading resuming). */
  lastRead: number;
  /** clock.now() of the first byte of the frame not finished yet; undefined between frames. */
  frameSince: number | undefined;
}

export class StreamListener {
  readonly #options: StreamListenerOptions;
  readonly #server: Server;
  readonly #listener: RetryingListener;
  readonly #connections = new Map<string, Connection>();
  /** The accepted TCP sockets (for TLS: beneath the TLS socket, also while it shakes hands). */
  readonly #rawSockets = new Map<string, Socket>();
  #stopping = false;
  #reading = true;
  #sweep: TimerHandle | undefined;
  /** stop() waiting for the last connection's close. */
  #allClosed: (() => void) | undefined;

  constructor(options: StreamListenerOptions) {
    this.#options = options;
    const tls = options.tls;
    this.#server =
      tls === undefined
        ? createTcpServer()
        : createTlsServer({
            cert: tls.cert,
            key: tls.key,
            ...(tls.ca === undefined ? {} : { ca: tls.ca }),
            requestCert: tls.ca !== undefined,
            rejectUnauthorized: tls.ca !== undefined,
            minVersion: 'TLSv1.2',
            handshakeTimeout: options.tlsHandshakeTimeoutMs,
          });
    this.#server.on('connection', (socket: Socket) => this.#accepted(socket));
    if (tls !== undefined) {
      this.#server.on('secureConnection', (socket: TLSSocket) => this.#established(socket));
      this.#server.on('tlsClientError', (error: unknown, socket: TLSSocket) =>
        this.#handshakeFailed(error, socket),
      );
    }
    const closable = this.#server as Server & { closeAllConnections: () => void };
    closable.closeAllConnections = () => this.#closeAll();
    this.#listener = new RetryingListener(closable, options.address, {
      clock: options.clock,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      hooks: options.hooks,
    });
  }

  get status(): ListenerStatus {
    return this.#listener.status;
  }

  start(): Promise<ListenerStatus> {
    this.#stopping = false;
    return this.#listener.start();
  }

  /** Pauses or resumes every established connection (and later ones follow the same setting). */
  setReading(reading: boolean): void {
    this.#reading = reading;
    const now = this.#options.clock.now();
    for (const connection of this.#connections.values()) {
      const stream = connection.stream;
      if (stream === undefined) continue;
      if (reading) {
        connection.lastRead = now;
        if (connection.frameSince !== undefined) connection.frameSince = now;
        stream.resume();
      } else stream.pause();
    }
  }

  /** Stops listening and closes every connection at once, idle or not. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#disarmSweep();
    await this.#listener.stop(0);
    this.#closeAll();
    if (this.#connections.size > 0) await new Promise<void>((resolve) => (this.#allClosed = resolve));
  }

  #closeAll(): void {
    for (const connection of this.#connections.values()) connection.stream?.destroy();
    // Raw sockets of TLS connections still in their handshake have no stream yet.
    for (const socket of this.#rawSockets.values()) socket.destroy();
  }

  #accepted(socket: Socket): void {
    const peer = peerOf(socket.remoteAddress, socket.remotePort);
    if (this.#stopping) {
      socket.destroy();
      return;
    }
    if (!this.#options.gate.admit(socket)) return;
    const connection: Connection = {
      peer,
      cause: 'peer',
      stream: undefined,
      framer: undefined,
      lastRead: this.#options.clock.now(),
      frameSince: undefined,
    };
    this.#connections.set(peer, connection);
    this.#rawSockets.set(peer, socket);
    this.#options.stats.connectionsAccepted++;
    this.#options.stats.connectionsOpen++;
    socket.setKeepAlive(true, KEEPALIVE_DELAY_MS);
    socket.on('close', () => this.#closed(connection));
    socket.on('error', (error: unknown) => this.#failed(connection, error));
    this.#options.logger.debug({ peer }, 'syslog connection accepted');
    if (this.#options.tls === undefined) this.#established(socket);
  }

  #established(socket: Socket): void {
    const peer = peerOf(socket.remoteAddress, socket.remotePort);
    const connection = this.#connections.get(peer);
    if (connection === undefined) {
      socket.destroy();
      return;
    }
    const framer = new StreamFramer(this.#options.maxMessageSize);
    connection.stream = socket;
    connection.framer = framer;
    const { intake, stats } = this.#options;
    const metadata: IngestMetadata = Object.freeze({ peer_addr: peer });
    const onFrame = (frame: Buffer): void => {
      stats.frames++;
      stats.frameBytes += frame.length;
      intake.offer(frame, metadata);
    };
    const clock = this.#options.clock;
    connection.lastRead = clock.now();
    socket.on('data', (chunk: Buffer) => {
      const empty = framer.emptyFrames;
      const frames = stats.frames;
      const error = framer.push(chunk, onFrame);
      stats.emptyFrames += framer.emptyFrames - empty;
      const now = clock.now();
      connection.lastRead = now;
      // A frame left unfinished began in this chunk unless one was pending before and none ended here.
      if (framer.pendingBytes === 0) connection.frameSince = undefined;
      else if (connection.frameSince === undefined || stats.frames !== frames || framer.emptyFrames !== empty)
        connection.frameSince = now;
      if (error === undefined) return;
      connection.cause = `framing:${error.cause}`;
      this.#options.logger.debug(
        { peer, cause: error.cause, detail: error.detail },
        'syslog connection closed: framing error',
      );
      socket.destroy();
    });
    // A TLS socket reports its own errors; a TCP socket's listener was added on accept.
    if (this.#options.tls !== undefined)
      socket.on('error', (error: unknown) => this.#failed(connection, error));
    if (!intake.reading) socket.pause();
    this.#armSweep();
  }

  #armSweep(): void {
    if (this.#sweep !== undefined || this.#stopping) return;
    const { partialFrameTimeoutMs, idleTimeoutMs, clock } = this.#options;
    const every = Math.max(10, Math.min(partialFrameTimeoutMs, idleTimeoutMs) / 4);
    this.#sweep = clock.setTimeout(() => {
      this.#sweep = undefined;
      this.#closeStalled();
      if (this.#connections.size > 0) this.#armSweep();
    }, every);
  }

  #disarmSweep(): void {
    if (this.#sweep !== undefined) this.#options.clock.clearTimeout(this.#sweep);
    this.#sweep = undefined;
  }

  /** Closes the connections past the partial-frame or the idle timeout (not while reading is stopped). */
  #closeStalled(): void {
    if (!this.#reading) return;
    const { partialFrameTimeoutMs, idleTimeoutMs, clock, gate } = this.#options;
    const now = clock.now();
    for (const connection of this.#connections.values()) {
      const { stream, frameSince } = connection;
      if (stream === undefined || connection.cause !== 'peer') continue;
      let reason: 'partial_frame' | 'idle' | undefined;
      if (frameSince !== undefined && now - frameSince >= partialFrameTimeoutMs) reason = 'partial_frame';
      else if (frameSince === undefined && now - connection.lastRead >= idleTimeoutMs) reason = 'idle';
      if (reason === undefined) continue;
      connection.cause = `${reason}_timeout`;
      gate.telemetry.timedOut(reason);
      stream.destroy();
    }
  }

  #failed(connection: Connection, error: unknown): void {
    if (connection.cause === 'peer') connection.cause = `error:${errorCode(error)}`;
  }

  /**
   * A refused handshake. Node reports some (no client certificate, garbage, timeout) before the socket
   * closes, and a rejected certificate only after it closed (as a hang-up, with the verification code in
   * `authorizationError`); so counting happens on close (#closed) and this only names the code.
   */
  #handshakeFailed(error: unknown, socket: TLSSocket): void {
    if (wasRefused(socket)) return void socket.destroy();
    const code = typeof socket.authorizationError === 'string' ? socket.authorizationError : errorCode(error);
    const connection = this.#connections.get(peerOf(socket.remoteAddress, socket.remotePort));
    if (connection !== undefined) connection.cause = 'tls_handshake';
    this.#options.logger.debug(
      { peer: connection?.peer ?? 'closed', code },
      'syslog TLS handshake failed: connection closed',
    );
    socket.destroy();
  }

  #closed(connection: Connection): void {
    const { peer } = connection;
    // A new connection from the same address and port may have been accepted before this close event.
    if (this.#connections.get(peer) === connection) {
      this.#connections.delete(peer);
      this.#rawSockets.delete(peer);
    }
    const stats = this.#options.stats;
    let cause = this.#stopping && connection.cause === 'peer' ? 'stopped' : connection.cause;
    if (this.#options.tls !== undefined && connection.stream === undefined && cause !== 'stopped') {
      // Closed before its TLS session was established: a failed (or abandoned) handshake.
      cause = 'tls_handshake';
      stats.tlsHandshakeFailures++;
    }
    countClosed(stats, cause);
    this.#countTruncated(connection);
    this.#options.logger.debug({ peer, cause }, 'syslog connection closed');
    if (this.#connections.size === 0) {
      this.#disarmSweep();
      this.#allClosed?.();
    }
  }

  /** A connection that closed mid-frame (not on a framing error, whose frame was refused) lost that frame. */
  #countTruncated({ framer, peer }: Connection): void {
    if (framer === undefined || framer.error !== undefined || framer.pendingBytes === 0) return;
    this.#options.stats.truncatedFrames++;
    this.#options.logger.debug(
      { peer, pendingBytes: framer.pendingBytes },
      'syslog connection closed mid-frame: partial frame discarded',
    );
  }
}

export function peerOf(address: string | undefined, port: number | undefined): string {
  return formatAddress({ host: address ?? 'unknown', port: port ?? 0 });
}
