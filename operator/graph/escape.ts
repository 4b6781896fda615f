// Text from the domain (names, hostnames, paths, addresses: a cluster's objects may hold anything the
// CRDs let through) inside DOT and Mermaid. Each function returns the text that the renderer shows as
// exactly `text`, line breaks included; the tests put hostile strings through `dot` and mermaid's own
// parser and read them back.

/** A control character other than a line break, shown as `\xNN` rather than passed to the renderer. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/gu;
const controlText = (char: string): string => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Lines as the text of one label: each line's own breaks (`\r\n`, `\r`, `\n`) become lines too. */
function splitLines(lines: readonly string[]): string[] {
  return lines.flatMap((line) => line.replace(CONTROL, controlText).split(/\r\n|\r|\n/u));
}

/**
 * A DOT double-quoted string whose label text is the lines. Backslash and quote are escaped for the
 * lexer, `&` is written as `&amp;` (Graphviz decodes entities in every label), and lines are joined with
 * `\n` (a centred break).
 */
export function dotLabel(lines: readonly string[]): string {
  return `"${splitLines(lines).map(dotText).join('\\n')}"`;
}

/** A DOT double-quoted ID (not a label: no entity or escape sequence is read in it but `\"`). */
export function dotId(id: string): string {
  return `"${id.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

function dotText(line: string): string {
  return line.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('&', '&amp;');
}

/**
 * A Mermaid quoted label (`"…"`) showing the lines. Mermaid reads `#name;` and `#123;` as entities and
 * renders labels as HTML, so every character that means something to it or to HTML is written as its
 * numeric entity: quote, `#`, `&`, `<`, `>`, backslash, backtick (a markdown string), `|`, braces and
 * brackets; and `ﬂ` and `¶`, which start and end mermaid's own entity markers. Whitespace at either end of a line,
 * which mermaid trims, is written as entities too. Lines are joined with `<br>`.
 */
export function mermaidLabel(lines: readonly string[]): string {
  const text = splitLines(lines).map(mermaidText).join('<br>');
  // Mermaid refuses an empty string: an empty label is drawn as one space.
  return `"${text === '' ? '#32;' : text}"`;
}

const MERMAID_SPECIAL = /["#&<>\\`|{}[\]();ﬂ¶]/gu;
const EDGE_SPACE = /^\s+|\s+$/gu;

const entity = (text: string): string => [...text].map((char) => `#${char.codePointAt(0) ?? 0};`).join('');

function mermaidText(line: string): string {
  return line.replace(MERMAID_SPECIAL, entity).replace(EDGE_SPACE, entity);
}
