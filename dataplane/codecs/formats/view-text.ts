// The check every format makes of a value before writing it. (How readers write view text or values while
// they walk a parsed payload — no intermediate object, so no key such as `__proto__` can touch a
// prototype — is view-sink.ts.)
import type { JsonValue } from '../json-value.js';
import { fail, keyPath, keyStep, type PathStep } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';

/** A format's own rule for a value it is about to write: a problem to report, or undefined. */
export type WriteRule = (value: JsonValue, path: readonly PathStep[]) => string | undefined;

/**
 * Checks a value before a format writes it: no NaN or infinity, nesting at most MAX_DEPTH, and the
 * format's own rule at every node. Throws a FormatFailure (SR3008) at the first bad key path (of positions).
 */
export function checkWritable(format: string, value: JsonValue, rule?: WriteRule): void {
  visit(format, value, [], rule);
}

function visit(format: string, value: JsonValue, path: PathStep[], rule: WriteRule | undefined): void {
  const problem = ownProblem(value, path.length) ?? rule?.(value, path);
  if (problem !== undefined) {
    const at = keyPath(path);
    fail('SR3008', `${format}: cannot write ${problem} at ${at}`, at);
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      path.push(index);
      visit(format, item, path, rule);
      path.pop();
    });
    return;
  }
  for (const [index, key] of Object.keys(value).entries()) {
    path.push(keyStep(index));
    visit(format, value[key] as JsonValue, path, rule);
    path.pop();
  }
}

function ownProblem(value: JsonValue, depth: number): string | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'NaN or an infinity';
  if (value !== null && typeof value === 'object' && depth >= MAX_DEPTH) {
    return `a value nested deeper than ${MAX_DEPTH}`;
  }
  return undefined;
}
