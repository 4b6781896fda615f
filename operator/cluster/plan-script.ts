// A script of statements against a domain on a cluster, planned before anything is applied: each
// statement is played in order over the namespace's objects as listed (the embedded node's Candidate,
// so CREATE, ALTER and DROP refuse exactly as they do on the node), and the result is a list of steps —
// apply these objects, delete those, upload this directory, print this — that run only if the whole
// script is valid (validate-plan.ts). SHOW, SHOW CREATE and DESCRIBE see the plan as it stands at their
// place in the script. UPLOAD RESOURCE is given the version it will most likely get (the next after the
// highest listed), so that `VERSION LATEST` after it validates; steps carry objects unbound, and LATEST
// is bound when they are applied.
import type { GraphObject } from '../api/index.js';
import { formatDiagnostic, SourceMap, type Diagnostic, type ObjectKey } from '../diagnostics/diagnostic.js';
import type { Statement, UploadResourceStatement } from '../language/ast.js';
import { statementsToObjects } from '../language/convert.js';
import { DisplayNames, displayName } from '../api/display-names.js';
import { showCreateText } from '../node/show-create-text.js';
import { bindLatest } from '../compiler/bind-latest.js';
import { Candidate, type Change } from '../node/candidate.js';
import { EMPTY_STATE } from '../node/domain-state.js';
import { sortByPlace } from '../node/domain-commit.js';
import { failed } from '../node/inspect-statements.js';
import type { StatementData } from '../node/protocol.js';
import { showItems, showTable, type ShownObject } from '../node/show-output.js';
import { statementTag } from '../node/statement-tag.js';
import { kindsOf, kindsText } from '../language/ast.js';
import { idOf, managersOf, toGraphObject, type DomainObjects } from './cluster-objects.js';
import { describeStatus } from './describe-status.js';
import { latestVersions, type VersionFile } from './resource-versions.js';

/** A SHOW, SHOW CREATE or DESCRIBE: its tag and place, and what it found as data (for -o json). */
export interface InspectedBy {
  statement: string;
  line: number;
  column: number;
  data: StatementData;
}

export type Step =
  | { type: 'output'; text: string; inspected?: InspectedBy }
  | { type: 'apply'; objects: GraphObject[]; drops: ObjectKey[]; transaction: boolean }
  | {
      type: 'upload';
      resource: string;
      /** The resource as the statement wrote it. */
      written: string;
      directory: string;
      files: VersionFile[];
      predicted: number;
    };

/** A script's upload: the directory as read where the CLI runs, in UPLOAD RESOURCE order. */
export interface ScriptUpload {
  resource: string;
  directory: string;
  files: VersionFile[];
}

export interface ScriptPlan {
  steps: Step[];
  /** The namespace's graph objects after the script. */
  after: GraphObject[];
  /** Versions the uploads are expected to get, by resource. */
  pending: Map<string, { version: number; files: VersionFile[] }>;
  /** Statement locations of the declared objects. */
  sourceMap: SourceMap;
  /** The parser's and converter's diagnostics (warnings: a script with errors is not planned). */
  reported: Diagnostic[];
}

export type Planned = { ok: true; plan: ScriptPlan } | { ok: false; diagnostics: string[] };

interface Batch {
  candidate: Candidate;
  declared: Map<string, GraphObject>;
  dropped: Map<string, ObjectKey>;
}

class Refusal extends Error {
  readonly diagnostics: string[];
  constructor(diagnostics: string[]) {
    super('refused');
    this.diagnostics = diagnostics;
  }
}

export function planScript(
  domain: DomainObjects,
  statements: readonly Statement[],
  options: { uploads: readonly ScriptUpload[]; reported: readonly Diagnostic[] },
): Planned {
  const planner = new Planner(domain, options.uploads, options.reported);
  try {
    for (const statement of statements) planner.play(statement);
    return { ok: true, plan: planner.finish(statements) };
  } catch (error: unknown) {
    if (error instanceof Refusal) return { ok: false, diagnostics: error.diagnostics };
    throw error;
  }
}

