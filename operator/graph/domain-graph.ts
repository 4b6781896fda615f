// A domain as a picture's model: what `streamroute graph` draws. Where records come in (an HTTP endpoint
// with its vhost's hostnames and path, a syslog client's address, or a Kafka topic) → ingestor → the
// codec that decodes for it → relays → junctions and correlators → relays → emitters → where records go
// out (a syslog client or a Kafka topic). A codec gets one node per ingestor that uses it, so each route
// leaves from its own ingestor's codec; a syslog client is one node, and so is a topic of a Kafka client,
// so an emitter sending to an address a listener reads, or to a topic an ingestor consumes, closes the
// loop in the picture. Error routes (ON MESSAGE ERROR SEND TO, ON CORRELATION TIMEOUT SEND TO) are edges
// marked `error`. Nodes come in stage order, then by id, and edges in the order of their ends: the same domain always
// gives the same text.
import { DisplayNames, displayName } from '../api/display-names.js';
import type { GraphKind, GraphObject, SpecByKind } from '../api/index.js';
import type { MessageErrorPolicy, Route } from '../api/common.js';

export type GraphNodeKind =
  | 'http-endpoint'
  | 'syslog-client'
  | 'kafka-topic'
  | 'ingestor'
  | 'codec'
  | 'relay'
  | 'junction'
  | 'correlator'
  | 'emitter';

/** The component a node is in the node's metrics (`kind` and `name` labels), for --rates. */
export interface MetricsKey {
  kind:
    'http-ingestor' | 'syslog-ingestor' | 'topic-ingestor' | 'relay' | 'junction' | 'correlator' | 'emitter';
  name: string;
}

export interface GraphNode {
  /** Stable within the domain: `relay/orders`, `codec/web-in/order-json`. */
  id: string;
  kind: GraphNodeKind;
  /** The first line, names as declared (decision 0025): `relay orders`, `HTTP ingestor Orders_In`. */
  title: string;
  /** Lines under it: hostnames and path, address, codec source. */
  details: string[];
  metrics?: MetricsKey;
}

export interface GraphEdge {
  from: string;
  to: string;
  label?: string;
  /** An error route: drawn dashed. */
  error?: boolean;
}

export interface DomainGraph {
  domain: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const STAGES: readonly GraphNodeKind[] = [
  'http-endpoint',
  'syslog-client',
  'kafka-topic',
  'ingestor',
  'codec',
  'relay',
  'junction',
  'correlator',
  'emitter',
];

type Find = <K extends keyof SpecByKind>(kind: K, name: string) => GraphObject<K> | undefined;

/** The domain's objects: one by kind and name, and the display name of any (decision 0025). */
interface Objects {
  find: Find;
  shown: (kind: GraphKind, name: string) => string;
}

export function domainGraph(domain: string, objects: readonly GraphObject[]): DomainGraph {
  const builder = new GraphBuilder(objects);
  for (const object of objects) builder.add(object);
  return builder.graph(domain);
}

class GraphBuilder {
  readonly #nodes = new Map<string, GraphNode>();
  readonly #edges: GraphEdge[] = [];
  readonly objects: Objects;

  constructor(objects: readonly GraphObject[]) {
    const names = new DisplayNames(objects);
    this.objects = {
      find: (kind, name) =>
        objects.find((object) => object.kind === kind && object.metadata.name === name) as never,
      shown: (kind, name) => names.of(kind, name),
    };
  }

  add(object: GraphObject): void {
    switch (object.kind) {
      case 'Relay':
        this.#relay(object.metadata.name);
        return;
      case 'HttpIngestor':
      case 'SyslogIngestor':
      case 'TopicIngestor':
        return this.#ingestor(object);
      case 'Junction': {
        const id = this.#node(component(object, 'junction'));
        for (const from of object.spec.from) this.#edge({ from: this.#relay(from), to: id });
        return this.#routes(id, object.spec.routes);
      }
      case 'Correlator':
        return this.#correlator(object);
      case 'Emitter':
        return this.#emitter(object);
      default:
        return;
    }
  }

