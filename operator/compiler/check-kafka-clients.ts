// Kafka client configuration beyond the kind's own rules (docs/language.md, "Kafka clients"): each
// bootstrap server's host is a real IPv4/IPv6 address or DNS name (SR2070, as a syslog addr is SR2031), and
// a SASL password file that the compile can read is not empty (SR2080: the brokers would refuse every
// login, and only at run time). Half-configured TLS and SASL are the kind's rules (SR2071–SR2074), which
// the compiler runs again on every object; the files themselves are check-mounts'.
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { addrProblem } from './check-syslog-clients.js';
import { bindVersion, parseMountedPath } from './resource-versions.js';

const SERVERS = 'spec.config.bootstrapServers';
const PASSWORD = 'spec.config.saslPasswordFile';

export function checkKafkaClients(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'KafkaClient') continue;
    checkServers(ctx, object);
    checkPassword(ctx, object);
  }
}

function checkServers(ctx: CompileContext, client: GraphObject<'KafkaClient'>): void {
  // A list its kind's rule already refused is not split again.
  if (ctx.hasDiagnosticAt(keyOf(client), SERVERS)) return;
  client.spec.config.bootstrapServers.forEach((server, index) => {
    const problem = addrProblem(server);
    if (problem === undefined) return;
    ctx.report(
      keyOf(client),
      'SR2070',
      `${SERVERS}[${index}]`,
      `${label(client)}: bootstrap server ${server} is malformed: ${problem}; expected host:port`,
    );
  });
}

/** The password file's text, when the compile knows the mounted version's contents. */
function passwordText(ctx: CompileContext, client: GraphObject<'KafkaClient'>): string | undefined {
  const { mount, config } = client.spec;
  const mounted =
    config.saslPasswordFile === undefined ? undefined : parseMountedPath(config.saslPasswordFile);
  if (mount === undefined || mounted === undefined || mounted.resource !== mount.resource) return undefined;
  const version = bindVersion(ctx, mount);
  if (typeof version !== 'number') return undefined;
  return ctx.resources.files(mount.resource, version)?.get(mounted.file);
}

function checkPassword(ctx: CompileContext, client: GraphObject<'KafkaClient'>): void {
  if (ctx.hasDiagnosticAt(keyOf(client), PASSWORD)) return;
  const text = passwordText(ctx, client);
  // The data plane reads the whole file and drops one trailing newline (CRLF too).
  if (text === undefined || text.replace(/\r?\n$/, '') !== '') return;
  ctx.report(
    keyOf(client),
    'SR2080',
    PASSWORD,
    `${label(client)}: sasl_password_file ${client.spec.config.saslPasswordFile ?? ''} is empty; the brokers would refuse the login — upload a version whose file holds the password`,
  );
}
