// Many subscribers that never read, against a real node in its own process (so its memory is its own):
// `streamroute node` started as a child, subscriber connections that send their request, read the
// response head and then never read again (the socket is paused: the kernel buffers fill, then the node's
// writes stop), and HTTP ingestion timed request by request. Used by the e2e test and the benchmark of
// slow subscribers (test/e2e/node-stalled-subscribers.e2e.test.ts, test/bench/stalled-subscribers.bench.ts).
// Traffic goes to 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nodeCommandArgs } from './node-process.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Orders POSTed as JSON batches to /orders, decoded by a jq program (so a blocked event loop shows as
 * jq calls stopped at their time limit), placed on the relay `orders`.
 */
export const STALLED_GRAPH = `
CREATE SCHEMA orders (order_id STRING, amount I64, note STRING);
CREATE CODEC orders_json FROM JSON TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS ON INGESTION '.orders[] | {order_id: .id, amount, note}';
CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE VHOST local localhost;
CREATE ENDPOINT orders_ep ON local PATH '/orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR orders_in
  FROM orders_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
`;

/** A batch of `count` orders, each with a note of `noteBytes` characters, numbered from `first`. */
export function ordersBody(first: number, count: number, noteBytes = 200): string {
  const note = 'n'.repeat(noteBytes);
  const orders = Array.from({ length: count }, (_, index) => ({
    id: `ORD-${first + index}`,
    amount: first + index,
    note,
  }));
  return JSON.stringify({ orders });
}

export interface NodeProcess {
  readonly child: ChildProcess;
  readonly httpPort: number;
  readonly adminPort: number;
  /** The node's resident set (VmRSS of /proc/<pid>/status), bytes. */
  rss(): number;
  /** The peak resident set so far (VmHWM), bytes. */
  peakRss(): number;
  /** Its stderr (JSON log lines) so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `streamroute node` on `graph` with loopback listeners on free ports and `extraArgs`. */
export async function startNodeProcess(
  graph: string,
  extraArgs: readonly string[] = [],
  nodeOptions: readonly string[] = [],
): Promise<NodeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-stalled-'));
  writeFileSync(join(dir, 'graph.sql'), graph);
  const args = [
    ...nodeOptions,
    '--import',
    'tsx',
    join(ROOT, 'operator/cli/main.ts'),
    ...nodeCommandArgs(dir),
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ports = await new Promise<{ http: number; admin: number }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`node did not start: ${stdout} ${stderr}`)), 60_000);
    const check = (): void => {
      const match = /HTTP 127\.0\.0\.1:(\d+) · admin http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      done({ http: Number(match[1]), admin: Number(match[2]) });
    };
    child.stdout.on('data', check);
    void exited.then(() => fail(new Error(`node exited: ${stdout} ${stderr}`)));
  });
  const status = (field: string): number => {
    const text = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return Number(match?.[1] ?? 0) * 1024;
  };
  return {
    child,
    httpPort: ports.http,
    adminPort: ports.admin,
    rss: () => status('VmRSS'),
    peakRss: () => status('VmHWM'),
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A subscriber connection that read its response head and then stopped reading for good. */
export interface StalledSubscriber {
  readonly socket: Socket;
  /** The status of the response head. */
  readonly status: number;
  /** The head and whatever body bytes came with it (an error body for a refusal). */
  readonly head: string;
}

/**
 * Opens `count` subscriptions named `<prefix>-<n>` (each gets every record) to `relay`, `parallel` at a
 * time; each reads its response head, then pauses for good.
 */
export async function openStalledSubscribers(
  adminPort: number,
  relay: string,
  count: number,
  options: { prefix?: string; parallel?: number; query?: string } = {},
): Promise<StalledSubscriber[]> {
  const prefix = options.prefix ?? 'stalled';
  const parallel = options.parallel ?? 50;
  const opened: StalledSubscriber[] = [];
  for (let first = 0; first < count; first += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - first) }, (_, index) =>
      openStalled(
        adminPort,
        `/v1/domains/default/relays/${relay}/subscriptions/${prefix}-${first + index}${options.query ?? ''}`,
      ),
    );
    opened.push(...(await Promise.all(batch)));
  }
  return opened;
}

function openStalled(port: number, path: string): Promise<StalledSubscriber> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.once('error', fail);
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.pause();
      const head = received.toString('latin1');
      done({ socket, status: Number(head.split(' ')[1]), head });
    };
    socket.on('data', onData);
  });
}

export interface IngestRun {
  /** Milliseconds from sending each request to its complete response. */
  latencies: number[];
  /** Responses that were not 202. */
  failures: number;
  elapsedMs: number;
}

/**
 * POSTs `requests` batches of `recordsPerRequest` orders to /orders, `concurrency` at a time over
 * keep-alive connections, timing each one.
 */
export async function ingest(
  httpPort: number,
  options: {
    requests: number;
    recordsPerRequest: number;
    concurrency: number;
    firstId?: number;
    noteBytes?: number;
  },
): Promise<IngestRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < options.requests) {
      const index = next++;
      const body = ordersBody(
        (options.firstId ?? 0) + index * options.recordsPerRequest,
        options.recordsPerRequest,
        options.noteBytes,
      );
      const sent = performance.now();
      const status = await post(agent, httpPort, body);
      latencies.push(performance.now() - sent);
      if (status !== 202) failures++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  return { latencies, failures, elapsedMs: performance.now() - started };
}

function post(agent: Agent, port: number, body: string): Promise<number> {
  return new Promise((done) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/orders',
        method: 'POST',
        agent,
        headers: {
          Host: 'localhost',
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? 0));
      },
    );
    request.on('error', () => done(0));
    request.end(body);
  });
}

/** The sum of the samples of `name` whose labels include `labels`, from the admin API's /metrics. */
export async function metric(
  adminPort: number,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await new Promise<string>((done, fail) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: adminPort, path: '/metrics', agent: false, headers: { Host: 'localhost' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => done(body));
      },
    );
    request.on('error', fail);
    request.end();
  });
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const labelText = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`)))
      sum += Number(match[3]);
  }
  return sum;
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
