// The tag a statement result carries, as psql prints a command tag: `CREATE SCHEMA orders`,
// `CREATE OR REPLACE RELAY orders`, `DROP INGESTOR IF EXISTS old_in`, `SHOW RELAYS`, `BEGIN`.
import type { GraphKind } from '../api/index.js';
import type { CreateStatement, KindWord, ShowTarget, Statement } from '../language/ast.js';

export const KIND_WORDS: Readonly<Record<KindWord, string>> = {
  Schema: 'SCHEMA',
  WireSchema: 'WIRE JSON SCHEMA',
  Resource: 'RESOURCE',
  Codec: 'CODEC',
  Relay: 'RELAY',
  Vhost: 'VHOST',
  Endpoint: 'ENDPOINT',
  SyslogClient: 'CLIENT',
  HttpIngestor: 'HTTP ENDPOINT INGESTOR',
  SyslogIngestor: 'SYSLOG LISTENER INGESTOR',
  Junction: 'JUNCTION',
  Correlator: 'CORRELATOR',
  Emitter: 'EMITTER',
  Ingestor: 'INGESTOR',
};

export const SHOW_WORDS: Readonly<Record<ShowTarget, string>> = {
  Schema: 'SCHEMAS',
  WireSchema: 'WIRE SCHEMAS',
  Resource: 'RESOURCES',
  Codec: 'CODECS',
  Relay: 'RELAYS',
  Vhost: 'VHOSTS',
  Endpoint: 'ENDPOINTS',
  SyslogClient: 'CLIENTS',
  Ingestor: 'INGESTORS',
  Junction: 'JUNCTIONS',
  Correlator: 'CORRELATORS',
  Emitter: 'EMITTERS',
};

/** The kinds a kind word stands for: INGESTOR is either ingestor kind. */
export function kindsOf(kind: KindWord): GraphKind[] {
  return kind === 'Ingestor' ? ['HttpIngestor', 'SyslogIngestor'] : [kind];
}

export function statementTag(statement: Statement): string {
  switch (statement.type) {
    case 'create':
      return `CREATE ${createOptions(statement)}${KIND_WORDS[statement.kind]} ${statement.identifier}`;
    case 'drop':
      return `DROP ${KIND_WORDS[statement.kind]} ${statement.ifExists ? 'IF EXISTS ' : ''}${statement.identifier}`;
    case 'show':
      return `SHOW ${SHOW_WORDS[statement.what]}`;
    case 'upload-resource':
      return `UPLOAD RESOURCE ${statement.identifier}`;
    case 'begin':
    case 'commit':
    case 'rollback':
      return statement.type.toUpperCase();
    default:
      return `${VERBS[statement.type]} ${KIND_WORDS[statement.kind]} ${statement.identifier}`;
  }
}

function createOptions(statement: CreateStatement): string {
  if (statement.orReplace) return 'OR REPLACE ';
  return statement.ifNotExists ? 'IF NOT EXISTS ' : '';
}

/** The words before `<kind> <name>` of the other statements. */
const VERBS = {
  alter: 'ALTER',
  'show-create': 'SHOW CREATE',
  describe: 'DESCRIBE',
} as const;
