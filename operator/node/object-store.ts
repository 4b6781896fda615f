// The objects of every domain the node runs: those declared by manifest files (owned by their file) and
// those applied by statements, with each domain's graph version and last activated graph. The store is
// the one place that changes them, and it writes to the data dir before it changes its memory, so what it
// holds is always what is on disk. A domain is listed once a state of it was written (domain-commit.ts
// writes only states whose graph the data plane accepted).
import type { GraphObject } from '../api/index.js';
import { objectKeyString, SourceMap } from '../diagnostics/diagnostic.js';
import type { DataDir } from './data-dir.js';
import { EMPTY_STATE, type DomainState, type ManifestObject } from './domain-state.js';
import type { DomainSummary } from './protocol.js';

export class ObjectStore {
  readonly #dataDir: DataDir;
  readonly #states = new Map<string, DomainState>();
  /** Where the manifest objects were read (in memory only: after a restart, until the next reload). */
  readonly #manifestLocations = new Map<string, SourceMap>();

  private constructor(dataDir: DataDir) {
    this.#dataDir = dataDir;
  }

  /** Reads every domain's state; throws DataDirError when a state file is unreadable. */
  static open(dataDir: DataDir): ObjectStore {
    const store = new ObjectStore(dataDir);
    for (const domain of dataDir.domainNames()) {
      const state = dataDir.readDomainState(domain);
      if (state !== undefined) store.#states.set(domain, state);
    }
    return store;
  }

  /** The domains with a stored state, sorted. */
  domains(): string[] {
    return [...this.#states.keys()].sort();
  }

  state(domain: string): DomainState {
    return this.#states.get(domain) ?? EMPTY_STATE;
  }

  /** The domain's objects: the manifest objects, then the statement objects. */
  objects(domain: string): GraphObject[] {
    const state = this.state(domain);
    return [...state.manifestObjects.map((entry) => entry.object), ...state.statementObjects];
  }

  manifestLocations(domain: string): SourceMap {
    return this.#manifestLocations.get(domain) ?? new SourceMap();
  }

  setManifestLocations(domain: string, locations: SourceMap): void {
    this.#manifestLocations.set(domain, locations);
  }

  summaries(): DomainSummary[] {
    return this.domains().map((name) => ({
      name,
      graphVersion: this.state(name).graphVersion,
      objects: this.objects(name).length,
    }));
  }

  /** Writes the domain's new state to the data dir, then takes it; on a write failure nothing changes. */
  async save(domain: string, state: DomainState): Promise<void> {
    const frozen: DomainState = {
      graphVersion: state.graphVersion,
      graph: state.graph,
      statementObjects: [...state.statementObjects],
      manifestObjects: [...state.manifestObjects],
    };
    await this.#dataDir.writeDomainState(domain, frozen);
    this.#states.set(domain, frozen);
  }
}

export function objectId(object: GraphObject): string {
  return objectKeyString({ kind: object.kind, name: object.metadata.name });
}

export type { ManifestObject };
