// How a compiled run stops early: an error jq raised (JqError), or an input only jq can answer
// (NeedsEngine, with the reason DESCRIBE's docs and the fallback counter speak of).
import type { JsonValue } from '../../json-value.js';
import type { EngineReason } from './compiled-program.js';

/** Thrown through a run: this input must run on jq-wasm. */
export class NeedsEngine {
  constructor(readonly reason: EngineReason) {}
}

/**
 * An error a program raised. `exact` is false for jq's own messages (a builtin failing): those are written
 * in jq's words closely enough to tell their kind (jq-error-kind.ts), not letter for letter.
 */
export class JqError {
  constructor(
    readonly value: JsonValue,
    readonly exact: boolean,
  ) {}
}
