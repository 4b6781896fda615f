// The client's failures that are not the statements' own: the node cannot be reached or does not speak
// the protocol (exit 3, like a file that cannot be read), and a command line that cannot work (exit 2).
import { InputError } from '../language/input-error.js';

/** The node cannot be reached, or answered something that is not the protocol: exit 3. */
export class NodeError extends InputError {}

/** No answer at all from the node: the message can say how the node was chosen. */
export class UnreachableNodeError extends NodeError {}

/** A cluster command cannot go on (a read failed, the API server cannot be reached): exit 3. */
export class ClusterError extends InputError {}

/** No answer at all from the API server: the message can say how the cluster was chosen. */
export class UnreachableClusterError extends ClusterError {}

/** The command line is wrong in a way commander cannot see (e.g. -c with a command): exit 2. */
export class UsageError extends Error {}

const REASONS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name cannot be resolved right now',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  EPROTO: 'the TLS handshake failed',
};

/** Why a request to the node failed before any answer, in words. */
export function unreachable(server: string, error: unknown): NodeError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') {
    return new UnreachableNodeError(`no node answers at ${server} (start one with \`streamroute node\`)`);
  }
  return new UnreachableNodeError(`cannot reach the node at ${server}: ${networkReason(error)}`);
}

/** A network error in words: `the connection was reset`. */
export function networkReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    (code === undefined ? undefined : REASONS[code]) ??
    (error instanceof Error ? (error.message.split('\n', 1)[0] ?? error.message) : String(error))
  );
}

/** The server answered, but not in the protocol: `what` says what it answered. */
export function notProtocol(server: string, what: string): NodeError {
  return new NodeError(`the server at ${server} is not a streamroute node: it answered ${what}`);
}
