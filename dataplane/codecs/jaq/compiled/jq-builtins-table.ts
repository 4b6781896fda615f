// Every builtin of the compiled subset, by name, with the arities it takes: what the parser accepts. A
// call of anything else (or another arity) is outside the subset.
import { VALUE_BUILTINS } from './jq-builtins.js';
import { GENERATOR_BUILTINS } from './jq-generators.js';

let arities: Map<string, number[]> | undefined;

export function builtinArities(name: string): number[] | undefined {
  if (arities === undefined) {
    arities = new Map();
    for (const key of [...Object.keys(VALUE_BUILTINS), ...GENERATOR_BUILTINS]) {
      const [builtin = '', arity = '0'] = key.split('/');
      arities.set(builtin, [...(arities.get(builtin) ?? []), Number(arity)]);
    }
  }
  return arities.get(name);
}
