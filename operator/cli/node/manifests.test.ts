import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  exampleText,
  openTestNode,
  removeDir,
  tempDir,
  type TestNode,
} from '../../../test/fixtures/embedded-node.js';
import { ManifestError, Manifests, type ManifestReport } from './manifests.js';

const QUICKSTART = exampleText('quickstart/graph.sql');

const TEAM_A_YAML = `apiVersion: streamroute.io/v1alpha1
kind: Schema
metadata:
  name: metrics
  namespace: team-a
spec:
  fields:
    - name: value
      type: I64
---
apiVersion: streamroute.io/v1alpha1
kind: Relay
metadata:
  name: metrics
  namespace: team-a
spec:
  schema: metrics
  branching: UNBRANCHED
`;

function manifestsOf(node: TestNode, path: string, onReload?: (report: ManifestReport) => void): Manifests {
  return new Manifests({
    path,
    store: node.store,
    committer: node.committer,
    queue: node.queue,
    logger: node.logger,
    ...(onReload === undefined ? {} : { onReload }),
    debounceMs: 50,
  });
}

function summary(report: ManifestReport): string[] {
  return report.domains.map(
    (d) => `${d.domain} ${d.status}${d.graphVersion === undefined ? '' : ` v${d.graphVersion}`}`,
  );
}

function kindsAndFiles(node: TestNode, domain = 'default'): string[] {
  return node.store
    .state(domain)
    .manifestObjects.map((entry) => `${entry.object.kind}/${entry.object.metadata.name} ${entry.file}`);
}

