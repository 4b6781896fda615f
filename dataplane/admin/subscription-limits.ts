// What subscriptions of the admin API may cost a node (docs/admin-api.md, "Buffer limits"), and the
// node-wide accounting that enforces it. Subscribers that never read must not take the node's memory or
// its event loop, however many there are:
//
//   maxSubscribers           subscriber streams open at once on the node; one more is refused
//                            (503 `too_many_subscribers`), counted and logged at most once per interval
//   subscriptionBufferBytes  the bytes of lines one subscription may lag behind its relay by (each relay
//                            keeps one copy of each line for all its subscriptions: this bounds that copy)
//   nodeBufferBytes          the bytes of lines all relays keep for their subscriptions together; beyond
//                            it the relay keeping the most drops its oldest lines
//
// Lines dropped for any of these are counted as `subscriber_overflow` by each subscription that had not
// taken them. Metrics (one set per registry, read when prom-client collects):
//
//   streamroute_subscribers                       (gauge) subscriber streams open now
//   streamroute_subscriber_buffered_bytes         (gauge) bytes of lines kept for subscriptions now
//   streamroute_subscribers_refused_total{reason} subscriber streams refused (`node_limit`)
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import { counterOf, counterSpec, gaugeOf, gaugeSpec } from '../core/metric-spec.js';
import { ThrottledDrops } from '../core/throttled-drops.js';
import type { LineLog } from './line-log.js';
import {
  DEFAULT_MAX_SUBSCRIBERS,
  DEFAULT_NODE_BUFFER_BYTES,
  DEFAULT_SUBSCRIPTION_BUFFER_BYTES,
} from './admin-defaults.js';

/** A relay's lines, as the budget sees them. */
export interface BufferedLines {
  readonly log: LineLog;
  /** Lines were dropped: the relay's subscriptions should count them now. */
  wake(): void;
}

export { DEFAULT_MAX_SUBSCRIBERS, DEFAULT_NODE_BUFFER_BYTES, DEFAULT_SUBSCRIPTION_BUFFER_BYTES };

export interface SubscriptionLimits {
  maxSubscribers: number;
  subscriptionBufferBytes: number;
  nodeBufferBytes: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = {
  maxSubscribers: DEFAULT_MAX_SUBSCRIBERS,
  subscriptionBufferBytes: DEFAULT_SUBSCRIPTION_BUFFER_BYTES,
  nodeBufferBytes: DEFAULT_NODE_BUFFER_BYTES,
};

export const SUBSCRIPTION_METRICS = {
  subscribers: gaugeSpec('streamroute_subscribers', 'Subscriber streams open now'),
  bufferedBytes: gaugeSpec(
    'streamroute_subscriber_buffered_bytes',
    'Bytes of record lines kept for subscriptions that have not taken them yet',
  ),
  refused: counterSpec(
    'streamroute_subscribers_refused_total',
    'Subscriber streams refused because a limit was reached, by reason',
    ['reason'],
  ),
} as const;

export type SubscriberRefusal = 'node_limit';

/** Whatever the budgets are reading now, per registry (a node has one; tests make many). */
class SubscriptionGauges {
  readonly budgets = new Set<SubscriptionBudget>();
  readonly refused = new Map<SubscriberRefusal, number>();

  constructor(registry: Registry) {
    const budgets = this.budgets;
    const refused = this.refused;
    const sum = (read: (budget: SubscriptionBudget) => number): number => {
      let total = 0;
      for (const budget of budgets) total += read(budget);
      return total;
    };
    gaugeOf(SUBSCRIPTION_METRICS.subscribers, registry, function () {
      this.set(sum((budget) => budget.subscribers));
    });
    gaugeOf(SUBSCRIPTION_METRICS.bufferedBytes, registry, function () {
      this.set(sum((budget) => budget.bytes));
    });
    counterOf(SUBSCRIPTION_METRICS.refused, registry, function () {
      this.reset();
      for (const [reason, count] of refused) this.inc({ reason }, count);
    });
  }
}

const GAUGES = new WeakMap<Registry, SubscriptionGauges>();

/** Registers the subscription families in `registry` now, so `/metrics` lists them before the admin API. */
export function registerSubscriptionMetrics(registry: Registry): void {
  gaugesOf(registry);
}

function gaugesOf(registry: Registry): SubscriptionGauges {
  let gauges = GAUGES.get(registry);
  if (gauges === undefined) {
    gauges = new SubscriptionGauges(registry);
    GAUGES.set(registry, gauges);
  }
  return gauges;
}

/** The node's subscribers and the bytes its relays keep for them, against the limits. */
export class SubscriptionBudget {
  readonly limits: SubscriptionLimits;
  readonly #feeds = new Set<BufferedLines>();
  readonly #refusals: ThrottledDrops<SubscriberRefusal>;
  #subscribers = 0;
  #bytes = 0;

  constructor(
    limits: SubscriptionLimits,
    context: { registry: Registry; log: Logger; clock: Clock; intervalMs: number },
  ) {
    this.limits = limits;
    const gauges = gaugesOf(context.registry);
    gauges.budgets.add(this);
    const { refused } = gauges;
    const sink = {
      countDrops: (reason: SubscriberRefusal, count: number) =>
        refused.set(reason, (refused.get(reason) ?? 0) + count),
      logDrops: (reason: SubscriberRefusal, count: number, detail: string) =>
        context.log.warn(
          { event: 'subscribers_refused', reason, count, detail, limit: limits.maxSubscribers },
          'subscribers refused',
        ),
    };
    this.#refusals = new ThrottledDrops(
      sink,
      'node_limit',
      'the node holds as many subscriber streams as it may',
      context,
    );
  }

  get subscribers(): number {
    return this.#subscribers;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Takes a subscriber slot; false (counted and logged) when the node holds as many as it may. */
  admit(): boolean {
    if (this.#subscribers >= this.limits.maxSubscribers) {
      this.#refusals.add();
      return false;
    }
    this.#subscribers++;
    return true;
  }

  /** A subscriber stream closed. */
  leave(): void {
    this.#subscribers--;
  }

  /** A relay's lines now count against the node. */
  track(feed: BufferedLines): void {
    this.#feeds.add(feed);
  }

  /** A relay's lines are gone (its log was cleared and its bytes given back). */
  untrack(feed: BufferedLines): void {
    this.#feeds.delete(feed);
  }

  /** Bytes appended to (positive) or dropped from (negative) a tracked log; enforces the node's bound. */
  changed(bytes: number): void {
    this.#bytes += bytes;
    if (this.#bytes > this.limits.nodeBufferBytes) this.enforce();
  }

  /** Over the node's bound: the log keeping the most drops its oldest lines until the node is within it. */
  enforce(): void {
    while (this.#bytes > this.limits.nodeBufferBytes) {
      let largest: BufferedLines | undefined;
      for (const feed of this.#feeds)
        if (largest === undefined || feed.log.bytes > largest.log.bytes) largest = feed;
      if (largest === undefined || largest.log.length === 0) return;
      const target = this.#bytes - this.limits.nodeBufferBytes;
      let freed = 0;
      while (freed < target && largest.log.length > 0) freed += largest.log.dropOldest();
      this.#bytes -= freed;
      largest.wake();
    }
  }

  /** Logs the pending refusal count now (the server stopped). */
  flush(): void {
    this.#refusals.flush();
  }
}
