import { object, table } from '../../test/fixtures/compile-cases.js';

const KAFKA = `CREATE CLIENT kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = 'localhost:9092' };
  CREATE SCHEMA cards (id I64, name STRING OPTIONAL, card STRING SENSITIVE);
  CREATE RELAY cards SCHEMA cards;
  CREATE SCHEMA card_ids (id I64);
  CREATE CODEC card_ids_json FROM JSON TO SCHEMA card_ids WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.';`;
const emitter = (name: string, key: string, over = 'FROM orders', encode = 'orders_json'): string =>
  `CREATE EMITTER ${name} ${over} TO KAFKA kafka TOPIC 'out' KEY ${key} MODE ACK
     RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING ${encode};`;

describe('check-emitter-keys: a KEY is a STRING over input. (null: no key)', () => {
  table([
    {
      name: 'STRING, nullable STRING, a converted number and NULL are keys; other types are SR2005',
      statements: `${KAFKA}
        ${emitter('by_id', 'input.order_id')}
        ${emitter('by_note', 'input.note')}
        ${emitter('by_amount', 'to_string(input.amount)')}
        ${emitter('no_key', 'NULL')}
        ${emitter('number_key', 'input.amount')}
        ${emitter('bool_key', 'input.amount > 10')}`,
      expect: [
        {
          code: 'SR2005',
          object: 'Emitter/number-key',
          path: 'spec.to.key',
          message:
            'Emitter number_key: KEY is I64; a message key is a STRING (or null for none): convert it with to_string(…)',
        },
        {
          code: 'SR2005',
          object: 'Emitter/bool-key',
          path: 'spec.to.key',
          message: 'KEY is BOOL',
        },
      ],
      inGraph: ['emitters/by-id', 'emitters/by-note', 'emitters/by-amount', 'emitters/no-key'],
    },
    {
      name: 'only input. is in scope, with the relay’s fields; a KEY that does not parse is SR1015',
      statements: `${KAFKA}
        ${emitter('meta', 'metadata.key')}
        ${emitter('unknown', 'input.nope')}`,
      objects: [
        object('Emitter', 'broken', {
          from: 'orders',
          to: { type: 'KAFKA', client: 'kafka', topic: 'out', key: 'input.order_id ||' },
          mode: 'ACK',
          retry: { backoff: '1s', max: '1m' },
          codec: 'orders-json',
          flush: 'IMMEDIATE',
          onMessageError: { action: 'LOG' },
          onGeneralError: 'LOG',
        }),
      ],
      expect: [
        {
          code: 'SR1015',
          object: 'Emitter/broken',
          path: 'spec.to.key',
          message: 'Emitter broken: KEY: the expression does not parse',
        },
        {
          code: 'SR2008',
          object: 'Emitter/meta',
          path: 'spec.to.key',
          message: 'metadata.key: the metadata. scope is not available here; use input.',
        },
        {
          code: 'SR2003',
          object: 'Emitter/unknown',
          path: 'spec.to.key',
          message: 'input (relay orders) has no field nope',
        },
      ],
    },
    {
      name: 'a KEY that reads a SENSITIVE field needs it in ALLOW SENSITIVE (SR2051), which then allows it',
      statements: `${KAFKA}
        ${emitter('leaks', 'input.card', 'FROM cards', 'card_ids_json')}
        ${emitter('allowed', 'input.card', 'FROM cards', 'card_ids_json ALLOW SENSITIVE (card)')}
        ${emitter('too_much', 'input.name', 'FROM cards', 'card_ids_json ALLOW SENSITIVE (card)')}`,
      expect: [
        {
          code: 'SR2051',
          object: 'Emitter/leaks',
          path: 'spec.to.key',
          message:
            'KEY reads SENSITIVE fields card and would send them out as the message key; name them in ALLOW SENSITIVE (card)',
        },
        {
          code: 'SR2052',
          object: 'Emitter/too-much',
          path: 'spec.allowSensitive[0]',
          message: 'ALLOW SENSITIVE names card, which is not a SENSITIVE field of schema card_ids',
        },
      ],
      inGraph: ['emitters/allowed'],
    },
  ]);
});
