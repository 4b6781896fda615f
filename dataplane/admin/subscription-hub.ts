// Subscriptions of the admin API (DESIGN.md §5 "Subscriptions"): subscribers with the same subscription
// name on a relay share its records, different names each receive all of them. A group per (domain,
// relay, subscription name) holds one backend subscription, taken by its first member and released with
// its last. A slow subscriber never slows the graph: its bounded queue drops the oldest records, counted
// as `streamroute_drops_total{kind="subscriber", name="<relay>/<subscription>", reason="subscriber_overflow"}`
// and logged at most once per interval; records still queued when a client goes away count as `stopped`.
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../runtime/clock.js';
import { Telemetry } from '../runtime/telemetry.js';
import type { AdminBackend, SubscribeResult } from './backend.js';
import { SubscriptionGroup, type SubscriptionDrops, type SubscriptionKey } from './subscription-group.js';
import { SubscriptionMember, type SubscriberOutput } from './subscription-member.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from './throttled-drops.js';

export type { SubscriptionKey } from './subscription-group.js';

/** Records a subscriber's queue holds unless the request asks otherwise (`?buffer=N`). */
export const DEFAULT_SUBSCRIBER_BUFFER = 10_000;
/** The largest `?buffer=N` accepted. */
export const MAX_SUBSCRIBER_BUFFER = 1_000_000;

export interface SubscriptionHubOptions {
  backend: Pick<AdminBackend, 'registry' | 'subscribe'>;
  logger: Logger;
  clock?: Clock;
  /** Drops of one subscription are logged at most once per this interval (default 10 s). */
  dropLogIntervalMs?: number;
}

export type JoinResult =
  | { ok: true; member: SubscriptionMember }
  | Extract<SubscribeResult, { ok: false }>
  | { ok: false; reason: 'shutting_down'; message: string };

export class SubscriptionHub {
  readonly #backend: SubscriptionHubOptions['backend'];
  readonly #logger: Logger;
  readonly #log: Logger;
  readonly #timing: { clock: Clock; intervalMs: number };
  readonly #groups = new Map<string, SubscriptionGroup>();
  /**
   * Kept across a subscription's groups, so its drop log keeps one interval however often clients come and
   * go. One entry per subscription name ever used, as prom-client keeps one label set per name.
   */
  readonly #drops = new Map<string, SubscriptionDrops>();
  #closing = false;

  constructor(options: SubscriptionHubOptions) {
    this.#backend = options.backend;
    this.#logger = options.logger;
    this.#log = options.logger.child({ component: 'admin-subscriptions' });
    this.#timing = {
      clock: options.clock ?? systemClock,
      intervalMs: options.dropLogIntervalMs ?? DEFAULT_DROP_LOG_INTERVAL_MS,
    };
  }

  /**
   * Adds a subscriber with a queue of `capacity` records. On success the caller sends the response head
   * and then calls `member.open()`; records that arrive in between wait in the queue.
   */
  join(key: SubscriptionKey, output: SubscriberOutput, capacity: number): JoinResult {
    if (this.#closing)
      return { ok: false, reason: 'shutting_down', message: 'the admin server is shutting down' };
    const id = keyOf(key);
    let group = this.#groups.get(id);
    if (group === undefined) {
      const created = this.#subscribe(key, id);
      if (!created.ok) return created;
      group = created.group;
    }
    const member = new SubscriptionMember(output, capacity, group);
    group.add(member);
    this.#log.info(
      { event: 'subscriber_joined', ...key, buffer: capacity, members: group.members.length },
      'subscriber joined',
    );
    return { ok: true, member };
  }

  /** The members of a subscription (0 when no group exists). */
  memberCount(key: SubscriptionKey): number {
    return this.#groups.get(keyOf(key))?.members.length ?? 0;
  }

  /** Subscriptions holding a backend subscription. */
  get groupCount(): number {
    return this.#groups.size;
  }

  /** Ends every stream after its queue is written and releases every backend subscription; refuses joins. */
  endAll(reason: string): void {
    this.#closing = true;
    for (const group of [...this.#groups.values()]) group.end(reason);
  }

  /** Accepts joins again after `endAll`. */
  reopen(): void {
    this.#closing = false;
  }

  /** Reports every pending drop count now (the server stopped), whatever the log interval. */
  flushDrops(): void {
    for (const drops of this.#drops.values()) {
      drops.overflow.flush();
      drops.stopped.flush();
    }
  }

  #subscribe(
    key: SubscriptionKey,
    id: string,
  ): { ok: true; group: SubscriptionGroup } | Extract<JoinResult, { ok: false }> {
    const log = this.#log.child({ domain: key.domain, relay: key.relay, subscription: key.subscription });
    const group = new SubscriptionGroup(key, this.#dropsOf(key, id), log, (released) => {
      if (this.#groups.get(id) === released) this.#groups.delete(id);
      log.debug({ event: 'subscription_released' }, 'backend subscription released');
    });
    const result = this.#backend.subscribe(key.domain, key.relay, group);
    if (!result.ok) return result;
    if (group.endedWith !== undefined) {
      // Ended while subscribing: the relay went away in the same breath.
      result.unsubscribe();
      return { ok: false, reason: 'unknown_relay', message: `relay ${key.relay} ended: ${group.endedWith}` };
    }
    group.attach(result.unsubscribe);
    this.#groups.set(id, group);
    log.debug({ event: 'subscription_created' }, 'backend subscription created');
    return { ok: true, group };
  }

  #dropsOf(key: SubscriptionKey, id: string): SubscriptionDrops {
    let drops = this.#drops.get(id);
    if (drops === undefined) {
      const telemetry = new Telemetry({
        registry: this.#backend.registry,
        logger: this.#logger,
        domain: key.domain,
      }).component('subscriber', `${key.relay}/${key.subscription}`);
      drops = {
        overflow: new ThrottledDrops(
          telemetry,
          'subscriber_overflow',
          'subscriber buffer full: the oldest records were dropped',
          this.#timing,
        ),
        stopped: new ThrottledDrops(
          telemetry,
          'stopped',
          'subscriber stream closed with records still queued',
          this.#timing,
        ),
      };
      this.#drops.set(id, drops);
    }
    return drops;
  }
}

function keyOf(key: SubscriptionKey): string {
  return `${key.domain}\u0000${key.relay}\u0000${key.subscription}`;
}
