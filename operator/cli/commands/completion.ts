// `streamroute completion bash|zsh|fish`: prints a completion script of the commands, options, choices
// and statement keywords (docs/cli.md). The scripts are written from the command line itself, loaded
// only when this command runs.
import { Argument, type Command } from 'commander';
import { EXIT, type Output } from '../../client/report.js';

export function addCompletionCommand(program: Command, output: Output, exit: (code: number) => void): void {
  program
    .command('completion')
    .description('print a shell completion script: source <(streamroute completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('../completion/completion-script.js');
      output.out(completionScript(shell, program));
      exit(EXIT.ok);
    });
}
