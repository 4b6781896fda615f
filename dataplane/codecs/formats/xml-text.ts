// Character-level rules of the XML format (XML 1.0, fifth edition), shared by reading and writing:
// names, the characters XML allows, the five predefined entities and character references (the only
// references a payload may use: no DTD is processed), escaping, and the DOCTYPE check that keeps entity
// declarations out before any parser sees them (and allows one DOCTYPE, in the prolog, in linear time).
import { fail } from './format-failure.js';

// The Name production, as fast-xml-parser's validator checks it (the Basic Multilingual Plane only), so
// every name we write can be read back.
const NAME_START =
  ':A-Za-z_\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const NAME_CHAR = `${NAME_START}\\-.\\d\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
const NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`);

/** Characters outside XML's Char production (lone surrogates included). */
const NOT_XML_CHAR =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z_:][-A-Za-z0-9._:]*));/y;
/** A Map, not an object: `&constructor;` must not find Object.prototype.constructor. */
const PREDEFINED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
};

export function isXmlName(name: string): boolean {
  return NAME.test(name);
}

/** Offset of the first character XML does not allow; -1 if none. */
export function notXmlCharOffset(text: string): number {
  return text.search(NOT_XML_CHAR);
}

/**
 * Text with its references replaced (`&lt;` → `<`, `&#x41;` → `A`). A `&` that starts no reference, a
 * named entity other than the five predefined ones, or a reference to a character XML does not allow is
 * SR3010 in `element` (an element path of positions such as `/*[1]/*[3]`).
 */
export function decodeReferences(raw: string, element: () => string): string {
  let text = '';
  let from = 0;
  for (let at = raw.indexOf('&'); at !== -1; at = raw.indexOf('&', from)) {
    REFERENCE.lastIndex = at;
    const match = REFERENCE.exec(raw);
    if (match === null)
      fail('SR3010', `XML: a '&' that starts no entity or character reference in ${element()}`, element());
    text += raw.slice(from, at) + referenced(match, element);
    from = REFERENCE.lastIndex;
  }
  return text + raw.slice(from);
}

function referenced([, hex, decimal, name]: RegExpExecArray, element: () => string): string {
  if (name !== undefined) {
    const char = PREDEFINED.get(name);
    if (char === undefined) {
      fail(
        'SR3010',
        `XML: an undefined entity in ${element()} (only amp, lt, gt, quot and apos are predefined)`,
        element(),
      );
    }
    return char;
  }
  const code = hex !== undefined ? parseInt(hex, 16) : parseInt(decimal ?? '', 10);
  const char = code <= 0x10ffff ? String.fromCodePoint(code) : '\u0000';
  if (notXmlCharOffset(char) !== -1)
    fail('SR3010', `XML: a reference to a character XML does not allow in ${element()}`, element());
  return char;
}

/** An attribute value as XML normalizes it: each raw tab, line feed or carriage return is a space. */
export function normalizeAttribute(raw: string): string {
  return raw.replace(/[\t\n\r]/g, ' ');
}

export function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (char) => TEXT_ESCAPES[char] ?? char);
}

/** Escapes tabs and line breaks too, which attribute normalization would otherwise turn into spaces. */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

const DOCTYPE = '<!DOCTYPE';

/**
 * The DOCTYPE rules, in one pass over the text. A document has at most one DOCTYPE, in the prolog before
 * the root element (XML 1.0 §2.8), so only the first markup after the XML declaration, comments and PIs
 * can be one. That one is refused when it has an internal subset (`<!DOCTYPE a [ ... ]>`), where entity
 * declarations live (SR3011: none are ever expanded, so a "billion laughs" or an external entity cannot
 * start), or when it is never closed (SR3010); otherwise it is ignored. Any other `<!DOCTYPE` outside
 * comments, CDATA sections and PIs is SR3010. Each character is looked at a bounded number of times, so a
 * payload of many `<!DOCTYPE`s costs no more than any other; the text is scanned only when it contains
 * `<!DOCTYPE` at all.
 */
