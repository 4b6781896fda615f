// How many connections the node's listeners may hold, derived from the process's file-descriptor soft limit
// (docs/runtime.md, "Connection limits"). Every accepted connection costs a descriptor, and so does every
// data-dir write, outbound emitter connection, jq worker and the admin API's own connections: if ingestion
// listeners could take them all, health checks, statements and other senders would fail with EMFILE. So a
// reserve is kept out of the ingestion listeners' reach:
//
//   L  the soft limit of open files (RLIMIT_NOFILE; Node raises it to the hard limit at start-up)
//   R  reserve                 = max(384, ⌊L / 8⌋)
//   I  ingestion, together     = max(16, min(65,536, L − R))   HTTP, HTTPS, syslog TCP and TLS listeners
//   P  one peer, per listener  = min(I, max(8, ⌈I / 10⌉))      an IPv4 address, or an IPv6 /64
//   A  admin API               = min(2,048, ⌊R / 2⌋)           subscription streams are admin connections
//   H  health listener         = 64
//
// A and H come out of R, so at least R − A − H ≥ 128 descriptors stay for everything else. I is capped at
// 65,536 because an idle connection still costs memory (a few KiB each). The limit is read from
// /proc/self/limits; where that cannot be read, L is taken as 1,024 (the usual default soft limit).
import { readFileSync } from 'node:fs';

export const ASSUMED_FD_LIMIT = 1_024;
const MIN_RESERVE = 384;
const MIN_INGEST = 16;
const MAX_INGEST = 65_536;
const MIN_PER_PEER = 8;
const MAX_ADMIN = 2_048;
export const DEFAULT_HEALTH_MAX_CONNECTIONS = 64;

export interface ConnectionDefaults {
  /** The soft limit the defaults were computed from. */
  fdLimit: number;
  /** Descriptors ingestion listeners never use. */
  reserve: number;
  /** Connections of every ingestion listener together. */
  ingest: number;
  /** Connections of one peer on one ingestion listener. */
  perPeer: number;
  admin: number;
  health: number;
}

/** The soft limit in the text of /proc/self/limits; undefined when it is not there. "unlimited" is 2^31. */
export function parseFdSoftLimit(limits: string): number | undefined {
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits);
  if (match === null) return undefined;
  return match[1] === 'unlimited' ? 2 ** 31 : Number(match[1]);
}

/** This process's soft limit of open files, or ASSUMED_FD_LIMIT where it cannot be read. */
export function fdSoftLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number {
  try {
    const limit = parseFdSoftLimit(read());
    return limit !== undefined && limit > 0 ? limit : ASSUMED_FD_LIMIT;
  } catch {
    return ASSUMED_FD_LIMIT;
  }
}

/** The default share of one peer on one listener: a tenth of the ingestion connections, at least 8. */
export function perPeerShare(maxConnections: number): number {
  return Math.min(maxConnections, Math.max(MIN_PER_PEER, Math.ceil(maxConnections / 10)));
}

export function connectionDefaults(fdLimit: number = fdSoftLimit()): ConnectionDefaults {
  const reserve = Math.max(MIN_RESERVE, Math.floor(fdLimit / 8));
  const ingest = Math.max(MIN_INGEST, Math.min(MAX_INGEST, fdLimit - reserve));
  return {
    fdLimit,
    reserve,
    ingest,
    perPeer: perPeerShare(ingest),
    admin: Math.min(MAX_ADMIN, Math.floor(reserve / 2)),
    health: DEFAULT_HEALTH_MAX_CONNECTIONS,
  };
}
