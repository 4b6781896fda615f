// Where `streamroute graph` reads a domain: files (checked whole, as validate does), a running node
// (one script of SHOW statements, whose data carries every object), or a cluster namespace (listed as
// apply and diff list it); and, for --rates, a node's /metrics as text, or every data-plane pod's
// through port-forwards (as `subscribe` without the live API reaches them).
import type { GraphObject } from '../../api/index.js';
import type { ShowTarget } from '../../language/ast.js';
import { SHOW_WORDS } from '../../node/statement-tag.js';
import { domainUrl, type NodeTarget } from '../../client/endpoint.js';
import { notProtocol, unreachable } from '../../client/errors.js';
import { answered, callNode, openRequest } from '../../client/node-call.js';
import { decodeStatementsReply } from '../../client/protocol.js';
import { listDomain, toGraphObject } from '../../cluster/cluster-objects.js';
import { apiFailureText, readCluster, type Cluster } from '../../cluster/cluster-target.js';
import { portForwardAccess } from '../../cluster/pod-access.js';
import type { PodGet } from '../../cluster/pod-admin.js';
import { networkReason } from '../../client/errors.js';
import type { Output } from '../../client/report.js';
import { InputError } from '../../language/input-error.js';

/** The kinds a picture shows (schemas, wire schemas and resources are not drawn). */
const DRAWN: readonly ShowTarget[] = [
  'Codec',
  'Relay',
  'Vhost',
  'Endpoint',
  'Client',
  'Ingestor',
  'Junction',
  'Correlator',
  'Emitter',
];

/** A /metrics answer larger than this is not a node's. */
const MAX_METRICS_BYTES = 16 * 1024 * 1024;

/** The domain's objects on the node, or the node's refusal in words. */
export async function nodeObjects(target: NodeTarget): Promise<GraphObject[] | string> {
  const script = DRAWN.map((what) => `SHOW ${SHOW_WORDS[what]};`).join(' ');
  const answer = await callNode(
    {
      server: target.server,
      method: 'POST',
      url: domainUrl(target, ['statements']),
      body: { script, source: 'streamroute graph', uploads: [] },
    },
    decodeStatementsReply,
  );
  if (!answer.ok) return `${answer.error.message} (${answer.error.code}, HTTP ${answer.status})`;
  const failed = answer.value.results.find((result) => result.status !== 'ok');
  if (!answer.value.ok || failed !== undefined) {
    return [...answer.value.diagnostics, ...(failed?.diagnostics ?? [])].join('; ') || 'SHOW failed';
  }
  return answer.value.results.flatMap((result) =>
    result.data?.type === 'show' ? result.data.items.map((item) => item.resource) : [],
  );
}

export async function clusterObjects(cluster: Cluster): Promise<GraphObject[]> {
  const domain = await readCluster(`list namespace ${cluster.namespace}`, () =>
    listDomain(cluster.api, cluster.namespace),
  );
  return [...domain.listed.values()].map(toGraphObject);
}

/** The node's /metrics, as text. */
export async function nodeMetrics(target: NodeTarget): Promise<string> {
  const url = new URL('metrics', target.server.url);
  const response = await openRequest({ server: target.server, method: 'GET', url, accept: 'text/plain' });
  if (response === undefined)
    throw unreachable(target.server.shown, new Error('the request was interrupted'));
  if (response.statusCode !== 200) {
    response.resume();
    throw notProtocol(target.server.shown, `${answered(response)} for /metrics`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_METRICS_BYTES) {
      response.destroy();
      throw notProtocol(
        target.server.shown,
        `${answered(response)}: /metrics of more than ${MAX_METRICS_BYTES} bytes`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Where --rates reads a cluster's data-plane pods, and (tests) how the port-forwards connect. */
export interface PodMetricsOptions {
  cluster: Cluster;
  operatorNamespace: string;
  forward?: Pick<PodGet, 'connection' | 'hooks'>;
}

/**
 * Every running data-plane pod's /metrics, one after the other (the rates add up over the nodes). A pod
 * that cannot be read is left out with a line on stderr; the pods that cannot be listed stop the command.
 */
export async function podMetrics(options: PodMetricsOptions, output: Output): Promise<string> {
  const access = portForwardAccess(options.cluster, options.operatorNamespace, options.forward);
  let pods;
  try {
    pods = await access.pods();
  } catch (error: unknown) {
    // The API server refused a read the command needs: exit 3, as for any cluster read.
    const reason = apiFailureText(error);
    throw new InputError(
      `--rates: cannot list the data-plane pods in ${options.operatorNamespace}: ${reason}`,
    );
  }
  const texts = await Promise.all(
    pods.map(async (pod) => {
      try {
        const response = await access.get(pod, '/metrics', 'text/plain');
        const chunks: Buffer[] = [];
        for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
        if (response.statusCode === 200) return Buffer.concat(chunks).toString('utf8');
        output.err(
          `streamroute: pod ${pod.metadata.name}: /metrics answered HTTP ${response.statusCode ?? '?'}`,
        );
      } catch (error: unknown) {
        output.err(`streamroute: pod ${pod.metadata.name}: cannot read /metrics: ${networkReason(error)}`);
      }
      return '';
    }),
  );
  return texts.join('\n');
}
