// Test fixtures of the stream framer (shared by its example and property tests): a run of chunks through a
// fresh framer, and a stream that mixes every form of frame.
import { StreamFramer, type FramingCause } from './stream-framer.js';

export interface FramedOutcome {
  frames: string[];
  emptyFrames: number;
  error: FramingCause | undefined;
  pendingBytes: number;
}

/** Feeds `chunks` to a fresh framer; frames as hex (payloads here are not all UTF-8). */
export function frameAll(chunks: readonly Buffer[], max: number): FramedOutcome {
  const framer = new StreamFramer(max);
  const frames: string[] = [];
  let error: FramingCause | undefined;
  for (const chunk of chunks) {
    const result = framer.push(chunk, (frame) => frames.push(frame.toString('hex')));
    if (result !== undefined) {
      error = result.cause;
      break;
    }
  }
  return { frames, emptyFrames: framer.emptyFrames, error, pendingBytes: framer.pendingBytes };
}

export const hex = (text: string | Buffer): string => Buffer.from(text).toString('hex');
export const octet = (body: Buffer | string): Buffer =>
  Buffer.concat([Buffer.from(`${Buffer.byteLength(body)} `), Buffer.from(body)]);

/** Octet-counted (with the LF inside the count, as rsyslog and syslog-ng send), LF, CR LF, NUL, non-UTF-8. */
export const MIXED = Buffer.concat([
  octet('<34>1 2024-01-01T00:00:00Z host app - - - counted\n'),
  Buffer.from('<13>plain line\n'),
  Buffer.from('<13>crlf line\r\n'),
  Buffer.from('\n'),
  Buffer.from('\r\n'),
  octet(Buffer.from([0x3c, 0x31, 0x33, 0x3e, 0xff, 0xfe, 0x00, 0x80])),
  Buffer.from([0x3c, 0x31, 0x3e, 0xc3, 0x28, 0x00, 0x00, 0x0a]),
  octet('x'),
  Buffer.from('tail without cr\n'),
  octet('1234567890'),
  Buffer.from('\r\r\n'),
]);
