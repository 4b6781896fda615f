// What the admin API needs from the node it serves: the metrics registry, relays to subscribe to, the
// runtime state of ingestors and emitters, and readiness. The data plane (`dataplane/node/`) implements
// it for the embedded node and for Kubernetes mode alike; the admin server knows nothing else of the node.
import type { Registry } from 'prom-client';
import type { RecordValues } from '../runtime/values.js';

/** Runtime states of ingestors and emitters (DESIGN.md §5). */
export const RUNTIME_STATES = [
  'Starting',
  'Running',
  'Quiescing',
  'Suspended',
  'Retrying',
  'Stopped',
] as const;
export type RuntimeState = (typeof RUNTIME_STATES)[number];

/** Why a component cannot do its work right now; cleared on recovery. Names and codes only, never values. */
export interface TransientError {
  /** A bounded code: `EADDRINUSE`, `ECONNREFUSED`, `tls_invalid`, … */
  code: string;
  message: string;
  /** RFC 3339 UTC, when it was first seen since the last recovery. */
  since: string;
}

export type DescribedKind = 'ingestor' | 'emitter';

/** DESCRIBE INGESTOR|EMITTER: one component on this node. */
export interface ComponentDescription {
  domain: string;
  /** `http-ingestor`, `syslog-ingestor` or `emitter`. */
  kind: 'http-ingestor' | 'syslog-ingestor' | 'emitter';
  name: string;
  /** The graph version of the domain this node runs. */
  graphVersion: number;
  state: RuntimeState;
  transientError: TransientError | null;
  /** The wait before the next attempt while Retrying, else null. */
  backoffMs: number | null;
  /**
   * Edge metrics: counters of what came in and went out, by name (`payloads`, `payload_bytes`,
   * `records_in`, `records_out`, `message_errors`, `drops`, …), and per route where there are routes.
   */
  metrics: Record<string, number>;
  /** What the kind adds: listener addresses, hosts and path, codec, routes' target relays, … */
  details: Record<string, unknown>;
}

/** One subscriber to one relay, as the data plane sees it. Neither method is called before `subscribe` returns. */
export interface RelaySubscriber {
  /** Called synchronously for every record placed on the relay; must not block or throw. */
  record(record: Readonly<RecordValues>): void;
  /** The relay is gone (a reload removed it, its domain was removed, the node stops); no more records. */
  end(reason: string): void;
}

export type SubscribeResult =
  | { ok: true; unsubscribe: () => void }
  | { ok: false; reason: 'unknown_domain' | 'unknown_relay'; message: string };

export interface HealthCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface AdminBackend {
  readonly registry: Registry;
  /**
   * Attaches a subscriber to a relay of a domain. The subscription survives hot reloads: while a relay
   * of that name exists it keeps receiving (from the new relay object when a reload replaced it).
   */
  subscribe(domain: string, relay: string, subscriber: RelaySubscriber): SubscribeResult;
  /** Undefined when the domain has no such component. */
  describe(domain: string, kind: DescribedKind, name: string): Promise<ComponentDescription | undefined>;
  /** Liveness is the admin server answering; readiness is every check ok. */
  readiness(): HealthCheck[];
}
