// A child process for test/e2e/connection-flood.e2e.test.ts: the embedded node on loopback ports the
// system picks, started under whatever descriptor limit the parent gave it (`ulimit -n`). It prints one
// JSON line with its ports and stops on SIGTERM. Arguments: the --manifests directory and the --data-dir.
import { pino } from 'pino';
import { startEmbeddedNode } from '../../operator/node/embedded-node.js';

const [manifests, dataDir] = process.argv.slice(2);
const loopback = { host: '127.0.0.1', port: 0 };
const node = await startEmbeddedNode({
  ...(manifests === undefined ? {} : { manifests }),
  ...(dataDir === undefined ? {} : { dataDir }),
  httpAddress: loopback,
  httpsAddress: loopback,
  adminAddress: loopback,
  logger: pino({ level: 'warn' }, pino.destination(2)),
});
process.stdout.write(`${JSON.stringify(node.ports())}\n`);
process.once('SIGTERM', () => {
  void node.stop().then(() => process.exit(0));
});
