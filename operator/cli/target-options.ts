// The target options on the command line (--server, --kubeconfig, --context, --operator-namespace, before
// the command and after it; the command's own win), the target they choose by the rule of
// client/target-rule.ts, and the explanation added when the chosen target does not answer.
import { Option, type Command } from 'commander';
import { InputError } from '../language/input-error.js';
import { UnreachableClusterError, UnreachableNodeError, UsageError } from '../client/errors.js';
import type { NodeTarget, Server } from '../client/endpoint.js';
import {
  chooseCluster,
  chooseTarget,
  KUBECONFIG_ENV,
  otherTargetHint,
  type ClusterOptions,
  type TargetChoice,
} from '../client/target-rule.js';
import type { Cluster } from '../cluster/cluster-target.js';
import { DEFAULT_OPERATOR_NAMESPACE } from '../../dataplane/kube/dataplane-flags.js';

type Env = Readonly<Record<string, string | undefined>>;

interface TargetOptions extends ClusterOptions {
  server?: Server;
  domain?: string;
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
        `work on the cluster of this kubeconfig (default: $${KUBECONFIG_ENV}, else as kubectl: $KUBECONFIG, else ~/.kube/config)${after}`,
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

/** A cluster, connected when a command needs it (the Kubernetes client loads only then). */
export interface ClusterTarget {
  kind: 'cluster';
  chosenBy: string;
  connect(): Promise<Cluster>;
  operatorNamespace: string;
}

export type CommandTarget = { kind: 'node'; chosenBy: string; node: NodeTarget } | ClusterTarget;

/** The target of `command` (node or cluster) by the documented rule. */
export function targetOf(command: Command, program: Command, env: Env): CommandTarget {
  const choice = chooseTarget(flagsOf(command, program), env);
  if (typeof choice === 'string') throw new UsageError(choice);
  return commandTarget(choice, command, program);
}

/** The cluster of a command that only works on one (apply, diff, rollback). */
export function clusterTargetOf(command: Command, program: Command, env: Env): ClusterTarget {
  const choice = chooseCluster(flagsOf(command, program), env);
  if (typeof choice === 'string') throw new UsageError(`${command.name()}: ${choice}`);
  return commandTarget(choice, command, program) as ClusterTarget;
}

/**
 * Runs a command on its target; when the target does not answer at all, the error says which rule chose
 * it and how to pick the other kind.
 */
export async function onTarget<T>(target: CommandTarget, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error: unknown) {
    if (!(error instanceof UnreachableNodeError) && !(error instanceof UnreachableClusterError)) throw error;
    throw new InputError(
      `${error.message}\n  the ${target.kind} was chosen by ${target.chosenBy}; ${otherTargetHint(target.kind)}`,
    );
  }
}

function flagsOf(command: Command, program: Command): TargetOptions {
  const own = command === program ? {} : command.opts<TargetOptions>();
  const root = program.opts<TargetOptions>();
  const server = own.server ?? root.server;
  const kubeconfig = own.kubeconfig ?? root.kubeconfig;
  const context = own.context ?? root.context;
  return {
    ...(server === undefined ? {} : { server }),
    ...(kubeconfig === undefined ? {} : { kubeconfig }),
    ...(context === undefined ? {} : { context }),
  };
}

/** -d after the command, else before it; on a cluster without -d, the context's namespace. */
function givenDomain(command: Command, program: Command): string | undefined {
  if (command !== program && command.getOptionValueSource('domain') === 'cli')
    return command.opts<TargetOptions>().domain;
  if (program.getOptionValueSource('domain') === 'cli') return program.opts<TargetOptions>().domain;
  return undefined;
}

function commandTarget(choice: TargetChoice, command: Command, program: Command): CommandTarget {
  const domain = givenDomain(command, program);
  if (choice.kind === 'node') {
    return {
      kind: 'node',
      chosenBy: choice.chosenBy,
      node: { server: choice.server, domain: domain ?? 'default' },
    };
  }
  return {
    kind: 'cluster',
    chosenBy: choice.chosenBy,
    operatorNamespace: command.opts<TargetOptions>().operatorNamespace ?? DEFAULT_OPERATOR_NAMESPACE,
    connect: async () => (await import('../cluster/cluster-target.js')).connect(choice.options, domain),
  };
}
