// Typed telemetry events of the runtime: each one both logs (pino) and counts (prom-client). Counters end
// in `_total` and carry only bounded labels — domain, component kind, component name and, for errors and
// drops, a reason (an error code or a drop reason) — never a value. Logs carry names, codes, reasons
// (which never quote payloads) and sizes. One prom-client Registry per node is passed in, so tests and the
// admin API read the same counters; building a topology twice (hot reload) counts on in the same ones.
// Per-record counts are plain numbers that prom-client collects on scrape (see CounterSink).
import type { Logger } from 'pino';
import type { Counter, Registry } from 'prom-client';
import { systemClock, type Clock } from './clock.js';
import type { MessageError } from './errors.js';
import { MessageErrorLines } from './message-error-lines.js';
import {
  COMPONENT_LABELS,
  counterOf,
  counterSpec,
  gaugeOf,
  gaugeSpec,
  type MetricSpec,
} from './metric-spec.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from './throttled-drops.js';

/** The `kind` label of a component's series. */
export const COMPONENT_KINDS = [
  'http-ingestor',
  'syslog-ingestor',
  'topic-ingestor',
  'relay',
  'junction',
  'correlator',
  'emitter',
  'subscriber',
] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

/** Why a record was lost. Every loss is one of these, counted and logged. */
export const DROP_REASONS = [
  'error_record_failed', // an ON MESSAGE ERROR SEND TO record could not be built; it is never re-routed
  'consumer_failed', // a relay consumer threw while taking a record
  'max_pending', // a correlator side was full and dropped its oldest pending record
  'correlation_timeout', // a correlator timed a record out with DROP
  'subscriber_overflow', // a slow subscriber's buffer dropped its oldest record
  'quiesce_drop', // ON QUIESCE DROP: a payload arrived while its ingestor was quiesced
  'overflow_drop_oldest', // ON QUIESCE BUFFER … DROP OLDEST evicted the oldest buffered payload
  'overflow_drop_newest', // ON QUIESCE BUFFER … DROP NEWEST refused the arriving payload
  'larger_than_buffer', // a payload larger than the whole quiesce buffer
  'deliver_failed', // delivering a buffered payload failed while the quiesce buffer drained
  'stopped', // a component stopped (hot reload, shutdown) while holding the record
  'oversized_datagram', // a syslog UDP datagram larger than the client's max_message_size
  'emitter_queue_full', // an emitter's bounded queue was full while its target was down; the oldest went
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * Why a component itself failed (ON GENERAL ERROR LOG), counted in `streamroute_general_errors_total` and
 * logged at error. An emitter's failed connect or write is a general error too, whose reason is the
 * transport's own code (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, …: see `transportError`).
 */
export const GENERAL_ERROR_REASONS = [
  'ingest_failed', // routing a decoded payload threw (a defect); the ingestor goes on with the next one
  'deliver_failed', // a syslog listener could not hand a frame to its ingestor's entry
  'listener_socket_error', // a syslog listener's listening socket failed
] as const;
export type GeneralErrorReason = (typeof GENERAL_ERROR_REASONS)[number];

const LABELS = COMPONENT_LABELS;
const REASON_LABELS = [...LABELS, 'reason'] as const;

/** The families every component counts into, labelled domain, kind, name (and reason). */
export const METRICS = {
  payloads: counterSpec('streamroute_payloads_total', 'Payloads an ingestor received', LABELS),
  payloadBytes: counterSpec(
    'streamroute_payload_bytes_total',
    'Bytes of the payloads an ingestor received',
    LABELS,
  ),
  recordsIn: counterSpec('streamroute_records_in_total', 'Records a component received', LABELS),
  recordsOut: counterSpec('streamroute_records_out_total', 'Records a component delivered', LABELS),
  messageErrors: counterSpec(
    'streamroute_message_errors_total',
    'Messages that failed (reason: the error code), handled by ON MESSAGE ERROR',
    REASON_LABELS,
  ),
  drops: counterSpec('streamroute_drops_total', 'Records lost, by reason', REASON_LABELS),
  generalErrors: counterSpec(
    'streamroute_general_errors_total',
    'General failures of a component, by reason',
    REASON_LABELS,
  ),
} as const satisfies Record<string, MetricSpec>;

/** Read when prom-client collects, from the components that hold records (`holdsPending`). */
export const PENDING_METRIC = gaugeSpec(
  'streamroute_pending_records',
  'Records a component holds waiting for their turn: the unpaired records of a correlator',
  LABELS,
);

type MetricKey = keyof typeof METRICS;
/** Counted on every record: kept as plain numbers and handed to prom-client when it collects. */
type HotKey = 'payloads' | 'payloadBytes' | 'recordsIn' | 'recordsOut';
type ReasonKey = 'messageErrors' | 'drops' | 'generalErrors';
const HOT_KEYS: readonly HotKey[] = ['payloads', 'payloadBytes', 'recordsIn', 'recordsOut'];

/**
 * The counters of one registry. prom-client hashes the labels on every `inc`, which would cost more than
 * routing a record, so components count per-record events in plain numbers and the counters' `collect`
 * (run by every scrape and `get()`) adds them. Components are kept by domain, kind and name, so a
 * topology built again (hot reload) counts on in the same component.
 */
class CounterSink {
  readonly counters: Record<MetricKey, Counter>;
  readonly #components = new Map<string, ComponentTelemetry>();

  constructor(registry: Registry) {
    const collect = (): void => this.flush();
    const make = (key: MetricKey): Counter => {
      const reason = key === 'messageErrors' || key === 'drops' || key === 'generalErrors';
      // Drops may come in floods (a slow subscriber): they are counted in plain numbers too.
      return counterOf(METRICS[key], registry, reason && key !== 'drops' ? undefined : collect);
    };
    const components = this.#components;
    gaugeOf(PENDING_METRIC, registry, function () {
      this.reset();
      for (const component of components.values()) {
        const pending = component.pendingNow();
        if (pending !== undefined) this.labels(...component.labels).set(pending);
      }
    });
    this.counters = {
      payloads: make('payloads'),
      payloadBytes: make('payloadBytes'),
      recordsIn: make('recordsIn'),
      recordsOut: make('recordsOut'),
      messageErrors: make('messageErrors'),
      drops: make('drops'),
      generalErrors: make('generalErrors'),
    };
  }

  component(options: TelemetryOptions, kind: ComponentKind, name: string): ComponentTelemetry {
    const key = `${options.domain}\u0000${kind}\u0000${name}`;
    let component = this.#components.get(key);
    if (component === undefined) {
      component = new ComponentTelemetry(this, options, kind, name);
      this.#components.set(key, component);
    }
    return component;
  }

  flush(): void {
    for (const component of this.#components.values()) component.flush();
  }

  /** Forgets a component and removes its label series from every counter (see `Telemetry.release`). */
  release(options: TelemetryOptions, kind: ComponentKind, name: string): void {
    const key = `${options.domain}\u0000${kind}\u0000${name}`;
    const component = this.#components.get(key);
    if (component === undefined) return;
    this.#components.delete(key);
    component.removeSeries();
  }
}

const SINKS = new WeakMap<Registry, CounterSink>();

function sinkOf(registry: Registry): CounterSink {
  let sink = SINKS.get(registry);
  if (sink === undefined) {
    sink = new CounterSink(registry);
    SINKS.set(registry, sink);
  }
  return sink;
}

/** Registers the component families in `registry` now, so `/metrics` lists them before anything counts. */
export function registerComponentMetrics(registry: Registry): void {
  sinkOf(registry);
}

export interface TelemetryOptions {
  registry: Registry;
  logger: Logger;
  domain: string;
  /** The clock drop lines are spaced on (default: the system clock). */
  clock?: Clock;
  /** Message error lines one by one per component and 10 s (default MESSAGE_ERROR_LINES). */
  messageErrorLines?: number;
}

export class Telemetry {
  constructor(readonly options: TelemetryOptions) {}

  /** The events of one component; the same object for the same domain, kind and name. */
  component(kind: ComponentKind, name: string): ComponentTelemetry {
    return sinkOf(this.options.registry).component(this.options, kind, name);
  }

  /**
   * Forgets a component whose name will not come back soon (a subscription name clients chose) and
   * removes its series from the counters, so names that come and go do not accumulate. A later
   * `component` with the same name starts from zero, which Prometheus reads as a counter reset.
   */
  release(kind: ComponentKind, name: string): void {
    sinkOf(this.options.registry).release(this.options, kind, name);
  }
}

/** A message error, as an ON MESSAGE ERROR policy reports it. */
export interface MessageErrorEvent {
  error: MessageError;
  /** The route's target relay (`to`), to tell several routes of one component apart. */
  route: string;
  /** LOG logs at warn; SEND_TO routes the error as a record, so the log is at debug. */
  policy: 'LOG' | 'SEND_TO';
}

/** The events of one component, with its counters bound to its labels. */
export class ComponentTelemetry {
  readonly #sink: CounterSink;
  readonly #logger: Logger;
  readonly #labels: [string, string, string];
  readonly #pending: Record<HotKey, number> = { payloads: 0, payloadBytes: 0, recordsIn: 0, recordsOut: 0 };
  /** Drops counted by `countDrops`, handed to prom-client when it collects, like the per-record counts. */
  readonly #pendingDrops = new Map<DropReason, number>();
  readonly #bound = new Map<string, Counter.Internal>();
  /** The label series behind `#bound`, to remove them (`removeSeries`). */
  readonly #series = new Map<string, { key: MetricKey; reason: string | undefined }>();
  /** `drop`'s lines, by reason, detail and fields. */
  readonly #drops = new Map<string, ThrottledDrops>();
  readonly #clock: Clock;
  readonly #messageErrorLines: MessageErrorLines;
  #pendingReader: (() => number) | undefined;

  constructor(
    sink: CounterSink,
    options: TelemetryOptions,
    readonly kind: ComponentKind,
    readonly name: string,
  ) {
    this.#sink = sink;
    this.#labels = [options.domain, kind, name];
    this.#logger = options.logger.child({ domain: options.domain, kind, name });
    this.#clock = options.clock ?? systemClock;
    this.#messageErrorLines = new MessageErrorLines({
      logger: this.#logger,
      clock: this.#clock,
      ...(options.messageErrorLines === undefined ? {} : { perInterval: options.messageErrorLines }),
    });
  }

  /** The series' labels: domain, kind, name. */
  get labels(): readonly [string, string, string] {
    return this.#labels;
  }

  /**
   * Reports what `read` says the component holds in `streamroute_pending_records` until the returned
   * function is called; a component built again (hot reload) takes over, and the old one's stop leaves it.
   */
  holdsPending(read: () => number): () => void {
    this.#pendingReader = read;
    return () => {
      if (this.#pendingReader === read) this.#pendingReader = undefined;
    };
  }

  /** What the component holds now, or undefined when it holds nothing it reports. */
  pendingNow(): number | undefined {
    return this.#pendingReader?.();
  }

  payloadReceived(bytes: number): void {
    this.#pending.payloads += 1;
    this.#pending.payloadBytes += bytes;
  }

  recordsIn(count = 1): void {
    this.#pending.recordsIn += count;
  }

  recordsOut(count = 1): void {
    this.#pending.recordsOut += count;
  }

  messageError({ error, route, policy }: MessageErrorEvent): void {
    this.#countReason('messageErrors', error.code);
    // The detail's fields are graph names, positions and kinds (MessageErrorDetail), never payload text.
    const fields = { code: error.code, reason: error.reason, ...error.detail, route };
    if (policy === 'LOG') this.#messageErrorLines.warn(error.code, fields);
    else this.#logger.debug(fields, 'message error sent to an error relay');
  }

  /**
   * A record lost for `reason`; `detail` says what happened (names and codes only). Counted at once, and
   * logged like `dropMany`'s batches: the first at the end of the current job, then at most one line per
   * 10 s for each reason, detail and fields, with the count since the last line — a correlator timing out
   * thousands of records a second writes one line per interval, not one per record.
   */
  drop(reason: DropReason, detail: string, extra: Record<string, string | number> = {}): void {
    const key = `${reason}\u0000${detail}\u0000${JSON.stringify(extra)}`;
    let drops = this.#drops.get(key);
    if (drops === undefined) {
      const timing = { clock: this.#clock, intervalMs: DEFAULT_DROP_LOG_INTERVAL_MS, extra };
      drops = new ThrottledDrops(this, reason, detail, timing);
      this.#drops.set(key, drops);
    }
    drops.add(1);
  }

  /**
   * `count` records lost together for `reason` (a slow subscriber, a stopped buffer): counted exactly,
   * logged once for the batch, so a flood of drops does not become a flood of log lines.
   */
  dropMany(
    reason: DropReason,
    count: number,
    detail: string,
    extra: Record<string, string | number> = {},
  ): void {
    this.countDrops(reason, count);
    this.logDrops(reason, count, detail, extra);
  }

  /** The counting half of `dropMany`, for callers that log drops in batches of their own (ThrottledDrops). */
  countDrops(reason: DropReason, count: number): void {
    if (count > 0) this.#pendingDrops.set(reason, (this.#pendingDrops.get(reason) ?? 0) + count);
  }

  /** The logging half of `dropMany`: the drops must already be counted. */
  logDrops(
    reason: DropReason,
    count: number,
    detail: string,
    extra: Record<string, string | number> = {},
  ): void {
    if (count > 0) this.#logger.warn({ ...extra, reason, count, detail }, 'records dropped');
  }

  /** A failure of the component itself (ON GENERAL ERROR LOG); `detail` names no values. */
  generalError(reason: GeneralErrorReason, detail: string): void {
    this.#generalError(reason, detail);
  }

  /** An emitter's connect or write failed: a general error whose reason is the transport's bounded code. */
  transportError(code: string, detail: string): void {
    this.#generalError(code, detail);
  }

  #generalError(code: string, detail: string): void {
    this.#countReason('generalErrors', code);
    this.#logger.error({ code, detail }, 'general error');
  }

  /** Hands the per-record counts to prom-client (called when it collects). */
  flush(): void {
    for (const key of HOT_KEYS) {
      const value = this.#pending[key];
      if (value === 0) continue;
      this.#pending[key] = 0;
      this.#child(key, key).inc(value);
    }
    for (const [reason, count] of this.#pendingDrops)
      this.#child(`drops/${reason}`, 'drops', reason).inc(count);
    this.#pendingDrops.clear();
  }

  /** Removes every label series this component counted into (its per-record counts are discarded). */
  removeSeries(): void {
    for (const key of HOT_KEYS) this.#pending[key] = 0;
    this.#pendingDrops.clear();
    for (const [cacheKey, { key, reason }] of this.#series) {
      const counter = this.#sink.counters[key];
      if (reason === undefined) counter.remove(...this.#labels);
      else counter.remove(...this.#labels, reason);
      this.#bound.delete(cacheKey);
    }
    this.#series.clear();
  }

  #countReason(key: ReasonKey, reason: string): void {
    this.#child(`${key}/${reason}`, key, reason).inc();
  }

  #child(cacheKey: string, key: MetricKey, reason?: string): Counter.Internal {
    let child = this.#bound.get(cacheKey);
    if (child === undefined) {
      const counter = this.#sink.counters[key];
      child =
        reason === undefined ? counter.labels(...this.#labels) : counter.labels(...this.#labels, reason);
      this.#bound.set(cacheKey, child);
      this.#series.set(cacheKey, { key, reason });
    }
    return child;
  }
}

/** The value of one counter for the given labels (0 when it never counted); for tests and the admin API. */
export async function readCounter(
  registry: Registry,
  metric: string,
  labels: Record<string, string>,
): Promise<number> {
  const found = registry.getSingleMetric(metric);
  if (found === undefined) return 0;
  const { values } = await found.get();
  const matches = values.filter((value) =>
    Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted),
  );
  return matches.reduce((sum, value) => sum + value.value, 0);
}
