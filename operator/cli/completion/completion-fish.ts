// `streamroute completion fish`: `complete` lines from the model. Commands complete until one is typed;
// then that command's options and positional arguments (`__fish_is_nth_token`), files where a path goes,
// and statement keywords after -c.
import {
  type CommandModel,
  type CompletionModel,
  type OptionModel,
  type ValueKind,
} from './completion-model.js';

const quote = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

export function fishScript(model: CompletionModel): string {
  const names = model.commands.map((command) => command.name).join(' ');
  const root = `not __fish_seen_subcommand_from ${names}`;
  return [
    '# fish completion for streamroute (from `streamroute completion fish`).',
    '# Now: streamroute completion fish | source',
    '# For good: streamroute completion fish > ~/.config/fish/completions/streamroute.fish',
    'complete -c streamroute -e',
    'complete -c streamroute -f',
    `set -g __streamroute_keywords ${model.keywords.join(' ')}`,
    'function __streamroute_statement_words',
    '    # the last word of a -c value, which may hold several words',
    '    set -l token (commandline -ct)',
    "    set -l head (string replace -r -- '[A-Za-z0-9_]*$' '' \"$token\")",
    '    set -l word (string sub -s (math (string length -- "$head") + 1) -- "$token")',
    '    # fish quotes what it inserts itself: offer the words without the opening quote',
    "    set head (string replace -r -- '^[\\'\"]' '' \"$head\")",
    '    set -l words $__streamroute_keywords',
    '    string match -q -r -- \'[a-z]\' "$word"; and set words (string lower -- $words)',
    "    printf '%s\\n' $head$words",
    'end',
    ...model.commands.map(
      (command) =>
        `complete -c streamroute -n ${quote(root)} -a ${command.name} -d ${quote(command.description)}`,
    ),
    ...model.root.options.map((option) => optionLine(root, option)),
    ...model.commands.flatMap((command) => commandLines(command)),
    '',
  ].join('\n');
}

function commandLines(command: CommandModel): string[] {
  const seen = `__fish_seen_subcommand_from ${command.name}`;
  const positionals = command.positionals.map((positional, index) => {
    const where = positional.variadic ? seen : `${seen}; and __fish_is_nth_token ${index + 2}`;
    return `complete -c streamroute -n ${quote(where)} ${values(positional.value)}`;
  });
  return [...command.options.map((option) => optionLine(seen, option)), ...positionals];
}

function optionLine(condition: string, option: OptionModel): string {
  const short = option.short === undefined ? '' : ` -s ${option.short.slice(1)}`;
  const long = option.long === undefined ? '' : ` -l ${option.long.slice(2)}`;
  const value = option.value === undefined ? '' : ` ${values(option.value)}`;
  return `complete -c streamroute -n ${quote(condition)}${short}${long}${value} -d ${quote(option.description)}`;
}

/** `-r -F` (files), `-x -a '…'` (choices, keywords), `-x` (text: nothing to offer). */
function values(value: ValueKind): string {
  switch (value.kind) {
    case 'file':
      return '-r -F';
    case 'keywords':
      return "-x -a '(__streamroute_statement_words)'";
    case 'choices':
      return `-x -a ${quote(value.choices.join(' '))}`;
    case 'text':
      return '-x';
  }
}
