// Test fixtures of the syslog listener tests: a listener on 127.0.0.1 port 0 with real telemetry (a fresh
// prom-client registry), a recording deliver, captured log lines, and small socket clients.
import assert from 'node:assert/strict';
import { createSocket, type Socket as DgramSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { waitFor } from '../../../test/support/raw-http.js';
import { systemClock } from '../../core/clock.js';
import { readCounter, Telemetry, type ComponentTelemetry } from '../../core/telemetry.js';
import type { Value } from '../../core/values.js';
import { ingestConnections, type IngestConnectionOptions } from '../../net/ingest-connections.js';
import { createSyslogListener, type SyslogListener, type SyslogListenerOptions } from './syslog-listener.js';

export { waitFor };

export interface Received {
  text: string;
  peer: string;
}

export interface Harness {
  listener: SyslogListener;
  received: Received[];
  logs: Record<string, unknown>[];
  registry: Registry;
  drops: ComponentTelemetry;
  port: number;
  /** The value of streamroute_drops_total for this ingestor and `reason`. */
  dropped(reason: string): Promise<number>;
}

export type HarnessOptions = Partial<Omit<SyslogListenerOptions, 'drops' | 'logger' | 'registry'>> & {
  /** quiesce() before start(), as the node does for an ingestor that starts quiesced. */
  quiesceBeforeStart?: boolean;
  /** Connection limits, counted in the harness's registry (default: from the descriptor limit). */
  limits?: IngestConnectionOptions;
};

export function recordingDeliver(received: Received[]): SyslogListenerOptions['deliver'] {
  return (payload: Uint8Array, metadata: Readonly<Record<string, Value>>) => {
    const peer = metadata['peer_addr'];
    received.push({
      text: Buffer.from(payload).toString('latin1'),
      peer: typeof peer === 'string' ? peer : '?',
    });
  };
}

/** A listener started on 127.0.0.1:0 (unless told otherwise), Running. */
export async function startListener(harnessOptions: HarnessOptions = {}): Promise<Harness> {
  const { quiesceBeforeStart, limits, ...options } = harnessOptions;
  const registry = new Registry();
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'trace' }, sink);
  const drops = new Telemetry({ registry, logger, domain: 'd' }).component('syslog-ingestor', 'in');
  const received: Received[] = [];
  const listener = createSyslogListener({
    domain: 'd',
    ingestor: 'in',
    protocol: 'tcp',
    address: { host: '127.0.0.1', port: 0 },
    maxMessageSize: 1024,
    quiesce: { action: 'SUSPEND' },
    deliver: recordingDeliver(received),
    clock: systemClock,
    ...(limits === undefined
      ? {}
      : {
          connections: ingestConnections(limits, { registry, logger, clock: options.clock ?? systemClock }),
        }),
    ...options,
    drops,
    logger,
    registry,
  });
  if (quiesceBeforeStart === true) listener.quiesce();
  const status = await listener.start();
  if (options.address?.port === undefined || options.address.port === 0)
    assert.equal(status.state, 'Running');
  return {
    listener,
    received,
    logs,
    registry,
    drops,
    port: status.port ?? 0,
    dropped: (reason) =>
      readCounter(registry, 'streamroute_drops_total', { domain: 'd', name: 'in', reason }),
  };
}

/** A plain TCP client, connected. */
export async function tcpClient(port: number, host = '127.0.0.1'): Promise<Socket> {
  const socket = connect({ port, host });
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

export function closed(socket: Socket): Promise<void> {
  if (socket.destroyed && socket.closed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

export function octet(text: string): string {
  return `${Buffer.byteLength(text)} ${text}`;
}

/** Every logged line as text, to check that payload bytes never appear. */
export function logText(logs: readonly Record<string, unknown>[]): string {
  return logs.map((line) => JSON.stringify(line)).join('\n');
}

/** A UDP client bound to an ephemeral port of `host`, so its address is known. */
export async function udpClient(host = '127.0.0.1'): Promise<DgramSocket> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return socket;
}

export function send(
  socket: DgramSocket,
  port: number,
  text: string | Buffer,
  host = '127.0.0.1',
): Promise<void> {
  return new Promise((resolve, reject) =>
    socket.send(text, port, host, (error) => (error ? reject(error) : resolve())),
  );
}

/** One trip through the poll phase of the event loop (a datagram to ourselves): readable sockets get read. */
export async function ioTurn(turns = 3): Promise<void> {
  const socket = await udpClient();
  try {
    for (let n = 0; n < turns; n++) {
      const back = new Promise((resolve) => socket.once('message', resolve));
      await send(socket, socket.address().port, 'turn');
      await back;
    }
  } finally {
    socket.close();
  }
}
