// DESCRIBE INGESTOR on this node, as plain functions of what the data plane knows: the graph spec, the
// listener the ingestor is served on, its ingest target (quiesced during a reload), the transient errors
// and the counters. Details carry names, addresses and settings — TLS only as true/false, never a file
// name's content, a key or a certificate.
import type { ComponentDescription, RuntimeState, TransientError } from '../admin/backend.js';
import type {
  GraphHttpIngestor,
  GraphRoute,
  GraphSyslogIngestor,
  GraphSyslogClient,
} from '../graph/types.js';
import type { QuiesceState } from '../sources/quiesce-buffer.js';
import type { ListenerState, ListenerStatus } from '../sources/retrying-listener.js';
import type { ListenerName, TargetCounts } from '../sources/http/telemetry.js';

export interface HttpIngestorView {
  domain: string;
  name: string;
  graphVersion: number;
  spec: GraphHttpIngestor;
  target: { state: QuiesceState; buffered: { items: number; bytes: number } } | undefined;
  listener: { name: ListenerName; status: ListenerStatus; error: TransientError | null };
  /** The ingestor's route is not (fully) served: `tls_unavailable`, `route_conflict`, … */
  routeError: TransientError | null;
  metrics: Record<string, number>;
  requests: TargetCounts;
}

const LISTENER_STATE: Record<ListenerState, RuntimeState> = {
  Starting: 'Starting',
  Running: 'Running',
  Retrying: 'Retrying',
  Stopped: 'Stopped',
};

/** A quiesced or draining target is Quiescing whatever its listener does; otherwise the listener's state. */
export function httpIngestorState(listener: ListenerState, target: QuiesceState | undefined): RuntimeState {
  if (target === 'quiesced' || target === 'draining') return 'Quiescing';
  if (target === 'stopped') return 'Stopped';
  return LISTENER_STATE[listener];
}

export function describeHttpIngestor(view: HttpIngestorView): ComponentDescription {
  const { spec, listener } = view;
  const state = httpIngestorState(listener.status.state, view.target?.state);
  return {
    domain: view.domain,
    kind: 'http-ingestor',
    name: view.name,
    graphVersion: view.graphVersion,
    state,
    transientError: listener.error ?? view.routeError,
    backoffMs: state === 'Retrying' ? (listener.status.backoffMs ?? null) : null,
    metrics: { ...view.metrics, ...requestMetrics(view.requests), ...bufferMetrics(view.target) },
    details: {
      hostnames: spec.hostnames,
      path: spec.path,
      vhost: spec.vhost,
      endpoint: spec.endpoint,
      tls: spec.tls !== undefined,
      listener: listenerDetails(listener.name, listener.status),
      codec: spec.codec,
      maxBodyBytes: spec.maxBodyBytes,
      quiesce: spec.quiesce,
      routes: routeDetails(spec.routes),
    },
  };
}

export interface SyslogIngestorView {
  domain: string;
  name: string;
  graphVersion: number;
  spec: GraphSyslogIngestor;
  client: GraphSyslogClient | undefined;
  metrics: Record<string, number>;
}

/**
 * Syslog listeners are not part of this data plane yet: the ingestor is built (its routes and codec run
 * when a source calls it) but nothing receives for it, so it is Stopped and says why.
 */
export function describeSyslogIngestor(view: SyslogIngestorView): ComponentDescription {
  const { spec, client } = view;
  return {
    domain: view.domain,
    kind: 'syslog-ingestor',
    name: view.name,
    graphVersion: view.graphVersion,
    state: 'Stopped',
    transientError: null,
    backoffMs: null,
    metrics: view.metrics,
    details: {
      client: spec.client,
      ...(client === undefined ? {} : { protocol: client.protocol, host: client.host, port: client.port }),
      codec: spec.codec,
      quiesce: spec.quiesce,
      routes: routeDetails(spec.routes),
      listener: 'none: this data plane has no syslog listener yet',
    },
  };
}

function listenerDetails(name: ListenerName, status: ListenerStatus): Record<string, unknown> {
  return {
    name,
    address: status.address,
    ...(status.port === undefined ? {} : { port: status.port }),
    state: status.state,
  };
}

/** Each route's target relay, and where its message errors go. */
function routeDetails(routes: readonly GraphRoute[]): { to: string; onMessageError: string }[] {
  return routes.map((route) => ({
    to: route.to,
    onMessageError: route.onMessageError.action === 'LOG' ? 'LOG' : `SEND TO ${route.onMessageError.relay}`,
  }));
}

function requestMetrics(counts: TargetCounts): Record<string, number> {
  return {
    requests_accepted: counts.accepted,
    request_bytes: counts.bytes,
    requests_too_large: counts.tooLarge,
    requests_aborted: counts.aborted,
    requests_failed: counts.deliverFailed,
  };
}

function bufferMetrics(target: HttpIngestorView['target']): Record<string, number> {
  if (target === undefined) return {};
  return { quiesce_buffered: target.buffered.items, quiesce_buffered_bytes: target.buffered.bytes };
}
