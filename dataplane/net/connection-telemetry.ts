// What listeners count about the connections they refuse or close on a timer (docs/runtime.md,
// "Connection limits"): a flood of refusals is a flood of events, so they are plain numbers that prom-client
// reads when it collects, and one warn line per listener and reason per interval (ThrottledDrops) with the
// exact count since the last one. Labels are the listener and the reason, never a peer address.
//
//   streamroute_connections_refused_total{listener, [domain, kind, name,] reason}  node_limit | listener_limit | peer_limit
//   streamroute_connections_timed_out_total{listener, [domain, kind, name,] reason}  idle | partial_frame
//   streamroute_connections_open{listener, [domain, kind, name]}  (gauge) connections a listener holds now
//
// `listener` is `http`, `https`, `admin`, `health` (the node's own listeners), or `syslog`: a syslog
// ingestor's listener, which is a component and so also labelled `domain`, `kind`, `name` like every
// family about components (decision 0024).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import { COMPONENT_LABELS, counterOf, counterSpec, gaugeOf, gaugeSpec } from '../core/metric-spec.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../core/throttled-drops.js';

export const REFUSAL_REASONS = ['node_limit', 'listener_limit', 'peer_limit'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export const TIMEOUT_REASONS = ['idle', 'partial_frame'] as const;
export type TimeoutReason = (typeof TIMEOUT_REASONS)[number];
type Event = RefusalReason | TimeoutReason;

/** A node listener by name, or the listener of a syslog ingestor (domain and ingestor name). */
export type ConnectionListener =
  'http' | 'https' | 'admin' | 'health' | { readonly domain: string; readonly name: string };

type Labels = Record<string, string>;

const LISTENER_LABELS = ['listener', ...COMPONENT_LABELS] as const;

export const CONNECTION_METRICS = {
  refused: counterSpec(
    'streamroute_connections_refused_total',
    'Connections a listener closed at once because a connection limit was reached, by reason',
    [...LISTENER_LABELS, 'reason'],
  ),
  timedOut: counterSpec(
    'streamroute_connections_timed_out_total',
    'Connections a listener closed because they sent nothing, or stopped mid-frame, for too long',
    [...LISTENER_LABELS, 'reason'],
  ),
  open: gaugeSpec('streamroute_connections_open', 'Connections a listener holds now', LISTENER_LABELS),
} as const;

/** The labels of a listener's series, and the fields of its log lines. */
export function listenerLabels(listener: ConnectionListener): Labels {
  if (typeof listener === 'string') return { listener };
  return { listener: 'syslog', domain: listener.domain, kind: 'syslog-ingestor', name: listener.name };
}

const DETAIL: Record<Event, string> = {
  node_limit: 'the ingestion listeners of this node hold as many connections as they may',
  listener_limit: 'this listener holds as many connections as it may',
  peer_limit: 'the peer address holds as many connections on this listener as one peer may',
  idle: 'the connection sent nothing for the idle timeout',
  partial_frame: 'the connection did not finish a frame within the partial-frame timeout',
};

/** A count, or a reader, of one listener (and reason). */
interface Series<T> {
  labels: Labels;
  value: T;
}

/** The counters of one registry; listeners add their counts and open-connection readers. */
class ConnectionCounters {
  readonly refused = new Map<string, Series<number>>();
  readonly timedOut = new Map<string, Series<number>>();
  readonly open = new Map<string, Series<() => number>>();

  constructor(registry: Registry) {
    const counts = (map: Map<string, Series<number>>) =>
      function (this: { reset(): void; inc(labels: Labels, value: number): void }) {
        this.reset();
        for (const { labels, value } of map.values()) this.inc(labels, value);
      };
    const open = this.open;
    counterOf(CONNECTION_METRICS.refused, registry, counts(this.refused));
    counterOf(CONNECTION_METRICS.timedOut, registry, counts(this.timedOut));
    gaugeOf(CONNECTION_METRICS.open, registry, function () {
      this.reset();
      for (const { labels, value } of open.values()) this.set(labels, value());
    });
  }
}

const BY_REGISTRY = new WeakMap<Registry, ConnectionCounters>();

/** Registers the connection families in `registry` now, so `/metrics` lists them before a listener runs. */
export function registerConnectionMetrics(registry: Registry): void {
  countersOf(registry);
}

function countersOf(registry: Registry): ConnectionCounters {
  let counters = BY_REGISTRY.get(registry);
  if (counters === undefined) {
    counters = new ConnectionCounters(registry);
    BY_REGISTRY.set(registry, counters);
  }
  return counters;
}

export interface ConnectionTelemetryOptions {
  registry: Registry;
  logger: Logger | undefined;
  clock: Clock;
  /** One warn line per reason per interval at most (default 10 s). */
  logIntervalMs?: number;
}

/** The connection events of one listener. Counts survive a listener built again under the same name. */
export class ConnectionTelemetry {
  /** The listener's series key in the counters' maps. */
  readonly #key: string;
  readonly #labels: Labels;
  readonly #counters: ConnectionCounters;
  readonly #logs = new Map<Event, ThrottledDrops<Event>>();
  readonly #options: ConnectionTelemetryOptions;

  constructor(listener: ConnectionListener, options: ConnectionTelemetryOptions) {
    this.#labels = listenerLabels(listener);
    this.#key = JSON.stringify(this.#labels);
    this.#options = options;
    this.#counters = countersOf(options.registry);
  }

  refused(reason: RefusalReason): void {
    this.#log(reason).add();
  }

  timedOut(reason: TimeoutReason): void {
    this.#log(reason).add();
  }

  /** Reports `read()` as this listener's open connections until `detach` is called. */
  watchOpen(read: () => number): () => void {
    const series = { labels: this.#labels, value: read };
    this.#counters.open.set(this.#key, series);
    return () => {
      if (this.#counters.open.get(this.#key) === series) this.#counters.open.delete(this.#key);
      for (const log of this.#logs.values()) log.flush();
    };
  }

  #log(event: Event): ThrottledDrops<Event> {
    let log = this.#logs.get(event);
    if (log === undefined) {
      const timeout = (TIMEOUT_REASONS as readonly string[]).includes(event);
      const map = timeout ? this.#counters.timedOut : this.#counters.refused;
      const key = `${this.#key}\u0000${event}`;
      const labels = { ...this.#labels, reason: event };
      const logger = this.#options.logger;
      const fields = this.#labels;
      const sink = {
        countDrops: (_reason: Event, count: number) =>
          map.set(key, { labels, value: (map.get(key)?.value ?? 0) + count }),
        logDrops: (reason: Event, count: number, detail: string) =>
          logger?.warn(
            {
              event: timeout ? 'connections_timed_out' : 'connections_refused',
              ...fields,
              reason,
              count,
              detail,
            },
            timeout ? 'connections closed on a timeout' : 'connections refused',
          ),
      };
      log = new ThrottledDrops<Event>(sink, event, DETAIL[event], {
        clock: this.#options.clock,
        intervalMs: this.#options.logIntervalMs ?? DEFAULT_DROP_LOG_INTERVAL_MS,
      });
      this.#logs.set(event, log);
    }
    return log;
  }
}
