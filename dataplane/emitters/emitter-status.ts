// What an emitter shows (DESCRIBE EMITTER, the admin API): its state, the transient error while it
// retries, what it holds, and counters since it was made. Times are on the emitter's clock (ms).

export interface EmitterStats {
  recordsSent: number;
  /** Frames on a stream, datagrams on UDP (a batch form is one). */
  framesSent: number;
  bytesSent: number;
  /** Socket writes (stream) or datagram sends (UDP). */
  writes: number;
  connects: number;
  connectFailures: number;
  writeFailures: number;
  retriedBatches: number;
  messageErrors: number;
  droppedQueueFull: number;
}

export interface EmitterStatus {
  state: 'Starting' | 'Running' | 'Retrying' | 'Stopped';
  /** The transient error (ECONNREFUSED, ENOTFOUND, ETIMEDOUT, CERT_HAS_EXPIRED, …): host:port and cause. */
  error: { code: string; message: string } | null;
  /** When the error was first seen since the last successful write. */
  since: number | null;
  /** The wait before the next attempt, while Retrying. */
  backoffMs: number | null;
  queuedRecords: number;
  queuedBytes: number;
  stats: EmitterStats;
}

export function emptyStats(): EmitterStats {
  return {
    recordsSent: 0,
    framesSent: 0,
    bytesSent: 0,
    writes: 0,
    connects: 0,
    connectFailures: 0,
    writeFailures: 0,
    retriedBatches: 0,
    messageErrors: 0,
    droppedQueueFull: 0,
  };
}
