// The subscribers of one subscription name on one relay of one domain: a cursor into the relay's shared
// lines (subscription-feed.ts) and the members that take them. Each line goes to exactly one member: the
// members ready to take data (connected, open, not waiting for their socket to drain) are dealt the lines
// in turn, one by one, up to a chunk each per write; a member that is not ready is skipped, so a slow
// member never holds lines a fast sibling could take, and a member holds none of its own.
//
// What the subscription may lag behind by is its window: the sum of its members' buffers (records), and
// the relay's and node's byte bounds. Lines that fell out of the window before the subscription took them
// count as `subscriber_overflow`; lines still untaken when its last member leaves count as `stopped`.
// The group is released (takes no more members) when its last member leaves or it is ended; it is finished
// once released and every member has closed (ending members still write what the window holds).
import type { Logger } from 'pino';
import type { ThrottledDrops } from '../core/throttled-drops.js';
import type { FeedReader, SubscriptionFeed } from './subscription-feed.js';
import type { MemberOwner, SubscriptionMember } from './subscription-member.js';

export interface SubscriptionKey {
  domain: string;
  relay: string;
  subscription: string;
}

/** The drop accounting of one subscription (kept by the hub while any group of the name lives). */
export interface SubscriptionDrops {
  /** Lines fell out of the subscription's window before it took them. */
  overflow: ThrottledDrops;
  /** The subscription's last member left with lines still untaken (the client went away, the server stopped). */
  stopped: ThrottledDrops;
}

/** What the hub learns of a group's life. */
export interface GroupOwner {
  /** The group takes no more members. */
  released(group: SubscriptionGroup): void;
  /** Released, and every member has closed. */
  finished(group: SubscriptionGroup): void;
}

/** Lines are joined into writes of about this many bytes (one socket write each). */
const CHUNK_BYTES = 16 * 1024;
/** The most records one subscription may lag behind by, whatever its members' buffers add up to. */
const MAX_WINDOW = 1_000_000;

export class SubscriptionGroup implements FeedReader, MemberOwner {
  readonly key: SubscriptionKey;
  readonly #log: Logger;
  readonly #owner: GroupOwner;
  readonly #feed: SubscriptionFeed;
  readonly #drops: SubscriptionDrops;
  #members: readonly SubscriptionMember[] = [];
  #next = 0;
  #cursor: number;
  #window = 1;
  /** The head when the group was ended: lines from there on are not its. */
  #endAt: number | undefined;
  #isReleased = false;
  #isFinished = false;

  constructor(
    key: SubscriptionKey,
    parts: { log: Logger; owner: GroupOwner; feed: SubscriptionFeed; drops: SubscriptionDrops },
  ) {
    this.key = key;
    this.#log = parts.log;
    this.#owner = parts.owner;
    this.#feed = parts.feed;
    this.#drops = parts.drops;
    // Lines placed on the relay before the group existed are not replayed.
    this.#cursor = parts.feed.log.head;
  }

  get members(): readonly SubscriptionMember[] {
    return this.#members;
  }

  get cursor(): number {
    return this.#cursor;
  }

  get window(): number {
    return this.#window;
  }

  get released(): boolean {
    return this.#isReleased;
  }

  add(member: SubscriptionMember): void {
    this.#members = [...this.#members, member];
    this.#resize();
  }

