// syslog-ng as a wire peer, run from its unpacked prefix: a receiver (its syslog() source, RFC 5424 and
// octet-counted on TCP/TLS, or network() with flags(syslog-protocol) for LF) writing each field with
// $(format-json), and a sender (syslog() or network() destinations over UDP, TCP or TLS).
import { startSyslogNgDaemon, syslogNgVersion } from './syslog-daemons.js';
import { daemonDir, freeUdpPort } from './syslog-peers.js';
import {
  WireReceiver,
  WireSender,
  outputFile,
  portsFor,
  started,
  type ReceiverInput,
  type ReceiverTls,
  type SenderOutput,
  type TlsFiles,
} from './syslog-wire-peer.js';

const SYSLOGNG_OPTIONS =
  'options { stats_freq(0); keep_hostname(yes); chain_hostnames(no); use_dns(no); frac_digits(6); time_reopen(1); };';

/** Each field on its own as JSON; `$ISODATE` with six fractional digits (frac_digits). */
const SYSLOGNG_FIELDS_TEMPLATE =
  'template t_fields { template("$(format-json --scope none pri=$PRI timestamp=$ISODATE hostname=$HOST app_name=$PROGRAM proc_id=$PID msg_id=$MSGID structured_data=$SDATA message=$MSG)\\n"); };';

function syslogNgTls(tls: TlsFiles | undefined, verify: 'required-trusted' | 'optional-untrusted'): string {
  if (tls === undefined) throw new Error('a TLS input or output needs TLS files');
  return `tls(ca-file("${tls.ca}") cert-file("${tls.cert}") key-file("${tls.key}") peer-verify(${verify}))`;
}

function syslogNgSource(id: number, input: ReceiverInput, port: number, tls: TlsFiles | undefined): string {
  const driver = input.ngDriver ?? 'syslog';
  const options = [`ip("127.0.0.1")`, `port(${port})`, `transport("${input.transport}")`];
  if (driver === 'network') options.push('flags(syslog-protocol)');
  if (input.transport === 'tls') {
    options.push(syslogNgTls(tls, input.mutual === true ? 'required-trusted' : 'optional-untrusted'));
  }
  return `source s${id} { ${driver}(${options.join(' ')}); };`;
}

function syslogNgDestination(id: number, output: SenderOutput, tls: TlsFiles | undefined): string {
  const driver = output.ngDriver ?? 'syslog';
  // several destinations may share a target, so each needs its own persist name
  const options = [`port(${output.port})`, `transport("${output.transport}")`, `persist-name("d${id}")`];
  if (output.transport === 'tls') options.push(syslogNgTls(tls, 'required-trusted'));
  return `destination d${id} { ${driver}("localhost" ${options.join(' ')}); };`;
}

/**
 * syslog-ng -F receiving on every input (its `syslog()` driver by default, or `network()` with
 * flags(syslog-protocol)); each writes to its file with the fields template.
 */
export async function startSyslogNgReceiver(
  inputs: Record<string, ReceiverInput>,
  tls?: ReceiverTls,
): Promise<WireReceiver> {
  const dir = daemonDir('syslog-ng-receiver');
  const ports = await portsFor(inputs);
  const entries = Object.entries(inputs);
  const config = [
    `@version: ${syslogNgVersion()}`,
    SYSLOGNG_OPTIONS,
    SYSLOGNG_FIELDS_TEMPLATE,
    ...entries.map(([name, input], id) => syslogNgSource(id, input, ports[name] ?? 0, tls)),
    ...entries.map(
      ([name], id) =>
        `log { source(s${id}); destination { file("${outputFile(dir, name)}" template(t_fields)); }; };`,
    ),
  ];
  const daemon = startSyslogNgDaemon('syslog-ng (receiver)', dir, config);
  const receiver = new WireReceiver(daemon, ports);
  return started(receiver, () => receiver.probe(inputs, tls && { ...tls, ...tls.client }));
}

/**
 * syslog-ng -F with one UDP input (flags(syslog-protocol): RFC 5424 in) per output; each forwards with
 * its driver (`syslog()`: RFC 5424, octet-counted on TCP/TLS; `network()`: BSD, LF) to `localhost:<port>`.
 */
export async function startSyslogNgSender(
  outputs: Record<string, SenderOutput>,
  tls?: TlsFiles,
): Promise<WireSender> {
  const dir = daemonDir('syslog-ng-sender');
  const entries = Object.entries(outputs);
  const inputs: Record<string, number> = {};
  for (const [name] of entries) inputs[name] = await freeUdpPort();
  const config = [
    `@version: ${syslogNgVersion()}`,
    SYSLOGNG_OPTIONS,
    ...entries.map(
      ([name], id) =>
        `source s${id} { network(ip("127.0.0.1") port(${inputs[name] ?? 0}) transport("udp") flags(syslog-protocol)); };`,
    ),
    ...entries.map(([, output], id) => syslogNgDestination(id, output, tls)),
    ...entries.map((_, id) => `log { source(s${id}); destination(d${id}); };`),
  ];
  const daemon = startSyslogNgDaemon('syslog-ng (sender)', dir, config);
  const sender = new WireSender(daemon, inputs);
  return started(sender, async () => {
    for (const port of Object.values(inputs)) await daemon.waitForUdpPort(port);
  });
}
