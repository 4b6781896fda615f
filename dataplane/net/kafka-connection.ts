// What a Kafka consumer or producer needs to reach a KAFKA client's brokers (docs/kafka.md, "Clients"): the
// bootstrap brokers, the client id, and for ssl/sasl_* the TLS files and the SASL password read from the
// client's mounted resource version. A file that cannot be read or used is the component's transient error
// naming the setting, the file and the reason (never its content), tried again on the component's backoff,
// as for syslog clients (a resource version can arrive after the graph that mounts it).
import { createSecureContext, type ConnectionOptions as TlsOptions } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import type { GraphKafkaClient, MountedFile } from '../graph/types.js';
import type { TlsMaterialSource } from './tls-contexts.js';
import { codeOf, mountedFileProblem, type TlsNames } from './syslog-tls-material.js';

/** Why the client's files cannot be used; `cause` is logged as a structured field. */
export interface KafkaClientProblem {
  code: 'tls_unavailable' | 'tls_invalid' | 'sasl_unavailable' | 'sasl_invalid';
  message: string;
  cause: { setting: string; file: string; reason: string };
}

/** The connection options shared by the consumer and the producer of @platformatic/kafka. */
export interface KafkaConnection {
  clientId: string;
  bootstrapBrokers: { host: string; port: number }[];
  tls?: TlsOptions;
  sasl?: { mechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; username: string; password: string };
}

export type KafkaConnectionResult = { connection: KafkaConnection } | { problem: KafkaClientProblem };

const MECHANISMS = {
  plain: 'PLAIN',
  'scram-sha-256': 'SCRAM-SHA-256',
  'scram-sha-512': 'SCRAM-SHA-512',
} as const;

type Failure = { problem: KafkaClientProblem };

/** Reads and checks the client's files; never throws. */
export function kafkaConnection(
  names: TlsNames,
  client: GraphKafkaClient,
  domain: string,
  source: TlsMaterialSource | undefined,
): KafkaConnectionResult {
  const files = new ClientFiles(names, domain, source);
  const connection: KafkaConnection = {
    clientId: client.clientId,
    bootstrapBrokers: client.brokers.map(({ host, port }) => ({ host, port })),
  };
  if (client.securityProtocol === 'ssl' || client.securityProtocol === 'sasl_ssl') {
    const tls = files.tls(client.tls ?? {});
    if ('problem' in tls) return tls;
    connection.tls = tls;
  }
  if (client.sasl !== undefined) {
    const password = files.password(client.sasl.passwordFile);
    if (typeof password !== 'string') return password;
    const { mechanism, username } = client.sasl;
    connection.sasl = { mechanism: MECHANISMS[mechanism], username, password };
  }
  return { connection };
}

/** Reads the files of one client, each failure named by its setting. */
class ClientFiles {
  constructor(
    readonly names: TlsNames,
    readonly domain: string,
    readonly source: TlsMaterialSource | undefined,
  ) {}

  tls(tls: NonNullable<GraphKafkaClient['tls']>): TlsOptions | Failure {
    const options: TlsOptions = {};
    const files: [string, MountedFile | undefined, 'ca' | 'cert' | 'key', string][] = [
      ['tls_ca_file', tls.caFile, 'ca', 'a PEM CA certificate'],
      ['tls_cert_file', tls.certFile, 'cert', 'a PEM certificate'],
      ['tls_key_file', tls.keyFile, 'key', 'the PEM private key of tls_cert_file'],
    ];
    for (const [setting, file, slot, expected] of files) {
      if (file === undefined) continue;
      const bytes = this.read(setting, file, 'tls_unavailable');
      if (!Buffer.isBuffer(bytes)) return bytes;
      options[slot] = bytes;
      const failed = usable(() =>
        slot === 'key' ? createSecureContext({ cert: options.cert, key: bytes }) : new X509Certificate(bytes),
      );
      if (failed !== undefined) {
        return this.fail(setting, file, 'tls_invalid', `cannot be used (${failed}); expected ${expected}`);
      }
    }
    return options;
  }

  password(file: MountedFile): string | Failure {
    const bytes = this.read('sasl_password_file', file, 'sasl_unavailable');
    if (!Buffer.isBuffer(bytes)) return bytes;
    return (
      passwordText(bytes) ??
      this.fail('sasl_password_file', file, 'sasl_invalid', 'cannot be used; expected one line of UTF-8 text')
    );
  }

  read(setting: string, file: MountedFile, code: KafkaClientProblem['code']): Buffer | Failure {
    try {
      if (this.source === undefined) throw Object.assign(new Error('no resources'), { code: 'ENORESOURCES' });
      return this.source.readMountedFile(file, this.domain);
    } catch (error: unknown) {
      return this.fail(setting, file, code, `cannot be read (${codeOf(error)})`);
    }
  }

  fail(setting: string, file: MountedFile, code: KafkaClientProblem['code'], reason: string): Failure {
    const what = `kafka client ${this.names.client}: configuration failed`;
    return { problem: mountedFileProblem({ what, names: this.names }, code, { setting, file }, reason) };
  }
}

/** The code of what `use` threw, or undefined when it did not throw. */
function usable(use: () => unknown): string | undefined {
  try {
    use();
    return undefined;
  } catch (error: unknown) {
    return codeOf(error);
  }
}

/** The password a file holds: UTF-8 on one line, one trailing line break (LF or CRLF) not part of it. */
function passwordText(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const password = text.replace(/\r?\n$/, '');
  return password === '' || /[\r\n]/.test(password) ? undefined : password;
}
