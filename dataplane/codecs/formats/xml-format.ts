// XML payloads (XML 1.0 in UTF-8, with fast-xml-parser): one document is one input. Reading checks, in
// order: strict UTF-8, only characters XML allows, the DOCTYPE rules (xml-text.ts: at most one, in the
// prolog, without an internal subset — SR3011, so no entity is ever declared or expanded), well-formedness
// (fast-xml-parser's validator), then parses in document order with every value left as text (no number
// or boolean coercion) and maps the tree with xml-view.ts. Writing is xml-write.ts. Decisions:
// docs/decisions/0010-xml-json-view.md, docs/codec-formats.md.
import { messageError } from '../../core/errors.js';
import type { JsonValue } from '../json-value.js';
import { fail, guarded, lineColumn } from './format-failure.js';
import { xmlLibrary } from './format-libraries.js';
import { MAX_DEPTH } from './format-limits.js';
import type { PayloadFormat, ReadResult, ValuesResult, WriteResult } from './payload-format.js';
import { payloadText } from './utf8-text.js';
import { checkWritable } from './view-text.js';
import { TEXT_SINK, VALUE_SINK, type ViewSink } from './view-sink.js';
import { checkDoctype, notXmlCharOffset, textAfterSelfClosingRoot } from './xml-text.js';
import { NAME_MARK, XmlView, type OrderedNode } from './xml-view.js';
import { xmlDocument } from './xml-write.js';

const FORMAT = 'XML';
const encoder = new TextEncoder();
const READ_FAILED = messageError('SR3010', `${FORMAT}: the payload does not parse`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);

let parser: InstanceType<typeof import('fast-xml-parser').XMLParser> | undefined;

/** The parser, made on the first XML payload. */
function xmlParser(): InstanceType<typeof import('fast-xml-parser').XMLParser> {
  parser ??= new (xmlLibrary().XMLParser)({
    preserveOrder: true, // text and elements in document order, so mixed content can be joined
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    cdataPropName: '#cdata', // CDATA apart from text: references inside it must not be decoded
    parseTagValue: false, // never `01234` → 1234 or `true` → true: every value stays text
    parseAttributeValue: false,
    trimValues: false,
    processEntities: false, // references are decoded by xml-text.ts: predefined and numeric ones only
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: MAX_DEPTH,
    jPath: false,
    // The parser refuses names such as `constructor` (its own objects could be polluted); marked names
    // never clash, and xml-view.ts takes the mark off.
    transformTagName: (name: string) => NAME_MARK + name,
  });
  return parser;
}

/** What the validator's error codes mean, without its messages (which quote names and characters). */
const PROBLEMS: Record<string, string> = {
  InvalidXml: 'not well-formed XML',
  InvalidTag: 'a malformed or unmatched tag',
  InvalidAttr: 'a malformed or repeated attribute',
  InvalidChar: 'an unexpected character',
};

export const xmlFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(
      FORMAT,
      () => ({ inputs: [readDocument(payloadText(FORMAT, payload), TEXT_SINK)] }),
      READ_FAILED,
    );
  },

  readValues(payload: Uint8Array): ValuesResult {
    // Strings are well-formed: XML's Char rule refuses a lone surrogate, raw or referenced.
    return guarded(
      FORMAT,
      () => ({ values: [readDocument(payloadText(FORMAT, payload), VALUE_SINK)] }),
      READ_FAILED,
    );
  },

  write(value: JsonValue): WriteResult {
    return guarded(
      FORMAT,
      () => {
        checkWritable(FORMAT, value);
        return { bytes: encoder.encode(xmlDocument(value)) };
      },
      WRITE_FAILED,
    );
  },
};

function readDocument<V>(text: string, sink: ViewSink<V>): V {
  const position = (offset: number): string => lineColumn(text, offset);
  const bad = notXmlCharOffset(text);
  if (bad !== -1)
    fail('SR3010', `${FORMAT}: a character XML does not allow at ${position(bad)}`, position(bad));
  checkDoctype(text, position);
  const valid = xmlLibrary().XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) {
    const { code, line, col } = valid.err as { code: string; line: number; col?: number };
    const at = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    fail('SR3010', `${FORMAT}: ${PROBLEMS[code] ?? 'not well-formed XML'} at ${at}`, at);
  }
  const extra = textAfterSelfClosingRoot(text);
  if (extra !== -1)
    fail('SR3010', `${FORMAT}: content after the root element at ${position(extra)}`, position(extra));
  return new XmlView(sink).document(parse(text));
}

function parse(text: string): OrderedNode[] {
  try {
    return xmlParser().parse(text) as OrderedNode[];
  } catch (error: unknown) {
    // After validation, the parser fails only past maxNestedTags (it has no error codes to test).
    const deep = error instanceof Error && error.message.includes('nested');
    return fail(
      deep ? 'SR3011' : 'SR3010',
      `${FORMAT}: ${deep ? `elements nested deeper than ${MAX_DEPTH}` : 'does not parse'}`,
    );
  }
}
