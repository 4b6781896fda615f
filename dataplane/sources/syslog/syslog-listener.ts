// A syslog listener ingestor's socket side (docs/syslog-wire.md, "Listeners"): binds the client's address
// over UDP, TCP or TLS, frames what arrives and hands every frame with `metadata.peer_addr` to the ingestor's
// entry. This file wires the parts and owns the lifecycle logs; the parts are:
//
//   stream-framer.ts    RFC 6587 framing per TCP/TLS connection
//   stream-listener.ts  TCP/TLS server: connections, framing errors, TLS handshakes
//   udp-listener.ts     dgram socket: one datagram one frame, oversized datagrams dropped
//   syslog-intake.ts    ON QUIESCE (SUSPEND stops reading; BUFFER/DROP) and the in-flight bound
//   listener-stats.ts / listener-metrics.ts   counts, and Prometheus counters read from them
//
// Lifecycle (info): listening, bind failed → retrying in N ms, recovered, stopped. Per connection (debug):
// accepted, closed with its cause. Never payload bytes, never key material.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { GraphQuiesce } from '../../graph/types.js';
import type { Clock } from '../../core/clock.js';
import type { IngestFn } from '../../core/ingest.js';
import type { ComponentTelemetry } from '../../core/telemetry.js';
import type {
  ListenAddress,
  ListenerHooks,
  ListenerStatus,
  RetryPolicy,
} from '../../net/retrying-listener.js';
import type { ConnectionGate } from '../../net/connection-gate.js';
import { registerListenerMetrics } from './listener-metrics.js';
import { copyStats, emptyStats, type SyslogListenerStats } from './listener-stats.js';
import { ingestConnections, ingestGate, type IngestConnections } from '../../net/ingest-connections.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_PARTIAL_FRAME_TIMEOUT_MS,
  DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS,
  StreamListener,
  type StreamListenerOptions,
  type SyslogTlsMaterial,
} from './stream-listener.js';
import { SyslogIntake } from './syslog-intake.js';
import { dgramCanPause, UdpListener } from './udp-listener.js';

export type { SyslogListenerStats } from './listener-stats.js';
export type { SyslogTlsMaterial } from './stream-listener.js';

export interface SyslogListenerOptions {
  /** For logs (`<domain>/<ingestor>`) and metric labels. */
  domain: string;
  ingestor: string;
  protocol: 'udp' | 'tcp' | 'tls';
  /** IPv6 host without brackets; port 0 = system's choice (tests). */
  address: ListenAddress;
  maxMessageSize: number;
  /** Required for 'tls'; `ca` turns on mutual TLS (requestCert + rejectUnauthorized). */
  tls?: SyslogTlsMaterial;
  quiesce: GraphQuiesce;
  /** The ingestor's entry; metadata is { peer_addr: '127.0.0.1:5000' | '[::1]:5000' }. */
  deliver: IngestFn;
  /** The ingestor's telemetry: quiesce drops, 'oversized_datagram', deliver failures. */
  drops: ComponentTelemetry;
  logger: Logger;
  clock: Clock;
  /** Bind retry (default DEFAULT_LISTEN_RETRY). */
  retry?: RetryPolicy;
  statusChanged?: (status: ListenerStatus) => void;
  /** Deliveries whose promise has not settled; above it reading pauses until below half. Default 1024. */
  maxInFlight?: number;
  /** Counts `streamroute_syslog_*_total` into this registry. */
  registry?: Registry;
  /** A TLS client that has not finished its handshake by then is closed. Default 10 s. */
  tlsHandshakeTimeoutMs?: number;
  /** TCP/TLS: a frame not finished this long after its first byte closes its connection. Default 30 s. */
  partialFrameTimeoutMs?: number;
  /** TCP/TLS: a connection that sends nothing for this long is closed. Default 10 min. */
  idleTimeoutMs?: number;
  /**
   * TCP/TLS: the node's ingestion connection pool and per-peer share (default: a pool of its own sized
   * from the descriptor limit). Refusals and timeouts count in `registry` under `listener="syslog"` and the ingestor's labels.
   */
  connections?: IngestConnections | undefined;
}

export interface SyslogListener {
  /** Stopped/Starting/Running/Retrying with error + backoffMs (RetryingListener semantics). */
  readonly status: ListenerStatus;
  /** SUSPEND in effect (reading stopped). */
  readonly suspended: boolean;
  readonly buffered: { items: number; bytes: number };
  readonly stats: SyslogListenerStats;
  /** Resolves after the first bind attempt (Running, or Retrying with the error); never rejects. */
  start(): Promise<ListenerStatus>;
  /** ON QUIESCE: SUSPEND stops reading; BUFFER/DROP keep reading and buffer or drop. */
  quiesce(): void;
  /** Reading resumes; a BUFFER drains into deliver in arrival order. */
  resume(): Promise<void>;
  /** Hot reload: later frames (and the buffer) go to the new entry. */
  retarget(deliver: IngestFn): void;
  /**
   * Closes the server and every connection (idle or not) at once; buffered frames are counted 'stopped'.
   * `graceMs` is accepted for symmetry with other listeners and not used: syslog has no acknowledgment,
   * so there is nothing to finish.
   */
  stop(graceMs?: number): Promise<void>;
}

