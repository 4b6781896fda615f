// What the JSON schema cannot say: every name in a graph refers to an entry of the right record, every
// field a route assigns or copies exists in its target's schema, and only a Kafka emitter acknowledges.
// A graph failing this is refused on load.
import type { Graph, GraphMessageErrorPolicy, GraphRoute } from './types.js';

type RecordName = 'schemas' | 'codecs' | 'relays' | 'clients' | 'kafkaClients';

/** What the record checks share: the graph, where errors go, and the two ways of looking up a name. */
interface Checker {
  graph: Graph;
  errors: string[];
  need: (record: RecordName, name: string, where: string) => void;
  needRoutes: (routes: GraphRoute[], where: string) => void;
}

export function checkGraphReferences(graph: Graph): string[] {
  const errors: string[] = [];
  const checker: Checker = {
    graph,
    errors,
    need: (record, name, where) => {
      if (!Object.hasOwn(graph[record], name)) errors.push(`${where}: ${record} has no entry ${name}`);
    },
    needRoutes: (routes, where) =>
      routes.forEach((route, index) => checkRoute(graph, route, `${where}.routes[${index}]`, errors)),
  };
  const { need } = checker;
  for (const [name, codec] of Object.entries(graph.codecs)) need('schemas', codec.schema, `codecs.${name}`);
  for (const [name, relay] of Object.entries(graph.relays)) need('schemas', relay.schema, `relays.${name}`);
  checkIngestors(checker);
  checkFlows(checker);
  return errors;
}

function checkIngestors({ graph, need, needRoutes }: Checker): void {
  for (const [name, ingestor] of Object.entries(graph.httpIngestors)) {
    need('codecs', ingestor.codec, `httpIngestors.${name}.codec`);
    needRoutes(ingestor.routes, `httpIngestors.${name}`);
  }
  for (const [name, ingestor] of Object.entries(graph.syslogIngestors)) {
    need('clients', ingestor.client, `syslogIngestors.${name}.client`);
    need('codecs', ingestor.codec, `syslogIngestors.${name}.codec`);
    needRoutes(ingestor.routes, `syslogIngestors.${name}`);
  }
  for (const [name, ingestor] of Object.entries(graph.topicIngestors)) {
    need('kafkaClients', ingestor.client, `topicIngestors.${name}.client`);
    need('codecs', ingestor.codec, `topicIngestors.${name}.codec`);
    needRoutes(ingestor.routes, `topicIngestors.${name}`);
  }
}

/** Junctions, correlators and emitters. */
function checkFlows({ graph, errors, need, needRoutes }: Checker): void {
  for (const [name, junction] of Object.entries(graph.junctions)) {
    junction.from.forEach((relay, index) => need('relays', relay, `junctions.${name}.from[${index}]`));
    needRoutes(junction.routes, `junctions.${name}`);
  }
  for (const [name, correlator] of Object.entries(graph.correlators)) {
    const where = `correlators.${name}`;
    need('relays', correlator.left, `${where}.left`);
    need('relays', correlator.right, `${where}.right`);
    for (const side of ['left', 'right'] as const) {
      const action = correlator.onTimeout[side];
      if (action.action === 'SEND_TO') need('relays', action.relay, `${where}.onTimeout.${side}.relay`);
    }
    needRoutes(correlator.routes, where);
  }
  for (const [name, emitter] of Object.entries(graph.emitters)) {
    const where = `emitters.${name}`;
    need('relays', emitter.from, `${where}.from`);
    need(emitter.kafka === undefined ? 'clients' : 'kafkaClients', emitter.client, `${where}.client`);
    need('codecs', emitter.codec, `${where}.codec`);
    if (emitter.kafka === undefined && emitter.mode === 'ACK')
      errors.push(`${where}.mode: ACK needs a Kafka emitter (a syslog emitter is NO_ACK)`);
    checkPolicy(graph, emitter.onMessageError, `${where}.onMessageError`, errors);
  }
}

/** A relay a route or handler writes, with the fields it copies or assigns. */
interface Target {
  relay: string;
  fields: string[];
  where: string;
}

function checkRoute(graph: Graph, route: GraphRoute, where: string, errors: string[]): void {
  checkTarget(
    graph,
    { relay: route.to, fields: [...route.inherit, ...route.set.map((a) => a.field)], where },
    errors,
  );
  checkPolicy(graph, route.onMessageError, `${where}.onMessageError`, errors);
}

function checkPolicy(graph: Graph, policy: GraphMessageErrorPolicy, where: string, errors: string[]): void {
  if (policy.action !== 'SEND_TO') return;
  checkTarget(
    graph,
    { relay: policy.relay, fields: [...policy.inherit, ...policy.set.map((a) => a.field)], where },
    errors,
  );
}

function checkTarget(graph: Graph, { relay, fields, where }: Target, errors: string[]): void {
  const target = Object.hasOwn(graph.relays, relay) ? graph.relays[relay] : undefined;
  if (target === undefined) {
    errors.push(`${where}: relays has no entry ${relay}`);
    return;
  }
  const schema = Object.hasOwn(graph.schemas, target.schema) ? graph.schemas[target.schema] : undefined;
  if (schema === undefined) return; // reported for the relay
  const known = new Set(schema.fields.map((field) => field.name));
  for (const field of fields) {
    if (!known.has(field))
      errors.push(`${where}: schema ${target.schema} of relay ${relay} has no field ${field}`);
  }
}
