// The CLI on a cluster reads records and describe through the operator's live API (decision 0019): one
// request to the API server with the user's own credentials (token, exec plugin or client certificate),
// which authenticates them and forwards to the operator, which checks their RBAC in the domain and fans
// out to the data-plane pods. Where the live API is not served (an older chart, live.enabled=false) the
// caller falls back to port-forwards, which need pods/portforward in the operator's namespace.
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIVE_GROUP, LIVE_VERSION } from '../access/aggregated-api.js';
import { networkReason } from '../client/errors.js';
import { NdjsonLines } from '../client/ndjson-lines.js';
import { EXIT, type Output } from '../client/report.js';
import { MAX_RECORD_BYTES } from '../client/subscribe.js';
import { bodyText } from './cluster-subscribe.js';
import type { Cluster } from './cluster-target.js';
import { WARNING_KEY } from './live-handlers.js';
import type { NodeDescription } from './live-describe.js';

/** The answer when the API server does not serve live.streamroute.io: use port-forwards instead. */
export const NOT_SERVED = 'not-served';
/** How long to wait before opening a stream the operator ended again (a restart, a lost pod). */
export const RECONNECT_MS = 1_000;

export interface LiveSubscribeOptions {
  cluster: Cluster;
  relay: string;
  subscription: string;
  buffer?: number;
  signal: AbortSignal;
  drained?: () => Promise<void>;
  reconnectMs?: number;
}

function livePath(namespace: string, ...segments: string[]): string {
  const parts = ['namespaces', namespace, ...segments].map(encodeURIComponent).join('/');
  return `/apis/${LIVE_GROUP}/${LIVE_VERSION}/${parts}`;
}

/**
 * Prints the relay's records until interrupted (exit 0); the operator's `{"@warning": …}` lines go to
 * stderr. A stream the operator ends is opened again (after RECONNECT_MS), which authenticates and
 * authorizes again: credentials that expired or a role that was taken away end the command with the API
 * server's reason (exit 1).
 */
export async function runLiveSubscribe(
  options: LiveSubscribeOptions,
  output: Output,
): Promise<number | typeof NOT_SERVED> {
  const { cluster, signal } = options;
  const path = livePath(cluster.namespace, 'relays', options.relay, 'log');
  const query = {
    subscription: options.subscription,
    ...(options.buffer === undefined ? {} : { buffer: options.buffer }),
  };
  for (let attempt = 0; !signal.aborted; attempt++) {
    let response: IncomingMessage;
    try {
      response = await cluster.api.stream({ path, query, accept: 'application/x-ndjson' }, signal);
    } catch (error: unknown) {
      if (signal.aborted) break;
      output.err(`streamroute: cannot reach the API server: ${networkReason(error)}`);
      return EXIT.invalid;
    }
    const status = response.statusCode ?? 0;
    if (status === 404 && attempt === 0) {
      response.resume();
      return NOT_SERVED;
    }
    if (status !== 200) {
      output.err(`streamroute: ${refusal(status, await bodyText(response), cluster.namespace)}`);
      return EXIT.invalid;
    }
    await printStream(response, options, output);
    if (signal.aborted) break;
    output.err('streamroute: the live API ended the stream; opening it again');
    await sleep(options.reconnectMs ?? RECONNECT_MS, undefined, { signal }).catch(() => undefined);
  }
  return EXIT.ok;
}

async function printStream(
  response: IncomingMessage,
  options: LiveSubscribeOptions,
  output: Output,
): Promise<void> {
  const lines = new NdjsonLines(MAX_RECORD_BYTES);
  const print = (line: string): void => {
    const warning = warningOf(line);
    if (warning === undefined) output.out(line);
    else output.err(`streamroute: ${warning}`);
  };
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      lines.push(chunk).forEach(print);
      await options.drained?.();
    }
  } catch (error: unknown) {
    response.destroy();
    if (!options.signal.aborted) output.err(`streamroute: lost the stream: ${networkReason(error)}`);
  }
}

/** The text of an operator warning line; undefined for a record. */
function warningOf(line: string): string | undefined {
  if (!line.startsWith(`{"${WARNING_KEY}"`)) return undefined;
  try {
    const text = (JSON.parse(line) as Record<string, unknown>)[WARNING_KEY];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The live API refused a request (its status and message, in words). */
export class LiveRefusal extends Error {}

/** Each node's live DESCRIBE through the live API; NOT_SERVED without it; throws with the API's refusal. */
export async function describeLive(
  cluster: Cluster,
  plural: string,
  name: string,
): Promise<NodeDescription[] | typeof NOT_SERVED> {
  const path = livePath(cluster.namespace, plural, name, 'describe');
  const response = await cluster.api.stream({ path }, AbortSignal.timeout(30_000));
  const status = response.statusCode ?? 0;
  const body = await bodyText(response);
  if (status === 404) return NOT_SERVED;
  if (status !== 200) throw new LiveRefusal(refusal(status, body, cluster.namespace));
  return (JSON.parse(body) as { nodes: NodeDescription[] }).nodes;
}

/** What a 401, 403 or other status from the API server means, with its message. */
function refusal(status: number, body: string, namespace: string): string {
  const message = statusMessage(body);
  if (status === 401)
    return `the API server did not accept your credentials (401: expired or revoked?): ${message}`;
  if (status === 403) return `not allowed in namespace ${namespace} (403): ${message}`;
  if (status === 503) return `the live API is unavailable (503): ${message}`;
  return `the live API answered ${status}: ${message}`;
}

function statusMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not a Status
  }
  return body.trim().slice(0, 300);
}
