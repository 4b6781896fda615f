// Hot reload and quiesce over real sockets: `setRoutes` swaps the tables under open keep-alive
// connections, and a quiesced ingestor keeps answering 202 while its bounded buffer fills.
import assert from 'node:assert/strict';
import {
  ingestorDrops,
  recordingTarget,
  route,
  startIngestion,
  type RunningIngestion,
} from '../../../test/fixtures/http-ingestion.js';
import { RawConnection, waitFor } from '../../../test/support/raw-http.js';
import { readCounter } from '../../core/telemetry.js';
import { createIngestTarget } from './ingest-target.js';

/** `streamroute_drops_total` of ingestor `name` (domain `d`) by reason, reasons with none left out. */
async function dropsOf(node: RunningIngestion, name: string): Promise<Record<string, number>> {
  const reasons = [
    'quiesce_drop',
    'overflow_drop_oldest',
    'overflow_drop_newest',
    'larger_than_buffer',
    'deliver_failed',
    'stopped',
  ];
  const found: Record<string, number> = {};
  for (const reason of reasons) {
    const labels = { domain: 'd', kind: 'http-ingestor', name, reason };
    const count = await readCounter(node.registry, 'streamroute_drops_total', labels);
    if (count > 0) found[reason] = count;
  }
  return found;
}

describe('HTTP ingestion: hot reload', () => {
  let node: RunningIngestion | undefined;
  afterEach(() => node?.stop());

  it('an open keep-alive connection keeps working across setRoutes, routed by the new table', async () => {
    const first = recordingTarget('d/first');
    const second = recordingTarget('d/second');
    node = await startIngestion([route(first, ['localhost'], '/in')]);
    const connection = await RawConnection.connect(node.port);
    const post = (path: string) => connection.request({ host: 'localhost', path, body: '{}' });

    assert.equal((await post('/in')).status, 202);
    node.ingestion.setRoutes([route(second, ['localhost'], '/in'), route(first, ['localhost'], '/other')]);
    assert.equal((await post('/in')).status, 202);
    assert.equal((await post('/other')).status, 202);
    node.ingestion.setRoutes([]);
    assert.equal((await post('/in')).status, 404);
    node.ingestion.setRoutes([route(first, ['localhost'], '/in')]);
    assert.equal((await post('/in')).status, 202);

    assert.equal(connection.closed, false);
    assert.equal(first.received.length, 3);
    assert.equal(second.received.length, 1);
    assert.deepEqual(
      new Set([...first.received, ...second.received].map((r) => r.metadata.remote_addr)),
      new Set([first.received[0]!.metadata.remote_addr]),
      'every request came over the one connection',
    );
    connection.destroy();
  });

  it('a body in flight during a swap goes to the target that routed its headers', async () => {
    const first = recordingTarget('d/first');
    const second = recordingTarget('d/second');
    node = await startIngestion([route(first, ['localhost'], '/in')]);
    const connection = await RawConnection.connect(node.port);
    connection.write('POST /in HTTP/1.1\r\nHost: localhost\r\nContent-Length: 7\r\n\r\n{"a"');
    await waitFor(() => node!.ingestion.http.status.state === 'Running');
    await new Promise((resolve) => setTimeout(resolve, 20));
    node.ingestion.setRoutes([route(second, ['localhost'], '/in')]);
    connection.write(':1}');
    assert.equal((await connection.response()).status, 202);
    assert.deepEqual(
      first.received.map((r) => r.body),
      ['{"a":1}'],
    );
    assert.equal(second.received.length, 0);
    assert.equal((await connection.request({ host: 'localhost', path: '/in', body: '{}' })).status, 202);
    assert.equal(second.received.length, 1, 'the next request on the connection uses the new table');
    connection.destroy();
  });

  it('a swap does not close the listening socket: new connections are served at once', async () => {
    const target = recordingTarget('d/t');
    node = await startIngestion([route(target, ['localhost'], '/in')]);
    for (let i = 0; i < 20; i++) node.ingestion.setRoutes([route(target, ['localhost'], '/in')]);
    const connection = await RawConnection.connect(node.port);
    assert.equal((await connection.request({ host: 'localhost', path: '/in', body: '{}' })).status, 202);
    assert.equal(node.ingestion.http.status.state, 'Running');
    connection.destroy();
  });
});

