// One document → one graph object or the diagnostics that say why not. Shared by the statement converter
// and the YAML loader so both report the same codes: SR1011 not ours, SR1012 structure, SR1013 or the
// rule's own code for CEL-twin rules, SR2030 for an unknown syslog protocol, SR1020 for a Kafka client's
// password written into the resource.
import { API_VERSION, dataplaneNodeKind, GRAPH_KINDS, type GraphObject } from '../api/index.js';
import { SYSLOG_PROTOCOLS } from '../api/kinds/syslog-client.js';
import { statementIdentifier } from '../api/display-names.js';
import { checkGraphObject } from '../api/validate-object.js';
import { isPlainObject, type SchemaProblem } from '../api/validate.js';
import type { Diagnostic, ObjectKey, SourceLocation } from '../diagnostics/diagnostic.js';

export type Locate = (path: string) => SourceLocation | undefined;

export type DocumentCheck = { ok: true; object: GraphObject } | { ok: false; diagnostics: Diagnostic[] };

const PROTOCOL_PATH = 'spec.config.protocol';
/** Where a hand-written KafkaClient might put a password (unknown fields, refused with SR1020). */
const INLINE_PASSWORDS = ['spec.config.saslPassword', 'spec.config.sasl_password', 'spec.config.password'];
/** Our API's one kind that is not part of a graph. */
const NODE_REPORT = dataplaneNodeKind.kind;

export function checkDocument(document: unknown, locate: Locate): DocumentCheck {
  const check = checkGraphObject(document);
  if (check.ok) return { ok: true, object: check.object };
  const key = objectKeyOf(document);
  if (check.notOurs) return { ok: false, diagnostics: [notOurs(document, check.problems, locate)] };
  return {
    ok: false,
    diagnostics: check.problems.map((problem) => problemDiagnostic(problem, document, key, locate)),
  };
}

/** The kind and name a document claims, for diagnostics about it (even when it is not valid). */
export function objectKeyOf(document: unknown): ObjectKey | undefined {
  if (!isPlainObject(document) || typeof document.kind !== 'string') return undefined;
  const metadata = document.metadata;
  const name = isPlainObject(metadata) && typeof metadata.name === 'string' ? metadata.name : '(unnamed)';
  const identifier = statementIdentifier(document);
  return identifier === undefined || identifier === name
    ? { kind: document.kind, name }
    : { kind: document.kind, name, display: identifier };
}

function problemDiagnostic(
  problem: SchemaProblem,
  document: unknown,
  key: ObjectKey | undefined,
  locate: Locate,
): Diagnostic {
  const diagnostic: Diagnostic = {
    code: problem.fromRule ? (problem.code ?? 'SR1013') : 'SR1012',
    severity: 'error',
    message: problem.message,
    path: problem.path,
  };
  Object.assign(diagnostic, ownCode(problem, document, key?.kind));
  if (key !== undefined) diagnostic.object = key;
  return located(diagnostic, locate(problem.path));
}

/** The codes some schema problems have of their own: an unknown syslog protocol, a Kafka password. */
function ownCode(
  problem: SchemaProblem,
  document: unknown,
  kind: string | undefined,
): Pick<Diagnostic, 'code' | 'message'> | undefined {
  const protocol = problem.path === PROTOCOL_PATH ? valueAt(document, PROTOCOL_PATH) : undefined;
  if (kind === 'SyslogClient' && isUnknownProtocol(protocol)) {
    return { code: 'SR2030', message: `unknown protocol '${protocol}': expected udp, tcp or tls` };
  }
  if (kind === 'KafkaClient' && INLINE_PASSWORDS.includes(problem.path)) {
    return {
      code: 'SR1020',
      message:
        'a password is never kept in the resource (it would show in SHOW CREATE, in kubectl get and in etcd): upload it as a file of a resource, mount that resource and set saslPasswordFile to {{ <resource> }}/<file>',
    };
  }
  return undefined;
}

function notOurs(document: unknown, problems: SchemaProblem[], locate: Locate): Diagnostic {
  const problem = problems[0];
  const path = problem?.path ?? '';
  const diagnostic: Diagnostic = { code: 'SR1011', severity: 'error', message: notOursMessage(document) };
  if (path !== '') diagnostic.path = path;
  return located(diagnostic, locate(path) ?? locate(''));
}

function notOursMessage(document: unknown): string {
  if (isPlainObject(document) && document.kind === NODE_REPORT && document.apiVersion === API_VERSION) {
    return `a ${NODE_REPORT} is a node report, written by the data plane, not part of a graph`;
  }
  const what = isPlainObject(document) ? describe(document) : 'a document that is not a mapping';
  const kinds = GRAPH_KINDS.map((definition) => definition.kind).join(', ');
  return `${what} is not a streamroute resource: expected apiVersion ${API_VERSION} and a kind of ${kinds}`;
}

function describe(document: Record<string, unknown>): string {
  const { apiVersion, kind } = document;
  if (typeof kind !== 'string') return 'a document without a kind';
  return typeof apiVersion === 'string' ? `a ${kind} (${apiVersion})` : `a ${kind} without an apiVersion`;
}

function located(diagnostic: Diagnostic, location: SourceLocation | undefined): Diagnostic {
  if (location !== undefined) diagnostic.location = location;
  return diagnostic;
}

function valueAt(document: unknown, path: string): unknown {
  let value = document;
  for (const key of path.split('.')) value = isPlainObject(value) ? value[key] : undefined;
  return value;
}

function isUnknownProtocol(value: unknown): value is string {
  return typeof value === 'string' && !(SYSLOG_PROTOCOLS as readonly string[]).includes(value);
}
