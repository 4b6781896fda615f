// The SourceSwap (source-swap.ts) of an ingestor kind whose sources are long-lived slots, one per ingestor
// of the domain: syslog listeners (syslog-listeners.ts) and topic consumers (topic-ingestors.ts). What
// differs by kind — how a slot is made from the graph and when a running slot can serve a changed
// ingestor — is the kind's SlotKind; the steps are the same:
//
//   hold(diff)   before building: the changed ingestors' slots are quiesced (their ON QUIESCE applies)
//   release()    the graph was refused: they resume on the entries they had
//   plan(…)      the graph was built: what each slot becomes (nothing changes yet)
//   abandon()    a later step failed: the plan is dropped
//   commit()     kept slots are retargeted to their ingestor's new entry
//   settle()     replaced and removed slots resume (delivering what they held to the new entry) and stop;
//                then new slots start; held ones resume
import { isDeepStrictEqual } from 'node:util';
import type { IngestFn } from '../core/ingest.js';
import type { GraphDiff } from '../graph/diff.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../runtime/topology.js';
import type { SourceSwap } from './source-swap.js';

/** A running source of one ingestor. */
export interface IngestorSlot {
  /** The names it logs and counts under; a new spelling starts a new slot. */
  readonly shown: unknown;
  quiesce(): void;
  resume(): Promise<void>;
  retarget(deliver: IngestFn): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a new slot is made from. */
export interface SlotServes {
  deliver: IngestFn;
  shown: unknown;
}

export interface SlotKind<Slot extends IngestorSlot, Serves extends SlotServes> {
  /** The graph record and diff entry of the kind's ingestors. */
  record: 'syslogIngestors' | 'topicIngestors';
  /** What the ingestor `name` of `graph` needs; undefined when the graph has no such ingestor. */
  serves(graph: Graph, topology: Topology, name: string): Serves | undefined;
  make(next: Serves): Slot;
  /** Whether the running slot can serve the changed ingestor (then it is only retargeted). */
  keeps(slot: Slot, next: Serves): boolean;
  /** Whether settle() waits for new slots' start (false: a start that can take long, like a group join). */
  awaitStart: boolean;
}

interface Plan<Slot> {
  slots: Map<string, Slot>;
  retarget: [Slot, IngestFn][];
  /** Old slots to drain into their new entry and stop. */
  retired: Slot[];
  started: Slot[];
}

export class SlotSwap<Slot extends IngestorSlot, Serves extends SlotServes> implements SourceSwap {
  readonly #kind: SlotKind<Slot, Serves>;
  #slots = new Map<string, Slot>();
  #plan: Plan<Slot> | undefined;
  #held: Slot[] = [];
  #retired: Slot[] = [];
  #started: Slot[] = [];

  constructor(kind: SlotKind<Slot, Serves>) {
    this.#kind = kind;
  }

  get(name: string): Slot | undefined {
    return this.#slots.get(name);
  }

  /** Every slot by ingestor name. */
  entries(): [string, Slot][] {
    return [...this.#slots];
  }

  hold(diff: GraphDiff): void {
    for (const name of diff[this.#kind.record].changed) {
      const slot = this.#slots.get(name);
      if (slot === undefined) continue;
      slot.quiesce();
      this.#held.push(slot);
    }
  }

  async release(): Promise<void> {
    const held = this.#held;
    this.#held = [];
    await Promise.all(held.map((slot) => slot.resume()));
  }

  plan(graph: Graph, topology: Topology, diff: GraphDiff): void {
    const changes = diff[this.#kind.record];
    const plan: Plan<Slot> = { slots: new Map(this.#slots), retarget: [], retired: [], started: [] };
    for (const name of changes.removed) {
      const slot = this.#slots.get(name);
      if (slot !== undefined) plan.retired.push(slot);
      plan.slots.delete(name);
    }
    for (const name of changes.changed) {
      const slot = this.#slots.get(name);
      const next = this.#kind.serves(graph, topology, name);
      if (slot === undefined || next === undefined) continue;
      plan.retarget.push([slot, next.deliver]);
      if (this.#kind.keeps(slot, next) && isDeepStrictEqual(slot.shown, next.shown)) continue;
      plan.retired.push(slot);
      this.#planStart(plan, name, next);
    }
    for (const name of changes.added) {
      const next = this.#kind.serves(graph, topology, name);
      if (next !== undefined) this.#planStart(plan, name, next);
    }
    this.#plan = plan;
  }

  #planStart(plan: Plan<Slot>, name: string, next: Serves): void {
    const slot = this.#kind.make(next);
    plan.slots.set(name, slot);
    plan.started.push(slot);
  }

  abandon(): void {
    this.#plan = undefined;
  }

  commit(): void {
    const plan = this.#plan;
    if (plan === undefined) return;
    this.#plan = undefined;
    for (const [slot, ingest] of plan.retarget) slot.retarget(ingest);
    this.#slots = plan.slots;
    this.#retired.push(...plan.retired);
    this.#started.push(...plan.started);
  }

  async settle(): Promise<void> {
    const retired = this.#retired;
    this.#retired = [];
    this.#held = this.#held.filter((slot) => !retired.includes(slot));
    // Retargeted already: resuming delivers what a slot held to the new entry before it stops.
    await Promise.all(
      retired.map(async (slot) => {
        await slot.resume();
        await slot.stop();
      }),
    );
    const started = this.#started;
    this.#started = [];
    const starting = Promise.all(started.map((slot) => slot.start()));
    if (this.#kind.awaitStart) await starting;
    await this.release();
  }

  /** The domain is removed or the node stops. */
  async stopAll(): Promise<void> {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    await Promise.all(slots.map((slot) => slot.stop()));
  }
}
