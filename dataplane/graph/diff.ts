// The difference between the graph a domain runs and the one applied next, per component: what hot reload
// may keep running and what it must swap. "Unchanged" is transitive — a component is unchanged only when
// its own spec and everything it was built from are equal: its codec and the codec's schema, its syslog
// or Kafka client, and every relay it reads or writes (routes, ON MESSAGE ERROR SEND TO, ON CORRELATION TIMEOUT
// SEND TO). A relay is unchanged when its spec and its schema are. A changed relay is a new Relay object
// at run time, so every component touching it must be rebuilt too; the transitivity guarantees that.
// Display names (Graph `names`, decision 0025) are inputs too: a component shows its own and its codec's,
// client's and relays' in its logs and metric labels, so a change of spelling alone rebuilds it in place.
import { isDeepStrictEqual } from 'node:util';
import { displayOf } from './display-names.js';
import type { Graph, GraphMessageErrorPolicy, GraphRoute } from './types.js';

/** The records of a Graph that hold runnable components. */
export const COMPONENT_RECORDS = [
  'relays',
  'httpIngestors',
  'syslogIngestors',
  'topicIngestors',
  'junctions',
  'correlators',
  'emitters',
] as const;
export type ComponentRecord = (typeof COMPONENT_RECORDS)[number];

export type ChangeKind = 'added' | 'removed' | 'changed' | 'unchanged';

/** Names of one record's components by what happened to them; each list sorted. */
export type RecordDiff = Record<ChangeKind, string[]>;

export type GraphDiff = Record<ComponentRecord, RecordDiff>;

/** Classifies every component of both graphs. Without a previous graph everything is added. */
export function diffGraphs(previous: Graph | undefined, next: Graph): GraphDiff {
  // Graphs of two domains share nothing: everything of the old one is removed, everything new added.
  if (previous !== undefined && previous.domain !== next.domain) return replaced(previous, next);
  const relays = diffRecord(previous, next, 'relays', new Set());
  const relayUnchanged = new Set(relays.unchanged);
  const diff = (record: ComponentRecord): RecordDiff => diffRecord(previous, next, record, relayUnchanged);
  return {
    relays,
    httpIngestors: diff('httpIngestors'),
    syslogIngestors: diff('syslogIngestors'),
    topicIngestors: diff('topicIngestors'),
    junctions: diff('junctions'),
    correlators: diff('correlators'),
    emitters: diff('emitters'),
  };
}

/** Whether `name` of `record` keeps running across the reload the diff describes. */
export function isUnchanged(diff: GraphDiff, record: ComponentRecord, name: string): boolean {
  return diff[record].unchanged.includes(name);
}

function replaced(previous: Graph, next: Graph): GraphDiff {
  const entry = (record: ComponentRecord): RecordDiff => ({
    added: Object.keys(next[record]).sort(),
    removed: Object.keys(previous[record]).sort(),
    changed: [],
    unchanged: [],
  });
  return Object.fromEntries(COMPONENT_RECORDS.map((record) => [record, entry(record)])) as GraphDiff;
}

/** What a component was built from, besides the relays it touches. */
interface Inputs {
  own: unknown[];
  relays: string[];
}

function diffRecord(
  previous: Graph | undefined,
  next: Graph,
  record: ComponentRecord,
  relayUnchanged: ReadonlySet<string>,
): RecordDiff {
  const result: RecordDiff = { added: [], removed: [], changed: [], unchanged: [] };
  const before = previous === undefined ? {} : previous[record];
  const after = next[record];
  const inputsOf = INPUTS[record];
  for (const name of Object.keys(after).sort()) {
    if (previous === undefined || !Object.hasOwn(before, name)) {
      result.added.push(name);
      continue;
    }
    const now = inputsOf(next, name);
    const same =
      isDeepStrictEqual(inputsOf(previous, name), now) &&
      displayOf(previous, record, name) === displayOf(next, record, name) &&
      now.relays.every((relay) => relayUnchanged.has(relay));
    result[same ? 'unchanged' : 'changed'].push(name);
  }
  for (const name of Object.keys(before).sort()) {
    if (!Object.hasOwn(after, name)) result.removed.push(name);
  }
  return result;
}

/** What each kind of component is built from. */
const INPUTS: Record<ComponentRecord, (graph: Graph, name: string) => Inputs> = {
  relays(graph, name) {
    const relay = graph.relays[name];
    return { own: [relay, relay === undefined ? undefined : graph.schemas[relay.schema]], relays: [] };
  },
  httpIngestors(graph, name) {
    const spec = graph.httpIngestors[name];
    if (spec === undefined) return { own: [], relays: [] };
    const inlined = [displayOf(graph, 'endpoints', spec.endpoint), displayOf(graph, 'vhosts', spec.vhost)];
    return { own: [spec, ...inlined, ...codecInputs(graph, spec.codec)], relays: routeRelays(spec.routes) };
  },
  syslogIngestors(graph, name) {
    const spec = graph.syslogIngestors[name];
    if (spec === undefined) return { own: [], relays: [] };
    return {
      own: [spec, ...clientInputs(graph, spec.client), ...codecInputs(graph, spec.codec)],
      relays: routeRelays(spec.routes),
    };
  },
  topicIngestors(graph, name) {
    const spec = graph.topicIngestors[name];
    if (spec === undefined) return { own: [], relays: [] };
    const client = [graph.kafkaClients[spec.client], displayOf(graph, 'kafkaClients', spec.client)];
    return { own: [spec, ...client, ...codecInputs(graph, spec.codec)], relays: routeRelays(spec.routes) };
  },
  junctions(graph, name) {
    const spec = graph.junctions[name];
    if (spec === undefined) return { own: [], relays: [] };
    return { own: [spec], relays: [...spec.from, ...routeRelays(spec.routes)] };
  },
  correlators(graph, name) {
    const spec = graph.correlators[name];
    if (spec === undefined) return { own: [], relays: [] };
    const timeouts = [spec.onTimeout.left, spec.onTimeout.right].flatMap((action) =>
      action.action === 'SEND_TO' ? [action.relay] : [],
    );
    return { own: [spec], relays: [spec.left, spec.right, ...timeouts, ...routeRelays(spec.routes)] };
  },
  emitters(graph, name) {
    const spec = graph.emitters[name];
    if (spec === undefined) return { own: [], relays: [] };
    const client =
      spec.kafka === undefined
        ? clientInputs(graph, spec.client)
        : [graph.kafkaClients[spec.client], displayOf(graph, 'kafkaClients', spec.client)];
    return {
      own: [spec, ...client, ...codecInputs(graph, spec.codec)],
      relays: [spec.from, ...policyRelays(spec.onMessageError)],
    };
  },
};

/** A codec, its display name and the schema of the records it produces. */
function codecInputs(graph: Graph, name: string): unknown[] {
  const codec = graph.codecs[name];
  const schema = codec === undefined ? undefined : graph.schemas[codec.schema];
  return [codec, displayOf(graph, 'codecs', name), schema];
}

function clientInputs(graph: Graph, name: string): unknown[] {
  return [graph.clients[name], displayOf(graph, 'clients', name)];
}

/** Every relay the routes write: their targets and their error handlers' SEND TO relays. */
function routeRelays(routes: readonly GraphRoute[]): string[] {
  return routes.flatMap((route) => [route.to, ...policyRelays(route.onMessageError)]);
}

function policyRelays(policy: GraphMessageErrorPolicy): string[] {
  return policy.action === 'SEND_TO' ? [policy.relay] : [];
}
