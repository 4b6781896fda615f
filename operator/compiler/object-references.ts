// Every reference an object makes to another object, with the field path it is written at.
import type { GraphKind, GraphObject, SpecByKind } from '../api/index.js';
import type { MessageErrorPolicy, Route } from '../api/common.js';

export interface Reference {
  kind: GraphKind;
  name: string;
  path: string;
}

type Add = (kind: GraphKind, name: string | undefined, path: string) => void;

/** Each kind's references; kinds that refer to nothing have no entry. */
const REFERENCES: { [K in GraphKind]?: (spec: SpecByKind[K], add: Add) => void } = {
  Codec: (spec, add) => {
    add('Schema', spec.schema, 'spec.schema');
    add('WireSchema', spec.wireSchema, 'spec.wireSchema');
    add('Resource', spec.protobuf?.using.resource, 'spec.protobuf.using.resource');
  },
  Relay: (spec, add) => add('Schema', spec.schema, 'spec.schema'),
  Vhost: (spec, add) => add('Resource', spec.tls?.mount?.resource, 'spec.tls.mount.resource'),
  Endpoint: (spec, add) => add('Vhost', spec.vhost, 'spec.vhost'),
  SyslogClient: (spec, add) => add('Resource', spec.mount?.resource, 'spec.mount.resource'),
  KafkaClient: (spec, add) => add('Resource', spec.mount?.resource, 'spec.mount.resource'),
  HttpIngestor: (spec, add) => {
    add('Endpoint', spec.endpoint, 'spec.endpoint');
    ingestorReferences(spec, add);
  },
  SyslogIngestor: (spec, add) => {
    add('SyslogClient', spec.client, 'spec.client');
    ingestorReferences(spec, add);
  },
  TopicIngestor: (spec, add) => {
    add('KafkaClient', spec.client, 'spec.client');
    ingestorReferences(spec, add);
  },
  Junction: (spec, add) => {
    spec.from.forEach((relay, index) => add('Relay', relay, `spec.from[${index}]`));
    routeReferences(spec.routes, add);
  },
  Correlator: (spec, add) => {
    add('Relay', spec.left, 'spec.left');
    add('Relay', spec.right, 'spec.right');
    add('Relay', spec.onTimeout.left.relay, 'spec.onTimeout.left.relay');
    add('Relay', spec.onTimeout.right.relay, 'spec.onTimeout.right.relay');
    routeReferences(spec.routes, add);
  },
  Emitter: (spec, add) => {
    add('Relay', spec.from, 'spec.from');
    // The client of the emitter's TYPE: TO KAFKA names a KafkaClient, TO SYSLOG a SyslogClient.
    add(spec.to.type === 'KAFKA' ? 'KafkaClient' : 'SyslogClient', spec.to.client, 'spec.to.client');
    add('Codec', spec.codec, 'spec.codec');
    policyReferences(spec.onMessageError, 'spec.onMessageError', add);
  },
};

export function referencesOf(object: GraphObject): Reference[] {
  const refs: Reference[] = [];
  const add: Add = (kind, name, path) => {
    if (name !== undefined) refs.push({ kind, name, path });
  };
  const references = REFERENCES[object.kind] as ((spec: unknown, add: Add) => void) | undefined;
  references?.(object.spec, add);
  return refs;
}

/** An ingestor's codec and routes. */
function ingestorReferences(spec: { codec: string; routes: readonly Route[] }, add: Add): void {
  add('Codec', spec.codec, 'spec.codec');
  routeReferences(spec.routes, add);
}

function routeReferences(routes: readonly Route[], add: Add): void {
  routes.forEach((route, index) => {
    add('Relay', route.to, `spec.routes[${index}].to`);
    policyReferences(route.onMessageError, `spec.routes[${index}].onMessageError`, add);
  });
}

function policyReferences(policy: MessageErrorPolicy, path: string, add: Add): void {
  add('Relay', policy.relay, `${path}.relay`);
}
