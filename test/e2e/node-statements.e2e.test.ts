// Statements run through the real CLI code path (runCli → the admin API → the node's executor) against
// an embedded node, and what a restart over the same data dir brings back. A batch that fails validation
// changes nothing at all — objects, graph version, files on disk — and traffic keeps flowing; a good one
// activates exactly one new graph version.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchAdmin } from '../fixtures/admin-client.js';
import { line, linesOf, snapshotDir, eachTestNode, type NodeHarness } from '../fixtures/node-harness.js';

const AUDIT = `
  CREATE RELAY audit SCHEMA orders UNBRANCHED;
  CREATE JUNCTION audit_copy FROM orders
    TO audit INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
    ON GENERAL ERROR LOG;`;

describe('node e2e: statements and restart', () => {
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  const versionLines = (stdout: string): string[] =>
    stdout.split('\n').filter((text) => text.startsWith('-- '));

  it('a batch that fails validation changes nothing: objects, graph version, data dir; traffic still flows', async () => {
    const relays = await node.sql('SHOW RELAYS;');
    assert.equal(relays.code, 0, relays.stderr);
    const version = await node.graphVersion();
    assert.equal(version, 1);
    const files = snapshotDir(node.dataDir);

    const run = await node.sql(
      'BEGIN; CREATE RELAY audit SCHEMA orders UNBRANCHED; CREATE RELAY broken SCHEMA missing UNBRANCHED; COMMIT;',
    );
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^-c:1:\d+: error SR2001: Relay broken spec\.schema: Relay broken refers to Schema missing, which does not exist in domain default; create it or fix the name$/m,
    );
    assert.deepEqual(versionLines(run.stdout), [], 'no graph version was activated');

    assert.equal((await node.sql('SHOW RELAYS;')).stdout, relays.stdout);
    assert.equal(await node.graphVersion(), version);
    assert.deepEqual(snapshotDir(node.dataDir), files);
    await assert.rejects(node.subscribe('audit'), /HTTP 404/);
    await node.assertPairs('T1');
  });

  it('a good batch activates exactly one new graph version', async () => {
    const run = await node.sql(`BEGIN; ${AUDIT} COMMIT;`);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(versionLines(run.stdout), ['-- domain default runs graph version 2']);
    assert.equal(await node.graphVersion(), 2);
    assert.match((await node.sql('SHOW RELAYS;')).stdout, /^audit +orders +statement$/m);

    const audit = await node.subscribe('audit');
    assert.equal((await node.post('/shop/orders', { order_id: 'G1', amount: 4 })).status, 202);
    assert.deepEqual(await linesOf(audit, 1), [line({ order_id: 'G1', amount: 4, channel: 'shop' })]);
  });

  it('a restarted node restores the graph version and statement objects, and routes its first request', async () => {
    assert.equal((await node.sql(AUDIT)).code, 0);
    const version = await node.graphVersion();
    assert.equal(version, 3, 'two statements, two versions');
    const relays = (await node.sql('SHOW RELAYS;')).stdout;

    await node.restart();
    // The very first request after the start is routed: the graph ran before the listener opened.
    assert.equal((await node.post('/web/orders', { order_id: 'R1', amount: 6 })).status, 202);
    const paid = await node.subscribe('paid-first');
    assert.equal((await node.post('/payments', { payment_id: 'P1', order_id: 'R1', amount: 6 })).status, 202);
    assert.deepEqual(await linesOf(paid, 1), [
      line({ order_id: 'R1', payment_id: 'P1', channel: 'web', ordered: 6, paid: 6 }),
    ]);

    assert.deepEqual(node.node.restored, [
      { domain: 'default', graphVersion: version, ok: true, errors: [] },
    ]);
    assert.equal(await node.graphVersion(), version, 'unchanged manifests make no new version');
    assert.equal((await node.sql('SHOW RELAYS;')).stdout, relays);
    const audit = await node.subscribe('audit');
    assert.equal((await node.post('/web/orders', { order_id: 'R2', amount: 1 })).status, 202);
    assert.deepEqual(await linesOf(audit, 1), [line({ order_id: 'R2', amount: 1, channel: 'web' })]);
  });

  it('a manifest edited while the node was down is the next graph version before the first request', async () => {
    const edited = node.readManifest().replace("SET channel = 'web'", "SET channel = 'web-v2'");
    await node.restart(() => node.writeManifest(edited));
    assert.equal((await node.post('/web/orders', { order_id: 'M1', amount: 6 })).status, 202);
    const paid = await node.subscribe('paid-first');
    assert.equal((await node.post('/payments', { payment_id: 'P1', order_id: 'M1', amount: 6 })).status, 202);
    assert.deepEqual(await linesOf(paid, 1), [
      line({ order_id: 'M1', payment_id: 'P1', channel: 'web-v2', ordered: 6, paid: 6 }),
    ]);
    assert.deepEqual(node.node.restored, [{ domain: 'default', graphVersion: 1, ok: true, errors: [] }]);
    assert.equal(await node.graphVersion(), 2);
  });

  it('a stored graph that is not a Graph is refused and logged at start; the other domains run', async () => {
    await node.restart(() => {
      const domain = join(node.dataDir, 'domains', 'other');
      mkdirSync(domain, { mode: 0o700 });
      const state = {
        format: 1,
        graphVersion: 3,
        graph: { not: 'a graph' },
        statementObjects: [],
        manifestObjects: [],
      };
      writeFileSync(join(domain, 'state.json'), JSON.stringify(state), { mode: 0o600 });
    });

    const other = node.node.restored.find((entry) => entry.domain === 'other');
    assert.equal(other?.ok, false);
    assert.ok(other.errors.includes('(graph): missing apiVersion'), other.errors.join('\n'));
    const refused = node.logged('the data plane refused the stored graph');
    assert.deepEqual(
      refused.map(({ domain, graphVersion }) => ({ domain, graphVersion })),
      [{ domain: 'other', graphVersion: 3 }],
    );
    const ready = await fetchAdmin(node.adminPort, '/readyz');
    const checks = (JSON.parse(ready.body) as { checks: { name: string; ok: boolean; detail: string }[] })
      .checks;
    assert.deepEqual(
      checks.filter((check) => check.name.startsWith('graph:')),
      [{ name: 'graph:default', ok: true, detail: 'graph version 1 applied' }],
    );
    await node.assertPairs('S1');
  });
});
