// `streamroute top [-d DOMAIN] [--interval S] [--sort KEY] [-o table|json]`: the domain's components
// live, per node (docs/cli.md). The view's code loads only when the command runs.
import { Option, type Command } from 'commander';
import { secondsArgument } from '../../client/arguments.js';
import type { ReadStream, WriteStream } from 'node:tty';
import type { Output } from '../../client/report.js';
import { SORT_KEYS, type SortKey } from '../../top/sort-keys.js';
import { domainOption, serverOption, type ClientContext } from '../node-commands.js';
import { addClusterOptions, onTarget, targetOf } from '../target-options.js';

interface TopCommandOptions {
  interval: number;
  sort: SortKey;
  output: 'table' | 'json';
}

export function addTopCommand(
  program: Command,
  output: Output,
  exit: (code: number) => void,
  context: ClientContext,
): void {
  const env = context.env ?? process.env;
  const top = program
    .command('top')
    .description(
      'watch the components of a domain live: records in and out per second, errors, drops, pending, state',
    )
    .addOption(
      new Option('--interval <seconds>', 'seconds between looks')
        .argParser(secondsArgument(0.1, 3600))
        .default(1),
    )
    .addOption(new Option('--sort <key>', 'the order of the rows').choices(SORT_KEYS).default('kind'))
    .addOption(
      new Option('-o, --output <format>', 'table, or json (json and anything but a terminal: one look)')
        .choices(['table', 'json'])
        .default('table'),
    )
    .addOption(domainOption())
    .addOption(serverOption())
    .action(async (options: TopCommandOptions, command: Command) => {
      const chosen = targetOf(command, program, env);
      const [{ runTop }, { topSourceOf }, { processStdin }] = await Promise.all([
        import('../../top/run-top.js'),
        import('../../top/top-source.js'),
        import('../../client/scripts.js'),
      ]);
      const source = await topSourceOf(chosen, context.cwd ?? process.cwd());
      const live = (context.stdin ?? processStdin).isTTY && process.stdout.isTTY === true;
      const terminal = live
        ? { input: process.stdin as ReadStream, output: process.stdout as WriteStream }
        : undefined;
      const view = {
        source,
        intervalMs: options.interval * 1000,
        sort: options.sort,
        output: options.output,
      };
      exit(
        await onTarget(chosen, () => runTop(terminal === undefined ? view : { ...view, terminal }, output)),
      );
    });
  addClusterOptions(top, { operatorNamespace: true });
}
