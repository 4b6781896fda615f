// The connection limits of one listener (docs/runtime.md, "Connection limits"), checked the moment a
// connection is accepted, before any byte of it is read:
//
//   peer_limit      one peer (an IPv4 address, or an IPv6 /64: one host holds a whole /64) already holds
//                   `maxPerPeer` connections here, so one flooder cannot take the listener from other senders
//   listener_limit  the listener holds `maxConnections`
//   node_limit      the pool shared by the node's ingestion listeners is used up (the descriptors it leaves
//                   free are the reserve of the admin API, data-dir writes and outbound emitters)
//
// A refused connection is destroyed at once (its descriptor is free again within the same tick), counted
// and logged rate-limited by ConnectionTelemetry. An admitted one gives its places back when it closes.
import { isIPv4, type Socket } from 'node:net';
import type { ConnectionTelemetry, RefusalReason } from './connection-telemetry.js';

/** Places shared by several listeners (the node's ingestion listeners). */
export class ConnectionPool {
  #open = 0;

  constructor(readonly max: number) {
    if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`a pool needs max >= 1, got ${max}`);
  }

  get open(): number {
    return this.#open;
  }

  take(): boolean {
    if (this.#open >= this.max) return false;
    this.#open++;
    return true;
  }

  give(): void {
    this.#open--;
  }
}

export interface GateLimits {
  /** Connections this listener holds at most. */
  maxConnections: number;
  /** Connections one peer holds at most on this listener (default: maxConnections, no fairness). */
  maxPerPeer?: number;
  /** Shared with other listeners. */
  pool?: ConnectionPool;
}

/** Sockets a gate refused, so that the errors their destruction causes (TLS: ECONNRESET) are not counted. */
const REFUSED = new WeakSet<object>();

/** Whether `socket` (or the TCP socket beneath a TLS socket) was refused by a gate. */
export function wasRefused(socket: object): boolean {
  return REFUSED.has(socket) || REFUSED.has((socket as { _parent?: object })._parent ?? socket);
}

export class ConnectionGate {
  readonly #limits: Required<Omit<GateLimits, 'pool'>> & Pick<GateLimits, 'pool'>;
  readonly #telemetry: ConnectionTelemetry;
  readonly #peers = new Map<string, number>();
  readonly #detach: () => void;
  #open = 0;

  constructor(limits: GateLimits, telemetry: ConnectionTelemetry) {
    const { maxConnections } = limits;
    if (!(Number.isInteger(maxConnections) && maxConnections >= 1))
      throw new RangeError(`maxConnections must be an integer >= 1, got ${maxConnections}`);
    const maxPerPeer = Math.min(limits.maxPerPeer ?? maxConnections, maxConnections);
    if (!(Number.isInteger(maxPerPeer) && maxPerPeer >= 1))
      throw new RangeError(`maxPerPeer must be an integer >= 1, got ${maxPerPeer}`);
    this.#limits = {
      maxConnections,
      maxPerPeer,
      ...(limits.pool === undefined ? {} : { pool: limits.pool }),
    };
    this.#telemetry = telemetry;
    this.#detach = telemetry.watchOpen(() => this.#open);
  }

  get open(): number {
    return this.#open;
  }

  get telemetry(): ConnectionTelemetry {
    return this.#telemetry;
  }

  /** Connections held now by the peer of `address`. */
  heldBy(address: string | undefined): number {
    return this.#peers.get(peerKey(address)) ?? 0;
  }

  /** Takes the connection's places, or destroys it and counts why. Call on `connection`, before anything else. */
  admit(socket: Socket): boolean {
    const peer = peerKey(socket.remoteAddress);
    const held = this.#peers.get(peer) ?? 0;
    const reason = this.#refusal(held);
    if (reason !== undefined) {
      REFUSED.add(socket);
      socket.destroy();
      this.#telemetry.refused(reason);
      return false;
    }
    this.#open++;
    this.#peers.set(peer, held + 1);
    socket.once('close', () => this.#release(peer));
    return true;
  }

  /** Stops reporting this listener's open connections (the listener is gone). */
  detach(): void {
    this.#detach();
  }

  #refusal(held: number): RefusalReason | undefined {
    const { maxPerPeer, maxConnections } = this.#limits;
    // A share as large as the listener's limit is no share: that limit is what refuses.
    if (maxPerPeer < maxConnections && held >= maxPerPeer) return 'peer_limit';
    if (this.#open >= this.#limits.maxConnections) return 'listener_limit';
    if (this.#limits.pool !== undefined && !this.#limits.pool.take()) return 'node_limit';
    return undefined;
  }

  #release(peer: string): void {
    this.#open--;
    this.#limits.pool?.give();
    const held = (this.#peers.get(peer) ?? 1) - 1;
    if (held > 0) this.#peers.set(peer, held);
    else this.#peers.delete(peer);
  }
}

/**
 * What connections of one peer have in common: the IPv4 address (also when written IPv4-mapped), or the
 * first 64 bits of an IPv6 address.
 */
export function peerKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const plain = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('%')[0]!.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = Math.max(0, 8 - front.length - back.length);
  const groups = tail === undefined ? front : [...front, ...Array<string>(missing).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