  graph(domain: string): DomainGraph {
    const nodes = [...this.#nodes.values()].sort(byStage);
    const place = new Map(nodes.map((node, index) => [node.id, index]));
    const at = (id: string): number => place.get(id) ?? -1;
    const byEnds = (a: GraphEdge, b: GraphEdge): number =>
      at(a.from) - at(b.from) || at(a.to) - at(b.to) || compare(a.label ?? '', b.label ?? '');
    return { domain, nodes, edges: [...this.#edges].sort(byEnds) };
  }

  #ingestor(object: GraphObject<IngestorKind>): void {
    const { source, ingestor, codec } = ingestorNodes(object, this.objects);
    this.#edge({ from: this.#node(source), to: this.#node(ingestor) });
    this.#edge({ from: ingestor.id, to: this.#node(codec) });
    this.#routes(codec.id, object.spec.routes);
  }

  #emitter(object: GraphObject<'Emitter'>): void {
    const codec = this.objects.shown('Codec', object.spec.codec);
    const emitter = component(object, 'emitter', [`encode ${codec}`]);
    this.#edge({ from: this.#relay(object.spec.from), to: this.#node(emitter) });
    const { to } = object.spec;
    const target =
      to.type === 'KAFKA'
        ? kafkaTopic(to.client, to.topic ?? '', this.objects)
        : syslogClient(to.client, this.objects);
    this.#edge({ from: emitter.id, to: this.#node(target) });
    this.#errorEdge(emitter.id, object.spec.onMessageError);
  }

  #correlator(object: GraphObject<'Correlator'>): void {
    const id = this.#node(component(object, 'correlator'));
    this.#edge({ from: this.#relay(object.spec.left), to: id, label: 'left' });
    this.#edge({ from: this.#relay(object.spec.right), to: id, label: 'right' });
    this.#routes(id, object.spec.routes);
    for (const side of ['left', 'right'] as const) {
      const timeout = object.spec.onTimeout[side];
      if (timeout.action !== 'SEND_TO' || timeout.relay === undefined) continue;
      this.#edge({ from: id, to: this.#relay(timeout.relay), label: `${side} timeout`, error: true });
    }
  }

  #relay(name: string): string {
    const title = `relay ${this.objects.shown('Relay', name)}`;
    return this.#node({
      id: `relay/${name}`,
      kind: 'relay',
      title,
      details: [],
      metrics: { kind: 'relay', name },
    });
  }

  #routes(from: string, routes: readonly Route[]): void {
    for (const route of routes) {
      this.#edge({ from, to: this.#relay(route.to) });
      this.#errorEdge(from, route.onMessageError);
    }
  }

  #errorEdge(from: string, policy: MessageErrorPolicy): void {
    if (policy.action !== 'SEND_TO' || policy.relay === undefined) return;
    this.#edge({ from, to: this.#relay(policy.relay), label: 'message error', error: true });
  }

  #node(node: GraphNode): string {
    if (!this.#nodes.has(node.id)) this.#nodes.set(node.id, node);
    return node.id;
  }

  #edge(edge: GraphEdge): void {
    this.#edges.push(edge);
  }
}

function component(
  object: GraphObject<'Junction' | 'Correlator' | 'Emitter'>,
  kind: 'junction' | 'correlator' | 'emitter',
  details: string[] = [],
): GraphNode {
  const { name } = object.metadata;
  return {
    id: `${kind}/${name}`,
    kind,
    title: `${kind} ${displayName(object)}`,
    details,
    metrics: { kind, name },
  };
}

type IngestorKind = 'HttpIngestor' | 'SyslogIngestor' | 'TopicIngestor';

