// The soak benchmark's admin and control traffic: subscribers that join and leave (half read what they
// get, half stop reading for their whole life), a statement every few seconds that forces a hot reload
// (the YAML codec's program, a junction added and dropped, the emitter replaced) or changes nothing
// (SHOW, DESCRIBE), and /healthz asked from outside five times a second (from a worker thread), each
// answer timed.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { emitterStatement, yamlProgram } from './soak-graph.js';
import type { SoakNode } from './soak-node.js';

const HEALTH_EVERY_MS = 200;
const HEALTH_TIMEOUT_MS = 5_000;

export interface ControlCounts {
  statements: number;
  statementFailures: number;
  /** Milliseconds per statement request. */
  statementMs: number[];
  subscribersOpened: number;
  subscribersRefused: number;
  /** /healthz latencies (ms) since the last take(); a failed or timed-out probe counts as the timeout. */
  health: number[];
  healthFailures: number;
  lastFailure?: string;
}

export interface Control {
  counts: ControlCounts;
  stop(): Promise<void>;
}

/** The statements, in turn: every one but SHOW changes the graph. */
function statementOf(turn: number): string {
  const step = turn % 5;
  const round = Math.floor(turn / 5);
  if (step === 0)
    return `CREATE OR REPLACE CODEC orders_yaml FROM YAML TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '${yamlProgram(round + 1)}';`;
  if (step === 1)
    return round % 2 === 0
      ? 'CREATE OR REPLACE JUNCTION tap FROM orders TO tapped INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;'
      : 'DROP JUNCTION IF EXISTS tap;';
  if (step === 2) return emitterStatement(round % 2 === 0 ? 200 : 100);
  if (step === 3) return 'SHOW RELAYS;';
  return 'DESCRIBE INGESTOR tcp_in;';
}

export function startControl(node: SoakNode, options: { statementEverySeconds: number }): Control {
  const counts: ControlCounts = {
    statements: 0,
    statementFailures: 0,
    statementMs: [],
    subscribersOpened: 0,
    subscribersRefused: 0,
    health: [],
    healthFailures: 0,
  };
  let turn = 0;
  let running: Promise<void> = Promise.resolve();
  const statementTimer = setInterval(() => {
    running = running.then(async () => {
      const script = statementOf(turn++);
      const started = performance.now();
      try {
        const answer = await node.statements(script);
        if (!answer.ok) {
          counts.statementFailures += 1;
          counts.lastFailure = JSON.stringify(answer).slice(0, 400);
        }
      } catch (error: unknown) {
        counts.statementFailures += 1;
        counts.lastFailure = String(error);
      }
      counts.statements += 1;
      counts.statementMs.push(performance.now() - started);
    });
  }, options.statementEverySeconds * 1000);

  const subscribers = new Set<Socket>();
  let subscriberNumber = 0;
  const subscriberTimer = setInterval(() => {
    for (const relay of ['orders', 'lines']) {
      const reading = subscriberNumber % 2 === 0;
      const socket = subscribe(
        node.adminPort,
        { relay, name: `soak-${subscriberNumber++}`, reading },
        counts,
      );
      subscribers.add(socket);
      // a reader stays 20–60 s, a stalled one 60–120 s
      const lifeMs = reading
        ? 20_000 + (subscriberNumber % 5) * 10_000
        : 60_000 + (subscriberNumber % 7) * 10_000;
      setTimeout(() => {
        socket.destroy();
        subscribers.delete(socket);
      }, lifeMs).unref();
    }
  }, 10_000);

  const prober = startHealthProber(node.adminPort, (ms) => {
    if (ms === undefined) counts.healthFailures += 1;
    counts.health.push(ms ?? HEALTH_TIMEOUT_MS);
  });

  return {
    counts,
    stop: async () => {
      clearInterval(statementTimer);
      clearInterval(subscriberTimer);
      await prober.terminate();
      await running;
      for (const socket of subscribers) socket.destroy();
    },
  };
}

/** A subscription on a raw socket: a reader drains it; a stalled one reads the head and then pauses. */
function subscribe(
  port: number,
  { relay, name, reading }: { relay: string; name: string; reading: boolean },
  counts: ControlCounts,
): Socket {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  socket.on('connect', () =>
    socket.write(
      `GET /v1/domains/default/relays/${relay}/subscriptions/${name} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    ),
  );
  socket.once('data', (chunk: Buffer) => {
    const status = Number(chunk.toString('latin1').split(' ')[1]);
    if (status === 200) counts.subscribersOpened += 1;
    else counts.subscribersRefused += 1;
    if (!reading) socket.pause();
  });
  if (reading) socket.on('data', () => {});
  return socket;
}

/**
 * GET /healthz on a connection of its own every HEALTH_EVERY_MS, timed in a worker thread: the bench's
 * own event loop, busy making load, would otherwise add its delays to the node's. Reports each latency
 * (ms), or undefined for a failure or a timeout.
 */
function startHealthProber(port: number, report: (ms: number | undefined) => void): Worker {
  const worker = new Worker(
    `
    const { request } = require('node:http');
    const { parentPort, workerData } = require('node:worker_threads');
    setInterval(() => {
      const started = performance.now();
      let settled = false;
      const done = (ok) => {
        if (settled) return;
        settled = true;
        parentPort.postMessage(ok ? performance.now() - started : null);
      };
      const req = request({ host: '127.0.0.1', port: workerData.port, path: '/healthz', agent: false }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode === 200));
      });
      req.setTimeout(workerData.timeout, () => { req.destroy(); done(false); });
      req.on('error', () => done(false));
      req.end();
    }, workerData.every);
    `,
    { eval: true, workerData: { port, every: HEALTH_EVERY_MS, timeout: HEALTH_TIMEOUT_MS } },
  );
  worker.on('message', (ms: number | null) => report(ms ?? undefined));
  return worker;
}
