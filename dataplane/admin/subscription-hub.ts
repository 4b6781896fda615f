// Subscriptions of the admin API (docs/admin-api.md, "Subscriptions"): subscribers with the same subscription
// name on a relay share its records, different names each receive all of them. A feed per (domain, relay)
// holds one backend subscription for every name on the relay and serializes each record once into lines
// all of them share (subscription-feed.ts); a group per (domain, relay, subscription name) reads the lines
// at its members' pace. A slow subscriber never slows the graph: what it has not taken is bounded (records
// per subscription, bytes per subscription and per node, subscriber streams per node: subscription-limits.ts)
// and the oldest lines beyond the bounds are dropped, counted as
// `streamroute_drops_total{kind="subscriber", name="<relay>/<subscription>", reason="subscriber_overflow"}`
// and logged at most once per interval; lines still untaken when a subscription's last client goes away
// count as `stopped`.
//
// Clients choose subscription names, so what the hub keeps per name is bounded: a name's drop accounting
// lives while a group of it does and is flushed (logged) when the last one finishes; its counter series
// are kept after that for the `retainedNames` most recently finished names (so a scrape still sees the
// last counts, and a client that comes back counts on), and removed beyond them.
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../core/clock.js';
import { Telemetry } from '../core/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../core/throttled-drops.js';
import type { AdminBackend, SubscribeResult } from './backend.js';
import { SubscriptionFeed } from './subscription-feed.js';
import { SubscriptionGroup, type SubscriptionDrops, type SubscriptionKey } from './subscription-group.js';
import {
  DEFAULT_SUBSCRIPTION_LIMITS,
  SubscriptionBudget,
  type SubscriptionLimits,
} from './subscription-limits.js';
import { SubscriptionMember, type SubscriberOutput } from './subscription-member.js';

export type { SubscriptionKey } from './subscription-group.js';

export { DEFAULT_SUBSCRIBER_BUFFER, MAX_SUBSCRIBER_BUFFER } from './admin-defaults.js';
/** Finished subscription names whose counter series are kept (the most recent ones). */
export const DEFAULT_RETAINED_NAMES = 1_000;

export interface SubscriptionHubOptions {
  backend: Pick<AdminBackend, 'registry' | 'subscribe'>;
  logger: Logger;
  clock?: Clock;
  /** Drops of one subscription are logged at most once per this interval (default 10 s). */
  dropLogIntervalMs?: number;
  /** Finished subscription names whose counter series are kept (default 1,000). */
  retainedNames?: number;
  /** Subscriber streams and buffered bytes the node allows (default DEFAULT_SUBSCRIPTION_LIMITS). */
  limits?: Partial<SubscriptionLimits>;
}

export type JoinResult =
  | { ok: true; member: SubscriptionMember }
  | Extract<SubscribeResult, { ok: false }>
  | { ok: false; reason: 'shutting_down' | 'too_many_subscribers'; message: string };

export class SubscriptionHub {
  readonly #backend: SubscriptionHubOptions['backend'];
  readonly #logger: Logger;
  readonly #log: Logger;
  readonly #timing: { clock: Clock; intervalMs: number };
  readonly #retainedNames: number;
  readonly #budget: SubscriptionBudget;
  readonly #feeds = new Map<string, SubscriptionFeed>();
  /** Each feed's relay as people read it (the backend says; decision 0025). */
  readonly #shown = new Map<string, string>();
  readonly #groups = new Map<string, SubscriptionGroup>();
  /**
   * Names with a group that has not finished, and how many such groups (a group the backend ended may
   * still be writing when a new one of the same name starts).
   */
  readonly #accounts = new Map<string, { drops: SubscriptionDrops; groups: number; series: string }>();
  /** Finished names whose series are kept, least recently finished first. */
  readonly #retained = new Map<string, { key: SubscriptionKey; series: string }>();
  #closing = false;

