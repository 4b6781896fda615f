// The datagrams of one UDP batch in the SYSLOG batch form (docs/syslog-wire.md, "Emitters";
// codecs/syslog/syslog-batch.ts). A batch whose form is above the UDP limit (65,507 bytes) is split in two
// halves, each made again, down to single members; a single member whose batch form is still too large is
// SR3030 and is left out (the emitter sends it to ON MESSAGE ERROR). An outer record the codec refuses fails
// its members with that error; a codec that throws or rejects on it is a defect, SR3009 for its members (as
// in ordered-encoder.ts), never a rejection of the write pump. Order is kept: the datagrams follow the
// members' order.
import type { Codec } from '../codecs/codec.js';
import { encodeSyslogBatchOf } from '../codecs/syslog/syslog-batch.js';
import { messageError, type MessageError } from '../core/errors.js';
import type { QueuedRecord } from './emitter-queue.js';
import { UDP_MAX_PAYLOAD } from './framing.js';

export interface BatchUnits {
  units: Uint8Array[];
  failed: { entry: QueuedRecord; error: MessageError }[];
}

export async function batchUnits(codec: Codec, entries: readonly QueuedRecord[]): Promise<BatchUnits> {
  const made: BatchUnits = { units: [], failed: [] };
  if (entries.length > 0) await split(codec, entries, made);
  return made;
}

async function split(codec: Codec, entries: readonly QueuedRecord[], made: BatchUnits): Promise<void> {
  const members = entries.map((entry) => ({ record: entry.record, message: entry.message }));
  let result: Awaited<ReturnType<typeof encodeSyslogBatchOf>>;
  try {
    result = await encodeSyslogBatchOf(codec, members);
  } catch {
    result = { error: messageError('SR3009', 'the codec failed unexpectedly while encoding a batch') };
  }
  if ('error' in result) {
    for (const entry of entries) made.failed.push({ entry, error: result.error });
    return;
  }
  if (result.bytes.length <= UDP_MAX_PAYLOAD) {
    made.units.push(result.bytes);
    return;
  }
  if (entries.length === 1) {
    const error = messageError(
      'SR3030',
      `the batch form of the message has ${result.bytes.length} bytes, above the UDP limit of 65507`,
    );
    made.failed.push({ entry: entries[0] as QueuedRecord, error });
    return;
  }
  const half = Math.ceil(entries.length / 2);
  await split(codec, entries.slice(0, half), made);
  await split(codec, entries.slice(half), made);
}
