// A parsed TOML document (smol-toml) as JSON view text:
// - integers exact (smol-toml gives a bigint beyond 2^53), within I64 ∪ U64 (−2^63 … 2^64 − 1);
// - floats as numbers, inf and nan as the strings "Infinity", "-Infinity", "NaN";
// - dates and times as RFC 3339-style strings in smol-toml's TomlDate form: `1979-05-27T07:32:00.000Z`,
//   `…-07:00` (the offset as written), local `1979-05-27T07:32:00.000`, `1979-05-27`, `07:32:00.000`;
//   always three fractional digits (milliseconds; further digits are cut off).
// smol-toml builds tables without a prototype, so `__proto__` is an ordinary key here.
import { fail, keyPath, keyStep, type PathStep } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';
import { floatText } from './view-text.js';

/** The integers a TOML payload may hold and a value to write may have: I64 ∪ U64 (−2^63 … 2^64 − 1). */
export const LOWEST = -(2n ** 63n);
export const HIGHEST = 2n ** 64n - 1n;
const DATE = /\d{4}-\d{2}-\d{2}/g;

export class TomlView {
  private readonly path: PathStep[] = [];
  private sourceDates: Set<string> | undefined;

  constructor(private readonly source: string) {}

  value(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value);
      case 'number':
        return floatText(value);
      case 'bigint':
        return this.integer(value);
      case 'boolean':
        return value ? 'true' : 'false';
      default:
        if (value instanceof Date) return this.date(value);
        if (this.path.length >= MAX_DEPTH) this.fail('SR3011', `nesting deeper than ${MAX_DEPTH}`);
        return Array.isArray(value) ? this.array(value) : this.table(value as Record<string, unknown>);
    }
  }

  private table(table: Record<string, unknown>): string {
    let text = '';
    const keys = Object.keys(table);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      this.path.push(keyStep(index));
      text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${this.value(table[key])}`;
      this.path.pop();
    }
    return `{${text}}`;
  }

  private array(array: readonly unknown[]): string {
    const items = array.map((item, index) => {
      this.path.push(index);
      const text = this.value(item);
      this.path.pop();
      return text;
    });
    return `[${items.join(',')}]`;
  }

  private integer(value: bigint): string {
    if (value < LOWEST || value > HIGHEST) {
      this.fail('SR3010', 'an integer beyond 64 bits');
    }
    return value.toString();
  }

  /**
   * A TomlDate (a JavaScript Date) as its RFC 3339-style text. smol-toml lets `Date` roll an impossible
   * day over (1979-02-30 becomes 1979-03-02), so a date whose text the payload does not hold is refused.
   */
  private date(date: Date): string {
    const text = date.toISOString();
    if (/^\d{4}-/.test(text) && !this.dates().has(text.slice(0, 10))) {
      this.fail('SR3010', 'an invalid date (a day beyond its month)');
    }
    return JSON.stringify(text);
  }

  private fail(code: 'SR3010' | 'SR3011', problem: string): never {
    const at = keyPath(this.path);
    return fail(code, `TOML: ${problem} at ${at}`, at);
  }

  private dates(): Set<string> {
    this.sourceDates ??= new Set(this.source.match(DATE));
    return this.sourceDates;
  }
}
