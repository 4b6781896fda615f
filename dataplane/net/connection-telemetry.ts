// What listeners count about the connections they refuse or close on a timer (docs/runtime.md,
// "Connection limits"): a flood of refusals is a flood of events, so they are plain numbers that prom-client
// reads when it collects, and one warn line per listener and reason per interval (ThrottledDrops) with the
// exact count since the last one. Labels are the listener's name and the reason, never a peer address.
//
//   streamroute_connections_refused_total{listener, reason}    node_limit | listener_limit | peer_limit
//   streamroute_connections_timed_out_total{listener, reason}  idle | partial_frame
//   streamroute_connections_open{listener}                     (gauge) connections a listener holds now
//
// `listener` is `http`, `https`, `admin`, `health`, or `syslog:<domain>/<ingestor>`.
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../core/throttled-drops.js';

export const REFUSAL_REASONS = ['node_limit', 'listener_limit', 'peer_limit'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export const TIMEOUT_REASONS = ['idle', 'partial_frame'] as const;
export type TimeoutReason = (typeof TIMEOUT_REASONS)[number];
type Event = RefusalReason | TimeoutReason;

export const CONNECTION_METRICS = {
  refused: {
    name: 'streamroute_connections_refused_total',
    help: 'Connections a listener closed at once because a connection limit was reached, by reason',
  },
  timedOut: {
    name: 'streamroute_connections_timed_out_total',
    help: 'Connections a listener closed because they sent nothing, or stopped mid-frame, for too long',
  },
  open: { name: 'streamroute_connections_open', help: 'Connections a listener holds now' },
} as const;

const DETAIL: Record<Event, string> = {
  node_limit: 'the ingestion listeners of this node hold as many connections as they may',
  listener_limit: 'this listener holds as many connections as it may',
  peer_limit: 'the peer address holds as many connections on this listener as one peer may',
  idle: 'the connection sent nothing for the idle timeout',
  partial_frame: 'the connection did not finish a frame within the partial-frame timeout',
};

/** The counters of one registry; listeners add their counts and open-connection readers. */
class ConnectionCounters {
  readonly refused = new Map<string, number>();
  readonly timedOut = new Map<string, number>();
  readonly open = new Map<string, () => number>();

  constructor(registry: Registry) {
    const counts = (map: Map<string, number>) =>
      function (this: Counter) {
        this.reset();
        for (const [key, value] of map) {
          const [listener = '', reason = ''] = key.split('\u0000');
          this.inc({ listener, reason }, value);
        }
      };
    const open = this.open;
    new Counter({
      ...CONNECTION_METRICS.refused,
      labelNames: ['listener', 'reason'],
      registers: [registry],
      collect: counts(this.refused),
    });
    new Counter({
      ...CONNECTION_METRICS.timedOut,
      labelNames: ['listener', 'reason'],
      registers: [registry],
      collect: counts(this.timedOut),
    });
    new Gauge({
      ...CONNECTION_METRICS.open,
      labelNames: ['listener'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [listener, read] of open) this.set({ listener }, read());
      },
    });
  }
}

const BY_REGISTRY = new WeakMap<Registry, ConnectionCounters>();

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
  readonly #listener: string;
  readonly #counters: ConnectionCounters;
  readonly #logs = new Map<Event, ThrottledDrops<Event>>();
  readonly #options: ConnectionTelemetryOptions;

  constructor(listener: string, options: ConnectionTelemetryOptions) {
    this.#listener = listener;
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
    this.#counters.open.set(this.#listener, read);
    return () => {
      if (this.#counters.open.get(this.#listener) === read) this.#counters.open.delete(this.#listener);
      for (const log of this.#logs.values()) log.flush();
    };
  }

  #log(event: Event): ThrottledDrops<Event> {
    let log = this.#logs.get(event);
    if (log === undefined) {
      const timeout = (TIMEOUT_REASONS as readonly string[]).includes(event);
      const map = timeout ? this.#counters.timedOut : this.#counters.refused;
      const key = `${this.#listener}\u0000${event}`;
      const logger = this.#options.logger;
      const listener = this.#listener;
      const sink = {
        countDrops: (_reason: Event, count: number) => map.set(key, (map.get(key) ?? 0) + count),
        logDrops: (reason: Event, count: number, detail: string) =>
          logger?.warn(
            {
              event: timeout ? 'connections_timed_out' : 'connections_refused',
              listener,
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
