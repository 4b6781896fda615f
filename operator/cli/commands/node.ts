// `streamroute node`: runs the embedded node until SIGINT or SIGTERM (or the test's AbortSignal). Logs
// go to stderr (pino): text lines on a terminal, JSON lines otherwise (`--log-format`); one plain line on
// stdout says what serves where (node-banner.ts). The
// signals are caught from before the node starts, so one that arrives while it starts stops it cleanly
// once started. A node that cannot start (its data dir, its manifests, a port it must own with
// `--on-bind-error exit`) is one line on stderr and exit 3.
import type { Logger } from 'pino';
import { logFormatFor, type LogFormat } from '../../../dataplane/core/log-format.js';
import { processLogger } from '../../../dataplane/core/process-logger.js';
import { parseListenAddr, type HttpErrorBody } from '../../../dataplane/sources/http/config.js';
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
import { LOG_LEVELS, NODE_DEFAULTS } from './node-defaults.js';
import { BindError, type BindErrorMode } from '../../../dataplane/node/node-listeners.js';
import { banner, reportPending } from './node-banner.js';

export { LOG_LEVELS, NODE_DEFAULTS } from './node-defaults.js';

export interface NodeOptions extends ConnectionFlags, SubscriptionFlags {
  manifests?: string;
  dataDir?: string;
  httpListenAddr: string;
  httpsListenAddr: string;
  adminListenAddr: string;
  /** `--admin-allowed-host`: names besides loopback and IP literals the admin API answers for. */
  adminAllowedHost?: string[];
  /** `--on-bind-error`: a listener that cannot bind at start stops the node (`exit`) or retries. */
  onBindError?: BindErrorMode;
  /** `--http-error-body`: a refused HTTP request's body explains why (`explain`) or is empty. */
  httpErrorBody?: HttpErrorBody;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `--log-format`; without it, text when stderr is a terminal and JSON otherwise. */
  logFormat?: LogFormat;
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
  const logger =
    context.logger ?? processLogger(options.logLevel, logFormatFor(options.logFormat, process.stderr));
  const interrupt = untilInterrupted(context.signal);
  try {
    const node = await start(
      options,
      {
        ...addresses,
        ...limits,
        ...subscriptions,
        onBindError: options.onBindError ?? NODE_DEFAULTS.onBindError,
        httpErrorBody: options.httpErrorBody ?? NODE_DEFAULTS.httpErrorBody,
      },
      logger,
    );
    if (typeof node === 'string') {
      output.err(`streamroute node: ${node}`);
      return EXIT.io;
    }
    if (!interrupt.signal.aborted) {
      output.out(banner(node, options.dataDir));
      reportPending(node, output, interrupt.signal);
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
    | 'onBindError'
    | 'httpErrorBody'
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
    if (error instanceof DataDirError || error instanceof ManifestError || error instanceof BindError)
      return error.message;
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
