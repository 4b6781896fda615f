// The statement protocol between the CLI and the embedded node (docs/node.md#the-statement-protocol):
// what `POST /v1/domains/{domain}/statements` takes and answers, and `GET /v1/domains`. Shared by the
// node's control routes and the CLI client, so both sides agree on one shape.

/** A domain is a Kubernetes namespace name (an RFC 1123 label). */
export const DOMAIN_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const MAX_DOMAIN_LENGTH = 63;

export function isDomainName(name: string): boolean {
  return name.length <= MAX_DOMAIN_LENGTH && DOMAIN_PATTERN.test(name);
}

/** One file of an upload as it travels: its path inside the uploaded directory and its bytes in base64. */
export interface WireUploadFile {
  path: string;
  base64: string;
}

/** The files of one `UPLOAD RESOURCE` statement, read by the client from `directory` on its machine. */
export interface WireUpload {
  resource: string;
  directory: string;
  files: WireUploadFile[];
}

/** The request body. `uploads` come in the order of the UPLOAD RESOURCE statements of the script. */
export interface WireStatementRequest {
  script: string;
  /** The name locations are reported with: `-c`, `<stdin>`, `orders.sql`. */
  source?: string;
  uploads?: WireUpload[];
}

export interface UploadFile {
  path: string;
  content: Buffer;
}

export interface Upload {
  resource: string;
  directory: string;
  files: UploadFile[];
}

/** A request after the control routes checked and decoded it. */
export interface StatementRequest {
  script: string;
  source: string;
  uploads: Upload[];
}

export type StatementStatus = 'ok' | 'error' | 'not_run';

export interface StatementResult {
  /** The statement's tag: `CREATE SCHEMA orders`, `BEGIN`, `SHOW RELAYS`, `UPLOAD RESOURCE pki`. */
  statement: string;
  line: number;
  column: number;
  status: StatementStatus;
  /** What SHOW, SHOW CREATE and DESCRIBE print, and notices such as "already exists, nothing changed". */
  output?: string;
  /** `SOURCE:LINE:COL: error CODE: message` lines. */
  diagnostics?: string[];
  /** Set when this statement (or this COMMIT) activated a new graph version. */
  graphVersion?: number;
  /** The version an UPLOAD RESOURCE created. */
  resourceVersion?: number;
  warnings?: string[];
}

export interface StatementReply {
  /** False when any statement failed, or when nothing ran because of `diagnostics`. */
  ok: boolean;
  /** Problems found before anything ran (syntax errors, misplaced BEGIN/COMMIT): nothing ran. */
  diagnostics: string[];
  results: StatementResult[];
}

export interface DomainSummary {
  name: string;
  /** 0 while no graph has been activated. */
  graphVersion: number;
  objects: number;
}

export interface DomainsReply {
  domains: DomainSummary[];
}

/** The body of every 4xx/5xx answer of the control routes. */
export interface ControlErrorBody {
  error: { code: ControlErrorCode; message: string };
}

/** Stable codes of the control API's error answers (docs/node.md#errors-of-the-control-api). */
export const CONTROL_ERROR_CODES = {
  invalid_json: 'The body is not JSON',
  invalid_request: 'The body does not have the shape of a statement request',
  invalid_domain: 'The domain is not a valid name',
  invalid_upload: 'An upload has bad base64, a bad path or a path given twice',
  payload_too_large: 'The body is larger than the limit',
  method_not_allowed: 'The path does not take this method',
  internal_error: 'The node failed while answering',
} as const;

export type ControlErrorCode = keyof typeof CONTROL_ERROR_CODES;

/** A result without the statement's tag and place: what running one statement gives. */
export type StatementOutcome = Omit<StatementResult, 'statement' | 'line' | 'column'>;
