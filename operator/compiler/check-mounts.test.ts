import assert from 'node:assert/strict';
import { compileCase, resourceFiles, table } from '../../test/fixtures/compile-cases.js';

const PKI = resourceFiles({ pki: { 1: { 'a.crt': '', 'a.key': '' }, 2: { 'b.crt': '', 'b.key': '' } } });

const tlsClient = (name: string, mount: string, cert: string, key: string): string =>
  `CREATE CLIENT ${name} TYPE SYSLOG ${mount} CONFIG { 'protocol' = 'tls', 'addr' = 'logs.example.com:6514',
     'tls_cert_file' = '${cert}', 'tls_key_file' = '${key}' };`;

describe('check-mounts: mounted versions and {{ resource }}/file paths', () => {
  table([
    {
      name: 'files of the mounted version; LATEST binds the highest',
      statements: `CREATE RESOURCE pki;
        ${tlsClient('c1', 'MOUNT pki VERSION 1', '{{ pki }}/a.crt', '{{ pki }}/a.key')}
        ${tlsClient('c2', 'MOUNT pki VERSION LATEST', '{{ pki }}/b.crt', '{{ pki }}/b.key')}`,
      resources: PKI,
      expect: [],
      inGraph: ['clients/c1', 'clients/c2'],
    },
    {
      name: 'a path outside the mount, no mount at all, a file missing from the version, a plain path',
      statements: `CREATE RESOURCE pki; CREATE RESOURCE other;
        ${tlsClient('other_res', 'MOUNT pki VERSION 1', '{{ other }}/a.crt', '{{ pki }}/a.key')}
        ${tlsClient('no_mount', '', '{{ pki }}/a.crt', '{{ pki }}/a.key')}
        ${tlsClient('missing', 'MOUNT pki VERSION 1', '{{ pki }}/b.crt', '{{ pki }}/../a.key')}
        ${tlsClient('plain', 'MOUNT pki VERSION 1', '/etc/ssl/a.crt', '{{ pki }}/a.key')}`,
      resources: PKI,
      expect: [
        {
          code: 'SR2036',
          object: 'SyslogClient/other-res',
          path: 'spec.config.tlsCertFile',
          message: 'refers to {{ other }}, which is not mounted; the MOUNT is pki',
        },
        {
          code: 'SR2036',
          object: 'SyslogClient/no-mount',
          path: 'spec.config.tlsCertFile',
          message: 'nothing is mounted',
        },
        {
          code: 'SR2036',
          object: 'SyslogClient/no-mount',
          path: 'spec.config.tlsKeyFile',
          message: 'nothing is mounted',
        },
        {
          code: 'SR2036',
          object: 'SyslogClient/missing',
          path: 'spec.config.tlsCertFile',
          message: 'names b.crt, which is not a file of resource pki version 1',
        },
        {
          code: 'SR2036',
          object: 'SyslogClient/missing',
          path: 'spec.config.tlsKeyFile',
          message: 'leaves the resource',
        },
        {
          code: 'SR2036',
          object: 'SyslogClient/plain',
          path: 'spec.config.tlsCertFile',
          message: 'must name a file of the mounted resource as {{ pki }}/<file>',
        },
      ],
    },
    {
      name: 'SR2064 advises UPLOAD RESOURCE with the identifier (my_pki), not the resource name (my-pki)',
      statements: `CREATE RESOURCE my_pki;
        ${tlsClient('c', 'MOUNT my_pki VERSION LATEST', '{{ my_pki }}/a.crt', '{{ my_pki }}/a.key')}`,
      expect: [
        {
          code: 'SR2064',
          object: 'SyslogClient/c',
          path: 'spec.mount.version',
          message:
            "resource my_pki has no uploaded version yet, so VERSION LATEST cannot be bound; run UPLOAD RESOURCE my_pki VERSION '<dir>' first",
        },
      ],
    },
    {
      name: 'a mounted version that is not uploaded (SR2064), on a client and a vhost',
      statements: `CREATE RESOURCE pki; CREATE RESOURCE empty;
        ${tlsClient('c', 'MOUNT pki VERSION 3', '{{ pki }}/a.crt', '{{ pki }}/a.key')}
        CREATE VHOST secure secure.example.com TLS MOUNT empty VERSION LATEST
          CONFIG { 'tls_cert_file' = '{{ empty }}/c.pem', 'tls_key_file' = '{{ empty }}/k.pem' };`,
      resources: PKI,
      expect: [
        {
          code: 'SR2064',
          object: 'SyslogClient/c',
          path: 'spec.mount.version',
          message: 'resource pki has no version 3 (the latest is 2)',
        },
        {
          code: 'SR2064',
          object: 'Vhost/secure',
          path: 'spec.tls.mount.version',
          message: 'resource empty has no uploaded version yet',
        },
      ],
    },
  ]);

  it('lowers LATEST to the version number and mounted files to resource, version, file', () => {
    const result = compileCase({
      statements: `CREATE RESOURCE pki;\n${tlsClient('c', 'MOUNT pki VERSION LATEST', '{{ pki }}/b.crt', '{{ pki }}/b.key')}`,
      resources: PKI,
    });
    assert.deepEqual(result.graph.clients.c, {
      protocol: 'tls',
      host: 'logs.example.com',
      port: 6514,
      maxMessageSize: 131072,
      framing: 'octet-counting',
      mount: { resource: 'pki', version: 2 },
      tls: {
        certFile: { resource: 'pki', version: 2, file: 'b.crt' },
        keyFile: { resource: 'pki', version: 2, file: 'b.key' },
      },
    });
  });
});
