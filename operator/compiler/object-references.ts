// Every reference an object makes to another object, with the field path it is written at.
import type { GraphKind, GraphObject } from '../api/index.js';
import type { MessageErrorPolicy, Route } from '../api/common.js';

export interface Reference {
  kind: GraphKind;
  name: string;
  path: string;
}

export function referencesOf(object: GraphObject): Reference[] {
  const refs: Reference[] = [];
  const add = (kind: GraphKind, name: string | undefined, path: string): void => {
    if (name !== undefined) refs.push({ kind, name, path });
  };
  switch (object.kind) {
    case 'Codec':
      add('Schema', object.spec.schema, 'spec.schema');
      add('WireSchema', object.spec.wireSchema, 'spec.wireSchema');
      add('Resource', object.spec.protobuf?.using.resource, 'spec.protobuf.using.resource');
      break;
    case 'Relay':
      add('Schema', object.spec.schema, 'spec.schema');
      break;
    case 'Vhost':
      add('Resource', object.spec.tls?.mount?.resource, 'spec.tls.mount.resource');
      break;
    case 'Endpoint':
      add('Vhost', object.spec.vhost, 'spec.vhost');
      break;
    case 'SyslogClient':
      add('Resource', object.spec.mount?.resource, 'spec.mount.resource');
      break;
    case 'HttpIngestor':
      add('Endpoint', object.spec.endpoint, 'spec.endpoint');
      add('Codec', object.spec.codec, 'spec.codec');
      routeReferences(object.spec.routes, add);
      break;
    case 'SyslogIngestor':
      add('SyslogClient', object.spec.client, 'spec.client');
      add('Codec', object.spec.codec, 'spec.codec');
      routeReferences(object.spec.routes, add);
      break;
    case 'Junction':
      object.spec.from.forEach((relay, index) => add('Relay', relay, `spec.from[${index}]`));
      routeReferences(object.spec.routes, add);
      break;
    case 'Correlator':
      add('Relay', object.spec.left, 'spec.left');
      add('Relay', object.spec.right, 'spec.right');
      add('Relay', object.spec.onTimeout.left.relay, 'spec.onTimeout.left.relay');
      add('Relay', object.spec.onTimeout.right.relay, 'spec.onTimeout.right.relay');
      routeReferences(object.spec.routes, add);
      break;
    case 'Emitter':
      add('Relay', object.spec.from, 'spec.from');
      add('SyslogClient', object.spec.to.client, 'spec.to.client');
      add('Codec', object.spec.codec, 'spec.codec');
      policyReferences(object.spec.onMessageError, 'spec.onMessageError', add);
      break;
    default:
      break;
  }
  return refs;
}

type Add = (kind: GraphKind, name: string | undefined, path: string) => void;

function routeReferences(routes: readonly Route[], add: Add): void {
  routes.forEach((route, index) => {
    add('Relay', route.to, `spec.routes[${index}].to`);
    policyReferences(route.onMessageError, `spec.routes[${index}].onMessageError`, add);
  });
}

function policyReferences(policy: MessageErrorPolicy, path: string, add: Add): void {
  add('Relay', policy.relay, `${path}.relay`);
}
