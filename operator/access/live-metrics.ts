// What the live API counts in the operator's /metrics (decision 0019): every request by outcome, and
// every subscription stream by domain as it starts and ends, with why it ended. Never a user name or a
// record: users are in the log lines, labels stay few.
import { Counter, Gauge, Registry } from 'prom-client';

export type RequestOutcome = 'allowed' | 'unauthenticated' | 'forbidden' | 'not_found';
/**
 * `revoked`: a review said no mid-stream; `lifetime`: the stream's time ran out; `client`: the
 * connection closed (the user left, or the operator is stopping).
 */
export type StreamEnd = 'client' | 'revoked' | 'lifetime';

export class LiveMetrics {
  readonly #requests: Counter<'route' | 'outcome'>;
  readonly #started: Counter<'domain'>;
  readonly #ended: Counter<'domain' | 'reason'>;
  readonly #open: Gauge<'domain'>;

  constructor(registry: Registry = new Registry()) {
    const registers = [registry];
    this.#requests = new Counter({
      name: 'streamroute_live_requests_total',
      help: 'Requests to the live API by route (log, describe) and outcome',
      labelNames: ['route', 'outcome'],
      registers,
    });
    this.#started = new Counter({
      name: 'streamroute_live_subscriptions_started_total',
      help: 'Relay subscriptions started through the live API',
      labelNames: ['domain'],
      registers,
    });
    this.#ended = new Counter({
      name: 'streamroute_live_subscriptions_ended_total',
      help: 'Relay subscriptions of the live API that ended, by reason (client, revoked, lifetime)',
      labelNames: ['domain', 'reason'],
      registers,
    });
    this.#open = new Gauge({
      name: 'streamroute_live_subscriptions',
      help: 'Relay subscriptions open through the live API now',
      labelNames: ['domain'],
      registers,
    });
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