  /** The relay went away or the server stops: members write what the window holds, then end. */
  end(reason: string): void {
    if (this.#endAt !== undefined) return;
    this.#endAt = this.#feed.log.head;
    this.#log.info(
      { event: 'subscription_ended', reason, members: this.#members.length },
      'subscription ended',
    );
    for (const member of this.#members) member.end(reason);
    this.#release();
    this.#finishOnceEmpty();
  }

  // MemberOwner
  wake(): void {
    this.#feed.wake();
  }

  closed(member: SubscriptionMember): void {
    this.#members = this.#members.filter((candidate) => candidate !== member);
    let discarded = 0;
    if (this.#members.length === 0) {
      this.settle();
      discarded = Math.max(0, this.#end() - this.#cursor);
      this.#drops.stopped.add(discarded);
      this.#cursor = Math.max(this.#cursor, this.#end());
    }
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
    this.#resize();
    if (this.#members.length === 0) this.#release();
    this.#finishOnceEmpty();
    this.#feed.wake();
  }

  // FeedReader
  /** Counts the lines that fell out of the window before the group took them, and moves past them. */
  settle(): void {
    const floor = this.#floor();
    if (this.#cursor >= floor) return;
    const lost = Math.min(floor, this.#end()) - this.#cursor;
    this.#cursor = floor;
    this.#drops.overflow.add(lost);
  }

  /**
   * Deals lines to the ready members, a chunk each per round, while any of them takes data and fewer than
   * `budget` bytes were written (at least one round); returns the bytes written.
   */
  pump(budget: number): number {
    if (this.#isFinished) return 0;
    this.settle();
    const log = this.#feed.log;
    const end = this.#end();
    let written = 0;
    let ready = this.#ready();
    while (this.#cursor < end && ready.length > 0 && (written === 0 || written < budget)) {
      written += this.#deal(ready, end, log);
      ready = ready.filter((member) => member.ready);
    }
    if (this.#endAt !== undefined && this.#cursor >= end)
      for (const member of this.#members) member.finishIfDone();
    return written;
  }

  /** Whether a ready member could take lines the group holds (the feed comes back next turn). */
  get pending(): boolean {
    return this.#cursor < this.#end() && this.#members.some((member) => member.ready);
  }

  /** Deals lines to `ready` members in turn, up to a chunk each, and writes each member's chunk. */
  #deal(ready: readonly SubscriptionMember[], end: number, log: SubscriptionFeed['log']): number {
    const count = ready.length;
    const lines: number[][] = ready.map(() => []);
    const sizes = new Array<number>(count).fill(0);
    let open = count;
    let turn = 0;
    while (this.#cursor < end && open > 0) {
      if ((sizes[turn] as number) >= CHUNK_BYTES) {
        turn = turn + 1 === count ? 0 : turn + 1;
        continue;
      }
      const seq = this.#cursor++;
      (lines[turn] as number[]).push(seq);
      sizes[turn] = (sizes[turn] as number) + log.lengthAt(seq);
      if ((sizes[turn] as number) >= CHUNK_BYTES) open--;
      turn = turn + 1 === count ? 0 : turn + 1;
    }
    // The next deal starts with the member after the last one dealt to.
    const last = ready[(turn + count - 1) % count] as SubscriptionMember;
    this.#next = this.#members.indexOf(last) + 1;
    let written = 0;
    for (let index = 0; index < count; index++) {
      const seqs = lines[index] as number[];
      if (seqs.length === 0) continue;
      (ready[index] as SubscriptionMember).take(chunkOf(log, seqs, sizes[index] as number), seqs.length);
      written += sizes[index] as number;
    }
    return written;
  }

  /** Ready members, starting with the one whose turn it is. */
  #ready(): SubscriptionMember[] {
    const members = this.#members;
    const count = members.length;
    const start = this.#next < count ? this.#next : 0;
    const ready: SubscriptionMember[] = [];
    for (let step = 0; step < count; step++) {
      const member = members[(start + step) % count] as SubscriptionMember;
      if (member.ready) ready.push(member);
    }
    return ready;
  }

  /** The oldest line the group may still take. */
  #floor(): number {
    const log = this.#feed.log;
    return Math.max(log.tail, log.head - this.#window);
  }

  /** One past the last line that is the group's. */
  #end(): number {
    return this.#endAt ?? this.#feed.log.head;
  }

  #resize(): void {
    let window = 0;
    for (const member of this.#members) window += member.buffer;
    this.#window = Math.min(MAX_WINDOW, Math.max(1, window));
    this.#feed.windowChanged();
  }

  #release(): void {
    if (this.#isReleased) return;
    this.#isReleased = true;
    this.#owner.released(this);
    this.#feed.readerReleased();
  }

  #finishOnceEmpty(): void {
    if (this.#isFinished || !this.#isReleased || this.#members.length > 0) return;
    this.#isFinished = true;
    this.#feed.remove(this);
    this.#owner.finished(this);
  }
}

/** The lines numbered `seqs` in one buffer of `size` bytes (a copy: the log's blocks are not handed out). */
function chunkOf(log: SubscriptionFeed['log'], seqs: readonly number[], size: number): Buffer {
  const chunk = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const seq of seqs) offset += log.copyTo(seq, chunk, offset);
  return chunk;
}
