// openssl as a TLS peer for the syslog TLS edge cases: `s_server` as a TLS server whose certificate the
// test chooses (one lacking the name, one from a CA nobody trusts), `s_client` as a sender with or
// without a client certificate, and a certificate signed by the test CA for a name the emitter does not
// use. s_server runs as a Daemon (own process group, killed with its temp dir).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { signed, type PemPair } from './test-pki.js';
import { Daemon, daemonDir } from './syslog-peers.js';
import { freeTcpPort } from './syslog-wire-daemons.js';

export const OPENSSL = '/usr/bin/openssl';
const READY_TIMEOUT_MS = 10_000;

/** A leaf certificate for `dns` only (no IP, no localhost), signed by `ca`, written under `dir`. */
export function certificateFor(dir: string, dns: string, ca: PemPair): { certFile: string; keyFile: string } {
  return signed(dir, dns, ca, { cn: dns, ext: `subjectAltName=DNS:${dns}`, usage: 'serverAuth' });
}

export interface OpensslServer {
  daemon: Daemon;
  port: number;
  /** What s_server printed so far (its log: handshakes and errors). */
  output(): Promise<string>;
  stop(): Promise<void>;
}

/** `openssl s_server` on a free loopback port with the given identity; ready once it prints ACCEPT. */
export async function startOpensslServer(cert: string, key: string): Promise<OpensslServer> {
  const dir = daemonDir('s_server');
  const port = await freeTcpPort();
  // -rev: an echo service that never reads stdin (plain s_server ends at the end of its stdin)
  const args = ['s_server', '-accept', `127.0.0.1:${port}`, '-cert', cert, '-key', key, '-rev'];
  const daemon = Daemon.start({ name: 'openssl s_server', dir, binary: OPENSSL, args });
  const output = (): Promise<string> => readFile(join(dir, 'daemon.log'), 'utf8').catch(() => '');
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await output()).includes('ACCEPT')) {
    if (!daemon.running || Date.now() > deadline) {
      const tail = await daemon.logTail();
      await daemon.stop();
      throw new Error(`openssl s_server did not start:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { daemon, port, output, stop: () => daemon.stop() };
}

export interface ClientRun {
  code: number | null;
  output: string;
}

/**
 * `openssl s_client` to 127.0.0.1:`port`, verifying the server against `ca` for `localhost`, presenting
 * `identity` when given; writes `input`, then closes at its end (`closeAtEnd`) or waits (at most 5 s) for
 * the server to close the connection, which is how a refusal after a TLS 1.3 handshake shows.
 */
export function runOpensslClient(options: {
  port: number;
  ca: string;
  input: string;
  identity?: { cert: string; key: string } | undefined;
  closeAtEnd?: boolean;
}): Promise<ClientRun> {
  const { port, ca, input, identity, closeAtEnd = false } = options;
  const args = ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost', '-CAfile', ca];
  args.push('-verify_return_error', '-quiet');
  if (closeAtEnd) args.push('-no_ign_eof');
  if (identity !== undefined) args.push('-cert', identity.cert, '-key', identity.key);
  return new Promise((resolve) => {
    const child = execFile(OPENSSL, args, { timeout: 5_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(input);
  });
}
