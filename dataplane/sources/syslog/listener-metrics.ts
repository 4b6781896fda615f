// Prometheus counters of syslog listeners, read from their plain-number stats when prom-client collects
// (like telemetry.ts CounterSink: nothing is hashed per frame). One set of counters per registry; each
// listener adds what it counted since the last scrape, so a listener built again on hot reload (its stats
// start at zero) counts on in the same series. Labels are bounded: the ingestor as a component (domain,
// kind `syslog-ingestor`, name), the protocol and, for closed connections, the close cause. The frames a
// listener hands on, and their bytes, are the ingestor's `streamroute_payloads_total` and
// `streamroute_payload_bytes_total`, not a family of their own.
import type { Counter, Registry } from 'prom-client';
import { COMPONENT_LABELS, counterOf, counterSpec, type MetricSpec } from '../../core/metric-spec.js';
import type { SyslogListenerStats } from './listener-stats.js';

const LABELS = [...COMPONENT_LABELS, 'protocol'] as const;

export const SYSLOG_METRICS = {
  connections: counterSpec(
    'streamroute_syslog_connections_total',
    'TCP/TLS connections a syslog listener accepted',
    LABELS,
  ),
  connectionsClosed: counterSpec(
    'streamroute_syslog_connections_closed_total',
    'TCP/TLS connections of a syslog listener that closed, by cause',
    [...LABELS, 'cause'],
  ),
  tlsHandshakeFailures: counterSpec(
    'streamroute_syslog_tls_handshake_failures_total',
    'TLS handshakes a syslog listener refused or that failed',
    LABELS,
  ),
} as const satisfies Record<string, MetricSpec>;

/** The listener's ingestor (its kind is always `syslog-ingestor`) and protocol. */
export interface ListenerLabels {
  domain: string;
  name: string;
  protocol: string;
}

interface Source {
  labels: ListenerLabels;
  read: () => SyslogListenerStats;
  accepted: number;
  handshakes: number;
  closed: Map<string, number>;
}

class SyslogCounters {
  readonly #sources = new Set<Source>();
  readonly #connections: Counter;
  readonly #closed: Counter;
  readonly #handshakes: Counter;

  constructor(registry: Registry) {
    const collect = (): void => this.collect();
    this.#connections = counterOf(SYSLOG_METRICS.connections, registry, collect);
    this.#closed = counterOf(SYSLOG_METRICS.connectionsClosed, registry, collect);
    this.#handshakes = counterOf(SYSLOG_METRICS.tlsHandshakeFailures, registry, collect);
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
    const { domain, name, protocol } = source.labels;
    const labels = { domain, kind: 'syslog-ingestor', name, protocol };
    const inc = (counter: Counter, delta: number, extra: Record<string, string> = {}): void => {
      if (delta > 0) counter.inc({ ...labels, ...extra }, delta);
    };
    inc(this.#connections, stats.connectionsAccepted - source.accepted);
    inc(this.#handshakes, stats.tlsHandshakeFailures - source.handshakes);
    source.accepted = stats.connectionsAccepted;
    source.handshakes = stats.tlsHandshakeFailures;
    for (const [cause, count] of Object.entries(stats.connectionsClosed)) {
      inc(this.#closed, count - (source.closed.get(cause) ?? 0), { cause });
      source.closed.set(cause, count);
    }
  }
}

const BY_REGISTRY = new WeakMap<Registry, SyslogCounters>();

function countersOf(registry: Registry): SyslogCounters {
  let counters = BY_REGISTRY.get(registry);
  if (counters === undefined) {
    counters = new SyslogCounters(registry);
    BY_REGISTRY.set(registry, counters);
  }
  return counters;
}

/** Registers the syslog families in `registry` now, so `/metrics` lists them before a listener runs. */
export function registerSyslogMetrics(registry: Registry): void {
  countersOf(registry);
}

/** Counts a listener's stats into `registry`; the returned function counts the rest and detaches it. */
export function registerListenerMetrics(
  registry: Registry,
  labels: ListenerLabels,
  read: () => SyslogListenerStats,
): () => void {
  const counters = countersOf(registry);
  const source: Source = { labels, read, accepted: 0, handshakes: 0, closed: new Map() };
  counters.add(source);
  return () => counters.remove(source);
}
