import assert from 'node:assert/strict';
import { loadGraph } from '../../dataplane/graph/load.js';
import { compileCase, objectsOf, BASE } from '../../test/fixtures/compile-cases.js';
import { parseAllDocuments } from 'yaml';
import { loadYamlObjects } from '../language/yaml-input.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { compileDomain, prepareCompileAll } from './index.js';

before(() => prepareCompileAll());

describe('compileDomain', () => {
  it('accepts a valid domain: every object accepted, no diagnostics, a loadable graph', () => {
    const result = compileDomain(objectsOf(BASE), { domain: 'shop' });
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.verdicts.size, 10);
    assert.ok([...result.verdicts.values()].every((verdict) => verdict.status === 'accepted'));
    assert.equal(result.graph.domain, 'shop');
    assert.ok(loadGraph(JSON.parse(JSON.stringify(result.graph))).ok);
  });

  it('never throws on input that is not a graph object', () => {
    const junk = [
      null,
      42,
      'text',
      [],
      { kind: 'Relay' },
      { apiVersion: 'streamroute.io/v1alpha1', kind: 'Relay', metadata: { name: 'UPPER' }, spec: null },
    ];
    const result = compileDomain(junk, { domain: 'shop' });
    assert.ok(result.diagnostics.length >= junk.length - 1);
    assert.ok(result.diagnostics.every((d) => d.code.startsWith('SR1')));
    assert.ok(loadGraph(result.graph).ok);
  });

  it('gives every diagnostic an object, a path and a message that names the object', () => {
    const result = compileCase({
      statements: `CREATE RELAY r SCHEMA nothing UNBRANCHED;
        CREATE CODEC c FROM SYSLOG TO SCHEMA orders;
        CREATE JUNCTION j FROM orders TO lines INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
    });
    assert.ok(result.diagnostics.length >= 4);
    for (const diagnostic of result.diagnostics) {
      assert.ok(diagnostic.object && diagnostic.path, JSON.stringify(diagnostic));
      assert.ok(
        diagnostic.message.includes(`${diagnostic.object.kind} ${diagnostic.object.name}`),
        diagnostic.message,
      );
    }
  });

  it('is deterministic: the same input gives the same graph and diagnostics', () => {
    const objects = objectsOf(`${BASE}\nCREATE RELAY r SCHEMA nothing UNBRANCHED;`);
    const first = compileDomain(objects, { domain: 'shop' });
    const second = compileDomain(objects, { domain: 'shop' });
    assert.deepEqual(JSON.stringify(first), JSON.stringify(second));
  });
});

describe('compileDomain: what the caller already reported', () => {
  const correlator = `CREATE SCHEMA o (id STRING, n I64);
    CREATE RELAY o SCHEMA o UNBRANCHED;
    CREATE CORRELATOR c LEFT FROM o RIGHT FROM o CORRELATE WHERE left.id = right.id MATCH EARLIEST
      MAX TIME 30s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED TO o SET id = left.id, n = 'x'
      FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`;

  it('counts it against its object, and does not repeat a single-object problem at that field', () => {
    const objects = objectsOf(correlator) as unknown as { kind: string; spec: Record<string, unknown> }[];
    const broken = objects.map((o) =>
      o.kind === 'Correlator' ? { ...o, spec: { ...o.spec, maxTime: '0s' } } : o,
    );
    const parser: Diagnostic = {
      code: 'SR1003',
      severity: 'error',
      message: "'0s' is not a duration: it must be greater than zero",
      object: { kind: 'Correlator', name: 'c' },
      path: 'spec.maxTime',
    };
    const result = compileDomain(broken, { domain: 'shop', reported: [parser] });
    // Not the schema's SR1012 at spec.maxTime again, nor check-literals' SR1003; the type error stays.
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.code} ${d.path}`),
      ['SR2005 spec.routes[0].set[1].value'],
    );
    const verdict = result.verdicts.get('Correlator/c');
    assert.equal(verdict?.status, 'rejected');
    assert.ok(verdict?.status === 'rejected' && verdict.diagnostics.includes(parser));
  });

  it('still reports another pass’s problem at the same field with another code', () => {
    const reported: Diagnostic = {
      code: 'SR2003',
      severity: 'error',
      message: 'something else',
      object: { kind: 'Correlator', name: 'c' },
      path: 'spec.routes[0].set[1].value',
    };
    const result = compileDomain(objectsOf(correlator), { domain: 'shop', reported: [reported] });
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      ['SR2005'],
    );
  });

  it('the CLI (loader, then compiler) and the controller (compiler alone) report the same problems', () => {
    const yaml = `apiVersion: streamroute.io/v1alpha1
kind: Schema
metadata: {name: s}
spec: {fields: [{name: a, type: STRNG}]}
---
apiVersion: streamroute.io/v1alpha1
kind: Relay
metadata: {name: r}
spec: {schema: s, branching: UNBRANCHED}
---
apiVersion: streamroute.io/v1alpha1
kind: SyslogClient
metadata: {name: c}
spec: {config: {protocol: udp, addr: 'localhost:514', tlsCertFile: '{{ pki }}/c.crt'}}
`;
    const problem = (d: Diagnostic) =>
      `${d.code} ${d.object?.kind}/${d.object?.name} ${d.path}: ${d.message}`;
    const loaded = loadYamlObjects(yaml, 'graph.yaml');
    const cli = compileDomain(loaded.objects, { domain: 'shop', reported: loaded.diagnostics });
    const controller = compileDomain(
      parseAllDocuments(yaml).map((document) => document.toJS() as unknown),
      { domain: 'shop' },
    );
    const cliProblems = [...loaded.diagnostics, ...cli.diagnostics].map(problem).sort();
    assert.deepEqual(cliProblems, controller.diagnostics.map(problem).sort());
    assert.ok(
      cliProblems.some((p) => p.startsWith('SR2061 Relay/r spec.schema: Relay r waits for Schema s')),
    );
    assert.ok(cliProblems.some((p) => p.startsWith('SR2035 SyslogClient/c spec.config.tlsCertFile')));
    assert.deepEqual(
      [...cli.verdicts].map(([id, v]) => `${id} ${v.status}`),
      [...controller.verdicts].map(([id, v]) => `${id} ${v.status}`),
    );
  });
});