class Planner {
  readonly #domain: DomainObjects;
  readonly #uploads: ScriptUpload[];
  readonly #latest: Map<string, number>;
  readonly #steps: Step[] = [];
  readonly #sourceMap = new SourceMap();
  readonly #reported: Diagnostic[];
  readonly #pending = new Map<string, { version: number; files: VersionFile[] }>();
  #committed: Candidate;
  #batch: Batch | undefined;

  constructor(domain: DomainObjects, uploads: readonly ScriptUpload[], reported: readonly Diagnostic[]) {
    this.#domain = domain;
    this.#uploads = [...uploads];
    this.#latest = latestVersions(domain.versions);
    this.#reported = [...reported];
    const objects = [...domain.listed.values()].map(toGraphObject);
    this.#committed = new Candidate(domain.namespace, { ...EMPTY_STATE, statementObjects: objects });
  }

  play(statement: Statement): void {
    switch (statement.type) {
      case 'begin':
        this.#batch = { candidate: this.#copy(this.#committed), declared: new Map(), dropped: new Map() };
        return;
      case 'commit':
        return this.#commit();
      case 'rollback':
        this.#batch = undefined;
        return;
      case 'create':
      case 'alter':
        return this.#declare(statement);
      case 'drop':
        return this.#drop(statement);
      case 'upload-resource':
        return this.#upload(statement);
      default:
        return this.#inspect(statement);
    }
  }

  /** SHOW, SHOW CREATE and DESCRIBE: what the plan holds at this place of the script. */
  #inspect(statement: Extract<Statement, { type: 'show' | 'show-create' | 'describe' }>): void {
    const inspected = (data: StatementData): InspectedBy => ({
      statement: statementTag(statement),
      line: statement.location.line,
      column: statement.location.column,
      data,
    });
    if (statement.type === 'show') {
      const latest = (resource: string) => this.#latest.get(resource);
      const shown = this.#shown();
      const items = showItems(statement.what, shown, latest);
      const data: StatementData = { type: 'show', what: statement.what, items };
      const names = new DisplayNames(shown.map(({ object }) => object));
      return this.#output(showTable(statement.what, items, { names }), inspected(data));
    }
    const found = this.#find(statement);
    if (statement.type === 'show-create') {
      const names = new DisplayNames(this.#shown().map(({ object }) => object));
      const data: StatementData = { type: 'show-create', resource: found.object };
      return this.#output(showCreateText(found.object, names), inspected(data));
    }
    const listed = this.#domain.listed.get(idOf(found.object));
    if (listed === undefined) {
      const what = `${statement.kind.toUpperCase()} ${displayName(found.object)}`;
      throw this.#failure(statement, `${what} is not applied yet: DESCRIBE shows what the cluster reports`);
    }
    const status = listed.status ?? {};
    const data: StatementData = { type: 'describe-status', resource: toGraphObject(listed), status };
    this.#output(describeStatus(listed), inspected(data));
  }

  finish(statements: readonly Statement[]): ScriptPlan {
    if (this.#batch !== undefined) {
      const begin = [...statements].reverse().find((statement) => statement.type === 'begin');
      const message =
        'this BEGIN is never closed: its batch was rolled back at the end of the script (end it with COMMIT)';
      const diagnostic: Diagnostic = { code: 'SR1008', severity: 'error', message };
      if (begin !== undefined) diagnostic.location = begin.location;
      throw new Refusal([formatDiagnostic(diagnostic)]);
    }
    return {
      steps: this.#steps,
      after: this.#committed.statementObjects(),
      pending: this.#pending,
      sourceMap: this.#sourceMap,
      reported: this.#reported,
    };
  }

