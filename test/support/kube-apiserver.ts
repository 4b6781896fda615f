// Starts a REAL kube-apiserver backed by a REAL etcd on loopback for tests.
// The binaries come from test/kube/build.sh (built from Go modules, cached per version);
// nothing here imitates the API server. Each server gets its own temp dir, certs and ports.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync, rmSync } from 'node:fs';
import { access, constants, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BUILD_SCRIPT = fileURLToPath(new URL('../kube/build.sh', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const DIR_PREFIX = 'streamroute-kube-';

export interface KubeBinaries {
  /** Cache directory that holds both binaries. */
  dir: string;
  apiserver: string;
  etcd: string;
}

export interface KubeTestServer {
  /** kubeconfig (server, CA file, admin token) usable by kubectl and clients. */
  kubeconfigPath: string;
  /** e.g. https://127.0.0.1:41234 */
  server: string;
  /** Bearer token of a user in system:masters (bypasses RBAC). */
  token: string;
  /** PEM file of the CA that signed the serving certificate. */
  caFile: string;
  /** Contents of caFile, for node:https agents. */
  ca: string;
  /** http://127.0.0.1:<port> of the backing etcd. */
  etcdEndpoint: string;
  /** Temp dir with certs, etcd data and logs (kube-apiserver.log, etcd.log); removed by stop(). */
  workDir: string;
  /** Kills kube-apiserver and etcd, waits for both to exit, removes workDir. Idempotent. */
  stop(): Promise<void>;
  /**
   * Kills kube-apiserver (not etcd) and starts it again on the same port with the same flags; resolves
   * once it is ready. `downMs` keeps it down that long first. Clients see the outage watches see.
   */
  restartApiServer(downMs?: number): Promise<void>;
  /**
   * A user who authenticates with a client certificate only (no token, no Secret): CN `name`, O each of
   * `groups`, signed by the server's client CA. PEM texts.
   */
  clientCertUser(name: string, groups?: readonly string[]): Promise<{ cert: string; key: string }>;
}

export interface StartKubeApiServerOptions {
  /** Parent directory for the server's temp dir (default: os.tmpdir()). */
  workDir?: string;
  /** Extra kube-apiserver flags, e.g. ['--feature-gates=...']. */
  extraArgs?: readonly string[];
}

// ---- binaries ---------------------------------------------------------------

let binariesDir: Promise<string> | undefined;

/** Cache directory build.sh uses for the pinned versions (it owns the version key). */
export function kubeBinariesDir(): Promise<string> {
  binariesDir ??= run('bash', [BUILD_SCRIPT, '--print-dir']).then((r) => r.stdout.trim());
  return binariesDir;
}

/** Locates the cached kube-apiserver and etcd; undefined when `bash test/kube/build.sh` has not run. */
export async function kubeBinaries(): Promise<KubeBinaries | undefined> {
  const dir = await kubeBinariesDir();
  const bins = { dir, apiserver: join(dir, 'kube-apiserver'), etcd: join(dir, 'etcd') };
  try {
    await access(bins.apiserver, constants.X_OK);
    await access(bins.etcd, constants.X_OK);
    return bins;
  } catch {
    return undefined;
  }
}

function inCI(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/**
 * For a before() hook or test: returns the binaries, or skips the suite with a visible warning.
 * In CI (CI env var set) a missing build is a failure, so tests cannot silently stop running.
 */
export async function requireKubeOrSkip(ctx: Pick<Mocha.Context, 'skip'>): Promise<KubeBinaries> {
  const bins = await kubeBinaries();
  if (bins) return bins;
  const msg = `kube-apiserver/etcd not built (expected in ${await kubeBinariesDir()}); run: bash test/kube/build.sh`;
  if (inCI()) throw new Error(`${msg} (CI is set, so this fails instead of skipping)`);
  console.warn(`\n  [kube] SKIPPING real-API-server tests: ${msg}\n`);
  ctx.skip();
}

// ---- process hygiene: nothing may outlive the test run -----------------------

const liveChildren = new Set<ChildProcess>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL everything, then drop the temp dirs.
  process.once('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });
}

// setpriv --pdeathsig makes the kernel SIGKILL the child if this node process dies
// without running its exit hook (SIGKILL, crash, mocha timeout kill).
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

interface Proc {
  child: ChildProcess;
  exited: Promise<void>;
  logFile: string;
}

function startProcess(binary: string, args: readonly string[], logFile: string): Proc {
  installExitHook();
  const fd = openSync(logFile, 'a');
  const [cmd, argv] = SETPRIV
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', binary, ...args]]
    : [binary, [...args]];
  try {
    const child = spawn(cmd, argv, { stdio: ['ignore', fd, fd] });
    liveChildren.add(child);
    // unref: a forgotten stop() must not keep mocha alive; the exit hook cleans up.
    child.unref();
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        liveChildren.delete(child);
        resolve();
      });
      child.once('error', () => {
        liveChildren.delete(child);
        resolve();
      });
    });
    return { child, exited, logFile };
  } finally {
    closeSync(fd);
  }
}

