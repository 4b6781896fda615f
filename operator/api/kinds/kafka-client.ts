// KafkaClient: how to reach a Kafka cluster — its bootstrap servers, TLS and SASL (docs/language.md,
// "Kafka clients"). Topic ingestors consume with it; emitters TO KAFKA produce with it. A password is only
// ever read from a mounted file (`sasl_password_file`), never written inline (SR1020).
import { list, object, oneOf, optional, resourceVersionRef, rules, str } from '../dsl.js';
import { boundVersionsStatus } from './bound-versions-status.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';
import { ADDR_PATTERN } from './syslog-client.js';

export const KAFKA_SECURITY_PROTOCOLS = ['plaintext', 'ssl', 'sasl_plaintext', 'sasl_ssl'] as const;
export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSecurityProtocol = (typeof KAFKA_SECURITY_PROTOCOLS)[number];

/** What a client without `security_protocol` uses: Kafka's own default. */
export const DEFAULT_SECURITY_PROTOCOL: KafkaSecurityProtocol = 'plaintext';

/** client_id: the characters Kafka's quotas and metrics keep as they are, at most 255 of them. */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9._-]{1,255}$';

/** The client_id of a client that sets none (docs/language.md, "Kafka clients"). */
export function defaultClientId(domain: string, client: string): string {
  return `streamroute-${domain}-${client}`;
}

const ADDR_REGEX = new RegExp(ADDR_PATTERN);
const CLIENT_ID_REGEX = new RegExp(CLIENT_ID_PATTERN);
/** The pattern as a CEL string literal (backslashes doubled). */
const cel = (pattern: string): string => pattern.replaceAll('\\', '\\\\');

const mountedFile = (what: string) =>
  optional(
    str(`${what}. A file of the mounted resource: {{ <resource> }}/<file>.`, {
      minLength: 1,
      maxLength: 4096,
    }),
  );

type KafkaConfig = {
  bootstrapServers: string[];
  clientId?: string | undefined;
  securityProtocol?: KafkaSecurityProtocol | undefined;
  saslMechanism?: string | undefined;
  saslUsername?: string | undefined;
  saslPasswordFile?: string | undefined;
  tlsCaFile?: string | undefined;
  tlsCertFile?: string | undefined;
  tlsKeyFile?: string | undefined;
};

type TlsProperty = 'tlsCaFile' | 'tlsCertFile' | 'tlsKeyFile';
type SaslProperty = 'saslMechanism' | 'saslUsername' | 'saslPasswordFile';

/** Each property and its CONFIG key as statements write it; messages name the key. */
export const KAFKA_CONFIG_KEYS: Readonly<Record<keyof KafkaConfig, string>> = {
  bootstrapServers: 'bootstrap_servers',
  clientId: 'client_id',
  securityProtocol: 'security_protocol',
  saslMechanism: 'sasl_mechanism',
  saslUsername: 'sasl_username',
  saslPasswordFile: 'sasl_password_file',
  tlsCaFile: 'tls_ca_file',
  tlsCertFile: 'tls_cert_file',
  tlsKeyFile: 'tls_key_file',
};

const TLS_PROTOCOL_CEL =
  "has(self.securityProtocol) && (self.securityProtocol == 'ssl' || self.securityProtocol == 'sasl_ssl')";
const SASL_PROTOCOL_CEL =
  "has(self.securityProtocol) && (self.securityProtocol == 'sasl_plaintext' || self.securityProtocol == 'sasl_ssl')";

export function usesTls(config: Pick<KafkaConfig, 'securityProtocol'>): boolean {
  return config.securityProtocol === 'ssl' || config.securityProtocol === 'sasl_ssl';
}

export function usesSasl(config: Pick<KafkaConfig, 'securityProtocol'>): boolean {
  return config.securityProtocol === 'sasl_plaintext' || config.securityProtocol === 'sasl_ssl';
}

/** SR2071, one rule per key so that each names its key and points at it. */
const tlsOnlyRule = (property: TlsProperty) => ({
  rule: `(${TLS_PROTOCOL_CEL}) || !has(self.${property})`,
  message: `${KAFKA_CONFIG_KEYS[property]} is only allowed with security_protocol ssl or sasl_ssl`,
  code: 'SR2071' as const,
  holds: (self: KafkaConfig) => usesTls(self) || self[property] === undefined,
  fieldPath: `.${property}`,
});

/** SR2072: a SASL key missing with sasl_plaintext or sasl_ssl, reported at the missing key. */
const saslRequiredRule = (property: SaslProperty) => ({
  rule: `!(${SASL_PROTOCOL_CEL}) || has(self.${property})`,
  message: `${KAFKA_CONFIG_KEYS[property]} is required with security_protocol sasl_plaintext or sasl_ssl`,
  code: 'SR2072' as const,
  holds: (self: KafkaConfig) => !usesSasl(self) || self[property] !== undefined,
  fieldPath: `.${property}`,
});

