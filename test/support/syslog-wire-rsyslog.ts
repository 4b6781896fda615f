// rsyslog as a wire peer: a receiver (imudp, imtcp plain or TLS through the ossl or gtls driver, with or
// without client certificates) writing each field separately with a list template, and a sender (omfwd
// with RSYSLOG_SyslogProtocol23Format over UDP, TCP octet-counted or LF, TLS).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Daemon, RSYSLOGD, daemonDir, freeUdpPort } from './syslog-peers.js';
import {
  WireReceiver,
  WireSender,
  outputFile,
  portsFor,
  started,
  type ReceivedFields,
  type ReceiverInput,
  type ReceiverTls,
  type SenderOutput,
  type TlsFiles,
} from './syslog-wire-peer.js';

/** rsyslog's name of each field, in template order. */
const RSYSLOG_PROPERTIES: [keyof ReceivedFields, string, string][] = [
  ['pri', 'pri', ''],
  ['timestamp', 'timereported', ' dateFormat="rfc3339"'],
  ['hostname', 'hostname', ''],
  ['app_name', 'app-name', ''],
  ['proc_id', 'procid', ''],
  ['msg_id', 'msgid', ''],
  ['structured_data', 'structured-data', ''],
  ['message', 'msg', ''],
];

/** Each field on its own, JSON-escaped (format="json"); the time as RFC 3339 with rsyslog's microseconds. */
const RSYSLOG_FIELDS_TEMPLATE = [
  'template(name="fields" type="list") {',
  ...RSYSLOG_PROPERTIES.map(
    ([field, property, options], index) =>
      `  constant(value="${index === 0 ? '{' : '\\",'}\\"${field}\\":\\"") property(name="${property}"${options} format="json")`,
  ),
  '  constant(value="\\"}\\n")',
  '}',
];

function rsyslogTlsGlobals(dir: string, tls: TlsFiles | undefined): string {
  const files =
    tls === undefined
      ? ''
      : ` defaultNetstreamDriverCAFile="${tls.ca}" defaultNetstreamDriverCertFile="${tls.cert}" defaultNetstreamDriverKeyFile="${tls.key}"`;
  return `global(workDirectory="${dir}" maxMessageSize="256k" parser.escapeControlCharactersOnReceive="off"${files})`;
}

function rsyslogInput(id: number, input: ReceiverInput, port: number): string {
  if (input.transport === 'udp') {
    return `input(type="imudp" address="127.0.0.1" port="${port}" ruleset="r${id}")`;
  }
  const base = `input(type="imtcp" address="${input.address ?? '127.0.0.1'}" port="${port}" ruleset="r${id}"`;
  if (input.transport === 'tcp') return `${base} streamDriver.mode="0")`;
  const auth = input.mutual === true ? 'x509/certvalid' : 'anon';
  return `${base} streamDriver.name="${input.driver ?? 'ossl'}" streamDriver.mode="1" streamDriver.authMode="${auth}")`;
}

function startRsyslogDaemon(name: string, dir: string, config: string[]): Daemon {
  writeFileSync(join(dir, 'rsyslog.conf'), `${config.join('\n')}\n`);
  const args = ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')];
  return Daemon.start({ name, dir, binary: RSYSLOGD, args });
}

/** rsyslogd -n receiving on every input; each writes to its file with the fields template. */
export async function startRsyslogReceiver(
  inputs: Record<string, ReceiverInput>,
  tls?: ReceiverTls,
): Promise<WireReceiver> {
  const dir = daemonDir('rsyslog-receiver');
  const ports = await portsFor(inputs);
  const entries = Object.entries(inputs);
  const config = [
    rsyslogTlsGlobals(dir, tls),
    'module(load="imudp")',
    'module(load="imtcp" maxSessions="100")',
    ...RSYSLOG_FIELDS_TEMPLATE,
    ...entries.map(([name, input], id) => rsyslogInput(id, input, ports[name] ?? 0)),
    ...entries.map(
      ([name], id) =>
        `ruleset(name="r${id}") { action(type="omfile" file="${outputFile(dir, name)}" template="fields") }`,
    ),
  ];
  const daemon = startRsyslogDaemon('rsyslogd (receiver)', dir, config);
  const receiver = new WireReceiver(daemon, ports);
  return started(receiver, () => receiver.probe(inputs, tls && { ...tls, ...tls.client }));
}

function rsyslogOutput(output: SenderOutput): string {
  const base = `action(type="omfwd" target="127.0.0.1" port="${output.port}" protocol="${output.transport === 'udp' ? 'udp' : 'tcp'}" template="RSYSLOG_SyslogProtocol23Format" action.resumeRetryCount="-1" action.resumeInterval="1"`;
  if (output.transport === 'udp') return `${base})`;
  const framing = `TCP_Framing="${output.framing === 'lf' ? 'traditional' : 'octet-counted'}"`;
  if (output.transport === 'tcp') return `${base} ${framing})`;
  return `${base} ${framing} StreamDriver="${output.driver ?? 'ossl'}" StreamDriverMode="1" StreamDriverAuthMode="x509/name" StreamDriverPermittedPeers="localhost")`;
}

/**
 * rsyslogd -n with one UDP input per output; each forwards with RSYSLOG_SyslogProtocol23Format (RFC 5424)
 * to its target. TLS checks the target's name `localhost`; `tls` is this side's client identity and CA.
 */
export async function startRsyslogSender(
  outputs: Record<string, SenderOutput>,
  tls?: TlsFiles,
): Promise<WireSender> {
  const dir = daemonDir('rsyslog-sender');
  const entries = Object.entries(outputs);
  const inputs: Record<string, number> = {};
  for (const [name] of entries) inputs[name] = await freeUdpPort();
  const config = [
    rsyslogTlsGlobals(dir, tls),
    'module(load="imudp")',
    ...entries.map(
      ([name], id) => `input(type="imudp" address="127.0.0.1" port="${inputs[name] ?? 0}" ruleset="r${id}")`,
    ),
    ...entries.map(([, output], id) => `ruleset(name="r${id}") { ${rsyslogOutput(output)} }`),
  ];
  const daemon = startRsyslogDaemon('rsyslogd (sender)', dir, config);
  const sender = new WireSender(daemon, inputs);
  return started(sender, async () => {
    for (const port of Object.values(inputs)) await daemon.waitForUdpPort(port);
  });
}
