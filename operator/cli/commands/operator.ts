// `streamroute operator`: runs the controller until SIGTERM or SIGINT (or the test's AbortSignal), then
// stops the watches, releases the lease and exits 0. Logs go to stderr (pino): text lines on a terminal,
// JSON lines otherwise (`--log-format`; the chart always asks for JSON). An operator
// that cannot start (no kubeconfig, the health port taken) is one line on stderr and exit 3.
import { Command, Option } from 'commander';
import type { Logger } from 'pino';
import { LEASE_NAME } from '../../../dataplane/kube/contract.js';
import { parseListenAddr } from '../../../dataplane/sources/http/config.js';
import type { ReconcileDomain } from '../../controller/domain-snapshot.js';
import { DEFAULT_HEALTH_LISTEN_ADDR } from '../../../dataplane/admin/admin-defaults.js';
import { defaultIdentity } from '../../controller/identity.js';
import type { OperatorConfig, RunningOperator } from '../../controller/main.js';
import { UsageError } from '../../client/errors.js';
import { untilInterrupted } from '../../client/interrupt.js';
import { EXIT, type Output } from '../../client/report.js';
import { LOG_LEVELS, logFormatOption } from './node-defaults.js';
import { logFormatFor, type LogFormat } from '../../../dataplane/core/log-format.js';
import { messageOf } from '../../../dataplane/core/error-text.js';
import type { Registry } from 'prom-client';
import {
  DEFAULT_INTERNAL_SERVER_NAME,
  DEFAULT_MAX_STREAM_MS,
  DEFAULT_REAUTHORIZE_MS,
} from '../../access/live-api-defaults.js';
import type { LiveApiConfig, RunningLiveApi } from '../../cluster/live-api.js';

export interface OperatorOptions {
  kubeconfig?: string;
  context?: string;
  namespace: string;
  watchNamespaces?: string;
  keepVersions: string;
  leaderElect: boolean;
  leaseName: string;
  identity: string;
  healthListenAddr: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `--log-format`; without it, text when stderr is a terminal and JSON otherwise. */
  logFormat?: LogFormat;
  qps: string;
  burst: string;
  /** The live API (decision 0019): all three, or none. */
  liveListenAddr?: string;
  liveTlsCertFile?: string;
  liveTlsKeyFile?: string;
  /** How the live API reaches the data-plane pods (decision 0019): all three files, or port-forwards. */
  internalCaFile?: string;
  internalClientCertFile?: string;
  internalClientKeyFile?: string;
  internalServerName: string;
  liveReauthorizeSeconds: string;
  liveMaxStreamSeconds: string;
}

export interface OperatorContext {
  signal?: AbortSignal;
  logger?: Logger;
  env?: Readonly<Record<string, string | undefined>>;
  /** Tests: a reconcile of their own. */
  reconcileDomain?: ReconcileDomain;
}

/** Adds `streamroute operator` and its flags to the program. */
export function addOperatorCommand(
  program: Command,
  output: Output,
  exit: (code: number) => void,
  context: OperatorContext = {},
): void {
  const env = context.env ?? process.env;
  program
    .command('operator')
    .description('run the Kubernetes operator: watch graph resources, publish graph versions, write status')
    .option('--kubeconfig <path>', 'kubeconfig file (default: the in-cluster service account)')
    .option('--context <name>', 'kubeconfig context')
    .option('--namespace <namespace>', "the operator's namespace (lease, index)", defaultNamespace(env))
    .option('--watch-namespaces <a,b>', 'only these namespaces (default: all)')
    .option('--keep-versions <n>', 'graph versions kept per domain', '10')
    .option('--leader-elect', 'elect a leader among replicas through a Lease', true)
    .option('--no-leader-elect', 'run as the only replica, without a Lease')
    .option('--lease-name <name>', 'the Lease to elect a leader with', LEASE_NAME)
    .option(
      '--identity <id>',
      'this replica in the Lease (default: POD_NAME, else hostname-pid)',
      defaultIdentity(env),
    )
    .option('--health-listen-addr <ip:port>', '/healthz, /readyz and /metrics', DEFAULT_HEALTH_LISTEN_ADDR)
    .addOption(new Option('--log-level <level>', 'log level (on stderr)').choices(LOG_LEVELS).default('info'))
    .addOption(logFormatOption())
    .option('--qps <n>', 'API requests per second', '50')
    .option('--burst <n>', 'API request burst', '100')
    .option(
      '--live-listen-addr <ip:port>',
      'serve the live API (live.streamroute.io: relay records and describe, as the user) here; needs the two files below',
    )
    .option(
      '--live-tls-cert-file <path>',
      'the live API’s serving certificate (for <service>.<namespace>.svc)',
    )
    .option('--live-tls-key-file <path>', 'its private key')
    .option(
      '--live-reauthorize-seconds <n>',
      "how often an open stream's access is reviewed again; a stream whose access was withdrawn ends",
      String(DEFAULT_REAUTHORIZE_MS / 1000),
    )
    .option(
      '--live-max-stream-seconds <n>',
      'how long a stream stays open before the client must open it again (and so authenticate again)',
      String(DEFAULT_MAX_STREAM_MS / 1000),
    )
    .option(
      '--internal-ca-file <path>',
      "the CA of the data plane's internal listeners: the live API reaches pods there (without it: through port-forwards)",
    )
    .option('--internal-client-cert-file <path>', "the operator's client certificate for those listeners")
    .option('--internal-client-key-file <path>', 'its private key')
    .option(
      '--internal-server-name <name>',
      "the name on the data plane's internal serving certificate",
      DEFAULT_INTERNAL_SERVER_NAME,
    )
    .action(async (options: OperatorOptions) => exit(await runOperator(options, output, context)));
}

