// DESCRIBE INGESTOR and DESCRIBE EMITTER on this node, as plain functions of what the data plane knows: the
// graph spec, the listener the ingestor is served on (its consumer for a topic ingestor; the emitter's
// sender), its ingest target
// (quiesced during a reload), the transient errors and the counters. Details carry names, addresses and settings — TLS only as true/false, never a file
// name's content, a key or a certificate.
import type { ComponentDescription, RuntimeState, TransientError } from '../core/status.js';
import { displayOf } from '../graph/display-names.js';
import type {
  DisplayNameRecords,
  GraphEmitter,
  GraphHttpIngestor,
  GraphMessageErrorPolicy,
  GraphRoute,
  GraphSyslogIngestor,
  GraphSyslogClient,
  GraphKafkaClient,
  GraphTopicIngestor,
} from '../graph/types.js';
import type { TopicConsumerView } from '../sources/kafka/topic-consumer.js';
import type { EmitterView } from '../runtime/emitter-slot.js';
import type { SyslogSlotView } from './syslog-listener-slot.js';
import type { QuiesceState } from '../sources/quiesce-buffer.js';
import type { ListenerState, ListenerStatus } from '../net/retrying-listener.js';
import type { ListenerName, TargetCounts } from '../sources/http/telemetry.js';

/** The component's resource name, and the graph's display names (decision 0025) to show it and its details. */
interface Named {
  domain: string;
  name: string;
  names?: DisplayNameRecords | undefined;
  /**
   * How the codec's JAQ program this component runs is run (its ON INGESTION program for an ingestor, ON
   * EMITTING for an emitter): `compiled to JavaScript`, or `jq-wasm: <construct> … is outside the compiled
   * subset` (program-path.ts); absent for codecs without one.
   */
  codecProgram?: string | undefined;
}

function codecProgram(view: Named): Record<string, string> {
  return view.codecProgram === undefined ? {} : { codecProgram: view.codecProgram };
}

export interface HttpIngestorView extends Named {
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
    ...names(view, 'httpIngestors'),
    graphVersion: view.graphVersion,
    state,
    transientError: listener.error ?? view.routeError,
    backoffMs: state === 'Retrying' ? (listener.status.backoffMs ?? null) : null,
    metrics: { ...view.metrics, ...requestMetrics(view.requests), ...bufferMetrics(view.target) },
    details: {
      hostnames: spec.hostnames,
      path: spec.path,
      vhost: shown(view, 'vhosts', spec.vhost),
      endpoint: shown(view, 'endpoints', spec.endpoint),
      tls: spec.tls !== undefined,
      listener: listenerDetails(listener.name, listener.status),
      codec: shown(view, 'codecs', spec.codec),
      ...codecProgram(view),
      maxBodyBytes: spec.maxBodyBytes,
      quiesce: spec.quiesce,
      routes: routeDetails(view, spec.routes),
    },
  };
}

export interface SyslogIngestorView extends Named {
  graphVersion: number;
  spec: GraphSyslogIngestor;
  client: GraphSyslogClient | undefined;
  listener: SyslogSlotView | undefined;
  metrics: Record<string, number>;
}

/** SUSPEND in effect is Suspended; a quiesced BUFFER or DROP is Quiescing; otherwise the socket's state. */
export function syslogIngestorState(listener: SyslogSlotView | undefined): RuntimeState {
  if (listener === undefined) return 'Stopped';
  if (listener.suspended) return 'Suspended';
  if (listener.quiesced) return 'Quiescing';
  return LISTENER_STATE[listener.status.state];
}

export function describeSyslogIngestor(view: SyslogIngestorView): ComponentDescription {
  const { spec, client, listener } = view;
  const state = syslogIngestorState(listener);
  return {
    domain: view.domain,
    kind: 'syslog-ingestor',
    ...names(view, 'syslogIngestors'),
    graphVersion: view.graphVersion,
    state,
    transientError: listener?.transientError ?? null,
    backoffMs: state === 'Retrying' ? (listener?.status.backoffMs ?? null) : null,
    metrics: { ...view.metrics, ...listenerMetrics(listener) },
    details: {
      client: shown(view, 'clients', spec.client),
      ...(client === undefined ? {} : clientDetails(client)),
      ...(listener === undefined
        ? {}
        : { listener: listenerDetails(client?.protocol ?? 'tcp', listener.status) }),
      codec: shown(view, 'codecs', spec.codec),
      ...codecProgram(view),
      quiesce: spec.quiesce,
      routes: routeDetails(view, spec.routes),
    },
  };
}

