// The soak benchmark's HTTP load: bodies POSTed at a steady rate over keep-alive connections, round the
// six order formats and the payments endpoint, with bad bodies, 1 MiB worst-case bodies, bodies over the
// limit and requests that stop halfway mixed in. What was answered how is counted per ingestor, for the
// accounting at the end (a 202 body is one record or one message error of its ingestor).
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { HTTP_FORMATS, type HttpFormat } from './soak-graph.js';
import { WORST_CASES, badBody, goodBody, paymentBody } from './soak-payloads.js';

const MAX_BODY = 1024 * 1024;
const WORST_SIZE = MAX_BODY - 1024;
const MAX_IN_FLIGHT = 64;

export type Ingestor = HttpFormat | 'payments';

export interface HttpCounts {
  /** Good bodies answered 202: one record each. */
  good: number;
  /** Bad or worst-case bodies answered 202: one message error each. */
  bad: number;
  /** Answered with another status than 202, by status. */
  statuses: Record<string, number>;
  /** No answer (connection error): may or may not have reached the ingestor. */
  failed: number;
}

export interface HttpLoad {
  counts: Record<Ingestor, HttpCounts>;
  /** Requests not sent because MAX_IN_FLIGHT were waiting (the node fell behind). */
  skipped: number;
  halfSent: number;
  /** Bodies over the limit, how many were answered 413, and how many got no answer (reset first). */
  oversize: { sent: number; refused: number; unanswered: number };
  stop(): Promise<void>;
}

export interface HttpLoadOptions {
  port: number;
  /** Requests per second, all kinds together. */
  rate: number;
  /** Share of requests that are bad bodies. */
  badShare: number;
  /** Seconds between worst-case bodies, and between oversize bodies and half-sent requests. */
  worstEverySeconds: number;
  hostileEverySeconds: number;
}

export function startHttpLoad(options: HttpLoadOptions): HttpLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const counts = Object.fromEntries(
    [...HTTP_FORMATS, 'payments'].map((name) => [name, { good: 0, bad: 0, statuses: {}, failed: 0 }]),
  ) as Record<Ingestor, HttpCounts>;
  const load: HttpLoad = {
    counts,
    skipped: 0,
    halfSent: 0,
    oversize: { sent: 0, refused: 0, unanswered: 0 },
    stop: async () => {},
  };
  const pending = new Set<Promise<void>>();
  let sequence = 0;
  let credit = 0;
  // by the time passed, not the ticks: a late timer sends what is due, so the rate holds on a busy machine
  let last = performance.now();
  let worst = 0;

  const send = (ingestor: Ingestor, body: Uint8Array, kind: 'good' | 'bad'): void => {
    if (pending.size >= MAX_IN_FLIGHT) {
      load.skipped += 1;
      return;
    }
    const path = ingestor === 'payments' ? '/payments' : `/orders.${ingestor}`;
    const done = post(agent, options.port, path, body).then((status) => {
      const count = counts[ingestor];
      if (status === 0) count.failed += 1;
      else if (status === 202) count[kind] += 1;
      else count.statuses[status] = (count.statuses[status] ?? 0) + 1;
      pending.delete(done);
    });
    pending.add(done);
  };

  const next = (): void => {
    const n = sequence++;
    const slot = n % (HTTP_FORMATS.length + 1);
    const format = HTTP_FORMATS[slot];
    // each round ends with a payment for its first order, so the correlator pairs one order in six
    if (format === undefined) send('payments', paymentBody(n - HTTP_FORMATS.length), 'good');
    else if ((n * 7919) % 1000 < options.badShare * 1000) send(format, badBody(format, n), 'bad');
    else send(format, goodBody(format, n), 'good');
  };

  const tickMs = 20;
  const ticker = setInterval(() => {
    const now = performance.now();
    credit += (options.rate * (now - last)) / 1000;
    last = now;
    for (; credit >= 1; credit -= 1) next();
  }, tickMs);
  const worstTimer = setInterval(() => {
    const { family, format } = WORST_CASES[worst % WORST_CASES.length] ?? WORST_CASES[0]!;
    send(format, family.body(WORST_SIZE, worst++ % 1000), 'bad');
  }, options.worstEverySeconds * 1000);
  let hostile = 0;
  const hostileTimer = setInterval(() => {
    const format = HTTP_FORMATS[hostile++ % HTTP_FORMATS.length] ?? 'json';
    load.oversize.sent += 1;
    const refused = oversize(options.port, `/orders.${format}`).then((status) => {
      if (status === 413) load.oversize.refused += 1;
      else if (status === 0) load.oversize.unanswered += 1;
      pending.delete(refused);
    });
    pending.add(refused);
    halfSend(options.port, `/orders.${format}`);
    load.halfSent += 1;
  }, options.hostileEverySeconds * 1000);

  load.stop = async () => {
    clearInterval(ticker);
    clearInterval(worstTimer);
    clearInterval(hostileTimer);
    await Promise.all(pending);
    agent.destroy();
  };
  return load;
}

/** POSTs `body`; resolves with the status, or 0 when the connection failed before an answer. */
function post(agent: Agent, port: number, path: string, body: Uint8Array): Promise<number> {
  return new Promise((resolve) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { Host: 'localhost', 'Content-Length': body.length },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

/**
 * A body one byte over the limit, declared by Content-Length, of which only the first 64 KiB are sent
 * (the node answers 413 before reading it and closes); resolves with the status, 0 without one.
 */
function oversize(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.on('error', () => resolve(0));
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${MAX_BODY + 1}\r\n\r\n`);
      socket.write(Buffer.alloc(64 * 1024, 0x20));
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (!answer.includes('\r\n')) return;
      resolve(Number(answer.split(' ')[1]));
      socket.destroy();
    });
    socket.on('close', () => resolve(0));
  });
}

/** A request that declares 4 KiB, sends 100 bytes of it and goes away 20 s later (an aborted upload). */
function halfSend(port: number, path: string): void {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  socket.on('connect', () => {
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4096\r\n\r\n${'x'.repeat(100)}`,
    );
  });
  setTimeout(() => socket.destroy(), 20_000).unref();
}
