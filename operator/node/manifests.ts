// The node's `--manifests <dir|file>`: statement files and resource YAML, read with the CLI's loader,
// their objects placed in the domain of their namespace (`default` without one). Each domain changes all
// or nothing: a domain whose manifests have an error keeps what it runs, and every diagnostic is logged as
// FILE:LINE:COL; otherwise its manifest objects replace the previous ones and the domain is compiled and
// activated with its statement objects, by the same path as statements (domain-commit.ts). A manifest
// object may not share kind and name with a statement object (SR1014). `VERSION LATEST` is bound when
// the manifests are read, as statements bind it when they are applied (bind-latest.ts). Manifests that
// cannot be read — also a `--manifests` path that is gone for a moment — change nothing. Changes are
// watched (watch()).
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { formatDiagnostic, type Diagnostic, type SourceMap } from '../diagnostics/diagnostic.js';
import { InputError } from '../language/input-error.js';
import { loadInputs, type LoadedInputs } from '../language/inputs.js';
import { bindLatest } from '../compiler/bind-latest.js';
import { canonicalJson } from '../api/canonical-json.js';
import type { DomainCommitter } from './domain-commit.js';
import type { ManifestObject } from './domain-state.js';
import { errorName } from '../../dataplane/core/error-text.js';
import { inStatementFile, splitByDomain, type DomainManifests } from './manifest-domains.js';
import { watchPath, type Watch, type WatchOptions } from './manifest-watch.js';
import { objectId, type ObjectStore } from './object-store.js';
import type { ResourceStore } from './resource-store.js';
import { ShuttingDownError, type SerialQueue } from '../../dataplane/core/serial-queue.js';

export interface DomainReload {
  domain: string;
  /** `rejected`: the domain's manifests have errors, and it keeps what it ran. */
  status: 'applied' | 'unchanged' | 'rejected';
  /** Set when the reload activated a new graph version. */
  graphVersion?: number;
  diagnostics: string[];
}

export interface ManifestReport {
  ok: boolean;
  domains: DomainReload[];
  /** The manifests could not be read at all; nothing changed. */
  error?: string;
}

export interface ManifestOptions {
  /** `--manifests`: a directory (read recursively, in name order) or one file. */
  path: string;
  store: ObjectStore;
  /** For `VERSION LATEST`: the highest uploaded version of a resource when the manifests are read. */
  resources: Pick<ResourceStore, 'latestVersion'>;
  committer: DomainCommitter;
  queue: SerialQueue;
  logger: Logger;
  /** Reads the manifests; by default the CLI's loadInputs. */
  load?: (path: string) => LoadedInputs;
  /** Called after every reload (tests wait on it). */
  onReload?: (report: ManifestReport) => void;
  /** The watch's debounce, check interval and timers (manifest-watch.ts). */
  watch?: Omit<WatchOptions, 'logger'>;
}

/** The manifests cannot be read (or watched) at start. */
export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

export class Manifests {
  readonly #options: ManifestOptions;
  #watch: Watch | undefined;

  constructor(options: ManifestOptions) {
    this.#options = options;
  }