interface Transport {
  readonly status: ListenerStatus;
  start(): Promise<ListenerStatus>;
  setReading(reading: boolean): void;
  stop(): Promise<void>;
}

export function createSyslogListener(options: SyslogListenerOptions): SyslogListener {
  if (options.protocol === 'tls' && options.tls === undefined)
    throw new TypeError('a tls syslog listener needs its certificate and key');
  const name = `${options.domain}/${options.ingestor}`;
  const logger = options.logger.child({ listener: name, protocol: options.protocol });
  const stats = emptyStats();
  let transport: Transport | undefined;
  let gate: ConnectionGate | undefined;
  const intake = new SyslogIntake({
    name,
    quiesce: options.quiesce,
    deliver: options.deliver,
    drops: options.drops,
    logger,
    clock: options.clock,
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
    readingChanged: (reading) => transport?.setReading(reading),
  });
  const common = {
    address: options.address,
    maxMessageSize: options.maxMessageSize,
    intake,
    stats,
    logger,
    clock: options.clock,
    retry: options.retry,
    hooks: lifecycleHooks(logger, options),
  };
  if (options.protocol === 'udp') {
    intake.canPause = dgramCanPause();
    transport = new UdpListener({ ...common, drops: options.drops });
  } else {
    const stream = streamTransport(options, common);
    gate = stream.gate;
    transport = stream.listener;
  }
  const unregister =
    options.registry === undefined
      ? undefined
      : registerListenerMetrics(
          options.registry,
          { domain: options.domain, name: options.ingestor, protocol: options.protocol },
          () => stats,
        );
  const sockets = transport;
  return {
    get status() {
      return sockets.status;
    },
    get suspended() {
      return intake.suspended;
    },
    get buffered() {
      return intake.buffered;
    },
    get stats() {
      return copyStats(stats);
    },
    start: () => sockets.start(),
    quiesce: () => intake.quiesce(),
    resume: () => intake.resume(),
    retarget: (deliver) => intake.retarget(deliver),
    async stop() {
      await sockets.stop();
      intake.stop();
      gate?.detach();
      unregister?.();
    },
  };
}

type Common = Omit<
  StreamListenerOptions,
  'tls' | 'tlsHandshakeTimeoutMs' | 'partialFrameTimeoutMs' | 'idleTimeoutMs' | 'gate'
>;

/** TCP or TLS: the listener and the gate that admits its connections (counted as the ingestor's). */
function streamTransport(
  options: SyslogListenerOptions,
  common: Common,
): { listener: StreamListener; gate: ConnectionGate } {
  const { clock, registry } = options;
  const connections =
    options.connections ??
    ingestConnections({}, { clock, logger: common.logger, ...(registry ? { registry } : {}) });
  const gate = ingestGate(connections, { domain: options.domain, name: options.ingestor });
  const listener = new StreamListener({
    ...common,
    tls: options.protocol === 'tls' ? options.tls : undefined,
    tlsHandshakeTimeoutMs: options.tlsHandshakeTimeoutMs ?? DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS,
    partialFrameTimeoutMs:
      options.partialFrameTimeoutMs ?? connections.partialFrameTimeoutMs ?? DEFAULT_PARTIAL_FRAME_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? connections.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    gate,
  });
  return { listener, gate };
}

function lifecycleHooks(logger: Logger, options: SyslogListenerOptions): ListenerHooks {
  let failing = false;
  return {
    listening(address) {
      logger.info(
        { address },
        failing ? 'syslog listener recovered: listening' : 'syslog listener listening',
      );
      failing = false;
    },
    listenFailed(address, code, retryInMs) {
      failing = true;
      // Not retried: the node stops and its one line on stderr says why.
      if (retryInMs === undefined) logger.debug({ address, code }, 'syslog listener bind failed');
      else logger.info({ address, code, retryInMs }, 'syslog listener bind failed: retrying');
    },
    serverError(code) {
      options.drops.generalError('listener_socket_error', `the listening socket failed (${code})`);
    },
    stopped() {
      logger.info('syslog listener stopped');
    },
    ...(options.statusChanged === undefined ? {} : { statusChanged: options.statusChanged }),
  };
}
