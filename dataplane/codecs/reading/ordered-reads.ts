// Where one codec reads its payloads: on the event loop when the payload is small (reader-spec.ts,
// INLINE_BYTES) and nothing before it is still being read elsewhere, on the payload readers otherwise. What
// comes after the read (`next`: the ingestion program, or handing the records back) runs in the order the
// payloads came in, so a small payload never overtakes a large one: a codec's records keep their order.
import type { ReadReply, Reader, ReaderSpec } from './reader-spec.js';
import { readerFor } from './reader-spec.js';
import { sharedReaderPool, type ReaderPool } from './reader-pool.js';

export class OrderedReads<R extends ReadReply> {
  readonly #reader: Reader;
  readonly #pool: () => ReaderPool;
  /** Payloads read elsewhere whose `next` has not run yet. */
  #pending = 0;
  /** Settles once the latest payload's `next` has run (not once what `next` started has finished). */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(spec: ReaderSpec, options: { pool?: () => ReaderPool; inlineBytes?: number } = {}) {
    const reader = readerFor(spec);
    this.#reader =
      options.inlineBytes === undefined ? reader : { ...reader, inlineBytes: options.inlineBytes };
    this.#pool = options.pool ?? sharedReaderPool;
  }

  /** Whether `read` would read this payload on the event loop now (a caller may then read it itself). */
  readsInline(payload: Uint8Array): boolean {
    return this.#pending === 0 && payload.byteLength <= this.#reader.inlineBytes;
  }

  read<T>(payload: Uint8Array, inline: () => R, next: (read: R) => T): T | Promise<Awaited<T>> {
    if (this.readsInline(payload)) return next(inline());
    this.#pending += 1;
    const reading = this.#pool().read(this.#reader, payload) as Promise<R>;
    // Boxed, so that the tail waits for `next` to have run but not for a promise it returns.
    const step = this.#tail.then(async () => {
      const read = await reading;
      this.#pending -= 1;
      return { after: next(read) };
    });
    this.#tail = step;
    return step.then((boxed) => boxed.after) as Promise<Awaited<T>>;
  }
}
