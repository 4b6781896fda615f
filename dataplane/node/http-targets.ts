// The HTTP side of one domain's hot reload: one IngestTarget per HTTP ingestor (`<domain>/<ingestor>`),
// kept across reloads so the listener's routes and in-flight requests keep pointing at it.
//
//   hold(diff)     before building: the changed ingestors' targets are quiesced (ON QUIESCE applies)
//   release()      the graph was refused (or applying it failed): they resume on the entries they had
//   plan(…)        the graph was built: added ingestors get a target, changed ones are to be retargeted to
//                  the new entry, removed ones leave the routes. Nothing changes yet, but `routes()`
//                  answers the planned routes, to be published; a gap in the topology (a defect) throws
//   abandon()      publishing failed: the plan is dropped, `routes()` answers the running routes again
//   commit()       the routes are published: the plan takes effect (cannot fail)
//   settle()       after the commit: removed targets stop (buffer counted as `stopped`), held ones resume
//                  and deliver their buffer to the new entry, in arrival order
//
// A changed ingestor whose MAX BODY SIZE or ON QUIESCE changed needs a new target (both are fixed when a
// target is made): the new one takes the routes, quiesced, while the old one drains its buffer into the
// new entry; then the new one resumes. Requests the old one still holds go on to the new entry.
import { isDeepStrictEqual } from 'node:util';
import type { GraphDiff } from '../graph/diff.js';
import { displayOf } from '../graph/display-names.js';
import type { Graph, GraphHttpIngestor } from '../graph/types.js';
import type { Clock } from '../core/clock.js';
import type { IngestFn } from '../core/ingest.js';
import type { Telemetry } from '../core/telemetry.js';
import type { Topology } from '../runtime/topology.js';
import { createIngestTarget, type IngestTarget } from '../sources/http/ingest-target.js';
import { httpRouteOf, type HttpRoute } from '../sources/http/target.js';
import type { HttpTelemetry } from '../sources/http/telemetry.js';
import type { SourceSwap } from './source-swap.js';

/** The name of an ingestor's target in the listener's logs, metrics and routing problems. */
export function targetName(domain: string, ingestor: string): string {
  return `${domain}/${ingestor}`;
}

interface Entry {
  spec: GraphHttpIngestor;
  /** The ingestor's display name (decision 0025): its target is `<domain>/<shown>`. */
  shown: string;
  target: IngestTarget;
}

export interface HttpTargetsDeps {
  http: HttpTelemetry;
  /** The domain's runtime telemetry: quiesce drops count as drops of the ingestor. */
  runtime: Telemetry;
  /** Times the quiesce drop log interval. */
  clock: Clock;
}

/** A swap planned by `plan`, applied by `commit`. */
interface Plan {
  /** Every entry once the swap is done. */
  entries: Map<string, Entry>;
  /** Kept targets of changed ingestors, and their new entry. */
  retarget: [IngestTarget, IngestFn][];
  replacements: IngestTarget[];
  retired: IngestTarget[];
}

export class DomainHttpTargets implements SourceSwap {
  readonly #domain: string;
  readonly #deps: HttpTargetsDeps;
  #entries = new Map<string, Entry>();
  #plan: Plan | undefined;
  /** Quiesced by `hold`, resumed by `release` or `settle`, in this order. */
  #held: IngestTarget[] = [];
  /** Replacement targets, resumed after the held ones drained. */
  #replacements: IngestTarget[] = [];
  #retired: IngestTarget[] = [];

  constructor(domain: string, deps: HttpTargetsDeps) {
    this.#domain = domain;
    this.#deps = deps;
  }

  /** The target of an ingestor, with the spec it serves. */
  get(name: string): Readonly<Entry> | undefined {
    return this.#entries.get(name);
  }