describe('manifests', () => {
  let node: TestNode;
  let dir: string;
  let manifests: Manifests;
  beforeEach(() => {
    node = openTestNode();
    dir = tempDir('streamroute-manifests-');
    writeFileSync(join(dir, 'orders.sql'), QUICKSTART);
    writeFileSync(join(dir, 'team-a.yaml'), TEAM_A_YAML);
    manifests = manifestsOf(node, dir);
  });
  afterEach(() => {
    manifests.close();
    node.close();
    removeDir(node.root);
    removeDir(dir);
  });

  it('places objects in the domain of their namespace (default without one), owned by their file', async () => {
    const report = await manifests.reload({ initial: true });
    assert.equal(report.ok, true);
    assert.deepEqual(summary(report), ['default applied v1', 'team-a applied v1']);
    assert.deepEqual(kindsAndFiles(node, 'team-a'), [
      `Schema/metrics ${join(dir, 'team-a.yaml')}`,
      `Relay/metrics ${join(dir, 'team-a.yaml')}`,
    ]);
    assert.equal(node.store.objects('default').length, 7);
    assert.ok(node.store.objects('default').every((object) => object.metadata.namespace === 'default'));
    const reply = await node.run('DROP RELAY orders;');
    assert.deepEqual(reply.results[0]?.diagnostics, [
      `-c:1:1: error SR1018: Relay orders is declared in ${join(dir, 'orders.sql')}; change it there`,
    ]);
  });

  it('a reload without changes activates nothing', async () => {
    await manifests.reload({ initial: true });
    const report = await manifests.reload();
    assert.deepEqual(summary(report), ['default unchanged', 'team-a unchanged']);
    assert.equal(node.activations.length, 2);
  });

  const broken: { title: string; file: string; text: string; logged: RegExp }[] = [
    {
      title: 'a syntax error',
      file: 'more.sql',
      text: 'CREATE RELAY more SCHEMA orders UNBRANCHD;',
      logged: /more\.sql:1:33: error SR1001: /,
    },
    {
      title: 'a route naming an unknown relay',
      file: 'more.sql',
      text: `CREATE HTTP ENDPOINT INGESTOR more_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json
  TO nowhere INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
      logged: /more\.sql:2:6: error SR2001: HttpIngestor more-in spec\.routes\[0\]\.to: /,
    },
    {
      title: 'an object declared twice',
      file: 'again.yaml',
      text: 'apiVersion: streamroute.io/v1alpha1\nkind: Relay\nmetadata:\n  name: orders\nspec:\n  schema: orders\n  branching: UNBRANCHED\n',
      logged:
        /again\.yaml:4:3: error SR1014: Relay orders metadata\.name: Relay orders is declared twice \(first declared at .*orders\.sql:17:14\)/,
    },
  ];
  for (const { title, file, text, logged } of broken) {
    it(`keeps a domain as it runs when its manifests have ${title}, and logs FILE:LINE:COL`, async () => {
      await manifests.reload({ initial: true });
      const before = { state: node.store.state('default'), activations: node.activations.length };
      writeFileSync(join(dir, file), text);
      writeFileSync(join(dir, 'orders.sql'), `${QUICKSTART}\nCREATE RELAY extra SCHEMA orders UNBRANCHED;`);
      const report = await manifests.reload();
      assert.equal(report.ok, false);
      assert.deepEqual(summary(report), ['default rejected', 'team-a unchanged']);
      assert.equal(
        node.store.state('default'),
        before.state,
        'not even the valid change of orders.sql is applied',
      );
      assert.equal(node.activations.length, before.activations);
      const lines = node.logs.filter((line) => line.level === 50).map((line) => line.msg);
      assert.ok(
        lines.some((line) => logged.test(line)),
        lines.join('\n'),
      );
      assert.ok(node.logs.some((line) => line.msg.startsWith('the manifests of this domain have errors')));
    });
  }

  it('a change in one domain does not wait for another domain that has errors', async () => {
    await manifests.reload({ initial: true });
    writeFileSync(join(dir, 'orders.sql'), 'CREATE RELAY orders SCHEMA;');
    writeFileSync(join(dir, 'team-a.yaml'), TEAM_A_YAML.replace('type: I64', 'type: STRING'));
    const report = await manifests.reload();
    assert.deepEqual(summary(report), ['default rejected', 'team-a applied v2']);
  });

  it('a deleted manifest file removes its objects', async () => {
    await manifests.reload({ initial: true });
    rmSync(join(dir, 'team-a.yaml'));
    const report = await manifests.reload();
    assert.deepEqual(summary(report), ['default unchanged', 'team-a applied v2']);
    assert.deepEqual(node.store.objects('team-a'), []);
    assert.deepEqual(node.activations.at(-1)?.graph.relays, {});
  });

  it('refuses manifest objects that a statement created too (SR1014)', async () => {
    await node.run('CREATE SCHEMA orders (order_id STRING, amount I64);');
    const report = await manifests.reload({ initial: true });
    assert.deepEqual(summary(report), ['default rejected', 'team-a applied v1']);
    assert.match(
      report.domains[0]?.diagnostics[0] ?? '',
      /orders\.sql:8:15: error SR1014: Schema orders was created by a statement too: DROP it with a statement, or take it out of /,
    );
  });

  it('statement objects take part when a manifest change is compiled', async () => {
    await manifests.reload({ initial: true });
    assert.equal((await node.run('CREATE RELAY copies SCHEMA orders UNBRANCHED;')).ok, true);
    writeFileSync(
      join(dir, 'orders.sql'),
      QUICKSTART.replace('CREATE SCHEMA orders (order_id STRING, amount I64);', ''),
    );
    const report = await manifests.reload();
    assert.deepEqual(summary(report), ['default rejected', 'team-a unchanged']);
    assert.match(
      report.domains[0]?.diagnostics.join('\n') ?? '',
      /error SR2001: Relay copies spec\.schema: /,
    );
  });

  it('the manifests of the last accepted load survive a restart, also when they are broken now', async () => {
    await manifests.reload({ initial: true });
    node.close();
    const root = node.root;
    node = openTestNode(root);
    manifests = manifestsOf(node, dir);
    writeFileSync(join(dir, 'orders.sql'), 'CREATE RELAY broken');
    const report = await manifests.reload({ initial: true });
    assert.deepEqual(summary(report), ['default rejected', 'team-a unchanged']);
    assert.equal(node.store.objects('default').length, 7);
    const reply = await node.run('CREATE RELAY copies SCHEMA orders UNBRANCHED;');
    assert.equal(reply.results[0]?.graphVersion, 2, 'compiled with the manifest objects');
  });

  it('refuses to start when --manifests does not exist; later, a vanished path removes the objects', async () => {
    const missing = manifestsOf(node, join(dir, 'nope'));
    await assert.rejects(missing.reload({ initial: true }), ManifestError);
    await manifests.reload({ initial: true });
    removeDir(dir);
    const report = await manifests.reload();
    assert.deepEqual(summary(report), ['default applied v2', 'team-a applied v2']);
    assert.deepEqual(node.store.objects('default'), []);
  });

  it('a single file given as --manifests', async () => {
    const single = manifestsOf(node, join(dir, 'team-a.yaml'));
    assert.deepEqual(summary(await single.reload({ initial: true })), ['team-a applied v1']);
  });

  describe('watching the file system', () => {
    function nextReload(): { manifests: Manifests; reloaded: Promise<ManifestReport> } {
      let resolve: (report: ManifestReport) => void = () => undefined;
      const reloaded = new Promise<ManifestReport>((done) => (resolve = done));
      return { manifests: manifestsOf(node, dir, (report) => resolve(report)), reloaded };
    }

    it('reloads a directory after a change settles', async () => {
      await manifests.reload({ initial: true });
      const watched = nextReload();
      manifests = watched.manifests;
      manifests.watch();
      mkdirSync(join(dir, 'nested'));
      writeFileSync(join(dir, 'nested', 'more.sql'), 'CREATE RELAY more SCHEMA orders UNBRANCHED;');
      const report = await watched.reloaded;
      assert.deepEqual(summary(report), ['default applied v2', 'team-a unchanged']);
    });

    it('sees an editor replace a watched file by renaming a new one over it', async () => {
      const file = join(dir, 'team-a.yaml');
      let reloaded: (report: ManifestReport) => void = () => undefined;
      manifests = manifestsOf(node, file, (report) => reloaded(report));
      assert.deepEqual(summary(await manifests.reload({ initial: true })), ['team-a applied v1']);
      const changed = new Promise<ManifestReport>((done) => (reloaded = done));
      manifests.watch();
      writeFileSync(join(dir, '.team-a.yaml.swp'), TEAM_A_YAML.replace('type: I64', 'type: STRING'));
      renameSync(join(dir, '.team-a.yaml.swp'), file);
      assert.deepEqual(summary(await changed), ['team-a applied v2']);
    });
  });
});