function defaultNamespace(env: Readonly<Record<string, string | undefined>>): string {
  const namespace = env['POD_NAMESPACE'];
  return namespace !== undefined && namespace !== '' ? namespace : 'streamroute-system';
}

/** The operator's configuration from its flags; throws UsageError for a flag that cannot work. */
export function operatorConfig(options: OperatorOptions, logger: Logger): OperatorConfig {
  const health = parseListenAddr(options.healthListenAddr);
  if (!health.ok) throw new UsageError(`--health-listen-addr ${health.message}`);
  const watchNamespaces = options.watchNamespaces
    ?.split(',')
    .map((namespace) => namespace.trim())
    .filter((namespace) => namespace !== '');
  return {
    namespace: options.namespace,
    keepVersions: positive('--keep-versions', options.keepVersions, true),
    healthAddress: health.address,
    rateLimit: {
      qps: positive('--qps', options.qps, false),
      burst: positive('--burst', options.burst, true),
    },
    logger,
    ...(options.kubeconfig === undefined ? {} : { kubeconfig: options.kubeconfig }),
    ...(options.context === undefined ? {} : { context: options.context }),
    ...(watchNamespaces === undefined || watchNamespaces.length === 0 ? {} : { watchNamespaces }),
    ...(options.leaderElect
      ? { leaderElection: { name: options.leaseName, identity: options.identity } }
      : {}),
  };
}

function positive(flag: string, text: string, integer: boolean): number {
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)}: expected a positive ${integer ? 'integer' : 'number'}`,
    );
  }
  return value;
}

export async function runOperator(
  options: OperatorOptions,
  output: Output,
  context: OperatorContext = {},
): Promise<number> {
  // Loaded here, not at the top: the rest of the command line starts without them.
  const [{ processLogger }, { startOperator }] = await Promise.all([
    import('../../../dataplane/core/process-logger.js'),
    import('../../controller/main.js'),
  ]);
  const logger =
    context.logger ?? processLogger(options.logLevel, logFormatFor(options.logFormat, process.stderr));
  const config = operatorConfig(options, logger);
  const live = liveConfig(options);
  const interrupt = untilInterrupted(context.signal);
  try {
    let operator: RunningOperator;
    try {
      operator = await startOperator({
        ...config,
        ...(context.reconcileDomain === undefined ? {} : { reconcileDomain: context.reconcileDomain }),
      });
    } catch (error: unknown) {
      output.err(`streamroute operator: cannot start: ${messageOf(error)}`);
      return EXIT.io;
    }
    let liveApi: RunningLiveApi | undefined;
    try {
      if (live !== undefined) liveApi = await startLive(live, config, logger, operator.controller.registry);
    } catch (error: unknown) {
      await operator.stop({ release: true });
      output.err(`streamroute operator: cannot start the live API: ${messageOf(error)}`);
      return EXIT.io;
    }
    await aborted(interrupt.signal);
    logger.info('stopping');
    await liveApi?.close();
    await operator.stop({ release: true });
    return EXIT.ok;
  } finally {
    interrupt.dispose();
  }
}

/** The live API's flags checked: undefined when none is given, else all of them (or a UsageError). */
export function liveConfig(options: OperatorOptions): LiveApiConfig | undefined {
  const { liveListenAddr, liveTlsCertFile, liveTlsKeyFile } = options;
  const given = [liveListenAddr, liveTlsCertFile, liveTlsKeyFile].filter((flag) => flag !== undefined);
  const internal = [options.internalCaFile, options.internalClientCertFile, options.internalClientKeyFile];
  if (given.length === 0) {
    if (internal.some((flag) => flag !== undefined))
      throw new UsageError(
        '--internal-ca-file and its certificate are for the live API: give --live-listen-addr',
      );
    return undefined;
  }
  if (liveListenAddr === undefined || liveTlsCertFile === undefined || liveTlsKeyFile === undefined)
    throw new UsageError('--live-listen-addr, --live-tls-cert-file and --live-tls-key-file go together');
  const address = parseListenAddr(liveListenAddr);
  if (!address.ok) throw new UsageError(`--live-listen-addr ${address.message}`);
  const [caFile, certFile, keyFile] = internal;
  const config: LiveApiConfig = {
    address: address.address,
    certFile: liveTlsCertFile,
    keyFile: liveTlsKeyFile,
    reauthorizeMs: positive('--live-reauthorize-seconds', options.liveReauthorizeSeconds, false) * 1000,
    maxStreamMs: positive('--live-max-stream-seconds', options.liveMaxStreamSeconds, false) * 1000,
  };
  if (caFile === undefined && certFile === undefined && keyFile === undefined) return config;
  if (caFile === undefined || certFile === undefined || keyFile === undefined)
    throw new UsageError(
      '--internal-ca-file, --internal-client-cert-file and --internal-client-key-file go together',
    );
  return { ...config, internal: { caFile, certFile, keyFile, serverName: options.internalServerName } };
}

async function startLive(
  live: LiveApiConfig,
  config: OperatorConfig,
  logger: Logger,
  registry: Registry,
): Promise<RunningLiveApi> {
  const clusterOptions = {
    ...(config.kubeconfig === undefined ? {} : { kubeconfig: config.kubeconfig }),
    ...(config.context === undefined ? {} : { context: config.context }),
  };
  const [{ KubeApi }, { startLiveApi }] = await Promise.all([
    import('../../../dataplane/kube-client/kube-api.js'),
    import('../../cluster/live-api.js'),
  ]);
  const api = new KubeApi({
    ...clusterOptions,
    rateLimit: config.rateLimit,
    userAgent: 'streamroute-operator-live/0.1.0',
  });
  return startLiveApi(live, { api, clusterOptions, operatorNamespace: config.namespace, logger, registry });
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
