// The subscribers of one subscription name on one relay of one domain: one backend subscription shared by
// every member. Each record goes to exactly one member, round-robin; when the member whose turn it is has
// a full queue, the next member with room takes the record instead (so a slow member does not cost records
// a fast sibling could take), and only when every queue is full does the turn's member evict its oldest.
// The group is released (the backend subscription removed) when its last member leaves or the backend
// ends it; it is finished once it is released and every member has closed (members the backend ended
// still write what they hold, and count what they could not), so nothing counts into its drops any more.
import type { Logger } from 'pino';
import type { RelaySubscriber } from './backend.js';
import type { ThrottledDrops } from '../core/throttled-drops.js';
import type { RecordValues } from '../core/values.js';
import type { MemberOwner, SubscriptionMember } from './subscription-member.js';

export interface SubscriptionKey {
  domain: string;
  relay: string;
  subscription: string;
}

/** The drop accounting of one subscription (kept by the hub while any group of the name lives). */
export interface SubscriptionDrops {
  /** A full queue evicted its oldest record. */
  overflow: ThrottledDrops;
  /** A member's stream closed with records still queued (the client went away, the server stopped). */
  stopped: ThrottledDrops;
}

/** What the hub learns of a group's life. */
export interface GroupOwner {
  /** The backend subscription is removed: the group takes no more members. */
  released(group: SubscriptionGroup): void;
  /** Released, and every member has closed. */
  finished(group: SubscriptionGroup): void;
}

export class SubscriptionGroup implements RelaySubscriber, MemberOwner {
  readonly key: SubscriptionKey;
  readonly #log: Logger;
  readonly #owner: GroupOwner;
  #drops: SubscriptionDrops | undefined;
  #members: readonly SubscriptionMember[] = [];
  #next = 0;
  #unsubscribe: (() => void) | undefined;
  #endedWith: string | undefined;
  #isReleased = false;
  #isFinished = false;

  constructor(key: SubscriptionKey, log: Logger, owner: GroupOwner) {
    this.key = key;
    this.#log = log;
    this.#owner = owner;
  }

  get members(): readonly SubscriptionMember[] {
    return this.#members;
  }

  /**
   * The backend subscription is in place (the backend calls neither `record` nor `end` before `subscribe`
   * returns, so nothing happened before this): `unsubscribe` removes it when the group is released, and
   * drops count into `drops`.
   */
  attach(unsubscribe: () => void, drops: SubscriptionDrops): void {
    this.#unsubscribe = unsubscribe;
    this.#drops = drops;
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
    this.#drops?.overflow.add();
  }

  closed(member: SubscriptionMember, discarded: number): void {
    this.#drops?.stopped.add(discarded);
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
    this.#finishOnceEmpty();
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
    this.#owner.released(this);
    this.#finishOnceEmpty();
  }

  #finishOnceEmpty(): void {
    if (this.#isFinished || !this.#isReleased || this.#members.length > 0) return;
    this.#isFinished = true;
    this.#owner.finished(this);
  }
}
