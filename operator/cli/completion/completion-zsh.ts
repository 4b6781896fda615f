// `streamroute completion zsh`: an `_arguments` completion function from the model. Works sourced
// (after compinit) and as `_streamroute` in $fpath. Statement keywords after -c are completed word by
// word inside the quoted value (`compset -q`).
import {
  spellings,
  type CommandModel,
  type CompletionModel,
  type OptionModel,
  type ValueKind,
} from './completion-model.js';

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;
/** A description inside `[…]` of an `_arguments` spec. */
const described = (text: string): string =>
  text.replaceAll('\\', '\\\\').replaceAll('[', '\\[').replaceAll(']', '\\]').replaceAll(':', '\\:');

export function zshScript(model: CompletionModel): string {
  return [
    '#compdef streamroute',
    '# zsh completion for streamroute (from `streamroute completion zsh`).',
    '# Now (after compinit): source <(streamroute completion zsh)',
    '# For good: streamroute completion zsh > "${fpath[1]}/_streamroute"',
    `_streamroute_keywords=(${model.keywords.join(' ')})`,
    '_streamroute_statement_words() {',
    '  compset -q',
    '  local -a words; words=($_streamroute_keywords)',
    '  [[ $PREFIX == *[a-z]* ]] && words=(${(L)words})',
    '  compadd -a words',
    '}',
    '_streamroute() {',
    '  local curcontext=$curcontext state line',
    '  typeset -A opt_args',
    `  _arguments -C -s ${model.root.options.map(optionSpec).join(' ')} '1: :->command' '*:: :->args' && return`,
    '  case $state in',
    '    command)',
    '      local -a commands',
    `      commands=(${model.commands.map((command) => quote(`${command.name}:${command.description}`)).join(' ')})`,
    "      _describe -t commands 'streamroute command' commands ;;",
    '    args)',
    '      curcontext=${curcontext%:*:*}:streamroute-$words[1]:',
    '      case $words[1] in',
    ...model.commands.map(
      (command) => `        ${command.name}) _arguments -s ${commandSpecs(command).join(' ')} ;;`,
    ),
    '      esac ;;',
    '  esac',
    '}',
    'if [[ $funcstack[1] == _streamroute ]]; then _streamroute "$@"; else compdef _streamroute streamroute; fi',
    '',
  ].join('\n');
}

function commandSpecs(command: CommandModel): string[] {
  const positionals = command.positionals.map((positional, index) => {
    const at = positional.variadic ? '*' : String(index + 1);
    return quote(`${at}:${name(positional.value)}:${action(positional.value)}`);
  });
  return [...command.options.map(optionSpec), ...positionals];
}

/** `'(-d --domain)'{-d,--domain}'[the domain]:domain: '`; `*` first when it repeats. */
function optionSpec(option: OptionModel): string {
  const flags = spellings(option);
  const repeat = /repeatable/.test(option.description) ? '*' : '';
  const tail = `[${described(option.description)}]${option.value === undefined ? '' : `:${name(option.value)}:${action(option.value)}`}`;
  if (flags.length === 1) return `${repeat === '' ? '' : "'*'"}${quote(`${flags[0] ?? ''}${tail}`)}`;
  const exclusive = repeat === '' ? quote(`(${flags.join(' ')})`) : "'*'";
  return `${exclusive}{${flags.join(',')}}${quote(tail)}`;
}

function name(value: ValueKind): string {
  switch (value.kind) {
    case 'file':
      return 'file';
    case 'keywords':
      return 'statements';
    case 'choices':
      return 'value';
    case 'text':
      return value.name.replaceAll(':', '');
  }
}

function action(value: ValueKind): string {
  switch (value.kind) {
    case 'file':
      return '_files';
    case 'keywords':
      return '_streamroute_statement_words';
    case 'choices':
      return `(${value.choices.join(' ')})`;
    case 'text':
      return ' ';
  }
}
