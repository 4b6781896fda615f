// The command line of `streamroute dataplane` (and of `node dataplane/main.js`): the flags, their defaults
// and environment fallbacks, and their check. One table, so the operator's CLI and the data plane's own
// entry point cannot drift. Pure: the environment is passed in.
import { isIP } from 'node:net';
import { DEFAULT_ADMIN_LISTEN_ADDR } from '../admin/admin-defaults.js';
import {
  DEFAULT_HTTP_LISTEN_ADDR,
  DEFAULT_HTTPS_LISTEN_ADDR,
  HTTP_ERROR_BODIES,
  parseListenAddr,
  type HttpErrorBody,
} from '../sources/http/config.js';
import type { ListenAddress } from '../net/retrying-listener.js';
import type { IngestConnectionOptions } from '../net/ingest-connections.js';
import { connectionDefaults } from '../net/fd-limit.js';
import { isLogFormat, LOG_FORMATS, type LogFormat } from '../core/log-format.js';
import type { SubscriptionLimits } from '../admin/subscription-limits.js';
import { BIND_ERROR_MODES, type BindErrorMode } from '../node/node-listeners.js';
import {
  INTERNAL_FLAGS,
  resolveInternalFlags,
  type InternalFlags,
  type InternalListenerFiles,
} from './internal-flags.js';
import {
  resolveSubscriptionFlags,
  SUBSCRIPTION_FLAGS,
  type SubscriptionFlags,
} from './subscription-flags.js';

export const DATAPLANE_LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type DataplaneLogLevel = (typeof DATAPLANE_LOG_LEVELS)[number];
export const DEFAULT_OPERATOR_NAMESPACE = 'streamroute-system';

/** The flags as given (strings, as a command-line parser hands them over). */
export interface DataplaneFlags extends SubscriptionFlags, InternalFlags {
  nodeName?: string;
  kubeconfig?: string;
  context?: string;
  operatorNamespace?: string;
  httpListenAddr?: string;
  httpsListenAddr?: string;
  adminListenAddr?: string;
  healthListenAddr?: string;
  bindHost?: string;
  logLevel?: string;
  logFormat?: string;
  qps?: string | number;
  burst?: string | number;
  maxConnections?: string | number;
  maxConnectionsPerPeer?: string | number;
  adminMaxConnections?: string | number;
  onBindError?: string;
  httpErrorBody?: string;
}

/** The connection-limit flags, shared by `streamroute dataplane` and `streamroute node`. */
export type ConnectionFlags = Pick<
  DataplaneFlags,
  'maxConnections' | 'maxConnectionsPerPeer' | 'adminMaxConnections'
>;

/** Their help lines; the defaults shown are this process's (docs/runtime.md, "Connection limits"). */
export function connectionFlagHelp(): readonly [keyof ConnectionFlags, string, string][] {
  const defaults = connectionDefaults();
  const limit = `the open-files limit ${defaults.fdLimit}`;
  return [
    [
      'maxConnections',
      '--max-connections <n>',
      `connections of the HTTP, HTTPS and syslog TCP/TLS listeners together (default from ${limit}: ${defaults.ingest})`,
    ],
    [
      'maxConnectionsPerPeer',
      '--max-connections-per-peer <n>',
      `connections of one IPv4 address or IPv6 /64 on one ingestion listener (default: a tenth of --max-connections, at least 8; now ${defaults.perPeer})`,
    ],
    [
      'adminMaxConnections',
      '--admin-max-connections <n>',
      `connections of the admin API (default from ${limit}: ${defaults.admin})`,
    ],
  ];
}

export interface ResolvedConnectionFlags {
  connections: IngestConnectionOptions;
  adminMaxConnections?: number;
}

/** Checks the connection-limit flags: whole numbers ≥ 1. */
export function resolveConnectionFlags(
  flags: ConnectionFlags,
): ResolvedConnectionFlags | { message: string } {
  const resolved: ResolvedConnectionFlags = { connections: {} };
  for (const [key, flag] of connectionFlagHelp()) {
    const text = flags[key];
    if (text === undefined) continue;
    const count = Number(text);
    if (!/^[1-9][0-9]*$/.test(String(text)) || !Number.isSafeInteger(count))
      return {
        message: `${flag.split(' ')[0] ?? flag} ${String(text)}: expected a whole number of at least 1`,
      };
    if (key === 'adminMaxConnections') resolved.adminMaxConnections = count;
    else if (key === 'maxConnections') resolved.connections.maxConnections = count;
    else resolved.connections.maxConnectionsPerPeer = count;
  }
  return resolved;
}

