// One script's run against one domain: each statement in turn, in autocommit (each change compiles and,
// if its graph changed, activates on its own) or inside BEGIN … COMMIT (changes collect in one candidate
// that compiles and activates only at COMMIT). Locations of the objects the script declares are kept, so
// a diagnostic about one of them points into the script; stored objects are named by kind, name and path.
import type { GraphObject } from '../api/index.js';
import {
  formatDiagnostic,
  SourceMap,
  type Diagnostic,
  type SourceLocation,
} from '../diagnostics/diagnostic.js';
import type {
  DeclarationStatement,
  DescribeStatement,
  DropStatement,
  ShowCreateStatement,
  ShowStatement,
  Statement,
  TransactionStatement,
} from '../language/ast.js';
import { statementsToObjects } from '../language/convert.js';
import { bindLatest } from '../compiler/bind-latest.js';
import { Candidate, type Change } from './candidate.js';
import { sortByPlace, type DomainCommitter } from './domain-commit.js';
import { runDescribe, runShow, runShowCreate, runUpload, type Describe } from './inspect-statements.js';
import { objectId, type ObjectStore } from './object-store.js';
import type { StatementOutcome, Upload } from './protocol.js';
import type { ResourceStore } from './resource-store.js';

export interface SessionServices {
  store: ObjectStore;
  resources: ResourceStore;
  committer: DomainCommitter;
  describe: Describe;
  now: () => Date;
}

export interface SessionScript {
  domain: string;
  /** The name statement locations carry. */
  source: string;
  /** The parser's diagnostics (warnings only: a script with errors does not run). */
  parsed: readonly Diagnostic[];
}

interface Batch {
  candidate: Candidate;
  /** The script's locations when the batch began, for ROLLBACK. */
  locations: Map<string, SourceMap>;
}

export class StatementSession {
  readonly #services: SessionServices;
  readonly #script: SessionScript;
  #batch: Batch | undefined;
  /** Where the objects this script declared were written, by object id. */
  #locations = new Map<string, SourceMap>();

  constructor(services: SessionServices, script: SessionScript) {
    this.#services = services;
    this.#script = script;
  }

  get inBatch(): boolean {
    return this.#batch !== undefined;
  }

  /** Discards an open batch (a failed statement inside it, or a BEGIN never closed). */
  abort(): void {
    if (this.#batch !== undefined) this.#locations = this.#batch.locations;
    this.#batch = undefined;
  }

  async run(statement: Statement, upload?: Upload): Promise<StatementOutcome> {
    switch (statement.type) {
      case 'begin':
      case 'commit':
      case 'rollback':
        return this.#transaction(statement);
      case 'create':
      case 'alter':
        return this.#declare(statement);
      case 'drop':
        return this.#change(statement, (candidate) => candidate.drop(statement));
      case 'upload-resource':
        if (upload === undefined) throw new Error('an UPLOAD RESOURCE statement without its upload');
        return runUpload(statement, upload, { ...this.#services, view: this.#committed() });
      default:
        return this.#inspect(statement);
    }
  }

  #transaction(statement: TransactionStatement): Promise<StatementOutcome> {
    if (statement.type === 'commit') return this.#commitBatch(statement.location);
    if (statement.type === 'rollback') this.abort();
    else this.#batch = { candidate: this.#committed(), locations: new Map(this.#locations) };
    return Promise.resolve({ status: 'ok' });
  }

  #inspect(statement: ShowStatement | ShowCreateStatement | DescribeStatement): Promise<StatementOutcome> {
    const view = this.#view();
    if (statement.type === 'show') return Promise.resolve(runShow(statement, view, this.#services.resources));
    if (statement.type === 'show-create') return Promise.resolve(runShowCreate(statement, view));
    return runDescribe(statement, view, this.#services.describe);
  }

  async #declare(statement: DeclarationStatement): Promise<StatementOutcome> {
    const { domain } = this.#script;
    const converted = statementsToObjects([statement], { namespace: domain, reported: this.#script.parsed });
    const object = converted.objects[0];
    if (object === undefined || converted.diagnostics.some((d) => d.severity === 'error')) {
      return { status: 'error', diagnostics: sortByPlace(converted.diagnostics).map(formatDiagnostic) };
    }
    const latest = (resource: string) => this.#services.resources.latestVersion(domain, resource);
    const bound: GraphObject = bindLatest(object, latest);
    const written = { id: objectId(bound), locations: converted.sourceMap };
    return this.#change(statement, (candidate) => candidate.declare(statement, bound), written);
  }

  /** Applies a change to the batch, or in autocommit to a fresh candidate that is committed at once. */
  async #change(
    statement: DeclarationStatement | DropStatement,
    apply: (candidate: Candidate) => Change,
    written?: { id: string; locations: SourceMap },
  ): Promise<StatementOutcome> {
    const candidate = this.#batch?.candidate ?? this.#committed();
    const change = apply(candidate);
    if (!change.ok) return { status: 'error', diagnostics: [formatDiagnostic(change.diagnostic)] };
    if (written !== undefined && change.changed) this.#locations.set(written.id, written.locations);
    const notice = change.notice === undefined ? {} : { output: change.notice };
    if (this.#batch !== undefined || !change.changed) return { status: 'ok', ...notice };
    return this.#commit(candidate, statement.location);
  }

  async #commitBatch(at: SourceLocation): Promise<StatementOutcome> {
    const batch = this.#batch;
    this.#batch = undefined;
    if (batch === undefined || !batch.candidate.changed) return { status: 'ok' };
    const outcome = await this.#commit(batch.candidate, at);
    if (outcome.status === 'error') this.#locations = batch.locations;
    return outcome;
  }

  async #commit(candidate: Candidate, at: SourceLocation): Promise<StatementOutcome> {
    const { domain, source } = this.#script;
    const statementObjects = candidate.statementObjects();
    const locations = new SourceMap();
    locations.merge(this.#services.store.manifestLocations(domain));
    for (const object of statementObjects) {
      const written = this.#locations.get(objectId(object));
      if (written !== undefined) locations.merge(written);
    }
    const outcome = await this.#services.committer.commit({
      domain,
      statementObjects,
      manifestObjects: candidate.manifestObjects,
      locations,
      inText: (location) => location.file === source || (location.file ?? '').endsWith('.sql'),
      at,
    });
    if (!outcome.ok) return { status: 'error', diagnostics: outcome.diagnostics };
    return {
      status: 'ok',
      ...(outcome.graphVersion === undefined ? {} : { graphVersion: outcome.graphVersion }),
      ...(outcome.warnings.length === 0 ? {} : { warnings: outcome.warnings }),
    };
  }

  /** What SHOW, SHOW CREATE and DESCRIBE see: the open batch, else the committed domain. */
  #view(): Candidate {
    return this.#batch?.candidate ?? this.#committed();
  }

  #committed(): Candidate {
    return new Candidate(this.#script.domain, this.#services.store.state(this.#script.domain));
  }
}
