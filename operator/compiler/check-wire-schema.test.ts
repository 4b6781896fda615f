import { table } from '../../test/fixtures/compile-cases.js';

describe('check-wire-schema: the wire schema feeds the codec schema', () => {
  table([
    {
      name: 'string carries STRING and DATETIME, integer carries integers; optional fields may be absent',
      statements: `CREATE SCHEMA evt (id STRING, at DATETIME, n U16, extra STRING OPTIONAL);
        CREATE WIRE JSON SCHEMA evt_wire MODE STRICT (id string, at string, n integer, ignored string);
        CREATE CODEC evt_json FROM WIRE JSON SCHEMA evt_wire TO SCHEMA evt;`,
      expect: [],
      inGraph: ['codecs/evt-json'],
    },
    {
      name: 'a required field missing from the wire schema, and an incompatible type',
      statements: `CREATE SCHEMA evt (id STRING, n I64, ok BOOL OPTIONAL, at DATETIME OPTIONAL);
        CREATE WIRE JSON SCHEMA evt_wire MODE STRICT (n string, at integer);
        CREATE CODEC evt_json FROM WIRE JSON SCHEMA evt_wire TO SCHEMA evt;`,
      expect: [
        {
          code: 'SR2015',
          object: 'Codec/evt-json',
          path: 'spec.wireSchema',
          message: 'field id (STRING) is required, but wire schema evt_wire has no field id',
        },
        {
          code: 'SR2015',
          object: 'Codec/evt-json',
          path: 'spec.wireSchema',
          message:
            'n is I64, but wire schema evt_wire declares it string; a wire string carries STRING or DATETIME',
        },
        {
          code: 'SR2015',
          object: 'Codec/evt-json',
          path: 'spec.wireSchema',
          message: 'at is DATETIME, but wire schema evt_wire declares it integer',
        },
      ],
      inGraph: ['codecs/orders-json'],
    },
  ]);
});
