// The status vocabulary every part of the data plane reports in: runtime states of ingestors and
// emitters, transient errors, a component's description, and readiness checks. The admin API, the node
// reports to the operator and the CLI all read these shapes.

/** Runtime states of ingestors and emitters (docs/admin-api.md, "Runtime states"). */
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
  /** `http-ingestor`, `syslog-ingestor`, `topic-ingestor` or `emitter`. */
  kind: 'http-ingestor' | 'syslog-ingestor' | 'topic-ingestor' | 'emitter';
  /** The resource name: the component's identity (node reports, the admin API's paths). */
  name: string;
  /**
   * The name as people read it when it is not `name`: the identifier a statement wrote
   * (docs/decisions/0025-names-as-typed.md). Its metrics are counted under this name.
   */
  displayName?: string;
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

export interface HealthCheck {
  name: string;
  ok: boolean;
  detail: string;
}
