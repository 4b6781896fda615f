// YAML payloads (YAML 1.2, core schema, with the `yaml` package — docs/decisions/0001): every document of
// a stream is one input, in order; a stream without documents gives no input. The core schema is forced
// (a `%YAML 1.1` directive does not bring back `yes`/`no` booleans or timestamps); integers are exact
// (bigints); the only tag beyond the core schema is !!binary; other tags leave a scalar as its text.
// A payload may hold at most YAML_MAX_DOCUMENTS documents (yaml-markers.ts, before any parsing). Parsing
// stops at the first error (yaml-first-error.ts).
// The walk to view text or values is yaml-view.ts. Decisions: docs/codec-formats.md ("YAML").
import type { Document, DocumentOptions, ErrorCode, ParseOptions, SchemaOptions } from 'yaml';
import { messageError } from '../../core/errors.js';
import type { JsonValue } from '../json-value.js';
import { fail, guarded, lineColumn } from './format-failure.js';
import { yamlLibrary } from './format-libraries.js';
import { YAML_MAX_DOCUMENTS } from './format-limits.js';
import type { PayloadFormat, ReadResult, ValuesResult, WriteResult } from './payload-format.js';
import { payloadText } from './utf8-text.js';
import { checkWritable } from './view-text.js';
import { TEXT_SINK, WELL_FORMED_VALUE_SINK, type ViewSink } from './view-sink.js';
import { parseUntilError } from './yaml-first-error.js';
import { refuseManyDocuments } from './yaml-markers.js';
import { YamlView, type AliasBudget, type Position } from './yaml-view.js';

const FORMAT = 'YAML';
const encoder = new TextEncoder();
const READ_FAILED = messageError('SR3010', `${FORMAT}: the payload does not parse`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);

const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.2',
  schema: 'core',
  customTags: ['binary'],
  resolveKnownTags: false, // no !!timestamp, !!set, !!omap: their text or plain collection instead
  merge: false, // `<<` is an ordinary key in YAML 1.2
  intAsBigInt: true,
  uniqueKeys: false, // checked on the keys' view text instead (1 and "1" are the same key there)
  prettyErrors: false,
};

/** What each parse error means, in words that quote nothing from the payload. */
const PROBLEMS: Record<ErrorCode, string> = {
  ALIAS_PROPS: 'an alias with an anchor or a tag',
  BAD_ALIAS: 'a malformed alias or anchor',
  BAD_COLLECTION_TYPE: 'a tag that does not fit its collection',
  BAD_DIRECTIVE: 'a malformed directive',
  BAD_DQ_ESCAPE: 'an invalid escape in a double-quoted string',
  BAD_INDENT: 'bad indentation',
  BAD_PROP_ORDER: 'an anchor or tag in the wrong place',
  BAD_SCALAR_START: 'a plain scalar starting with a reserved character',
  BLOCK_AS_IMPLICIT_KEY: 'a block collection used as an implicit key',
  BLOCK_IN_FLOW: 'a block collection inside a flow collection',
  DUPLICATE_KEY: 'a duplicate key',
  IMPOSSIBLE: 'a construct that cannot be parsed',
  KEY_OVER_1024_CHARS: 'an implicit key longer than 1024 characters',
  MISSING_CHAR: 'a missing character (a closing quote or bracket, or a separator)',
  MULTILINE_IMPLICIT_KEY: 'an implicit key spanning lines',
  MULTIPLE_ANCHORS: 'several anchors on one node',
  MULTIPLE_DOCS: 'several documents where one was expected',
  MULTIPLE_TAGS: 'several tags on one node',
  NON_STRING_KEY: 'a key that is not a string',
  RESOURCE_EXHAUSTION: 'nesting too deep to read',
  TAB_AS_INDENT: 'a tab used as indentation',
  TAG_RESOLVE_FAILED: 'a tag that cannot be resolved',
  UNEXPECTED_TOKEN: 'unexpected content',
};

export const yamlFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(
      FORMAT,
      () => ({ inputs: readDocuments(payloadText(FORMAT, payload), TEXT_SINK) }),
      READ_FAILED,
    );
  },

  readValues(payload: Uint8Array): ValuesResult {
    // Double-quoted escapes can write a lone surrogate: its value is U+FFFD, as jq reads the text's escape.
    return guarded(
      FORMAT,
      () => ({ values: readDocuments(payloadText(FORMAT, payload), WELL_FORMED_VALUE_SINK) }),
      READ_FAILED,
    );
  },

  write(value: JsonValue): WriteResult {
    return guarded(
      FORMAT,
      () => {
        checkWritable(FORMAT, value);
        // No anchors for values that share an object. No folding and no block scalars: yaml 2.9.1 writes a
        // string whose first line is only blanks as a `|+` block that reads back without them. Double-quoted
        // strings stay on one line: spread over several (from 40 characters on), a line that starts with
        // blanks can read back with a backslash in it (yaml-write.test.ts).
        const doc = new (yamlLibrary().Document)(value, {
          version: '1.2',
          schema: 'core',
          aliasDuplicateObjects: false,
        });
        quoteByteOrderMarks(doc);
        const text = doc.toString({
          lineWidth: 0,
          blockQuote: false,
          doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER,
        });
        return { bytes: encoder.encode(text) };
      },
      WRITE_FAILED,
    );
  },
};

/**
 * Strings holding U+FEFF are written double-quoted (as `\uFEFF`): yaml 2.9.1 writes them plain, and a byte
 * order mark where a document starts is dropped on reading (`"\uFEFF- x"` read back as the list `[x]`).
 */
function quoteByteOrderMarks(doc: Document): void {
  const yaml = yamlLibrary();
  yaml.visit(doc, {
    Scalar: (_, node) => {
      if (typeof node.value === 'string' && node.value.includes('\uFEFF')) node.type = 'QUOTE_DOUBLE';
    },
  });
}

function readDocuments<V>(text: string, sink: ViewSink<V>): V[] {
  refuseManyDocuments(text); // before the library parses anything
  // Lines are counted only for a reason: a LineCounter would cost every payload about a tenth more.
  const position = (offset: number): string => lineColumn(text, offset);
  const parsed = parseUntilError(text, PARSE_OPTIONS);
  if ('error' in parsed) {
    const { code, offset, document } = parsed.error;
    parseFailure(code, offset, `${FORMAT} document ${document + 1}`, position);
  }
  const { documents } = parsed;
  // The marker lines bound the documents to one more than the limit; this keeps the limit exact.
  if (documents.length > YAML_MAX_DOCUMENTS) {
    fail('SR3011', `${FORMAT}: more than ${YAML_MAX_DOCUMENTS} documents in the payload`);
  }
  const budget: AliasBudget = { nodes: 0, text: 0 };
  return documents.map((doc, index) => {
    const label = `${FORMAT} document ${index + 1}`;
    const error = doc.errors[0];
    if (error !== undefined) parseFailure(error.code, error.pos[0], label, position);
    return new YamlView(label, position, budget, sink).document(doc);
  });
}

function parseFailure(problem: ErrorCode, offset: number, label: string, position: Position): never {
  const code = problem === 'RESOURCE_EXHAUSTION' ? 'SR3011' : 'SR3010';
  const at = position(offset);
  return fail(code, `${label}: ${PROBLEMS[problem] ?? 'does not parse'} at ${at}`, at);
}
