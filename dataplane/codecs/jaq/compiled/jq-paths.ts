// Path steps as closures: `.name`, `.[k]`, `.[a:b]`, `.[]`, and their optional forms (`.a?`, `.[]?`), where
// only the step's own failure is no output (jq's INDEX_OPT and EACH_OPT), not its target's or its key's.
import type { JsonValue } from '../../json-value.js';
import { index, slice } from './jq-builtins.js';
import { generator, iterate, map1, single, type Code, type Emit } from './jq-code.js';
import { JqError } from './jq-values.js';

/** `.name`: the commonest step of a program. */
export function field(target: Code, name: string): Code {
  const read = (value: JsonValue): JsonValue =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.hasOwn(value, name)
        ? (value[name] as JsonValue)
        : null
      : index(value, name);
  return map1(target, read);
}

/** `.[k]`; optional (`.[k]?`): a value that cannot be indexed so gives no output. */
export function indexCode(target: Code, key: Code, optional: boolean): Code {
  const [of, by] = [target.single, key.single];
  if (of !== undefined && by !== undefined && !optional)
    return single((input) => {
      const name = by(input);
      return index(of(input), name);
    });
  const step = optional
    ? optionalStep(index)
    : (value: JsonValue, name: JsonValue, emit: Emit) => emit(index(value, name));
  // the key is the outer loop (jq's gen_index: the key's subexpression runs first)
  return generator((input, emit) =>
    key.gen(input, (name) => target.gen(input, (value) => step(value, name, emit))),
  );
}

/** A step whose failure is no output (jq's INDEX_OPT); what follows it may still fail. */
function optionalStep(
  operation: (value: JsonValue, ...args: JsonValue[]) => JsonValue,
): (value: JsonValue, arg: JsonValue, emit: Emit, more?: JsonValue) => void {
  return (value, arg, emit, more) => {
    let result: JsonValue;
    try {
      result = more === undefined ? operation(value, arg) : operation(value, arg, more);
    } catch (error: unknown) {
      if (error instanceof JqError) return;
      throw error;
    }
    emit(result);
  };
}

/** `.[]?`: no outputs from a value that is not an array or object (jq's EACH_OPT). */
export function iterateOptional(value: JsonValue, emit: Emit): void {
  if (value !== null && typeof value === 'object') iterate(value, emit);
}

/** `.[from:to]`; `from` is the outer loop, as in jq. */
export function sliceCode(
  target: Code,
  from: Code | undefined,
  to: Code | undefined,
  optional: boolean,
): Code {
  const [start, end] = [from ?? NONE, to ?? NONE];
  const cut = (value: JsonValue, first: JsonValue, last: JsonValue, emit: Emit): void => {
    if (optional) optionalSlice(value, first, emit, last);
    else emit(slice(value, first, last));
  };
  return generator((input, emit) =>
    start.gen(input, (first) =>
      end.gen(input, (last) => target.gen(input, (value) => cut(value, first, last, emit))),
    ),
  );
}

const NONE: Code = single(() => null);
const optionalSlice = optionalStep(slice);