export interface TopicIngestorView extends Named {
  graphVersion: number;
  spec: GraphTopicIngestor;
  client: GraphKafkaClient | undefined;
  consumer: TopicConsumerView | undefined;
  metrics: Record<string, number>;
}

export function describeTopicIngestor(view: TopicIngestorView): ComponentDescription {
  const { spec, client, consumer } = view;
  const state: RuntimeState = consumer?.state ?? 'Stopped';
  return {
    domain: view.domain,
    kind: 'topic-ingestor',
    ...names(view, 'topicIngestors'),
    graphVersion: view.graphVersion,
    state,
    transientError: consumer?.transientError ?? null,
    backoffMs: state === 'Retrying' ? (consumer?.backoffMs ?? null) : null,
    metrics: { ...view.metrics, ...consumerMetrics(consumer) },
    details: {
      client: shown(view, 'kafkaClients', spec.client),
      ...(client === undefined ? {} : kafkaClientDetails(client)),
      topic: spec.topic,
      group: spec.group,
      startFrom: spec.startFrom,
      mode: spec.mode,
      ...(consumer === undefined ? {} : { partitions: consumer.partitions, lag: consumer.lag }),
      codec: shown(view, 'codecs', spec.codec),
      ...codecProgram(view),
      quiesce: spec.quiesce,
      routes: routeDetails(view, spec.routes),
    },
  };
}

export interface EmitterDescriptionView extends Named {
  graphVersion: number;
  spec: GraphEmitter;
  client: GraphSyslogClient | GraphKafkaClient | undefined;
  emitter: EmitterView | undefined;
  metrics: Record<string, number>;
}

export function describeEmitter(view: EmitterDescriptionView): ComponentDescription {
  const { spec, emitter } = view;
  const state: RuntimeState = emitter?.state ?? 'Stopped';
  return {
    domain: view.domain,
    kind: 'emitter',
    ...names(view, 'emitters'),
    graphVersion: view.graphVersion,
    state,
    transientError: emitter?.transientError ?? null,
    backoffMs: state === 'Retrying' ? (emitter?.backoffMs ?? null) : null,
    metrics: { ...view.metrics, ...emitterMetrics(emitter) },
    details: {
      from: shown(view, 'relays', spec.from),
      ...emitterTarget(view),
      codec: shown(view, 'codecs', spec.codec),
      ...codecProgram(view),
      retry: spec.retry,
      ...(spec.batch === undefined ? {} : { batch: spec.batch }),
      onMessageError: policyLabel(view, spec.onMessageError),
    },
  };
}

/** Where an emitter sends: a syslog client's address, or a Kafka client's brokers and the topic. */
function emitterTarget(view: EmitterDescriptionView): Record<string, unknown> {
  const { spec, client } = view;
  if (spec.kafka === undefined)
    return {
      client: shown(view, 'clients', spec.client),
      ...(client === undefined || !('protocol' in client) ? {} : clientDetails(client)),
    };
  return {
    client: shown(view, 'kafkaClients', spec.client),
    ...(client === undefined || !('brokers' in client) ? {} : kafkaClientDetails(client)),
    topic: spec.kafka.topic,
    ...(spec.kafka.key === undefined ? {} : { keyed: true }),
    mode: spec.mode,
  };
}

/** A Kafka client's brokers and security settings; files and passwords never. */
function kafkaClientDetails(client: GraphKafkaClient): Record<string, unknown> {
  return {
    brokers: client.brokers.map(({ host, port }) =>
      host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    ),
    clientId: client.clientId,
    securityProtocol: client.securityProtocol,
    ...(client.sasl === undefined
      ? {}
      : { saslMechanism: client.sasl.mechanism, saslUser: client.sasl.username }),
    ...(client.tls === undefined
      ? {}
      : { mutualTls: client.tls.certFile !== undefined && client.tls.keyFile !== undefined }),
  };
}

