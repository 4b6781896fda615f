// Certificates for the HTTPS listener: one TLS context per vhost's certificate and key, picked by SNI.
// The bytes come from the runtime (a mounted resource file, or a Kubernetes Secret); a certificate or key
// that cannot be read or used is a problem of that vhost only: its hostnames get no context, so their
// handshakes fail, and every other vhost keeps being served. Messages name the vhost's hostnames, the file
// or Secret and the OpenSSL code, never key material.
import { createSecureContext, type SecureContext } from 'node:tls';
import type { GraphHttpIngestor, MountedFile } from '../graph/types.js';
import { errorCode } from '../core/error-code.js';

/** TLS of a vhost: a Secret (Kubernetes) or files of a mounted resource version. */
export type HttpTls = NonNullable<GraphHttpIngestor['tls']>;

export interface TlsMaterialSource {
  /** The bytes of a file of a resource version uploaded to `domain`; throws when it is missing. */
  readMountedFile(file: MountedFile, domain: string): Buffer;
  /** The `tls.crt` and `tls.key` of a kubernetes.io/tls Secret in `domain`; absent outside Kubernetes. */
  readSecret?(name: string, domain: string): { cert: Buffer; key: Buffer };
}

export type TlsProblemCode = 'tls_unavailable' | 'tls_invalid';

export interface TlsProblem {
  code: TlsProblemCode;
  message: string;
}

export type TlsContextResult = { context: SecureContext } | { problem: TlsProblem };

/** Identifies the material: two vhosts naming the same Secret or the same files share a context. */
export function tlsMaterialKey(tls: HttpTls, domain: string): string {
  if ('secretName' in tls) return `${domain}:secret:${tls.secretName}`;
  return `${domain}:mount:${fileLabel(tls.certFile)}|${fileLabel(tls.keyFile)}`;
}

function fileLabel(file: MountedFile): string {
  return `${file.resource}@${file.version}/${file.file}`;
}

/** Reads and checks the certificate and key; never throws. */
export function buildTlsContext(tls: HttpTls, domain: string, source: TlsMaterialSource): TlsContextResult {
  const read = readMaterial(tls, domain, source);
  if ('problem' in read) return read;
  try {
    return { context: createSecureContext({ cert: read.cert, key: read.key }) };
  } catch (error: unknown) {
    return {
      problem: {
        code: 'tls_invalid',
        message: `the certificate and key of ${describe(tls)} cannot be used (${errorCode(error, 'unknown error')}); expected a PEM certificate chain and the PEM private key that matches it`,
      },
    };
  }
}

function readMaterial(
  tls: HttpTls,
  domain: string,
  source: TlsMaterialSource,
): { cert: Buffer; key: Buffer } | { problem: TlsProblem } {
  try {
    if ('secretName' in tls) {
      if (source.readSecret === undefined)
        throw Object.assign(new Error('no Secrets'), { code: 'ENOSECRETS' });
      return source.readSecret(tls.secretName, domain);
    }
    return {
      cert: source.readMountedFile(tls.certFile, domain),
      key: source.readMountedFile(tls.keyFile, domain),
    };
  } catch (error: unknown) {
    return {
      problem: {
        code: 'tls_unavailable',
        message: `the certificate or key of ${describe(tls)} cannot be read (${errorCode(error, 'unknown error')})`,
      },
    };
  }
}

function describe(tls: HttpTls): string {
  if ('secretName' in tls) return `Secret ${tls.secretName}`;
  return `${fileLabel(tls.certFile)} and ${fileLabel(tls.keyFile)}`;
}
