// The soak benchmark's node: `streamroute node` from tsc's output (compileNode), as its own process with
// loopback listeners on free ports and warn-level logs to a file, the way syslog-wire-node.ts starts it;
// its HTTP and admin ports come from the start line. Statements go through the control API, as the CLI
// sends them.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeCommandArgs, spawnLogged } from '../support/node-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

export interface SoakNode {
  readonly pid: number;
  readonly httpPort: number;
  readonly adminPort: number;
  readonly log: string;
  readonly exited: () => boolean;
  /** Runs a script through `POST /v1/domains/default/statements`; the parsed answer. */
  statements(script: string, uploads?: unknown[]): Promise<StatementsAnswer>;
  stop(): Promise<void>;
}

export interface StatementsAnswer {
  ok: boolean;
  diagnostics: string[];
  results: { statement: string; status: string; diagnostics?: string[] }[];
}

export async function startSoakNode(entry: string, workDir?: string): Promise<SoakNode> {
  const dir = workDir ?? mkdtempSync(join(tmpdir(), 'streamroute-soak-'));
  const manifests = join(dir, 'manifests');
  mkdirSync(manifests, { recursive: true });
  const log = join(dir, 'node.log');
  const child = spawnNode(entry, dir, manifests, log);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (!exited()) {
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await done;
      clearTimeout(timer);
    }
  };
  try {
    const { httpPort, adminPort } = await portsOf(child, log);
    return {
      pid: child.pid ?? 0,
      httpPort,
      adminPort,
      log,
      exited,
      statements: (script, uploads = []) => postStatements(adminPort, script, uploads),
      stop,
    };
  } catch (error: unknown) {
    await stop();
    throw error;
  }
}

/** Removes the node's directory (data dir, manifests, log) once the report has quoted the log. */
export function removeSoakDir(log: string): void {
  rmSync(join(log, '..'), { recursive: true, force: true });
}

function spawnNode(entry: string, dir: string, manifests: string, log: string): ChildProcess {
  return spawnLogged([entry, ...nodeCommandArgs(manifests, join(dir, 'data'))], log, ROOT);
}

/** The ports from the start line (`… HTTP 127.0.0.1:P · admin http://127.0.0.1:Q · …`). */
async function portsOf(child: ChildProcess, log: string): Promise<{ httpPort: number; adminPort: number }> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const match = /HTTP 127\.0\.0\.1:(\d+) · admin http:\/\/127\.0\.0\.1:(\d+)/.exec(
      readFileSync(log, 'utf8'),
    );
    if (match !== null) return { httpPort: Number(match[1]), adminPort: Number(match[2]) };
    if (child.exitCode !== null) throw new Error(`the node exited (${child.exitCode}):\n${tail(log)}`);
    if (Date.now() > deadline) throw new Error(`the node did not start:\n${tail(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function tail(log: string, lines = 20): string {
  return readFileSync(log, 'utf8').split('\n').slice(-lines).join('\n');
}

function postStatements(port: number, script: string, uploads: unknown[]): Promise<StatementsAnswer> {
  const body = JSON.stringify({ script, source: 'soak', uploads });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/domains/default/statements',
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(text) as StatementsAnswer);
          } catch {
            reject(new Error(`statements: ${response.statusCode ?? 0} ${text.slice(0, 200)}`));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The node's log lines at warn and above, counted by level and message (values never appear in them). */
export function logSummary(log: string): string {
  const counts = new Map<string, number>();
  for (const row of readFileSync(log, 'utf8').split('\n')) {
    if (!row.startsWith('{')) continue;
    try {
      const entry = JSON.parse(row) as { level?: number; msg?: string; code?: string };
      const key = `${entry.level === 40 ? 'warn' : entry.level === 50 ? 'error' : String(entry.level)} "${entry.msg}"${entry.code === undefined ? '' : ` ${entry.code}`}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    } catch {
      counts.set('not JSON', (counts.get('not JSON') ?? 0) + 1);
    }
  }
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([key, count]) => `${key} ×${count}`)
      .join('; ') || 'none'
  );
}
