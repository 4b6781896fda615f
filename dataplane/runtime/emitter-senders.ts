// How an EmitterSlot (emitter-slot.ts) makes its sender: for an emitter TO SYSLOG a SyslogEmitter with the
// syslog client's TLS files, for an emitter TO KAFKA a KafkaEmitter with the Kafka client's connection
// (TLS files, SASL password). Both read the client's mounted files each time they are asked, so a
// resource version that arrives after the graph is picked up on the emitter's next retry.
import type { Codec } from '../codecs/codec.js';
import type { Clock } from '../core/clock.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { Instant } from '../core/values.js';
import { KafkaEmitter } from '../emitters/kafka-emitter.js';
import { SyslogEmitter, type Resolver } from '../emitters/syslog-emitter.js';
import type { HandleFailure } from '../flow/error-policy.js';
import type {
  DisplayNameRecords,
  GraphEmitter,
  GraphKafkaClient,
  GraphSyslogClient,
} from '../graph/types.js';
import { kafkaConnection } from '../net/kafka-connection.js';
import { readSyslogTls, tlsNames } from '../net/syslog-tls-material.js';
import type { TlsMaterialSource } from '../net/tls-contexts.js';
import type { Logger } from 'pino';
import type { EmitterParts } from './emitter-slot.js';

export interface SenderDeps {
  domain: string;
  /** The emitter's name as people read it. */
  name: string;
  spec: GraphEmitter;
  codec: Codec;
  onMessageError: HandleFailure;
  telemetry: ComponentTelemetry;
  /** The graph's display names, for the client and resources its errors name (decision 0025). */
  names: DisplayNameRecords | undefined;
  tls: TlsMaterialSource | undefined;
  logger: Logger;
  clock: Clock;
  now: () => Instant;
  resolve: Resolver | undefined;
}

export function syslogSender(client: GraphSyslogClient, deps: SenderDeps): EmitterParts['open'] {
  const names = tlsNames(deps.names, deps.spec.client);
  return () => {
    const read = readSyslogTls(names, client, deps.domain, deps.tls);
    if ('problem' in read) return read;
    const sender = new SyslogEmitter({
      ...common(deps),
      client,
      ...(read.files === undefined ? {} : { tls: read.files }),
      ...(deps.resolve === undefined ? {} : { resolve: deps.resolve }),
    });
    return { sender };
  };
}

export function kafkaSender(client: GraphKafkaClient, deps: SenderDeps): EmitterParts['open'] {
  const names = tlsNames(deps.names, deps.spec.client, 'kafkaClients');
  return () => {
    const read = kafkaConnection(names, client, deps.domain, deps.tls);
    if ('problem' in read) return read;
    const sender = new KafkaEmitter({
      ...common(deps),
      client,
      clientName: names.client,
      connection: read.connection,
      now: deps.now,
    });
    return { sender };
  };
}

function common(deps: SenderDeps) {
  const { domain, name, spec, codec, onMessageError, telemetry, logger, clock } = deps;
  return { domain, name, spec, codec, onMessageError, telemetry, logger, clock };
}
