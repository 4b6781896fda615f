// A small PKI for TLS tests, made by the real `openssl` binary: a CA, server and client certificates it
// signs (P-256, with subjectAltName), an expired server certificate, and a second CA nobody trusts. Files
// are written to a temporary directory too, for daemons (rsyslog, syslog-ng, openssl s_client/s_server)
// that read paths. Made once per process: key generation costs ~10 ms each.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PemPair {
  cert: Buffer;
  key: Buffer;
  certFile: string;
  keyFile: string;
}

export interface TestPki {
  dir: string;
  ca: PemPair;
  /** Signed by `ca`; names `localhost` and `syslog.test`, IP 127.0.0.1 and ::1. */
  server: PemPair;
  /** Signed by `ca`, clientAuth. */
  client: PemPair;
  /** Signed by `ca`, expired (valid from 2000 to 2001). */
  expiredServer: PemPair;
  /** Signed by `ca`, clientAuth, expired. */
  expiredClient: PemPair;
  /** A CA nobody trusts, and a client and a server certificate it signed. */
  otherCa: PemPair;
  untrustedClient: PemPair;
  untrustedServer: PemPair;
}

let made: TestPki | undefined;

export function testPki(): TestPki {
  made ??= makePki();
  return made;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-pki-'));
  const ca = makeCa(dir, 'ca', 'streamroute test CA');
  const otherCa = makeCa(dir, 'other-ca', 'untrusted test CA');
  const serverNames = 'subjectAltName=DNS:localhost,DNS:syslog.test,IP:127.0.0.1,IP:::1';
  return {
    dir,
    ca,
    otherCa,
    server: signed(dir, 'server', ca, { cn: 'localhost', ext: serverNames, usage: 'serverAuth' }),
    client: signed(dir, 'client', ca, {
      cn: 'client.test',
      ext: 'subjectAltName=DNS:client.test',
      usage: 'clientAuth',
    }),
    expiredServer: signed(dir, 'expired-server', ca, {
      cn: 'localhost',
      ext: serverNames,
      usage: 'serverAuth',
      expired: true,
    }),
    expiredClient: signed(dir, 'expired-client', ca, {
      cn: 'client.test',
      ext: 'subjectAltName=DNS:client.test',
      usage: 'clientAuth',
      expired: true,
    }),
    untrustedClient: signed(dir, 'untrusted-client', otherCa, {
      cn: 'client.test',
      ext: 'subjectAltName=DNS:client.test',
      usage: 'clientAuth',
    }),
    untrustedServer: signed(dir, 'untrusted-server', otherCa, {
      cn: 'localhost',
      ext: serverNames,
      usage: 'serverAuth',
    }),
  };
}

function newKey(keyFile: string): void {
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keyFile]);
}

function makeCa(dir: string, name: string, cn: string): PemPair {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  newKey(keyFile);
  openssl([
    'req',
    '-x509',
    '-new',
    '-key',
    keyFile,
    '-out',
    certFile,
    '-days',
    '30',
    '-subj',
    `/CN=${cn}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return pair(certFile, keyFile);
}

export interface Leaf {
  cn: string;
  /** openssl extension lines, e.g. `subjectAltName=DNS:syslog.test`. */
  ext: string;
  usage: 'serverAuth' | 'clientAuth';
  expired?: boolean;
}

/** A P-256 leaf certificate signed by `ca`, written as `<name>.crt` / `<name>.key` under `dir`. */
export function signed(dir: string, name: string, ca: PemPair, leaf: Leaf): PemPair {
  const keyFile = join(dir, `${name}.key`);
  const csrFile = join(dir, `${name}.csr`);
  const certFile = join(dir, `${name}.crt`);
  const extFile = join(dir, `${name}.ext`);
  newKey(keyFile);
  openssl(['req', '-new', '-key', keyFile, '-out', csrFile, '-subj', `/CN=${leaf.cn}`]);
  writeFileSync(extFile, `${leaf.ext}\nextendedKeyUsage=${leaf.usage}\nbasicConstraints=CA:FALSE\n`);
  if (leaf.expired) signExpired(dir, name, ca, { csrFile, certFile, extFile });
  else {
    openssl([
      'x509',
      '-req',
      '-in',
      csrFile,
      '-CA',
      ca.certFile,
      '-CAkey',
      ca.keyFile,
      '-CAcreateserial',
      '-out',
      certFile,
      '-extfile',
      extFile,
      '-days',
      '30',
    ]);
  }
  return pair(certFile, keyFile);
}

/** OpenSSL 3.0's `x509` cannot set past dates; its `ca` command can (a minimal database per call). */
function signExpired(
  dir: string,
  name: string,
  ca: PemPair,
  { csrFile, certFile, extFile }: { csrFile: string; certFile: string; extFile: string },
): void {
  const db = join(dir, `${name}.db`);
  writeFileSync(db, '');
  writeFileSync(`${db}.attr`, 'unique_subject = no\n');
  const config = join(dir, `${name}.cnf`);
  writeFileSync(
    config,
    [
      '[ca]',
      'default_ca = test',
      '[test]',
      `database = ${db}`,
      `new_certs_dir = ${dir}`,
      `serial = ${join(dir, `${name}.serial`)}`,
      'default_md = sha256',
      'policy = any',
      '[any]',
      'commonName = supplied',
    ].join('\n'),
  );
  writeFileSync(join(dir, `${name}.serial`), '1000\n');
  openssl([
    'ca',
    '-batch',
    '-config',
    config,
    '-cert',
    ca.certFile,
    '-keyfile',
    ca.keyFile,
    '-in',
    csrFile,
    '-out',
    certFile,
    '-extfile',
    extFile,
    '-startdate',
    '20000101000000Z',
    '-enddate',
    '20010101000000Z',
    '-notext',
  ]);
}

function pair(certFile: string, keyFile: string): PemPair {
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), certFile, keyFile };
}
