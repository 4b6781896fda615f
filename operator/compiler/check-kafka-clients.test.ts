import { object, resourceFiles, table } from '../../test/fixtures/compile-cases.js';

const CREDS = resourceFiles({
  creds: {
    1: { password: 'secret\n', empty: '', newline: '\r\n', 'ca.crt': 'ca', 'c.crt': 'c', 'c.key': 'k' },
  },
});
type Config = Record<string, unknown>;

const client = (name: string, config: Config, mount = true) =>
  object('KafkaClient', name, {
    ...(mount ? { mount: { resource: 'creds', version: 1 } } : {}),
    config: { bootstrapServers: ['b:9092'], ...config },
  });
const SASL = {
  securityProtocol: 'sasl_plaintext',
  saslMechanism: 'plain',
  saslUsername: 'u',
  saslPasswordFile: '{{ creds }}/password',
};

describe('check-kafka-clients: each configuration mistake with its own code, naming the key', () => {
  table([
    {
      name: 'bootstrap servers: malformed, a port out of range, a bad IPv4, IPv6 and DNS name',
      objects: [
        client('k-form', { bootstrapServers: ['b:9092', 'no-port'] }),
        client('k-port', { bootstrapServers: ['b:65536'] }),
        client('k-ipv4', { bootstrapServers: ['10.0.0.1:9092', '256.0.0.1:9092'] }),
        client('k-ipv6', { bootstrapServers: ['[1:2:3:4:5:6:7:8:9]:9092'] }),
        client('k-dns', { bootstrapServers: [`${'a'.repeat(64)}.example.com:9092`] }),
        client('k-none', { bootstrapServers: [] }),
      ],
      statements: 'CREATE RESOURCE creds;',
      resources: CREDS,
      expect: [
        {
          code: 'SR2070',
          object: 'KafkaClient/k-form',
          path: 'spec.config.bootstrapServers',
          message: 'bootstrap_servers must be host:port[,host:port…]',
        },
        {
          code: 'SR2070',
          object: 'KafkaClient/k-port',
          path: 'spec.config.bootstrapServers',
          message: 'each port from 1 to 65535',
        },
        {
          code: 'SR2070',
          object: 'KafkaClient/k-ipv4',
          path: 'spec.config.bootstrapServers[1]',
          message: 'bootstrap server 256.0.0.1:9092 is malformed: 256.0.0.1 is not an IPv4 address',
        },
        {
          code: 'SR2070',
          object: 'KafkaClient/k-ipv6',
          path: 'spec.config.bootstrapServers[0]',
          message: 'is not an IPv6 address',
        },
        {
          code: 'SR2070',
          object: 'KafkaClient/k-dns',
          path: 'spec.config.bootstrapServers[0]',
          message: 'is not a DNS name (labels of 1 to 63 characters)',
        },
        {
          code: 'SR1012',
          object: 'KafkaClient/k-none',
          path: 'spec.config.bootstrapServers',
          message: 'needs at least 1 item',
        },
      ],
    },
    {
      name: 'client_id, TLS keys without TLS, half a client certificate, SASL missing or not allowed',
      objects: [
        client('k-id', { clientId: 'shop orders' }),
        client('k-id-long', { clientId: 'x'.repeat(256) }),
        client('k-tls-plain', { tlsCaFile: '{{ creds }}/ca.crt' }),
        client('k-tls-sasl', { ...SASL, tlsCertFile: '{{ creds }}/c.crt', tlsKeyFile: '{{ creds }}/c.key' }),
        client('k-half', { securityProtocol: 'ssl', tlsCertFile: '{{ creds }}/c.crt' }),
        client('k-sasl-missing', { securityProtocol: 'sasl_ssl', saslMechanism: 'plain' }),
        client('k-sasl-plain', { saslUsername: 'u', saslPasswordFile: '{{ creds }}/password' }),
      ],
      statements: 'CREATE RESOURCE creds;',
      resources: CREDS,
      expect: [
        { code: 'SR2075', object: 'KafkaClient/k-id', path: 'spec.config.clientId', message: 'client_id' },
        {
          code: 'SR2075',
          object: 'KafkaClient/k-id-long',
          path: 'spec.config.clientId',
          message: '1 to 255 letters',
        },
        {
          code: 'SR2071',
          object: 'KafkaClient/k-tls-plain',
          path: 'spec.config.tlsCaFile',
          message: 'tls_ca_file is only allowed with security_protocol ssl or sasl_ssl',
        },
        {
          code: 'SR2071',
          object: 'KafkaClient/k-tls-sasl',
          path: 'spec.config.tlsCertFile',
          message: 'tls_cert_file is only allowed',
        },
        {
          code: 'SR2071',
          object: 'KafkaClient/k-tls-sasl',
          path: 'spec.config.tlsKeyFile',
          message: 'tls_key_file is only allowed',
        },
        {
          code: 'SR2074',
          object: 'KafkaClient/k-half',
          path: 'spec.config.tlsKeyFile',
          message: 'tls_key_file is required with tls_cert_file',
        },
        {
          code: 'SR2072',
          object: 'KafkaClient/k-sasl-missing',
          path: 'spec.config.saslUsername',
          message: 'sasl_username is required with security_protocol sasl_plaintext or sasl_ssl',
        },
        {
          code: 'SR2072',
          object: 'KafkaClient/k-sasl-missing',
          path: 'spec.config.saslPasswordFile',
          message: 'sasl_password_file is required',
        },
        {
          code: 'SR2073',
          object: 'KafkaClient/k-sasl-plain',
          path: 'spec.config.saslUsername',
          message: 'sasl_username is only allowed with security_protocol sasl_plaintext or sasl_ssl',
        },
        {
          code: 'SR2073',
          object: 'KafkaClient/k-sasl-plain',
          path: 'spec.config.saslPasswordFile',
          message: 'sasl_password_file is only allowed',
        },
      ],
    },
    {
      name: 'files: outside the mount, not in the version, nothing mounted, a version not uploaded',
      objects: [
        client('k-elsewhere', { ...SASL, saslPasswordFile: '{{ other }}/password' }),
        client('k-missing', { securityProtocol: 'ssl', tlsCaFile: '{{ creds }}/nope.crt' }),
        client('k-unmounted', { ...SASL }, false),
        object('KafkaClient', 'k-version', {
          mount: { resource: 'creds', version: 7 },
          config: { bootstrapServers: ['b:9092'] },
        }),
      ],
      statements: 'CREATE RESOURCE creds;',
      resources: CREDS,
      expect: [
        {
          code: 'SR2036',
          object: 'KafkaClient/k-elsewhere',
          path: 'spec.config.saslPasswordFile',
          message: 'sasl_password_file refers to {{ other }}, which is not mounted; the MOUNT is creds',
        },
        {
          code: 'SR2036',
          object: 'KafkaClient/k-missing',
          path: 'spec.config.tlsCaFile',
          message: 'tls_ca_file names nope.crt, which is not a file of resource creds version 1',
        },
        {
          code: 'SR2036',
          object: 'KafkaClient/k-unmounted',
          path: 'spec.config.saslPasswordFile',
          message: 'nothing is mounted; add MOUNT creds VERSION <n>|LATEST',
        },
        {
          code: 'SR2064',
          object: 'KafkaClient/k-version',
          path: 'spec.mount.version',
          message: 'resource creds has no version 7 (the latest is 1)',
        },
      ],
    },
    {
      name: 'an empty password file (a lone newline counts as empty) is SR2080; a password is accepted',
      objects: [
        client('k-empty', { ...SASL, saslPasswordFile: '{{ creds }}/empty' }),
        client('k-newline', { ...SASL, saslPasswordFile: '{{ creds }}/newline' }),
        client('k-good', { ...SASL }),
      ],
      statements: 'CREATE RESOURCE creds;',
      resources: CREDS,
      expect: [
        {
          code: 'SR2080',
          object: 'KafkaClient/k-empty',
          path: 'spec.config.saslPasswordFile',
          message: 'sasl_password_file {{ creds }}/empty is empty',
        },
        {
          code: 'SR2080',
          object: 'KafkaClient/k-newline',
          path: 'spec.config.saslPasswordFile',
          message: 'is empty',
        },
      ],
      inGraph: ['kafkaClients/k-good'],
    },
  ]);
});
