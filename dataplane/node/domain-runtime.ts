// One domain on this node: the graph it runs, its topology, its HTTP targets, and the reload that moves
// it to a new graph without stopping what did not change.
//
//   diff → hold changed ingestors (ON QUIESCE) → build with reuse ─ refused → release; keep everything
//                                                                └ built → subscribers follow their relays
//                                                                          → targets swap → routes published
//                                                                          → removed targets stop, held resume
//
// Nothing of the running graph is touched before the new topology is complete. Syslog ingestors and
// emitters have no sources or sinks in this data plane yet; when they do, they are held, swapped and
// settled here beside the HTTP targets.
import { diffGraphs, type GraphDiff } from '../graph/diff.js';
import type { Graph } from '../graph/types.js';
import { Telemetry } from '../runtime/telemetry.js';
import { buildTopology, type Topology, type TopologyDeps } from '../runtime/topology.js';
import type { HttpTelemetry } from '../sources/http/telemetry.js';
import { DomainHttpTargets } from './http-targets.js';
import type { DomainReadiness } from './readiness.js';
import type { Subscriptions } from './subscriptions.js';

export interface DomainDeps {
  topology: TopologyDeps;
  http: HttpTelemetry;
  subscriptions: Subscriptions;
}

/** What a domain runs. */
export interface RunningGraph {
  graph: Graph;
  version: number;
  topology: Topology;
}

export type ReloadOutcome = { ok: true; diff: GraphDiff } | { ok: false; errors: string[] };

export class DomainRuntime {
  readonly targets: DomainHttpTargets;
  /** Undefined only while the first graph of a new domain is being applied. */
  running: RunningGraph | undefined;
  /** The newest version refused since the running one was applied. */
  refusedVersion: number | undefined;
  readonly #deps: DomainDeps;

  constructor(
    readonly domain: string,
    deps: DomainDeps,
  ) {
    this.#deps = deps;
    const runtime = new Telemetry({ registry: deps.topology.registry, logger: deps.topology.logger, domain });
    this.targets = new DomainHttpTargets(domain, { http: deps.http, runtime });
  }

  /**
   * Moves the domain to `graph`. `publish` is called once the new topology is built and the targets are
   * swapped, to hand every domain's routes to the listeners; held ingestors resume after it.
   */
  async reload(
    graph: Graph,
    version: number,
    publish: (runtime: DomainRuntime) => void,
  ): Promise<ReloadOutcome> {
    const previous = this.running;
    const diff = diffGraphs(previous?.graph, graph);
    this.targets.hold(diff);
    const reuse = previous === undefined ? undefined : { previous: previous.topology, diff };
    const built = buildTopology(graph, this.#deps.topology, reuse);
    if (!built.ok) {
      await this.targets.release();
      this.refusedVersion = version;
      return { ok: false, errors: built.errors };
    }
    this.running = { graph, version, topology: built.topology };
    this.refusedVersion = undefined;
    this.#deps.subscriptions.reattach(built.topology, version);
    this.targets.swap(graph, built.topology, diff);
    publish(this);
    await this.targets.settle();
    return { ok: true, diff };
  }

  /** The domain's readiness check input; undefined until its first graph runs. */
  readiness(): DomainReadiness | undefined {
    if (this.running === undefined) return undefined;
    return { domain: this.domain, version: this.running.version, refusedVersion: this.refusedVersion };
  }

  /** The domain leaves the node (its routes are already withdrawn): stop everything, end subscribers. */
  stop(reason: string): void {
    this.targets.stopAll();
    this.running?.topology.stop();
    this.running = undefined;
    this.#deps.subscriptions.endDomain(this.domain, reason);
  }
}
