// The load generator of the syslog wire benchmark: syslog-ng's `loggen`, unpacked beside syslog-ng, sending
// RFC 5424 messages with octet-counted framing over TCP (`--inet --stream --syslog-proto`), unthrottled
// (loggen's default is 1,000 msg/s per connection). Every target gets byte-for-byte the same stream
// shape: `--number` messages on each of `--active-connections` connections, each message `SIZE` bytes with
// loggen's `seq: NNNNNNNNNN, thread: NNNN` text, so the last message of a connection is recognisable.
// loggen's own rate line is ignored: a run ends when the target has PROCESSED everything, not when loggen
// has written it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SYSLOGNG_PREFIX } from '../support/syslog-peers.js';
import type { Run } from './syslog-wire-peers.js';

export const LOGGEN = join(SYSLOGNG_PREFIX, 'usr/bin/loggen');
/** Bytes per message, as loggen counts them (its minimum with --syslog-proto is 140). */
export const MESSAGE_SIZE = 160;

/** Starts loggen against 127.0.0.1:`port`; resolves when it exits 0 (it has written everything). */
export function runLoggen(port: number, run: Run): Promise<void> {
  const args = [
    '--inet',
    '--stream',
    '--syslog-proto',
    '--size',
    String(MESSAGE_SIZE),
    '--rate',
    '1000000000',
    '--number',
    String(run.perConnection),
    '--active-connections',
    String(run.connections),
    '--quiet',
    '127.0.0.1',
    String(port),
  ];
  const lib = join(SYSLOGNG_PREFIX, 'usr/lib/syslog-ng');
  // loggen finds its plugins under $SYSLOGNG_PREFIX/lib/syslog-ng/<version>/loggen
  const env = { ...process.env, LD_LIBRARY_PATH: lib, SYSLOGNG_PREFIX: join(SYSLOGNG_PREFIX, 'usr') };
  return new Promise((resolve, reject) => {
    const child = spawn(LOGGEN, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && !/error/i.test(stderr)) resolve();
      else reject(new Error(`loggen exited ${code}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}
