// The objects of a domain as the target's SHOW statements list them: one script of every SHOW, whose
// tables (`NAME  …` up to `(N rows)`, the same on a node and on a cluster) are read back in order. The
// shell completes these names and `\d` lists them; `top` takes its rows from them.
import type { ShowTarget } from '../language/ast.js';
import { CapturedOutput, type StatementTarget } from './statement-target.js';

/** An object SHOW lists: its kind, its name as SHOW prints it, and SHOW's other columns by header. */
export interface ListedObject {
  kind: ShowTarget;
  name: string;
  columns: Record<string, string>;
}

/** Every SHOW, in the order the script runs them, with the words that name one object of the kind. */
export const SHOWN_KINDS: readonly { kind: ShowTarget; plural: string; words: string }[] = [
  { kind: 'Schema', plural: 'SCHEMAS', words: 'SCHEMA' },
  { kind: 'WireSchema', plural: 'WIRE JSON SCHEMAS', words: 'WIRE JSON SCHEMA' },
  { kind: 'Codec', plural: 'CODECS', words: 'CODEC' },
  { kind: 'Resource', plural: 'RESOURCES', words: 'RESOURCE' },
  { kind: 'Relay', plural: 'RELAYS', words: 'RELAY' },
  { kind: 'Vhost', plural: 'VHOSTS', words: 'VHOST' },
  { kind: 'Endpoint', plural: 'ENDPOINTS', words: 'ENDPOINT' },
  { kind: 'Client', plural: 'CLIENTS', words: 'CLIENT' },
  { kind: 'Ingestor', plural: 'INGESTORS', words: 'INGESTOR' },
  { kind: 'Junction', plural: 'JUNCTIONS', words: 'JUNCTION' },
  { kind: 'Correlator', plural: 'CORRELATORS', words: 'CORRELATOR' },
  { kind: 'Emitter', plural: 'EMITTERS', words: 'EMITTER' },
];

/** SHOW for each kind asked (all by default), as one script. */
export function showScript(kinds: readonly ShowTarget[] = SHOWN_KINDS.map((each) => each.kind)): string {
  return SHOWN_KINDS.filter((each) => kinds.includes(each.kind))
    .map((each) => `SHOW ${each.plural};`)
    .join(' ');
}

/**
 * The objects of the target's domain of the kinds asked; throws when the target cannot be reached, and
 * gives none when the script failed (its diagnostics are not the caller's to print).
 */
export async function listObjects(
  target: StatementTarget,
  kinds: readonly ShowTarget[] = SHOWN_KINDS.map((each) => each.kind),
): Promise<ListedObject[]> {
  const captured = new CapturedOutput();
  const ordered = SHOWN_KINDS.filter((each) => kinds.includes(each.kind)).map((each) => each.kind);
  if (!(await target.run(showScript(ordered), '<shell>', captured))) return [];
  const tables = readTables(captured.stdout);
  if (tables.length !== ordered.length) return [];
  return tables.flatMap((rows, index) =>
    rows.map((columns) => ({ kind: ordered[index] ?? 'Schema', name: columns['NAME'] ?? '', columns })),
  );
}

/**
 * The tables in SHOW output, each as rows of cells by header. A table starts at a line whose first cell
 * is `NAME` and ends at `(N rows)`; cells are separated by two spaces or more (names hold none).
 */
export function readTables(text: string): Record<string, string>[][] {
  const tables: Record<string, string>[][] = [];
  let header: string[] | undefined;
  let rows: Record<string, string>[] = [];
  for (const line of text.split('\n')) {
    if (header === undefined) {
      if (/^NAME(\s{2,}|$)/.test(line)) header = cellsOf(line);
      continue;
    }
    if (/^\(\d+ rows?\)$/.test(line)) {
      tables.push(rows);
      header = undefined;
      rows = [];
      continue;
    }
    const cells = cellsOf(line);
    rows.push(Object.fromEntries((header ?? []).map((title, index) => [title, cells[index] ?? ''])));
  }
  return tables;
}

function cellsOf(line: string): string[] {
  return line.trimEnd().split(/\s{2,}/);
}
