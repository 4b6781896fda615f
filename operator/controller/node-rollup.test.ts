import assert from 'node:assert/strict';
import type { ClusterObject } from './domain-snapshot.js';
import {
  domainNodes,
  ERROR_SAMPLES,
  readyCondition,
  rollUp,
  rollUpReady,
  STALE_REPORT_MS,
} from './node-rollup.js';

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

  describe('while nodes have not reported the published version (decision 0018)', () => {
    const published = (reports: ClusterObject[]) => ({
      ...domainNodes(reports, 'shop'),
      publishedVersion: 4,
      reportWithinMs: 819_200,
    });

    it('counts reported and pending nodes; an existing component stays Ready, with a note', () => {
      const { rollup, ready } = rollUpReady(
        published([report('n1', 4, 'Running'), report('n2', 3, 'Running'), report('n3', 3, 'Running')]),
        'HttpIngestor',
        'orders-in',
      );
      assert.deepEqual(
        [rollup.publishedVersion, rollup.reported, rollup.pending, rollup.reportWithinSeconds],
        [4, 1, 2, 820],
      );
      assert.deepEqual(ready, {
        status: 'True',
        reason: 'Running',
        message:
          'running on 3 of 3 nodes; graph version 4 reported by 1 nodes, the other 2 report within 14 min',
      });
    });

    it('a component new in the version is Unknown (ReportsPending) until the pending nodes report', () => {
      const { ready } = rollUpReady(
        published([report('n1', 4, 'Running'), report('n2', 3, undefined), report('n3', 3, undefined)]),
        'HttpIngestor',
        'orders-in',
      );
      assert.equal(ready.status, 'Unknown');
      assert.equal(ready.reason, 'ReportsPending');
      assert.match(
        ready.message,
        /running on 1 of 3 nodes, no problem reported; graph version 4 reported by 1 nodes/,
      );
    });

    it('a problem is never pending: an error, or a node on the version without the component, is False', () => {
      const retrying = rollUpReady(
        published([report('n1', 4, 'Retrying', 'ECONNREFUSED'), report('n2', 3, undefined)]),
        'HttpIngestor',
        'orders-in',
      );
      assert.equal(retrying.ready.reason, 'Retrying');
      const missing = rollUpReady(
        published([report('n1', 4, undefined), report('n2', 3, undefined)]),
        'HttpIngestor',
        'orders-in',
      );
      assert.deepEqual([missing.ready.status, missing.ready.reason], ['False', 'NotRunning']);
    });

    it('a node whose graph has an error is not pending', () => {
      const refused = report('n2', 3, undefined);
      refused.status = {
        ...refused.status,
        domains: [{ domain: 'shop', graphVersion: 3, error: 'graph version 4: refused' }],
      };
      const { rollup, ready } = rollUpReady(
        published([report('n1', 4, 'Running'), refused]),
        'HttpIngestor',
        'orders-in',
      );
      assert.equal(rollup.pending, 0);
      assert.deepEqual([ready.status, ready.reason], ['False', 'NotRunning']);
    });
  });
});
