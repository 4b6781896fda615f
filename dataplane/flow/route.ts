// A compiled route (`TO <relay> [INHERIT ALL] [SET …] FLUSH IMMEDIATE ON MESSAGE ERROR …`): builds the
// target record from the scopes (record-builder.ts) and places it on the target relay at once, or hands
// the failure to its ON MESSAGE ERROR policy (error-policy.ts). Ingestors, junctions and correlators run
// their routes through this; nothing a record contains can make it throw.
import type { GraphRoute, GraphSchema } from '../graph/types.js';
import { compileErrorPolicy, type Failure, type HandleFailure } from './error-policy.js';
import { RecordError, type MessageError } from '../core/errors.js';
import { compileRecordBuilder, type BuildRecord } from './record-builder.js';
import type { Relay } from './relay.js';
import { GraphBuildError, type EvalScope, type ExpressionOptions } from '../expr/scope.js';
import type { ComponentTelemetry } from '../core/telemetry.js';

export interface RouteContext {
  relays: ReadonlyMap<string, Relay>;
  /** The component the route belongs to: its records out and message errors are counted there. */
  telemetry: ComponentTelemetry;
  expressions: ExpressionOptions;
  /** Schema of `input.` (the codec's or the merged relays'); absent for correlators. */
  source?: GraphSchema;
  /** False when the source schema has SENSITIVE fields (`error.payload` stays null). */
  payloadVisible: boolean;
}

export class Route {
  readonly to: string;
  readonly #relay: Relay;
  readonly #build: BuildRecord;
  readonly #fail: HandleFailure;
  readonly #telemetry: ComponentTelemetry;

  constructor(spec: GraphRoute, ctx: RouteContext) {
    const relay = ctx.relays.get(spec.to);
    if (relay === undefined) throw new GraphBuildError(`route to ${spec.to}: no such relay`);
    this.to = spec.to;
    this.#relay = relay;
    this.#telemetry = ctx.telemetry;
    const source = ctx.source === undefined ? {} : { source: ctx.source };
    this.#build = compileRecordBuilder(
      {
        target: `relay ${relay.shown}`,
        schema: relay.schema,
        inherit: spec.inherit,
        set: spec.set,
        ...source,
      },
      ctx.expressions,
    );
    this.#fail = compileErrorPolicy(spec.onMessageError, { ...ctx, route: relay.shown });
  }

  /**
   * Builds the record from the scopes and places it on the target relay; a failure goes to the ON MESSAGE
   * ERROR policy with the same scopes. Returns whether a record was placed.
   */
  deliver(scope: EvalScope, payload?: Uint8Array): boolean {
    let record;
    try {
      record = this.#build(scope);
    } catch (error: unknown) {
      this.fail(withPayload({ error: asMessageError(error), scope }, payload));
      return false;
    }
    this.#relay.publish(record);
    this.#telemetry.recordsOut();
    return true;
  }

  /** The message failed before the route could run (it did not decode): the policy handles it. */
  fail(failure: Failure): void {
    this.#fail(failure);
  }
}

function withPayload(failure: Failure, payload: Uint8Array | undefined): Failure {
  if (payload !== undefined) failure.payload = payload;
  return failure;
}

function asMessageError(error: unknown): MessageError {
  if (error instanceof RecordError) return error.toMessageError();
  const name = error instanceof Error ? error.name : typeof error;
  return { code: 'SR3105', reason: `building the record failed unexpectedly (${name})` };
}
