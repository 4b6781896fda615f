import { object, table } from '../../test/fixtures/compile-cases.js';
import type { GraphObject } from '../api/index.js';

const broken = (document: unknown): GraphObject => document as GraphObject;

describe('check-objects: single-object checks run again on what the compiler is given', () => {
  table([
    {
      name: 'structure, rules, a foreign document and a duplicate; the rest still compiles',
      objects: [
        broken({
          apiVersion: 'streamroute.io/v1alpha1',
          kind: 'Relay',
          metadata: { name: 'no-schema' },
          spec: { branching: 'UNBRANCHED' },
        }),
        broken({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }),
        object('Relay', 'orders', { schema: 'line', branching: 'UNBRANCHED' }),
        object('Codec', 'both', {
          from: 'JSON',
          schema: 'orders',
          wireSchema: 'orders-wire',
          jaq: { ingestion: '.' },
        }),
      ],
      expect: [
        { code: 'SR1012', object: 'Relay/no-schema', path: 'spec.schema', message: 'is required' },
        {
          code: 'SR1011',
          object: 'ConfigMap/cm',
          path: 'apiVersion',
          message: 'is not a streamroute resource',
        },
        {
          code: 'SR1014',
          object: 'Relay/orders',
          path: 'metadata.name',
          message: 'is declared more than once',
        },
        {
          code: 'SR1013',
          object: 'Codec/both',
          path: 'spec.wireSchema',
          message: 'wireSchema is required with from WIRE_JSON and not allowed otherwise',
        },
      ],
      inGraph: ['relays/lines', 'codecs/orders-json'],
    },
  ]);
});
