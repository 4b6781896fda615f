// The connection limits every ingestion listener of a node shares (docs/runtime.md, "Connection limits"):
// one pool for the HTTP, HTTPS and syslog TCP/TLS listeners together, and the per-peer share. The defaults
// come from the descriptor limit (fd-limit.ts); `--max-connections` and `--max-connections-per-peer` set
// them. Each listener builds its gate from this with its own name.
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { systemClock, type Clock } from '../core/clock.js';
import { ConnectionGate, ConnectionPool } from './connection-gate.js';
import { ConnectionTelemetry, type ConnectionListener } from './connection-telemetry.js';
import { connectionDefaults, perPeerShare, type ConnectionDefaults } from './fd-limit.js';

/** What an operator may set; what is not set comes from the descriptor limit. */
export interface IngestConnectionOptions {
  /** Connections of every ingestion listener together. */
  maxConnections?: number;
  /** Connections of one peer on one ingestion listener. */
  maxConnectionsPerPeer?: number;
  /** Syslog TCP/TLS: a frame not finished this long after its first byte closes its connection. */
  partialFrameTimeoutMs?: number;
  /** Syslog TCP/TLS: a connection that sends nothing for this long is closed. */
  idleTimeoutMs?: number;
}

export interface IngestConnections {
  pool: ConnectionPool;
  maxPerPeer: number;
  partialFrameTimeoutMs?: number;
  idleTimeoutMs?: number;
  registry: Registry;
  logger: Logger | undefined;
  clock: Clock;
}

export interface IngestConnectionDeps {
  registry?: Registry;
  logger?: Logger;
  clock?: Clock;
  defaults?: ConnectionDefaults;
}

export function ingestConnections(
  options: IngestConnectionOptions = {},
  deps: IngestConnectionDeps = {},
): IngestConnections {
  const defaults = deps.defaults ?? connectionDefaults();
  const max = options.maxConnections ?? defaults.ingest;
  const perPeer = options.maxConnectionsPerPeer ?? perPeerShare(max);
  return {
    pool: new ConnectionPool(max),
    maxPerPeer: Math.min(perPeer, max),
    ...(options.partialFrameTimeoutMs === undefined
      ? {}
      : { partialFrameTimeoutMs: options.partialFrameTimeoutMs }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    registry: deps.registry ?? new Registry(),
    logger: deps.logger,
    clock: deps.clock ?? systemClock,
  };
}

/** The gate of one ingestion listener: the whole pool may be its, one peer its share. */
export function ingestGate(connections: IngestConnections, listener: ConnectionListener): ConnectionGate {
  const telemetry = new ConnectionTelemetry(listener, {
    registry: connections.registry,
    logger: connections.logger,
    clock: connections.clock,
  });
  return new ConnectionGate(
    { maxConnections: connections.pool.max, maxPerPeer: connections.maxPerPeer, pool: connections.pool },
    telemetry,
  );
}
