// The resource kinds of streamroute.io/v1alpha1 and the typed objects built from them.
import type { KindDefinition, SpecOf } from './kind.js';
import { codecKind } from './kinds/codec.js';
import { correlatorKind } from './kinds/correlator.js';
import { dataplaneNodeKind } from './kinds/dataplane-node.js';
import { emitterKind } from './kinds/emitter.js';
import { endpointKind } from './kinds/endpoint.js';
import { httpIngestorKind } from './kinds/http-ingestor.js';
import { junctionKind } from './kinds/junction.js';
import { kafkaClientKind } from './kinds/kafka-client.js';
import { relayKind } from './kinds/relay.js';
import { resourceKind } from './kinds/resource.js';
import { schemaKind } from './kinds/schema.js';
import { syslogClientKind } from './kinds/syslog-client.js';
import { syslogIngestorKind } from './kinds/syslog-ingestor.js';
import { topicIngestorKind } from './kinds/topic-ingestor.js';
import { vhostKind } from './kinds/vhost.js';
import { wireSchemaKind } from './kinds/wire-schema.js';
import type { ObjectMeta } from '../../dataplane/kube-client/object-meta.js';

export { API_VERSION, GROUP, VERSION } from './common.js';

/** The graph kinds, in dependency order (what a kind refers to comes before it). */
export const GRAPH_KINDS = [
  schemaKind,
  wireSchemaKind,
  resourceKind,
  codecKind,
  relayKind,
  vhostKind,
  endpointKind,
  syslogClientKind,
  kafkaClientKind,
  httpIngestorKind,
  syslogIngestorKind,
  topicIngestorKind,
  junctionKind,
  correlatorKind,
  emitterKind,
] as const;

export const ALL_KINDS: readonly KindDefinition[] = [...GRAPH_KINDS, dataplaneNodeKind];

export interface SpecByKind {
  Schema: SpecOf<typeof schemaKind>;
  WireSchema: SpecOf<typeof wireSchemaKind>;
  Resource: SpecOf<typeof resourceKind>;
  Codec: SpecOf<typeof codecKind>;
  Relay: SpecOf<typeof relayKind>;
  Vhost: SpecOf<typeof vhostKind>;
  Endpoint: SpecOf<typeof endpointKind>;
  SyslogClient: SpecOf<typeof syslogClientKind>;
  KafkaClient: SpecOf<typeof kafkaClientKind>;
  HttpIngestor: SpecOf<typeof httpIngestorKind>;
  SyslogIngestor: SpecOf<typeof syslogIngestorKind>;
  TopicIngestor: SpecOf<typeof topicIngestorKind>;
  Junction: SpecOf<typeof junctionKind>;
  Correlator: SpecOf<typeof correlatorKind>;
  Emitter: SpecOf<typeof emitterKind>;
}

export type GraphKind = keyof SpecByKind;

/**
 * The metadata a graph object carries: the API's, without the timestamps the API server sets (objects are
 * also handed to client-node, whose types read timestamps as Date).
 */
type GraphObjectMeta = Omit<ObjectMeta, 'creationTimestamp' | 'deletionTimestamp'>;

/** One custom resource of a graph kind, as applied with kubectl. */
export type GraphObject<K extends GraphKind = GraphKind> = {
  [Kind in K]: {
    apiVersion: string;
    kind: Kind;
    metadata: GraphObjectMeta;
    spec: SpecByKind[Kind];
    status?: unknown;
  };
}[K];

export function kindDefinition(kind: string): KindDefinition | undefined {
  return ALL_KINDS.find((definition) => definition.kind === kind);
}

export function isGraphKind(kind: string): kind is GraphKind {
  return GRAPH_KINDS.some((definition) => definition.kind === kind);
}

export {
  codecKind,
  correlatorKind,
  dataplaneNodeKind,
  emitterKind,
  endpointKind,
  httpIngestorKind,
  junctionKind,
  kafkaClientKind,
  relayKind,
  resourceKind,
  schemaKind,
  syslogClientKind,
  syslogIngestorKind,
  topicIngestorKind,
  vhostKind,
  wireSchemaKind,
};
