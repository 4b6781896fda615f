// rsyslog and syslog-ng as forwarders for the interop tests: each listens on loopback UDP and forwards
// every message to the test's UDP sockets with its standard output formats, so a test can feed it with
// logger and decode what a real daemon writes. Start-up waits until the daemon holds its input port and
// a probe has come out of every output; ports are picked free, dirs are fresh per daemon.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Daemon,
  RSYSLOGD,
  SYSLOGNG,
  SYSLOGNG_PREFIX,
  UdpTap,
  daemonDir,
  freeUdpPort,
} from './syslog-peers.js';

/** rsyslog's built-in templates (rsyslog docs, "Templates"), each forwarded to its own socket. */
export const RSYSLOG_TEMPLATES = [
  'RSYSLOG_SyslogProtocol23Format',
  'RSYSLOG_TraditionalForwardFormat',
  'RSYSLOG_ForwardFormat',
] as const;
export type RsyslogTemplate = (typeof RSYSLOG_TEMPLATES)[number];

export interface Forwarder {
  daemon: Daemon;
  /** Where to send messages (the daemon's UDP inputs). */
  inputs: Record<string, number>;
  /** One socket per output format. */
  outputs: Record<string, UdpTap>;
  stop(): Promise<void>;
}

const PROBE = new TextEncoder().encode('<13>1 - probe probe - - - probe');

async function forwarder(
  daemon: Daemon,
  inputs: Record<string, number>,
  outputs: Record<string, UdpTap>,
): Promise<Forwarder> {
  const stop = async () => {
    await daemon.stop();
    for (const tap of Object.values(outputs)) tap.close();
  };
  try {
    for (const port of Object.values(inputs)) await daemon.waitForUdpPort(port);
    const probe = await new UdpTap().open();
    await probe.send(PROBE, Object.values(inputs)[0] ?? 0);
    probe.close();
    for (const tap of Object.values(outputs)) await tap.next(10_000);
    for (const tap of Object.values(outputs)) tap.clear();
  } catch (error: unknown) {
    await stop();
    throw error;
  }
  return { daemon, inputs, outputs, stop };
}

async function taps(names: readonly string[]): Promise<Record<string, UdpTap>> {
  const entries = await Promise.all(names.map(async (name) => [name, await new UdpTap().open()] as const));
  return Object.fromEntries(entries);
}

/** rsyslogd -n with imudp on one loopback port and an omfwd action per template. */
export async function startRsyslog(): Promise<Forwarder> {
  const dir = daemonDir('rsyslog');
  const input = await freeUdpPort();
  const outputs = await taps(RSYSLOG_TEMPLATES);
  const actions = RSYSLOG_TEMPLATES.map(
    (template) =>
      `  action(type="omfwd" target="127.0.0.1" port="${outputs[template]!.port}" protocol="udp" template="${template}")`,
  );
  const config = [
    `global(workDirectory="${dir}" maxMessageSize="64k")`,
    'module(load="imudp")',
    `input(type="imudp" address="127.0.0.1" port="${input}" ruleset="forward")`,
    'ruleset(name="forward") {',
    ...actions,
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'rsyslog.conf'), `${config}\n`);
  const args = ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')];
  const daemon = Daemon.start({ name: 'rsyslogd', dir, binary: RSYSLOGD, args });
  return forwarder(daemon, { any: input }, outputs);
}

export const SYSLOGNG_LIB = join(SYSLOGNG_PREFIX, 'usr/lib/syslog-ng');

/** The x.y of the unpacked syslog-ng: its module directory's name (usr/lib/syslog-ng/3.38). */
export function syslogNgVersion(): string {
  const version = readdirSync(SYSLOGNG_LIB).find((name) => /^\d+\.\d+$/.test(name));
  if (version === undefined) throw new Error(`no syslog-ng module directory under ${SYSLOGNG_PREFIX}`);
  return version;
}

/**
 * syslog-ng -F with `config` written to `dir`/syslog-ng.conf; its persist file, pid file
 * (`dir`/syslog-ng.pid) and control socket (`dir`/syslog-ng.ctl) live in `dir` too.
 */
export function startSyslogNgDaemon(name: string, dir: string, config: readonly string[]): Daemon {
  writeFileSync(join(dir, 'syslog-ng.conf'), `${config.join('\n')}\n`);
  const args = [
    '-F',
    '--no-caps',
    '-f',
    join(dir, 'syslog-ng.conf'),
    '-R',
    join(dir, 'syslog-ng.persist'),
    '-p',
    join(dir, 'syslog-ng.pid'),
    '-c',
    join(dir, 'syslog-ng.ctl'),
    `--module-path=${join(SYSLOGNG_LIB, syslogNgVersion())}`,
  ];
  return Daemon.start({ name, dir, binary: SYSLOGNG, args, env: { LD_LIBRARY_PATH: SYSLOGNG_LIB } });
}

/**
 * syslog-ng -F from the unpacked prefix: an RFC 5424 input (`flags(syslog-protocol)`) and an RFC 3164
 * input, both forwarded with the syslog() destination (RFC 5424) and the network() destination (BSD).
 */
export async function startSyslogNg(): Promise<Forwarder> {
  const dir = daemonDir('syslog-ng');
  const inputs = { rfc5424: await freeUdpPort(), rfc3164: await freeUdpPort() };
  const outputs = await taps(['syslog', 'network']);
  const config = [
    `@version: ${syslogNgVersion()}`,
    'options { stats_freq(0); keep_hostname(yes); use_dns(no); frac_digits(6); };',
    `source s_rfc5424 { network(ip("127.0.0.1") port(${inputs.rfc5424}) transport("udp") flags(syslog-protocol)); };`,
    `source s_rfc3164 { network(ip("127.0.0.1") port(${inputs.rfc3164}) transport("udp")); };`,
    `destination d_syslog { syslog("127.0.0.1" port(${outputs['syslog']!.port}) transport("udp")); };`,
    `destination d_network { network("127.0.0.1" port(${outputs['network']!.port}) transport("udp")); };`,
    'log { source(s_rfc5424); source(s_rfc3164); destination(d_syslog); destination(d_network); };',
  ];
  const daemon = startSyslogNgDaemon('syslog-ng', dir, config);
  return forwarder(daemon, inputs, outputs);
}
