// The servers of the HTTP benchmark (test/bench/http.bench.ts), each started in its own child process.
// `listen` and `full` are the same listener with a different target: a new target (another codec, a
// syslog path) is one more entry in TARGETS. `node` is the real embedded node (`streamroute node
// --manifests examples/quickstart`), whose subscriber is the driver, over the admin API.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { systemClock } from '../../dataplane/core/clock.js';
import { Telemetry } from '../../dataplane/core/telemetry.js';
import { buildTopology } from '../../dataplane/runtime/topology.js';
import { HttpIngestion } from '../../dataplane/sources/http/http-ingestion.js';
import { createIngestTarget } from '../../dataplane/sources/http/ingest-target.js';
import { httpRouteOf, type HttpRoute } from '../../dataplane/sources/http/target.js';
import { HttpTelemetry } from '../../dataplane/sources/http/telemetry.js';
import { exampleStatements, graphFromStatements } from '../fixtures/graph-from-statements.js';

export interface BenchServer {
  port: number;
  /** The admin API's port (the `node` variant). */
  adminPort?: number;
  /** Bodies (or records) the target saw; undefined where the server does not count (bare, node). */
  counted: () => number | undefined;
  /** Stops what must be cleaned up (the node's temporary data dir). */
  stop?: () => Promise<void>;
}

interface Node {
  logger: pino.Logger;
  registry: Registry;
  telemetry: HttpTelemetry;
}

interface BenchTarget {
  routes: HttpRoute[];
  counted: () => number;
}

/** The quickstart's codec as a JAQ JSON codec, for the `-jaq` variants (decision 0028: it runs compiled). */
export function withJaqCodec(statements: string): string {
  const wire = 'CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;';
  if (!statements.includes(wire)) throw new Error('examples/quickstart no longer declares its codec so');
  return statements.replace(
    wire,
    "CREATE CODEC orders_json FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '{order_id, amount}';",
  );
}

const TARGETS: Record<'listen' | 'full' | 'full-jaq', (node: Node) => BenchTarget> = {
  /** Counts bodies and does nothing else. */
  listen() {
    let count = 0;
    const target = {
      name: 'bench/count',
      maxBodyBytes: 1_048_576,
      deliver: () => void count++,
    };
    return {
      routes: [{ domain: 'bench', hostnames: ['localhost'], path: '/orders', target }],
      counted: () => count,
    };
  },

  /** examples/quickstart: orders-in decodes with the JSON wire codec and places records on `orders`. */
  full: (node) => quickstartTarget(node, (statements) => statements),
  /** The same with a JAQ JSON codec whose program is compiled. */
  'full-jaq': (node) => quickstartTarget(node, withJaqCodec),
};

function quickstartTarget(node: Node, edit: (statements: string) => string): BenchTarget {
  {
    const graph = graphFromStatements(edit(exampleStatements('quickstart')), 'bench');
    const built = buildTopology(graph, { registry: node.registry, logger: node.logger, clock: systemClock });
    if (!built.ok) throw new Error(built.errors.join('\n'));
    const spec = graph.httpIngestors['orders-in'];
    const entry = built.topology.ingestors.get('orders-in');
    if (spec === undefined || entry === undefined) throw new Error('quickstart has no ingestor orders-in');
    let count = 0;
    built.topology.onRecord('orders', () => void count++, 'bench');
    const target = createIngestTarget({
      name: 'bench/orders-in',
      ingestor: spec,
      ingest: (payload, metadata) => entry.ingest(payload, metadata),
      telemetry: node.telemetry,
      drops: new Telemetry({ registry: node.registry, logger: node.logger, domain: 'bench' }).component(
        'http-ingestor',
        'orders-in',
      ),
    });
    return { routes: [httpRouteOf('bench', spec, target)], counted: () => count };
  }
}

export async function startServer(
  variant: 'bare' | 'listen' | 'full' | 'full-jaq' | 'node' | 'node-jaq',
): Promise<BenchServer> {
  if (variant === 'bare') return startBare();
  if (variant === 'node')
    return startNode(fileURLToPath(new URL('../../examples/quickstart', import.meta.url)));
  if (variant === 'node-jaq') {
    const manifests = jaqManifests();
    const server = await startNode(manifests);
    const stop = async (): Promise<void> => {
      await server.stop?.();
      rmSync(manifests, { recursive: true });
    };
    return { ...server, stop };
  }
  const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
  const registry = new Registry();
  const telemetry = new HttpTelemetry(logger, registry);
  const target = TARGETS[variant]({ logger, registry, telemetry });
  const ingestion = new HttpIngestion({
    httpAddress: { host: '127.0.0.1', port: 0 },
    httpsAddress: { host: '127.0.0.1', port: 0 },
    tls: { readMountedFile: () => Buffer.alloc(0) },
    telemetry,
  });
  ingestion.setRoutes(target.routes);
  const status = await ingestion.start();
  if (status.port === undefined) throw new Error(`listener not running: ${JSON.stringify(status)}`);
  return { port: status.port, counted: target.counted };
}

/** Answers 202 to everything; Node reads and discards the body. */
function startBare(): Promise<BenchServer> {
  const server = createServer((_req, res) => {
    res.statusCode = 202;
    res.end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address !== null ? address.port : 0,
        counted: () => undefined,
      });
    });
  });
}

/**
 * The embedded node as `streamroute node --manifests examples/quickstart` runs it (domain `default`), on
 * 127.0.0.1 with ports from the system, a temporary data dir and warn-level logs to /dev/null.
 */
async function startNode(manifests: string): Promise<BenchServer> {
  // Imported here so the other variants' processes do not load the operator's node.
  const { startEmbeddedNode } = await import('../../operator/node/embedded-node.js');
  const loopback = { host: '127.0.0.1', port: 0 };
  const node = await startEmbeddedNode({
    manifests,
    httpAddress: loopback,
    httpsAddress: loopback,
    adminAddress: loopback,
    logger: pino({ level: 'warn' }, pino.destination('/dev/null')),
  });
  const ports = node.ports();
  if (ports.http === 0 || ports.admin === 0) throw new Error(`node not listening: ${JSON.stringify(ports)}`);
  return { port: ports.http, adminPort: ports.admin, counted: () => undefined, stop: () => node.stop() };
}

/** A temporary manifests directory: examples/quickstart with the JAQ JSON codec. */
function jaqManifests(): string {
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-bench-jaq-'));
  writeFileSync(join(dir, 'graph.sql'), withJaqCodec(exampleStatements('quickstart')));
  return dir;
}