function hasExited(p: Proc): boolean {
  return p.child.exitCode !== null || p.child.signalCode !== null || !liveChildren.has(p.child);
}

async function terminate(p: Proc): Promise<void> {
  if (hasExited(p)) return;
  p.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>(
    (resolve) => (timer = setTimeout(() => resolve(true), STOP_GRACE_MS)),
  );
  if (await Promise.race([p.exited.then(() => false), timedOut])) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
  clearTimeout(timer);
}

async function logTail(p: Proc, lines = 40): Promise<string> {
  const text = await readFile(p.logFile, 'utf8').catch(() => '');
  return text.split('\n').slice(-lines).join('\n');
}

// ---- helpers -----------------------------------------------------------------

/** Free loopback ports; all listeners stay open until every port is picked, so they differ. */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (s) =>
        new Promise<number>((resolve, reject) => {
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => {
            const addr = s.address();
            if (addr && typeof addr === 'object') resolve(addr.port);
            else reject(new Error('no port'));
          });
        }),
    ),
  );
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** Runs openssl in dir; args are space-separated (none of ours contain spaces). */
const openssl = (args: string, dir: string) => run('openssl', args.split(' '), { cwd: dir });

const NEW_KEY = '-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes';
const CA_EXT = '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign';

/**
 * CA + serving cert (EC P-256, 2 days) for 127.0.0.1/localhost, an SA signing key pair, and the
 * front-proxy CA with the client certificate the server proxies aggregated APIs with (as kubeadm sets
 * up every cluster): `front-proxy-ca.crt`, `front-proxy-client.{crt,key}` (CN front-proxy-client).
 */
async function writeCerts(dir: string): Promise<void> {
  const newKey = NEW_KEY;
  const caExt = CA_EXT;
  await openssl(
    `req -x509 ${newKey} -keyout ca.key -out ca.crt -days 2 -subj /CN=streamroute-test-ca ${caExt}`,
    dir,
  );
  await openssl(
    `req -x509 ${newKey} -keyout front-proxy-ca.key -out front-proxy-ca.crt -days 2 -subj /CN=front-proxy-ca ${caExt}`,
    dir,
  );
  await signClientCert(dir, { name: 'front-proxy-client', ca: 'front-proxy-ca' });
  await openssl(`req -new ${newKey} -keyout server.key -out server.csr -subj /CN=kube-apiserver`, dir);
  const sans =
    'IP:127.0.0.1,DNS:localhost,IP:10.0.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc';
  const ext = `subjectAltName=${sans}\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n`;
  await writeFile(join(dir, 'server.ext'), ext);
  const serial = `0x${randomBytes(8).toString('hex')}`;
  const signing = `-CA ca.crt -CAkey ca.key -set_serial ${serial} -days 2 -extfile server.ext`;
  await openssl(`x509 -req -in server.csr ${signing} -out server.crt`, dir);
  const sa = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  await writeFile(join(dir, 'sa.key'), sa.privateKey, { mode: 0o600 });
  await writeFile(join(dir, 'sa.pub'), sa.publicKey);
}

