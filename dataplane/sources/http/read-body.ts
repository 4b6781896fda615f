// Reading one request body with a byte limit, as it arrives: the limit is checked on every chunk, so an
// oversized body stops being read at the first chunk that crosses it (the caller answers 413 and closes
// the connection). A body that arrives whole in one chunk is handed on without copying.
//
//   reading ─data (total ≤ limit)→ reading
//   reading ─data (total > limit)→ too_large   (paused; the rest is never read)
//   reading ─end→ complete
//   reading ─close before end→ aborted          (the client went away)
//
// The handlers are module functions and the state hangs off the request, so reading a body allocates
// one small object and no closures.
import type { IncomingMessage } from 'node:http';

export type BodyOutcome =
  | { kind: 'complete'; body: Uint8Array }
  /** Stopped at the chunk that crossed the limit; the request is paused and the rest never read. */
  | { kind: 'too_large'; bytesRead: number }
  /** The client went away before the body ended. */
  | { kind: 'aborted'; bytesRead: number };

/** Told exactly once how reading ended; `context` is what the caller passed to `readBody`. */
export interface BodySink<C> {
  bodyRead(context: C, outcome: BodyOutcome): void;
}

/** The body length the client declared, or undefined (chunked, or none). Node rejects malformed values. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/** Whether the request carries a body (Content-Length > 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = declaredLength(req);
  return length !== undefined ? length > 0 : req.headers['transfer-encoding'] !== undefined;
}

const kReading = Symbol('streamroute.reading');

class Reading<C> {
  first: Buffer | undefined;
  rest: Buffer[] | undefined;
  size = 0;
  settled = false;

  constructor(
    readonly limit: number,
    readonly sink: BodySink<C>,
    readonly context: C,
  ) {}

  settle(outcome: BodyOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.sink.bodyRead(this.context, outcome);
  }
}

type ReadingRequest = IncomingMessage & { [kReading]: Reading<unknown> };

export function readBody<C>(req: IncomingMessage, limit: number, sink: BodySink<C>, context: C): void {
  (req as ReadingRequest)[kReading] = new Reading(limit, sink, context);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
}

function onData(this: ReadingRequest, chunk: Buffer): void {
  const reading = this[kReading];
  reading.size += chunk.length;
  if (reading.size > reading.limit) {
    this.off('data', onData);
    this.pause();
    reading.settle({ kind: 'too_large', bytesRead: reading.size });
  } else if (reading.first === undefined) reading.first = chunk;
  else (reading.rest ??= [reading.first]).push(chunk);
}

function onEnd(this: ReadingRequest): void {
  const { first, rest, size } = this[kReading];
  const body = rest !== undefined ? Buffer.concat(rest, size) : (first ?? EMPTY);
  this[kReading].settle({ kind: 'complete', body });
}

function onClose(this: ReadingRequest): void {
  this[kReading].settle({ kind: 'aborted', bytesRead: this[kReading].size });
}

const EMPTY = new Uint8Array(0);
