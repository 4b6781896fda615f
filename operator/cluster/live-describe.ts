// The live half of `streamroute describe` on a cluster: the DESCRIBE each data-plane node answers for the
// component right now, read from each pod's admin API through the pod access given (the live API's
// internal channel, or the CLI's port-forwards where the live API is not served: pod-access.ts). A node
// that cannot be reached is shown with its reason; the others still are.
import type { IncomingMessage } from 'node:http';
import type { ComponentDescription, DescribedKind } from '../../dataplane/core/status.js';
import { networkReason } from '../client/errors.js';
import { decodeDescription } from '../client/protocol.js';
import { describeText } from '../node/describe-text.js';
import { apiFailureText, type Cluster } from './cluster-target.js';
import type { PodGet } from './pod-admin.js';
import { portForwardAccess, type PodAccess } from './pod-access.js';

export interface LiveDescribeOptions {
  cluster: Cluster;
  operatorNamespace: string;
  kind: DescribedKind;
  name: string;
  /** How pods are found and reached (default: listed and port-forwarded with the cluster's credentials). */
  access?: PodAccess;
  /** Tests: the API connection and websocket of the port-forwards. */
  forward?: Pick<PodGet, 'connection' | 'hooks'>;
}

/** One node's answer: its description, or why there is none. */
export interface NodeDescription {
  node: string;
  pod: string;
  description?: ComponentDescription;
  error?: string;
}

/** Every running data-plane pod's DESCRIBE, in pod-name order; throws when the pods cannot be listed. */
export async function describeOnNodes(options: LiveDescribeOptions): Promise<NodeDescription[]> {
  const { cluster, operatorNamespace } = options;
  const access = options.access ?? portForwardAccess(cluster, operatorNamespace, options.forward);
  const pods = await access.pods();
  const collection = options.kind === 'ingestor' ? 'ingestors' : 'emitters';
  const path = `/v1/domains/${encodeURIComponent(cluster.namespace)}/${collection}/${encodeURIComponent(options.name)}`;
  return Promise.all(
    pods.map(async (pod): Promise<NodeDescription> => {
      const where = { node: pod.spec?.nodeName ?? '', pod: pod.metadata.name };
      try {
        const response = await access.get(pod, path, 'application/json');
        return { ...where, ...answerOf(response.statusCode ?? 0, await bodyOf(response)) };
      } catch (error: unknown) {
        return { ...where, error: `cannot reach the admin API: ${networkReason(error)}` };
      }
    }),
  );
}

function answerOf(status: number, body: string): Pick<NodeDescription, 'description' | 'error'> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { error: `HTTP ${status}: ${body.slice(0, 200)}` };
  }
  if (status !== 200) {
    const message = (value as { error?: { message?: unknown } }).error?.message;
    return { error: `HTTP ${status}: ${typeof message === 'string' ? message : body.slice(0, 200)}` };
  }
  const decoded = decodeDescription(value);
  return decoded.ok
    ? { description: decoded.value }
    : { error: 'the node answered an unexpected description' };
}

/** The text after the status roll-up: one block per node. */
export function liveText(nodes: readonly NodeDescription[], operatorNamespace: string): string {
  if (nodes.length === 0) return `live: no running data-plane pods in namespace ${operatorNamespace}`;
  return nodes
    .map((each) => {
      const head = `--- node ${each.node || '(unscheduled)'} (pod ${each.pod})`;
      return each.description === undefined
        ? `${head}: ${each.error ?? 'no answer'}`
        : `${head}\n${describeText(each.description)}`;
    })
    .join('\n');
}

/** Failures to list the pods, as one line for the text output. */
export function listFailureText(error: unknown, operatorNamespace: string): string {
  return `live: cannot list the data-plane pods in ${operatorNamespace}: ${apiFailureText(error)}`;
}

function bodyOf(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}
