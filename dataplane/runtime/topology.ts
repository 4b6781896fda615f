// A Graph (already checked by loadGraph) built into running parts: relays, the entry of every ingestor,
// junctions and correlators wired to their relays, and `onRecord` for subscribers. Building either gives
// the whole topology or every reason it cannot run — a codec kind not supported yet, an expression
// without types — so the caller refuses the graph and keeps the one it has. Emitters are built here too
// (an EmitterSlot each: relay → codec → syslog or Kafka sender); the sources of ingestors (syslog
// listeners, topic consumers) are the domain runtime's.
//
// Nothing flows until a source calls an ingestor's `ingest`; `stop()` detaches everything and stops the
// correlators (their pending records are counted as dropped).
//
// Hot reload: given the running topology of the domain and the diff to the new graph, the parts the diff
// calls unchanged are carried over as the same objects (a Relay keeps its consumers, a correlator its
// pending records, an ingestor entry its identity); only the rest is built. Building is split in two so a
// reload can do whatever else may fail between them:
//
//   prepareTopology  builds the new parts; nothing is started and the old topology is not touched, so a
//                    prepared topology that is dropped leaves no trace
//   activate()       starts the new junctions, correlators and emitters, stops the old topology's changed
//                    and removed ones (a stopped emitter flushes what it holds within its grace) and hands it over (its own `stop()` does nothing from then on; the new
//                    topology owns the parts). It cannot fail.
//
// `buildTopology` does both at once (a first build, tests, benchmarks).
//
// Names: parts are keyed by resource name; what they log and the `name` label they count under are the
// graph's display names (decision 0025: `Orders_In` for an object a statement made).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createCodec, type Codec } from '../codecs/codec.js';
import { isUnchanged, type ComponentRecord, type GraphDiff } from '../graph/diff.js';
import { displayOf } from '../graph/display-names.js';
import type { DisplayRecord, Graph, GraphEmitter, GraphRoute, GraphSchema } from '../graph/types.js';
import type { Clock } from '../core/clock.js';
import { CorrelatorNode } from './correlator-node.js';
import { EmitterSlot } from './emitter-slot.js';
import { kafkaSender, syslogSender } from './emitter-senders.js';
import { compileErrorPolicy } from '../flow/error-policy.js';
import { Ingestor, type IngestorEntry, type IngestorKind } from './ingestor.js';
import { Junction } from '../flow/junction.js';
import { Relay, type RecordListener } from '../flow/relay.js';
import { Route } from '../flow/route.js';
import { GraphBuildError, type ExpressionOptions } from '../expr/scope.js';
import type { Resolver } from '../emitters/syslog-emitter.js';
import type { TlsMaterialSource } from '../net/tls-contexts.js';
import { Telemetry, type ComponentKind, type ComponentTelemetry } from '../core/telemetry.js';
import { systemNow, type Instant } from '../core/values.js';

export interface TopologyDeps {
  /** The node's registry: counters of every domain and every graph version land there. */
  registry: Registry;
  logger: Logger;
  /** Correlator timers (monotonic). */
  clock: Clock;
  /** The wall clock `now()` reads (default `systemNow`: `Date.now()`, millisecond precision). */
  now?: () => Instant;
  /** Files of uploaded resources (syslog clients' TLS files); without it a TLS emitter stays Retrying. */
  tls?: TlsMaterialSource;
  /** Emitters' address resolution (default: the node's resolver). */
  resolve?: Resolver;
  /** Message error lines one by one per component and 10 s (tests that read every line raise it). */
  messageErrorLines?: number;
}

export interface Topology {
  readonly domain: string;
  readonly relays: ReadonlyMap<string, Relay>;
  /** HTTP and syslog ingestors by name (the names are unique across both kinds, SR2060). */
  readonly ingestors: ReadonlyMap<string, IngestorEntry>;
  readonly junctions: ReadonlyMap<string, Junction>;
  readonly correlators: ReadonlyMap<string, CorrelatorNode>;
  readonly emitters: ReadonlyMap<string, EmitterSlot>;
  /** Calls `listener` with every record placed on `relay`; returns the unsubscribe function. */
  onRecord(relay: string, listener: RecordListener, label?: string): () => void;
  stop(): void;
}

