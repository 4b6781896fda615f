import { mkdtempSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedNode } from '../../operator/cli/embedded-node.js';
import { ManualClock } from '../../dataplane/runtime/clock.js';
import { memoryLogger } from '../fixtures/graph-from-statements.js';
import { sendOnce } from '../support/raw-http.js';
import { StreamClient, fetchAdmin } from '../fixtures/admin-client.js';
import { runCli } from '../../operator/cli/program.js';
import { CapturedOutput } from '../support/canned-node.js';

const manifests = mkdtempSync(join(tmpdir(), 'm-'));
copyFileSync('examples/payments/graph.sql', join(manifests, 'graph.sql'));
const dataDir = mkdtempSync(join(tmpdir(), 'd-'));
const clock = new ManualClock(1_000_000);
const { logger, logs } = memoryLogger();
const t0 = Date.now();
const node = await startEmbeddedNode({
  manifests, dataDir, httpAddress: { host: '127.0.0.1', port: 0 }, httpsAddress: { host: '127.0.0.1', port: 0 },
  adminAddress: { host: '127.0.0.1', port: 0 }, logger, clock, manifestDebounceMs: 20,
});
console.log('started in', Date.now() - t0, node.ports());
const { http, admin } = node.ports();
const sub = await StreamClient.open(admin, '/v1/domains/default/relays/paid-first/subscriptions/t');
const errs = await StreamClient.open(admin, '/v1/domains/default/relays/errors/subscriptions/t');
console.log(sub.response.statusCode, sub.response.headers);
console.log(await sendOnce(http, { path: '/web/orders', body: '{"order_id":"A1","amount":250}' }));
console.log(await sendOnce(http, { path: '/payments', body: '{"payment_id":"P1","order_id":"A1","amount":250}' }));
console.log(await sendOnce(http, { path: '/web/orders', body: '{"order_id":"A1",' }));
console.log(await sendOnce(http, { path: '/shop/orders', body: '{"order_id":"A1","amount":"x"}' }));
await new Promise((r) => setTimeout(r, 100));
console.log(sub.lines, errs.lines);
const out = new CapturedOutput();
console.log(await runCli(['--server', `http://127.0.0.1:${admin}`, '-c', 'SHOW RELAYS;'], out), out.stdout, out.stderr);
console.log((await fetchAdmin(admin, '/v1/domains')).body);
const m = await fetchAdmin(admin, '/metrics');
console.log(m.body.split('\n').filter((l) => l.startsWith('streamroute_') && !l.includes(' 0')).join('\n'));
console.log(logs.filter((l) => l.level >= 40));
await node.stop();
