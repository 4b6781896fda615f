// Users of the live API on the test cluster (decision 0019), each with only what they say: a
// ServiceAccount of a namespace with `view` there (a TokenRequest token, no Secret), and a user who has
// nothing but a client certificate signed by the cluster's CA. Requests go to the real API server, which
// authenticates them and proxies to the operator pods.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster, ClusterFacts } from './cluster-support.js';

export interface LiveUser {
  name: string;
  token?: string;
  cert?: string;
  key?: string;
}

/** A ServiceAccount in `namespace` with the built-in `view` role there (and nowhere else). */
export async function viewerAccount(cluster: Cluster, namespace: string, name: string): Promise<LiveUser> {
  await cluster.must(['create', 'serviceaccount', name, '-n', namespace]);
  await cluster.must([
    'create',
    'rolebinding',
    `${name}-view`,
    '-n',
    namespace,
    '--clusterrole',
    'view',
    `--serviceaccount=${namespace}:${name}`,
  ]);
  const token = (await cluster.must(['create', 'token', name, '-n', namespace, '--duration', '1h'])).trim();
  return { name: `system:serviceaccount:${namespace}:${name}`, token };
}

/** A user known only by a client certificate (CN name, O group) from the cluster's CA. */
export function certificateUser(facts: ClusterFacts, name: string, group: string): LiveUser {
  const pki = join(facts.stateDir, 'pki');
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-live-user-'));
  const key = join(dir, 'user.key');
  const csr = join(dir, 'user.csr');
  const cert = join(dir, 'user.crt');
  const ext = join(dir, 'user.ext');
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl([
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    csr,
    '-subj',
    `/O=${group}/CN=${name}`,
  ]);
  writeFileSync(ext, 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n');
  const ca = ['-CA', join(pki, 'ca.crt'), '-CAkey', join(pki, 'ca.key')];
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    ...ca,
    '-set_serial',
    '0x1234abcd',
    '-days',
    '1',
    '-extfile',
    ext,
    '-out',
    cert,
  ]);
  return { name, cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

export interface LiveStream {
  status: number;
  lines: string[];
  body: Promise<string>;
  close(): void;
}

/** A GET of the live API through the API server as `user` (none: anonymous); lines as they arrive. */
export function liveGet(facts: ClusterFacts, path: string, user: LiveUser | undefined): Promise<LiveStream> {
  const ca = readFileSync(join(facts.stateDir, 'pki', 'ca.crt'));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: facts.nodeIp,
        port: 6443,
        path: `/apis/live.streamroute.io/v1alpha1/${path}`,
        ca,
        agent: false,
        ...(user?.cert === undefined ? {} : { cert: user.cert, key: user.key }),
        headers: user?.token === undefined ? {} : { authorization: `Bearer ${user.token}` },
      },
      (response) => {
        const lines: string[] = [];
        let text = '';
        let pending = '';
        response.setEncoding('utf8');
        const body = new Promise<string>((done) => {
          response.on('data', (chunk: string) => {
            text += chunk;
            const parts = (pending + chunk).split('\n');
            pending = parts.pop() ?? '';
            lines.push(...parts);
          });
          response.on('end', () => done(text));
          response.on('close', () => done(text));
        });
        resolve({ status: response.statusCode ?? 0, lines, body, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
