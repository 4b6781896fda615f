// `top` against a node's admin API: the domain's components from SHOW (the statement route), the
// counters from GET /metrics, the state and buffers of each ingestor and emitter from its describe
// route — all read at once, each look. A describe that fails leaves that row's state unknown (`-`).
import type { IncomingMessage } from 'node:http';
import type { ComponentDescription } from '../../dataplane/core/status.js';
import { nameFromEither } from '../api/display-names.js';
import { domainUrl, type NodeTarget } from '../client/endpoint.js';
import { notProtocol, unreachable } from '../client/errors.js';
import { answered, callNode, openRequest } from '../client/node-call.js';
import { decodeDescription } from '../client/protocol.js';
import { listObjects, type ListedObject } from '../shell/object-names.js';
import type { StatementTarget } from '../shell/statement-target.js';
import { parsePrometheusText } from '../graph/prometheus-text.js';
import {
  componentCounts,
  keyOf,
  kindOfListed,
  TOP_FAMILIES,
  TOP_SHOW_KINDS,
  type NodeSample,
} from './top-sample.js';

/** Where `top` looks: each look gives one sample per node. */
export interface TopSource {
  /** `node http://127.0.0.1:8081`, `cluster context kind-x`. */
  readonly where: string;
  readonly domain: string;
  /** True when the rows are per Kubernetes node (a NODE column). */
  readonly nodes: boolean;
  look(): Promise<NodeSample[]>;
}

const MAX_METRICS_BYTES = 64 * 1024 * 1024;

export function nodeTopSource(target: NodeTarget, statements: StatementTarget): TopSource {
  return {
    where: statements.where,
    domain: target.domain,
    nodes: false,
    async look() {
      const [listed, metrics] = await Promise.all([
        listObjects(statements, TOP_SHOW_KINDS),
        fetchText(target, new URL('metrics', target.server.url)),
      ]);
      const described = await describeAll(listed, (collection, name) =>
        describeOnNode(target, collection, name),
      );
      const samples = parsePrometheusText(metrics, TOP_FAMILIES);
      const components = componentCounts({ domain: target.domain, listed, samples, described });
      return [{ node: target.server.shown, at: performance.now(), components }];
    },
  };
}

export type Describe = (
  collection: 'ingestors' | 'emitters',
  name: string,
) => Promise<ComponentDescription | undefined>;

/** DESCRIBE of every listed ingestor and emitter, by keyOf(kind, name); one that fails is left out. */
export async function describeAll(
  listed: readonly ListedObject[],
  describe: Describe,
): Promise<Map<string, ComponentDescription>> {
  const described = new Map<string, ComponentDescription>();
  await Promise.all(
    listed.map(async (object) => {
      const kind = kindOfListed(object);
      const name = nameFromEither(object.name); // a display name (decision 0025)
      if (!name.ok || (object.kind !== 'Ingestor' && object.kind !== 'Emitter') || kind === undefined) return;
      const description = await describe(
        object.kind === 'Ingestor' ? 'ingestors' : 'emitters',
        name.name,
      ).catch(() => undefined);
      if (description !== undefined) described.set(keyOf(kind, object.name), description);
    }),
  );
  return described;
}

async function describeOnNode(
  target: NodeTarget,
  collection: 'ingestors' | 'emitters',
  name: string,
): Promise<ComponentDescription | undefined> {
  const url = domainUrl(target, [collection, name]);
  const answer = await callNode({ server: target.server, method: 'GET', url }, decodeDescription);
  return answer.ok ? answer.value : undefined;
}

/** GET a text route (`/metrics`) of the admin API; not 200 is not the protocol. */
async function fetchText(target: NodeTarget, url: URL): Promise<string> {
  const response = await openRequest({ server: target.server, method: 'GET', url, accept: 'text/plain' });
  if (response === undefined)
    throw unreachable(target.server.shown, new Error('the request was interrupted'));
  if (response.statusCode !== 200) {
    response.resume();
    throw notProtocol(target.server.shown, `${answered(response)} to GET /metrics`);
  }
  return readBody(response, target.server.shown);
}

export async function readBody(response: IncomingMessage, shown: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_METRICS_BYTES) {
        response.destroy();
        throw notProtocol(shown, `metrics of more than ${MAX_METRICS_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error: unknown) {
    if (size > MAX_METRICS_BYTES) throw error;
    throw unreachable(shown, error);
  }
  return Buffer.concat(chunks).toString('utf8');
}
