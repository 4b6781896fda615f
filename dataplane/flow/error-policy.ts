// ON MESSAGE ERROR policies (docs/runtime.md, "Error policies"). Every message error is counted; then
//
//   LOG      the error is logged (warn) with its code, reason and route — never the payload;
//   SEND TO  an error record is built from `error.code`, `error.message`, `error.payload` (the raw payload
//            as text; null when it is not valid UTF-8, when there is no raw payload, or when the source
//            schema has SENSITIVE fields), `metadata.` and `input.` (or `left.`/`right.`), and placed on
//            the error relay. An error record that cannot be built is counted and logged as a drop
//            (`error_record_failed`) and never routed again.
import type { GraphMessageErrorPolicy, GraphSchema } from '../graph/types.js';
import { RecordError, type MessageError } from '../core/errors.js';
import { compileRecordBuilder } from './record-builder.js';
import type { Relay } from './relay.js';
import { GraphBuildError, type EvalScope, type ExpressionOptions } from '../expr/scope.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { RecordValues } from '../core/values.js';

/** A message that failed: what the handler's scopes read. */
export interface Failure {
  error: MessageError;
  /** `input.` (what decoded, or all-null), `metadata.`, or `left.`/`right.` for a correlator. */
  scope: EvalScope;
  /** The raw payload, when the message came from an ingestor. */
  payload?: Uint8Array;
}

export type HandleFailure = (failure: Failure) => void;

export interface ErrorPolicyContext {
  /** The route's target relay, for logs. */
  route: string;
  relays: ReadonlyMap<string, Relay>;
  telemetry: ComponentTelemetry;
  expressions: ExpressionOptions;
  /** Schema of `input.`, to check what the handler's INHERIT ALL copies. */
  source?: GraphSchema;
  /** False when the source schema has SENSITIVE fields: `error.payload` is then always null. */
  payloadVisible: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The payload as text for `error.payload`, or null. */
export function payloadText(payload: Uint8Array | undefined, visible: boolean): string | null {
  if (!visible || payload === undefined) return null;
  try {
    return utf8.decode(payload);
  } catch {
    return null;
  }
}

export function compileErrorPolicy(policy: GraphMessageErrorPolicy, ctx: ErrorPolicyContext): HandleFailure {
  const { telemetry, route } = ctx;
  if (policy.action === 'LOG') {
    return ({ error }) => telemetry.messageError({ error, route, policy: 'LOG' });
  }
  const relay = ctx.relays.get(policy.relay);
  if (relay === undefined)
    throw new GraphBuildError(`ON MESSAGE ERROR SEND TO ${policy.relay}: no such relay`);
  const target = `error relay ${relay.shown}`;
  const build = compileRecordBuilder(
    {
      target,
      schema: relay.schema,
      inherit: policy.inherit,
      set: policy.set,
      ...(ctx.source === undefined ? {} : { source: ctx.source }),
    },
    ctx.expressions,
  );
  return ({ error, scope, payload }) => {
    telemetry.messageError({ error, route, policy: 'SEND_TO' });
    const errorScope: RecordValues = {
      code: error.code,
      message: error.reason,
      payload: payloadText(payload, ctx.payloadVisible),
    };
    let record: RecordValues;
    try {
      record = build({ ...scope, error: errorScope });
    } catch (failure: unknown) {
      const code = failure instanceof RecordError ? failure.code : 'SR3105';
      const why = failure instanceof RecordError ? failure.reason : 'an unexpected failure';
      telemetry.drop('error_record_failed', `the ${target} record could not be built: ${why}`, {
        code: error.code,
        failure: code,
        route,
      });
      return;
    }
    relay.publish(record);
  };
}
