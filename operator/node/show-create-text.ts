// What SHOW CREATE prints: the object's canonical statement, and for a codec with JAQ programs a comment
// line per program saying which engine runs it (decision 0028): compiled to JavaScript, or jq-wasm with
// the first construct outside the compiled subset. Comments keep the text a statement that runs as is.
import type { DisplayNames } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { printObject } from '../language/print.js';
import { programPath } from '../../dataplane/codecs/jaq/program-path.js';

export function showCreateText(object: GraphObject, names: DisplayNames): string {
  return [printObject(object, { names }), ...programNotes(object)].join('\n');
}

function programNotes(object: GraphObject): string[] {
  if (object.kind !== 'Codec') return [];
  const jaq = (object.spec as { jaq?: { ingestion: string; emitting?: string } }).jaq;
  if (jaq === undefined) return [];
  const notes = [`-- ON INGESTION: ${programPath(jaq.ingestion)}`];
  if (jaq.emitting !== undefined) notes.push(`-- ON EMITTING: ${programPath(jaq.emitting)}`);
  return notes;
}
