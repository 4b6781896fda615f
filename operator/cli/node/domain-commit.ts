// The one way a domain changes, for statements and manifests alike: compile the candidate objects; any
// error and nothing changes. Otherwise, when the graph changed, it gets the next version number: the new
// state is written to the data dir, then the data plane activates the graph. If the data plane refuses
// it, the previous state is written back, so a refused graph leaves nothing behind. A graph equal to
// the running one is not activated again and keeps its version; the objects are still stored.
import type { Logger } from 'pino';
import type { GraphObject } from '../../api/index.js';
import {
  formatDiagnostic,
  formatLocation,
  type Diagnostic,
  type SourceLocation,
  type SourceMap,
} from '../../compiler/diagnostic.js';
import { compileDomain } from '../../compiler/index.js';
import type { Graph } from '../../../dataplane/graph/types.js';
import { canonicalJson } from './canonical-json.js';
import type { DomainState, ManifestObject } from './domain-state.js';
import type { ObjectStore } from './object-store.js';
import type { ResourceStore } from './resource-store.js';

export type ActivationResult = { ok: true; warnings?: string[] } | { ok: false; errors: string[] };

/** The data plane: runs `graph` as version `version` of `domain`, or refuses it and keeps what it runs. */
export type Activate = (domain: string, graph: Graph, version: number) => Promise<ActivationResult>;

export interface CommitRequest {
  domain: string;
  statementObjects: readonly GraphObject[];
  manifestObjects: readonly ManifestObject[];
  /** Where the objects were written (statement text, manifest files), for diagnostics. */
  locations: SourceMap;
  /** Whether a location is in statement text (SourceMap.attach). */
  inText: (location: SourceLocation) => boolean;
  /** Where problems that belong to no object are reported (the statement, or COMMIT). */
  at?: SourceLocation;
}

export type CommitOutcome =
  { ok: true; graphVersion?: number; warnings: string[] } | { ok: false; diagnostics: string[] };

export interface CommitterOptions {
  store: ObjectStore;
  resources: ResourceStore;
  activate: Activate;
  logger: Logger;
}

export class DomainCommitter {
  readonly #options: CommitterOptions;

  constructor(options: CommitterOptions) {
    this.#options = options;
  }

  async commit(request: CommitRequest): Promise<CommitOutcome> {
    const { store, resources } = this.#options;
    const { domain } = request;
    const objects = [...request.manifestObjects.map((entry) => entry.object), ...request.statementObjects];
    const compiled = compileDomain(objects, { domain, resources: resources.view(domain) });
    const diagnostics = sortByPlace(request.locations.attach(compiled.diagnostics, request.inText));
    const warnings = diagnostics.filter((d) => d.severity === 'warning').map(formatDiagnostic);
    if (diagnostics.some((d) => d.severity === 'error')) {
      return { ok: false, diagnostics: diagnostics.map(formatDiagnostic) };
    }
    const previous = store.state(domain);
    const changed = canonicalJson(compiled.graph) !== canonicalJson(previous.graph);
    const next: DomainState = {
      graphVersion: changed ? previous.graphVersion + 1 : previous.graphVersion,
      graph: changed ? compiled.graph : previous.graph,
      statementObjects: request.statementObjects,
      manifestObjects: request.manifestObjects,
    };
    const where = request.at === undefined ? '' : `${formatLocation(request.at)}: `;
    try {
      await store.save(domain, next);
    } catch (error: unknown) {
      return { ok: false, diagnostics: [`${where}error: cannot write the data dir: ${messageOf(error)}`] };
    }
    if (!changed) return { ok: true, warnings };
    const activated = await this.#activate(domain, compiled.graph, next.graphVersion);
    if (!activated.ok) {
      await this.#putBack(domain, previous);
      const refused = `the data plane refused graph version ${next.graphVersion}`;
      return {
        ok: false,
        diagnostics: activated.errors.map((error) => `${where}error: ${refused}: ${error}`),
      };
    }
    this.#options.logger.info({ domain, graphVersion: next.graphVersion }, 'activated a new graph version');
    return {
      ok: true,
      graphVersion: next.graphVersion,
      warnings: [...warnings, ...(activated.warnings ?? [])],
    };
  }

  async #activate(domain: string, graph: Graph, version: number): Promise<ActivationResult> {
    try {
      return await this.#options.activate(domain, graph, version);
    } catch (error: unknown) {
      return { ok: false, errors: [messageOf(error)] };
    }
  }

  async #putBack(domain: string, previous: DomainState): Promise<void> {
    try {
      await this.#options.store.save(domain, previous);
    } catch (error: unknown) {
      this.#options.store.adopt(domain, previous);
      this.#options.logger.error(
        { domain, error: messageOf(error) },
        'cannot write back the previous state after the data plane refused a graph; the data dir holds the refused one until the next change',
      );
    }
  }
}

/** In the order of the text; diagnostics with no place (stored objects) after those with one. */
export function sortByPlace(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const place = (d: Diagnostic): [number, string, number, number] =>
    d.location === undefined ? [1, '', 0, 0] : [0, d.location.file ?? '', d.location.line, d.location.column];
  return [...diagnostics].sort((a, b) => {
    const [ua, fa, la, ca] = place(a);
    const [ub, fb, lb, cb] = place(b);
    return ua - ub || fa.localeCompare(fb) || la - lb || ca - cb;
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
