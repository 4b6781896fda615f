// A relay's records from every data-plane pod, merged: every node runs the relay, so a subscription is
// made on each Running pod and their NDJSON lines are written out, each line whole. The operator's live
// API runs it for a user (pods from a watch, read over the internal channel: internal-access.ts); the CLI
// runs it itself only where the live API is not served (pods listed, each read through a port-forward of
// the API server: pod-access.ts). The pods are looked at again every 10 s: new pods, and pods whose stream
// ended, are (re)subscribed. A pod that fails is reported (once per distinct failure) and the others go
// on. Ends when the signal aborts (exit 0).
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { NdjsonLines } from '../client/ndjson-lines.js';
import { networkReason } from '../client/errors.js';
import { MAX_RECORD_BYTES } from '../client/subscribe.js';
import { EXIT, type Output } from '../client/report.js';
import { apiFailureText, type Cluster } from './cluster-target.js';
import type { Pod, PodGet } from './pod-admin.js';
import { portForwardAccess, type PodAccess } from './pod-access.js';

export { adminPort, DEFAULT_ADMIN_PORT, reachable, type Pod } from './pod-admin.js';
export { DATAPLANE_SELECTOR } from './pod-access.js';
export const RELIST_MS = 10_000;
const NDJSON = 'application/x-ndjson';

export interface ClusterSubscribeOptions {
  cluster: Cluster;
  operatorNamespace: string;
  subscription: string;
  relay: string;
  buffer?: number;
  signal: AbortSignal;
  relistMs?: number;
  /**
   * Resolves when the output can take more (an HTTP response that is not full); awaited after each chunk
   * a pod sends, so a slow reader slows the pods' streams and their subscriptions drop, not this process.
   */
  drained?: () => Promise<void>;
  /** How pods are found and reached (default: listed and port-forwarded with the cluster's credentials). */
  access?: PodAccess;
  /** Tests: the API connection and websocket of the port-forwards. */
  forward?: Pick<PodGet, 'connection' | 'hooks'>;
}

/** The admin API path and query of a pod's subscription. */
export function subscriptionPath(options: ClusterSubscribeOptions): string {
  const segments = [
    'v1',
    'domains',
    options.cluster.namespace,
    'relays',
    options.relay,
    'subscriptions',
    options.subscription,
  ];
  const query = options.buffer === undefined ? '' : `?buffer=${options.buffer}`;
  return `/${segments.map(encodeURIComponent).join('/')}${query}`;
}

export async function runClusterSubscribe(options: ClusterSubscribeOptions, output: Output): Promise<number> {
  const merger = new Merger(options, output);
  while (!options.signal.aborted) {
    await merger.relist();
    await sleep(options.relistMs ?? RELIST_MS, undefined, { signal: options.signal }).catch(() => undefined);
  }
  await merger.closed();
  return EXIT.ok;
}

class Merger {
  readonly #options: ClusterSubscribeOptions;
  readonly #output: Output;
  readonly #access: PodAccess;
  /** Pods being streamed, with the promise that settles when their stream ends. */
  readonly #active = new Map<string, Promise<void>>();
  /** The last failure reported per pod, so a pod failing the same way is reported once. */
  readonly #reported = new Map<string, string>();
  #warnedEmpty = false;

  constructor(options: ClusterSubscribeOptions, output: Output) {
    this.#options = options;
    this.#output = output;
    this.#access =
      options.access ?? portForwardAccess(options.cluster, options.operatorNamespace, options.forward);
  }

  async relist(): Promise<void> {
    const { operatorNamespace } = this.#options;
    let pods: Pod[];
    try {
      pods = await this.#access.pods();
    } catch (error: unknown) {
      this.#fail(
        'listing data-plane pods',
        `cannot list the data-plane pods in ${operatorNamespace}: ${apiFailureText(error)}`,
      );
      return;
    }
    if (pods.length === 0 && !this.#warnedEmpty) {
      this.#output.err(
        `streamroute: no running data-plane pods in namespace ${operatorNamespace} yet; waiting`,
      );
      this.#warnedEmpty = true;
    }
    for (const pod of pods) {
      const name = pod.metadata.name;
      if (this.#active.has(name) || this.#options.signal.aborted) continue;
      this.#active.set(
        name,
        this.#stream(pod).finally(() => this.#active.delete(name)),
      );
    }
  }

  async closed(): Promise<void> {
    await Promise.allSettled([...this.#active.values()]);
  }

  async #stream(pod: Pod): Promise<void> {
    const { signal } = this.#options;
    const name = pod.metadata.name;
    let response: IncomingMessage;
    try {
      response = await this.#access.get(pod, subscriptionPath(this.#options), NDJSON, signal);
    } catch (error: unknown) {
      if (!signal.aborted) this.#fail(name, `pod ${name}: cannot subscribe: ${networkReason(error)}`);
      return;
    }
    if (response.statusCode !== 200) {
      const body = await bodyText(response);
      this.#fail(name, `pod ${name}: HTTP ${response.statusCode ?? 0}: ${messageOf(body)}`);
      return;
    }
    this.#reported.delete(name);
    await this.#print(name, response);
  }

  async #print(name: string, response: IncomingMessage): Promise<void> {
    const lines = new NdjsonLines(MAX_RECORD_BYTES);
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        for (const line of lines.push(chunk)) this.#output.out(line);
        await this.#options.drained?.();
      }
      if (!this.#options.signal.aborted)
        this.#fail(name, `pod ${name}: the subscription ended (resubscribing at the next listing)`);
    } catch (error: unknown) {
      response.destroy();
      if (!this.#options.signal.aborted)
        this.#fail(name, `pod ${name}: lost the stream: ${networkReason(error)}`);
    }
  }

  #fail(key: string, message: string): void {
    if (this.#reported.get(key) === message) return;
    this.#reported.set(key, message);
    this.#output.err(`streamroute: ${message}`);
  }
}

/** A response's whole body as text (what arrived, when it fails). */
export function bodyText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The message of an admin or API error body, else its start. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: { message?: unknown } };
    const message = parsed.error?.message ?? parsed.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON
  }
  return body.slice(0, 300);
}
