import assert from 'node:assert/strict';
import type { Graph } from '../../dataplane/graph/types.js';
import { testDataPlane } from '../../test/fixtures/data-plane.js';
import { openTestNode, removeDir, type TestNode } from '../../test/fixtures/embedded-node.js';
import { graphFromStatements } from '../../test/fixtures/graph-from-statements.js';

// SHOW CREATE and DESCRIBE say which engine runs a codec's JAQ programs (decision 0028).
const GRAPH = `
CREATE SCHEMA orders (order_id STRING, amount I64);
CREATE CODEC orders_yaml FROM YAML TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS ON INGESTION '{order_id: .id, amount}'
  ON EMITTING $jaq$ reduce .amount as $a ({}; .id = $a) $jaq$;
CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE VHOST local localhost;
CREATE ENDPOINT orders_ep ON local PATH '/orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR orders_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_yaml
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;

describe('which engine runs a JAQ program', () => {
  let node: TestNode;
  before(async () => {
    node = openTestNode();
    assert.equal((await node.run(GRAPH)).ok, true);
  });
  after(() => {
    node.close();
    removeDir(node.root);
  });

  it('SHOW CREATE CODEC ends with a comment per program: compiled, or the construct that is not', async () => {
    const reply = await node.run('SHOW CREATE CODEC orders_yaml;');
    const lines = (reply.results[0]?.output ?? '').split('\n');
    assert.deepEqual(lines.slice(-2), [
      '-- ON INGESTION: compiled to JavaScript',
      '-- ON EMITTING: jq-wasm: assignment `=` (line 1, column 32) is outside the compiled subset',
    ]);
    // the comments leave a statement that runs as it is
    assert.equal(
      (await node.run(`${lines.join('\n').replace('CREATE CODEC', 'CREATE OR REPLACE CODEC')}`)).ok,
      true,
    );
  });

  it('DESCRIBE INGESTOR names the engine of its codec’s ON INGESTION program', async () => {
    const { dataPlane } = testDataPlane();
    const graph = JSON.parse(JSON.stringify(graphFromStatements(GRAPH, 'default'))) as Graph;
    assert.ok((await dataPlane.apply(graph, 1)).ok);
    const described = await dataPlane.describe('default', 'ingestor', 'orders-in');
    assert.equal(described?.details.codecProgram, 'compiled to JavaScript');
    await dataPlane.stop();
  });
});
