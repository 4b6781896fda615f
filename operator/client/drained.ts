// Waiting for a full output to take more: a subscription's lines go to stdout (the CLI) or to an HTTP
// response (the operator's live API), and a reader that does not keep up must slow the streams feeding
// them, not make this process hold what it has not read.
import type { Writable } from 'node:stream';

/** Resolves at once, or once `stream` has drained (or closed). */
export function drained(
  stream: Pick<Writable, 'writableNeedDrain' | 'destroyed' | 'on' | 'off'>,
): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
