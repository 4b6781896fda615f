// The product's processes on a test cluster, each a real child process of `streamroute`: the operator,
// data-plane "pods" (there is no kubelet: a process with a node name does what the DaemonSet pod does)
// and CLI runs. Service-account kubeconfigs come from `kubectl create token`, so missing RBAC verbs fail.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { KubeTestServer } from './kube-apiserver.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'operator', 'cli', 'main.ts');
/** The compiled CLI (`npm run build`): what the images run; benchmarks measure it, not tsx. */
const COMPILED_CLI = join(ROOT, 'dist', 'operator', 'cli', 'main.js');
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A kubeconfig for service account `namespace/name`, with a token from `kubectl create token`. */
export async function serviceAccountKubeconfig(
  server: KubeTestServer,
  namespace: string,
  name: string,
  options: { exec?: boolean } = {},
): Promise<string> {
  const { stdout } = await run('kubectl', [
    '--kubeconfig',
    server.kubeconfigPath,
    'create',
    'token',
    name,
    '-n',
    namespace,
    '--duration',
    '2h',
  ]);
  const token = stdout.trim();
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-sa-'));
  const path = join(dir, `${name}.kubeconfig`);
  // as a cloud provider's kubeconfig does: a command that prints an ExecCredential with the token
  const credential = {
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: { token },
  };
  const credentialFile = join(dir, 'credential.json');
  writeFileSync(credentialFile, JSON.stringify(credential), { mode: 0o600 });
  const user =
    options.exec === true
      ? {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: 'cat',
            args: [credentialFile],
            interactiveMode: 'Never',
          },
        }
      : { token };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster: { server: server.server, 'certificate-authority': server.caFile } }],
    users: [{ name, user }],
    contexts: [{ name: 'test', context: { cluster: 'test', user: name, namespace } }],
    'current-context': 'test',
  };
  writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}

/** A `streamroute` child process; its stdout and stderr go to a log file read by `log()`. */
export class StreamrouteProcess {
  readonly #child: ChildProcess;
  readonly logFile: string;
  readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    args: readonly string[],
    options: { compiled?: boolean } = {},
  ) {
    this.logFile = join(mkdtempSync(join(tmpdir(), 'streamroute-proc-')), `${name}.log`);
    const fd = openSync(this.logFile, 'a');
    const entry = options.compiled === true ? [COMPILED_CLI] : ['--import', 'tsx', CLI];
    this.#child = spawn(process.execPath, [...entry, ...args], {
      cwd: ROOT,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, NODE_NAME: '', POD_NAMESPACE: '' },
    });
    closeSync(fd);
    live.add(this.#child);
    this.exited = new Promise((resolve) =>
      this.#child.once('exit', (code) => {
        live.delete(this.#child);
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  log(): string {
    return readFileSync(this.logFile, 'utf8');
  }

  /** SIGKILL: a crash, nothing released. */
  async kill(): Promise<void> {
    this.#child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM and wait for the exit code. */
  async stop(): Promise<number | null> {
    this.#child.kill('SIGTERM');
    return this.exited;
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One `streamroute` CLI run to completion. */
export async function runStreamroute(args: readonly string[], stdin?: string): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin ?? '');
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? -1)));
  return { code, stdout, stderr };
}

/** Polls `check` (which throws or returns false until it holds) every 100 ms, up to `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | false | undefined> | T | false | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result !== false && result !== undefined) return result;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
