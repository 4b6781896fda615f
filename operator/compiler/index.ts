// The whole-graph compiler: checks every object of a domain against the others, decides a verdict for
// each, and lowers the accepted ones to a Graph. The CLI, the embedded node and the controller all call
// compileDomain, so all three report the same diagnostics; each awaits prepareCompile first.
import type { GraphKind, GraphObject } from '../api/index.js';
import { loadJaqCheck } from '../../dataplane/codecs/jaq/compile-check.js';
import type { Graph } from '../../dataplane/graph/types.js';
import { checkClientNames } from './check-client-names.js';
import { checkCorrelators } from './check-correlators.js';
import { checkCycles } from './check-cycles.js';
import { checkEmitterKeys } from './check-emitter-keys.js';
import { checkEmitters } from './check-emitters.js';
import { checkHttpPaths } from './check-http-paths.js';
import { checkIngestorNames } from './check-ingestor-names.js';
import { checkJaqNulls } from './check-jaq-nulls.js';
import { checkJaqTypes } from './check-jaq-types.js';
import { checkJaqPrograms, prepareJaqCheck } from './check-jaq-programs.js';
import { checkJunctions } from './check-junctions.js';
import { checkKafkaClients } from './check-kafka-clients.js';
import { checkListeners } from './check-listeners.js';
import { checkLiterals } from './check-literals.js';
import { checkMounts } from './check-mounts.js';
import { checkObjects } from './check-objects.js';
import { checkProtobuf } from './check-protobuf.js';
import { checkReferences } from './check-references.js';
import { checkRfc3339 } from './check-rfc3339.js';
import { checkRoutes } from './check-routes.js';
import { checkSensitivity } from './check-sensitivity.js';
import { checkSyslogClients } from './check-syslog-clients.js';
import { checkSyslogSchema } from './check-syslog-schema.js';
import { checkWireSchema } from './check-wire-schema.js';
import { CompileContext, keyOf } from './context.js';
import { collectVerdicts, decideLayer } from './decide-verdicts.js';
import type { Diagnostic, ObjectKey } from '../diagnostics/diagnostic.js';
import { lowerGraph } from './lower-graph.js';
import { resourceIndex } from './resource-index.js';

/** Uploaded resource versions (for protobuf codecs and mounts). */
export interface ResourceFiles {
  latestVersion(resource: string): number | undefined;
  /** Path inside the version → text. */
  files(resource: string, version: number): ReadonlyMap<string, string> | undefined;
}

export type Verdict =
  | { status: 'accepted' }
  | { status: 'rejected'; diagnostics: Diagnostic[] }
  | { status: 'waiting'; on: ObjectKey[] };

export interface CompileResult {
  graph: Graph;
  diagnostics: Diagnostic[];
  /** By `Kind/name`. */
  verdicts: Map<string, Verdict>;
}

export interface CompileOptions {
  /** The domain, which is the namespace: objects placed in another namespace are left out (SR1017). */
  domain: string;
  resources?: ResourceFiles;
  /**
   * Diagnostics the caller has already given about these objects (the CLI's statement parser and
   * loaders, with their text locations). They count against the objects they name — such an object is
   * rejected and its verdict lists them — and a problem at a field they already cover is not repeated.
   */
  reported?: readonly Diagnostic[];
}

/** A pass over the objects of one layer; it reads other objects only through `ctx.accepted`. */
export type Pass = (ctx: CompileContext, objects: readonly GraphObject[]) => void;

/** Kinds by what they refer to: an object only refers to kinds of earlier layers. */
const LAYERS: readonly (readonly GraphKind[])[] = [
  ['Schema', 'WireSchema', 'Resource'],
  ['Codec', 'Relay', 'Vhost', 'SyslogClient', 'KafkaClient'],
  ['Endpoint'],
  ['HttpIngestor', 'SyslogIngestor', 'TopicIngestor', 'Junction', 'Correlator', 'Emitter'],
];

/** Checks of one object against the objects it refers to. */
const OBJECT_PASSES: readonly Pass[] = [
  checkReferences,
  checkLiterals,
  checkSyslogSchema,
  checkWireSchema,
  checkRfc3339,
  checkJaqPrograms,
  checkJaqNulls,
  checkJaqTypes,
  checkProtobuf,
  checkMounts,
  checkSyslogClients,
  checkKafkaClients,
  checkJunctions,
  checkCorrelators,
  checkRoutes,
  checkSensitivity,
  checkEmitters,
  checkEmitterKeys,
];

/** Checks between objects of a layer; they see only objects that are otherwise fine, and keep the first. */
const PEER_PASSES: readonly Pass[] = [
  checkClientNames,
  checkIngestorNames,
  checkListeners,
  checkHttpPaths,
  checkCycles,
];

/**
 * Loads what compiling these objects needs and is not loaded up front (the jq check, for JAQ programs).
 * Await it before compileDomain, with the same objects (or a superset of them).
 */
export async function prepareCompile(objects: readonly unknown[]): Promise<void> {
  await prepareJaqCheck(objects);
}

/** prepareCompile for any input at all: for a compiler that runs on (the operator's controller). */
export async function prepareCompileAll(): Promise<void> {
  await loadJaqCheck();
}

/**
 * `objects` are the documents of the domain as given — from the API server, YAML or statements — valid
 * or not: each is checked again, and one that fails its own checks is rejected, so the objects that
 * refer to it wait for it (SR2061) instead of finding nothing there. Input that is not an object never
 * throws.
 */
export function compileDomain(objects: readonly unknown[], options: CompileOptions): CompileResult {
  const resources = resourceIndex(objects, options.domain, options.resources);
  const ctx = new CompileContext(options.domain, resources, options.reported);
  checkObjects(ctx, objects);
  ctx.adoptReported();
  for (const kinds of LAYERS) {
    const layer = ctx.objects(kinds);
    for (const pass of OBJECT_PASSES) pass(ctx, layer);
    for (const pass of PEER_PASSES) {
      pass(
        ctx,
        layer.filter(
          (object) => !ctx.hasOwnErrors(keyOf(object)) && ctx.waitingOn(keyOf(object)).length === 0,
        ),
      );
    }
    decideLayer(ctx, kinds);
  }
  return { graph: lowerGraph(ctx), diagnostics: ctx.diagnostics, verdicts: collectVerdicts(ctx) };
}
