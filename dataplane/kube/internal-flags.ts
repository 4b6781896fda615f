// The flags of the operator's channel to a data-plane pod (decision 0019): an admin listener on the pod's
// address that takes only the operator's client certificate. Off unless --internal-listen-addr is given;
// then the three files are required. Pure: the values come in as given.
import { parseListenAddr } from '../sources/http/config.js';
import type { ListenAddress } from '../net/retrying-listener.js';

/** The common name of the operator's client certificate unless --internal-client-name says otherwise. */
export const DEFAULT_INTERNAL_CLIENT_NAME = 'streamroute-operator';

export interface InternalFlags {
  internalListenAddr?: string;
  internalTlsCertFile?: string;
  internalTlsKeyFile?: string;
  internalClientCaFile?: string;
  internalClientName?: string;
}

/** Where the internal listener binds and the PEM files it reads at start. */
export interface InternalListenerFiles {
  address: ListenAddress;
  certFile: string;
  keyFile: string;
  clientCaFile: string;
  clientName: string;
}

/** name, usage, description. */
export const INTERNAL_FLAGS: readonly (readonly [keyof InternalFlags, string, string])[] = [
  [
    'internalListenAddr',
    '--internal-listen-addr <ip:port>',
    "the admin API for the operator only: TLS, the operator's client certificate required (default: off)",
  ],
  ['internalTlsCertFile', '--internal-tls-cert-file <file>', "that listener's certificate (PEM)"],
  ['internalTlsKeyFile', '--internal-tls-key-file <file>', "that listener's private key (PEM)"],
  [
    'internalClientCaFile',
    '--internal-client-ca-file <file>',
    "the CA that signed the operator's client certificate (PEM)",
  ],
  [
    'internalClientName',
    '--internal-client-name <cn>',
    `the common name the client certificate must have (default ${DEFAULT_INTERNAL_CLIENT_NAME})`,
  ],
];

export function resolveInternalFlags(
  flags: InternalFlags,
): { internal?: InternalListenerFiles } | { message: string } {
  if (flags.internalListenAddr === undefined) {
    const stray = INTERNAL_FLAGS.find(([key]) => flags[key] !== undefined);
    if (stray === undefined) return {};
    return { message: `${flagName(stray[1])} needs --internal-listen-addr` };
  }
  const parsed = parseListenAddr(flags.internalListenAddr);
  if (!parsed.ok) return { message: `--internal-listen-addr ${parsed.message}` };
  const files: Partial<Record<'certFile' | 'keyFile' | 'clientCaFile', string>> = {};
  for (const [key, file] of [
    ['internalTlsCertFile', 'certFile'],
    ['internalTlsKeyFile', 'keyFile'],
    ['internalClientCaFile', 'clientCaFile'],
  ] as const) {
    const value = flags[key];
    const usage = INTERNAL_FLAGS.find(([name]) => name === key)?.[1] ?? key;
    if (value === undefined || value === '')
      return { message: `--internal-listen-addr needs ${flagName(usage)}` };
    files[file] = value;
  }
  const clientName = flags.internalClientName ?? DEFAULT_INTERNAL_CLIENT_NAME;
  if (clientName === '') return { message: '--internal-client-name: expected a common name' };
  return { internal: { address: parsed.address, ...(files as Required<typeof files>), clientName } };
}

function flagName(usage: string): string {
  return usage.split(' ')[0] ?? usage;
}