/** `<name>.crt`/`<name>.key` in `dir`: a client certificate (CN name, O each group) signed by `ca`. */
async function signClientCert(
  dir: string,
  { name, groups = [], ca }: { name: string; groups?: readonly string[]; ca: string },
): Promise<void> {
  const subject = `/CN=${name}${groups.map((group) => `/O=${group}`).join('')}`;
  await run(
    'openssl',
    ['req', '-new', ...NEW_KEY.split(' '), '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject],
    { cwd: dir },
  );
  await writeFile(
    join(dir, `${name}.ext`),
    'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n',
  );
  const serial = `0x${randomBytes(8).toString('hex')}`;
  const signing = `-CA ${ca}.crt -CAkey ${ca}.key -set_serial ${serial} -days 2 -extfile ${name}.ext`;
  await openssl(`x509 -req -in ${name}.csr ${signing} -out ${name}.crt`, dir);
}

function kubeconfig(server: string, caFile: string, token: string): string {
  // JSON is valid YAML; kubectl and client libraries read it as a kubeconfig.
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'streamroute-test', cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name: 'admin', user: { token } }],
    contexts: [{ name: 'streamroute-test', context: { cluster: 'streamroute-test', user: 'admin' } }],
    'current-context': 'streamroute-test',
  });
}

/** One GET; resolves with the status code (0 on connection error) and body. */
function probe(
  url: string,
  opts: { ca?: string; token?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const headers = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
    const onRes = (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    };
    const req = url.startsWith('https:')
      ? httpsGet(url, { headers, ...(opts.ca ? { ca: opts.ca } : {}), timeout: 5000 }, onRes)
      : httpGet(url, { headers, timeout: 5000 }, onRes);
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
  });
}

class StartError extends Error {
  constructor(
    message: string,
    readonly portClash: boolean,
  ) {
    super(message);
  }
}

/** Polls url until it answers 200, failing fast (with the log tail) if the process exits. */
async function waitReady(
  p: Proc,
  what: string,
  url: string,
  auth: { ca?: string; token?: string },
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = { status: 0, body: '' };
  while (Date.now() < deadline) {
    if (hasExited(p)) {
      const tail = await logTail(p);
      throw new StartError(
        `${what} exited during startup. Last log lines:\n${tail}`,
        /address already in use/.test(tail),
      );
    }
    last = await probe(url, auth);
    if (last.status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  const detail = `last ${url} answer: ${last.status} ${last.body.slice(0, 500)}`;
  throw new StartError(
    `${what} not ready after ${READY_TIMEOUT_MS / 1000}s (${detail}). Last log lines:\n${await logTail(p)}`,
    false,
  );
}

function etcdArgs(dir: string, clientPort: number, peerPort: number): string[] {
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  return [
    '--name=test',
    `--data-dir=${join(dir, 'etcd-data')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=test=${peer}`,
    // Throwaway data: skipping fsync makes writes (and so every test) much faster.
    '--unsafe-no-fsync=true',
    '--log-level=warn',
  ];
}

function apiserverArgs(dir: string, etcd: string, port: number): string[] {
  return [
    `--etcd-servers=${etcd}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${join(dir, 'apiserver-certs')}`,
    `--tls-cert-file=${join(dir, 'server.crt')}`,
    `--tls-private-key-file=${join(dir, 'server.key')}`,
    `--client-ca-file=${join(dir, 'ca.crt')}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${join(dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
    // Only a config value: there is no network behind it.
    '--service-cluster-ip-range=10.0.0.0/24',
    // The ServiceAccount admission plugin rejects pods until a controller-manager has
    // created the namespace's "default" ServiceAccount; there is none here.
    '--disable-admission-plugins=ServiceAccount',
    '--allow-privileged=true',
    '--profiling=false',
    // Aggregated APIs (APIService), as a kubeadm cluster has them: the server authenticates the user and
    // proxies with its front-proxy client certificate and X-Remote-* headers. Published in
    // kube-system/extension-apiserver-authentication for the extension servers to check.
    `--requestheader-client-ca-file=${join(dir, 'front-proxy-ca.crt')}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    `--proxy-client-cert-file=${join(dir, 'front-proxy-client.crt')}`,
    `--proxy-client-key-file=${join(dir, 'front-proxy-client.key')}`,
  ];
}

async function startOnce(
  dir: string,
  bins: KubeBinaries,
  extraArgs: readonly string[],
): Promise<KubeTestServer> {
  const [etcdClientPort, etcdPeerPort, apiPort] = (await freePorts(3)) as [number, number, number];
  const etcdEndpoint = `http://127.0.0.1:${etcdClientPort}`;
  const server = `https://127.0.0.1:${apiPort}`;
  const token = randomBytes(24).toString('hex');
  const caFile = join(dir, 'ca.crt');
  const kubeconfigPath = join(dir, 'kubeconfig');
  // token,user,uid,"groups": system:masters is allowed everything, RBAC or not.
  const tokens = `${token},streamroute-test-admin,streamroute-test-admin,"system:masters"\n`;
  await writeFile(join(dir, 'tokens.csv'), tokens, { mode: 0o600 });
  await writeFile(kubeconfigPath, kubeconfig(server, caFile, token), { mode: 0o600 });
  const ca = await readFile(caFile, 'utf8');

  const etcd = startProcess(bins.etcd, etcdArgs(dir, etcdClientPort, etcdPeerPort), join(dir, 'etcd.log'));
  const procs: Proc[] = [etcd];
  const stopAll = async () => {
    for (const p of procs.slice().reverse()) await terminate(p);
  };
  const startApi = async (): Promise<void> => {
    const api = startProcess(
      bins.apiserver,
      [...apiserverArgs(dir, etcdEndpoint, apiPort), ...extraArgs],
      join(dir, 'kube-apiserver.log'),
    );
    procs.push(api);
    await waitReady(api, 'kube-apiserver', `${server}/readyz`, { ca, token });
  };
  try {
    await waitReady(etcd, 'etcd', `${etcdEndpoint}/health`, {});
    await startApi();
  } catch (err) {
    await stopAll();
    throw err;
  }
  const restartApiServer = async (downMs = 0): Promise<void> => {
    const api = procs.pop();
    if (api !== undefined) await terminate(api);
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    await startApi();
  };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stopAll();
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
      liveDirs.delete(dir);
    })());
  const clientCertUser = async (name: string, groups: readonly string[] = []) => {
    if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`clientCertUser: "${name}" is not a plain name`);
    await signClientCert(dir, { name, groups, ca: 'ca' });
    const [cert, key] = await Promise.all([
      readFile(join(dir, `${name}.crt`), 'utf8'),
      readFile(join(dir, `${name}.key`), 'utf8'),
    ]);
    return { cert, key };
  };
  return {
    kubeconfigPath,
    server,
    token,
    caFile,
    ca,
    etcdEndpoint,
    workDir: dir,
    stop,
    restartApiServer,
    clientCertUser,
  };
}

