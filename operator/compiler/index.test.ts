import assert from 'node:assert/strict';
import type { GraphObject } from '../api/index.js';
import { loadGraph } from '../../dataplane/graph/load.js';
import { compileCase, objectsOf, BASE } from '../../test/fixtures/compile-cases.js';
import { compileDomain } from './index.js';

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
    const result = compileDomain(junk as unknown as GraphObject[], { domain: 'shop' });
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
