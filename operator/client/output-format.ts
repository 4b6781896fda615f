// `-o table|wide|json|yaml`, as kubectl's: `table` is the text people read (what the commands always
// printed), `wide` adds columns where there are more to show, `json` and `yaml` print one document with
// the same data, for scripts. Every document starts with `apiVersion` (OUTPUT_API_VERSION) and `kind`;
// its own fields come in a fixed order and the resources in it with their keys sorted, so the same state
// always prints the same text (docs/cli.md#output-formats). YAML is loaded only when it is asked for.
import { canonicalJson } from '../api/canonical-json.js';
import type { Output } from './report.js';

export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The version of every JSON and YAML document the CLI prints. Within it fields are only added, never
 * renamed, removed or given another type; a change that breaks that is a new version.
 */
export const OUTPUT_API_VERSION = 'streamroute.io/cli/v1';

/** Whether stdout carries one document (json, yaml) rather than text. */
export function isDocumentFormat(format: OutputFormat): format is 'json' | 'yaml' {
  return format === 'json' || format === 'yaml';
}

/** A value with every object's keys sorted (a resource, a status): the same state, the same text. */
export function sortedKeys(value: unknown): unknown {
  return JSON.parse(canonicalJson(value) ?? 'null') as unknown;
}

/** A document: `apiVersion` and `kind` first, then `fields` in the order given. */
export function outputDocument(kind: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: OUTPUT_API_VERSION, kind, ...fields };
}

/** The document as text: JSON indented by two, or YAML; both end with a newline. */
export async function documentText(document: unknown, format: 'json' | 'yaml'): Promise<string> {
  // Through JSON first: the YAML then holds exactly the JSON's data (no anchors for shared objects, no
  // undefined fields), which the tests check property by property.
  const plain = JSON.parse(JSON.stringify(document)) as unknown;
  if (format === 'json') return `${JSON.stringify(plain, null, 2)}\n`;
  const { Document, visit } = await import('yaml');
  // compat: scalars that YAML 1.1 readers (PyYAML, kubectl's) would read otherwise are quoted (`yes`, `on`).
  const document_ = new Document(plain, { compat: 'yaml-1.1' });
  // yaml 2.9 writes " \n" as a block scalar whose only line is spaces, which reads back as "\n": a string
  // with a line of nothing but blanks is written double-quoted instead (the property test found it).
  visit(document_, {
    Scalar: (_key, node) => {
      if (typeof node.value === 'string' && BLANK_LINE.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return document_.toString({ lineWidth: 0, doubleQuotedAsJSON: true });
}

/** A line of spaces and tabs only, in a string of more than one line. */
const BLANK_LINE = /(^|\n)[ \t]+(\n|$)/u;

export async function printDocument(
  document: unknown,
  format: 'json' | 'yaml',
  output: Output,
): Promise<void> {
  output.out(await documentText(document, format));
}

/** What a table-printing command writes to stdout goes to stderr while stdout carries a document. */
export function besideDocument(output: Output, format: OutputFormat): Output {
  return isDocumentFormat(format)
    ? { out: (text) => output.err(text), err: (text) => output.err(text) }
    : output;
}
