// `streamroute dataplane` (the DaemonSet's process, on every node of a cluster) and `streamroute
// --version` without the rest of the command line: the compiler, the statement language, the operator
// and the client commands are never loaded, which keeps the data plane's start-up and idle memory down
// (docs/benchmarks.md, "Start-up and idle memory"). The command is the same one program.ts registers;
// main.ts picks this entry for `dataplane …`, `--version` and `-V`.
import { addDataplaneCommand } from './commands/dataplane.js';
import type { ClientContext } from './node-commands.js';
import type { Output } from '../client/report.js';
import { rootProgram, runProgram } from './root-program.js';

export function runCli(
  argv: readonly string[],
  output: Output,
  context: ClientContext = {},
): Promise<number> {
  return runProgram(
    (exit) => {
      const program = rootProgram(output);
      addDataplaneCommand(program, output, exit, context);
      return program;
    },
    argv,
    output,
  );
}
