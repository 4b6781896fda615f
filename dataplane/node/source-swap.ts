// The steps by which a domain's reload swaps one kind of source (HTTP targets, syslog listeners) from the
// running graph to the next, without losing what is in flight. DomainRuntime drives every kind through
// these steps in the same order; each kind says in its own header what a step does to its sources.
//
//   hold(diff)   before building: the changed ingestors' sources are quiesced (ON QUIESCE applies)
//   release()    the graph was refused or applying it failed: they resume on the entries they had
//   plan(…)      the graph was built: what each source becomes; nothing changes yet, a gap in the
//                topology (a defect) throws
//   abandon()    a later step failed: the plan is dropped
//   commit()     the plan takes effect: kept sources are retargeted to their new entry (cannot fail)
//   settle()     after the commit: removed and replaced sources drain and stop, new ones start, held ones
//                resume and deliver what they buffered to the new entry
import type { GraphDiff } from '../graph/diff.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../runtime/topology.js';

export interface SourceSwap {
  hold(diff: GraphDiff): void;
  release(): Promise<void>;
  plan(graph: Graph, topology: Topology, diff: GraphDiff): void;
  abandon(): void;
  commit(): void;
  settle(): Promise<void>;
}
