// The tag a statement result carries, as psql prints a command tag: `CREATE SCHEMA orders`,
// `CREATE OR REPLACE RELAY orders`, `DROP INGESTOR IF EXISTS old_in`, `SHOW RELAYS`, `BEGIN`.
import type { GraphKind } from '../api/index.js';
import type { CreateStatement, KindWord, ShowTarget, Statement } from '../language/ast.js';

/** The words of each kind and kind word: CLIENT is either client kind, INGESTOR any ingestor kind. */
export const KIND_WORDS: Readonly<Record<KindWord | GraphKind, string>> = {
  Schema: 'SCHEMA',
  WireSchema: 'WIRE JSON SCHEMA',
  Resource: 'RESOURCE',
  Codec: 'CODEC',
  Relay: 'RELAY',
  Vhost: 'VHOST',
  Endpoint: 'ENDPOINT',
  SyslogClient: 'CLIENT',
  KafkaClient: 'CLIENT',
  Client: 'CLIENT',
  HttpIngestor: 'HTTP ENDPOINT INGESTOR',
  SyslogIngestor: 'SYSLOG LISTENER INGESTOR',
  TopicIngestor: 'TOPIC INGESTOR',
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
  Client: 'CLIENTS',
  Ingestor: 'INGESTORS',
  Junction: 'JUNCTIONS',
  Correlator: 'CORRELATORS',
  Emitter: 'EMITTERS',
};

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
