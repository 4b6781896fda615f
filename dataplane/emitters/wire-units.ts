// What the emitter's records become on its client's wire: each encoded message is checked when it is
// queued (can it be framed, or sent as one datagram?) and weighed in wire bytes; a batch becomes the
// units of one write when it is written — on TCP/TLS all its frames in one buffer (framing.ts), on UDP
// one datagram per message, or with BATCH and a SYSLOG codec the batch form (batch-units.ts), whose
// members that cannot be carried leave the batch as message errors.
import type { Codec } from '../codecs/codec.js';
import type { GraphSyslogClient } from '../graph/types.js';
import type { MessageError } from '../core/errors.js';
import type { RecordValues } from '../core/values.js';
import { batchUnits } from './batch-units.js';
import type { Batch, EmitterQueue } from './emitter-queue.js';
import {
  datagramError,
  streamFrameError,
  streamFrameLength,
  writeStreamFrames,
  type StreamFraming,
} from './framing.js';

export interface WireUnitsOptions {
  client: GraphSyslogClient;
  codec: Codec;
  /** A BATCH clause: with a SYSLOG codec on UDP, a batch is sent in the batch form. */
  batching: boolean;
  queue: EmitterQueue;
  /** A member the batch form could not carry (SR3030, or the codec's error). */
  onMemberError(record: Readonly<RecordValues>, error: MessageError): void;
}

export class WireUnits {
  readonly #o: WireUnitsOptions;
  /** How a stream frames its messages; undefined on UDP (a message is a datagram). */
  readonly #framing: StreamFraming | undefined;
  readonly #batchForm: boolean;

  constructor(options: WireUnitsOptions) {
    this.#o = options;
    const { client } = options;
    this.#framing = framingOf(client);
    this.#batchForm = client.protocol === 'udp' && options.batching && options.codec.kind === 'syslog';
  }

  /** Why `message` cannot go on this wire (SR3030, SR3031, SR3032), or undefined when it can. */
  check(message: Uint8Array): MessageError | undefined {
    const framing = this.#framing;
    return framing === undefined ? datagramError(message) : streamFrameError(framing, message);
  }

  /** The bytes `message` takes on this wire (its frame on a stream). */
  bytesOf(message: Uint8Array): number {
    const framing = this.#framing;
    return framing === undefined ? message.length : streamFrameLength(framing, message.length);
  }

  /** What one write of `batch` sends (made once per batch content). */
  async of(batch: Batch): Promise<Uint8Array[]> {
    if (batch.units !== undefined) return batch.units;
    const entries = batch.live();
    if (!this.#batchForm) {
      const framing = this.#framing;
      batch.units =
        framing === undefined
          ? entries.map((entry) => entry.message)
          : [writeStreamFrames(framing, entries, batch.bytes)];
      return batch.units;
    }
    const made = await batchUnits(this.#o.codec, entries);
    if (made.failed.length > 0) {
      const failed = new Set(made.failed.map((failure) => failure.entry));
      const before = { records: batch.size, bytes: batch.bytes };
      batch.retain((entry) => !failed.has(entry));
      this.#o.queue.shrunk(before.records - batch.size, before.bytes - batch.bytes);
      for (const { entry, error } of made.failed) this.#o.onMemberError(entry.record, error);
    }
    batch.units = made.units;
    return made.units;
  }
}

function framingOf(client: GraphSyslogClient): StreamFraming | undefined {
  if (client.protocol === 'udp') return undefined;
  return client.protocol === 'tcp' && client.framing === 'non-transparent'
    ? 'non-transparent'
    : 'octet-counted';
}