/** name, value placeholder, description, default (shown in help). */
export const DATAPLANE_FLAGS: readonly [keyof DataplaneFlags, string, string, string | undefined][] = [
  [
    'nodeName',
    '--node-name <name>',
    'the Kubernetes node this pod runs on (default: env NODE_NAME)',
    undefined,
  ],
  [
    'kubeconfig',
    '--kubeconfig <file>',
    'kubeconfig outside a pod (in a pod: the service account)',
    undefined,
  ],
  ['context', '--context <name>', 'kubeconfig context', undefined],
  [
    'operatorNamespace',
    '--operator-namespace <ns>',
    `where the index ConfigMap lives (default: env POD_NAMESPACE, else ${DEFAULT_OPERATOR_NAMESPACE})`,
    undefined,
  ],
  ['httpListenAddr', '--http-listen-addr <ip:port>', 'HTTP ingestion listener', DEFAULT_HTTP_LISTEN_ADDR],
  [
    'httpsListenAddr',
    '--https-listen-addr <ip:port>',
    'HTTPS listener for TLS vhosts',
    DEFAULT_HTTPS_LISTEN_ADDR,
  ],
  [
    'adminListenAddr',
    '--admin-listen-addr <ip:port>',
    'admin API: subscribe, describe, health, metrics (unauthenticated: keep it on loopback)',
    DEFAULT_ADMIN_LISTEN_ADDR,
  ],
  [
    'healthListenAddr',
    '--health-listen-addr <ip:port>',
    'a second listener with only /healthz, /readyz and /metrics, no record data (for probes and scrapes)',
    undefined,
  ],
  [
    'bindHost',
    '--bind-host <ip>',
    'syslog listeners declared on 0.0.0.0 or :: bind this IP instead',
    undefined,
  ],
  ['logLevel', '--log-level <level>', `log level: ${DATAPLANE_LOG_LEVELS.join(', ')}`, 'info'],
  [
    'logFormat',
    '--log-format <format>',
    `log lines as ${LOG_FORMATS.join(' or ')} (default: text when stderr is a terminal, else json)`,
    undefined,
  ],
  [
    'onBindError',
    '--on-bind-error <mode>',
    `a listener that cannot bind at start: retry until it can, or exit (one line on stderr, exit 3)`,
    'retry',
  ],
  [
    'httpErrorBody',
    '--http-error-body <mode>',
    'a refused HTTP request (404, 405, 413) gets an empty body, or a line saying why (explain: names the hosts and paths served)',
    'empty',
  ],
  ['qps', '--qps <n>', 'API requests per second (client-side limit)', '1'],
  ['burst', '--burst <n>', 'API requests allowed in a burst', '5'],
  ...connectionFlagHelp().map(([key, usage, text]): [keyof DataplaneFlags, string, string, undefined] => [
    key,
    usage,
    text,
    undefined,
  ]),
  ...[...SUBSCRIPTION_FLAGS, ...INTERNAL_FLAGS].map(
    ([key, usage, text]): [keyof DataplaneFlags, string, string, undefined] => [key, usage, text, undefined],
  ),
];

export interface ResolvedFlags {
  nodeName: string;
  kubeconfig?: string;
  context?: string;
  operatorNamespace: string;
  httpAddress: ListenAddress;
  httpsAddress: ListenAddress;
  adminAddress: ListenAddress;
  /** Probes and metrics only; none when not given (they stay on the admin listener either way). */
  healthAddress?: ListenAddress;
  bindHost?: string;
  logLevel: DataplaneLogLevel;
  /** `--log-format` as given; without it the format follows stderr (dataplane/core/log-format.ts). */
  logFormat?: LogFormat;
  /** `--on-bind-error`: a node on a cluster retries by default (a port held by a pod going away frees up). */
  onBindError: BindErrorMode;
  /** `--http-error-body`: empty on a cluster unless asked (an explanation names the hosts served). */
  httpErrorBody: HttpErrorBody;
  rateLimit: { qps: number; burst: number };
  /** `--max-connections`, `--max-connections-per-peer`: what is not given comes from the descriptor limit. */
  connections: IngestConnectionOptions;
  adminMaxConnections?: number;
  /** `--max-subscribers`, `--subscription-buffer-bytes`, `--node-subscription-buffer-bytes` as given. */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /** The operator's listener (`--internal-*`), when asked for. */
  internal?: InternalListenerFiles;
}

export type FlagsResult = { ok: true; flags: ResolvedFlags } | { ok: false; message: string };

