// jq's strings are UTF-8 and counted in code points; JavaScript's are UTF-16. These helpers count, cut and
// split by code point, as jq does (the values hold no lone surrogates: the formats give U+FFFD for them).

/** Code points in a string (jq's `length`). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      length -= 1;
      index += 1;
    }
  }
  return length;
}

/** The code points `from` (inclusive) to `to` (exclusive) of a string. */
export function codePointSlice(text: string, from: number, to: number): string {
  if (text.length === codePointLength(text)) return text.slice(from, to);
  return Array.from(text).slice(from, to).join('');
}

/** `split($s)` and `"a,b" / ","`: an empty text gives no parts; an empty separator, each code point. */
export function splitText(text: string, separator: string): string[] {
  if (text === '') return [];
  if (separator === '') return Array.from(text);
  return text.split(separator);
}

const SPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);

/** jq's trim family: ASCII white space only. */
export function trimText(text: string, start: boolean, end: boolean): string {
  let from = 0;
  let to = text.length;
  while (start && from < to && SPACE.has(text[from] as string)) from += 1;
  while (end && to > from && SPACE.has(text[to - 1] as string)) to -= 1;
  return text.slice(from, to);
}

/** jq's ascii_downcase / ascii_upcase: A–Z and a–z only. */
export function asciiCase(text: string, upper: boolean): string {
  return upper
    ? text.replace(/[a-z]+/g, (run) => run.toUpperCase())
    : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** A string with every lone surrogate as U+FFFD, as jq reads `\ud800` (ES2024's toWellFormed). */
export function wellFormed(text: string): string {
  return (text as unknown as { toWellFormed(): string }).toWellFormed();
}
