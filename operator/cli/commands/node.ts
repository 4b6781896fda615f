// `streamroute node`: runs the embedded node until SIGINT or SIGTERM (or the test's AbortSignal). Logs
// are JSON lines on stderr (pino); one plain line on stdout says where the node listens.
import { pino, type Logger } from 'pino';
import { DEFAULT_ADMIN_LISTEN_ADDR } from '../../../dataplane/admin/admin-server.js';
import {
  DEFAULT_HTTP_LISTEN_ADDR,
  DEFAULT_HTTPS_LISTEN_ADDR,
  parseListenAddr,
} from '../../../dataplane/sources/http/config.js';
import type { ListenAddress } from '../../../dataplane/sources/retrying-listener.js';
import { UsageError } from '../client/errors.js';
import { untilInterrupted } from '../client/interrupt.js';
import { startEmbeddedNode, type EmbeddedNode } from '../embedded-node.js';
import { DataDirError } from '../node/data-dir-error.js';
import { ManifestError } from '../node/manifests.js';
import { EXIT, type Output } from '../report.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export interface NodeOptions {
  manifests?: string;
  dataDir?: string;
  httpListenAddr: string;
  httpsListenAddr: string;
  adminListenAddr: string;
  logLevel: (typeof LOG_LEVELS)[number];
}

export const NODE_DEFAULTS = {
  httpListenAddr: DEFAULT_HTTP_LISTEN_ADDR,
  httpsListenAddr: DEFAULT_HTTPS_LISTEN_ADDR,
  adminListenAddr: DEFAULT_ADMIN_LISTEN_ADDR,
} as const;

export async function runNode(
  options: NodeOptions,
  output: Output,
  context: { signal?: AbortSignal; logger?: Logger } = {},
): Promise<number> {
  const addresses = {
    httpAddress: address('--http-listen-addr', options.httpListenAddr),
    httpsAddress: address('--https-listen-addr', options.httpsListenAddr),
    adminAddress: address('--admin-listen-addr', options.adminListenAddr),
  };
  const logger = context.logger ?? pino({ level: options.logLevel }, pino.destination(2));
  let node: EmbeddedNode;
  try {
    node = await startEmbeddedNode({
      ...addresses,
      logger,
      ...(options.manifests === undefined ? {} : { manifests: options.manifests }),
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    });
  } catch (error: unknown) {
    if (!(error instanceof DataDirError || error instanceof ManifestError)) throw error;
    output.err(`streamroute node: ${error.message}`);
    return EXIT.io;
  }
  output.out(summary(node, options));
  const interrupt = context.signal ? { signal: context.signal, dispose: () => {} } : untilInterrupted();
  await new Promise((resolve) => {
    if (interrupt.signal.aborted) resolve(undefined);
    else interrupt.signal.addEventListener('abort', resolve, { once: true });
  });
  interrupt.dispose();
  logger.info('stopping');
  await node.stop();
  return EXIT.ok;
}

function address(flag: string, text: string): ListenAddress {
  const parsed = parseListenAddr(text);
  if (!parsed.ok) throw new UsageError(`${flag} ${parsed.message}`);
  return parsed.address;
}

/** `streamroute node: HTTP 0.0.0.0:8080 · admin http://127.0.0.1:8081 · domain default: graph version 1` */
function summary(node: EmbeddedNode, options: NodeOptions): string {
  const ports = node.ports();
  const http = node.dataPlane.httpIngestion.http.status;
  const httpText =
    http.state === 'Running'
      ? `HTTP ${withPort(options.httpListenAddr, ports.http)}`
      : `HTTP ${options.httpListenAddr} ${http.state} (${http.error?.code ?? 'starting'}; see the log)`;
  const admin = `admin http://${withPort(options.adminListenAddr, ports.admin)}`;
  const domains = [...node.dataPlane.versions()].map(
    ([domain, version]) => `domain ${domain}: graph version ${version}`,
  );
  const data =
    options.dataDir === undefined ? 'no --data-dir (nothing kept after stop)' : `data ${options.dataDir}`;
  return [
    'streamroute node:',
    [httpText, admin, ...(domains.length > 0 ? domains : ['no graph yet']), data].join(' · '),
  ].join(' ');
}

/** The configured address with the bound port (they differ when the port is 0). */
function withPort(configured: string, port: number): string {
  return port === 0 ? configured : configured.replace(/:\d+$/, `:${port}`);
}
