import { resourceFiles, table } from '../../test/fixtures/compile-cases.js';

const client = (name: string, protocol: string, addr: string): string =>
  `CREATE CLIENT ${name} TYPE SYSLOG CONFIG { 'protocol' = '${protocol}', 'addr' = '${addr}' };`;
const listener = (name: string, from: string): string =>
  `CREATE SYSLOG LISTENER INGESTOR ${name} FROM ${from} MODE NO ACK ON QUIESCE DROP DECODE USING syslog
     TO lines INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;

describe('check-listeners: one listener per socket', () => {
  table([
    {
      name: 'udp and tcp share a port; different ports and hosts do not conflict',
      statements: [
        client('u', 'udp', '0.0.0.0:514'),
        client('t', 'tcp', '0.0.0.0:514'),
        client('a', 'tcp', '10.0.0.1:601'),
        client('b', 'tcp', '10.0.0.2:601'),
        listener('u_in', 'u'),
        listener('t_in', 't'),
        listener('a_in', 'a'),
        listener('b_in', 'b'),
      ].join('\n'),
      expect: [],
      inGraph: [
        'syslogIngestors/u-in',
        'syslogIngestors/t-in',
        'syslogIngestors/a-in',
        'syslogIngestors/b-in',
      ],
    },
    {
      name: 'the second listener on a socket is rejected: same client, tcp with tls, a wildcard over an address',
      statements: [
        client('t', 'tcp', '0.0.0.0:601'),
        `CREATE RESOURCE pki; CREATE CLIENT s TYPE SYSLOG MOUNT pki VERSION 1 CONFIG { 'protocol' = 'tls',
          'addr' = '127.0.0.1:601', 'tls_cert_file' = '{{ pki }}/s.crt', 'tls_key_file' = '{{ pki }}/s.key' };`,
        client('u', 'udp', '[::]:514'),
        client('u2', 'udp', '192.168.1.1:514'),
        listener('first', 't'),
        listener('again', 't'),
        listener('secure', 's'),
        listener('wide', 'u'),
        listener('narrow', 'u2'),
      ].join('\n'),
      resources: resourceFiles({ pki: { 1: { 's.crt': '', 's.key': '' } } }),
      expect: [
        {
          code: 'SR2040',
          object: 'SyslogIngestor/again',
          path: 'spec.client',
          message: 'SyslogIngestor first already listens on tcp port 601',
        },
        {
          code: 'SR2040',
          object: 'SyslogIngestor/secure',
          path: 'spec.client',
          message: 'tcp and tls both use TCP sockets',
        },
        {
          code: 'SR2040',
          object: 'SyslogIngestor/narrow',
          path: 'spec.client',
          message: 'SyslogIngestor wide already listens on udp port 514',
        },
      ],
      inGraph: ['syslogIngestors/first', 'syslogIngestors/wide'],
    },
  ]);
});
