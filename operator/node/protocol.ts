// The statement protocol between the CLI and the embedded node (docs/node.md#the-control-api): what
// `POST /v1/domains/{domain}/statements` takes and answers, and `GET /v1/domains`. Shared by the node's
// control routes and the CLI client, so both sides agree on one shape. Error answers are the admin API's
// (`{"error":{"code","message"}}`, the catalog in dataplane/admin/admin-errors.ts).

import type { ComponentDescription } from '../../dataplane/core/status.js';
import type { GraphObject } from '../api/index.js';
import type { ShowTarget } from '../language/ast.js';
import type { ShowItem } from './show-output.js';

/** A domain is a Kubernetes namespace name (a DNS-1123 label, at most 63 characters). */
export { isDomainName } from '../../dataplane/admin/request-params.js';

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
  /** What SHOW, SHOW CREATE and DESCRIBE found, as data: the client prints it for -o wide|json|yaml. */
  data?: StatementData;
}

/**
 * The data behind an inspecting statement's text. DESCRIBE gives the node's description on a node and the
 * status the operator wrote on a cluster.
 */
export type StatementData =
  | { type: 'show'; what: ShowTarget; items: ShowItem[] }
  | { type: 'show-create'; resource: GraphObject }
  | { type: 'describe'; description: ComponentDescription }
  | { type: 'describe-status'; resource: GraphObject; status: Record<string, unknown> };

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

/** A result without the statement's tag and place: what running one statement gives. */
export type StatementOutcome = Omit<StatementResult, 'statement' | 'line' | 'column'>;
