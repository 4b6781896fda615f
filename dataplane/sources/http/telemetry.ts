// Typed telemetry of HTTP ingestion: every event both counts and (where useful) logs. Per-request events
// only bump plain numbers on the hot path; prom-client reads them when scraped. Logs carry listener and
// target names, statuses, codes and sizes, never a body, a header value or a client-supplied path (those
// are attacker-controlled text; the counters say what happened). The one exception is the sampled line
// about refused requests (reject-log.ts): at most one a minute per reason, with the host the client
// asked for, escaped and cut to 64 characters.
import type { Logger } from 'pino';
import { Registry, type Counter } from 'prom-client';
import { systemClock, type Clock } from '../../core/clock.js';
import { COMPONENT_LABELS, counterOf, counterSpec, type MetricSpec } from '../../core/metric-spec.js';
import { RejectLog } from './reject-log.js';
import type { RoutingProblem } from './routing-table.js';
import type { HttpTarget } from './target.js';

export type ListenerName = 'http' | 'https';

export const REJECT_REASONS = [
  'unknown_host',
  'unknown_path',
  'method_not_allowed',
  'body_too_large',
  'deliver_failed',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Counts of one target (an ingestor), for DESCRIBE and `/metrics`. */
export interface TargetCounts {
  /** Bodies delivered (answered 202). */
  accepted: number;
  /** Bytes of the delivered bodies. */
  bytes: number;
  /** Uploads the client abandoned before the body ended; nothing was delivered. */
  aborted: number;
  /** Bodies over the limit, answered 413. */
  tooLarge: number;
  /** `deliver` threw, answered 500. */
  deliverFailed: number;
}

const newCounts = (): TargetCounts => ({
  accepted: 0,
  bytes: 0,
  aborted: 0,
  tooLarge: 0,
  deliverFailed: 0,
});

/** The target as telemetry knows it: its name, and the graph component its per-ingestor counts label. */
export type TargetRef = Pick<HttpTarget, 'name' | 'component'>;

/**
 * The HTTP families. Bodies an ingestor took and their bytes are the component families'
 * (`streamroute_payloads_total`, `streamroute_payload_bytes_total`); these add what the listener saw.
 */
export const HTTP_METRICS = {
  responses: counterSpec(
    'streamroute_http_responses_total',
    'HTTP requests by listener, status and reason (status 0: aborted).',
    ['listener', 'status', 'reason'],
  ),
  clientErrors: counterSpec(
    'streamroute_http_client_errors_total',
    'Malformed requests, timeouts and failed TLS handshakes.',
    ['listener', 'code'],
  ),
  listenFailures: counterSpec(
    'streamroute_http_listen_failures_total',
    'Failed attempts to open a listener.',
    ['listener', 'code'],
  ),
  requestsFailed: counterSpec(
    'streamroute_http_ingestor_requests_failed_total',
    'Requests routed to an HTTP ingestor that delivered no body, by reason (aborted, body_too_large, deliver_failed).',
    [...COMPONENT_LABELS, 'reason'],
  ),
} as const satisfies Record<string, MetricSpec>;

/** `reason` of `streamroute_http_ingestor_requests_failed_total` → its count in TargetCounts. */
const FAILED: readonly (readonly [string, keyof TargetCounts])[] = [
  ['aborted', 'aborted'],
  ['body_too_large', 'tooLarge'],
  ['deliver_failed', 'deliverFailed'],
];

/** Keys of `#responses` for the hottest event, built once. */
const ACCEPTED_KEY: Record<ListenerName, string> = { http: 'http 202 accepted', https: 'https 202 accepted' };

/** `host:port` (or `[v6]:port`) with the port replaced. */
function withPort(address: string, port: number): string {
  const colon = address.lastIndexOf(':');
  return `${colon === -1 ? address : address.slice(0, colon)}:${port}`;
}

/** Error codes become label values only when they look like a code, so a label set stays small. */
function codeLabel(code: string): string {
  return /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : 'other';
}

export class HttpTelemetry {
  readonly #log: Logger;
  readonly #targets = new Map<string, TargetCounts>();
  /** The component of each target that named one (`/metrics` labels), by target name. */
  readonly #components = new Map<string, NonNullable<HttpTarget['component']>>();
  /** `listener status reason` → count. */
  readonly #responses = new Map<string, number>();
  /** `listener code` → count. */
  readonly #clientErrors = new Map<string, number>();
  readonly #listenFailures = new Map<string, number>();
  readonly #refusals: RejectLog;

  /** `clock`: the sampling of the refusal log (RejectLog). */
  constructor(logger: Logger, registry: Registry = new Registry(), clock: Clock = systemClock) {
    this.#log = logger.child({ component: 'http-ingestion' });
    this.#refusals = new RejectLog(this.#log, clock);
    this.#register(registry);
  }

  // --- per request (hot path: counts only, logs at debug) -------------------------------------------

  accepted(listener: ListenerName, target: TargetRef, bytes: number): void {
    const counts = this.#countsOfTarget(target);
    counts.accepted++;
    counts.bytes += bytes;
    this.#bump(this.#responses, ACCEPTED_KEY[listener]);
  }

  /**
   * `detail.to`: the ingestor's target when one was found; `detail.host`: the canonical host, or the Host
   * header as sent when it is not one (for RejectLog).
   */
  rejected(
    listener: ListenerName,
    status: number,
    reason: RejectReason,
    detail: { to?: TargetRef | undefined; host?: string | undefined } = {},
  ): void {
    const { to, host } = detail;
    const target = to?.name;
    this.#bump(this.#responses, `${listener} ${status} ${reason}`);
    this.#refusals.note({ listener, status, reason, target, host });
    if (to !== undefined && reason === 'body_too_large') this.#countsOfTarget(to).tooLarge++;
    if (to !== undefined && reason === 'deliver_failed') this.#countsOfTarget(to).deliverFailed++;
    if (reason === 'deliver_failed')
      this.#log.error({ event: 'http_deliver_failed', listener, target }, 'target failed to take a body');
    else if (this.#log.isLevelEnabled('debug'))
      this.#log.debug(
        { event: 'http_request_rejected', listener, status, reason, target },
        'request rejected',
      );
  }

  aborted(listener: ListenerName, to: TargetRef, bytesRead: number): void {
    this.#countsOfTarget(to).aborted++;
    this.#bump(this.#responses, `${listener} 0 aborted`);
    if (this.#log.isLevelEnabled('debug'))
      this.#log.debug(
        { event: 'http_request_aborted', listener, target: to.name, bytesRead },
        'client abandoned the upload',
      );
  }

  // --- per connection -----------------------------------------------------------------------------

  /** Malformed request, header overflow, timeout, or a TLS handshake that failed. */
  clientError(listener: ListenerName, code: string): void {
    this.#bump(this.#clientErrors, `${listener} ${codeLabel(code)}`);
    if (this.#log.isLevelEnabled('debug'))
      this.#log.debug({ event: 'http_client_error', listener, code: codeLabel(code) }, 'connection error');
  }

  // --- lifecycle ----------------------------------------------------------------------------------

  /**
   * `address` is the configured `host:port`, `port` the one bound: the line names the bound address
   * (`127.0.0.1:41234` when port 0 was configured), which is what a client connects to.
   */
  listening(listener: ListenerName, address: string, port?: number): void {
    const bound = port === undefined ? address : withPort(address, port);
    this.#log.info({ event: 'http_listening', listener, address: bound, port }, 'listening');
  }

  /** `retryInMs` undefined: not retried; the node stops and its one line on stderr says why. */
  listenFailed(listener: ListenerName, address: string, code: string, retryInMs: number | undefined): void {
    this.#bump(this.#listenFailures, `${listener} ${codeLabel(code)}`);
    if (retryInMs === undefined)
      this.#log.debug({ event: 'http_listen_failed', listener, address, code }, 'cannot listen');
    else
      this.#log.warn(
        { event: 'http_listen_failed', listener, address, code, retryInMs },
        'cannot listen; retrying',
      );
  }

  serverError(listener: ListenerName, code: string): void {
    this.#log.warn({ event: 'http_server_error', listener, code }, 'listener socket error');
  }

  stopped(listener: ListenerName): void {
    this.#log.info({ event: 'http_stopped', listener }, 'stopped');
  }

  routesApplied(plainHosts: number, secureHosts: number, problems: readonly RoutingProblem[]): void {
    for (const problem of problems)
      this.#log.warn(
        { event: 'http_route_problem', code: problem.code, target: problem.target },
        problem.message,
      );
    this.#log.info(
      { event: 'http_routes_applied', plainHosts, secureHosts, problems: problems.length },
      'routes applied',
    );
  }

  /** `buffered`: bodies waiting when resumed; `dropped`: bodies lost since the quiesce began. */
  quiesceResumed(target: string, buffered: number, dropped: number): void {
    this.#log.info({ event: 'http_quiesce_resumed', target, buffered, dropped }, 'resumed');
  }

  // --- reading ------------------------------------------------------------------------------------

  /** The live counts of a target (created on first use). */
  countsOf(target: string): TargetCounts {
    let counts = this.#targets.get(target);
    if (counts === undefined) {
      counts = newCounts();
      this.#targets.set(target, counts);
    }
    return counts;
  }

  #countsOfTarget(target: TargetRef): TargetCounts {
    if (target.component !== undefined && !this.#components.has(target.name))
      this.#components.set(target.name, target.component);
    return this.countsOf(target.name);
  }

  /** Responses by `listener status reason` (status 0: aborted, no response). */
  get responses(): ReadonlyMap<string, number> {
    return this.#responses;
  }

  get clientErrors(): ReadonlyMap<string, number> {
    return this.#clientErrors;
  }

  #bump(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }

  #register(registry: Registry): void {
    const responses = this.#responses;
    const clientErrors = this.#clientErrors;
    const listenFailures = this.#listenFailures;
    const targets = this.#targets;
    const components = this.#components;
    const counter = (spec: MetricSpec, fill: (c: Counter) => void): void => {
      // One HttpTelemetry per node; a replaced one (tests, a restarted ingestion) hands the names over.
      registry.removeSingleMetric(spec.name);
      counterOf(spec, registry, function () {
        this.reset();
        fill(this);
      });
    };
    counter(HTTP_METRICS.responses, (c) => {
      for (const [key, value] of responses) {
        const [listener = '', status = '', reason = ''] = key.split(' ');
        c.inc({ listener, status, reason }, value);
      }
    });
    const byListenerAndCode = (map: Map<string, number>) => (c: Counter) => {
      for (const [key, value] of map) {
        const [listener = '', code = ''] = key.split(' ');
        c.inc({ listener, code }, value);
      }
    };
    counter(HTTP_METRICS.clientErrors, byListenerAndCode(clientErrors));
    counter(HTTP_METRICS.listenFailures, byListenerAndCode(listenFailures));
    counter(HTTP_METRICS.requestsFailed, (c) => {
      for (const [target, { domain, name }] of components) {
        const counts = targets.get(target);
        if (counts === undefined) continue;
        for (const [reason, key] of FAILED)
          if (counts[key] > 0) c.inc({ domain, kind: 'http-ingestor', name, reason }, counts[key]);
      }
    });
  }
}