export type BuildResult = { ok: true; topology: Topology } | { ok: false; errors: string[] };

/** A topology built and not started yet; `activate` starts it and retires the previous one. */
export type PrepareResult =
  { ok: true; topology: Topology; activate: () => void } | { ok: false; errors: string[] };

/** The running topology of the same domain, and the diff from its graph to the one being built. */
export interface TopologyReuse {
  previous: Topology;
  diff: GraphDiff;
}

/** Topologies whose parts a newer topology took over: their `stop()` must not stop those parts. */
const handedOver = new WeakSet<Topology>();

/** Builds and activates at once. */
export function buildTopology(graph: Graph, deps: TopologyDeps, reuse?: TopologyReuse): BuildResult {
  const prepared = prepareTopology(graph, deps, reuse);
  if (!prepared.ok) return prepared;
  prepared.activate();
  return { ok: true, topology: prepared.topology };
}

/**
 * Builds every part of `graph` (reusing the unchanged parts of `reuse.previous`) without starting any and
 * without touching the previous topology. Throws only for a defect (an error other than GraphBuildError).
 */
export function prepareTopology(graph: Graph, deps: TopologyDeps, reuse?: TopologyReuse): PrepareResult {
  if (reuse !== undefined && handedOver.has(reuse.previous))
    throw new RangeError(`the previous topology of domain ${reuse.previous.domain} was already replaced`);
  const builder = new TopologyBuilder(graph, deps, reuse);
  const parts = builder.build();
  if (builder.errors.length > 0) return { ok: false, errors: builder.errors };
  const kept = builder.kept;
  let activated = false;
  const activate = (): void => {
    if (activated) return;
    activated = true;
    for (const junction of parts.junctions.values()) if (!kept.has(junction)) junction.start();
    for (const correlator of parts.correlators.values()) if (!kept.has(correlator)) correlator.start();
    for (const emitter of parts.emitters.values()) if (!kept.has(emitter)) emitter.start();
    if (reuse !== undefined) retire(reuse.previous, kept);
  };
  return { ok: true, topology: assemble(graph.domain, parts), activate };
}

type Parts = Pick<Topology, 'relays' | 'ingestors' | 'junctions' | 'correlators' | 'emitters'>;

function assemble(domain: string, parts: Parts): Topology {
  const topology: Topology = {
    domain,
    ...parts,
    onRecord(relay, listener, label = 'subscriber') {
      const found = parts.relays.get(relay);
      if (found === undefined) throw new RangeError(`domain ${domain} has no relay ${relay}`);
      return found.subscribe(label, listener);
    },
    stop() {
      if (handedOver.has(topology)) return;
      for (const junction of parts.junctions.values()) junction.stop();
      for (const correlator of parts.correlators.values()) correlator.stop();
      for (const emitter of parts.emitters.values()) void emitter.stop();
    },
  };
  return topology;
}

/** Stops the parts of the old topology the new one did not keep, and hands the old one over. */
function retire(previous: Topology, kept: ReadonlySet<object>): void {
  for (const junction of previous.junctions.values()) if (!kept.has(junction)) junction.stop();
  for (const correlator of previous.correlators.values()) if (!kept.has(correlator)) correlator.stop();
  for (const emitter of previous.emitters.values()) if (!kept.has(emitter)) void emitter.stop();
  handedOver.add(previous);
}

/** What every part's routes need. */
interface PartContext {
  relays: ReadonlyMap<string, Relay>;
  telemetry: ComponentTelemetry;
  expressions: ExpressionOptions;
}

/** Builds every part it can and collects why the others cannot be built. */
class TopologyBuilder {
  readonly errors: string[] = [];
  /** Parts carried over from the previous topology. */
  readonly kept = new Set<object>();
  readonly #graph: Graph;
  readonly #reuse: TopologyReuse | undefined;
  readonly #clock: Clock;
  readonly #deps: TopologyDeps;
  readonly #telemetry: Telemetry;
  readonly #expressions: ExpressionOptions;
  readonly #relays = new Map<string, Relay>();
  /** Codecs are stateless: ingestors using the same one share it. */
  readonly #codecs = new Map<string, Codec>();

