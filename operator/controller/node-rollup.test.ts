import assert from 'node:assert/strict';
import type { ClusterObject } from './domain-snapshot.js';
import { domainNodes, ERROR_SAMPLES, readyCondition, rollUp, STALE_REPORT_MS } from './node-rollup.js';

function report(
  node: string,
  graphVersion: number | undefined,
  state: string | undefined,
  error?: string,
): ClusterObject {
  return {
    kind: 'DataplaneNode',
    metadata: { name: node },
    status: {
      domains:
        graphVersion === undefined
          ? [{ domain: 'other', graphVersion: 1 }]
          : [{ domain: 'shop', graphVersion }],
      components:
        state === undefined
          ? []
          : [
              {
                domain: 'shop',
                kind: 'HttpIngestor',
                name: 'orders-in',
                state,
                ...(error === undefined ? {} : { transientError: error }),
              },
            ],
    },
  };
}

describe('node roll-up', () => {
  it('leaves out a node whose heartbeat is older than 15 minutes (a node that is gone)', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    const fresh = { ...report('n1', 3, 'Running') };
    fresh.status = { ...fresh.status, heartbeatTime: at(STALE_REPORT_MS) };
    const gone = { ...report('n2', 2, 'Running') };
    gone.status = { ...gone.status, heartbeatTime: at(STALE_REPORT_MS + 1) };
    const rollup = rollUp(domainNodes([fresh, gone], 'shop', now), 'HttpIngestor', 'orders-in');
    assert.equal(rollup.total, 1);
    assert.deepEqual(rollup.versions, [{ version: 3, nodes: 1 }]);
  });

  it('is Unknown when no node reports the domain', () => {
    const rollup = rollUp(
      domainNodes([report('n1', undefined, undefined)], 'shop'),
      'HttpIngestor',
      'orders-in',
    );
    assert.deepEqual(rollup, { running: 0, withError: 0, total: 0, errorSamples: [], versions: [] });
    assert.equal(readyCondition(rollup).status, 'Unknown');
  });

  it('is Ready when every node running the domain runs the component', () => {
    const nodes = domainNodes(
      [report('n1', 3, 'Running'), report('n2', 3, 'Running'), report('x', undefined, undefined)],
      'shop',
    );
    const rollup = rollUp(nodes, 'HttpIngestor', 'orders-in');
    assert.deepEqual(rollup, {
      running: 2,
      withError: 0,
      total: 2,
      errorSamples: [],
      versions: [{ version: 3, nodes: 2 }],
    });
    assert.deepEqual(readyCondition(rollup), {
      status: 'True',
      reason: 'Running',
      message: 'running on 2 of 2 nodes',
    });
  });

  it('is not Ready with reason Retrying and a sample when a node has a transient error', () => {
    const nodes = domainNodes(
      [report('n1', 3, 'Running'), report('n2', 2, 'Retrying', 'connect ECONNREFUSED')],
      'shop',
    );
    const rollup = rollUp(nodes, 'HttpIngestor', 'orders-in');
    assert.deepEqual(rollup.errorSamples, [{ node: 'n2', error: 'connect ECONNREFUSED' }]);
    assert.deepEqual(rollup.versions, [
      { version: 3, nodes: 1 },
      { version: 2, nodes: 1 },
    ]);
    const ready = readyCondition(rollup);
    assert.equal(ready.status, 'False');
    assert.equal(ready.reason, 'Retrying');
    assert.match(ready.message, /node n2: connect ECONNREFUSED/);
  });

  it('stays bounded with thousands of nodes', () => {
    const reports = Array.from({ length: 5000 }, (_, i) =>
      report(`node-${i}`, i % 40, 'Retrying', 'x'.repeat(2000)),
    );
    const rollup = rollUp(domainNodes(reports, 'shop'), 'HttpIngestor', 'orders-in');
    assert.equal(rollup.total, 5000);
    assert.equal(rollup.withError, 5000);
    assert.equal(rollup.errorSamples.length, ERROR_SAMPLES);
    assert.ok(rollup.errorSamples.every((sample) => sample.error.length <= 512));
    assert.equal(rollup.versions.length, 10);
    assert.equal(rollup.versions[0]?.version, 39);
    assert.ok(JSON.stringify(rollup).length < 4096);
  });

  it('counts a node that runs the domain without the component as not running', () => {
    const rollup = rollUp(domainNodes([report('n1', 3, undefined)], 'shop'), 'HttpIngestor', 'orders-in');
    assert.deepEqual(readyCondition(rollup).reason, 'NotRunning');
  });
});
