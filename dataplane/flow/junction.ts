// A junction (`CREATE JUNCTION <j> FROM <relay>, <relay>[, …] <route>…`) merges relays of one shape into
// one stream: every record of every FROM relay runs through the junction's routes as `input.`, in the
// order records arrive (fan-out is synchronous, so the merge keeps each relay's order). A route that fails
// for a record hands it to that route's ON MESSAGE ERROR policy; there is no raw payload, so
// `error.payload` is null.
import type { GraphJunction } from '../graph/types.js';
import type { Relay } from './relay.js';
import { Route, type RouteContext } from './route.js';
import { GraphBuildError } from '../expr/scope.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { RecordValues } from '../core/values.js';

export class Junction {
  readonly #from: Relay[];
  readonly #routes: Route[];
  readonly #telemetry: ComponentTelemetry;
  #detach: (() => void)[] = [];

  constructor(
    readonly name: string,
    spec: GraphJunction,
    ctx: Omit<RouteContext, 'source' | 'payloadVisible'>,
  ) {
    this.#from = spec.from.map((relayName) => {
      const relay = ctx.relays.get(relayName);
      if (relay === undefined) throw new GraphBuildError(`junction ${name} FROM ${relayName}: no such relay`);
      return relay;
    });
    this.#telemetry = ctx.telemetry;
    // `input.` is the merged relays' record; their field names and types agree (SR2063).
    const source = this.#from[0]?.schema;
    const routeContext: RouteContext = { ...ctx, payloadVisible: false, ...(source ? { source } : {}) };
    this.#routes = spec.routes.map((route) => new Route(route, routeContext));
  }

  /** Starts taking records from the FROM relays. */
  start(): void {
    if (this.#detach.length > 0) return;
    this.#detach = this.#from.map((relay) => relay.subscribe(`junction ${this.name}`, this.#take));
  }

  stop(): void {
    for (const detach of this.#detach) detach();
    this.#detach = [];
  }

  readonly #take = (record: Readonly<RecordValues>): void => {
    this.#telemetry.recordsIn();
    const scope = { input: record };
    for (const route of this.#routes) route.deliver(scope);
  };
}
