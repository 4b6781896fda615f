// What the parser produces. A CREATE or ALTER statement carries the resource spec itself (the types of
// operator/api), so converting a statement to a resource is only a matter of adding metadata.
import type { GraphKind, SpecByKind } from '../api/index.js';
import type { SourceLocation } from '../diagnostics/diagnostic.js';

/**
 * A kind in DROP, SHOW CREATE and DESCRIBE: `Ingestor` is any ingestor kind, `Client` either client kind
 * (CLIENT names one client of whichever TYPE).
 */
export type KindWord = Exclude<GraphKind, 'SyslogClient' | 'KafkaClient'> | 'Ingestor' | 'Client';

/** What SHOW lists: SHOW INGESTORS covers every ingestor kind, SHOW CLIENTS both client kinds. */
export type ShowTarget =
  | Exclude<GraphKind, 'HttpIngestor' | 'SyslogIngestor' | 'TopicIngestor' | 'SyslogClient' | 'KafkaClient'>
  | 'Ingestor'
  | 'Client';

/** The kinds each kind word stands for. */
export const INGESTOR_KINDS = ['HttpIngestor', 'SyslogIngestor', 'TopicIngestor'] as const;
export const CLIENT_KINDS = ['SyslogClient', 'KafkaClient'] as const;

/** The kinds a kind word stands for: INGESTOR is any ingestor kind, CLIENT either client kind. */
export function kindsOf(kind: KindWord | ShowTarget): GraphKind[] {
  if (kind === 'Ingestor') return [...INGESTOR_KINDS];
  if (kind === 'Client') return [...CLIENT_KINDS];
  return [kind];
}

/** `Relay`, `SyslogClient or KafkaClient`, `HttpIngestor, SyslogIngestor or TopicIngestor`. */
export function kindsText(kinds: readonly string[]): string {
  const last = kinds.at(-1) ?? '';
  return kinds.length <= 1 ? last : `${kinds.slice(0, -1).join(', ')} or ${last}`;
}

/** An object named in a statement: the identifier as written and the resource name it maps to. */
export interface NamedObject {
  identifier: string;
  /** From identifierToName; when the identifier cannot map (SR1002), the identifier as written. */
  name: string;
}

interface Declaration<K extends GraphKind> extends NamedObject {
  kind: K;
  spec: SpecByKind[K];
  /**
   * Where each part was written, by field path relative to the object: `metadata.name`, `spec.schema`,
   * `spec.routes[0]`, `spec.routes[0].set[1].value`, `spec.config.framing`, … Every leaf the user wrote
   * and every list element has an entry; the empty path is the statement itself. Look paths up by their
   * longest known prefix (SourceMap in operator/diagnostics/diagnostic.ts does).
   */
  locations: Map<string, SourceLocation>;
  /** The statement's first keyword. */
  location: SourceLocation;
}

type EachKind<T> = { [K in GraphKind]: Declaration<K> & T }[GraphKind];

/** `CREATE [OR REPLACE] [IF NOT EXISTS] <kind> <name> …` */
export type CreateStatement = EachKind<{ type: 'create'; orReplace: boolean; ifNotExists: boolean }>;

/** `ALTER <kind> <name> …` with the same tail as CREATE. */
export type AlterStatement = EachKind<{ type: 'alter' }>;

export interface DropStatement extends NamedObject {
  type: 'drop';
  kind: KindWord;
  ifExists: boolean;
  location: SourceLocation;
}

export interface ShowStatement {
  type: 'show';
  what: ShowTarget;
  location: SourceLocation;
}

export interface ShowCreateStatement extends NamedObject {
  type: 'show-create';
  kind: KindWord;
  location: SourceLocation;
}

export interface DescribeStatement extends NamedObject {
  type: 'describe';
  kind: 'Ingestor' | 'Emitter';
  location: SourceLocation;
}

export interface TransactionStatement {
  type: 'begin' | 'commit' | 'rollback';
  location: SourceLocation;
}

/** `UPLOAD RESOURCE r VERSION '<directory>'` (client-side only). */
export interface UploadResourceStatement extends NamedObject {
  type: 'upload-resource';
  directory: string;
  location: SourceLocation;
}

export type DeclarationStatement = CreateStatement | AlterStatement;

export type Statement =
  | CreateStatement
  | AlterStatement
  | DropStatement
  | ShowStatement
  | ShowCreateStatement
  | DescribeStatement
  | TransactionStatement
  | UploadResourceStatement;

export function isDeclaration(statement: Statement): statement is DeclarationStatement {
  return statement.type === 'create' || statement.type === 'alter';
}
