// One look at a node for `top`: each component of the domain with its counters (records in and out,
// errors, drops), what it holds (pending) and its state. The counters come from the node's /metrics
// (`{domain, kind, name}` series), the state and the buffers of ingestors and emitters from their
// DESCRIBE, the list of components from SHOW (so an idle component has a row too).
import type { ComponentDescription } from '../../dataplane/core/status.js';
import { METRICS, PENDING_METRIC } from '../../dataplane/core/telemetry.js';
import { componentKey } from '../graph/metrics-rates.js';
import type { ListedObject } from '../shell/object-names.js';
import type { Sample } from '../graph/prometheus-text.js';

export const TOP_KINDS = [
  'http-ingestor',
  'syslog-ingestor',
  'topic-ingestor',
  'relay',
  'junction',
  'correlator',
  'emitter',
] as const;
export type TopKind = (typeof TOP_KINDS)[number];

/** One component's counters on one node at one moment. */
export interface ComponentCounts {
  kind: TopKind;
  /** As statements name it (SHOW's spelling), else the name of its metric series. */
  name: string;
  recordsIn: number;
  recordsOut: number;
  /** Message errors and general errors. */
  errors: number;
  drops: number;
  /** Records it holds: a correlator's unpaired records, an ingestor's quiesce buffer, an emitter's queue. */
  pending: number | null;
  /** The runtime state of an ingestor or emitter (`Running`, `Retrying`, …); relays and the rest have none. */
  state: string | null;
}

export interface NodeSample {
  /** The Kubernetes node, or the embedded node's address. */
  node: string;
  pod?: string;
  /** When it was read (milliseconds, monotonic). */
  at: number;
  components: ComponentCounts[];
  /** Why the node could not be read this time (its components are then empty). */
  error?: string;
}

/** The metric families `top` reads. */
export const TOP_FAMILIES: ReadonlySet<string> = new Set([
  METRICS.recordsIn.name,
  METRICS.recordsOut.name,
  METRICS.messageErrors.name,
  METRICS.generalErrors.name,
  METRICS.drops.name,
  PENDING_METRIC.name,
]);

/** The SHOW kinds `top` lists. */
export const TOP_SHOW_KINDS = ['Ingestor', 'Relay', 'Junction', 'Correlator', 'Emitter'] as const;

/** `orders_in`, `Orders_In` and `orders-in` name one object (the key `graph --rates` uses too). */
export const keyOf = componentKey;

/** SHOW INGESTORS' TYPE column → the ingestor's kind. */
const INGESTOR_TYPES: Readonly<Record<string, TopKind>> = {
  HTTP: 'http-ingestor',
  SYSLOG: 'syslog-ingestor',
  TOPIC: 'topic-ingestor',
};

/** The kind a SHOW row stands for (an ingestor's TYPE says which). */
export function kindOfListed(object: ListedObject): TopKind | undefined {
  switch (object.kind) {
    case 'Ingestor':
      return INGESTOR_TYPES[object.columns['TYPE'] ?? ''] ?? 'http-ingestor';
    case 'Relay':
      return 'relay';
    case 'Junction':
      return 'junction';
    case 'Correlator':
      return 'correlator';
    case 'Emitter':
      return 'emitter';
    default:
      return undefined;
  }
}

const empty = (kind: TopKind, name: string): ComponentCounts => ({
  kind,
  name,
  recordsIn: 0,
  recordsOut: 0,
  errors: 0,
  drops: 0,
  pending: null,
  state: null,
});

const FIELD: Readonly<Record<string, 'recordsIn' | 'recordsOut' | 'errors' | 'drops' | 'pending'>> = {
  [METRICS.recordsIn.name]: 'recordsIn',
  [METRICS.recordsOut.name]: 'recordsOut',
  [METRICS.messageErrors.name]: 'errors',
  [METRICS.generalErrors.name]: 'errors',
  [METRICS.drops.name]: 'drops',
  [PENDING_METRIC.name]: 'pending',
};

export interface CountsInput {
  domain: string;
  listed: readonly ListedObject[];
  samples: readonly Sample[];
  /** DESCRIBE of the ingestors and emitters, by keyOf(kind, name). */
  described: ReadonlyMap<string, ComponentDescription>;
}

/** The domain's components: those SHOW lists, and any other the metrics name. */
export function componentCounts(input: CountsInput): ComponentCounts[] {
  const components = new Map<string, ComponentCounts>();
  for (const object of input.listed) {
    const kind = kindOfListed(object);
    if (kind !== undefined) components.set(keyOf(kind, object.name), empty(kind, object.name));
  }
  for (const sample of input.samples) count(components, input.domain, sample);
  for (const [key, description] of input.described) {
    const component = components.get(key);
    if (component !== undefined) Object.assign(component, fromDescription(description));
  }
  return [...components.values()];
}

/** Adds a sample of the domain to its component (made when SHOW did not list it). */
function count(components: Map<string, ComponentCounts>, domain: string, sample: Sample): void {
  const { labels } = sample;
  const field = FIELD[sample.name];
  if (labels['domain'] !== domain || field === undefined || labels['name'] === undefined) return;
  const kind = labels['kind'];
  if (!isTopKind(kind)) return;
  const key = keyOf(kind, labels['name']);
  const component = components.get(key) ?? empty(kind, labels['name']);
  components.set(key, component);
  component[field] = (component[field] ?? 0) + sample.value;
}

/** The state and buffer a DESCRIBE reports. */
export function fromDescription(
  description: ComponentDescription,
): Pick<ComponentCounts, 'state' | 'pending'> {
  const { metrics } = description;
  const pending = metrics['quiesce_buffered'] ?? metrics['queued_records'] ?? metrics['held_records'] ?? null;
  return { state: description.state, pending };
}

/** A component read from its DESCRIBE alone (the live API answers describe, not /metrics). */
export function countsOfDescription(description: ComponentDescription, name: string): ComponentCounts {
  const { metrics } = description;
  return {
    ...empty(description.kind, name),
    recordsIn: metrics['records_in'] ?? 0,
    recordsOut: metrics['records_out'] ?? 0,
    errors: (metrics['message_errors'] ?? 0) + (metrics['general_errors'] ?? 0),
    drops: metrics['drops'] ?? 0,
    ...fromDescription(description),
  };
}

function isTopKind(kind: string | undefined): kind is TopKind {
  return (TOP_KINDS as readonly (string | undefined)[]).includes(kind);
}
