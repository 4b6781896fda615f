// A parsed TOML document (smol-toml) as JSON view text or values (view-sink.ts):
// - integers exact (smol-toml gives a bigint beyond 2^53), within I64 ∪ U64 (−2^63 … 2^64 − 1);
// - floats as numbers, inf and nan as the strings "Infinity", "-Infinity", "NaN";
// - dates and times as RFC 3339-style strings in smol-toml's TomlDate form: `1979-05-27T07:32:00.000Z`,
//   `…-07:00` (the offset as written), local `1979-05-27T07:32:00.000`, `1979-05-27`, `07:32:00.000`;
//   always three fractional digits (milliseconds; further digits are cut off).
// smol-toml builds tables without a prototype, so `__proto__` is an ordinary key here.
import { fail, keyPath, keyStep, type PathStep } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';
import type { ViewSink } from './view-sink.js';

/** The integers a TOML payload may hold and a value to write may have: I64 ∪ U64 (−2^63 … 2^64 − 1). */
export const LOWEST = -(2n ** 63n);
export const HIGHEST = 2n ** 64n - 1n;
const DATE = /\d{4}-\d{2}-\d{2}/g;

export class TomlView<V> {
  private readonly path: PathStep[] = [];
  private sourceDates: Set<string> | undefined;

  constructor(
    private readonly source: string,
    private readonly sink: ViewSink<V>,
  ) {}

  value(value: unknown): V {
    switch (typeof value) {
      case 'string':
        return this.sink.string(value);
      case 'number':
        return this.sink.float(value);
      case 'bigint':
        return this.integer(value);
      case 'boolean':
        return this.sink.boolean(value);
      default:
        if (value instanceof Date) return this.date(value);
        if (this.path.length >= MAX_DEPTH) this.fail('SR3011', `nesting deeper than ${MAX_DEPTH}`);
        return Array.isArray(value) ? this.array(value) : this.table(value as Record<string, unknown>);
    }
  }

  private table(table: Record<string, unknown>): V {
    let object = this.sink.object();
    const keys = Object.keys(table);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      this.path.push(keyStep(index));
      object = this.sink.entry(object, key, this.value(table[key]));
      this.path.pop();
    }
    return this.sink.endObject(object);
  }

  private array(array: readonly unknown[]): V {
    let items = this.sink.array();
    for (let index = 0; index < array.length; index += 1) {
      this.path.push(index);
      items = this.sink.item(items, this.value(array[index]));
      this.path.pop();
    }
    return this.sink.endArray(items);
  }

  private integer(value: bigint): V {
    if (value < LOWEST || value > HIGHEST) {
      this.fail('SR3010', 'an integer beyond 64 bits');
    }
    return this.sink.integer(value);
  }

  /**
   * A TomlDate (a JavaScript Date) as its RFC 3339-style text. smol-toml lets `Date` roll an impossible
   * day over (1979-02-30 becomes 1979-03-02), so a date whose text the payload does not hold is refused.
   */
  private date(date: Date): V {
    const text = date.toISOString();
    if (/^\d{4}-/.test(text) && !this.dates().has(text.slice(0, 10))) {
      this.fail('SR3010', 'an invalid date (a day beyond its month)');
    }
    return this.sink.string(text);
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
