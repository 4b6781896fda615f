// Relays may not form a cycle (SR2062): a record that can come back to a relay it left would circulate
// for ever. Edges go from the relays a junction, correlator or emitter reads to every relay it writes
// (routes, ON MESSAGE ERROR handlers, timeout targets). Objects are added oldest first; the one whose
// edges would close a cycle is rejected, so the older part of the graph keeps running.
import type { GraphObject } from '../api/index.js';
import type { MessageErrorPolicy, Route } from '../api/common.js';
import { keyOf, label, type CompileContext } from './context.js';
import { oldestFirst } from './precedence.js';

interface Edge {
  to: string;
  via: GraphObject;
}

function writes(routes: readonly Route[], extra: readonly (string | undefined)[] = []): string[] {
  const targets = routes.flatMap((route) => [route.to, handlerRelay(route.onMessageError)]);
  return [...targets, ...extra].filter((relay): relay is string => relay !== undefined);
}

function handlerRelay(policy: MessageErrorPolicy): string | undefined {
  return policy.action === 'SEND_TO' ? policy.relay : undefined;
}

function flows(object: GraphObject): { reads: string[]; writes: string[] } | undefined {
  switch (object.kind) {
    case 'Junction':
      return { reads: object.spec.from, writes: writes(object.spec.routes) };
    case 'Correlator': {
      const { left, right, onTimeout, routes } = object.spec;
      return { reads: [left, right], writes: writes(routes, [onTimeout.left.relay, onTimeout.right.relay]) };
    }
    case 'Emitter':
      return { reads: [object.spec.from], writes: writes([], [handlerRelay(object.spec.onMessageError)]) };
    default:
      return undefined;
  }
}

export function checkCycles(ctx: CompileContext, objects: readonly GraphObject[]): void {
  const edges = new Map<string, Edge[]>();
  for (const object of oldestFirst(ctx, objects)) {
    const flow = flows(object);
    if (flow === undefined) continue;
    const found = findCycle(edges, flow.reads, flow.writes);
    if (found !== undefined) {
      const relay = (name: string): string => ctx.show('Relay', name);
      const steps = found.path.map((step) => ` → (${label(step.via)}) → ${relay(step.to)}`).join('');
      const cycle = `${relay(found.from)} → (${label(object)}) → ${relay(found.start)}${steps}`;
      ctx.report(
        keyOf(object),
        'SR2062',
        'spec',
        `${label(object)} would close a cycle of relays: ${cycle}; records would circulate for ever, so route them to a relay that does not lead back`,
      );
      continue;
    }
    for (const from of flow.reads) {
      const out = edges.get(from) ?? [];
      for (const to of flow.writes) out.push({ to, via: object });
      edges.set(from, out);
    }
  }
}

/** A path from one of `writes` back to one of `reads`, if adding the object closes a cycle. */
function findCycle(
  edges: ReadonlyMap<string, Edge[]>,
  reads: readonly string[],
  writes: readonly string[],
): { from: string; start: string; path: Edge[] } | undefined {
  for (const start of writes) {
    const path = pathTo(edges, start, new Set(reads));
    if (path === undefined) continue;
    const from = reads.find((relay) => relay === path[path.length - 1]?.to) ?? start;
    return { from, start, path };
  }
  return undefined;
}

/** Breadth-first: the edges from `start` to a relay of `goals` (empty when start is one). */
function pathTo(
  edges: ReadonlyMap<string, Edge[]>,
  start: string,
  goals: ReadonlySet<string>,
): Edge[] | undefined {
  const previous = new Map<string, { edge: Edge; from: string } | undefined>([[start, undefined]]);
  const queue = [start];
  for (let relay = queue.shift(); relay !== undefined; relay = queue.shift()) {
    if (goals.has(relay)) return unwind(previous, relay);
    for (const edge of edges.get(relay) ?? []) {
      if (previous.has(edge.to)) continue;
      previous.set(edge.to, { edge, from: relay });
      queue.push(edge.to);
    }
  }
  return undefined;
}

function unwind(
  previous: ReadonlyMap<string, { edge: Edge; from: string } | undefined>,
  end: string,
): Edge[] {
  const path: Edge[] = [];
  for (let step = previous.get(end); step !== undefined; step = previous.get(step.from))
    path.unshift(step.edge);
  return path;
}
