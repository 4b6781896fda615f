// The statements that read rather than change: SHOW, SHOW CREATE and DESCRIBE; and UPLOAD RESOURCE, which
// adds a resource version but changes no object and no graph. Inside a batch SHOW and SHOW CREATE see the
// batch's uncommitted changes (as psql does); DESCRIBE asks the data plane, which runs only what is
// committed.
import { formatDiagnostic, formatLocation, type Diagnostic } from '../diagnostics/diagnostic.js';
import type {
  DescribeStatement,
  ShowCreateStatement,
  ShowStatement,
  UploadResourceStatement,
} from '../language/ast.js';
import { DisplayNames, displayName } from '../api/display-names.js';
import type { ComponentDescription, DescribedKind } from '../../dataplane/core/status.js';
import { describeText } from './describe-text.js';
import type { Candidate } from './candidate.js';
import { messageOf } from '../../dataplane/core/error-text.js';
import type { StatementOutcome, Upload } from './protocol.js';
import type { ResourceStore } from './resource-store.js';
import { showCreateText } from './show-create-text.js';
import { showItems, showTable } from './show-output.js';
import { kindsOf, kindsText } from '../language/ast.js';

/** The data plane's DESCRIBE: undefined when the domain runs no such component. */
export type Describe = (
  domain: string,
  kind: DescribedKind,
  name: string,
) => Promise<ComponentDescription | undefined>;

export function runShow(
  statement: ShowStatement,
  view: Candidate,
  resources: ResourceStore,
): StatementOutcome {
  const latest = (resource: string) => resources.latestVersion(view.domain, resource);
  const shown = view.shown();
  const items = showItems(statement.what, shown, latest);
  const names = new DisplayNames(shown.map(({ object }) => object));
  return {
    status: 'ok',
    output: showTable(statement.what, items, { names }),
    data: { type: 'show', what: statement.what, items },
  };
}

export function runShowCreate(statement: ShowCreateStatement, view: Candidate): StatementOutcome {
  const found = view.find(kindsOf(statement.kind), statement.name);
  if (found === undefined) return missing(statement, view);
  const names = new DisplayNames(view.shown().map(({ object }) => object));
  return {
    status: 'ok',
    output: showCreateText(found.object, names),
    data: { type: 'show-create', resource: found.object },
  };
}

export async function runDescribe(
  statement: DescribeStatement,
  view: Candidate,
  describe: Describe,
): Promise<StatementOutcome> {
  const found = view.find(kindsOf(statement.kind), statement.name);
  if (found === undefined) return missing(statement, view);
  const kind: DescribedKind = statement.kind === 'Emitter' ? 'emitter' : 'ingestor';
  let description: ComponentDescription | undefined;
  try {
    description = await describe(view.domain, kind, statement.name);
  } catch (error: unknown) {
    return failed(statement, `DESCRIBE failed: ${messageOf(error)}`);
  }
  if (description === undefined) {
    const what = `${found.object.kind} ${displayName(found.object)}`;
    return failed(statement, `${what} is not running on this node (it runs once its batch is committed)`);
  }
  return { status: 'ok', output: describeText(description), data: { type: 'describe', description } };
}

export interface UploadContext {
  /** The committed objects of the domain (UPLOAD never runs inside a batch). */
  view: Candidate;
  resources: ResourceStore;
  now: () => Date;
}

export async function runUpload(
  statement: UploadResourceStatement,
  upload: Upload,
  context: UploadContext,
): Promise<StatementOutcome> {
  const { view, resources } = context;
  const found = view.find(['Resource'], statement.name);
  if (found === undefined) {
    const message = `UPLOAD RESOURCE: there is no Resource ${statement.identifier} in domain ${view.domain}; run CREATE RESOURCE ${statement.identifier} first`;
    return { status: 'error', diagnostics: [formatDiagnostic(error(message, statement))] };
  }
  if (upload.files.length === 0)
    return failed(statement, `UPLOAD RESOURCE: ${upload.directory} holds no files`);
  let version: number;
  try {
    version = await resources.addVersion(view.domain, statement.name, upload.files, context.now());
  } catch (problem: unknown) {
    return failed(statement, `cannot store the upload: ${messageOf(problem)}`);
  }
  const files = `${upload.files.length} file${upload.files.length === 1 ? '' : 's'}`;
  return {
    status: 'ok',
    resourceVersion: version,
    output: `uploaded ${upload.directory} as version ${version} of resource ${displayName(found.object)} (${files})`,
  };
}

function missing(statement: ShowCreateStatement | DescribeStatement, view: Candidate): StatementOutcome {
  const what = `${kindsText(kindsOf(statement.kind))} ${statement.identifier}`;
  const message = `there is no ${what} in domain ${view.domain}`;
  return { status: 'error', diagnostics: [formatDiagnostic(error(message, statement))] };
}

function error(message: string, statement: { location: Diagnostic['location'] }): Diagnostic {
  const diagnostic: Diagnostic = { code: 'SR2001', severity: 'error', message };
  if (statement.location !== undefined) diagnostic.location = statement.location;
  return diagnostic;
}

/** A failure that is not a diagnostic of the graph (no code): `SOURCE:LINE:COL: error: message`. */
export function failed(statement: { location: Diagnostic['location'] }, message: string): StatementOutcome {
  const where = statement.location === undefined ? '' : `${formatLocation(statement.location)}: `;
  return { status: 'error', diagnostics: [`${where}error: ${message}`] };
}