export function checkDoctype(text: string, position: (offset: number) => string): void {
  if (!text.includes(DOCTYPE)) return;
  let from = 0;
  const first = firstTagAfterComments(text);
  if (first !== -1 && text.startsWith(DOCTYPE, first)) {
    const end = subsetOrEnd(text, first);
    if (text[end] === '[') {
      fail(
        'SR3011',
        `XML: a DOCTYPE with an internal subset (entity declarations are refused) at ${position(first)}`,
        position(first),
      );
    }
    if (end === -1)
      fail('SR3010', `XML: a DOCTYPE that is never closed at ${position(first)}`, position(first));
    from = end + 1;
  }
  const other = nextDoctype(text, from);
  if (other !== -1) {
    fail(
      'SR3010',
      `XML: a DOCTYPE after the prolog or after another DOCTYPE (a document has at most one, before the root element) at ${position(other)}`,
      position(other),
    );
  }
}

/** Offset of the first `<` that starts neither a comment nor a PI (a DOCTYPE or the root); -1 if none. */
function firstTagAfterComments(text: string): number {
  let at = text.indexOf('<');
  while (at !== -1 && (text.startsWith('<!--', at) || text.startsWith('<?', at))) {
    at = text.indexOf('<', skipMarkup(text, at));
  }
  return at;
}

/** Offset of the first `<!DOCTYPE` from `from` on, outside comments, CDATA sections and PIs; -1 if none. */
function nextDoctype(text: string, from: number): number {
  for (let at = text.indexOf('<', from); at !== -1; at = text.indexOf('<', skipMarkup(text, at))) {
    if (text.startsWith(DOCTYPE, at)) return at;
  }
  return -1;
}

/**
 * Offset of content after a self-closing root element (`<a/>x`) other than white space, comments and PIs;
 * -1 if none. fast-xml-parser's validator misses it there (it does after `</a>`) and its parser drops it.
 */
export function textAfterSelfClosingRoot(text: string): number {
  let at = text.indexOf('<');
  while (at !== -1 && (text.startsWith('<!', at) || text.startsWith('<?', at))) {
    at = text.indexOf('<', skipPrologMarkup(text, at));
  }
  if (at === -1) return -1;
  const end = tagEnd(text, at);
  if (end === -1 || text[end - 1] !== '/') return -1;
  return epilogProblem(text, end + 1);
}

/**
 * Past a comment, PI or DOCTYPE (checkDoctype has refused an internal subset or an unclosed DOCTYPE
 * already; the end of the text all the same if one is not closed, so the scan always moves forward).
 */
function skipPrologMarkup(text: string, at: number): number {
  if (!text.startsWith(DOCTYPE, at)) return skipMarkup(text, at);
  const end = tagEnd(text, at);
  return end === -1 ? text.length : end + 1;
}

/** Offset of the `>` that ends the tag at `at`, skipping quoted attribute values; -1 if none. */
function tagEnd(text: string, at: number): number {
  let quote = '';
  for (let i = at + 1; i < text.length; i += 1) {
    const char = text[i];
    if (quote !== '') quote = char === quote ? '' : quote;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '>') return i;
  }
  return -1;
}

function epilogProblem(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    if (' \t\r\n'.includes(text[at] as string)) at += 1;
    else if (text.startsWith('<!--', at) || text.startsWith('<?', at)) at = skipMarkup(text, at);
    else return at;
  }
  return -1;
}

/** Markup whose content may hold `<!DOCTYPE` as plain text: comments, CDATA sections, PIs. */
const OPAQUE: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
];

/** Where scanning continues after the markup at `at`: past a comment, CDATA section or PI. */
function skipMarkup(text: string, at: number): number {
  const pair = OPAQUE.find(([open]) => text.startsWith(open, at));
  if (pair === undefined) return at + 1;
  const end = text.indexOf(pair[1], at + pair[0].length);
  return end === -1 ? text.length : end + pair[1].length;
}

/** Offset of the first `[` or `>` of the DOCTYPE at `at`, outside quoted literals; -1 if none. */
function subsetOrEnd(text: string, at: number): number {
  let quote = '';
  for (let i = at + DOCTYPE.length; i < text.length; i += 1) {
    const char = text[i];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '[' || char === '>') {
      return i;
    }
  }
  return -1;
}
