// Where `streamroute graph` reads a domain: files (checked whole, as validate does), a running node
// (one script of SHOW statements, whose data carries every object), or a cluster namespace (listed as
// apply and diff list it); and, for --rates, a node's /metrics as text.
import type { GraphObject } from '../../api/index.js';
import type { ShowTarget } from '../../language/ast.js';
import { SHOW_WORDS } from '../../node/statement-tag.js';
import { domainUrl, type NodeTarget } from '../../client/endpoint.js';
import { notProtocol, unreachable } from '../../client/errors.js';
import { answered, callNode, openRequest } from '../../client/node-call.js';
import { decodeStatementsReply } from '../../client/protocol.js';
import { listDomain, toGraphObject } from '../../cluster/cluster-objects.js';
import { readCluster, type Cluster } from '../../cluster/cluster-target.js';

/** The kinds a picture shows (schemas, wire schemas and resources are not drawn). */
const DRAWN: readonly ShowTarget[] = [
  'Codec',
  'Relay',
  'Vhost',
  'Endpoint',
  'SyslogClient',
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
