// How the canonical printer spells single values: identifiers, strings, JAQ programs, hostnames,
// resource versions and CONFIG blocks (docs/statement-mapping.md).
import { HOSTNAME_PATTERN } from '../api/kinds/vhost.js';
import { nameToIdentifier } from '../api/names.js';

/** Lines wider than this break a CONFIG block into one entry per line. */
const CONFIG_INLINE_WIDTH = 100;
const JAQ_DELIMITER = '$jaq$';
/** A valid hostname (the Vhost pattern) is written bare; the grammar reads every one of them. */
const PLAIN_HOSTNAME = new RegExp(HOSTNAME_PATTERN);

export function identifier(name: string): string {
  return nameToIdentifier(name);
}

export function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * `'…'` for a one-line program without quotes; `$jaq$…$jaq$` (raw, exact) otherwise, unless the text
 * holds the delimiter or ends so that the closing delimiter would be found too early.
 */
export function jaqProgram(text: string): string {
  const plain = !text.includes("'") && !/[\r\n]/.test(text);
  if (plain) return quote(text);
  const closesAtEnd = `${text}${JAQ_DELIMITER}`.indexOf(JAQ_DELIMITER) === text.length;
  return closesAtEnd ? `${JAQ_DELIMITER}${text}${JAQ_DELIMITER}` : quote(text);
}

export function hostname(host: string): string {
  return PLAIN_HOSTNAME.test(host) ? host : quote(host);
}

export function resourceVersion(version: number | string): string {
  return typeof version === 'number' ? integer(version) : version === 'LATEST' ? 'LATEST' : quote(version);
}

/** All digits, also for integers so large that String() would write them as `1e+21`. */
export function integer(value: number): string {
  return Number.isInteger(value) ? BigInt(value).toString() : String(value);
}

export type ConfigValue = string | number;

/**
 * `CONFIG { 'key' = 'value', … }` on one line when it fits, else one entry per line, indented under
 * the clause that opens it.
 */
export function configBlock(entries: readonly (readonly [string, ConfigValue])[], indent: string): string[] {
  const parts = entries.map(([key, value]) => `${quote(key)} = ${configValue(value)}`);
  const inline = `CONFIG { ${parts.join(', ')} }`;
  if (indent.length + inline.length <= CONFIG_INLINE_WIDTH) return [inline];
  return ['CONFIG {', ...parts.map((part, index) => `  ${part}${index < parts.length - 1 ? ',' : ''}`), '}'];
}

function configValue(value: ConfigValue): string {
  return typeof value === 'number' ? integer(value) : quote(value);
}
