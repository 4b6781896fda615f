import { object, table } from '../../test/fixtures/compile-cases.js';

describe('check-syslog-schema: SYSLOG codec schemas have the shapes of docs/codecs-syslog.md', () => {
  table([
    {
      name: 'any subset of the fields with their exact shapes is fine',
      statements: `CREATE SCHEMA tiny (message STRING, app_name STRING OPTIONAL);
        CREATE CODEC tiny_syslog FROM SYSLOG TO SCHEMA tiny;`,
      expect: [],
      inGraph: ['codecs/tiny-syslog'],
    },
    {
      name: 'wrong optionality, wrong type and an unknown name, each named with the expected shape',
      statements: `CREATE SCHEMA wrong (timestamp DATETIME, severity I64, message STRING OPTIONAL, peer STRING);
        CREATE CODEC wrong_syslog FROM SYSLOG TO SCHEMA wrong;`,
      expect: [
        {
          code: 'SR2011',
          object: 'Codec/wrong-syslog',
          path: 'spec.schema',
          message: 'timestamp must be DATETIME OPTIONAL',
        },
        { code: 'SR2011', object: 'Codec/wrong-syslog', path: 'spec.schema', message: 'severity must be U8' },
        {
          code: 'SR2011',
          object: 'Codec/wrong-syslog',
          path: 'spec.schema',
          message: 'message must be STRING',
        },
        {
          code: 'SR2011',
          object: 'Codec/wrong-syslog',
          path: 'spec.schema',
          message: 'declares peer, which is not a syslog field',
        },
      ],
      inGraph: ['codecs/syslog'],
    },
    {
      name: 'a SYSLOG codec with JAQ transformations or RFC3339 rules: SR2012 at the clause, the rest still judged',
      objects: [
        object('Codec', 'jaq-syslog', { from: 'SYSLOG', schema: 'line', jaq: { ingestion: '.' } }),
        object('Codec', 'rfc-syslog', { from: 'SYSLOG', schema: 'line', encodeRfc3339: ['message'] }),
      ],
      expect: [
        {
          code: 'SR2012',
          object: 'Codec/jaq-syslog',
          path: 'spec.jaq',
          message: 'a SYSLOG codec does not accept WITH JAQ TRANSFORMATIONS',
        },
        {
          code: 'SR2012',
          object: 'Codec/rfc-syslog',
          path: 'spec.encodeRfc3339',
          message: 'a SYSLOG codec does not accept ENCODE … AS RFC3339 rules',
        },
        {
          code: 'SR2016',
          object: 'Codec/rfc-syslog',
          path: 'spec.encodeRfc3339[0]',
          message: 'ENCODE message AS RFC3339 needs a DATETIME field of schema line, but message is STRING',
        },
      ],
    },
  ]);
});
