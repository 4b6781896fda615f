// The columns `-o wide` adds to SHOW, per kind (as kubectl's wide columns add what a narrow terminal can do
// without): the policies and limits that the plain table leaves out. Values are spec facts only, so the
// node and a cluster print the same.
import type { GraphKind, SpecByKind } from '../api/index.js';
import type { MessageErrorPolicy, Route } from '../api/common.js';
import { DEFAULT_MAX_PENDING } from '../api/kinds/correlator.js';
import { identifier } from '../language/print-literals.js';

/** A reference's display name, as seen from the object holding it (decision 0025). */
export type Ref = (kind: GraphKind, name: string) => string;

export type Column<K extends GraphKind> = readonly [
  header: string,
  value: (spec: SpecByKind[K], ref: Ref) => string,
];

const orDash = (text: string | undefined): string => (text === undefined || text === '' ? '-' : text);

function errorPolicy(policy: MessageErrorPolicy, ref: Ref): string {
  return policy.action === 'SEND_TO' ? `SEND TO ${ref('Relay', policy.relay ?? '?')}` : policy.action;
}

/** Each route's ON MESSAGE ERROR, in route order: `LOG`, `SEND TO errors`. */
const onError = (spec: { routes: readonly Route[] }, ref: Ref): string =>
  spec.routes.map((route) => errorPolicy(route.onMessageError, ref)).join(', ');

function quiesce(
  spec: SpecByKind['HttpIngestor'] | SpecByKind['SyslogIngestor'] | SpecByKind['TopicIngestor'],
): string {
  const { action, maxSize, onOverflow } = spec.quiesce;
  const size = maxSize === undefined ? '' : ` MAX SIZE ${maxSize}`;
  const overflow = onOverflow === undefined ? '' : ` ON OVERFLOW ${onOverflow.replace('_', ' ')}`;
  return `${action}${size}${overflow}`;
}

const timeout = (side: { action: string; relay?: string | undefined }, ref: Ref): string =>
  side.action === 'SEND_TO' ? `SEND TO ${ref('Relay', side.relay ?? '?')}` : side.action;

export const WIDE_COLUMNS: { [K in GraphKind]: readonly Column<K>[] } = {
  Schema: [
    [
      'SENSITIVE',
      (spec) =>
        orDash(
          spec.fields
            .filter((field) => field.sensitive === true)
            .map((field) => identifier(field.name))
            .join(', '),
        ),
    ],
  ],
  WireSchema: [['MODE', (spec) => spec.mode]],
  Resource: [],
  Codec: [
    ['JAQ', (spec) => (spec.jaq === undefined ? '-' : spec.jaq.emitting === undefined ? 'in' : 'in, out')],
  ],
  Relay: [],
  Vhost: [['CERTIFICATE', (spec) => orDash(spec.tls?.secretName ?? spec.tls?.certFile)]],
  Endpoint: [['TYPE', (spec) => spec.type]],
  // Both client kinds share SHOW CLIENTS, so they have the same columns (`-` where one does not apply).
  SyslogClient: [
    ['FRAMING', (spec) => orDash(spec.config.framing)],
    ['MAX MESSAGE SIZE', (spec) => orDash(spec.config.maxMessageSize?.toString())],
    ['CLIENT ID', () => '-'],
    ['SASL', () => '-'],
  ],
  KafkaClient: [
    ['FRAMING', () => '-'],
    ['MAX MESSAGE SIZE', () => '-'],
    ['CLIENT ID', (spec) => orDash(spec.config.clientId)],
    [
      'SASL',
      (spec) =>
        spec.config.saslMechanism === undefined
          ? '-'
          : `${spec.config.saslMechanism} ${spec.config.saslUsername ?? '?'}`,
    ],
  ],
  HttpIngestor: [
    ['MODE', (spec) => spec.mode],
    ['ON QUIESCE', quiesce],
    ['ON MESSAGE ERROR', onError],
  ],
  SyslogIngestor: [
    ['MODE', (spec) => spec.mode],
    ['ON QUIESCE', quiesce],
    ['ON MESSAGE ERROR', onError],
  ],
  TopicIngestor: [
    ['MODE', (spec) => spec.mode],
    ['ON QUIESCE', quiesce],
    ['ON MESSAGE ERROR', onError],
  ],
  Junction: [['ON MESSAGE ERROR', onError]],
  Correlator: [
    ['MATCH', (spec) => spec.match],
    ['MAX TIME', (spec) => spec.maxTime],
    ['MAX PENDING', (spec) => String(spec.maxPending ?? DEFAULT_MAX_PENDING)],
    [
      'ON TIMEOUT',
      (spec, ref) => `${timeout(spec.onTimeout.left, ref)}, ${timeout(spec.onTimeout.right, ref)}`,
    ],
  ],
  Emitter: [
    ['RETRY', (spec) => `BACKOFF ${spec.retry.backoff} MAX ${spec.retry.max}`],
    ['BATCH', (spec) => (spec.batch === undefined ? '-' : `${spec.batch.maxSize} / ${spec.batch.maxTime}`)],
    ['ON MESSAGE ERROR', (spec, ref) => errorPolicy(spec.onMessageError, ref)],
  ],
};
