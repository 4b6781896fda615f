// One metric family as declared: its name, type, help and label names. Every family the data plane and the
// operator register is declared as a MetricSpec beside the code that counts it and built from it, so the
// metric reference (docs/metrics.md, written by operator/tools/generate-metric-docs.ts) is read from the
// same declarations the registries are filled from (decision 0024).
//
// The label scheme: a family about components of a graph labels them `domain`, `kind`, `name` (the
// ComponentTelemetry labels), and only then what it adds (`reason`, `protocol`, …). Node-wide families
// (listeners, worker pools, subscriptions) carry no component labels.
import { Counter, Gauge, type Registry } from 'prom-client';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricSpec<L extends string = string> {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly labels: readonly L[];
}

/** The labels of a component of a graph, in this order, on every family about components. */
export const COMPONENT_LABELS = ['domain', 'kind', 'name'] as const;

/** The declaration of a counter family (its name must end in `_total`). */
export function counterSpec<L extends string = never>(
  name: string,
  help: string,
  labels: readonly L[] = [],
): MetricSpec<L> {
  return { name, type: 'counter', help, labels };
}

/** The declaration of a gauge family. */
export function gaugeSpec<L extends string = never>(
  name: string,
  help: string,
  labels: readonly L[] = [],
): MetricSpec<L> {
  return { name, type: 'gauge', help, labels };
}

type Collect<T> = (this: T) => void | Promise<void>;

/** A counter of `spec` in `registry`, read from plain numbers by `collect` when given. */
export function counterOf<L extends string>(
  spec: MetricSpec<L>,
  registry: Registry,
  collect?: Collect<Counter<L>>,
): Counter<L> {
  if (spec.type !== 'counter') throw new TypeError(`${spec.name} is a ${spec.type}`);
  return new Counter<L>({
    name: spec.name,
    help: spec.help,
    labelNames: [...spec.labels],
    registers: [registry],
    ...(collect === undefined ? {} : { collect }),
  });
}

/** A gauge of `spec` in `registry`, read by `collect` when given. */
export function gaugeOf<L extends string>(
  spec: MetricSpec<L>,
  registry: Registry,
  collect?: Collect<Gauge<L>>,
): Gauge<L> {
  if (spec.type !== 'gauge') throw new TypeError(`${spec.name} is a ${spec.type}`);
  return new Gauge<L>({
    name: spec.name,
    help: spec.help,
    labelNames: [...spec.labels],
    registers: [registry],
    ...(collect === undefined ? {} : { collect }),
  });
}
