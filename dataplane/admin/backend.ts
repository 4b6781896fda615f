// What the admin API needs from the node it serves: the metrics registry, relays to subscribe to, the
// runtime state of ingestors and emitters, and readiness. The data plane (`dataplane/node/`) implements
// it for the embedded node and for Kubernetes mode alike; the admin server knows nothing else of the node.
import type { Registry } from 'prom-client';
import type { RecordValues } from '../core/values.js';
import type { ComponentDescription, DescribedKind, HealthCheck } from '../core/status.js';

/** One subscriber to one relay, as the data plane sees it. Neither method is called before `subscribe` returns. */
export interface RelaySubscriber {
  /** Called synchronously for every record placed on the relay; must not block or throw. */
  record(record: Readonly<RecordValues>): void;
  /** The relay is gone (a reload removed it, its domain was removed, the node stops); no more records. */
  end(reason: string): void;
}

export type SubscribeResult =
  /** `shown`: the relay's name as people read it (decision 0025), for logs and the subscriber series. */
  | { ok: true; unsubscribe: () => void; shown?: string }
  | { ok: false; reason: 'unknown_domain' | 'unknown_relay'; message: string };

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
