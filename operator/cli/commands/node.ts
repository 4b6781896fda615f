// `streamroute node`: runs the embedded node until SIGINT or SIGTERM (or the test's AbortSignal). Logs
// are JSON lines on stderr (pino); one plain line on stdout says where the node listens. The signals are
// caught from before the node starts, so one that arrives while it starts stops it cleanly once started.
// A node that cannot start (its data dir, its manifests) is one line on stderr and exit 3.
import { pino, type Logger } from 'pino';
import { parseListenAddr } from '../../../dataplane/sources/http/config.js';
import type { ListenAddress } from '../../../dataplane/net/retrying-listener.js';
import { resolveConnectionFlags, type ConnectionFlags } from '../../../dataplane/kube/dataplane-flags.js';
import {
  resolveSubscriptionFlags,
  type SubscriptionFlags,
} from '../../../dataplane/kube/subscription-flags.js';
import { UsageError } from '../../client/errors.js';
import { untilInterrupted } from '../../client/interrupt.js';
import { startEmbeddedNode, type EmbeddedNode, type EmbeddedNodeOptions } from '../../node/embedded-node.js';
import { DataDirError } from '../../node/data-dir-error.js';
import { errorName } from '../../../dataplane/core/error-text.js';
import { ManifestError } from '../../node/manifests.js';
import { EXIT, type Output } from '../../client/report.js';
import { LOG_LEVELS } from './node-defaults.js';

export { LOG_LEVELS, NODE_DEFAULTS } from './node-defaults.js';

export interface NodeOptions extends ConnectionFlags, SubscriptionFlags {
  manifests?: string;
  dataDir?: string;
  httpListenAddr: string;
  httpsListenAddr: string;
  adminListenAddr: string;
  /** `--admin-allowed-host`: names besides loopback and IP literals the admin API answers for. */
  adminAllowedHost?: string[];
  logLevel: (typeof LOG_LEVELS)[number];
}

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
  const limits = resolveConnectionFlags(options);
  if ('message' in limits) throw new UsageError(limits.message);
  const subscriptions = resolveSubscriptionFlags(options);
  if ('message' in subscriptions) throw new UsageError(subscriptions.message);
  const logger = context.logger ?? pino({ level: options.logLevel }, pino.destination(2));
  const interrupt = untilInterrupted(context.signal);
  try {
    const node = await start(options, { ...addresses, ...limits, ...subscriptions }, logger);
    if (typeof node === 'string') {
      output.err(`streamroute node: ${node}`);
      return EXIT.io;
    }
    if (!interrupt.signal.aborted) {
      output.out(summary(node, options));
      await aborted(interrupt.signal);
    }
    logger.info('stopping');
    try {
      await node.stop();
    } catch (error: unknown) {
      output.err(`streamroute node: stopping failed (${errorName(error)}); the log says which step`);
      return EXIT.io;
    }
    return EXIT.ok;
  } finally {
    interrupt.dispose();
  }
}

/** The node, or the one line that says why it cannot start. */
async function start(
  options: NodeOptions,
  addresses: Pick<
    EmbeddedNodeOptions,
    | 'httpAddress'
    | 'httpsAddress'
    | 'adminAddress'
    | 'connections'
    | 'adminMaxConnections'
    | 'subscriptionLimits'
  >,
  logger: Logger,
): Promise<EmbeddedNode | string> {
  try {
    return await startEmbeddedNode({
      ...addresses,
      logger,
      ...(options.manifests === undefined ? {} : { manifests: options.manifests }),
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.adminAllowedHost === undefined ? {} : { adminAllowedHosts: options.adminAllowedHost }),
    });
  } catch (error: unknown) {
    if (error instanceof DataDirError || error instanceof ManifestError) return error.message;
    throw error;
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
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
