// A correlator in the topology: wires the correlator engine (dataplane/correlator/engine.ts, the state
// machine of docs/correlator.md) to its relays and routes.
//
//   LEFT FROM relay  ──offer('left')──▶ engine ──onPair(left, right)──▶ routes (scopes left., right.)
//   RIGHT FROM relay ──offer('right')─▶        ──onTimeout(side, r)──▶ DROP (counted) | SEND TO relay (r unchanged)
//                                             ──onOverflow(side, r)─▶ dropped (`max_pending`, counted)
//
// CORRELATE WHERE is compiled once; the `keys` the compiler found feed the engine's hash index. A WHERE
// that fails at run time for a pair (an overflow, say) counts that pair as not matching and is counted
// and logged as a message error of the route `CORRELATE WHERE`.
import { CorrelatorEngine, type Side } from '../correlator/engine.js';
import type { GraphCorrelator, GraphTimeoutAction } from '../graph/types.js';
import type { Clock } from '../core/clock.js';
import { RecordError } from '../core/errors.js';
import { compileExpression } from '../expr/expressions.js';
import type { Relay } from '../flow/relay.js';
import { Route, type RouteContext } from '../flow/route.js';
import { GraphBuildError, type ExpressionOptions } from '../expr/scope.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { RecordValues } from '../core/values.js';

export interface CorrelatorContext {
  relays: ReadonlyMap<string, Relay>;
  telemetry: ComponentTelemetry;
  expressions: ExpressionOptions;
  clock: Clock;
}

export class CorrelatorNode {
  readonly #engine: CorrelatorEngine;
  readonly #inputs: Record<Side, Relay>;
  readonly #telemetry: ComponentTelemetry;
  #detach: (() => void)[] = [];

  constructor(
    readonly name: string,
    spec: GraphCorrelator,
    ctx: CorrelatorContext,
  ) {
    const relay = (relayName: string, what: string): Relay => {
      const found = ctx.relays.get(relayName);
      if (found === undefined)
        throw new GraphBuildError(`correlator ${name} ${what} ${relayName}: no such relay`);
      return found;
    };
    this.#inputs = { left: relay(spec.left, 'LEFT FROM'), right: relay(spec.right, 'RIGHT FROM') };
    this.#telemetry = ctx.telemetry;
    const routeContext: RouteContext = { ...ctx, payloadVisible: false };
    const routes = spec.routes.map((route) => new Route(route, routeContext));
    const timeout = {
      left: this.#timeoutAction(spec.onTimeout.left, relay),
      right: this.#timeoutAction(spec.onTimeout.right, relay),
    };
    const where = compileExpression(spec.where, ctx.expressions);
    this.#engine = new CorrelatorEngine({
      match: spec.match,
      maxTimeMs: spec.maxTimeMs,
      maxPending: spec.maxPending,
      keys: spec.keys,
      where: (left, right) => where({ left, right }) === true,
      clock: ctx.clock,
      onPair: (left, right) => {
        const scope = { left, right };
        for (const route of routes) route.deliver(scope);
      },
      onTimeout: (side, record) => timeout[side](side, record),
      onOverflow: (side) =>
        this.#telemetry.drop(
          'max_pending',
          `the ${side} side is full; its oldest pending record is dropped`,
          {
            side,
          },
        ),
      onWhereError: (error) => this.#whereFailed(error),
    });
  }

  /** Starts taking records from the LEFT and RIGHT relays. */
  start(): void {
    if (this.#detach.length > 0) return;
    const stopReporting = this.#telemetry.holdsPending(() => this.pending('left') + this.pending('right'));
    const label = `correlator ${this.name}`;
    this.#detach = (['left', 'right'] as const).map((side) =>
      this.#inputs[side].subscribe(`${label} ${side}`, (record) => {
        this.#telemetry.recordsIn();
        this.#engine.offer(side, record);
      }),
    );
    this.#detach.push(stopReporting);
  }

  /** Stops taking records and the engine; records still pending are counted as dropped (`stopped`). */
  stop(): void {
    for (const detach of this.#detach) detach();
    this.#detach = [];
    const pending = this.#engine.stop();
    // One log line per side: a correlator stopping with thousands pending is one event, not thousands.
    for (const side of ['left', 'right'] as const) {
      const count = pending[side].length;
      this.#telemetry.dropMany('stopped', count, `the correlator stopped with ${side} records pending`, {
        side,
      });
    }
  }

  pending(side: Side): number {
    return this.#engine.pending(side);
  }

  #timeoutAction(
    action: GraphTimeoutAction,
    relay: (name: string, what: string) => Relay,
  ): (side: Side, record: RecordValues) => void {
    if (action.action === 'DROP') {
      return (side) =>
        this.#telemetry.drop('correlation_timeout', `a ${side} record found no partner within MAX TIME`, {
          side,
        });
    }
    const target = relay(action.relay, 'ON CORRELATION TIMEOUT SEND TO');
    // The original record, unchanged (the target has that side's fields, types and optionality: SR2022).
    return (_side, record) => target.publish(record);
  }

  #whereFailed(error: unknown): void {
    const failure =
      error instanceof RecordError
        ? error.toMessageError()
        : { code: 'SR3105' as const, reason: 'CORRELATE WHERE failed unexpectedly' };
    this.#telemetry.messageError({ error: failure, route: 'CORRELATE WHERE', policy: 'LOG' });
  }
}
