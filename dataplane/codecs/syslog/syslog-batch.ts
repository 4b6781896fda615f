// The UDP batch form of a SYSLOG codec (docs/syslog-wire.md, "Emitters"): with an emitter BATCH clause over
// UDP, one datagram carries a whole batch as ONE RFC 5424 message whose MSG is a JSON array of the members'
// complete RFC 5424 messages (as strings, in order) and whose header holds what the members share:
//
//   facility                 the shared value, else 1 (user-level, RFC 5424's generic facility and the
//                            one the decoder assumes for a frame without PRI)
//   severity                 the shared value, else the most severe member's (the lowest number), so a
//                            filter on the outer PRI never hides an urgent member
//   timestamp, hostname,     the value when every member has the same one (null included), else null (`-`)
//   app_name, proc_id, msg_id
//   structured_data          always null: a member's structured data stays inside its own message
//
// The outer record is encoded by the same codec, so it obeys the same rules; a receiver decodes the outer
// message, parses MSG as JSON and decodes every string with the same SYSLOG decoder. A member that does
// not encode is left out and reported (`failed`) so that the emitter can hand it to ON MESSAGE ERROR and
// batch the rest.
import type { MessageError } from '../../core/errors.js';
import { messageError } from '../../core/errors.js';
import { Instant, type RecordValues, type Value } from '../../core/values.js';
import type { Codec, EncodeResult } from '../codec.js';

/** One member already encoded: its record (for the shared header) and its complete RFC 5424 message. */
export interface SyslogBatchMember {
  record: Readonly<RecordValues>;
  message: Uint8Array;
}

export interface FailedMember {
  /** Position of the member in the records given. */
  index: number;
  error: MessageError;
}

/**
 * `bytes`: the batch message, or null when no member encoded or the outer record did not (`error` then
 * says why). `failed`: the members left out, in order.
 */
export interface SyslogBatchResult {
  bytes: Uint8Array | null;
  failed: FailedMember[];
  error: MessageError | null;
}

const SHARED_HEADER = ['timestamp', 'hostname', 'app_name', 'proc_id', 'msg_id'] as const;
const utf8 = new TextDecoder('utf-8');

/** Encodes every record with `codec`, then the batch of those that encoded (see the header). */
export function encodeSyslogBatch(
  codec: Codec,
  records: readonly Readonly<RecordValues>[],
): SyslogBatchResult | Promise<SyslogBatchResult> {
  const encode = codec.encode?.bind(codec);
  if (encode === undefined) {
    const error = messageError('SR3008', 'the codec cannot encode');
    return { bytes: null, failed: records.map((_, index) => ({ index, error })), error: null };
  }
  const results = records.map((record) => encode(record));
  if (results.some((result) => result instanceof Promise)) {
    return Promise.all(results.map(async (result) => result)).then((settled) =>
      finish(codec, records, settled),
    );
  }
  return finish(codec, records, results as EncodeResult[]);
}

function finish(
  codec: Codec,
  records: readonly Readonly<RecordValues>[],
  results: readonly EncodeResult[],
): SyslogBatchResult | Promise<SyslogBatchResult> {
  const members: SyslogBatchMember[] = [];
  const failed: FailedMember[] = [];
  results.forEach((result, index) => {
    if ('error' in result) failed.push({ index, error: result.error });
    else members.push({ record: records[index] ?? {}, message: result.bytes });
  });
  if (members.length === 0) return { bytes: null, failed, error: null };
  const outer = encodeSyslogBatchOf(codec, members);
  const done = (result: EncodeResult): SyslogBatchResult =>
    'error' in result
      ? { bytes: null, failed, error: result.error }
      : { bytes: result.bytes, failed, error: null };
  return outer instanceof Promise ? outer.then(done) : done(outer);
}

/** The batch message of members already encoded (the emitter encodes each record as it arrives). */
export function encodeSyslogBatchOf(
  codec: Codec,
  members: readonly SyslogBatchMember[],
): EncodeResult | Promise<EncodeResult> {
  if (codec.encode === undefined) return { error: messageError('SR3008', 'the codec cannot encode') };
  return codec.encode(batchRecord(members));
}

/** The outer record of a batch (non-empty). */
export function batchRecord(members: readonly SyslogBatchMember[]): RecordValues {
  const records = members.map((member) => member.record);
  const facilities = records.map((record) => record.facility ?? null);
  const severities = records.map((record) => record.severity ?? null);
  const outer: RecordValues = {
    facility: sharedValue(facilities) ?? 1,
    severity: sharedValue(severities) ?? mostSevere(severities),
    structured_data: null,
    message: JSON.stringify(members.map((member) => utf8.decode(member.message))),
  };
  for (const field of SHARED_HEADER)
    outer[field] = sharedValue(records.map((record) => record[field] ?? null));
  return outer;
}

/** The value every member has, or null when they differ. */
function sharedValue(values: readonly Value[]): Value {
  const first = values[0] ?? null;
  return values.every((value) => sameValue(first, value)) ? first : null;
}

function sameValue(a: Value, b: Value): boolean {
  if (a instanceof Instant) return b instanceof Instant && a.equals(b);
  return a === b;
}

/** The lowest severity number among the members (the most severe); 5 when none is a number. */
function mostSevere(severities: readonly Value[]): number {
  let lowest: number | undefined;
  for (const severity of severities) {
    if (typeof severity === 'number' && (lowest === undefined || severity < lowest)) lowest = severity;
  }
  return lowest ?? 5;
}
