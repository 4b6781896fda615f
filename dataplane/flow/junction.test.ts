import assert from 'node:assert/strict';
import { graphFromStatements, harness, utf8 } from '../../test/fixtures/graph-from-statements.js';
import { readCounter } from '../core/telemetry.js';

const GRAPH = `
CREATE SCHEMA line (message STRING, severity U8, peer STRING OPTIONAL);
CREATE SCHEMA line_out (message STRING, severity U8, louder U8);
CREATE SCHEMA errors (code STRING, message STRING, payload STRING OPTIONAL, original STRING OPTIONAL);
CREATE WIRE JSON SCHEMA line_wire MODE STRICT (message string, severity integer);
CREATE CODEC line_json FROM WIRE JSON SCHEMA line_wire TO SCHEMA line;
CREATE RELAY plain SCHEMA line UNBRANCHED;
CREATE RELAY secure SCHEMA line UNBRANCHED;
CREATE RELAY merged SCHEMA line_out UNBRANCHED;
CREATE RELAY errors SCHEMA errors UNBRANCHED;
CREATE VHOST logs logs.example.com;
CREATE ENDPOINT plain_ep ON logs PATH '/plain' TYPE HTTP;
CREATE ENDPOINT secure_ep ON logs PATH '/secure' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR plain_in FROM plain_ep MODE NO ACK ON QUIESCE DROP DECODE USING line_json
  TO plain INHERIT ALL, SET peer = metadata.remote_addr FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR secure_in FROM secure_ep MODE NO ACK ON QUIESCE DROP DECODE USING line_json
  TO secure INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
CREATE JUNCTION merge FROM plain, secure
  TO merged INHERIT ALL, SET louder = input.severity + 100
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET code = error.code, message = error.message, payload = error.payload, original = input.message
  ON GENERAL ERROR LOG;
`;

describe('junctions', () => {
  it('merge the records of their relays in arrival order and run their routes', async () => {
    const h = harness(graphFromStatements(GRAPH));
    const plain = h.topology.ingestors.get('plain-in')!;
    const secure = h.topology.ingestors.get('secure-in')!;
    const metadata = { remote_addr: '10.0.0.1:999' };
    await plain.ingest(utf8({ message: 'a', severity: 1 }), metadata);
    await secure.ingest(utf8({ message: 'b', severity: 2 }), metadata);
    await plain.ingest(utf8({ message: 'c', severity: 3 }), metadata);
    assert.deepEqual(h.seen.get('merged'), [
      { message: 'a', severity: 1, louder: 101 },
      { message: 'b', severity: 2, louder: 102 },
      { message: 'c', severity: 3, louder: 103 },
    ]);
    assert.equal(h.seen.get('plain')?.[0]?.peer, '10.0.0.1:999');
    const read = (metric: string): Promise<number> =>
      readCounter(h.registry, metric, { kind: 'junction', name: 'merge' });
    assert.deepEqual(
      [await read('streamroute_records_in_total'), await read('streamroute_records_out_total')],
      [3, 3],
    );
  });

  it('hand a record their route cannot build to the route’s handler (no raw payload)', async () => {
    const h = harness(graphFromStatements(GRAPH));
    await h.topology.ingestors.get('secure-in')!.ingest(utf8({ message: 'loud', severity: 200 }), {});
    assert.deepEqual(h.seen.get('merged'), []);
    assert.deepEqual(h.seen.get('errors'), [
      {
        code: 'SR3102',
        message: 'arithmetic overflow: the result does not fit U8',
        payload: null,
        original: 'loud',
      },
    ]);
    const errors = await readCounter(h.registry, 'streamroute_message_errors_total', {
      kind: 'junction',
      name: 'merge',
      reason: 'SR3102',
    });
    assert.equal(errors, 1);
  });

  it('stop taking records when the topology stops', async () => {
    const h = harness(graphFromStatements(GRAPH));
    h.topology.stop();
    await h.topology.ingestors.get('plain-in')!.ingest(utf8({ message: 'a', severity: 1 }), {});
    assert.equal(h.seen.get('plain')?.length, 1);
    assert.deepEqual(h.seen.get('merged'), []);
  });
});
