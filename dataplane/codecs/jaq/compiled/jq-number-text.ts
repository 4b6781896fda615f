// Numbers as text, as jq 1.8 prints them. jq prints a number it read or parsed as it was written (`1.50`,
// `1E+2`) and one it computed in its own format (`1e+17`, src/jv_dtoa.c); JavaScript has only the double.
import { NeedsEngine } from './jq-errors.js';

/** How jq 1.8 prints a double it computed (src/jv_dtoa.c, jvp_dtoa_fmt): 17 significant digits at most. */
export function doubleText(value: number): string {
  if (Number.isNaN(value)) return 'null';
  if (!Number.isFinite(value)) return value > 0 ? '1.7976931348623157e+308' : '-1.7976931348623157e+308';
  if (value === 0) return '0';
  const [mantissa = '', exponent = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(exponent) + 1;
  const sign = value < 0 ? '-' : '';
  if (point <= -4 || point > digits.length + 15) {
    const power = point - 1;
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0] ?? ''}${fraction}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Per run: whether the input's numbers are all written as JavaScript writes them (see numberText). */
export const inputNumbers = {
  text: undefined as string | undefined,
  plain: undefined as boolean | undefined,
};

/**
 * A number as jq prints it. jq prints a number it read or parsed as it was written (`1.50`, `1E+2`) and
 * one it computed in its own format (`1e+17`); which one a double is, JavaScript does not know. Where the
 * two spellings agree the text is certain; elsewhere the input goes to jq.
 */
export function numberText(value: number | bigint): string {
  if (typeof value === 'bigint') {
    if (!inputNumbersPlain()) throw new NeedsEngine('number_text');
    return value.toString();
  }
  const plain = String(value);
  if (Object.is(value, -0) || plain.includes('e') || doubleText(value) !== plain)
    throw new NeedsEngine('number_text');
  if (!inputNumbersPlain()) throw new NeedsEngine('number_text');
  return plain;
}

const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Whether every number in the input's JSON text is written as JavaScript would write it. */
function inputNumbersPlain(): boolean {
  if (inputNumbers.plain !== undefined) return inputNumbers.plain;
  const text = inputNumbers.text;
  inputNumbers.plain = text === undefined || plainNumbers(text);
  return inputNumbers.plain;
}

function plainNumbers(text: string): boolean {
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x22) at = stringEnd(text, at);
    else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER_TOKEN.lastIndex = at;
      const token = NUMBER_TOKEN.exec(text)?.[0] ?? '';
      at += Math.max(0, token.length - 1);
      if (!plainToken(token)) return false;
    }
  }
  return true;
}

/** The position of the quote that closes the string starting at `at`. */
function stringEnd(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
  return end;
}

function plainToken(token: string): boolean {
  if (token === '-0') return false;
  return !/[.eE]/.test(token) || String(Number(token)) === token;
}