  constructor(graph: Graph, deps: TopologyDeps, reuse: TopologyReuse | undefined) {
    this.#graph = graph;
    this.#reuse = reuse;
    this.#clock = deps.clock;
    this.#deps = deps;
    this.#telemetry = new Telemetry({
      registry: deps.registry,
      logger: deps.logger,
      domain: graph.domain,
      clock: deps.clock,
      ...(deps.messageErrorLines === undefined ? {} : { messageErrorLines: deps.messageErrorLines }),
    });
    this.#expressions = { now: deps.now ?? systemNow };
  }

  build(): Parts {
    const graph = this.#graph;
    for (const [name, spec] of Object.entries(graph.relays)) {
      const kept = this.#keep('relays', name, this.#reuse?.previous.relays);
      if (kept !== undefined) {
        this.#relays.set(name, kept);
        continue;
      }
      const shown = displayOf(graph, 'relays', name);
      const schema = this.#attempt(`relay ${shown}`, () => schemaOf(graph, spec.schema));
      if (schema !== undefined)
        this.#relays.set(name, new Relay(name, schema, this.#component('relay', name), shown));
    }
    const ingestors = this.#ingestors();
    const junctions = this.#each(
      graph.junctions,
      'junction',
      (shown, spec, context) => new Junction(shown, spec, context),
    );
    const correlators = this.#each(
      graph.correlators,
      'correlator',
      (shown, spec, context) => new CorrelatorNode(shown, spec, { ...context, clock: this.#clock }),
    );
    const emitters = this.#emitters();
    return { relays: this.#relays, ingestors, junctions, correlators, emitters };
  }

  #ingestors(): Map<string, IngestorEntry> {
    const graph = this.#graph;
    const ingestors = new Map<string, IngestorEntry>();
    const http = Object.entries(graph.httpIngestors).map(
      ([name, spec]) => [name, 'http-ingestor', 'httpIngestors', spec] as const,
    );
    const syslog = Object.entries(graph.syslogIngestors).map(
      ([name, spec]) => [name, 'syslog-ingestor', 'syslogIngestors', spec] as const,
    );
    const topic = Object.entries(graph.topicIngestors).map(
      ([name, spec]) => [name, 'topic-ingestor', 'topicIngestors', spec] as const,
    );
    for (const [name, kind, record, spec] of [...http, ...syslog, ...topic]) {
      const built =
        this.#keep(record, name, this.#reuse?.previous.ingestors) ??
        this.#attempt(`${kind} ${displayOf(graph, record, name)}`, () => this.#ingestor(name, kind, spec));
      if (built !== undefined) ingestors.set(name, built);
    }
    return ingestors;
  }

  #emitters(): Map<string, EmitterSlot> {
    const emitters = new Map<string, EmitterSlot>();
    for (const [name, spec] of Object.entries(this.#graph.emitters)) {
      const built =
        this.#keep('emitters', name, this.#reuse?.previous.emitters) ??
        this.#attempt(`emitter ${displayOf(this.#graph, 'emitters', name)}`, () => this.#emitter(name, spec));
      if (built !== undefined) emitters.set(name, built);
    }
    return emitters;
  }

  #emitter(name: string, spec: GraphEmitter): EmitterSlot {
    const graph = this.#graph;
    const relay = this.#relays.get(spec.from);
    if (relay === undefined) throw new GraphBuildError(`FROM ${spec.from}: no such relay`);
    const syslogClient = spec.kafka === undefined ? graph.clients[spec.client] : undefined;
    const kafkaClient = spec.kafka === undefined ? undefined : graph.kafkaClients[spec.client];
    if (syslogClient === undefined && kafkaClient === undefined)
      throw new GraphBuildError(`TO ${spec.kafka ? 'KAFKA' : 'SYSLOG'} ${spec.client}: no such client`);
    const codec = this.#codec(spec.codec);
    if (codec.encode === undefined)
      throw new GraphBuildError(`codec ${displayOf(graph, 'codecs', spec.codec)} cannot encode`);
    const telemetry = this.#component('emitter', name);
    const shown = displayOf(graph, 'emitters', name);
    const onMessageError = compileErrorPolicy(spec.onMessageError, {
      route: `emitter ${shown}`,
      relays: this.#relays,
      telemetry,
      expressions: this.#expressions,
      source: relay.schema,
      payloadVisible: false,
    });
    const deps = this.#deps;
    const now = deps.now ?? systemNow;
    const senderDeps = {
      domain: graph.domain,
      name: shown,
      spec,
      codec,
      onMessageError,
      telemetry,
      names: graph.names,
      tls: deps.tls,
      logger: deps.logger,
      clock: deps.clock,
      now,
      resolve: deps.resolve,
    };
    const open =
      kafkaClient === undefined
        ? syslogSender(syslogClient!, senderDeps)
        : kafkaSender(kafkaClient, senderDeps);
    return new EmitterSlot(
      shown,
      spec,
      { relay, open, telemetry },
      { domain: graph.domain, logger: deps.logger, clock: deps.clock, now },
    );
  }

  #ingestor(name: string, kind: IngestorKind, spec: { codec: string; routes: GraphRoute[] }): Ingestor {
    const codec = this.#codec(spec.codec);
    const telemetry = this.#component(kind, name);
    const context = {
      ...this.#context(telemetry),
      source: codec.schema,
      payloadVisible: !codec.schema.fields.some((field) => field.sensitive),
    };
    const routes = spec.routes.map((route) => new Route(route, context));
    return new Ingestor(name, kind, { codec, routes, telemetry });
  }

  #codec(name: string): Codec {
    const existing = this.#codecs.get(name);
    if (existing !== undefined) return existing;
    const spec = this.#graph.codecs[name];
    if (spec === undefined) throw new GraphBuildError(`no codec ${name}`);
    const made = createCodec(spec, schemaOf(this.#graph, spec.schema));
    if (!made.ok) throw new GraphBuildError(`codec ${displayOf(this.#graph, 'codecs', name)}: ${made.error}`);
    this.#codecs.set(name, made.codec);
    return made.codec;
  }

  #each<S, T extends object>(
    specs: Record<string, S>,
    kind: 'junction' | 'correlator',
    make: (name: string, spec: S, context: PartContext) => T,
  ): Map<string, T> {
    const built = new Map<string, T>();
    const record = kind === 'junction' ? 'junctions' : 'correlators';
    const previous = this.#reuse?.previous[record] as ReadonlyMap<string, T> | undefined;
    for (const [name, spec] of Object.entries(specs)) {
      const shown = displayOf(this.#graph, record, name);
      const part =
        this.#keep(record, name, previous) ??
        this.#attempt(`${kind} ${shown}`, () =>
          make(shown, spec, this.#context(this.#component(kind, name))),
        );
      if (part !== undefined) built.set(name, part);
    }
    return built;
  }

  /** The previous topology's part when the diff calls it unchanged (and it is there). */
  #keep<T extends object>(
    record: ComponentRecord,
    name: string,
    previous: ReadonlyMap<string, T> | undefined,
  ): T | undefined {
    if (this.#reuse === undefined || !isUnchanged(this.#reuse.diff, record, name)) return undefined;
    const part = previous?.get(name);
    if (part !== undefined) this.kept.add(part);
    return part;
  }

  #context(telemetry: ComponentTelemetry): PartContext {
    return { relays: this.#relays, telemetry, expressions: this.#expressions };
  }

  /** The part's events, counted and logged under its display name. */
  #component(kind: Exclude<ComponentKind, 'subscriber'>, name: string): ComponentTelemetry {
    return this.#telemetry.component(kind, displayOf(this.#graph, RECORD_OF[kind], name));
  }

  #attempt<T>(where: string, build: () => T): T | undefined {
    try {
      return build();
    } catch (error: unknown) {
      if (!(error instanceof GraphBuildError)) throw error;
      this.errors.push(`${where}: ${error.message}`);
      return undefined;
    }
  }
}

const RECORD_OF: Record<Exclude<ComponentKind, 'subscriber'>, DisplayRecord> = {
  relay: 'relays',
  'http-ingestor': 'httpIngestors',
  'syslog-ingestor': 'syslogIngestors',
  'topic-ingestor': 'topicIngestors',
  junction: 'junctions',
  correlator: 'correlators',
  emitter: 'emitters',
};

function schemaOf(graph: Graph, name: string): GraphSchema {
  const schema = graph.schemas[name];
  // loadGraph checked every reference; an unknown schema here is a graph that skipped it.
  if (schema === undefined) throw new GraphBuildError(`no schema ${name}`);
  return schema;
}