  #view(): Candidate {
    return this.#batch?.candidate ?? this.#committed;
  }

  #copy(candidate: Candidate): Candidate {
    return new Candidate(candidate.domain, {
      ...EMPTY_STATE,
      statementObjects: candidate.statementObjects(),
    });
  }

  #output(text: string, inspected?: InspectedBy): void {
    this.#steps.push({ type: 'output', text, ...(inspected === undefined ? {} : { inspected }) });
  }

  #commit(): void {
    const batch = this.#batch;
    this.#batch = undefined;
    if (batch === undefined) return;
    this.#committed = batch.candidate;
    if (batch.declared.size === 0 && batch.dropped.size === 0) return;
    const objects = [...batch.declared.values()];
    this.#steps.push({ type: 'apply', objects, drops: [...batch.dropped.values()], transaction: true });
  }

  #declare(statement: Extract<Statement, { type: 'create' | 'alter' }>): void {
    const converted = statementsToObjects([statement], {
      namespace: this.#domain.namespace,
      reported: this.#reported,
    });
    const object = converted.objects[0];
    if (object === undefined || converted.diagnostics.some((d) => d.severity === 'error')) {
      throw new Refusal(sortByPlace(converted.diagnostics).map(formatDiagnostic));
    }
    this.#reported.push(...converted.diagnostics);
    const bound = bindLatest(object, (resource) => this.#latest.get(resource));
    const change = this.#view().declare(statement, bound);
    this.#changed(change);
    if (!change.ok || !change.changed) return;
    this.#sourceMap.merge(converted.sourceMap);
    if (this.#batch === undefined) {
      this.#steps.push({ type: 'apply', objects: [object], drops: [], transaction: false });
      return;
    }
    this.#batch.declared.set(idOf(object), object);
    this.#batch.dropped.delete(idOf(object));
  }

  #drop(statement: Extract<Statement, { type: 'drop' }>): void {
    const found = this.#view().find(kindsOf(statement.kind), statement.name);
    this.#changed(this.#view().drop(statement));
    if (found === undefined) return;
    const key = { kind: found.object.kind, name: statement.name };
    if (this.#batch === undefined) {
      this.#steps.push({ type: 'apply', objects: [], drops: [key], transaction: false });
      return;
    }
    const id = idOf(found.object);
    this.#batch.declared.delete(id);
    if (this.#committed.find([found.object.kind], statement.name) !== undefined)
      this.#batch.dropped.set(id, key);
  }

  #upload(statement: UploadResourceStatement): void {
    const upload = this.#uploads.shift();
    if (upload === undefined) throw new Error('an UPLOAD RESOURCE statement without its upload');
    const name = statement.identifier;
    if (this.#view().find(['Resource'], statement.name) === undefined) {
      const message = `UPLOAD RESOURCE: there is no Resource ${name} in domain ${this.#domain.namespace}; run CREATE RESOURCE ${name} first`;
      throw new Refusal([
        formatDiagnostic({ code: 'SR2001', severity: 'error', message, location: statement.location }),
      ]);
    }
    if (upload.files.length === 0)
      throw this.#failure(statement, `UPLOAD RESOURCE: ${upload.directory} holds no files`);
    const predicted = (this.#latest.get(statement.name) ?? 0) + 1;
    this.#latest.set(statement.name, predicted);
    this.#pending.set(statement.name, { version: predicted, files: upload.files });
    this.#steps.push({
      type: 'upload',
      resource: statement.name,
      written: statement.identifier,
      directory: upload.directory,
      files: upload.files,
      predicted,
    });
  }

  #changed(change: Change): void {
    if (!change.ok) throw new Refusal([formatDiagnostic(change.diagnostic)]);
    if (change.notice !== undefined) this.#output(change.notice);
  }

  #find(statement: Extract<Statement, { type: 'show-create' | 'describe' }>): ShownObject {
    const found = this.#view().find(kindsOf(statement.kind), statement.name);
    if (found !== undefined) return found;
    const what = `${kindsText(kindsOf(statement.kind))} ${statement.identifier}`;
    const message = `there is no ${what} in domain ${this.#domain.namespace}`;
    throw new Refusal([
      formatDiagnostic({ code: 'SR2001', severity: 'error', message, location: statement.location }),
    ]);
  }

  /** The objects as SHOW lists them: DECLARED IN names the field managers of listed objects. */
  #shown(): ShownObject[] {
    return this.#view()
      .statementObjects()
      .map((object) => {
        const listed = this.#domain.listed.get(idOf(object));
        return { object, file: listed === undefined ? 'this script' : managersOf(listed) };
      });
  }

  #failure(statement: Statement, message: string): Refusal {
    const outcome = failed(statement, message);
    return new Refusal(outcome.status === 'error' ? (outcome.diagnostics ?? []) : []);
  }
}
