// Certificates for TLS tests, made by the real `openssl` binary (Debian package): a self-signed P-256
// certificate per server name, with the name as CN and subjectAltName.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCert {
  name: string;
  cert: Buffer;
  key: Buffer;
}

export function makeSelfSignedCert(name: string): TestCert {
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-cert-'));
  try {
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
      ],
      { stdio: 'pipe' },
    );
    return { name, cert: readFileSync(certFile), key: readFileSync(keyFile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