describe('HTTP ingestion: ON QUIESCE over the listener', () => {
  let node: RunningIngestion | undefined;
  afterEach(() => node?.stop());

  for (const onOverflow of ['DROP_OLDEST', 'DROP_NEWEST'] as const) {
    it(`BUFFER MAX SIZE 10 ON OVERFLOW ${onOverflow}: 202 while quiesced, overflow counted, order kept on resume`, async () => {
      const ingested: string[] = [];
      node = await startIngestion([]);
      const target = createIngestTarget({
        name: 'd/quiet',
        ingestor: { maxBodyBytes: 100, quiesce: { action: 'BUFFER', maxBytes: 10, onOverflow } },
        ingest: (payload) => void ingested.push(Buffer.from(payload).toString()),
        telemetry: node.telemetry,
        drops: ingestorDrops(node.registry, 'quiet'),
      });
      node.ingestion.setRoutes([route(target, ['localhost'], '/in')]);
      const connection = await RawConnection.connect(node.port);
      const post = (body: string) => connection.request({ host: 'localhost', path: '/in', body });

      assert.equal((await post('aaaa')).status, 202);
      target.quiesce();
      for (const body of ['bbbb', 'cccc', 'dddd', 'eeeeeeeeeee'])
        assert.equal((await post(body)).status, 202);
      assert.deepEqual(ingested, ['aaaa']);
      await target.resume();
      assert.equal((await post('ffff')).status, 202);

      const drops = await dropsOf(node, 'quiet');
      if (onOverflow === 'DROP_OLDEST') {
        assert.deepEqual(ingested, ['aaaa', 'cccc', 'dddd', 'ffff']);
        assert.deepEqual(drops, { overflow_drop_oldest: 1, larger_than_buffer: 1 });
      } else {
        assert.deepEqual(ingested, ['aaaa', 'bbbb', 'cccc', 'ffff']);
        assert.deepEqual(drops, { overflow_drop_newest: 1, larger_than_buffer: 1 });
      }
      connection.destroy();
    });
  }

  it('DROP: 202 while quiesced, every body counted as dropped, delivery resumes after', async () => {
    const ingested: string[] = [];
    node = await startIngestion([]);
    const target = createIngestTarget({
      name: 'd/drop',
      ingestor: { maxBodyBytes: 100, quiesce: { action: 'DROP' } },
      ingest: (payload) => void ingested.push(Buffer.from(payload).toString()),
      telemetry: node.telemetry,
      drops: ingestorDrops(node.registry, 'drop'),
    });
    node.ingestion.setRoutes([route(target, ['localhost'], '/in')]);
    const connection = await RawConnection.connect(node.port);
    target.quiesce();
    for (const body of ['a', 'b'])
      assert.equal((await connection.request({ host: 'localhost', path: '/in', body })).status, 202);
    await target.resume();
    assert.equal((await connection.request({ host: 'localhost', path: '/in', body: 'c' })).status, 202);
    assert.deepEqual(ingested, ['c']);
    assert.deepEqual(await dropsOf(node, 'drop'), { quiesce_drop: 2 });
    connection.destroy();
  });

  it('retarget before resume hands the buffer to the swapped component', async () => {
    const old: string[] = [];
    const swapped: string[] = [];
    node = await startIngestion([]);
    const target = createIngestTarget({
      name: 'd/swap',
      ingestor: {
        maxBodyBytes: 100,
        quiesce: { action: 'BUFFER', maxBytes: 100, onOverflow: 'DROP_NEWEST' },
      },
      ingest: (payload) => void old.push(Buffer.from(payload).toString()),
      telemetry: node.telemetry,
      drops: ingestorDrops(node.registry, 'swap'),
    });
    node.ingestion.setRoutes([route(target, ['localhost'], '/in')]);
    const connection = await RawConnection.connect(node.port);
    target.quiesce();
    assert.equal((await connection.request({ host: 'localhost', path: '/in', body: 'x' })).status, 202);
    target.retarget((payload) => void swapped.push(Buffer.from(payload).toString()));
    await target.resume();
    await waitFor(() => swapped.length === 1);
    assert.deepEqual(old, []);
    assert.deepEqual(swapped, ['x']);
    connection.destroy();
  });
});
