// The daemon-independent half of the syslog wire peers (test/support/syslog-wire-daemons.ts): what a
// receiver's inputs and a sender's outputs are, the receiver that reads the JSON lines a daemon's template
// wrote (one file per input) and waits for a start-up probe to come out of each, and the sender that
// hands a daemon messages on its loopback UDP inputs.
import { connect as tcpConnect, createServer } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { type Daemon, UdpTap, freeUdpPort } from './syslog-peers.js';

export type WireTransport = 'udp' | 'tcp' | 'tls';
/** rsyslog's TLS stream drivers: lmnsd_ossl (rsyslog-openssl) and lmnsd_gtls (rsyslog-gnutls). */
export type RsyslogTlsDriver = 'ossl' | 'gtls';
/** syslog-ng's drivers: `syslog()` is RFC 5424 octet-counted on TCP/TLS; `network()` is LF (BSD by default). */
export type SyslogNgDriver = 'syslog' | 'network';

/** PEM files of one side of a TLS session (paths, as the daemons read them). */
export interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/** A receiver's TLS files: its server identity, and the client identity its start-up probe presents. */
export interface ReceiverTls extends TlsFiles {
  client: { cert: string; key: string };
}

/** What a receiver wrote for one message: each field as the daemon's template rendered it ('' when empty). */
export interface ReceivedFields {
  pri: string;
  timestamp: string;
  hostname: string;
  app_name: string;
  proc_id: string;
  msg_id: string;
  structured_data: string;
  message: string;
}

export interface ReceiverInput {
  transport: WireTransport;
  /** rsyslog: the TLS driver (default ossl). */
  driver?: RsyslogTlsDriver;
  /** syslog-ng: the source driver (default syslog). */
  ngDriver?: SyslogNgDriver;
  /** TLS: require a client certificate signed by the CA. */
  mutual?: boolean;
  /** rsyslog TCP/TLS: the address the input binds and probes reach (default 127.0.0.1). */
  address?: string;
}

export interface SenderOutput {
  transport: WireTransport;
  port: number;
  /** rsyslog TCP/TLS framing (default octet-counted). */
  framing?: 'octet-counted' | 'lf';
  driver?: RsyslogTlsDriver;
  /** syslog-ng: the destination driver (default syslog). */
  ngDriver?: SyslogNgDriver;
}

const READY_TIMEOUT_MS = 15_000;

const POLL_MS = 10;
const PROBE_MESSAGE = 'wire-probe';
const PROBE = `<13>1 2026-01-01T00:00:00Z probe probe - - - ${PROBE_MESSAGE}`;

/** A free loopback TCP port (bound, read, released). */
export async function freeTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once `port` accepts a TCP connection (closed at once); `dead` says why to stop trying, if so. */
export async function waitForTcpPort(
  port: number,
  dead: () => Promise<string | undefined>,
  host = '127.0.0.1',
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, host, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    const why = await dead();
    if (why !== undefined) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`nothing listens on TCP ${port} after ${READY_TIMEOUT_MS} ms`);
    await pause(50);
  }
}

/** For waitForTcpPort: the daemon's log when it has exited. */
function exited(daemon: Daemon): () => Promise<string | undefined> {
  return async () =>
    daemon.running ? undefined : `${daemon.name} exited while starting:\n${await daemon.logTail()}`;
}

/**
 * Sends one frame to an input of a receiver the way a well-behaved sender would (for probes); resolves
 * with a function that closes the connection, to call once the frame has come out: rsyslog's ossl driver
 * may drop a TLS session, data included, that closes right after writing.
 */
async function sendProbe(input: ReceiverInput, port: number, tls: TlsFiles | undefined): Promise<() => void> {
  if (input.transport === 'udp') {
    const tap = await new UdpTap().open();
    await tap.send(Buffer.from(PROBE), port);
    tap.close();
    return () => undefined;
  }
  // syslog-ng's network() source frames by LF; everything else here takes octet counting
  const frame = input.ngDriver === 'network' ? `${PROBE}\n` : `${Buffer.byteLength(PROBE)} ${PROBE}`;
  const host = input.address ?? '127.0.0.1';
  return sendFrame(port, frame, { host, tls: input.transport === 'tls' ? tlsOptions(tls) : undefined });
}

/** Attempts at a TLS handshake the receiver dropped before it completed (see sendFrame). */
const HANDSHAKE_ATTEMPTS = 3;

/**
 * Writes `frame` on a new TCP or TLS connection to 127.0.0.1 (or `host`); resolves with a function that
 * closes it. rsyslog's gtls driver now and then ends a session during the handshake under load ("GnuTLS
 * handshake retry returned error", once in thousands of connections); a sender would reconnect, so a
 * connection closed before its handshake completed is tried again, up to HANDSHAKE_ATTEMPTS times.
 */
