import { httpIngestor, route, table } from '../../test/fixtures/compile-cases.js';

const SETUP = `
CREATE SCHEMA card (order_id STRING, card STRING SENSITIVE, facility U8, severity U8, message STRING);
CREATE SCHEMA plain (order_id STRING, card STRING, digest STRING OPTIONAL);
CREATE SCHEMA secret (order_id STRING, card STRING SENSITIVE, digest STRING OPTIONAL SENSITIVE);
CREATE RELAY cards SCHEMA card UNBRANCHED;
CREATE RELAY plain SCHEMA plain UNBRANCHED;
CREATE RELAY secret SCHEMA secret UNBRANCHED;
CREATE CODEC card_syslog FROM SYSLOG TO SCHEMA line;
CREATE CLIENT out TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = 'collector.example.com:514' };`;

const junction = (name: string, to: string, tail: string): string =>
  `CREATE JUNCTION ${name} FROM cards TO ${to} ${tail} FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`;
const emitter = (name: string, codec: string, allow = ''): string =>
  `CREATE EMITTER ${name} FROM cards TO SYSLOG out MODE NO_ACK RETRY POLICY BACKOFF 1s MAX 1m
     ENCODE USING ${codec} ${allow} FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;

describe('check-sensitivity: SENSITIVE values stay SENSITIVE and leave only when allowed', () => {
  table([
    {
      name: 'into SENSITIVE fields is fine, by INHERIT ALL or an expression',
      statements: `${SETUP}\n${junction('j', 'secret', 'INHERIT ALL SET digest = substr(input.card, 1, 4)')}`,
      expect: [],
      inGraph: ['junctions/j'],
    },
    {
      name: 'INHERIT ALL and SET from a SENSITIVE value into plain fields (SR2050)',
      statements: `${SETUP}
        ${junction('inherit', 'plain', 'INHERIT ALL')}
        ${junction('derived', 'plain', "SET order_id = input.order_id, card = 'x', digest = lower(input.card)")}`,
      expect: [
        {
          code: 'SR2050',
          object: 'Junction/inherit',
          path: 'spec.routes[0].inheritAll',
          message: 'field card of relay plain is fed from SENSITIVE input.card',
        },
        {
          code: 'SR2050',
          object: 'Junction/derived',
          path: 'spec.routes[0].set[2].value',
          message: 'field digest of relay plain is fed from SENSITIVE input.card',
        },
      ],
    },
    {
      name: 'through output. as well',
      statements: `${SETUP}\n${junction('j', 'secret', 'INHERIT ALL')}
        CREATE JUNCTION k FROM secret TO plain SET order_id = input.order_id, card = 'x', digest = output.card FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
      expect: [],
    },
    {
      name: 'an emitter must allow the SENSITIVE fields it sends, and only those',
      statements: `${SETUP}
        CREATE CODEC card_json FROM JSON TO SCHEMA card WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.';
        ${emitter('leaks', 'card_json')}
        ${emitter('allowed', 'card_json', 'ALLOW SENSITIVE (card)')}
        ${emitter('overallowed', 'card_json', 'ALLOW SENSITIVE (card, message)')}`,
      expect: [
        {
          code: 'SR2051',
          object: 'Emitter/leaks',
          path: 'spec.codec',
          message:
            'would send SENSITIVE fields card out through codec card_json; name them in ALLOW SENSITIVE (card)',
        },
        {
          code: 'SR2052',
          object: 'Emitter/overallowed',
          path: 'spec.allowSensitive[1]',
          message: 'names message, which is not a SENSITIVE field',
        },
      ],
      inGraph: ['emitters/allowed'],
    },
    {
      name: 'an ingestor’s error handler never leaks through error.payload, but input. stays SENSITIVE',
      statements: `${SETUP}
        CREATE CODEC card_json FROM JSON TO SCHEMA card WITH JAQ TRANSFORMATIONS ON INGESTION '.';
        ${httpIngestor('in', 'card_json', route('cards', 'INHERIT ALL', "SEND TO plain SET order_id = coalesce(error.payload, ''), card = coalesce(input.card, '')"))}`,
      expect: [
        {
          code: 'SR2050',
          object: 'HttpIngestor/in',
          path: 'spec.routes[0].onMessageError.set[1].value',
          message: 'fed from SENSITIVE input.card',
        },
      ],
    },
  ]);
});
