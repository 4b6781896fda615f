// The node's statement and admin protocol as the client sees it, and checks that a reply has its shape.
// A reply that does not is not the protocol (exit 3), so nothing further down guesses at fields.
import type { ComponentDescription } from '../../dataplane/core/status.js';
import type { StatementReply, WireStatementRequest } from '../node/protocol.js';
import { SHOW_WORDS } from '../node/statement-tag.js';

// One shape for both sides: the wire types live with the node (operator/node/protocol.ts).
export type {
  StatementReply as StatementsReply,
  StatementResult,
  StatementStatus,
  WireUpload as Upload,
  WireUploadFile as UploadFile,
} from '../node/protocol.js';

/** `POST /v1/domains/{domain}/statements`: the client always sends the source and the uploads. */
export type StatementsRequest = Required<WireStatementRequest>;

/** The body of every 4xx and 5xx answer (`code` as a string: a newer node may add codes). */
export interface ErrorReply {
  code: string;
  message: string;
}

/** Where a reply departs from the protocol: a field path (`results[2].status`) and what was expected. */
interface Problem {
  path: string;
  what: string;
}

/** Undefined when `value` fits. */
type Check = (value: unknown) => Problem | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const expect =
  (what: string, test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? undefined : { path: '', what: `expected ${what}` };

const under = (prefix: string, problem: Problem | undefined): Problem | undefined =>
  problem && { path: `${prefix}${problem.path}`, what: problem.what };

const string = expect('a string', (value) => typeof value === 'string');
const boolean = expect('true or false', (value) => typeof value === 'boolean');
const integer = expect('an integer', (value) => Number.isSafeInteger(value));
const number = expect('a number', (value) => typeof value === 'number');
const object = expect('an object', isObject);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null ? undefined : check(value);
const oneOf = (...values: string[]): Check =>
  expect(`one of ${values.join(', ')}`, (value) => values.includes(value as string));

const recordOf =
  (check: Check): Check =>
  (value) => {
    if (!isObject(value)) return object(value);
    for (const [key, item] of Object.entries(value)) {
      const problem = under(`.${key}`, check(item));
      if (problem) return problem;
    }
    return undefined;
  };

const listOf =
  (check: Check): Check =>
  (value) => {
    if (!Array.isArray(value)) return { path: '', what: 'expected a list' };
    for (const [index, item] of value.entries()) {
      const problem = under(`[${index}]`, check(item));
      if (problem) return problem;
    }
    return undefined;
  };

/** An object with these fields; `optional` ones may be absent. Other fields are allowed (newer nodes). */
function shape(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  const fields = [
    ...Object.entries(required).map(([key, check]) => ({ key, check, optional: false })),
    ...Object.entries(optional).map(([key, check]) => ({ key, check, optional: true })),
  ];
  return (value) => {
    if (!isObject(value)) return object(value);
    for (const field of fields) {
      const item = value[field.key];
      if (item === undefined && field.optional) continue;
      const problem = item === undefined ? { path: '', what: 'missing' } : field.check(item);
      if (problem) return under(`.${field.key}`, problem);
    }
    return undefined;
  };
}

const strings = listOf(string);

const RESOURCE = shape({
  // any kind: a newer node may list kinds this client does not know (their rows show no columns)
  kind: string,
  metadata: shape({ name: string }),
  spec: object,
});

const DESCRIPTION = shape(
  {
    domain: string,
    kind: oneOf('http-ingestor', 'syslog-ingestor', 'topic-ingestor', 'emitter'),
    name: string,
    graphVersion: integer,
    state: string,
    transientError: nullable(shape({ code: string, message: string, since: string })),
    backoffMs: nullable(number),
    metrics: recordOf(number),
    details: object,
  },
  { displayName: string },
);

/** What an inspecting statement found (operator/node/protocol.ts StatementData); the objects are the node's own. */
const STATEMENT_DATA: Check = (value) => {
  const head = shape({ type: oneOf('show', 'show-create', 'describe', 'describe-status') })(value);
  if (head !== undefined) return head;
  const type = (value as { type: string }).type;
  if (type === 'show')
    return shape({
      what: oneOf(...Object.keys(SHOW_WORDS)),
      items: listOf(shape({ resource: RESOURCE, declaredIn: string }, { latestVersion: integer })),
    })(value);
  if (type === 'describe') return shape({ description: DESCRIPTION })(value);
  return shape({ resource: RESOURCE }, { status: object })(value);
};

const STATEMENTS_REPLY = shape({
  ok: boolean,
  diagnostics: strings,
  results: listOf(
    shape(
      { statement: string, line: integer, column: integer, status: oneOf('ok', 'error', 'not_run') },
      {
        output: string,
        diagnostics: strings,
        graphVersion: integer,
        resourceVersion: integer,
        warnings: strings,
        data: STATEMENT_DATA,
      },
    ),
  ),
});

const ERROR_REPLY = shape({ error: shape({ code: string, message: string }) });

/** A reply that fits, or in words where it does not: `results[2].status: expected one of ok, …`. */
export type Decoded<T> = { ok: true; value: T } | { ok: false; problem: string };

function decoder<T>(check: Check): (value: unknown) => Decoded<T> {
  return (value) => {
    const problem = check(value);
    if (problem === undefined) return { ok: true, value: value as T };
    const path = problem.path.replace(/^\./, '');
    return { ok: false, problem: path === '' ? problem.what : `${path}: ${problem.what}` };
  };
}

export const decodeStatementsReply = decoder<StatementReply>(STATEMENTS_REPLY);
export const decodeDescription = decoder<ComponentDescription>(DESCRIPTION);

const decodeErrorBody = decoder<{ error: ErrorReply }>(ERROR_REPLY);

export function decodeErrorReply(value: unknown): Decoded<ErrorReply> {
  const decoded = decodeErrorBody(value);
  return decoded.ok ? { ok: true, value: decoded.value.error } : decoded;
}
