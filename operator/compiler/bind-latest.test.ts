import assert from 'node:assert/strict';
import { specOf } from '../../test/fixtures/parse-one.js';
import { API_VERSION, type GraphObject } from '../api/index.js';
import { bindLatest } from './bind-latest.js';

function objectOf(text: string): GraphObject {
  const { kind, name, spec } = specOf(text);
  return { apiVersion: API_VERSION, kind, metadata: { name }, spec } as GraphObject;
}

const LATEST: Record<string, number> = { protos: 3, pki: 7 };
const latest = (resource: string): number | undefined => LATEST[resource];

describe('bind VERSION LATEST', () => {
  const cases: {
    title: string;
    text: string;
    path: (object: GraphObject) => unknown;
    bound: number | string;
  }[] = [
    {
      title: 'a protobuf codec',
      text: `CREATE CODEC c FROM PROTOBUF USING RESOURCE protos VERSION LATEST CONFIG { 'file' = 'a.proto', 'include' = '.' } MESSAGE 'a.A' TO SCHEMA s;`,
      path: (object) => object.kind === 'Codec' && object.spec.protobuf?.using.version,
      bound: 3,
    },
    {
      title: 'a vhost’s TLS mount',
      text: `CREATE VHOST v v.example.com TLS MOUNT pki VERSION LATEST CONFIG { 'tls_cert_file' = '{{ pki }}/a.crt', 'tls_key_file' = '{{ pki }}/a.key' };`,
      path: (object) => object.kind === 'Vhost' && object.spec.tls?.mount?.version,
      bound: 7,
    },
    {
      title: 'a syslog client’s mount',
      text: `CREATE CLIENT c TYPE SYSLOG MOUNT pki VERSION LATEST CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514', 'tls_cert_file' = '{{ pki }}/a.crt', 'tls_key_file' = '{{ pki }}/a.key' };`,
      path: (object) => object.kind === 'SyslogClient' && object.spec.mount?.version,
      bound: 7,
    },
    {
      title: 'an exact version, which stays',
      text: `CREATE CLIENT c TYPE SYSLOG MOUNT pki VERSION 2 CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514', 'tls_cert_file' = '{{ pki }}/a.crt', 'tls_key_file' = '{{ pki }}/a.key' };`,
      path: (object) => object.kind === 'SyslogClient' && object.spec.mount?.version,
      bound: 2,
    },
    {
      title: 'a resource with no upload yet, which keeps LATEST (the compiler reports it)',
      text: `CREATE VHOST v v.example.com TLS MOUNT fresh VERSION LATEST CONFIG { 'tls_cert_file' = '{{ fresh }}/a.crt', 'tls_key_file' = '{{ fresh }}/a.key' };`,
      path: (object) => object.kind === 'Vhost' && object.spec.tls?.mount?.version,
      bound: 'LATEST',
    },
  ];
  for (const { title, text, path, bound } of cases) {
    it(title, () => {
      const object = objectOf(text);
      const before = JSON.stringify(object);
      assert.equal(path(bindLatest(object, latest)), bound);
      assert.equal(JSON.stringify(object), before, 'the statement’s object is not changed');
    });
  }
});