  constructor(options: SubscriptionHubOptions) {
    this.#backend = options.backend;
    this.#logger = options.logger;
    this.#log = options.logger.child({ component: 'admin-subscriptions' });
    this.#timing = {
      clock: options.clock ?? systemClock,
      intervalMs: options.dropLogIntervalMs ?? DEFAULT_DROP_LOG_INTERVAL_MS,
    };
    this.#retainedNames = options.retainedNames ?? DEFAULT_RETAINED_NAMES;
    this.#budget = new SubscriptionBudget(
      { ...DEFAULT_SUBSCRIPTION_LIMITS, ...options.limits },
      { registry: options.backend.registry, log: this.#log, ...this.#timing },
    );
  }

  /**
   * Adds a subscriber that may lag behind by `buffer` records. On success the caller sends the response
   * head and then calls `member.open()`; records that arrive in between wait for it.
   */
  join(key: SubscriptionKey, output: SubscriberOutput, buffer: number): JoinResult {
    if (this.#closing)
      return { ok: false, reason: 'shutting_down', message: 'the admin server is shutting down' };
    if (!this.#budget.admit()) {
      const limit = this.#budget.limits.maxSubscribers;
      const message = `this node already serves ${limit} subscriber streams, its limit: retry later`;
      return { ok: false, reason: 'too_many_subscribers', message };
    }
    const id = keyOf(key);
    let group = this.#groups.get(id);
    if (group === undefined) {
      const created = this.#subscribe(key, id);
      if (!created.ok) {
        this.#budget.leave();
        return created;
      }
      group = created.group;
    }
    const member = new SubscriptionMember(output, buffer, group);
    output.stream.once('close', () => this.#budget.leave());
    group.add(member);
    this.#log.info(
      { event: 'subscriber_joined', ...key, buffer, members: group.members.length },
      'subscriber joined',
    );
    return { ok: true, member };
  }

  /** Subscriber streams open now, and what the relays keep for them (bytes, overhead included). */
  get usage(): { subscribers: number; bytes: number; relays: Map<string, number> } {
    const relays = new Map<string, number>();
    for (const [id, feed] of this.#feeds) relays.set(id.replace('\u0000', '/'), feed.log.bytes);
    return { subscribers: this.#budget.subscribers, bytes: this.#budget.bytes, relays };
  }

  get limits(): SubscriptionLimits {
    return this.#budget.limits;
  }

  /** The members of a subscription (0 when no group exists). */
  memberCount(key: SubscriptionKey): number {
    return this.#groups.get(keyOf(key))?.members.length ?? 0;
  }

  /** Subscriptions holding a backend subscription. */
  get groupCount(): number {
    return this.#groups.size;
  }

  /** Subscription names the hub keeps anything of: drop accounting, or retained counter series. */
  get nameCount(): number {
    return this.#accounts.size + this.#retained.size;
  }

  /** Ends every stream after what it may still take is written, releases every backend subscription; refuses joins. */
  endAll(reason: string): void {
    this.#closing = true;
    for (const feed of [...this.#feeds.values()]) feed.end(reason);
  }

  /** Accepts joins again after `endAll`. */
  reopen(): void {
    this.#closing = false;
  }

  /** Logs every pending drop count now (the server stopped), whatever the log interval. */
  flushDrops(): void {
    this.#budget.flush();
    for (const { drops } of this.#accounts.values()) {
      drops.overflow.flush();
      drops.stopped.flush();
    }
  }

  #subscribe(
    key: SubscriptionKey,
    id: string,
  ): { ok: true; group: SubscriptionGroup } | Extract<JoinResult, { ok: false }> {
    const feed = this.#feedOf(key);
    if (!feed.ok) return feed;
    const log = this.#log.child({ domain: key.domain, relay: feed.shown, subscription: key.subscription });
    const group = new SubscriptionGroup(key, {
      log,
      feed: feed.feed,
      drops: this.#acquire(key, id, `${feed.shown}/${key.subscription}`),
      owner: {
        released: (released) => {
          if (this.#groups.get(id) === released) this.#groups.delete(id);
          log.debug({ event: 'subscription_released' }, 'subscription released');
        },
        finished: () => this.#finished(key, id),
      },
    });
    feed.feed.add(group);
    this.#groups.set(id, group);
    log.debug({ event: 'subscription_created' }, 'subscription created');
    return { ok: true, group };
  }

  /** The relay's feed, attached to the backend with its first subscription. */
  #feedOf(
    key: SubscriptionKey,
  ): { ok: true; feed: SubscriptionFeed; shown: string } | Extract<JoinResult, { ok: false }> {
    const id = `${key.domain}\u0000${key.relay}`;
    const existing = this.#feeds.get(id);
    if (existing !== undefined) return { ok: true, feed: existing, shown: this.#shown.get(id) ?? key.relay };
    const feed = new SubscriptionFeed(this.#budget, {
      released: (released) => {
        if (this.#feeds.get(id) !== released) return;
        this.#feeds.delete(id);
        this.#shown.delete(id);
      },
    });
    const result = this.#backend.subscribe(key.domain, key.relay, feed);
    if (!result.ok) return result;
    feed.attach(result.unsubscribe);
    this.#feeds.set(id, feed);
    const shown = result.shown ?? key.relay;
    this.#shown.set(id, shown);
    return { ok: true, feed, shown };
  }

  /** The drop accounting of a name for one more group, counted in the subscriber series `series`. */
  #acquire(key: SubscriptionKey, id: string, series: string): SubscriptionDrops {
    const account = this.#accounts.get(id);
    if (account !== undefined) {
      account.groups++;
      return account.drops;
    }
    // A retained name counts on in its series (Telemetry gives the same component back).
    this.#retained.delete(id);
    const telemetry = this.#telemetryOf(key).component('subscriber', series);
    const drops: SubscriptionDrops = {
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
    this.#accounts.set(id, { drops, groups: 1, series });
    return drops;
  }

  /** A group of the name finished: with the last one, log what is pending and retain the series. */
  #finished(key: SubscriptionKey, id: string): void {
    const account = this.#accounts.get(id);
    if (account === undefined || --account.groups > 0) return;
    this.#accounts.delete(id);
    account.drops.overflow.flush();
    account.drops.stopped.flush();
    this.#retained.set(id, { key, series: account.series });
    for (const [oldest, retained] of this.#retained) {
      if (this.#retained.size <= this.#retainedNames) break;
      this.#retained.delete(oldest);
      this.#telemetryOf(retained.key).release('subscriber', retained.series);
    }
  }

  #telemetryOf(key: SubscriptionKey): Telemetry {
    return new Telemetry({ registry: this.#backend.registry, logger: this.#logger, domain: key.domain });
  }
}

function keyOf(key: SubscriptionKey): string {
  return `${key.domain}\u0000${key.relay}\u0000${key.subscription}`;
}
