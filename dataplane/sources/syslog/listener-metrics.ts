// Prometheus counters of syslog listeners, read from their plain-number stats when prom-client collects
// (like telemetry.ts CounterSink: nothing is hashed per frame). One set of counters per registry; each
// listener adds what it counted since the last scrape, so a listener built again on hot reload (its stats
// start at zero) counts on in the same series. Labels are bounded: domain, ingestor, protocol and, for
// closed connections, the close cause.
import { Counter, type Registry } from 'prom-client';
import type { SyslogListenerStats } from './listener-stats.js';

export const SYSLOG_METRICS = {
  connections: {
    name: 'streamroute_syslog_connections_total',
    help: 'TCP/TLS connections a syslog listener accepted',
  },
  connectionsClosed: {
    name: 'streamroute_syslog_connections_closed_total',
    help: 'TCP/TLS connections of a syslog listener that closed, by cause',
  },
  frames: { name: 'streamroute_syslog_frames_total', help: 'Frames (messages) a syslog listener received' },
  tlsHandshakeFailures: {
    name: 'streamroute_syslog_tls_handshake_failures_total',
    help: 'TLS handshakes a syslog listener refused or that failed',
  },
} as const;

export interface ListenerLabels {
  domain: string;
  ingestor: string;
  protocol: string;
}

interface Source {
  labels: ListenerLabels;
  read: () => SyslogListenerStats;
  accepted: number;
  frames: number;
  handshakes: number;
  closed: Map<string, number>;
}

class SyslogCounters {
  readonly #sources = new Set<Source>();
  readonly #connections: Counter;
  readonly #closed: Counter;
  readonly #frames: Counter;
  readonly #handshakes: Counter;

  constructor(registry: Registry) {
    const labelNames = ['domain', 'ingestor', 'protocol'];
    const collect = (): void => this.collect();
    const make = (metric: { name: string; help: string }, names: string[]): Counter =>
      new Counter({ ...metric, labelNames: names, registers: [registry], collect });
    this.#connections = make(SYSLOG_METRICS.connections, labelNames);
    this.#closed = make(SYSLOG_METRICS.connectionsClosed, [...labelNames, 'cause']);
    this.#frames = make(SYSLOG_METRICS.frames, labelNames);
    this.#handshakes = make(SYSLOG_METRICS.tlsHandshakeFailures, labelNames);
  }

  add(source: Source): void {
    this.#sources.add(source);
  }

  remove(source: Source): void {
    this.#collectOne(source);
    this.#sources.delete(source);
  }

  collect(): void {
    for (const source of this.#sources) this.#collectOne(source);
  }

  #collectOne(source: Source): void {
    const stats = source.read();
    const labels = { ...source.labels };
    const inc = (counter: Counter, delta: number, extra: Record<string, string> = {}): void => {
      if (delta > 0) counter.inc({ ...labels, ...extra }, delta);
    };
    inc(this.#connections, stats.connectionsAccepted - source.accepted);
    inc(this.#frames, stats.frames - source.frames);
    inc(this.#handshakes, stats.tlsHandshakeFailures - source.handshakes);
    source.accepted = stats.connectionsAccepted;
    source.frames = stats.frames;
    source.handshakes = stats.tlsHandshakeFailures;
    for (const [cause, count] of Object.entries(stats.connectionsClosed)) {
      inc(this.#closed, count - (source.closed.get(cause) ?? 0), { cause });
      source.closed.set(cause, count);
    }
  }
}

const BY_REGISTRY = new WeakMap<Registry, SyslogCounters>();

/** Counts a listener's stats into `registry`; the returned function counts the rest and detaches it. */
export function registerListenerMetrics(
  registry: Registry,
  labels: ListenerLabels,
  read: () => SyslogListenerStats,
): () => void {
  let counters = BY_REGISTRY.get(registry);
  if (counters === undefined) {
    counters = new SyslogCounters(registry);
    BY_REGISTRY.set(registry, counters);
  }
  const source: Source = { labels, read, accepted: 0, frames: 0, handshakes: 0, closed: new Map() };
  counters.add(source);
  const owner = counters;
  return () => owner.remove(source);
}
