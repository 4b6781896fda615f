// A worker thread of the payload readers (reader-pool.ts): reads one payload at a time with the reader its
// spec describes, built once per reader id. Every limit (time, memory) is enforced from outside.
import { parentPort } from 'node:worker_threads';
import { buildReader, type ReadFn } from './payload-readers.js';
import type { ReaderRequest } from './reader-thread.js';

/** Readers of codecs that hot reloads replaced are dropped once there are more than this. */
const KEPT_READERS = 64;

const port = parentPort;
if (port === null) throw new Error('reader-worker runs as a worker thread');
const readers = new Map<number, ReadFn>();

port.on('message', ({ id, readerId, spec, payload }: ReaderRequest) => {
  let read = readers.get(readerId);
  if (read === undefined) {
    if (readers.size >= KEPT_READERS) readers.delete(readers.keys().next().value as number);
    read = buildReader(spec);
    readers.set(readerId, read);
  }
  port.postMessage({ id, reply: read(payload) });
});
port.postMessage('ready');
