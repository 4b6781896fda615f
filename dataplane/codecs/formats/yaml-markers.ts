// The cap on documents per YAML payload (YAML_MAX_DOCUMENTS), checked in one cheap pass before the yaml
// library parses anything: every document is one jq input, and the library would build each one first.
// The pass counts document marker lines: `---` or `...` at the start of a line. YAML lets no such line
// stand inside a scalar (YAML 1.2 chapter 9, c-forbidden; the yaml library ends the document there), and
// every document after the first starts at one, so the count bounds the documents the library finds to
// one more (yaml-markers.test.ts checks this as a property). The count looks at lines, not at YAML
// structure, so it over-states the documents where one boundary takes two markers (a `...` line, then a
// comment or blank line, then `---`), and a payload may then be refused with fewer documents than the
// limit (docs/codec-formats.md, "Limits").
import { fail, lineColumn } from './format-failure.js';
import { YAML_MAX_DOCUMENTS } from './format-limits.js';

/**
 * A document marker line: `---` (a document starts) or `...` (a document ends) at the start of a line,
 * then a blank, a line break or the end of the text. A `...` line right before a `---` line is the one
 * boundary between two documents and counts once with it.
 */
const MARKER = /^(?:\.\.\.[ \t]*\r?\n(?=---(?:[ \t\r\n]|$)))?(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm;

/** Refuses (SR3011) a payload with more than YAML_MAX_DOCUMENTS document marker lines. */
export function refuseManyDocuments(text: string): void {
  const { count, at } = countMarkers(text, YAML_MAX_DOCUMENTS);
  if (count > YAML_MAX_DOCUMENTS) {
    fail(
      'SR3011',
      `YAML: more than ${YAML_MAX_DOCUMENTS} documents in the payload (more than ${YAML_MAX_DOCUMENTS} --- or ... lines; the first over the limit at ${lineColumn(text, at)})`,
    );
  }
}

/**
 * The document marker lines of `text`, counted up to one more than `limit` (the count stops there, so
 * the pass ends early on a payload of markers): how many, and the offset of the last one counted (-1 if
 * none).
 */
export function countMarkers(text: string, limit: number): { count: number; at: number } {
  MARKER.lastIndex = 0;
  let count = 0;
  let at = -1;
  for (let match = MARKER.exec(text); match !== null; match = MARKER.exec(text)) {
    count += 1;
    at = match.index;
    if (count > limit) break;
  }
  return { count, at };
}
