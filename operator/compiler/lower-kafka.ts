// Kafka lowered (docs/compiler.md, "The Graph"; the contract in dataplane/graph/types.ts): bootstrap
// servers split into host and port, the client_id and security protocol defaults filled in, SASL and TLS
// grouped with their files bound to a version, and an emitter's KEY as a typed expression tree.
import type {
  GraphEmitter,
  GraphKafkaClient,
  GraphTopicIngestor,
  KafkaSaslMechanism,
} from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import { DEFAULT_SECURITY_PROTOCOL, defaultClientId, usesSasl, usesTls } from '../api/kinds/kafka-client.js';
import { splitAddr } from './check-syslog-clients.js';
import { keyOf, type CompileContext } from './context.js';
import { required } from './internal-error.js';
import { lowerRoutes, stripSpans } from './lower-routes.js';
import { defined, mountedFile, mountVersion } from './lower-sources.js';

export function lowerKafkaClient(ctx: CompileContext, client: GraphObject<'KafkaClient'>): GraphKafkaClient {
  const { config, mount } = client.spec;
  const version = mountVersion(ctx, client, mount);
  const securityProtocol = config.securityProtocol ?? DEFAULT_SECURITY_PROTOCOL;
  const tls = defined({
    caFile: mountedFile(client, config.tlsCaFile, version),
    certFile: mountedFile(client, config.tlsCertFile, version),
    keyFile: mountedFile(client, config.tlsKeyFile, version),
  });
  return defined({
    brokers: config.bootstrapServers.map(splitAddr),
    clientId: config.clientId ?? defaultClientId(ctx.domain, client.metadata.name),
    securityProtocol,
    sasl: usesSasl({ securityProtocol }) ? lowerSasl(client, version) : undefined,
    // An ssl client without files still runs TLS (trusting the system's roots): `tls` then stays out.
    tls: usesTls({ securityProtocol }) && Object.keys(tls).length > 0 ? tls : undefined,
    mount: mount && { resource: mount.resource, version: required(version, client, 'its mounted version') },
  });
}

function lowerSasl(
  client: GraphObject<'KafkaClient'>,
  version: number | undefined,
): GraphKafkaClient['sasl'] {
  const { config } = client.spec;
  return {
    mechanism: required<KafkaSaslMechanism>(config.saslMechanism, client, 'its sasl_mechanism'),
    username: required(config.saslUsername, client, 'its sasl_username'),
    passwordFile: required(
      mountedFile(client, config.saslPasswordFile, version),
      client,
      'its sasl_password_file',
    ),
  };
}

export function lowerTopicIngestor(
  ctx: CompileContext,
  ingestor: GraphObject<'TopicIngestor'>,
): GraphTopicIngestor {
  const { spec } = ingestor;
  // BUFFER is refused by the kind's own rule, so an accepted ingestor never holds it.
  const { action } = spec.quiesce;
  const quiesce = required(action === 'BUFFER' ? undefined : action, ingestor, 'ON QUIESCE SUSPEND or DROP');
  return {
    client: spec.client,
    topic: spec.topic,
    group: spec.group,
    startFrom: spec.startFrom,
    mode: spec.mode,
    quiesce: { action: quiesce },
    codec: spec.codec,
    routes: lowerRoutes(ctx, ingestor),
    onGeneralError: spec.onGeneralError,
  };
}

/** An emitter's `kafka` part: its topic and typed KEY; undefined for a syslog emitter. */
export function lowerKafkaTarget(
  ctx: CompileContext,
  emitter: GraphObject<'Emitter'>,
): GraphEmitter['kafka'] {
  const { to } = emitter.spec;
  if (to.type !== 'KAFKA') return undefined;
  const topic = required(to.topic, emitter, 'its TOPIC');
  if (to.key === undefined) return { topic };
  const key = required(ctx.getTyped(keyOf(emitter), 'spec.to.key'), emitter, 'its typed KEY');
  return { topic, key: stripSpans(key) };
}
