// The syslog side of one domain's hot reload: one SyslogListenerSlot per SYSLOG LISTENER INGESTOR, on
// every node (not leader-owned: docs/syslog-wire.md, "Listeners"). The steps are SourceSwap's
// (source-swap.ts):
//
//   hold(diff)   before building: the changed ingestors' listeners are quiesced (ON QUIESCE applies:
//                SUSPEND stops reading, BUFFER keeps, DROP discards)
//   release()    the graph was refused: they resume on the entries they had
//   plan(…)      the graph was built: what each slot becomes (nothing changes yet)
//   abandon()    a later step failed: the plan is dropped
//   commit()     kept listeners are retargeted to their ingestor's new entry
//   settle()     replaced and removed listeners drain what they buffered into the new entry and stop
//                (freeing their port); then new listeners start; held ones resume
//
// A changed ingestor keeps its socket — and its connections — unless its client or ON QUIESCE changed;
// then the old listener closes and a new one binds (connections see a close and reconnect).
import { displayOf } from '../graph/display-names.js';
import { tlsNames } from '../net/syslog-tls-material.js';
import { isDeepStrictEqual } from 'node:util';
import type { IngestFn } from '../core/ingest.js';
import type { ListenerStatus } from '../net/retrying-listener.js';
import type { TransientError } from '../core/status.js';
import type { GraphDiff } from '../graph/diff.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../runtime/topology.js';
import { SyslogListenerSlot, type SyslogSlotDeps, type SyslogSlotServes } from './syslog-listener-slot.js';
import type { SourceSwap } from './source-swap.js';

interface Plan {
  slots: Map<string, SyslogListenerSlot>;
  retarget: [SyslogListenerSlot, IngestFn][];
  /** Old slots to drain into their new entry and stop. */
  retired: SyslogListenerSlot[];
  started: SyslogListenerSlot[];
}

export class DomainSyslogListeners implements SourceSwap {
  readonly #deps: SyslogSlotDeps;
  #slots = new Map<string, SyslogListenerSlot>();
  #plan: Plan | undefined;
  #held: SyslogListenerSlot[] = [];
  #retired: SyslogListenerSlot[] = [];
  #started: SyslogListenerSlot[] = [];

  constructor(deps: SyslogSlotDeps) {
    this.#deps = deps;
  }

  get(name: string): SyslogListenerSlot | undefined {
    return this.#slots.get(name);
  }

  /** Every listener with its protocol and status (the node's start-up check). */
  listeners(): { name: string; protocol: string; status: ListenerStatus }[] {
    return [...this.#slots].map(([name, slot]) => ({
      name,
      protocol: slot.client.protocol,
      status: slot.view.status,
    }));
  }

  /** Listeners that cannot run now (a port in use, TLS files that failed), with their error. */
  errors(): { name: string; error: TransientError }[] {
    return [...this.#slots.values()].flatMap((slot) => {
      const error = slot.view.transientError;
      return error === null ? [] : [{ name: slot.shown.ingestor, error }];
    });
  }

  hold(diff: GraphDiff): void {
    for (const name of diff.syslogIngestors.changed) {
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
    const serves = (name: string): SyslogSlotServes | undefined => {
      const spec = graph.syslogIngestors[name];
      const client = spec && graph.clients[spec.client];
      const entry = topology.ingestors.get(name);
      if (spec === undefined || client === undefined) return undefined;
      // The topology builds every ingestor of the graph or fails; a gap here is a defect.
      if (entry === undefined) throw new Error(`topology of ${this.#deps.domain} has no ingestor ${name}`);
      const shown = {
        ingestor: displayOf(graph, 'syslogIngestors', name),
        tls: tlsNames(graph.names, spec.client),
      };
      return { spec, client, deliver: entry.ingest, shown };
    };
    const plan: Plan = { slots: new Map(this.#slots), retarget: [], retired: [], started: [] };
    for (const name of diff.syslogIngestors.removed) {
      const slot = this.#slots.get(name);
      if (slot !== undefined) plan.retired.push(slot);
      plan.slots.delete(name);
    }
    for (const name of diff.syslogIngestors.changed) this.#planChange(plan, name, serves(name));
    for (const name of diff.syslogIngestors.added) {
      const next = serves(name);
      if (next !== undefined) this.#planStart(plan, name, next);
    }
    this.#plan = plan;
  }

  #planChange(plan: Plan, name: string, next: SyslogSlotServes | undefined): void {
    const slot = this.#slots.get(name);
    if (slot === undefined || next === undefined) return;
    plan.retarget.push([slot, next.deliver]);
    // A slot logs and counts under its display name: a new spelling starts a new slot, like a new socket.
    if (sameSocket(slot, next) && isDeepStrictEqual(slot.shown, next.shown)) return;
    plan.retired.push(slot);
    this.#planStart(plan, name, next);
  }

  #planStart(plan: Plan, name: string, next: SyslogSlotServes): void {
    const slot = new SyslogListenerSlot(next.shown.ingestor, next, this.#deps);
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
    // Retargeted already: resuming delivers a BUFFER to the new entry before the socket closes.
    await Promise.all(
      retired.map(async (slot) => {
        await slot.resume();
        await slot.stop();
      }),
    );
    const started = this.#started;
    this.#started = [];
    await Promise.all(started.map((slot) => slot.start()));
    await this.release();
  }

  /** The domain is removed or the node stops. */
  async stopAll(): Promise<void> {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    await Promise.all(slots.map((slot) => slot.stop()));
  }
}

/** Whether the running listener can serve the changed ingestor: same client and ON QUIESCE. */
function sameSocket(slot: SyslogListenerSlot, next: SyslogSlotServes): boolean {
  return (
    isDeepStrictEqual(slot.client, next.client) && isDeepStrictEqual(slot.spec.quiesce, next.spec.quiesce)
  );
}
