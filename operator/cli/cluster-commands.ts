// `streamroute apply`, `diff` and `rollback`: commands that only work on a cluster (--kubeconfig,
// --context or $STREAMROUTE_KUBECONFIG, before or after the command).
import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../client/errors.js';
import { formatOf, outputOption, type ClientContext } from './node-commands.js';
import { domainArgument } from '../client/arguments.js';
import { runApply } from './commands/apply.js';
import { runDiff } from './commands/diff.js';
import { runRollback } from './commands/rollback.js';
import type { Output } from '../client/report.js';
import { addClusterOptions, clusterOf } from '../cluster/index.js';
import { KUBECONFIG_ENV } from '../cluster/cluster-target.js';

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
  const clusterFor = (command: Command) => {
    const cluster = clusterOf(command, program, env);
    if (cluster === undefined) {
      throw new UsageError(
        `${command.name()} works on a cluster: pass --kubeconfig FILE or --context NAME, or set $${KUBECONFIG_ENV}`,
      );
    }
    return cluster.connect();
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
    .action(async (options: { file: string[] }, command: Command) =>
      exit(await runApply({ cluster: clusterFor(command), files: options.file }, output)),
    );
  const diff = program
    .command('diff')
    .description('show what apply -f would change in a cluster namespace (exit 1 when anything would)')
    .addOption(files())
    .addOption(domain())
    .addOption(outputOption('(default: -o before the command, else table)'))
    .action(async (options: { file: string[] }, command: Command) =>
      exit(
        await runDiff(
          { cluster: clusterFor(command), files: options.file, format: formatOf(command, program) },
          output,
        ),
      ),
    );
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
      exit(
        await runRollback(
          { cluster: clusterFor(command), unpin, ...(options.to === undefined ? {} : { to: options.to }) },
          output,
        ),
      );
    });
  for (const command of [apply, diff, rollback]) addClusterOptions(command);
}
