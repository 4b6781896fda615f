import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  exampleText,
  loadFullExample,
  openTestNode,
  removeDir,
  uploadFiles,
  type TestNode,
} from '../../test/fixtures/embedded-node.js';
import type { StatementReply } from './protocol.js';
import { InvalidRequestError } from './statement-executor.js';

const QUICKSTART = exampleText('quickstart/graph.sql');

/** `STATUS TAG` per result, the shape most tests check. */
function statuses(reply: StatementReply): string[] {
  return reply.results.map((result) => `${result.status} ${result.statement}`);
}

function names(node: TestNode, domain = 'default'): string[] {
  return node.store.objects(domain).map((object) => `${object.kind}/${object.metadata.name}`);
}

function stateFile(node: TestNode, domain = 'default'): string {
  return readFileSync(join(node.root, 'domains', domain, 'state.json'), 'utf8');
}

describe('statement executor', () => {
  let node: TestNode;
  beforeEach(() => {
    node = openTestNode();
  });
  afterEach(() => {
    node.close();
    removeDir(node.root);
  });

  describe('autocommit', () => {
    it('applies each statement on its own; only a changed graph gets a new version', async () => {
      const reply = await node.run(QUICKSTART, { source: 'graph.sql' });
      assert.equal(reply.ok, true);
      assert.deepEqual(
        reply.results.map((r) => [r.statement, r.line, r.column, r.status, r.graphVersion]),
        [
          ['CREATE SCHEMA orders', 8, 1, 'ok', 1],
          // A wire schema nothing uses yet is not part of the graph: stored, no new version.
          ['CREATE WIRE JSON SCHEMA orders_wire', 11, 1, 'ok', undefined],
          ['CREATE CODEC orders_json', 14, 1, 'ok', 2],
          ['CREATE RELAY orders', 17, 1, 'ok', 3],
          ['CREATE VHOST local', 20, 1, 'ok', undefined],
          ['CREATE ENDPOINT orders_ep', 21, 1, 'ok', undefined],
          ['CREATE HTTP ENDPOINT INGESTOR orders_in', 24, 1, 'ok', 4],
        ],
      );
      assert.deepEqual(
        node.activations.map((a) => a.version),
        [1, 2, 3, 4],
      );
      assert.equal(node.store.state('default').graphVersion, 4);
      assert.equal(names(node).length, 7);

      const again = await node.run('CREATE OR REPLACE RELAY orders SCHEMA orders UNBRANCHED;');
      assert.deepEqual(statuses(again), ['ok CREATE OR REPLACE RELAY orders']);
      assert.equal(again.results[0]?.graphVersion, undefined, 'the same graph keeps its version');
      assert.equal(node.activations.length, 4);
    });

    it('stops at the first failing statement; the ones before stay applied, the rest do not run', async () => {
      const reply = await node.run(
        [
          'CREATE SCHEMA a (x STRING);',
          'CREATE RELAY r SCHEMA missing UNBRANCHED;',
          'CREATE SCHEMA b (x STRING);',
          'SHOW SCHEMAS;',
        ].join('\n'),
      );
      assert.equal(reply.ok, false);
      assert.deepEqual(statuses(reply), [
        'ok CREATE SCHEMA a',
        'error CREATE RELAY r',
        'not_run CREATE SCHEMA b',
        'not_run SHOW SCHEMAS',
      ]);
      assert.deepEqual(reply.results[1]?.diagnostics, [
        '-c:2:23: error SR2001: Relay r spec.schema: Relay r refers to Schema missing, which does not exist in domain default; create it or fix the name',
      ]);
      assert.deepEqual(names(node), ['Schema/a']);
    });

    it('runs nothing when the script has a syntax error', async () => {
      const reply = await node.run('CREATE SCHEMA a (x STRING);\nCREATE RELAY r SCHEMA a UNBRANCHD;', {
        source: 'broken.sql',
      });
      assert.equal(reply.ok, false);
      assert.deepEqual(reply.results, []);
      assert.equal(reply.diagnostics.length, 1);
      assert.match(reply.diagnostics[0] ?? '', /^broken\.sql:2:25: error SR1001: /);
      assert.deepEqual(names(node), []);
      assert.deepEqual(node.activations, []);
    });

    it('reports a bad value in a statement before anything runs (SR1003)', async () => {
      const reply = await node.run(
        "CREATE SCHEMA a (x STRING);\nCREATE CLIENT c TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:514', 'max_message_size' = 'big' };",
      );
      assert.equal(reply.ok, false);
      assert.deepEqual(reply.results, []);
      assert.match(reply.diagnostics.join('\n'), /^-c:2:\d+: error SR1006: /);
      assert.deepEqual(names(node), []);
    });
  });

  describe('CREATE, ALTER and DROP', () => {
    beforeEach(async () => {
      assert.equal((await node.run(QUICKSTART)).ok, true);
    });

    const cases: { title: string; script: string; status: string; output?: RegExp; diagnostic?: RegExp }[] = [
      {
        title: 'CREATE of an existing object',
        script: 'CREATE RELAY orders SCHEMA orders UNBRANCHED;',
        status: 'error',
        diagnostic:
          /^-c:1:14: error SR1014: Relay orders already exists in domain default \(ALTER or CREATE OR REPLACE changes it\)$/,
      },
      {
        title: 'CREATE IF NOT EXISTS of an existing object',
        script: 'CREATE IF NOT EXISTS RELAY orders SCHEMA orders UNBRANCHED;',
        status: 'ok',
        output: /^Relay orders already exists; nothing changed$/,
      },
      {
        title: 'ALTER of a missing object',
        script: 'ALTER RELAY nope SCHEMA orders UNBRANCHED;',
        status: 'error',
        diagnostic: /^-c:1:13: error SR2001: ALTER: there is no Relay nope in domain default/,
      },
      {
        title: 'DROP of a missing object',
        script: 'DROP RELAY nope;',
        status: 'error',
        diagnostic: /^-c:1:1: error SR2001: DROP: there is no Relay nope in domain default/,
      },
      {
        title: 'DROP IF EXISTS of a missing object',
        script: 'DROP INGESTOR IF EXISTS nope;',
        status: 'ok',
        output: /^there is no HttpIngestor, SyslogIngestor or TopicIngestor nope; nothing dropped$/,
      },
      {
        title: 'DROP of an object another one uses',
        script: 'DROP RELAY orders;',
        status: 'error',
        diagnostic: /^error SR2001: HttpIngestor orders_in spec\.routes\[0\]\.to: .*Relay orders/,
      },
    ];
    for (const { title, script, status, output, diagnostic } of cases) {
      it(title, async () => {
        const before = stateFile(node);
        const reply = await node.run(script);
        const [result] = reply.results;
        assert.equal(result?.status, status, JSON.stringify(result));
        if (output) assert.match(result.output ?? '', output);
        if (diagnostic) assert.match(result.diagnostics?.[0] ?? '', diagnostic);
        assert.equal(stateFile(node), before, 'nothing was written');
        assert.equal(node.store.state('default').graphVersion, 4);
      });
    }

    it('ALTER replaces the declaration and activates the changed graph', async () => {
      const reply = await node.run(
        `ALTER HTTP ENDPOINT INGESTOR orders_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json
           TO orders INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
      );
      assert.deepEqual(statuses(reply), ['ok ALTER HTTP ENDPOINT INGESTOR orders_in']);
      assert.equal(reply.results[0]?.graphVersion, 5);
      const ingestor = node.store.objects('default').find((o) => o.kind === 'HttpIngestor');
      assert.deepEqual(ingestor?.kind === 'HttpIngestor' && ingestor.spec.quiesce, { action: 'DROP' });
    });

    it('DROP removes objects in an order the graph allows', async () => {
      const reply = await node.run('DROP INGESTOR orders_in; DROP ENDPOINT orders_ep; DROP VHOST local;');
      assert.equal(reply.ok, true);
      assert.deepEqual(
        reply.results.map((r) => r.graphVersion),
        [5, undefined, undefined],
      );
      assert.deepEqual(names(node), [
        'Schema/orders',
        'WireSchema/orders-wire',
        'Codec/orders-json',
        'Relay/orders',
      ]);
    });
  });

  describe('transactions', () => {
    beforeEach(async () => {
      assert.equal((await node.run(QUICKSTART)).ok, true);
    });

    it('activates a committed batch as one graph version', async () => {
      const reply = await node.run(
        `BEGIN;
         CREATE SCHEMA audit (order_id STRING);
         CREATE RELAY audit SCHEMA audit UNBRANCHED;
         SHOW RELAYS;
         ALTER HTTP ENDPOINT INGESTOR orders_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json
           TO orders INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG
           TO audit SET order_id = input.order_id FLUSH IMMEDIATE ON MESSAGE ERROR LOG
           ON GENERAL ERROR LOG;
         COMMIT;`,
      );
      assert.equal(reply.ok, true, JSON.stringify(reply));
      assert.deepEqual(
        reply.results.map((r) => [r.statement, r.status, r.graphVersion]),
        [
          ['BEGIN', 'ok', undefined],
          ['CREATE SCHEMA audit', 'ok', undefined],
          ['CREATE RELAY audit', 'ok', undefined],
          ['SHOW RELAYS', 'ok', undefined],
          ['ALTER HTTP ENDPOINT INGESTOR orders_in', 'ok', undefined],
          ['COMMIT', 'ok', 5],
        ],
      );
      // SHOW inside the batch sees its uncommitted changes.
      assert.match(reply.results[3]?.output ?? '', /^audit {2}/m);
      assert.deepEqual(
        node.activations.map((a) => a.version),
        [1, 2, 3, 4, 5],
      );
    });

    const invalid: { title: string; statements: string; failing: RegExp }[] = [
      {
        title: 'a route naming an unknown relay',
        statements: `CREATE SCHEMA audit (order_id STRING);
          CREATE HTTP ENDPOINT INGESTOR audit_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json
            TO nowhere INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
        failing: /^-c:4:16: error SR2001: HttpIngestor audit_in spec\.routes\[0\]\.to: .*Relay nowhere/,
      },
      {
        title: 'a DROP of a relay an ingestor uses',
        statements: 'CREATE SCHEMA audit (order_id STRING);\n DROP RELAY orders;',
        failing: /^error SR2001: HttpIngestor orders_in spec\.routes\[0\]\.to: .*Relay orders/,
      },
    ];
    for (const { title, statements, failing } of invalid) {
      it(`changes nothing when the batch fails validation: ${title}`, async () => {
        const before = { file: stateFile(node), objects: names(node), activations: node.activations.length };
        const reply = await node.run(`BEGIN;\n${statements}\nCOMMIT;\nSHOW SCHEMAS;`);
        assert.equal(reply.ok, false);
        const commit = reply.results.find((r) => r.statement === 'COMMIT');
        assert.equal(commit?.status, 'error');
        assert.match(commit.diagnostics?.join('\n') ?? '', failing);
        assert.equal(reply.results.at(-1)?.status, 'not_run');
        assert.equal(stateFile(node), before.file, 'the state file is unchanged');
        assert.deepEqual(names(node), before.objects);
        assert.equal(node.activations.length, before.activations);
        assert.equal(node.store.state('default').graphVersion, 4);
      });
    }

    it('ROLLBACK discards the batch', async () => {
      const reply = await node.run(
        'BEGIN; CREATE RELAY scratch SCHEMA orders UNBRANCHED; ROLLBACK; SHOW RELAYS;',
      );
      assert.equal(reply.ok, true);
      assert.deepEqual(statuses(reply), [
        'ok BEGIN',
        'ok CREATE RELAY scratch',
        'ok ROLLBACK',
        'ok SHOW RELAYS',
      ]);
      assert.doesNotMatch(reply.results[3]?.output ?? '', /scratch/);
      assert.equal(names(node).includes('Relay/scratch'), false);
    });

    it('a failing statement aborts the batch; nothing after it runs', async () => {
      const reply = await node.run(
        'BEGIN;\nCREATE RELAY scratch SCHEMA orders UNBRANCHED;\nALTER RELAY nope SCHEMA orders UNBRANCHED;\nCREATE RELAY more SCHEMA orders UNBRANCHED;\nCOMMIT;\nSHOW RELAYS;',
      );
      assert.deepEqual(statuses(reply), [
        'ok BEGIN',
        'ok CREATE RELAY scratch',
        'error ALTER RELAY nope',
        'not_run CREATE RELAY more',
        'not_run COMMIT',
        'not_run SHOW RELAYS',
      ]);
      assert.equal(names(node).includes('Relay/scratch'), false);
    });

    it('rolls back a BEGIN left open at the end, and reports it on the BEGIN', async () => {
      const reply = await node.run('SHOW RELAYS;\nBEGIN;\nCREATE RELAY scratch SCHEMA orders UNBRANCHED;');
      assert.equal(reply.ok, false);
      assert.deepEqual(statuses(reply), ['ok SHOW RELAYS', 'error BEGIN', 'ok CREATE RELAY scratch']);
      assert.deepEqual(reply.results[1]?.diagnostics, [
        '-c:2:1: error SR1008: this BEGIN is never closed: its batch was rolled back at the end of the script (end it with COMMIT)',
      ]);
      assert.equal(names(node).includes('Relay/scratch'), false);
    });

    const misplaced: { script: string; diagnostic: string }[] = [
      {
        script: 'SHOW RELAYS;\nCOMMIT;',
        diagnostic: '-c:2:1: error SR1008: COMMIT without a BEGIN: no batch is open',
      },
      {
        script: 'BEGIN;\nBEGIN;\nCOMMIT;',
        diagnostic:
          '-c:2:1: error SR1008: BEGIN inside a batch: the BEGIN at 1:1 is still open, and batches do not nest',
      },
      {
        script: "BEGIN;\nUPLOAD RESOURCE pki VERSION './pki';\nCOMMIT;",
        diagnostic:
          '-c:2:1: error SR1007: UPLOAD RESOURCE cannot be used inside BEGIN … COMMIT: upload before the batch, then refer to the version',
      },
    ];
    for (const { script, diagnostic } of misplaced) {
      it(`runs nothing for ${diagnostic.split(': ').slice(1, 3).join(': ')}`, async () => {
        const reply = await node.run(script);
        assert.deepEqual(reply, { ok: false, diagnostics: [diagnostic], results: [] });
      });
    }
  });

  describe('manifest objects', () => {
    beforeEach(async () => {
      // What manifests.ts stores after loading manifests/orders.sql: the quickstart, owned by the file.
      const parsed = await node.run(QUICKSTART);
      assert.equal(parsed.ok, true);
      const objects = node.store.objects('default');
      const outcome = await node.committer.commit({
        domain: 'default',
        statementObjects: [],
        manifestObjects: objects.map((object) => ({ file: 'manifests/orders.sql', object })),
        locations: node.store.manifestLocations('default'),
        inText: () => true,
      });
      assert.equal(outcome.ok, true);
    });

    const cases: { script: string; what: string }[] = [
      { script: 'CREATE RELAY orders SCHEMA orders UNBRANCHED;', what: 'Relay orders' },
      { script: 'CREATE OR REPLACE RELAY orders SCHEMA orders UNBRANCHED;', what: 'Relay orders' },
      { script: 'ALTER RELAY orders SCHEMA orders UNBRANCHED;', what: 'Relay orders' },
      { script: 'DROP RELAY orders;', what: 'Relay orders' },
      { script: 'DROP RELAY IF EXISTS orders;', what: 'Relay orders' },
      { script: 'DROP INGESTOR orders_in;', what: 'HttpIngestor orders_in' },
    ];
    for (const { script, what } of cases) {
      it(`refuses ${script}`, async () => {
        const reply = await node.run(script);
        assert.equal(reply.results[0]?.status, 'error');
        assert.match(
          reply.results[0]?.diagnostics?.[0] ?? '',
          new RegExp(
            `^-c:1:\\d+: error SR1018: ${what} is declared in manifests/orders\\.sql; change it there$`,
          ),
        );
      });
    }

    it('lets CREATE IF NOT EXISTS leave a manifest object alone, and SHOW name its file', async () => {
      const reply = await node.run(
        'CREATE IF NOT EXISTS RELAY orders SCHEMA orders UNBRANCHED; SHOW RELAYS;',
      );
      assert.deepEqual(statuses(reply), ['ok CREATE IF NOT EXISTS RELAY orders', 'ok SHOW RELAYS']);
      assert.equal(
        reply.results[1]?.output,
        ['NAME    SCHEMA  DECLARED IN', 'orders  orders  manifests/orders.sql', '(1 row)'].join('\n'),
      );
    });

    it('compiles statement objects together with the manifest objects', async () => {
      const reply = await node.run('CREATE RELAY copies SCHEMA orders UNBRANCHED; SHOW RELAYS;');
      assert.equal(reply.ok, true);
      assert.match(reply.results[1]?.output ?? '', /^copies {2}orders {2}statement$/m);
    });
  });

  describe('SHOW, SHOW CREATE and DESCRIBE', () => {
    beforeEach(async () => {
      assert.equal((await node.run(QUICKSTART)).ok, true);
    });

    it('prints tables, canonical statements and runtime state', async () => {
      const reply = await node.run(
        'SHOW INGESTORS; SHOW CODECS; SHOW CREATE RELAY orders; DESCRIBE INGESTOR orders_in; SHOW EMITTERS;',
      );
      assert.equal(reply.ok, true);
      assert.deepEqual(
        reply.results.map((r) => r.output),
        [
          [
            'NAME       TYPE  FROM       CODEC        TO      DECLARED IN',
            'orders_in  HTTP  orders_ep  orders_json  orders  statement',
            '(1 row)',
          ].join('\n'),
          [
            'NAME         FROM                          SCHEMA  DECLARED IN',
            'orders_json  WIRE JSON SCHEMA orders_wire  orders  statement',
            '(1 row)',
          ].join('\n'),
          'CREATE RELAY orders SCHEMA orders UNBRANCHED;',
          [
            'http-ingestor orders-in (domain default, graph version 4)',
            'state: Running',
            'metrics:',
            '  records_in: 3',
            '  records_out: 3',
          ].join('\n'),
          ['NAME  FROM  TO  CODEC  DECLARED IN', '(0 rows)'].join('\n'),
        ],
      );
    });

    it('CLIENT names a client of either TYPE: SHOW CLIENTS, SHOW CREATE CLIENT and DROP CLIENT', async () => {
      const reply = await node.run(
        `CREATE CLIENT logs CONFIG { 'protocol' = 'udp', 'addr' = '127.0.0.1:5514' };
         CREATE CLIENT Kafka_Main TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b-1:9092, b-2:9092' };
         SHOW CLIENTS; SHOW CREATE CLIENT kafka_main; DROP CLIENT kafka_main; DROP CLIENT logs; SHOW CLIENTS;`,
      );
      assert.equal(reply.ok, true, JSON.stringify(reply, null, 2));
      assert.deepEqual(
        reply.results.map((r) => r.output ?? r.statement),
        [
          'CREATE CLIENT logs',
          'CREATE CLIENT Kafka_Main',
          [
            'NAME        TYPE    PROTOCOL   ADDR               DECLARED IN',
            'Kafka_Main  KAFKA   plaintext  b-1:9092,b-2:9092  statement',
            'logs        SYSLOG  udp        127.0.0.1:5514     statement',
            '(2 rows)',
          ].join('\n'),
          "CREATE CLIENT Kafka_Main\n  TYPE KAFKA\n  CONFIG { 'bootstrap_servers' = 'b-1:9092,b-2:9092' };",
          'DROP CLIENT kafka_main',
          'DROP CLIENT logs',
          ['NAME  TYPE  PROTOCOL  ADDR  DECLARED IN', '(0 rows)'].join('\n'),
        ],
      );
    });

    it('refuses a Kafka client with the name of a syslog client (SR2079)', async () => {
      const reply = await node.run(
        `CREATE CLIENT logs CONFIG { 'protocol' = 'udp', 'addr' = '127.0.0.1:5514' };
         CREATE CLIENT logs TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b-1:9092' };`,
      );
      assert.equal(reply.ok, false);
      const failed = reply.results.find((r) => r.status === 'error');
      assert.match(
        failed?.diagnostics?.join('\n') ?? '',
        /error SR2079: KafkaClient logs metadata.name: KafkaClient logs has the name of SyslogClient logs/,
      );
    });

    const missing: { script: string; diagnostic: string }[] = [
      {
        script: 'SHOW CREATE CODEC nope;',
        diagnostic: '-c:1:1: error SR2001: there is no Codec nope in domain default',
      },
      {
        script: 'DESCRIBE EMITTER nope;',
        diagnostic: '-c:1:1: error SR2001: there is no Emitter nope in domain default',
      },
      {
        script:
          'BEGIN;\nCREATE RELAY more SCHEMA orders UNBRANCHED;\nCREATE HTTP ENDPOINT INGESTOR more_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json TO more INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;\nDESCRIBE INGESTOR more_in;\nCOMMIT;',
        diagnostic:
          '-c:4:1: error: HttpIngestor more_in is not running on this node (it runs once its batch is committed)',
      },
    ];
    for (const { script, diagnostic } of missing) {
      it(`reports ${diagnostic.slice(diagnostic.indexOf('error'))}`, async () => {
        const reply = await node.run(script);
        const failed = reply.results.find((r) => r.status === 'error');
        assert.deepEqual(failed?.diagnostics, [diagnostic]);
      });
    }
  });

  describe('resources', () => {
    it('stores uploads as numbered versions and binds VERSION LATEST when applied', async () => {
      const reply = await node.run(
        `CREATE RESOURCE pki;
         UPLOAD RESOURCE pki VERSION './pki';
         UPLOAD RESOURCE pki VERSION './pki';
         CREATE CLIENT tls_in TYPE SYSLOG MOUNT pki VERSION LATEST
           CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514', 'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key' };
         UPLOAD RESOURCE pki VERSION './pki';
         SHOW CREATE CLIENT tls_in;
         SHOW RESOURCES;`,
        {
          uploads: [1, 2, 3].map(() =>
            uploadFiles('pki', { 'server.crt': 'CERT', 'server.key': 'KEY', 'nested/ca.crt': 'CA' }),
          ),
        },
      );
      assert.equal(reply.ok, true, JSON.stringify(reply, null, 2));
      assert.deepEqual(
        reply.results.map((r) => r.resourceVersion),
        [undefined, 1, 2, undefined, 3, undefined, undefined],
      );
      assert.equal(reply.results[1]?.output, 'uploaded ./pki as version 1 of resource pki (3 files)');
      assert.match(reply.results[5]?.output ?? '', /MOUNT pki VERSION 2\n/);
      assert.equal(
        reply.results[6]?.output,
        ['NAME  LATEST  DECLARED IN', 'pki   3       statement', '(1 row)'].join('\n'),
      );
      assert.equal(node.resources.files('default', 'pki', 2)?.get('nested/ca.crt'), 'CA');
      assert.deepEqual(
        node.resources.readMountedFile('default', { resource: 'pki', version: 3, file: 'server.key' }),
        Buffer.from('KEY'),
      );
    });

    it('refuses an upload for a resource the domain does not declare', async () => {
      const reply = await node.run("UPLOAD RESOURCE pki VERSION './pki';", {
        uploads: [uploadFiles('pki', { a: 'b' })],
      });
      assert.deepEqual(reply.results[0]?.diagnostics, [
        '-c:1:1: error SR2001: UPLOAD RESOURCE: there is no Resource pki in domain default; run CREATE RESOURCE pki first',
      ]);
      assert.equal(node.resources.latestVersion('default', 'pki'), undefined);
    });

    it('refuses a request whose uploads do not match its UPLOAD statements', async () => {
      await assert.rejects(node.run("UPLOAD RESOURCE pki VERSION './pki';"), InvalidRequestError);
      await assert.rejects(
        node.run("UPLOAD RESOURCE pki VERSION './pki';", { uploads: [uploadFiles('other', { a: 'b' })] }),
        /upload 1 is for resource other/,
      );
    });

    it('runs examples/full in one batch and then examples/full/client-side.sql', async () => {
      const full = await loadFullExample(node);
      assert.equal(full.ok, true, JSON.stringify(full, null, 2));
      // The resources alone made version 1 (an empty graph); the batch is version 2.
      assert.equal(full.results.at(-1)?.graphVersion, 2);
      const clientSide = exampleText('full/client-side.sql');
      const reply = await node.run(clientSide, {
        source: 'client-side.sql',
        uploads: [
          uploadFiles('order_protos', { 'x.proto': 'syntax = "proto3";' }),
          uploadFiles('pki', { a: 'b' }),
        ],
      });
      assert.equal(reply.ok, true, JSON.stringify(reply, null, 2));
      assert.deepEqual(
        reply.results.filter((r) => r.resourceVersion !== undefined).map((r) => r.resourceVersion),
        [2, 2],
      );
      assert.match(
        reply.results.find((r) => r.statement === 'SHOW CREATE CODEC orders_pb')?.output ?? '',
        /VERSION 1\n/,
      );
      const describe = reply.results.find((r) => r.statement === 'DESCRIBE EMITTER paid_orders_out');
      assert.match(describe?.output ?? '', /^emitter paid-orders-out \(domain default, graph version \d+\)/);
      const topic = reply.results.find((r) => r.statement === 'DESCRIBE INGESTOR payments_from_kafka');
      assert.match(
        topic?.output ?? '',
        /^topic-ingestor payments-from-kafka \(domain default, graph version \d+\)/,
      );
      assert.equal(names(node).includes('Relay/order-audit-archive'), false, 'dropped at the end');
    });
  });

  describe('the data plane', () => {
    it('a refused graph fails the statement and stores nothing', async () => {
      assert.equal((await node.run(QUICKSTART)).ok, true);
      const before = stateFile(node);
      node.refusal = ['relay orders: cannot build'];
      const reply = await node.run('CREATE RELAY more SCHEMA orders UNBRANCHED;');
      assert.deepEqual(reply.results[0]?.diagnostics, [
        '-c:1:1: error: the data plane refused graph version 5: relay orders: cannot build',
      ]);
      assert.equal(stateFile(node), before);
      assert.equal(node.store.state('default').graphVersion, 4);
      node.refusal = undefined;
      const retried = await node.run('CREATE RELAY more SCHEMA orders UNBRANCHED;');
      assert.equal(retried.results[0]?.graphVersion, 5, 'the refused version number is used again');
    });

    it('runs concurrent requests one after the other', async () => {
      const replies = await Promise.all(
        ['a', 'b', 'c', 'd'].map((name) => node.run(`CREATE SCHEMA ${name} (x STRING);`)),
      );
      assert.deepEqual(
        replies.map((r) => r.results[0]?.graphVersion),
        [1, 2, 3, 4],
      );
    });

    it('keeps domains apart', async () => {
      await node.run('CREATE SCHEMA a (x STRING);', { domain: 'team-a' });
      await node.run('CREATE SCHEMA b (x STRING);', { domain: 'team-b' });
      assert.deepEqual(names(node, 'team-a'), ['Schema/a']);
      assert.equal(node.store.objects('team-a')[0]?.metadata.namespace, 'team-a');
      assert.deepEqual(node.store.summaries(), [
        { name: 'team-a', graphVersion: 1, objects: 1 },
        { name: 'team-b', graphVersion: 1, objects: 1 },
      ]);
    });
  });

  it('a new node over the same data dir sees the same objects, versions and graph', async () => {
    assert.equal((await node.run(QUICKSTART)).ok, true);
    await node.run("CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION './pki';", {
      uploads: [uploadFiles('pki', { 'a.crt': 'A' })],
    });
    const before = { objects: node.store.objects('default'), state: node.store.state('default') };
    node.close();
    node = openTestNode(node.root);
    assert.deepEqual(node.store.objects('default'), before.objects);
    assert.equal(node.store.state('default').graphVersion, 4);
    assert.deepEqual(node.store.state('default').graph, JSON.parse(JSON.stringify(before.state.graph)));
    assert.equal(node.resources.latestVersion('default', 'pki'), 1);
    const reply = await node.run('CREATE RELAY more SCHEMA orders UNBRANCHED;');
    assert.equal(reply.results[0]?.graphVersion, 5);
  });
});
