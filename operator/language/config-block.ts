// CONFIG { 'key' = value, … } blocks: the keys each block accepts, the spec field each key becomes, and
// the problems a block can have on its own (unknown key SR1005, bad number SR1006, repeated key SR1016,
// a secret written inline SR1020). Other values are kept as written so the kind's validation reports
// them key by key.
import type { ConfigKeys, Leaf, RawConfig } from './raw-syntax.js';

interface KeyRule {
  field: string;
  /** The value is a whole number (quoted or bare). */
  number?: true;
  /** The value is a comma-separated list, kept as a list of its trimmed items. */
  list?: true;
}

export const CONFIG_KEYS: Readonly<Record<ConfigKeys, Readonly<Record<string, KeyRule>>>> = {
  syslog: {
    protocol: { field: 'protocol' },
    addr: { field: 'addr' },
    max_message_size: { field: 'maxMessageSize', number: true },
    framing: { field: 'framing' },
    tls_cert_file: { field: 'tlsCertFile' },
    tls_key_file: { field: 'tlsKeyFile' },
    tls_ca_file: { field: 'tlsCaFile' },
  },
  kafka: {
    bootstrap_servers: { field: 'bootstrapServers', list: true },
    client_id: { field: 'clientId' },
    security_protocol: { field: 'securityProtocol' },
    sasl_mechanism: { field: 'saslMechanism' },
    sasl_username: { field: 'saslUsername' },
    sasl_password_file: { field: 'saslPasswordFile' },
    tls_ca_file: { field: 'tlsCaFile' },
    tls_cert_file: { field: 'tlsCertFile' },
    tls_key_file: { field: 'tlsKeyFile' },
  },
  'vhost-tls': {
    tls_cert_file: { field: 'certFile' },
    tls_key_file: { field: 'keyFile' },
  },
  protobuf: {
    file: { field: 'file' },
    include: { field: 'include' },
  },
};

/**
 * Keys that would put a secret into the statement text (and from there into the resource, SHOW CREATE
 * and etcd), with the key that reads it from a mounted file instead.
 */
const INLINE_SECRETS: Readonly<Partial<Record<ConfigKeys, Readonly<Record<string, string>>>>> = {
  kafka: { sasl_password: 'sasl_password_file' },
};

const OWNERS: Record<ConfigKeys, string> = {
  syslog: 'a syslog client',
  kafka: 'a Kafka client',
  'vhost-tls': 'a vhost’s TLS',
  protobuf: 'a PROTOBUF codec',
};

export interface ConfigField {
  field: string;
  value: unknown;
  /** The value, for locations. */
  leaf: Leaf;
}

export interface ConfigProblem {
  code: 'SR1005' | 'SR1006' | 'SR1016' | 'SR1020';
  message: string;
  /** The entry's key or value. */
  leaf: Leaf;
  /** The spec field concerned, when the key is known. */
  field?: string;
  /** For a repeated key: where it was first given. */
  first?: Leaf;
}

export function readConfig(config: RawConfig): { fields: ConfigField[]; problems: ConfigProblem[] } {
  const rules = CONFIG_KEYS[config.keys];
  const seen = new Map<string, Leaf>();
  const fields: ConfigField[] = [];
  const problems: ConfigProblem[] = [];
  for (const { key, value } of config.entries) {
    const name = String(key.value);
    const rule = rules[name];
    const first = seen.get(name);
    const secretFile = INLINE_SECRETS[config.keys]?.[name];
    if (secretFile !== undefined) {
      problems.push({
        code: 'SR1020',
        message: `CONFIG '${name}' would keep a secret in the statement, the resource and SHOW CREATE: upload it as a file of a resource, MOUNT that resource and set '${secretFile}' = '{{ <resource> }}/<file>'`,
        leaf: key,
      });
    } else if (rule === undefined) {
      const known = Object.keys(rules).join(', ');
      problems.push({
        code: 'SR1005',
        message: `unknown CONFIG key '${name}': ${OWNERS[config.keys]} takes ${known}`,
        leaf: key,
      });
    } else if (first !== undefined) {
      problems.push({
        code: 'SR1016',
        message: `CONFIG key '${name}' is given twice`,
        leaf: key,
        field: rule.field,
        first,
      });
    } else {
      seen.set(name, key);
      const read = readValue(name, rule, value);
      if (read.problem !== undefined) problems.push(read.problem);
      else fields.push({ field: rule.field, value: read.value, leaf: value });
    }
  }
  return { fields, problems };
}

function readValue(key: string, rule: KeyRule, leaf: Leaf): { value?: unknown; problem?: ConfigProblem } {
  const text = String(leaf.value);
  if (rule.list !== undefined) return { value: text.split(',').map((item) => item.trim()) };
  if (rule.number === undefined) return { value: text };
  if (/^[0-9]+$/.test(text) && Number.isSafeInteger(Number(text))) return { value: Number(text) };
  return {
    problem: {
      code: 'SR1006',
      message: `CONFIG '${key}' must be a whole number of bytes, such as 65536 (found '${text}')`,
      leaf,
      field: rule.field,
    },
  };
}
