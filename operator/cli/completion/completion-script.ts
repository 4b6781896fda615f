// `streamroute completion bash|zsh|fish`: the completion script for the command line as built now.
import type { Command } from 'commander';
import { bashScript } from './completion-bash.js';
import { fishScript } from './completion-fish.js';
import { completionModel } from './completion-model.js';
import { zshScript } from './completion-zsh.js';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

const RENDERERS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export function completionScript(shell: CompletionShell, program: Command): string {
  return RENDERERS[shell](completionModel(program));
}