function consumerMetrics(consumer: TopicConsumerView | undefined): Record<string, number> {
  if (consumer === undefined) return {};
  const lag = Object.values(consumer.lag).reduce((sum, value) => sum + value, 0);
  return {
    messages: consumer.stats.messages,
    messages_given_away: consumer.stats.givenAway,
    in_flight: consumer.inFlight,
    commits: consumer.stats.commits,
    commit_failures: consumer.stats.commitFailures,
    rebalances: consumer.stats.rebalances,
    lag,
  };
}

/** The client's address and settings; TLS files only by name, never content. */
function clientDetails(client: GraphSyslogClient): Record<string, unknown> {
  return {
    protocol: client.protocol,
    host: client.host,
    port: client.port,
    maxMessageSize: client.maxMessageSize,
    ...(client.framing === undefined ? {} : { framing: client.framing }),
    ...(client.protocol === 'tls'
      ? { mutualTls: client.tls?.caFile !== undefined && client.tls.certFile !== undefined }
      : {}),
  };
}

function listenerMetrics(listener: SyslogSlotView | undefined): Record<string, number> {
  const stats = listener?.stats;
  if (listener === undefined || stats === undefined) return {};
  const closed = Object.entries(stats.connectionsClosed).map(([cause, count]): [string, number] => [
    `connections_closed.${cause}`,
    count,
  ]);
  return {
    connections_open: stats.connectionsOpen,
    connections_accepted: stats.connectionsAccepted,
    frames: stats.frames,
    frame_bytes: stats.frameBytes,
    empty_frames: stats.emptyFrames,
    truncated_frames: stats.truncatedFrames,
    oversized_datagrams: stats.oversizedDatagrams,
    tls_handshake_failures: stats.tlsHandshakeFailures,
    quiesce_buffered: listener.buffered.items,
    quiesce_buffered_bytes: listener.buffered.bytes,
    ...Object.fromEntries(closed),
  };
}

function emitterMetrics(emitter: EmitterView | undefined): Record<string, number> {
  if (emitter === undefined) return {};
  const status = emitter.status;
  if (status === undefined) return { held_records: emitter.held };
  return {
    queued_records: status.queuedRecords,
    queued_bytes: status.queuedBytes,
    records_sent: status.stats.recordsSent,
    frames_sent: status.stats.framesSent,
    bytes_sent: status.stats.bytesSent,
    writes: status.stats.writes,
    connects: status.stats.connects,
    connect_failures: status.stats.connectFailures,
    write_failures: status.stats.writeFailures,
    retried_batches: status.stats.retriedBatches,
    dropped_queue_full: status.stats.droppedQueueFull,
  };
}

function listenerDetails(name: string, status: ListenerStatus): Record<string, unknown> {
  return {
    name,
    address: status.address,
    ...(status.port === undefined ? {} : { port: status.port }),
    state: status.state,
  };
}

/** Each route's target relay, and where its message errors go. */
function routeDetails(view: Named, routes: readonly GraphRoute[]): { to: string; onMessageError: string }[] {
  return routes.map((route) => ({
    to: shown(view, 'relays', route.to),
    onMessageError: policyLabel(view, route.onMessageError),
  }));
}

function policyLabel(view: Named, policy: GraphMessageErrorPolicy): string {
  return policy.action === 'LOG' ? 'LOG' : `SEND TO ${shown(view, 'relays', policy.relay)}`;
}

/** `name`, and `displayName` when the graph shows the component otherwise. */
function names(
  view: Named,
  record: 'httpIngestors' | 'syslogIngestors' | 'topicIngestors' | 'emitters',
): { name: string; displayName?: string } {
  const displayName = shown(view, record, view.name);
  return displayName === view.name ? { name: view.name } : { name: view.name, displayName };
}

function shown(view: Named, record: Parameters<typeof displayOf>[1], name: string): string {
  return displayOf(view, record, name);
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
