import { table } from '../../test/fixtures/compile-cases.js';

const emitter = (name: string, from: string, codec: string, client = 'out_udp'): string =>
  `CREATE EMITTER ${name} FROM ${from} TO SYSLOG ${client} MODE NO_ACK RETRY POLICY BACKOFF 1s MAX 1m
     ENCODE USING ${codec} FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;

const CLIENT =
  "CREATE CLIENT out_udp TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = 'collector.example.com:514' };";

describe('check-emitters: the codec can encode the relay’s records', () => {
  table([
    {
      name: 'SYSLOG codec with facility, severity and message, and a wire JSON codec, encode',
      statements: `${CLIENT}\n${emitter('sys_out', 'lines', 'syslog')}\n${emitter('json_out', 'orders', 'orders_json')}`,
      expect: [],
      inGraph: ['emitters/sys-out', 'emitters/json-out'],
    },
    {
      name: 'a SYSLOG codec lacking facility and severity lists them (SR2013)',
      statements: `${CLIENT}
        CREATE SCHEMA msg (message STRING);
        CREATE RELAY msgs SCHEMA msg UNBRANCHED;
        CREATE CODEC msg_syslog FROM SYSLOG TO SCHEMA msg;
        ${emitter('sys_out', 'msgs', 'msg_syslog')}`,
      expect: [
        {
          code: 'SR2013',
          object: 'Emitter/sys-out',
          path: 'spec.codec',
          message: 'lacks facility, severity',
        },
      ],
    },
    {
      name: 'a JAQ codec without ON EMITTING cannot encode (SR2014)',
      statements: `${CLIENT}
        CREATE CODEC in_only FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '.';
        ${emitter('json_out', 'orders', 'in_only')}`,
      expect: [
        { code: 'SR2014', object: 'Emitter/json-out', path: 'spec.codec', message: 'add ON EMITTING' },
      ],
    },
    {
      name: 'the codec’s schema does not fit the relay (SR2019), next to a fine emitter',
      statements: `${CLIENT}
        ${emitter('wrong_out', 'orders', 'syslog')}
        ${emitter('sys_out', 'lines', 'syslog')}`,
      expect: [
        {
          code: 'SR2019',
          object: 'Emitter/wrong-out',
          path: 'spec.codec',
          message: 'relay orders has no field facility, which schema line requires',
        },
      ],
      inGraph: ['emitters/sys-out'],
    },
  ]);
});
