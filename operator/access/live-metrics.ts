// What the live API counts in the operator's /metrics (decision 0019): every request by outcome, and
// every subscription stream by domain as it starts and ends, with why it ended. Never a user name or a
// record: users are in the log lines, labels stay few.
import { Registry, type Counter, type Gauge } from 'prom-client';
import {
  counterOf,
  counterSpec,
  gaugeOf,
  gaugeSpec,
  type MetricSpec,
} from '../../dataplane/core/metric-spec.js';

export type RequestOutcome = 'allowed' | 'unauthenticated' | 'forbidden' | 'not_found';
/**
 * `revoked`: a review said no mid-stream; `lifetime`: the stream's time ran out; `client`: the
 * connection closed (the user left, or the operator is stopping).
 */
export type StreamEnd = 'client' | 'revoked' | 'lifetime';

/** The live API's families on the operator's /metrics (only while the live API is served). */
export const LIVE_METRICS = {
  requests: counterSpec(
    'streamroute_live_requests_total',
    'Requests to the live API by route (log, describe) and outcome',
    ['route', 'outcome'],
  ),
  started: counterSpec(
    'streamroute_live_subscriptions_started_total',
    'Relay subscriptions started through the live API',
    ['domain'],
  ),
  ended: counterSpec(
    'streamroute_live_subscriptions_ended_total',
    'Relay subscriptions of the live API that ended, by reason (client, revoked, lifetime)',
    ['domain', 'reason'],
  ),
  open: gaugeSpec('streamroute_live_subscriptions', 'Relay subscriptions open through the live API now', [
    'domain',
  ]),
} as const satisfies Record<string, MetricSpec>;

export class LiveMetrics {
  readonly #requests: Counter<'route' | 'outcome'>;
  readonly #started: Counter<'domain'>;
  readonly #ended: Counter<'domain' | 'reason'>;
  readonly #open: Gauge<'domain'>;

  constructor(registry: Registry = new Registry()) {
    this.#requests = counterOf(LIVE_METRICS.requests, registry);
    this.#started = counterOf(LIVE_METRICS.started, registry);
    this.#ended = counterOf(LIVE_METRICS.ended, registry);
    this.#open = gaugeOf(LIVE_METRICS.open, registry);
  }

  request(route: 'log' | 'describe' | 'other', outcome: RequestOutcome): void {
    this.#requests.inc({ route, outcome });
  }

  started(domain: string): void {
    this.#started.inc({ domain });
    this.#open.inc({ domain });
  }

  ended(domain: string, reason: StreamEnd): void {
    this.#ended.inc({ domain, reason });
    this.#open.dec({ domain });
  }
}