export async function sendFrame(
  port: number,
  frame: string,
  options: { host?: string; tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined } = {},
): Promise<() => void> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls;
  for (let attempt = 1; ; attempt++) {
    let handshaken = false;
    try {
      return await new Promise<() => void>((resolve, reject) => {
        const done = (): void => {
          handshaken = true;
          socket.write(frame, () => resolve(() => socket.end()));
        };
        const socket =
          tls === undefined
            ? tcpConnect(port, host, done)
            : tlsConnect({ port, host, servername: 'localhost', ...tls }, done);
        socket.once('error', reject);
      });
    } catch (error) {
      if (tls === undefined || handshaken || attempt === HANDSHAKE_ATTEMPTS) throw error;
      console.log(
        `      (TLS handshake to port ${port} dropped by the receiver, attempt ${attempt}: trying again)`,
      );
    }
  }
}

function tlsOptions(tls: TlsFiles | undefined): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  if (tls === undefined) throw new Error('a TLS input needs TLS files');
  return { ca: readFileSync(tls.ca), cert: readFileSync(tls.cert), key: readFileSync(tls.key) };
}

/** Where a receiver writes what `input` received (any input name makes a plain file name). */
export function outputFile(dir: string, input: string): string {
  return join(dir, `${encodeURIComponent(input)}.jsonl`);
}

/** A daemon that writes what each input receives to a file of its own, one JSON object a line. */
export class WireReceiver {
  readonly #consumed = new Map<string, number>();

  constructor(
    readonly daemon: Daemon,
    /** The port of each input. */
    readonly ports: Record<string, number>,
  ) {}

  #lines(input: string): string[] {
    const file = outputFile(this.daemon.dir, input);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').split('\n').slice(0, -1);
  }

  /** The next message the input received (waits for it), as the template wrote it. */
  async next(input: string, timeoutMs = 5_000): Promise<ReceivedFields> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.#consumed.get(input) ?? 0;
      const line = this.#lines(input)[seen];
      if (line !== undefined) {
        this.#consumed.set(input, seen + 1);
        return receivedFields(line);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${this.daemon.name}: nothing on input ${input} within ${timeoutMs} ms:\n${await this.daemon.logTail()}`,
        );
      }
      await pause(POLL_MS);
    }
  }

  /** How many messages the input has received and `next` has not returned yet. */
  pending(input: string): number {
    return this.#lines(input).length - (this.#consumed.get(input) ?? 0);
  }

  /** Waits until every input has received a probe, then forgets the probes. */
  async probe(inputs: Record<string, ReceiverInput>, tls: TlsFiles | undefined): Promise<void> {
    for (const [name, input] of Object.entries(inputs)) {
      const port = this.ports[name] ?? 0;
      if (input.transport === 'udp') await this.daemon.waitForUdpPort(port);
      else await waitForTcpPort(port, exited(this.daemon), input.address);
      const close = await sendProbe(input, port, tls);
      const probe = await this.next(name, READY_TIMEOUT_MS).finally(close);
      if (probe.message !== PROBE_MESSAGE)
        throw new Error(`${name}: probe came out as ${JSON.stringify(probe)}`);
    }
  }

  stop(): Promise<void> {
    return this.daemon.stop();
  }
}

function receivedFields(line: string): ReceivedFields {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`a receiver wrote a line that is not JSON: ${line}`);
  }
  const field = (name: string): string => {
    const value = parsed[name];
    if (typeof value === 'string') return value;
    return value === undefined || value === null ? '' : JSON.stringify(value);
  };
  return {
    pri: field('pri'),
    timestamp: field('timestamp'),
    hostname: field('hostname'),
    app_name: field('app_name'),
    proc_id: field('proc_id'),
    msg_id: field('msg_id'),
    structured_data: field('structured_data'),
    message: field('message'),
  };
}

export async function portsFor<T extends { transport: WireTransport }>(
  entries: Record<string, T>,
): Promise<Record<string, number>> {
  const ports: Record<string, number> = {};
  for (const [name, entry] of Object.entries(entries)) {
    ports[name] = entry.transport === 'udp' ? await freeUdpPort() : await freeTcpPort();
  }
  return ports;
}

export async function started<T extends { stop(): Promise<void> }>(
  made: T,
  ready: () => Promise<void>,
): Promise<T> {
  try {
    await ready();
    return made;
  } catch (error: unknown) {
    await made.stop();
    throw error;
  }
}

/** A daemon forwarding what arrives on each of its UDP inputs to that output's target. */
export class WireSender {
  constructor(
    readonly daemon: Daemon,
    /** The UDP input port of each output. */
    readonly inputs: Record<string, number>,
  ) {}

  /** Gives the daemon one message (a datagram on that output's input) to forward. */
  async send(output: string, message: string | Uint8Array): Promise<void> {
    const port = this.inputs[output];
    if (port === undefined) throw new Error(`no output ${output}`);
    const tap = await new UdpTap().open();
    try {
      await tap.send(typeof message === 'string' ? Buffer.from(message) : message, port);
    } finally {
      tap.close();
    }
  }

  stop(): Promise<void> {
    return this.daemon.stop();
  }
}
