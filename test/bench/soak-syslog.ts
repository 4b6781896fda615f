// The soak benchmark's syslog load: lines over UDP, TCP and TLS (octet-counted) at a steady rate, one
// line in fifty bad, each TCP/TLS connection replaced every minute; frames that stop halfway (closed by
// us, or left for the node's partial-frame timeout) and idle connections to every listener; and the sink
// the node's emitter forwards to, which counts the frames it receives.
import { createSocket } from 'node:dgram';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SYSLOG_TRANSPORTS, type SyslogTransport } from './soak-graph.js';
import { badSyslogLine, octetCounted, syslogLine } from './soak-payloads.js';

const RECONNECT_MS = 60_000;
const BAD_EVERY = 50;

export interface SyslogCounts {
  good: number;
  bad: number;
  /** Frames cut off on purpose (never records). */
  halfFrames: number;
  connections: number;
  errors: number;
}

export interface SyslogLoad {
  counts: Record<SyslogTransport, SyslogCounts>;
  stop(): Promise<void>;
}

export interface SyslogLoadOptions {
  ports: Record<SyslogTransport, number>;
  /** Lines per second per transport. */
  rate: number;
  ca: Buffer;
  hostileEverySeconds: number;
}

export function startSyslogLoad(options: SyslogLoadOptions): SyslogLoad {
  const counts = Object.fromEntries(
    SYSLOG_TRANSPORTS.map((name) => [name, { good: 0, bad: 0, halfFrames: 0, connections: 0, errors: 0 }]),
  ) as Record<SyslogTransport, SyslogCounts>;
  const udp = createSocket('udp4');
  const streams: Partial<Record<'tcp' | 'tls', Socket>> = {};
  const open = (transport: 'tcp' | 'tls'): Socket => {
    const port = options.ports[transport];
    const socket =
      transport === 'tcp'
        ? tcpConnect({ host: '127.0.0.1', port })
        : tlsConnect({ host: '127.0.0.1', port, ca: options.ca, servername: 'localhost' });
    socket.on('error', () => (counts[transport].errors += 1));
    counts[transport].connections += 1;
    return socket;
  };
  const reconnect = (): void => {
    for (const transport of ['tcp', 'tls'] as const) {
      streams[transport]?.end();
      streams[transport] = open(transport);
    }
  };
  reconnect();

  let sequence = 0;
  let credit = 0;
  // by the time passed, not the ticks: a late timer sends what is due, so the rate holds on a busy machine
  let last = performance.now();
  const tickMs = 20;
  const ticker = setInterval(() => {
    const now = performance.now();
    credit += (options.rate * (now - last)) / 1000;
    last = now;
    for (; credit >= 1; credit -= 1) {
      const n = sequence++;
      const bad = n % BAD_EVERY === BAD_EVERY - 1;
      for (const transport of SYSLOG_TRANSPORTS) {
        const line = bad ? badSyslogLine(n) : syslogLine(transport, n);
        if (transport === 'udp') udp.send(line, options.ports.udp, '127.0.0.1');
        else streams[transport]?.write(octetCounted(line));
        counts[transport][bad ? 'bad' : 'good'] += 1;
      }
    }
  }, tickMs);
  const reconnectTimer = setInterval(reconnect, RECONNECT_MS);
  const hostileTimer = setInterval(() => {
    for (const transport of ['tcp', 'tls'] as const) {
      halfFrame(open(transport), 5_000);
      halfFrame(open(transport), 40_000);
      counts[transport].halfFrames += 2;
    }
  }, options.hostileEverySeconds * 1000);

  return {
    counts,
    stop: async () => {
      clearInterval(ticker);
      clearInterval(reconnectTimer);
      clearInterval(hostileTimer);
      // end() flushes what was written; a socket that failed never finishes, so wait at most 5 s
      await Promise.all(
        Object.values(streams).map(
          (socket) =>
            new Promise<void>((done) => {
              socket.end(() => done());
              setTimeout(done, 5_000).unref();
            }),
        ),
      );
      udp.close();
    },
  };
}

/** Half of a frame, then nothing; closed by us after `holdMs` (or by the node's partial-frame timeout). */
function halfFrame(socket: Socket, holdMs: number): void {
  const frame = octetCounted(syslogLine('half', 0));
  socket.write(frame.subarray(0, frame.length >> 1));
  setTimeout(() => socket.destroy(), holdMs).unref();
}

/** `count` connections to `port` that send nothing, closed after `holdMs`; resolves when all opened. */
export function idleConnections(port: number, count: number, holdMs: number): void {
  for (let index = 0; index < count; index += 1) {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    setTimeout(() => socket.destroy(), holdMs).unref();
  }
}

/** The emitter's target: counts octet-counted frames. */
export interface Sink {
  readonly port: number;
  frames(): number;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  let frames = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        const space = buffered.indexOf(0x20);
        if (space === -1) break;
        const length = Number(buffered.subarray(0, space).toString('latin1'));
        if (buffered.length < space + 1 + length) break;
        frames += 1;
        buffered = buffered.subarray(space + 1 + length);
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('sink: no port');
  return {
    port: address.port,
    frames: () => frames,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
