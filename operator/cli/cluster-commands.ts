// `streamroute apply`, `diff` and `rollback`: commands that only work on a cluster (chosen as kubectl
// does: --kubeconfig or --context before or after the command, $STREAMROUTE_KUBECONFIG, $KUBECONFIG,
// ~/.kube/config; client/target-rule.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Cluster } from '../cluster/cluster-target.js';
import { UsageError } from '../client/errors.js';
import { formatOf, outputOption, type ClientContext } from './node-commands.js';
import { domainArgument } from '../client/arguments.js';
import type { Output } from '../client/report.js';
import { addClusterOptions, clusterTargetOf, onTarget } from './target-options.js';

function versionArgument(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new InvalidArgumentError('expected a graph version (1, 2, …)');
  return Number(value);
}

export function addClusterCommands(
  program: Command,
  output: Output,
  exit: (code: number) => void,
  context: ClientContext,
): void {
  const env = context.env ?? process.env;
  /** Runs `run` on the command's cluster, explaining how it was chosen when it does not answer. */
  const onCluster = async (command: Command, run: (cluster: Cluster) => Promise<number>): Promise<number> => {
    const target = clusterTargetOf(command, program, env);
    const cluster = await target.connect();
    return onTarget(target, () => run(cluster));
  };
  const domain = () =>
    new Option(
      '-d, --domain <domain>',
      'the namespace (default: -d before the command, else the context’s namespace, else default)',
    ).argParser(domainArgument);
  const files = () =>
    new Option('-f, --file <path>', 'statement (.sql) and resource (.yaml) files or directories (repeatable)')
      .argParser((value: string, previous: string[] = []) => [...previous, value])
      .makeOptionMandatory();

  const apply = program
    .command('apply')
    .description(
      'validate files of statements and resources against a cluster namespace, then server-side apply them',
    )
    .addOption(files())
    .addOption(domain())
    .action(async (options: { file: string[] }, command: Command) => {
      const { runApply } = await import('./commands/apply.js');
      exit(await onCluster(command, (cluster) => runApply({ cluster, files: options.file }, output)));
    });
  const diff = program
    .command('diff')
    .description('show what apply -f would change in a cluster namespace (exit 1 when anything would)')
    .addOption(files())
    .addOption(domain())
    .addOption(outputOption('(default: -o before the command, else table)'))
    .action(async (options: { file: string[] }, command: Command) => {
      const { runDiff } = await import('./commands/diff.js');
      const format = formatOf(command, program);
      exit(await onCluster(command, (cluster) => runDiff({ cluster, files: options.file, format }, output)));
    });
  const rollback = program
    .command('rollback')
    .description('pin a domain to a graph version it keeps (--to N), or remove the pin (--unpin)')
    .addOption(
      new Option('--to <version>', 'the graph version to run').argParser(versionArgument).conflicts('unpin'),
    )
    .option('--unpin', 'remove the pin: the newest graph version runs again')
    .addOption(domain())
    .action(async (options: { to?: number; unpin?: boolean }, command: Command) => {
      if (options.to === undefined && options.unpin !== true)
        throw new UsageError('rollback: pass --to N or --unpin');
      const unpin = options.unpin === true;
      const to = options.to === undefined ? {} : { to: options.to };
      const { runRollback } = await import('./commands/rollback.js');
      exit(await onCluster(command, (cluster) => runRollback({ cluster, unpin, ...to }, output)));
    });
  for (const command of [apply, diff, rollback]) addClusterOptions(command);
}
