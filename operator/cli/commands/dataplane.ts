// `streamroute dataplane`: the data plane in Kubernetes mode (the DaemonSet's process). The flags, their
// defaults and checks live with the data plane (dataplane/kube/dataplane-flags.ts); this registers them
// on the command line and runs `runDataplane` until SIGINT or SIGTERM (or the test's AbortSignal).
import type { Command } from 'commander';
import type { Logger } from 'pino';
import { DATAPLANE_FLAGS, type DataplaneFlags } from '../../../dataplane/kube/dataplane-flags.js';
import type { Output } from '../../client/report.js';

export function addDataplaneCommand(
  program: Command,
  output: Output,
  exit: (code: number) => void,
  context: { signal?: AbortSignal; logger?: Logger; env?: Readonly<Record<string, string | undefined>> } = {},
): void {
  const command = program
    .command('dataplane')
    .description('run the data plane on a Kubernetes node: watch the index, run its graphs, report the node');
  for (const [, usage, description, fallback] of DATAPLANE_FLAGS) {
    if (fallback === undefined) command.option(usage, description);
    else command.option(usage, description, fallback);
  }
  command.action(async (flags: DataplaneFlags) => {
    const { runDataplane } = await import('../../../dataplane/kube/main.js');
    exit(
      await runDataplane(flags, {
        ...(context.env === undefined ? {} : { env: context.env }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(context.logger === undefined ? {} : { logger: context.logger }),
        err: (line) => output.err(line),
      }),
    );
  });
}