/**
 * Starts etcd and kube-apiserver on free loopback ports and resolves once /readyz is OK.
 * Throws (with the tail of the failing process's log) if the binaries are missing or startup fails.
 * Call stop() when done; processes are also killed when this node process exits.
 */
export async function startKubeApiServer(opts: StartKubeApiServerOptions = {}): Promise<KubeTestServer> {
  const bins = await kubeBinaries();
  if (!bins) throw new Error(`kube-apiserver/etcd not built; run: bash test/kube/build.sh`);
  const parent = opts.workDir ?? tmpdir();
  await sweepStaleDirs(parent);
  for (let attempt = 1; ; attempt++) {
    installExitHook();
    const dir = await mkdtemp(join(parent, DIR_PREFIX));
    liveDirs.add(dir);
    try {
      await writeFile(join(dir, 'owner.pid'), String(process.pid));
      await mkdir(join(dir, 'apiserver-certs'));
      await writeCerts(dir);
      return await startOnce(dir, bins, opts.extraArgs ?? []);
    } catch (err) {
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
      liveDirs.delete(dir);
      // A free port can be taken by someone else before the child binds it; try fresh ports.
      if (!(err instanceof StartError && err.portClash && attempt < 3)) throw err;
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes work dirs (~120 MB each, mostly etcd's WAL) left by test processes that were SIGKILLed. */
async function sweepStaleDirs(parent: string): Promise<void> {
  const names = await readdir(parent).catch(() => []);
  for (const name of names.filter((n) => n.startsWith(DIR_PREFIX))) {
    const dir = join(parent, name);
    const owner = Number.parseInt(await readFile(join(dir, 'owner.pid'), 'utf8').catch(() => ''), 10);
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner))
      await rm(dir, { recursive: true, force: true });
  }
}

let shared: Promise<KubeTestServer> | undefined;

/**
 * One server for the whole test process (startup costs seconds), killed when the process exits.
 * Suites sharing it should work in their own namespaces. Do not stop() it.
 */
export function sharedKubeApiServer(): Promise<KubeTestServer> {
  shared ??= startKubeApiServer().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}