  /** The routes to publish: the planned ones while a plan waits for its commit, else the running ones. */
  routes(): HttpRoute[] {
    const entries = this.#plan?.entries ?? this.#entries;
    return [...entries.values()].map(({ spec, target }) => httpRouteOf(this.#domain, spec, target));
  }

  hold(diff: GraphDiff): void {
    for (const name of diff.httpIngestors.changed) {
      const entry = this.#entries.get(name);
      if (entry === undefined) continue;
      entry.target.quiesce();
      this.#held.push(entry.target);
    }
  }

  async release(): Promise<void> {
    const held = this.#held;
    this.#held = [];
    await Promise.all(held.map((target) => target.resume()));
  }

  plan(graph: Graph, topology: Topology, diff: GraphDiff): void {
    const entryOf = (name: string): IngestFn => {
      const entry = topology.ingestors.get(name);
      // buildTopology builds every ingestor of the graph or fails; a gap here is a defect.
      if (entry === undefined) throw new Error(`topology of ${this.#domain} has no ingestor ${name}`);
      return entry.ingest;
    };
    const plan: Plan = { entries: new Map(this.#entries), retarget: [], replacements: [], retired: [] };
    for (const name of diff.httpIngestors.removed) {
      const entry = this.#entries.get(name);
      if (entry !== undefined) plan.retired.push(entry.target);
      plan.entries.delete(name);
    }
    for (const name of diff.httpIngestors.changed) this.#planChange(plan, name, graph, entryOf(name));
    for (const name of diff.httpIngestors.added) {
      const spec = graph.httpIngestors[name];
      const shown = displayOf(graph, 'httpIngestors', name);
      if (spec !== undefined)
        plan.entries.set(name, { spec, shown, target: this.#create(shown, spec, entryOf(name)) });
    }
    this.#plan = plan;
  }

  abandon(): void {
    this.#plan = undefined;
  }

  commit(): void {
    const plan = this.#plan;
    if (plan === undefined) return;
    this.#plan = undefined;
    for (const [target, ingest] of plan.retarget) target.retarget(ingest);
    this.#entries = plan.entries;
    this.#retired.push(...plan.retired);
    this.#replacements.push(...plan.replacements);
  }

  async settle(): Promise<void> {
    for (const target of this.#retired) target.stop();
    this.#retired = [];
    await this.release();
    const replacements = this.#replacements;
    this.#replacements = [];
    await Promise.all(replacements.map((target) => target.resume()));
  }

  /** The domain is removed or the node stops: every target drops what it holds (counted). */
  stopAll(): void {
    for (const { target } of this.#entries.values()) target.stop();
    this.#entries.clear();
  }

  #planChange(plan: Plan, name: string, graph: Graph, ingest: IngestFn): void {
    const entry = this.#entries.get(name);
    const spec = graph.httpIngestors[name];
    if (entry === undefined || spec === undefined) return;
    plan.retarget.push([entry.target, ingest]);
    const shown = displayOf(graph, 'httpIngestors', name);
    // A target counts under its display name: a new spelling is a new target, like new settings.
    if (sameTargetSettings(entry.spec, spec) && entry.shown === shown) {
      plan.entries.set(name, { spec, shown, target: entry.target });
      return;
    }
    // Quiesced from the start: whatever reaches it waits until the old target has drained.
    const replacement = this.#create(shown, spec, ingest);
    replacement.quiesce();
    plan.replacements.push(replacement);
    plan.entries.set(name, { spec, shown, target: replacement });
  }

  /** `shown` is the ingestor's display name: what its target is named and counts under. */
  #create(shown: string, spec: GraphHttpIngestor, ingest: IngestFn): IngestTarget {
    return createIngestTarget({
      name: targetName(this.#domain, shown),
      component: { domain: this.#domain, name: shown },
      ingestor: spec,
      ingest,
      telemetry: this.#deps.http,
      drops: this.#deps.runtime.component('http-ingestor', shown),
      clock: this.#deps.clock,
    });
  }
}

/** What an IngestTarget fixes when it is made. */
function sameTargetSettings(a: GraphHttpIngestor, b: GraphHttpIngestor): boolean {
  return a.maxBodyBytes === b.maxBodyBytes && isDeepStrictEqual(a.quiesce, b.quiesce);
}