/** Checks the flags and fills defaults from `env` (NODE_NAME, POD_NAMESPACE). */
export function resolveDataplaneFlags(
  flags: DataplaneFlags,
  env: Readonly<Record<string, string | undefined>>,
): FlagsResult {
  const nodeName = nonEmpty(flags.nodeName) ?? nonEmpty(env['NODE_NAME']);
  if (nodeName === undefined) return fail('--node-name is required (or set NODE_NAME)');
  const addresses = listenAddresses(flags);
  if ('message' in addresses) return fail(addresses.message);
  if (flags.bindHost !== undefined && isIP(flags.bindHost) === 0)
    return fail(`--bind-host ${flags.bindHost}: expected an IP address`);
  const logging = loggingOf(flags);
  if ('message' in logging) return fail(logging.message);
  const modes = modesOf(flags);
  if ('message' in modes) return fail(modes.message);
  const rateLimit = rateLimitOf(flags);
  if ('message' in rateLimit) return fail(rateLimit.message);
  const connections = resolveConnectionFlags(flags);
  if ('message' in connections) return fail(connections.message);
  const subscriptions = resolveSubscriptionFlags(flags);
  if ('message' in subscriptions) return fail(subscriptions.message);
  const internal = resolveInternalFlags(flags);
  if ('message' in internal) return fail(internal.message);
  const operatorNamespace =
    nonEmpty(flags.operatorNamespace) ?? nonEmpty(env['POD_NAMESPACE']) ?? DEFAULT_OPERATOR_NAMESPACE;
  return {
    ok: true,
    flags: {
      nodeName,
      ...(flags.kubeconfig === undefined ? {} : { kubeconfig: flags.kubeconfig }),
      ...(flags.context === undefined ? {} : { context: flags.context }),
      operatorNamespace,
      ...addresses,
      ...(flags.bindHost === undefined ? {} : { bindHost: flags.bindHost }),
      ...logging,
      ...modes,
      rateLimit,
      ...connections,
      ...subscriptions,
      ...internal,
    },
  };
}

type Addresses = Pick<ResolvedFlags, 'httpAddress' | 'httpsAddress' | 'adminAddress' | 'healthAddress'>;

function listenAddresses(flags: DataplaneFlags): Addresses | { message: string } {
  const addresses: Partial<Addresses> = {};
  for (const [key, flag, text, fallback] of [
    ['httpAddress', '--http-listen-addr', flags.httpListenAddr, DEFAULT_HTTP_LISTEN_ADDR],
    ['httpsAddress', '--https-listen-addr', flags.httpsListenAddr, DEFAULT_HTTPS_LISTEN_ADDR],
    ['adminAddress', '--admin-listen-addr', flags.adminListenAddr, DEFAULT_ADMIN_LISTEN_ADDR],
  ] as const) {
    const parsed = parseListenAddr(text ?? fallback);
    if (!parsed.ok) return { message: `${flag} ${parsed.message}` };
    addresses[key] = parsed.address;
  }
  if (flags.healthListenAddr !== undefined) {
    const parsed = parseListenAddr(flags.healthListenAddr);
    if (!parsed.ok) return { message: `--health-listen-addr ${parsed.message}` };
    addresses.healthAddress = parsed.address;
  }
  return addresses as Addresses;
}

/** `--log-level` (default info) and `--log-format` (none: stderr decides, log-format.ts), checked. */
function loggingOf(
  flags: DataplaneFlags,
): Pick<ResolvedFlags, 'logLevel' | 'logFormat'> | { message: string } {
  const logLevel = flags.logLevel ?? 'info';
  if (!(DATAPLANE_LOG_LEVELS as readonly string[]).includes(logLevel))
    return { message: `--log-level ${logLevel}: expected one of ${DATAPLANE_LOG_LEVELS.join(', ')}` };
  if (flags.logFormat === undefined) return { logLevel: logLevel as DataplaneLogLevel };
  if (!isLogFormat(flags.logFormat))
    return { message: `--log-format ${flags.logFormat}: expected one of ${LOG_FORMATS.join(', ')}` };
  return { logLevel: logLevel as DataplaneLogLevel, logFormat: flags.logFormat };
}

/** `--on-bind-error` (default `retry`) and `--http-error-body` (default `empty`), checked. */
function modesOf(
  flags: DataplaneFlags,
): Pick<ResolvedFlags, 'onBindError' | 'httpErrorBody'> | { message: string } {
  const onBindError = choice('--on-bind-error', flags.onBindError ?? 'retry', BIND_ERROR_MODES);
  if (typeof onBindError !== 'string') return onBindError;
  const httpErrorBody = choice('--http-error-body', flags.httpErrorBody ?? 'empty', HTTP_ERROR_BODIES);
  if (typeof httpErrorBody !== 'string') return httpErrorBody;
  return { onBindError, httpErrorBody };
}

function choice<T extends string>(
  flag: string,
  value: string,
  choices: readonly T[],
): T | { message: string } {
  const found = choices.find((each) => each === value);
  return found ?? { message: `${flag} ${value}: expected one of ${choices.join(', ')}` };
}

function rateLimitOf(flags: DataplaneFlags): { qps: number; burst: number } | { message: string } {
  const qps = Number(flags.qps ?? 1);
  const burst = Number(flags.burst ?? 5);
  if (!(qps > 0) || !Number.isFinite(qps))
    return { message: `--qps ${String(flags.qps)}: expected a number > 0` };
  if (!Number.isInteger(burst) || burst < 1)
    return { message: `--burst ${String(flags.burst)}: expected an integer ≥ 1` };
  return { qps, burst };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

function fail(message: string): FlagsResult {
  return { ok: false, message };
}
