// `streamroute completion bash`: a completion function for bash (4 or later) from the model. It finds the
// command among the words typed (skipping options and their values), completes an option's value (files,
// choices, keywords after -c — inside a quoted -c too: `-c 'SHOW RE<Tab>`), then options, commands or
// the command's positional arguments.
import { spellings, type CommandModel, type CompletionModel, type ValueKind } from './completion-model.js';

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;
const words = (list: readonly string[]): string => quote(list.join(' '));

export function bashScript(model: CompletionModel): string {
  const all = [model.root, ...model.commands];
  return [
    '# bash completion for streamroute (from `streamroute completion bash`).',
    '# Now: source <(streamroute completion bash)',
    '# For good: streamroute completion bash > ~/.local/share/bash-completion/completions/streamroute',
    `_streamroute_keywords=${quote(model.keywords.join('\n'))}`,
    '_streamroute_statement_words() {',
    '  # the last word of a -c value, which may be quoted and hold several words',
    `  local word=\${cur##*[[:space:]\\'\\"(]} list=$_streamroute_keywords`,
    '  local head=${cur:0:${#cur}-${#word}}',
    '  [[ $word == *[a-z]* ]] && list=${list,,}',
    "  local IFS=$'\\n'",
    '  COMPREPLY=($(compgen -P "$head" -W "$list" -- "$word"))',
    '}',
    '_streamroute() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}',
    '  local command= word i=1 positional=0',
    '  while ((i < COMP_CWORD)); do',
    '    word=${COMP_WORDS[i]}',
    '    case "$command $word" in',
    ...all.flatMap((command) => skipValueArms(command)),
    '      *) [[ $word != -* ]] && { [[ -z $command ]] && command=$word || ((positional++)); } ;;',
    '    esac',
    '    ((i++))',
    '  done',
    '  case "$command $prev" in',
    ...all.flatMap((command) => valueArms(command)),
    '  esac',
    '  if [[ $cur == -* ]]; then',
    '    case $command in',
    ...all.map(
      (command) =>
        `      ${label(command)}) COMPREPLY=($(compgen -W ${words(optionWords(command))} -- "$cur")) ;;`,
    ),
    '    esac',
    '    return',
    '  fi',
    '  case $command in',
    `    '') COMPREPLY=($(compgen -W ${words(model.commands.map((command) => command.name))} -- "$cur")) ;;`,
    ...model.commands.flatMap((command) => positionalArm(command)),
    '  esac',
    '}',
    'complete -F _streamroute streamroute',
    '',
  ].join('\n');
}

/** The root's arm is the empty command. */
const label = (command: CommandModel): string => (command.name === 'streamroute' ? "''" : command.name);

/** `"validate --format"|"validate -d") ((i++)) ;;`: an option's value is not the command. */
function skipValueArms(command: CommandModel): string[] {
  const prefix = command.name === 'streamroute' ? '' : command.name;
  const taking = command.options.filter((option) => option.value !== undefined).flatMap(spellings);
  if (taking.length === 0) return [];
  return [`      ${taking.map((flag) => `"${prefix} ${flag}"`).join('|')}) ((i++)) ;;`];
}

function valueArms(command: CommandModel): string[] {
  const prefix = command.name === 'streamroute' ? '' : command.name;
  return command.options.flatMap((option) => {
    if (option.value === undefined) return [];
    const cases = spellings(option)
      .map((flag) => `"${prefix} ${flag}"`)
      .join('|');
    return [`    ${cases}) ${complete(option.value)} return ;;`];
  });
}

function complete(value: ValueKind): string {
  switch (value.kind) {
    case 'file':
      return 'compopt -o filenames; COMPREPLY=($(compgen -f -- "$cur"));';
    case 'keywords':
      return '_streamroute_statement_words;';
    case 'choices':
      return `COMPREPLY=($(compgen -W ${words(value.choices)} -- "$cur"));`;
    case 'text':
      return 'COMPREPLY=();';
  }
}

function optionWords(command: CommandModel): string[] {
  return command.options.flatMap(spellings);
}

/** The command's positional arguments: the one at `$positional`, or the last when it repeats. */
function positionalArm(command: CommandModel): string[] {
  const arms = command.positionals.map((positional, index) => {
    const at = positional.variadic ? '*' : String(index);
    return `${at}) ${complete(positional.value)} ;;`;
  });
  if (arms.length === 0) return [];
  return [`    ${command.name}) case $positional in ${arms.join(' ')} esac ;;`];
}
