// Lowers the accepted objects of a compile to the Graph the data plane runs (dataplane/graph/types.ts).
// Vhosts, endpoints, wire schemas and resources have no entries of their own: what the runtime needs of
// them is inlined where they are used. Display names go in `names` (decision 0025), for the accepted
// objects whose display differs from their resource name.
import {
  GRAPH_API_VERSION,
  type DisplayNameRecords,
  type DisplayRecord,
  type Graph,
} from '../../dataplane/graph/types.js';
import { displayName } from '../api/display-names.js';
import type { GraphKind, GraphObject } from '../api/index.js';
import type { CompileContext } from './context.js';
import { required } from './internal-error.js';
import { lowerCodec } from './lower-codecs.js';
import { lowerCorrelator, lowerEmitter, lowerJunction } from './lower-flows.js';
import { lowerClient, lowerHttpIngestor, lowerSyslogIngestor } from './lower-sources.js';
import { lowerKafkaClient, lowerTopicIngestor } from './lower-kafka.js';

export function lowerGraph(ctx: CompileContext): Graph {
  const graph: Graph = {
    apiVersion: GRAPH_API_VERSION,
    domain: ctx.domain,
    schemas: {},
    codecs: {},
    relays: {},
    clients: {},
    kafkaClients: {},
    httpIngestors: {},
    syslogIngestors: {},
    topicIngestors: {},
    junctions: {},
    correlators: {},
    emitters: {},
  };
  const each = <K extends GraphKind>(kind: K, lower: (object: GraphObject<K>) => void): void => {
    for (const object of ctx.objects([kind])) {
      const accepted = ctx.accepted(kind, object.metadata.name);
      if (accepted !== undefined) lower(accepted);
    }
  };
  each('Schema', (schema) => {
    const fields = required(ctx.schemaFields(schema.metadata.name), schema, 'its fields');
    graph.schemas[schema.metadata.name] = { fields: [...fields.values()].map((field) => ({ ...field })) };
  });
  each('Codec', (codec) => (graph.codecs[codec.metadata.name] = lowerCodec(ctx, codec)));
  each('Relay', (relay) => {
    graph.relays[relay.metadata.name] = { schema: relay.spec.schema, branching: relay.spec.branching };
  });
  each('SyslogClient', (client) => (graph.clients[client.metadata.name] = lowerClient(ctx, client)));
  each('KafkaClient', (client) => (graph.kafkaClients[client.metadata.name] = lowerKafkaClient(ctx, client)));
  each(
    'HttpIngestor',
    (ingestor) => (graph.httpIngestors[ingestor.metadata.name] = lowerHttpIngestor(ctx, ingestor)),
  );
  each(
    'SyslogIngestor',
    (ingestor) => (graph.syslogIngestors[ingestor.metadata.name] = lowerSyslogIngestor(ctx, ingestor)),
  );
  each(
    'TopicIngestor',
    (ingestor) => (graph.topicIngestors[ingestor.metadata.name] = lowerTopicIngestor(ctx, ingestor)),
  );
  each('Junction', (junction) => (graph.junctions[junction.metadata.name] = lowerJunction(ctx, junction)));
  each(
    'Correlator',
    (correlator) => (graph.correlators[correlator.metadata.name] = lowerCorrelator(ctx, correlator)),
  );
  each('Emitter', (emitter) => (graph.emitters[emitter.metadata.name] = lowerEmitter(ctx, emitter)));
  const names = displayNames(ctx, graph);
  if (Object.keys(names).length > 0) graph.names = names;
  return graph;
}

const DISPLAY_RECORD: Partial<Record<GraphKind, DisplayRecord>> = {
  Schema: 'schemas',
  Codec: 'codecs',
  Relay: 'relays',
  SyslogClient: 'clients',
  KafkaClient: 'kafkaClients',
  HttpIngestor: 'httpIngestors',
  SyslogIngestor: 'syslogIngestors',
  TopicIngestor: 'topicIngestors',
  Junction: 'junctions',
  Correlator: 'correlators',
  Emitter: 'emitters',
  Endpoint: 'endpoints',
  Vhost: 'vhosts',
  Resource: 'resources',
};

/**
 * The display names of what the graph holds: its entries, and the endpoints, vhosts and resources they
 * inline. An object the graph does not use adds none, so declaring it alone publishes no new version.
 */
function displayNames(ctx: CompileContext, graph: Graph): DisplayNameRecords {
  const used = inlinedNames(graph);
  const names: DisplayNameRecords = {};
  for (const object of ctx.objects()) {
    const record = DISPLAY_RECORD[object.kind];
    const shown = displayName(object);
    const { name } = object.metadata;
    if (record === undefined || shown === name || ctx.accepted(object.kind, name) === undefined) continue;
    const inGraph = record in graph ? Object.hasOwn(graph[record as keyof Graph] as object, name) : false;
    if (inGraph || used[record]?.has(name) === true) (names[record] ??= {})[name] = shown;
  }
  return names;
}

function inlinedNames(graph: Graph): Partial<Record<DisplayRecord, Set<string>>> {
  const endpoints = new Set<string>();
  const vhosts = new Set<string>();
  const resources = new Set<string>();
  for (const ingestor of Object.values(graph.httpIngestors)) {
    endpoints.add(ingestor.endpoint);
    vhosts.add(ingestor.vhost);
    if (ingestor.tls !== undefined && 'certFile' in ingestor.tls) {
      resources.add(ingestor.tls.certFile.resource).add(ingestor.tls.keyFile.resource);
    }
  }
  for (const client of [...Object.values(graph.clients), ...Object.values(graph.kafkaClients)]) {
    if (client.mount !== undefined) resources.add(client.mount.resource);
  }
  return { endpoints, vhosts, resources };
}
