// `top` on a cluster, per data-plane node. Each pod's admin API (loopback only) is read through a
// port-forward — /metrics for every component's counters and describe for ingestors and emitters — so
// every row of every node is shown; that needs pods/portforward in the operator's namespace. Without it
// (the pods cannot be listed: 403), `top` reads the operator's live API (decision 0019), which serves
// describe with the user's own RBAC in the domain: ingestors and emitters only, as the note says.
import type { ComponentDescription } from '../../dataplane/core/status.js';
import { isStatus } from '../../dataplane/kube-client/kube-api.js';
import { networkReason } from '../client/errors.js';
import { decodeDescription } from '../client/protocol.js';
import type { Cluster } from '../cluster/cluster-target.js';
import { describeLive, NOT_SERVED } from '../cluster/live-client.js';
import type { NodeDescription } from '../cluster/live-describe.js';
import { portForwardAccess, type DataplanePod, type PodAccess } from '../cluster/pod-access.js';
import { InputError } from '../language/input-error.js';
import { listObjects, type ListedObject } from '../shell/object-names.js';
import { clusterStatementTarget, type StatementTarget } from '../shell/statement-target.js';
import { describeAll, readBody, type TopSource } from './node-top-source.js';
import { parsePrometheusText } from '../graph/prometheus-text.js';
import {
  componentCounts,
  countsOfDescription,
  TOP_FAMILIES,
  TOP_SHOW_KINDS,
  type NodeSample,
} from './top-sample.js';

export interface ClusterTopOptions {
  cluster: Cluster;
  operatorNamespace: string;
  /** How pods are listed and read (default: port-forwards with the kubeconfig's credentials). */
  access?: PodAccess;
  /** Where SHOW runs (default: the cluster). */
  statements?: StatementTarget;
  /** The live API's describe on every node (default: through the API server). */
  live?: (plural: string, name: string) => Promise<NodeDescription[] | typeof NOT_SERVED>;
}

export interface ClusterTopSource extends TopSource {
  /** Says what the rows leave out (the live API's view), after a look. */
  readonly note: string | undefined;
}

/** How long the list of components is kept between looks (SHOW on a cluster lists every kind). */
const LIST_EVERY_MS = 10_000;

export function clusterTopSource(options: ClusterTopOptions): ClusterTopSource {
  const { cluster, operatorNamespace } = options;
  const access = options.access ?? portForwardAccess(cluster, operatorNamespace);
  const statements = options.statements ?? clusterStatementTarget(cluster, process.cwd());
  const live = options.live ?? ((plural: string, name: string) => describeLive(cluster, plural, name));
  let listed: { at: number; objects: ListedObject[] } | undefined;
  let useLive = false;
  const objects = async (): Promise<ListedObject[]> => {
    if (listed === undefined || performance.now() - listed.at > LIST_EVERY_MS)
      listed = { at: performance.now(), objects: await listObjects(statements, TOP_SHOW_KINDS) };
    return listed.objects;
  };
  const source = {
    where: statements.where,
    domain: cluster.namespace,
    nodes: true,
    note: undefined as string | undefined,
    async look(): Promise<NodeSample[]> {
      const components = await objects();
      const pods = useLive ? undefined : await listPods(access);
      if (pods !== undefined)
        return Promise.all(pods.map((pod) => lookAtPod(access, cluster.namespace, pod, components)));
      useLive = true;
      source.note = `the live API shows ingestors and emitters only: relays, junctions and correlators need pods/portforward in ${operatorNamespace}`;
      return lookLive(live, components);
    },
  };
  return source;
}

/** The running pods, or undefined when this user may not list them (then the live API is asked). */
async function listPods(access: PodAccess): Promise<DataplanePod[] | undefined> {
  try {
    return await access.pods();
  } catch (error: unknown) {
    if (isStatus(error, 403)) return undefined;
    throw error;
  }
}

async function lookAtPod(
  access: PodAccess,
  domain: string,
  pod: DataplanePod,
  listed: readonly ListedObject[],
): Promise<NodeSample> {
  const where = { node: pod.spec?.nodeName ?? '(unscheduled)', pod: pod.metadata.name };
  try {
    const response = await access.get(pod, '/metrics', 'text/plain');
    const samples = parsePrometheusText(await readBody(response, `pod ${pod.metadata.name}`), TOP_FAMILIES);
    const described = await describeAll(listed, async (collection, name) => {
      const path = `/v1/domains/${encodeURIComponent(domain)}/${collection}/${encodeURIComponent(name)}`;
      const answer = await access.get(pod, path, 'application/json');
      return descriptionOf(answer.statusCode ?? 0, await readBody(answer, `pod ${pod.metadata.name}`));
    });
    return {
      ...where,
      at: performance.now(),
      components: componentCounts({ domain, listed, samples, described }),
    };
  } catch (error: unknown) {
    return {
      ...where,
      at: performance.now(),
      components: [],
      error: `cannot read the admin API: ${networkReason(error)}`,
    };
  }
}

function descriptionOf(status: number, body: string): ComponentDescription | undefined {
  if (status !== 200) return undefined;
  try {
    const decoded = decodeDescription(JSON.parse(body));
    return decoded.ok ? decoded.value : undefined;
  } catch {
    return undefined;
  }
}

/** SHOW INGESTORS' TYPE column → the ingestor's plural. */
const INGESTOR_PLURALS: Readonly<Record<string, string>> = {
  HTTP: 'httpingestors',
  SYSLOG: 'syslogingestors',
  TOPIC: 'topicingestors',
};

/** The live API's plural for a listed ingestor or emitter; undefined for other kinds. */
function pluralOf(object: ListedObject): string | undefined {
  if (object.kind === 'Emitter') return 'emitters';
  if (object.kind !== 'Ingestor') return undefined;
  return INGESTOR_PLURALS[object.columns['TYPE'] ?? ''] ?? 'httpingestors';
}

/** Each listed ingestor's and emitter's describe on every node, as the live API gives it. */
async function lookLive(
  live: NonNullable<ClusterTopOptions['live']>,
  listed: readonly ListedObject[],
): Promise<NodeSample[]> {
  const nodes = new Map<string, NodeSample>();
  const at = performance.now();
  for (const object of listed) {
    const plural = pluralOf(object);
    if (plural === undefined) continue;
    const answers = await live(plural, object.name.toLowerCase().replaceAll('_', '-'));
    if (answers === NOT_SERVED)
      throw new InputError(
        'the data-plane pods cannot be listed (403) and the live API (live.streamroute.io) is not served',
      );
    for (const answer of answers) {
      const sample = nodes.get(answer.pod) ?? {
        node: answer.node || '(unscheduled)',
        pod: answer.pod,
        at,
        components: [],
      };
      nodes.set(answer.pod, sample);
      if (answer.description === undefined) sample.error = answer.error ?? 'no answer';
      else sample.components.push(countsOfDescription(answer.description, object.name));
    }
  }
  return [...nodes.values()];
}
