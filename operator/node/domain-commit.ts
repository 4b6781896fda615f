// The one way a domain changes, for statements and manifests alike: compile the candidate objects; any
// error and nothing changes. Otherwise the compiled graph is compared with the graph the data plane runs
// for the domain (what this committer activated or restored, not what the data dir holds):
//   - the same graph: only the objects are stored; the domain keeps its version;
//   - another graph: it gets the next version number and the data plane activates it FIRST; a refusal
//     changes nothing, in memory or on disk. Only an activated graph is written to the data dir, so the
//     data dir never holds a graph the data plane refused. If that write fails, the graph is withdrawn:
//     the previous one is activated again (a new domain is removed from the data plane), so memory,
//     disk and the data plane agree again, and the statement fails.
import type { Logger } from 'pino';
import type { GraphObject } from '../api/index.js';
import {
  formatDiagnostic,
  formatLocation,
  type Diagnostic,
  type SourceLocation,
  type SourceMap,
} from '../diagnostics/diagnostic.js';
import { compileDomain, prepareCompile } from '../compiler/index.js';
import type { Graph } from '../../dataplane/graph/types.js';
import { canonicalJson } from '../api/canonical-json.js';
import { errorName, messageOf } from '../../dataplane/core/error-text.js';
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
  /** Stops running a domain: withdraws a new domain's first graph when it cannot be stored. */
  deactivate?: (domain: string) => Promise<void>;
  logger: Logger;
}

/** A graph the data plane runs, with its version. */
export interface RunningGraph {
  graph: Graph;
  version: number;
}

export class DomainCommitter {
  readonly #options: CommitterOptions;
  /** What the data plane runs, by domain: every graph goes through `commit` or `restore`. */
  readonly #running = new Map<string, RunningGraph>();

  constructor(options: CommitterOptions) {
    this.#options = options;
  }

  /** The graph the data plane runs for the domain, if any. */
  running(domain: string): RunningGraph | undefined {
    return this.#running.get(domain);
  }

  /** Hands a stored graph to the data plane at start (restore.ts); never throws. */
  async restore(domain: string, graph: Graph, version: number): Promise<ActivationResult> {
    const result = await this.#activate(domain, graph, version);
    if (result.ok) this.#running.set(domain, { graph, version });
    return result;
  }

  /**
   * Compiles the domain's stored objects again (restore.ts, after `restore`): a graph that differs from the
   * one running is activated as the next version, as any change would be. The stored graph may not be
   * what its objects compile to: state.json was edited by hand, or this node's compiler is newer.
   */
  recompileStored(domain: string): Promise<CommitOutcome> {
    const { statementObjects, manifestObjects } = this.#options.store.state(domain);
    return this.commit({
      domain,
      statementObjects,
      manifestObjects,
      locations: this.#options.store.manifestLocations(domain),
      inText: () => false,
    });
  }

  async commit(request: CommitRequest): Promise<CommitOutcome> {
    const { resources } = this.#options;
    const { domain } = request;
    const objects = [...request.manifestObjects.map((entry) => entry.object), ...request.statementObjects];
    await prepareCompile(objects);
    const compiled = compileDomain(objects, { domain, resources: resources.view(domain) });
    const diagnostics = sortByPlace(request.locations.attach(compiled.diagnostics, request.inText));
    const warnings = diagnostics.filter((d) => d.severity === 'warning').map(formatDiagnostic);
    if (diagnostics.some((d) => d.severity === 'error')) {
      return { ok: false, diagnostics: diagnostics.map(formatDiagnostic) };
    }
    const where = request.at === undefined ? '' : `${formatLocation(request.at)}: `;
    const running = this.#running.get(domain);
    if (running !== undefined && canonicalJson(compiled.graph) === canonicalJson(running.graph)) {
      const kept = { ...stateOf(request), graphVersion: running.version, graph: running.graph };
      const failed = await this.#save(domain, kept, where);
      return failed ?? { ok: true, warnings };
    }
    const outcome = await this.#activateAndStore(request, compiled.graph, where);
    return outcome.ok ? { ...outcome, warnings: [...warnings, ...outcome.warnings] } : outcome;
  }

  /** Activates a changed graph as the next version, then stores it; withdraws it if it cannot be stored. */
  async #activateAndStore(request: CommitRequest, graph: Graph, where: string): Promise<CommitOutcome> {
    const { domain } = request;
    const running = this.#running.get(domain);
    const version = Math.max(this.#options.store.state(domain).graphVersion, running?.version ?? 0) + 1;
    const activated = await this.#activate(domain, graph, version);
    if (!activated.ok) {
      const refused = `the data plane refused graph version ${version}`;
      return {
        ok: false,
        diagnostics: activated.errors.map((error) => `${where}error: ${refused}: ${error}`),
      };
    }
    this.#running.set(domain, { graph, version });
    const failed = await this.#save(domain, { ...stateOf(request), graphVersion: version, graph }, where);
    if (failed !== undefined) {
      await this.#withdraw(domain, version, running);
      return failed;
    }
    this.#options.logger.info({ domain, graphVersion: version }, 'activated a new graph version');
    return { ok: true, graphVersion: version, warnings: activated.warnings ?? [] };
  }

  /** Writes the state; the failure as the outcome to answer, or undefined when it was written. */
  async #save(domain: string, state: DomainState, where: string): Promise<CommitOutcome | undefined> {
    try {
      await this.#options.store.save(domain, state);
      return undefined;
    } catch (error: unknown) {
      return { ok: false, diagnostics: [`${where}error: cannot write the data dir: ${messageOf(error)}`] };
    }
  }

  async #activate(domain: string, graph: Graph, version: number): Promise<ActivationResult> {
    try {
      return await this.#options.activate(domain, graph, version);
    } catch (error: unknown) {
      return { ok: false, errors: [messageOf(error)] };
    }
  }

  /** A graph the data dir could not store stops running: the previous one runs again, or none. */
  async #withdraw(domain: string, version: number, previous: RunningGraph | undefined): Promise<void> {
    const { logger, deactivate } = this.#options;
    logger.error(
      { domain, graphVersion: version, previousVersion: previous?.version ?? null },
      'cannot store the graph version just activated; withdrawing it',
    );
    if (previous === undefined) {
      if (deactivate === undefined) return;
      try {
        await deactivate(domain);
        this.#running.delete(domain);
      } catch (error: unknown) {
        logger.error({ domain, error: errorName(error) }, 'cannot remove the domain from the data plane');
      }
      return;
    }
    const again = await this.#activate(domain, previous.graph, previous.version);
    if (again.ok) this.#running.set(domain, previous);
    else {
      logger.error(
        { domain, graphVersion: version },
        'the data plane refused the previous graph again: it runs a version the data dir does not hold',
      );
    }
  }
}

/** The objects of the request, as a state to store (with the graph and version to go with them). */
function stateOf(request: CommitRequest): Pick<DomainState, 'statementObjects' | 'manifestObjects'> {
  return { statementObjects: request.statementObjects, manifestObjects: request.manifestObjects };
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
