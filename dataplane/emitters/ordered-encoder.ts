// Encoding in arrival order (docs/syslog-wire.md, "Emitters": records are written in the order the relay gave
// them). A codec may answer with a promise (a JAQ program in WebAssembly), and promises may settle in any
// order, so a record whose encoding finished waits for every record taken before it; synchronous results
// ahead of nothing go straight through, which keeps the common SYSLOG codec path free of promises. A codec
// that throws or rejects is a defect: the record becomes SR3009, like a refused payload.
import type { Codec, EncodeResult } from '../codecs/codec.js';
import { messageError } from '../core/errors.js';
import type { RecordValues } from '../core/values.js';

export type OnEncoded = (record: Readonly<RecordValues>, result: EncodeResult) => void;

interface Slot {
  record: Readonly<RecordValues>;
  result: EncodeResult | undefined;
}

const DEFECT: EncodeResult = {
  error: messageError('SR3009', 'the codec failed unexpectedly while encoding'),
};
const CANNOT: EncodeResult = { error: messageError('SR3008', 'the codec cannot encode') };

export class OrderedEncoder {
  readonly #codec: Codec;
  readonly #onEncoded: OnEncoded;
  #slots: Slot[] = [];
  #head = 0;
  #epoch = 0;

  constructor(codec: Codec, onEncoded: OnEncoded) {
    this.#codec = codec;
    this.#onEncoded = onEncoded;
  }

  /** Records taken and not yet handed on (encoding, or waiting for one ahead). */
  get pending(): number {
    return this.#slots.length - this.#head;
  }

  push(record: Readonly<RecordValues>): void {
    let result: EncodeResult | Promise<EncodeResult>;
    try {
      result = this.#codec.encode?.(record) ?? CANNOT;
    } catch {
      result = DEFECT;
    }
    if (!(result instanceof Promise)) {
      if (this.pending === 0) this.#onEncoded(record, result);
      else this.#slots.push({ record, result });
      return;
    }
    const slot: Slot = { record, result: undefined };
    this.#slots.push(slot);
    const epoch = this.#epoch;
    result.then(
      (settled) => this.#settle(epoch, slot, settled),
      () => this.#settle(epoch, slot, DEFECT),
    );
  }

  /** Forgets every pending record (their encodings are ignored when they finish); returns how many. */
  clear(): number {
    const count = this.pending;
    this.#slots = [];
    this.#head = 0;
    this.#epoch++;
    return count;
  }

  #settle(epoch: number, slot: Slot, result: EncodeResult): void {
    if (epoch !== this.#epoch) return;
    slot.result = result;
    for (let front = this.#slots[this.#head]; front?.result !== undefined; front = this.#slots[this.#head]) {
      this.#slots[this.#head] = undefined as unknown as Slot;
      this.#head++;
      this.#onEncoded(front.record, front.result);
    }
    if (this.#head === this.#slots.length) {
      this.#slots = [];
      this.#head = 0;
    }
  }
}