/** Where an ingestor reads from, its metrics kind and the word its title starts with. */
function ingestorSource(
  object: GraphObject<IngestorKind>,
  objects: Objects,
): { source: GraphNode; kind: MetricsKey['kind']; word: string } {
  switch (object.kind) {
    case 'HttpIngestor':
      return { source: httpEndpoint(object.spec.endpoint, objects), kind: 'http-ingestor', word: 'HTTP' };
    case 'SyslogIngestor':
      return { source: syslogClient(object.spec.client, objects), kind: 'syslog-ingestor', word: 'syslog' };
    case 'TopicIngestor':
      return {
        source: kafkaTopic(object.spec.client, object.spec.topic, objects),
        kind: 'topic-ingestor',
        word: 'topic',
      };
  }
}

/** An ingestor, where it reads from, and its codec (one node per ingestor that uses it). */
function ingestorNodes(object: GraphObject<IngestorKind>, objects: Objects) {
  const { name } = object.metadata;
  const { source, kind, word } = ingestorSource(object, objects);
  const ingestor: GraphNode = {
    id: `ingestor/${name}`,
    kind: 'ingestor',
    title: `${word} ingestor ${displayName(object)}`,
    details: [],
    metrics: { kind, name },
  };
  const codecName = object.spec.codec;
  const codec: GraphNode = {
    id: `codec/${name}/${codecName}`,
    kind: 'codec',
    title: `codec ${objects.shown('Codec', codecName)}`,
    details: codecDetails(objects.find('Codec', codecName), objects),
  };
  return { source, ingestor, codec };
}

function codecDetails(codec: GraphObject<'Codec'> | undefined, objects: Objects): string[] {
  if (codec === undefined) return ['(not declared)'];
  const { spec } = codec;
  if (spec.wireSchema !== undefined)
    return [`from WIRE JSON ${objects.shown('WireSchema', spec.wireSchema)}`];
  if (spec.protobuf !== undefined)
    return [`from PROTOBUF ${objects.shown('Resource', spec.protobuf.using.resource)}`];
  return [`from ${spec.from}${spec.jaq === undefined ? '' : ' (jq)'}`];
}

function httpEndpoint(name: string, objects: Objects): GraphNode {
  const endpoint = objects.find('Endpoint', name);
  const vhost = endpoint === undefined ? undefined : objects.find('Vhost', endpoint.spec.vhost);
  const scheme = vhost?.spec.tls === undefined ? 'HTTP' : 'HTTPS';
  const details =
    endpoint === undefined
      ? ['(not declared)']
      : [`${scheme} ${vhost?.spec.hostnames.join(', ') ?? '(no vhost)'}`, `path ${endpoint.spec.path}`];
  return {
    id: `endpoint/${name}`,
    kind: 'http-endpoint',
    title: `endpoint ${objects.shown('Endpoint', name)}`,
    details,
  };
}

function syslogClient(name: string, objects: Objects): GraphNode {
  const client = objects.find('SyslogClient', name);
  const details =
    client === undefined
      ? ['(not declared)']
      : [`syslog ${client.spec.config.protocol} ${client.spec.config.addr}`];
  return {
    id: `client/${name}`,
    kind: 'syslog-client',
    title: `client ${objects.shown('SyslogClient', name)}`,
    details,
  };
}

/** A topic of a Kafka client: one node per client and topic, whoever reads or writes it. */
function kafkaTopic(client: string, topic: string, objects: Objects): GraphNode {
  const found = objects.find('KafkaClient', client);
  const details =
    found === undefined
      ? ['(not declared)']
      : [`kafka ${objects.shown('KafkaClient', client)} ${found.spec.config.bootstrapServers.join(', ')}`];
  return {
    id: `topic/${client}/${topic}`,
    kind: 'kafka-topic',
    title: `topic ${topic}`,
    details,
  };
}

function byStage(a: GraphNode, b: GraphNode): number {
  return STAGES.indexOf(a.kind) - STAGES.indexOf(b.kind) || compare(a.id, b.id);
}

/** Code-unit order, the same on every machine (localeCompare is not). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
