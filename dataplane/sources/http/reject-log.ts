// The info line about refused requests (docs/http-ingestion.md, "Why a request was refused"), sampled: at
// most one line per reason per minute of the node's clock, so a client hammering a wrong host cannot
// flood the log. The line is the first refusal of its reason after a quiet minute, with `unlogged`: how
// many of that reason went unlogged since the line before (the counter
// `streamroute_http_responses_total` has every one of them).
//
// What it carries of the request: the listener, status, reason, the ingestor when one was found, and the
// host — a vhost's name, or for `unknown_host` the host the client sent, escaped as in an answer
// (printable ASCII, at most 64 characters). Never the path the client sent (a webhook-style path can hold a
// secret), never another header, never the body.
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import { escapeClientText } from './reject-text.js';
import type { ListenerName, RejectReason } from './telemetry.js';

export const REJECT_LOG_INTERVAL_MS = 60_000;

/** One refusal, as the handler saw it. */
export interface Rejection {
  listener: ListenerName;
  status: number;
  reason: RejectReason;
  /** The ingestor that was found (405, 413, 500). */
  target?: string | undefined;
  /** The canonical host, or the Host header as sent when it is not a host; undefined when there is none. */
  host?: string | undefined;
}

export class RejectLog {
  readonly #log: Logger;
  readonly #clock: Clock;
  /** Per reason: when its next line may be written, and the refusals not logged since its last one. */
  readonly #reasons = new Map<RejectReason, { nextAt: number; unlogged: number }>();

  constructor(log: Logger, clock: Clock) {
    this.#log = log;
    this.#clock = clock;
  }

  note(rejection: Rejection): void {
    if (rejection.reason === 'deliver_failed') return; // logged at error, every one (a defect)
    const now = this.#clock.now();
    const seen = this.#reasons.get(rejection.reason);
    if (seen !== undefined && now < seen.nextAt) {
      seen.unlogged++;
      return;
    }
    const unlogged = seen?.unlogged ?? 0;
    this.#reasons.set(rejection.reason, { nextAt: now + REJECT_LOG_INTERVAL_MS, unlogged: 0 });
    const { listener, status, reason, target, host } = rejection;
    this.#log.info(
      {
        event: 'http_request_refused',
        listener,
        status,
        reason,
        ...(target === undefined ? {} : { target }),
        host: host === undefined ? null : logged(host),
        unlogged,
      },
      'request refused (at most one line a minute per reason)',
    );
  }
}

/** The host escaped and cut as in an answer (`…` marks a cut), without the quotes. */
function logged(host: string): string {
  const { escaped, cut } = escapeClientText(host);
  return cut ? `${escaped}…` : escaped;
}
