// The CLI's cluster mode on the command line: the --kubeconfig, --context and --operator-namespace
// options (before the command, and after subscribe, describe, apply, diff and rollback), how a command
// finds out whether it runs against a cluster, and `describe` against one.
import { Option, type Command } from 'commander';
import { customPath } from '../../dataplane/kube/contract.js';
import { isStatus } from '../../dataplane/kube-client/kube-api.js';
import { nameToIdentifier } from '../api/names.js';
import { EXIT, type Output } from '../client/report.js';
import {
  isDocumentFormat,
  outputDocument,
  printDocument,
  sortedKeys,
  type OutputFormat,
} from '../client/output-format.js';
import type { ListedObject } from './cluster-objects.js';
import {
  apiFailureText,
  clusterCall,
  clusterChoice,
  connect,
  DEFAULT_OPERATOR_NAMESPACE,
  KUBECONFIG_ENV,
  type Cluster,
} from './cluster-target.js';
import { describeStatus } from './describe-status.js';
import { describeLive, LiveRefusal, NOT_SERVED } from './live-client.js';
import {
  describeOnNodes,
  listFailureText,
  liveText,
  type LiveDescribeOptions,
  type NodeDescription,
} from './live-describe.js';

export { runClusterStatements } from './run-cluster-statements.js';
export { runClusterSubscribe } from './cluster-subscribe.js';
export { NOT_SERVED, runLiveSubscribe } from './live-client.js';
export type { Cluster } from './cluster-target.js';

export interface ClusterCommandOptions {
  kubeconfig?: string;
  context?: string;
  operatorNamespace?: string;
}

/** Adds --kubeconfig and --context (and --operator-namespace) to a command. */
export function addClusterOptions(
  command: Command,
  options: { operatorNamespace?: boolean; root?: boolean } = {},
): Command {
  const after = options.root === true ? '' : ' (default: the one before the command)';
  command
    .addOption(
      new Option(
        '--kubeconfig <file>',
        `work on a Kubernetes cluster with this kubeconfig (default: $${KUBECONFIG_ENV}; without either, the embedded node)${after}`,
      ),
    )
    .addOption(new Option('--context <name>', `the kubeconfig context to use (implies a cluster)${after}`));
  if (options.operatorNamespace === true) {
    command.addOption(
      new Option('--operator-namespace <namespace>', 'where the data-plane pods run').default(
        DEFAULT_OPERATOR_NAMESPACE,
      ),
    );
  }
  return command;
}

export interface ClusterHandle {
  connect(): Cluster;
  subscribe(): { cluster: Cluster; operatorNamespace: string };
}

/**
 * The cluster a command works on, or undefined for the embedded node. The command's own options win
 * over the root's; the domain is -d (after, else before the command), else the context's namespace.
 */
export function clusterOf(
  command: Command,
  program: Command,
  env: Readonly<Record<string, string | undefined>>,
): ClusterHandle | undefined {
  const own = command.opts<ClusterCommandOptions & { domain?: string }>();
  const root = program.opts<ClusterCommandOptions & { domain?: string }>();
  const choice = clusterChoice(command === program ? {} : own, root, env);
  if (choice === undefined) return undefined;
  const domain =
    command.getOptionValueSource('domain') === 'cli'
      ? own.domain
      : program.getOptionValueSource('domain') === 'cli'
        ? root.domain
        : undefined;
  return {
    connect: () => connect(choice, domain),
    subscribe: () => ({
      cluster: connect(choice, domain),
      operatorNamespace: own.operatorNamespace ?? DEFAULT_OPERATOR_NAMESPACE,
    }),
  };
}

const DESCRIBED_PLURALS = {
  ingestor: ['httpingestors', 'syslogingestors'],
  emitter: ['emitters'],
} as const;

/**
 * `describe ingestor|emitter NAME` on a cluster: the object's status as the operator wrote it, then each
 * data-plane node's live DESCRIBE (live-describe.ts). `-o json|yaml` prints the `Description` document
 * with `status` and `nodes: [{"node", "pod", "description" | "error"}]` (docs/cli.md#output-formats).
 */
export async function runClusterDescribe(
  options: LiveDescribeOptions & { format: OutputFormat },
  output: Output,
): Promise<number> {
  const { api, namespace } = options.cluster;
  for (const plural of DESCRIBED_PLURALS[options.kind]) {
    let object: ListedObject;
    const described = { ...options, plural };
    try {
      object = await clusterCall(() =>
        api.request<ListedObject>({ path: customPath(plural, namespace, options.name) }),
      );
    } catch (error: unknown) {
      if (isStatus(error, 404)) continue;
      output.err(`streamroute: cannot read ${options.kind} ${options.name}: ${apiFailureText(error)}`);
      return EXIT.invalid;
    }
    await printDescribed(described, object, output);
    return EXIT.ok;
  }
  output.err(
    `streamroute: there is no ${options.kind} ${nameToIdentifier(options.name)} in domain ${namespace}`,
  );
  return EXIT.invalid;
}

async function printDescribed(
  options: LiveDescribeOptions & { format: OutputFormat; plural: string },
  object: ListedObject,
  output: Output,
): Promise<void> {
  let nodes: NodeDescription[] | undefined;
  let listFailure: string | undefined;
  try {
    // through the live API (the user's RBAC in the domain); port-forwards where it is not served
    const live = await describeLive(options.cluster, options.plural, options.name);
    nodes = live === NOT_SERVED ? await describeOnNodes(options) : live;
  } catch (error: unknown) {
    listFailure =
      error instanceof LiveRefusal
        ? `live: ${error.message}`
        : listFailureText(error, options.operatorNamespace);
  }
  if (isDocumentFormat(options.format)) {
    const fields = {
      domain: options.cluster.namespace,
      target: 'cluster',
      status: sortedKeys(object.status ?? {}),
      nodes: (nodes ?? []).map(({ node, pod, description, error }) => ({
        node,
        pod,
        ...(description === undefined ? {} : { description: sortedKeys(description) }),
        ...(error === undefined ? {} : { error }),
      })),
      ...(listFailure === undefined ? {} : { nodesError: listFailure }),
    };
    await printDocument(outputDocument('Description', fields), options.format, output);
    return;
  }
  output.out(describeStatus(object));
  output.out(nodes === undefined ? (listFailure ?? '') : liveText(nodes, options.operatorNamespace));
}