/** SR2073: a SASL key with plaintext or ssl. */
const saslOnlyRule = (property: SaslProperty) => ({
  rule: `(${SASL_PROTOCOL_CEL}) || !has(self.${property})`,
  message: `${KAFKA_CONFIG_KEYS[property]} is only allowed with security_protocol sasl_plaintext or sasl_ssl`,
  code: 'SR2073' as const,
  holds: (self: KafkaConfig) => usesSasl(self) || self[property] === undefined,
  fieldPath: `.${property}`,
});

/** SR2074: the missing half of a client certificate and key (without TLS the present half is SR2071). */
const pairRule = (present: TlsProperty, missing: TlsProperty) => ({
  rule: `!(${TLS_PROTOCOL_CEL}) || !has(self.${present}) || has(self.${missing})`,
  message: `${KAFKA_CONFIG_KEYS[missing]} is required with ${KAFKA_CONFIG_KEYS[present]}`,
  code: 'SR2074' as const,
  holds: (self: KafkaConfig) => !usesTls(self) || self[present] === undefined || self[missing] !== undefined,
  fieldPath: `.${missing}`,
});

/** A bootstrap server as written: host:port, the port at most 65535. */
export function isBootstrapServer(server: string): boolean {
  return ADDR_REGEX.test(server) && Number(server.slice(server.lastIndexOf(':') + 1)) <= 65535;
}

export const kafkaConfig = rules(
  object(
    {
      bootstrapServers: list(
        str('host:port of a broker; IPv6 in brackets.', { maxLength: 300 }),
        'Brokers to bootstrap from, in order (CONFIG bootstrap_servers, comma-separated).',
        { minItems: 1, maxItems: 64 },
      ),
      clientId: optional(
        str('Kafka client.id (default streamroute-<domain>-<client>).', { maxLength: 1024 }),
      ),
      securityProtocol: optional(
        oneOf(KAFKA_SECURITY_PROTOCOLS, 'plaintext (default), ssl, sasl_plaintext or sasl_ssl.'),
      ),
      saslMechanism: optional(
        oneOf(KAFKA_SASL_MECHANISMS, 'SASL mechanism: plain, scram-sha-256 or scram-sha-512.'),
      ),
      saslUsername: optional(str('SASL user name.', { minLength: 1, maxLength: 1024 })),
      saslPasswordFile: mountedFile('SASL password (the whole file, one trailing newline ignored)'),
      tlsCaFile: mountedFile('Trust root for the brokers’ certificates (default: the system’s)'),
      tlsCertFile: mountedFile('Client certificate (mutual TLS)'),
      tlsKeyFile: mountedFile('Private key paired with tlsCertFile'),
    },
    'CONFIG { … } of a Kafka client.',
  ),
  [
    {
      rule: `self.bootstrapServers.all(s, s.matches('${cel(ADDR_PATTERN)}') && int(s.substring(s.lastIndexOf(':') + 1)) <= 65535)`,
      message:
        'bootstrap_servers must be host:port[,host:port…], each port from 1 to 65535 (IPv6 in brackets: [::1]:9092)',
      code: 'SR2070',
      holds: (self) => self.bootstrapServers.every(isBootstrapServer),
      fieldPath: '.bootstrapServers',
    },
    {
      rule: `!has(self.clientId) || self.clientId.matches('${cel(CLIENT_ID_PATTERN)}')`,
      message: "client_id must be 1 to 255 letters, digits, '.', '_' or '-'",
      code: 'SR2075',
      holds: (self) => self.clientId === undefined || CLIENT_ID_REGEX.test(self.clientId),
      fieldPath: '.clientId',
    },
    tlsOnlyRule('tlsCaFile'),
    tlsOnlyRule('tlsCertFile'),
    tlsOnlyRule('tlsKeyFile'),
    pairRule('tlsCertFile', 'tlsKeyFile'),
    pairRule('tlsKeyFile', 'tlsCertFile'),
    saslRequiredRule('saslMechanism'),
    saslRequiredRule('saslUsername'),
    saslRequiredRule('saslPasswordFile'),
    saslOnlyRule('saslMechanism'),
    saslOnlyRule('saslUsername'),
    saslOnlyRule('saslPasswordFile'),
  ],
);

export const kafkaClientKind = defineKind({
  kind: 'KafkaClient',
  plural: 'kafkaclients',
  singular: 'kafkaclient',
  shortNames: ['kfc'],
  description:
    'CREATE CLIENT … TYPE KAFKA: the brokers, TLS and SASL that topic ingestors and Kafka emitters use.',
  status: boundVersionsStatus,
  spec: object(
    {
      mount: optional(resourceVersionRef),
      config: kafkaConfig,
    },
    'A Kafka client.',
  ),
  printerColumns: [
    { name: 'Protocol', type: 'string', jsonPath: '.spec.config.securityProtocol' },
    { name: 'Bootstrap', type: 'string', jsonPath: '.spec.config.bootstrapServers' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});
