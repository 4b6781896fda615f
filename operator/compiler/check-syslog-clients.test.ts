import { object, resourceFiles, table } from '../../test/fixtures/compile-cases.js';

const PKI = resourceFiles({ pki: { 1: { 'server.crt': 'c', 'server.key': 'k' } } });
const listener = (name: string, client: string): string =>
  `CREATE SYSLOG LISTENER INGESTOR ${name} FROM ${client} MODE NO ACK ON QUIESCE DROP DECODE USING syslog
     TO lines INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;
const client = (name: string, config: Record<string, string | number>, mount?: string) =>
  object('SyslogClient', name, {
    ...(mount === undefined ? {} : { mount: { resource: mount, version: 1 } }),
    config: config as never,
  });

describe('check-syslog-clients: the configuration errors (docs/syslog-wire.md), each with its key’s code', () => {
  table([
    {
      name: 'a TLS listener without a server identity is rejected on the ingestor, naming the client',
      statements: `CREATE RESOURCE pki;
        CREATE CLIENT tls_emit TYPE SYSLOG MOUNT pki VERSION 1 CONFIG { 'protocol' = 'tls', 'addr' = 'logs.example.com:6514' };
        CREATE CLIENT tls_full TYPE SYSLOG MOUNT pki VERSION 1 CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514',
          'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key' };
        ${listener('bad_in', 'tls_emit')}
        ${listener('good_in', 'tls_full')}`,
      resources: PKI,
      expect: [
        {
          code: 'SR2033',
          object: 'SyslogIngestor/bad-in',
          path: 'spec.client',
          message:
            'listens with TLS on client tls_emit, which has no server identity: set tls_cert_file and tls_key_file',
        },
      ],
      inGraph: ['clients/tls-emit', 'syslogIngestors/good-in'],
    },
    {
      name: 'unknown protocol, malformed addresses, framing, half an identity, TLS keys on tcp',
      objects: [
        client('c-proto', { protocol: 'quic', addr: '0.0.0.0:1' }),
        client('c-addr', { protocol: 'udp', addr: 'no-port' }),
        client('c-ipv4', { protocol: 'udp', addr: '300.1.1.1:514' }),
        client('c-ipv6', { protocol: 'udp', addr: '[1:2:3:4:5:6:7:8:9]:514' }),
        client('c-port', { protocol: 'udp', addr: 'host:70000' }),
        client('c-udp-framing', { protocol: 'udp', addr: 'h:1', framing: 'octet-counting' }),
        client('c-tls-framing', { protocol: 'tls', addr: 'h:1', framing: 'non-transparent' }),
        client('c-half', { protocol: 'tls', addr: 'h:1', tlsCertFile: '{{ pki }}/server.crt' }, 'pki'),
        client('c-tcp-tls', { protocol: 'tcp', addr: 'h:1', tlsCaFile: '{{ pki }}/ca.crt' }, 'pki'),
      ],
      statements: 'CREATE RESOURCE pki;',
      resources: PKI,
      expect: [
        {
          code: 'SR2030',
          object: 'SyslogClient/c-proto',
          path: 'spec.config.protocol',
          message: "unknown protocol 'quic'",
        },
        { code: 'SR2031', object: 'SyslogClient/c-addr', path: 'spec.config.addr', message: 'host:port' },
        {
          code: 'SR2031',
          object: 'SyslogClient/c-ipv4',
          path: 'spec.config.addr',
          message: '300.1.1.1 is not an IPv4 address',
        },
        {
          code: 'SR2031',
          object: 'SyslogClient/c-ipv6',
          path: 'spec.config.addr',
          message: 'is not an IPv6 address',
        },
        {
          code: 'SR2031',
          object: 'SyslogClient/c-port',
          path: 'spec.config.addr',
          message: 'port from 1 to 65535',
        },
        {
          code: 'SR2032',
          object: 'SyslogClient/c-udp-framing',
          path: 'spec.config.framing',
          message: 'not allowed with protocol udp',
        },
        {
          code: 'SR2032',
          object: 'SyslogClient/c-tls-framing',
          path: 'spec.config.framing',
          message: 'non-transparent is not allowed with protocol tls',
        },
        {
          code: 'SR2034',
          object: 'SyslogClient/c-half',
          path: 'spec.config.tlsKeyFile',
          message: 'tls_key_file is required with tls_cert_file',
        },
        {
          code: 'SR2035',
          object: 'SyslogClient/c-tcp-tls',
          path: 'spec.config.tlsCaFile',
          message: 'tls_ca_file is only allowed with protocol tls',
        },
        // The client's rule fails, and its other passes still run: the file is not in the mount either.
        {
          code: 'SR2036',
          object: 'SyslogClient/c-tcp-tls',
          path: 'spec.config.tlsCaFile',
          message: 'tls_ca_file names ca.crt, which is not a file of resource pki version 1',
        },
      ],
      inGraph: ['clients/udp-in'],
    },
  ]);
});
