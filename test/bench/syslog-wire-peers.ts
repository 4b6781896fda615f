// The baselines of the syslog wire benchmark: rsyslog and syslog-ng, each as a RECEIVER (TCP octet-counted
// RFC 5424 in, parsed, discarded) and as a RELAY (TCP in → parse → TCP octet-counted RFC 5424 out), and an
// rsyslog SINK that every relay (ours too) forwards into. Completion is seen from outside, without asking
// the daemon anything on the hot path: every daemon writes the last message of each loggen connection (the
// one whose `seq:` is the connection's last) to a small marker file, and the driver counts those lines;
// messages are processed in order per connection, so the last one out means the connection is done.
// Each daemon's own count of messages (rsyslog impstats once a second, syslog-ng-ctl stats) is read at the
// end of the benchmark to show nothing was lost.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SYSLOGNG_LIB, startSyslogNgDaemon, syslogNgVersion } from '../support/syslog-daemons.js';
import { Daemon, RSYSLOGD, SYSLOGNG_PREFIX, daemonDir } from '../support/syslog-peers.js';
import { freeTcpPort, waitForTcpPort } from '../support/syslog-wire-peer.js';

export { freeTcpPort, waitForTcpPort } from '../support/syslog-wire-peer.js';

const READY_TIMEOUT_MS = 15_000;

/** One benchmark run: `connections` loggen connections of `perConnection` messages each. */
export interface Run {
  connections: number;
  perConnection: number;
}