  /**
   * Reads the manifests and applies every domain that changed, after the statements and reloads queued
   * before. With `initial`, manifests that cannot be read throw ManifestError (the node does not start).
   */
  reload(options: { initial?: boolean } = {}): Promise<ManifestReport> {
    return this.#options.queue.run(async () => {
      const report = await this.#reload(options.initial ?? false);
      this.#options.onReload?.(report);
      return report;
    });
  }

  /** Reloads on every change under the path, debounced. Throws ManifestError when it cannot watch. */
  watch(): void {
    const { path, logger } = this.#options;
    const reload = (): void => {
      this.reload().catch((error: unknown) => {
        if (error instanceof ShuttingDownError) return;
        logger.error(
          { manifests: path, error: errorName(error) },
          'reloading the manifests failed; nothing changed',
        );
      });
    };
    try {
      this.#watch ??= watchPath(path, reload, { ...this.#options.watch, logger });
    } catch (error: unknown) {
      if (error instanceof InputError) throw new ManifestError(`--manifests: ${error.message}`);
      throw error;
    }
  }

  close(): void {
    this.#watch?.close();
    this.#watch = undefined;
  }

  async #reload(initial: boolean): Promise<ManifestReport> {
    const { logger, path } = this.#options;
    let loaded: LoadedInputs;
    try {
      loaded = this.#read(initial);
    } catch (error: unknown) {
      if (!(error instanceof InputError)) throw error;
      if (initial) throw new ManifestError(`--manifests: ${error.message}`);
      logger.error({ manifests: path, error: error.message }, 'cannot read the manifests; nothing changed');
      return { ok: false, domains: [], error: error.message };
    }
    const split = splitByDomain(loaded, this.#previousFiles());
    const domains: DomainReload[] = [];
    for (const domain of [...split.keys()].sort()) {
      const manifests = split.get(domain);
      if (manifests !== undefined) domains.push(await this.#apply(manifests, loaded.sourceMap));
    }
    return { ok: domains.every((domain) => domain.status !== 'rejected'), domains };
  }

  /**
   * The manifests as they are now. A path that does not exist cannot be read — at start the node does not
   * start; later it is a moment of a move or a checkout, and nothing changes (InputError). Deleting the
   * manifests means deleting their files, not the `--manifests` path.
   */
  #read(initial: boolean): LoadedInputs {
    const { path } = this.#options;
    if (!existsSync(path)) {
      if (initial) throw new ManifestError(`--manifests ${path}: no such file or directory`);
      throw new InputError(`${path} does not exist (moved or being replaced?)`);
    }
    return (this.#options.load ?? ((each: string) => loadInputs([each])))(path);
  }

  /** Per domain, the files its manifest objects came from at the last accepted load. */
  #previousFiles(): Map<string, Set<string>> {
    const { store } = this.#options;
    const previous = new Map<string, Set<string>>();
    for (const domain of store.domains()) {
      const files = store.state(domain).manifestObjects.map((entry) => entry.file);
      if (files.length > 0) previous.set(domain, new Set(files));
    }
    return previous;
  }

  async #apply(manifests: DomainManifests, locations: SourceMap): Promise<DomainReload> {
    const { store, committer, resources } = this.#options;
    const { domain } = manifests;
    const latest = (resource: string) => resources.latestVersion(domain, resource);
    const objects = manifests.objects.map(({ file, object }) => ({
      file,
      object: bindLatest(object, latest),
    }));
    const current = store.state(domain);
    const taken = current.statementObjects.map(objectId);
    const diagnostics = [...manifests.diagnostics, ...conflicts(objects, taken, locations)];
    if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
      return this.#rejected(domain, diagnostics.map(formatDiagnostic));
    }
    this.#logWarnings(domain, diagnostics);
    if (canonicalJson(sorted(objects)) === canonicalJson(sorted(current.manifestObjects))) {
      store.setManifestLocations(domain, locations);
      return { domain, status: 'unchanged', diagnostics: [] };
    }
    const outcome = await committer.commit({
      domain,
      statementObjects: current.statementObjects,
      manifestObjects: objects,
      locations,
      inText: inStatementFile,
    });
    if (!outcome.ok) return this.#rejected(domain, outcome.diagnostics);
    store.setManifestLocations(domain, locations);
    const { graphVersion } = outcome;
    this.#options.logger.info({ domain, objects: objects.length, graphVersion }, 'applied the manifests');
    for (const warning of outcome.warnings) this.#options.logger.warn({ domain }, warning);
    return {
      domain,
      status: 'applied',
      diagnostics: [],
      ...(graphVersion === undefined ? {} : { graphVersion }),
    };
  }

  #rejected(domain: string, diagnostics: string[]): DomainReload {
    const { logger, store } = this.#options;
    for (const line of diagnostics) logger.error({ domain }, line);
    const { graphVersion } = store.state(domain);
    logger.warn(
      { domain, errors: diagnostics.length, graphVersion },
      'the manifests of this domain have errors: nothing changed, it keeps running what it ran',
    );
    return { domain, status: 'rejected', diagnostics };
  }

  #logWarnings(domain: string, diagnostics: readonly Diagnostic[]): void {
    for (const warning of diagnostics) this.#options.logger.warn({ domain }, formatDiagnostic(warning));
  }
}

/** A manifest object that a statement created too: SR1014 at the manifest, which is not applied. */
function conflicts(
  objects: readonly ManifestObject[],
  statementIds: readonly string[],
  locations: SourceMap,
): Diagnostic[] {
  return objects
    .filter(({ object }) => statementIds.includes(objectId(object)))
    .map(({ object, file }) => {
      const key = { kind: object.kind, name: object.metadata.name };
      const message = `${object.kind} ${key.name} was created by a statement too: DROP it with a statement, or take it out of ${file}`;
      const diagnostic: Diagnostic = { code: 'SR1014', severity: 'error', message };
      const at = locations.locate(key, 'metadata.name');
      if (at !== undefined) diagnostic.location = at;
      return diagnostic;
    });
}

function sorted(objects: readonly ManifestObject[]): ManifestObject[] {
  return [...objects].sort((a, b) => objectId(a.object).localeCompare(objectId(b.object)));
}
