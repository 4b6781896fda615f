// The shell's session on a cluster namespace of a REAL kube-apiserver (no terminal needed: the session is
// fed lines as readline would): statements over lines and a held batch become objects, `\d` and Tab's
// names come from SHOW on the cluster, `\c` moves to another namespace, and errors leave it running.
import assert from 'node:assert/strict';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { customPath } from '../../dataplane/kube/contract.js';
import { connect } from '../../operator/cluster/cluster-target.js';
import { NameCache } from '../../operator/shell/name-cache.js';
import { ShellHistory } from '../../operator/shell/shell-history.js';
import { ShellSession } from '../../operator/shell/shell-session.js';
import { clusterStatementTarget } from '../../operator/shell/statement-target.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, type KubeClients } from '../support/kube-client.js';

describe('the shell on a real kube-apiserver (cluster mode)', function () {
  this.timeout(120_000);
  let server: KubeTestServer;
  let clients: KubeClients;

  before(async function () {
    await requireKubeOrSkip(this);
    server = await sharedKubeApiServer();
    clients = kubeClients(server);
    await installCrds(clients);
  });

  it('runs statements and batches in the namespace, lists its names, switches namespaces', async () => {
    const first = `shell-${process.pid}-${Date.now().toString(36)}`;
    const second = `${first}-b`;
    await createNamespace(clients, first);
    await createNamespace(clients, second);
    const target = clusterStatementTarget(
      connect({ kubeconfig: server.kubeconfigPath }, first),
      process.cwd(),
    );
    let out = '';
    let err = '';
    const output = {
      out: (text: string) => void (out += `${text}\n`),
      err: (text: string) => void (err += `${text}\n`),
    };
    const names = new NameCache(target);
    const session = new ShellSession({
      target,
      output,
      history: new ShellHistory(undefined, assert.fail),
      names,
    });
    const take = async (...lines: string[]) => {
      out = '';
      err = '';
      for (const line of lines) await session.line(line);
      return { out, err };
    };

    assert.equal(session.prompt, `${first}=> `);
    const created = await take('CREATE SCHEMA orders', '  (order_id STRING);');
    assert.equal(created.out, 'created schema orders\n', created.err);
    await take('BEGIN;', 'CREATE RELAY a SCHEMA orders UNBRANCHED;');
    assert.equal(session.prompt, `${first}=*> `);
    const api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 50, burst: 50 },
      userAgent: 'test',
    });
    await assert.rejects(api.request({ path: customPath('relays', first, 'a') }), /404/, 'held, not applied');
    const committed = await take('CREATE RELAY b SCHEMA orders UNBRANCHED;', 'COMMIT;');
    assert.match(committed.out, /created relay a\ncreated relay b\n/, committed.err);
    await api.request({ path: customPath('relays', first, 'b') });

    const failed = await take('DROP RELAY nope;');
    assert.match(failed.err, /<shell>:1:1: error SR2001: /);
    const listed = await take('\\d');
    assert.match(listed.out, /^KIND +NAME\nschema +orders\nrelay +a\nrelay +b\n\(3 rows\)\n$/, listed.err);
    assert.deepEqual(
      (await names.objects()).filter((each) => each.kind === 'Relay').map((each) => each.name),
      ['a', 'b'],
    );
    const shown = await take('\\d b');
    assert.match(shown.out, /CREATE RELAY b SCHEMA orders UNBRANCHED;/);

    const moved = await take(`\\c ${second}`);
    assert.equal(moved.out, `-- now working in domain ${second}\n`);
    assert.equal(session.prompt, `${second}=> `);
    assert.equal((await take('\\d')).out, `-- domain ${second} has no objects\n`);
  });
});
