// Every socket a node must own at start-up, with its status, and what a node does when one cannot be bound
// (docs/node.md, "Starting and stopping"; `--on-bind-error`). With `exit`, listeners do not retry while the
// node starts: the first bind that fails stops the node with one line naming the listener, the address
// and the system's reason. With `retry`, every listener retries on its backoff as it always did. Once the
// node has started, both modes retry: a listener a later graph adds (a syslog ingestor, HTTPS for the
// first TLS vhost) is that graph's transient error, not a reason to stop the node.
import { getSystemErrorMap } from 'node:util';
import type { AdminServer } from '../admin/admin-server.js';
import { DEFAULT_LISTEN_RETRY, type ListenerStatus, type RetryPolicy } from '../net/retrying-listener.js';

export const BIND_ERROR_MODES = ['exit', 'retry'] as const;
export type BindErrorMode = (typeof BIND_ERROR_MODES)[number];

/** One listening socket of the node. */
export interface NodeListener {
  kind: 'http' | 'https' | 'syslog' | 'admin' | 'internal';
  /** Of a syslog listener: `udp`, `tcp`, `tls`. */
  protocol?: string;
  /** What the user knows it as: `HTTP`, `admin API`, `syslog udp ingestor udp-in of domain default`. */
  what: string;
  /** Where its address is set: the flag, or the graph. */
  setBy: string;
  status: ListenerStatus;
}

/** A listener the node must own could not be bound; the message is the one line the command prints. */
export class BindError extends Error {
  override readonly name = 'BindError';
}

/**
 * The retry policy of a node's listeners in `mode`, and `started()` to call once the node has started:
 * in `exit` mode nothing is retried before that call, everything after it.
 */
export function startupRetry(
  mode: BindErrorMode,
  policy: RetryPolicy = DEFAULT_LISTEN_RETRY,
): { policy: RetryPolicy; started(): void } {
  if (mode === 'retry') return { policy, started: () => undefined };
  let starting = true;
  return {
    policy: { ...policy, retries: () => !starting && (policy.retries?.() ?? true) },
    started: () => {
      starting = false;
    },
  };
}

/** Throws a BindError for the first listener whose bind failed and was not retried. */
export function assertBound(listeners: readonly NodeListener[]): void {
  const failed = listeners.find(({ status }) => status.state === 'Stopped' && status.error !== undefined);
  if (failed !== undefined) throw new BindError(bindFailureText(failed));
}

/** Listeners that are not serving because their bind failed and is being retried. */
export function retryingBinds(listeners: readonly NodeListener[]): NodeListener[] {
  return listeners.filter(({ status }) => status.state === 'Retrying' && status.error !== undefined);
}

/**
 * `cannot listen on 127.0.0.1:8081 (admin API, --admin-listen-addr): EADDRINUSE, address already in use;
 * free the address or choose another, or start with --on-bind-error retry to wait for it`
 */
export function bindFailureText(listener: NodeListener): string {
  return `cannot listen on ${where(listener)}: ${reason(listener.status)}; free the address or choose another, or start with --on-bind-error retry to wait for it`;
}

/** `waiting for 127.0.0.1:8081 (admin API, --admin-listen-addr): EADDRINUSE, address already in use; retrying` */
export function waitingText(listener: NodeListener): string {
  return `waiting for ${where(listener)}: ${reason(listener.status)}; retrying`;
}

/** The admin API's listeners: the one the CLI talks to, and the operator's when there is one. */
export function adminListeners(admin: AdminServer): NodeListener[] {
  const internal = admin.internalStatus;
  const listeners: NodeListener[] = [
    { kind: 'admin', what: 'admin API', setBy: '--admin-listen-addr', status: admin.status },
  ];
  if (internal !== undefined)
    listeners.push({
      kind: 'internal',
      what: "operator's listener",
      setBy: '--internal-listen-addr',
      status: internal,
    });
  return listeners;
}

function where({ what, setBy, status }: NodeListener): string {
  return `${status.address} (${what}, ${setBy})`;
}

/** `EADDRINUSE, address already in use`: the code and the system's text for it. */
function reason(status: ListenerStatus): string {
  const code = status.error?.code ?? 'UNKNOWN';
  const text = systemErrorTexts().get(code);
  return text === undefined ? code : `${code}, ${text}`;
}

let texts: Map<string, string> | undefined;

/** The system's error names and their texts (libuv's: `EACCES` → `permission denied`). */
function systemErrorTexts(): Map<string, string> {
  texts ??= new Map([...getSystemErrorMap().values()].map(([name, text]) => [name, text]));
  return texts;
}
