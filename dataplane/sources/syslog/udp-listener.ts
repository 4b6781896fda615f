// The UDP side of a syslog listener (RFC 5426): one datagram is one frame, no framing. A datagram larger
// than max_message_size is dropped, counted ('oversized_datagram') and logged at debug with its size and
// peer (docs/syslog-wire.md, "Listeners"). Binding retries like every listener: a DatagramServer gives a
// dgram socket the few members of net.Server that RetryingListener uses (listen, listening, address, close,
// 'listening' and 'error' events), so UDP has exactly the same Retrying/backoff/recovery states as TCP and
// TLS. Each bind attempt uses a fresh socket (a dgram socket that failed to bind is closed, not reused).
//
// SUSPEND must stop reading so datagrams wait in the kernel receive buffer (docs/syslog-wire.md, "Listeners",
// ON QUIESCE). Node's dgram has no public pause; its handle has recvStop()/recvStart() (checked on Node 20.20
// and 24.21, the state symbol is named 'state symbol'). When they are missing, `canPause` is false and the
// intake drops instead.
import { createSocket, type RemoteInfo, type Socket as DgramSocket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import type { AddressInfo, Server } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import type { IngestMetadata } from '../../core/ingest.js';
import type { ComponentTelemetry } from '../../core/telemetry.js';
import {
  RetryingListener,
  type ListenAddress,
  type ListenerHooks,
  type ListenerStatus,
  type RetryPolicy,
} from '../../net/retrying-listener.js';
import type { SyslogListenerStats } from './listener-stats.js';
import { peerOf } from './stream-listener.js';
import type { SyslogIntake } from './syslog-intake.js';

/** Asked of the kernel for the receive buffer (it may grant less or refuse; either is fine). */
export const UDP_RECV_BUFFER_BYTES = 4 * 1024 * 1024;

export interface UdpListenerOptions {
  address: ListenAddress;
  maxMessageSize: number;
  intake: SyslogIntake;
  stats: SyslogListenerStats;
  drops: Pick<ComponentTelemetry, 'countDrops'>;
  logger: Logger;
  clock: Clock;
  retry: RetryPolicy | undefined;
  hooks: ListenerHooks;
}

interface RecvHandle {
  recvStart(): number;
  recvStop(): number;
}

/** The receive handle of a bound dgram socket, when this Node exposes it. */
function recvHandleOf(socket: DgramSocket): RecvHandle | undefined {
  const symbol = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'state symbol');
  if (symbol === undefined) return undefined;
  const state: unknown = (socket as unknown as Record<symbol, unknown>)[symbol];
  if (typeof state !== 'object' || state === null || !('handle' in state)) return undefined;
  const handle: unknown = state.handle;
  if (typeof handle !== 'object' || handle === null) return undefined;
  const { recvStart, recvStop } = handle as Partial<Record<'recvStart' | 'recvStop', unknown>>;
  if (typeof recvStart !== 'function' || typeof recvStop !== 'function') return undefined;
  return handle as RecvHandle;
}

let canPause: boolean | undefined;

/** Whether this Node's dgram sockets can stop reading (probed once, on an unbound socket). */
export function dgramCanPause(): boolean {
  if (canPause === undefined) {
    const probe = createSocket('udp4');
    canPause = recvHandleOf(probe) !== undefined;
    probe.close();
  }
  return canPause;
}

/** A dgram socket shaped like the part of net.Server that RetryingListener drives. */
class DatagramServer extends EventEmitter {
  #socket: DgramSocket | undefined;
  #bound = false;
  readonly #onMessage: (message: Buffer, remote: RemoteInfo) => void;

  constructor(onMessage: (message: Buffer, remote: RemoteInfo) => void) {
    super();
    this.#onMessage = onMessage;
  }

  get listening(): boolean {
    return this.#bound;
  }

  get socket(): DgramSocket | undefined {
    return this.#bound ? this.#socket : undefined;
  }

  listen(options: { host: string; port: number }): void {
    const socket = createSocket({ type: options.host.includes(':') ? 'udp6' : 'udp4' });
    this.#socket = socket;
    socket.on('message', this.#onMessage);
    socket.once('listening', () => {
      this.#bound = true;
      try {
        socket.setRecvBufferSize(UDP_RECV_BUFFER_BYTES);
      } catch {
        // The kernel's limit applies (net.core.rmem_max); the default buffer still works.
      }
      this.emit('listening');
    });
    socket.on('error', (error: unknown) => {
      if (!this.#bound) {
        this.#socket = undefined;
        socket.close();
      }
      this.emit('error', error);
    });
    socket.bind({ address: options.host, port: options.port });
  }

  address(): AddressInfo | null {
    return this.#bound && this.#socket !== undefined ? this.#socket.address() : null;
  }

  close(callback?: () => void): void {
    const socket = this.#socket;
    this.#socket = undefined;
    this.#bound = false;
    if (socket === undefined) callback?.();
    else socket.close(callback);
  }
}

export class UdpListener {
  readonly #options: UdpListenerOptions;
  readonly #server: DatagramServer;
  readonly #listener: RetryingListener;
  /** Metadata of the last peer: consecutive datagrams from one sender share it. */
  #lastPeer: { address: string; port: number; metadata: IngestMetadata } | undefined;
  #reading = true;

  constructor(options: UdpListenerOptions) {
    this.#options = options;
    this.#server = new DatagramServer((message, remote) => this.#received(message, remote));
    const hooks: ListenerHooks = {
      ...options.hooks,
      listening: (address) => {
        if (!this.#reading) this.#apply(false);
        options.hooks.listening(address);
      },
    };
    // RetryingListener uses only listen/listening/address/close and the two events (see the header).
    this.#listener = new RetryingListener(this.#server as unknown as Server, options.address, {
      clock: options.clock,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      hooks,
    });
  }

  get status(): ListenerStatus {
    return this.#listener.status;
  }

  start(): Promise<ListenerStatus> {
    return this.#listener.start();
  }

  setReading(reading: boolean): void {
    this.#reading = reading;
    this.#apply(reading);
  }

  stop(): Promise<void> {
    return this.#listener.stop(0);
  }

  #apply(reading: boolean): void {
    const socket = this.#server.socket;
    if (socket === undefined) return;
    const handle = recvHandleOf(socket);
    if (handle === undefined) return;
    if (reading) handle.recvStart();
    else handle.recvStop();
  }

  #received(message: Buffer, remote: RemoteInfo): void {
    const { stats, maxMessageSize } = this.#options;
    let last = this.#lastPeer;
    if (last === undefined || last.port !== remote.port || last.address !== remote.address) {
      last = {
        address: remote.address,
        port: remote.port,
        metadata: Object.freeze({ peer_addr: peerOf(remote.address, remote.port) }),
      };
      this.#lastPeer = last;
    }
    if (message.length > maxMessageSize) {
      stats.oversizedDatagrams++;
      this.#options.drops.countDrops('oversized_datagram', 1);
      this.#options.logger.debug(
        { peer: last.metadata['peer_addr'], bytes: message.length, maxMessageSize },
        'syslog datagram larger than max_message_size dropped',
      );
      return;
    }
    stats.frames++;
    stats.frameBytes += message.length;
    this.#options.intake.offer(message, last.metadata);
  }
}
