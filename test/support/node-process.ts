// Running `streamroute node` as a process of its own, as the benchmarks and process-level tests do: the same
// loopback listeners on free ports and warn-level logs, and, where util-linux's setpriv exists, a node that
// dies with the process that started it (a benchmark stopped with ^C leaves no node behind).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/** `node --manifests <dir> [--data-dir <dir>]` with every listener on 127.0.0.1:0 and warn-level logs. */
export function nodeCommandArgs(manifests: string, dataDir?: string): string[] {
  return [
    'node',
    '--manifests',
    manifests,
    ...(dataDir === undefined ? [] : ['--data-dir', dataDir]),
    '--http-listen-addr',
    '127.0.0.1:0',
    '--https-listen-addr',
    '127.0.0.1:0',
    '--admin-listen-addr',
    '127.0.0.1:0',
    '--log-level',
    'warn',
  ];
}

/** Node.js with `args` in `cwd`, stdout and stderr appended to `log`, in UTC. */
export function spawnLogged(args: readonly string[], log: string, cwd: string): ChildProcess {
  const [command, argv] = SETPRIV
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', process.execPath, ...args]]
    : [process.execPath, [...args]];
  const out = openSync(log, 'a');
  try {
    return spawn(command, argv, { cwd, stdio: ['ignore', out, out], env: { ...process.env, TZ: 'UTC' } });
  } finally {
    closeSync(out);
  }
}
