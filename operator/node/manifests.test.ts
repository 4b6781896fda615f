import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  exampleText,
  openTestNode,
  removeDir,
  tempDir,
  uploadFiles,
  type TestNode,
} from '../../test/fixtures/embedded-node.js';
import { ManifestError, Manifests, type ManifestReport } from './manifests.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds (checked every 10 ms, at most 10 s). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('timed out');
    await sleep(10);
  }
}

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
    resources: node.resources,
    committer: node.committer,
    queue: node.queue,
    logger: node.logger,
    ...(onReload === undefined ? {} : { onReload }),
    watch: { debounceMs: 50, pollMs: 25 },
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
      logged: /more\.sql:2:6: error SR2001: HttpIngestor more_in spec\.routes\[0\]\.to: /,
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

  it('refuses to start when --manifests does not exist', async () => {
    const missing = manifestsOf(node, join(dir, 'nope'));
    await assert.rejects(missing.reload({ initial: true }), ManifestError);
  });

  it('bug: a --manifests path gone for a moment emptied the node — now it changes nothing', async () => {
    await manifests.reload({ initial: true });
    const before = { state: node.store.state('default'), activations: node.activations.length };
    renameSync(dir, `${dir}-away`);
    try {
      const report = await manifests.reload();
      assert.equal(report.ok, false);
      assert.deepEqual(report.domains, []);
      assert.match(report.error ?? '', /does not exist/);
      assert.equal(node.store.state('default'), before.state);
      assert.equal(node.store.objects('default').length, 7);
      assert.equal(node.activations.length, before.activations);
      assert.ok(node.logs.some((line) => line.msg === 'cannot read the manifests; nothing changed'));
    } finally {
      renameSync(`${dir}-away`, dir);
    }
  });

  it('bug: manifest VERSION LATEST followed every upload — now it is bound when the manifests are read', async () => {
    const pki = (text: string) => uploadFiles('pki', { 'server.crt': text, 'server.key': 'KEY' });
    const upload = "UPLOAD RESOURCE pki VERSION './pki';";
    assert.equal((await node.run(`CREATE RESOURCE pki; ${upload}`, { uploads: [pki('v1')] })).ok, true);
    rmSync(join(dir, 'team-a.yaml'));
    writeFileSync(
      join(dir, 'orders.sql'),
      `${QUICKSTART}
CREATE CLIENT tls_in TYPE SYSLOG MOUNT pki VERSION LATEST
  CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514', 'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key' };`,
    );
    const report = await manifests.reload({ initial: true });
    assert.equal(report.ok, true, JSON.stringify(report));
    const mounted = () => node.activations.at(-1)?.graph.clients['tls-in']?.mount;
    assert.deepEqual(mounted(), { resource: 'pki', version: 1 });
    const client = node.store
      .state('default')
      .manifestObjects.find(({ object }) => object.kind === 'SyslogClient');
    assert.deepEqual(
      (client?.object.spec as { mount?: unknown }).mount,
      { resource: 'pki', version: 1 },
      'stored bound',
    );

    const later = await node.run(`${upload} CREATE RELAY unrelated SCHEMA orders UNBRANCHED;`, {
      uploads: [pki('v2')],
    });
    assert.equal(later.ok, true, JSON.stringify(later));
    assert.deepEqual(
      mounted(),
      { resource: 'pki', version: 1 },
      'an unrelated statement keeps the certificate',
    );

    writeFileSync(join(dir, 'more.sql'), 'CREATE RELAY more SCHEMA orders UNBRANCHED;');
    await manifests.reload();
    assert.deepEqual(mounted(), { resource: 'pki', version: 2 }, 'the next reload binds the newest');
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

    it('bug: moving --manifests away and back stopped the watch for good — now it watches again', async () => {
      const reports: ManifestReport[] = [];
      manifests = manifestsOf(node, dir, (report) => reports.push(report));
      await manifests.reload({ initial: true });
      manifests.watch();
      const away = `${dir}-away`;
      renameSync(dir, away);
      await until(() =>
        node.logs.some((line) => line.msg.startsWith('the manifests can no longer be watched')),
      );
      await sleep(100);
      assert.equal(node.store.objects('default').length, 7, 'nothing removed while the path is gone');
      renameSync(away, dir);
      await until(() => node.logs.some((line) => line.msg.startsWith('watching the manifests again')));
      await until(() => reports.length >= 2);
      assert.deepEqual(summary(reports.at(-1)!), ['default unchanged', 'team-a unchanged']);
      writeFileSync(join(dir, 'more.sql'), 'CREATE RELAY more SCHEMA orders UNBRANCHED;');
      await until(() => summary(reports.at(-1)!).includes('default applied v2'));
      assert.equal(node.store.objects('default').length, 8);
    });

    it('watches a directory deleted and made again (a checkout, a deploy that swaps it)', async () => {
      const reports: ManifestReport[] = [];
      manifests = manifestsOf(node, dir, (report) => reports.push(report));
      await manifests.reload({ initial: true });
      manifests.watch();
      const fresh = tempDir('streamroute-manifests-next-');
      writeFileSync(join(fresh, 'orders.sql'), `${QUICKSTART}\nCREATE RELAY extra SCHEMA orders UNBRANCHED;`);
      writeFileSync(join(fresh, 'team-a.yaml'), TEAM_A_YAML);
      removeDir(dir);
      renameSync(fresh, dir);
      await until(() => reports.some((report) => summary(report).includes('default applied v2')));
      writeFileSync(join(dir, 'more.sql'), 'CREATE RELAY more SCHEMA orders UNBRANCHED;');
      await until(() => reports.some((report) => summary(report).includes('default applied v3')));
    });

    it('bug: a file saved by rename in a watched directory reloaded only the first time — now every save does', async () => {
      const reports: ManifestReport[] = [];
      manifests = manifestsOf(node, dir, (report) => reports.push(report));
      await manifests.reload({ initial: true });
      manifests.watch();
      const staged = tempDir('streamroute-manifests-staged-');
      try {
        for (const [save, relay] of ['a', 'b', 'c'].entries()) {
          const file = join(staged, `orders.sql.${relay}`);
          writeFileSync(file, `${QUICKSTART}\nCREATE RELAY ${relay} SCHEMA orders UNBRANCHED;`);
          renameSync(file, join(dir, 'orders.sql'));
          await until(() =>
            reports.some((report) => summary(report).includes(`default applied v${save + 2}`)),
          );
        }
        assert.ok(node.store.objects('default').some((object) => object.metadata.name === 'c'));
      } finally {
        removeDir(staged);
      }
    });

    it('sees saves by rename in a directory made while watching, and in one that replaced another', async () => {
      const reports: ManifestReport[] = [];
      manifests = manifestsOf(node, dir, (report) => reports.push(report));
      await manifests.reload({ initial: true });
      manifests.watch();
      const applied = (version: number) => () =>
        reports.some((report) => summary(report).includes(`default applied v${version}`));
      const save = (path: string, text: string): void => {
        writeFileSync(`${path}.swp`, text);
        renameSync(`${path}.swp`, path);
      };
      const nested = join(dir, 'nested');
      mkdirSync(nested);
      save(join(nested, 'more.sql'), 'CREATE RELAY more SCHEMA orders UNBRANCHED;');
      await until(applied(2));
      save(join(nested, 'more.sql'), 'CREATE RELAY other SCHEMA orders UNBRANCHED;');
      await until(applied(3));
      const fresh = join(dir, 'fresh');
      mkdirSync(fresh);
      writeFileSync(join(fresh, 'more.sql'), 'CREATE RELAY third SCHEMA orders UNBRANCHED;');
      rmSync(nested, { recursive: true });
      renameSync(fresh, nested);
      await until(applied(4));
      save(join(nested, 'more.sql'), 'CREATE RELAY fourth SCHEMA orders UNBRANCHED;');
      await until(applied(5));
      assert.ok(node.store.objects('default').some((object) => object.metadata.name === 'fourth'));
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
