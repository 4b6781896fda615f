// The subscribers of one subscription name on one relay of one domain: one backend subscription shared by
// every member. Each record goes to exactly one member, round-robin; when the member whose turn it is has
// a full queue, the next member with room takes the record instead (so a slow member does not cost records
// a fast sibling could take), and only when every queue is full does the turn's member evict its oldest.
// The group is released (the backend subscription removed) when its last member leaves or the backend
// ends it.
import type { Logger } from 'pino';
import type { RelaySubscriber } from './backend.js';
import type { RecordValues } from '../runtime/values.js';
import type { MemberOwner, SubscriptionMember } from './subscription-member.js';
import type { ThrottledDrops } from './throttled-drops.js';

export interface SubscriptionKey {
  domain: string;
  relay: string;
  subscription: string;
}

/** The drop accounting of one subscription (kept by the hub across the group's lifetimes). */
export interface SubscriptionDrops {
  /** A full queue evicted its oldest record. */
  overflow: ThrottledDrops;
  /** A member's stream closed with records still queued (the client went away, the server stopped). */
  stopped: ThrottledDrops;
}

export class SubscriptionGroup implements RelaySubscriber, MemberOwner {
  readonly key: SubscriptionKey;
  readonly #drops: SubscriptionDrops;
  readonly #log: Logger;
  readonly #released: (group: SubscriptionGroup) => void;
  #members: readonly SubscriptionMember[] = [];
  #next = 0;
  #unsubscribe: (() => void) | undefined;
  #endedWith: string | undefined;
  #isReleased = false;

  constructor(
    key: SubscriptionKey,
    drops: SubscriptionDrops,
    log: Logger,
    released: (group: SubscriptionGroup) => void,
  ) {
    this.key = key;
    this.#drops = drops;
    this.#log = log;
    this.#released = released;
  }

  get members(): readonly SubscriptionMember[] {
    return this.#members;
  }

  /** Why the backend ended the subscription, when it did. */
  get endedWith(): string | undefined {
    return this.#endedWith;
  }

  /** The backend subscription is in place; `unsubscribe` removes it when the group is released. */
  attach(unsubscribe: () => void): void {
    this.#unsubscribe = unsubscribe;
    if (this.#isReleased) unsubscribe();
  }

  add(member: SubscriptionMember): void {
    this.#members = [...this.#members, member];
  }

  // RelaySubscriber: bound, so the backend may keep the functions apart from the object.
  readonly record = (record: Readonly<RecordValues>): void => {
    // No member is possible only after the release (a backend still calling); nothing was accepted then.
    if (this.#members.length === 0) return;
    this.#pick().offer(record);
  };

  /** The backend ended the subscription, or the server stops: every member writes its queue and ends. */
  readonly end = (reason: string): void => {
    if (this.#endedWith !== undefined) return;
    this.#endedWith = reason;
    this.#log.info(
      { event: 'subscription_ended', reason, members: this.#members.length },
      'subscription ended',
    );
    for (const member of this.#members) member.end(reason);
    this.#release();
  };

  // MemberOwner
  overflowed(): void {
    this.#drops.overflow.add();
  }

  closed(member: SubscriptionMember, discarded: number): void {
    this.#drops.stopped.add(discarded);
    this.#members = this.#members.filter((candidate) => candidate !== member);
    this.#log.info(
      {
        event: 'subscriber_left',
        written: member.written,
        discarded,
        finished: member.finished,
        members: this.#members.length,
      },
      'subscriber left',
    );
    if (this.#members.length === 0) this.#release();
  }

  /** The member whose turn it is, or the next one with room when its queue is full. */
  #pick(): SubscriptionMember {
    const members = this.#members;
    const count = members.length;
    const turn = this.#next < count ? this.#next : 0;
    let index = turn;
    for (let step = 0; step < count; step++) {
      const candidate = (turn + step) % count;
      if (!(members[candidate] as SubscriptionMember).full) {
        index = candidate;
        break;
      }
    }
    this.#next = index + 1;
    return members[index] as SubscriptionMember;
  }

  #release(): void {
    if (this.#isReleased) return;
    this.#isReleased = true;
    this.#unsubscribe?.();
    this.#released(this);
  }
}
