// A codec's decode results handed back in the order its payloads came: a compiled JAQ program answers most
// payloads on the spot, but one whose input it leaves to jq-wasm (or that a payload reader read) answers
// later, and the payloads after it must not overtake it. A result with nothing before it in flight is
// returned as it is, so the usual case costs nothing.
import type { DecodeResult } from '../codec.js';

export class ResultsInOrder {
  #inFlight = 0;
  #tail: Promise<unknown> = Promise.resolve();

  add(result: DecodeResult | Promise<DecodeResult>): DecodeResult | Promise<DecodeResult> {
    if (this.#inFlight === 0 && !(result instanceof Promise)) return result;
    this.#inFlight += 1;
    const ordered = this.#tail.then(() => result);
    const settled = ordered.finally(() => {
      this.#inFlight -= 1;
    });
    this.#tail = settled.catch(() => undefined);
    return settled;
  }
}