/** What a benchmark sends into and watches: a receiver, or a relay with the sink behind it. */
export interface Target {
  readonly name: string;
  /** Where loggen connects. */
  readonly port: number;
  /** The process whose CPU time the run is charged (the receiver or the relay, not the sink). */
  readonly pid: number;
  /** A counter that reaches `before + expected(run)` once the run is processed. */
  progress(run: Run): Promise<number>;
  expected(run: Run): number;
  /** The receiver's own count of messages processed so far (its stats), for the loss check; or undefined. */
  processed(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** The text loggen writes into the message of a connection's last message (`seq: 0000049999,`). */
export function lastSeq(run: Run): string {
  return `seq: ${String(run.perConnection - 1).padStart(10, '0')},`;
}

/** Counts the marker lines of `run` in a marker file (every line is one connection's last message). */
export async function countMarkers(file: string, run: Run): Promise<number> {
  const text = await readFile(file, 'latin1').catch(() => '');
  const needle = lastSeq(run);
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** User + system CPU time of a process (all its threads), in µs, from /proc/<pid>/stat. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15, in clock ticks (USER_HZ = 100)
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function started(daemon: Daemon, port: number, pidFile: string): Promise<number> {
  const dead = async () =>
    daemon.running ? undefined : `${daemon.name} exited while starting:\n${await daemon.logTail()}`;
  try {
    await waitForTcpPort(port, dead);
    // the port may be bound before the pid file is written
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const pid = Number(await readFile(pidFile, 'utf8').catch(() => ''));
      if (pid > 0) return pid;
      const reason = await dead();
      if (reason !== undefined) throw new Error(reason);
      if (Date.now() > deadline) throw new Error(`${daemon.name} wrote no pid file ${pidFile}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } catch (error: unknown) {
    await daemon.stop();
    throw error;
  }
}

// ---- rsyslog ----

/** The last `submitted` of imtcp input `name` in the impstats file (rsyslog names it `name(port)`). */
async function rsyslogSubmitted(statsFile: string, name: string): Promise<number | undefined> {
  const text = await readFile(statsFile, 'utf8').catch(() => '');
  let last: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.includes(`"name": "${name}(`)) continue;
    const match = /"submitted":\s*(\d+)/.exec(line);
    if (match?.[1] !== undefined) last = Number(match[1]);
  }
  return last;
}

async function startRsyslog(name: string, body: (dir: string, port: number) => string[]): Promise<Target> {
  const dir = daemonDir(name);
  const port = await freeTcpPort();
  const markers = join(dir, 'markers.log');
  const stats = join(dir, 'stats.json');
  const config = [
    `global(workDirectory="${dir}" maxMessageSize="64k")`,
    `module(load="impstats" interval="1" format="json" log.syslog="off" log.file="${stats}")`,
    'module(load="imtcp")',
    'template(name="marker" type="string" string="%msg%\\n")',
    `input(type="imtcp" name="bench" address="127.0.0.1" port="${port}" ruleset="bench")`,
    ...body(dir, port),
  ];
  writeFileSync(join(dir, 'rsyslog.conf'), `${config.join('\n')}\n`);
  const pidFile = join(dir, 'rsyslogd.pid');
  const args = ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', pidFile];
  const daemon = Daemon.start({ name, dir, binary: RSYSLOGD, args });
  const pid = await started(daemon, port, pidFile);
  return {
    name,
    port,
    pid,
    progress: (run) => countMarkers(markers, run),
    expected: (run) => run.connections,
    processed: () => rsyslogSubmitted(stats, 'bench'),
    stop: () => daemon.stop(),
  };
}

/** The marker rule: a connection's last message goes to the marker file (both run shapes match). */
function rsyslogMarker(dir: string, runs: readonly Run[]): string {
  const test = runs.map((run) => `($msg contains "${lastSeq(run)}")`).join(' or ');
  return `  if ${test} then action(type="omfile" file="${join(dir, 'markers.log')}" template="marker")`;
}

/** rsyslogd: imtcp (octet counting is on by default), the message parsed, matched and discarded. */
export function startRsyslogReceiver(runs: readonly Run[]): Promise<Target> {
  return startRsyslog('rsyslog', (dir) => [
    'ruleset(name="bench") {',
    rsyslogMarker(dir, runs),
    '  stop',
    '}',
  ]);
}

/** rsyslogd as the sink of every relay: the same as the receiver (its markers say the relay is done). */
export const startRsyslogSink = startRsyslogReceiver;

/** rsyslogd: imtcp → omfwd TCP octet-counted RFC 5424 to the sink; retries forever, never discards. */
export function startRsyslogRelay(sinkPort: number): Promise<Target> {
  return startRsyslog('rsyslog-relay', () => [
    'ruleset(name="bench") {',
    `  action(type="omfwd" target="127.0.0.1" port="${sinkPort}" protocol="tcp" TCP_Framing="octet-counted"` +
      ' template="RSYSLOG_SyslogProtocol23Format" action.resumeRetryCount="-1" action.resumeInterval="1")',
    '}',
  ]);
}

// ---- syslog-ng ----

const SYSLOGNG_CTL = join(SYSLOGNG_PREFIX, 'usr/sbin/syslog-ng-ctl');
const run = promisify(execFile);

/** syslog-ng's `processed` count of the source `s_bench`, asked over its control socket. */
async function syslogNgProcessed(control: string): Promise<number | undefined> {
  const { stdout } = await run(SYSLOGNG_CTL, ['stats', '-c', control], {
    env: { ...process.env, LD_LIBRARY_PATH: SYSLOGNG_LIB },
  }).catch(() => ({ stdout: '' }));
  const line = stdout.split('\n').find((entry) => entry.startsWith('source;s_bench;;a;processed;'));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(';') + 1));
}

async function startSyslogNg(name: string, body: (dir: string) => string[]): Promise<Target> {
  const dir = daemonDir(name);
  const port = await freeTcpPort();
  const config = [
    `@version: ${syslogNgVersion()}`,
    'options { stats_freq(0); keep_hostname(yes); use_dns(no); chain_hostnames(no); };',
    `source s_bench { syslog(ip("127.0.0.1") port(${port}) transport("tcp") max-connections(64)); };`,
    'template t_marker { template("${MSG}\\n"); };',
    ...body(dir),
  ];
  const pidFile = join(dir, 'syslog-ng.pid');
  const daemon = startSyslogNgDaemon(name, dir, config);
  const pid = await started(daemon, port, pidFile);
  const markers = join(dir, 'markers.log');
  return {
    name,
    port,
    pid,
    progress: (run) => countMarkers(markers, run),
    expected: (run) => run.connections,
    processed: () => syslogNgProcessed(join(dir, 'syslog-ng.ctl')),
    stop: () => daemon.stop(),
  };
}

function syslogNgMarker(dir: string, runs: readonly Run[]): string[] {
  const test = runs.map((run) => `message("${lastSeq(run)}" type(string) flags(substring))`).join(' or ');
  return [
    `filter f_marker { ${test}; };`,
    `destination d_marker { file("${join(dir, 'markers.log')}" template(t_marker)); };`,
  ];
}

/** syslog-ng: syslog() source (RFC 5424, octet-counted), parsed, matched and discarded. */
export function startSyslogNgReceiver(runs: readonly Run[]): Promise<Target> {
  return startSyslogNg('syslog-ng', (dir) => [
    ...syslogNgMarker(dir, runs),
    'log { source(s_bench); filter(f_marker); destination(d_marker); };',
  ]);
}

/** syslog-ng: syslog() source → syslog() destination (RFC 5424, octet-counted), with flow control. */
export function startSyslogNgRelay(sinkPort: number): Promise<Target> {
  return startSyslogNg('syslog-ng-relay', () => [
    `destination d_sink { syslog("127.0.0.1" port(${sinkPort}) transport("tcp")); };`,
    'log { source(s_bench); destination(d_sink); flags(flow-control); };',
  ]);
}
