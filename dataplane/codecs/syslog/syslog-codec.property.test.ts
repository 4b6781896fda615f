// Properties of the SYSLOG codec over generated input: nothing throws or hangs, whatever the bytes; valid
// records survive encode then decode unchanged; encode∘decode is idempotent on valid RFC 5424 messages;
// and every record the decoder produces encodes again (but for the documented exceptions).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Instant, type RecordValues } from '../../core/values.js';
import {
  bytesOf,
  decodeWith,
  SYSLOG_PIECES,
  syslogCodec,
  view,
} from '../../../test/fixtures/syslog-codec.js';

const codec = syslogCodec();
const RUNS = 2000;

/** Pieces of syslog text, so that generated payloads reach deep into both parsers. */
const PIECE = fc.constantFrom(...SYSLOG_PIECES);
const SYSLOGISH = fc.array(PIECE, { maxLength: 24 }).map((pieces) => pieces.join(''));

const VALID_5424 = [
  '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3"][p@1 c="h\\]"] \uFEFFAn event',
  '<13>1 - - - - - -',
  '<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - message',
];

/** Exactly one record or one message error, never a throw. */
function decodesCleanly(payload: Uint8Array): void {
  const result = decodeWith(codec, payload);
  if ('error' in result) {
    assert.match(result.error.code, /^SR30(01|2[0-4])$/);
    return;
  }
  assert.equal(result.records.length, 1);
}

describe('SYSLOG codec properties', () => {
  it('random bytes never throw: one record or one message error', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), decodesCleanly), { numRuns: RUNS });
  });

  it('syslog-like text never throws', () => {
    fc.assert(
      fc.property(SYSLOGISH, (text) => decodesCleanly(bytesOf(text))),
      { numRuns: RUNS },
    );
  });

  it('every truncation of a valid message decodes cleanly', () => {
    for (const text of VALID_5424) {
      const payload = bytesOf(text);
      for (let end = 0; end <= payload.length; end++) decodesCleanly(payload.subarray(0, end));
    }
  });

  it('trailing CR, LF and NUL change nothing: the bytes after the frame are never read', () => {
    const trail = fc.array(fc.constantFrom('\r', '\n', '\0'), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(SYSLOGISH, trail, (text, tail) => {
        const base = text.replace(/[\r\n\0]+$/, '');
        fc.pre(base !== '');
        const expected = decodeWith(codec, bytesOf(base));
        assert.deepEqual(decodeWith(codec, bytesOf(base + tail.join(''))), expected);
        assert.deepEqual(decodeWith(codec, Buffer.from(base + tail.join(''), 'utf8')), expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('invalid UTF-8 anywhere is SR3001', () => {
    const invalid = fc.constantFrom(
      [0xff],
      [0xc0, 0x80],
      [0xe0, 0x80],
      [0xed, 0xb0, 0x80],
      [0xf5, 0x80, 0x80, 0x80],
    );
    fc.assert(
      fc.property(SYSLOGISH, fc.nat(), invalid, (text, at, bad) => {
        const good = bytesOf(`${text}x`);
        const cut = at % good.length;
        const payload = new Uint8Array([...good.subarray(0, cut), ...bad, ...good.subarray(cut)]);
        const result = decodeWith(codec, payload);
        assert.ok('error' in result && result.error.code === 'SR3001');
      }),
      { numRuns: RUNS },
    );
  });

  it('every decoded record encodes again, except a message that starts with U+FEFF', () => {
    fc.assert(
      fc.property(SYSLOGISH, (text) => {
        const result = decodeWith(codec, bytesOf(text));
        if ('error' in result) return;
        const record = result.records[0]!;
        const encoded = codec.encode(record);
        if ('error' in encoded)
          assert.ok((record.message as string).startsWith('\uFEFF'), encoded.error.reason);
      }),
      { numRuns: RUNS },
    );
  });

  it('decode(encode(r)) is r for valid records', () => {
    fc.assert(
      fc.property(validRecord, (record) => {
        const encoded = codec.encode(record);
        assert.ok('bytes' in encoded, 'error' in encoded ? encoded.error.reason : '');
        const result = decodeWith(codec, encoded.bytes);
        assert.ok('records' in result, 'error' in result ? result.error.reason : '');
        assert.deepEqual(view(result.records[0]!), view(record));
      }),
      { numRuns: RUNS },
    );
  });

  it('encode∘decode is idempotent on valid RFC 5424 messages', () => {
    fc.assert(
      fc.property(valid5424Text, (text) => {
        const once = reencode(bytesOf(text));
        assert.deepEqual(reencode(once), once);
      }),
      { numRuns: RUNS },
    );
  });
});

function reencode(payload: Uint8Array): Uint8Array {
  const result = decodeWith(codec, payload);
  assert.ok('records' in result, 'error' in result ? result.error.reason : '');
  const encoded = codec.encode(result.records[0]!);
  assert.ok('bytes' in encoded, 'error' in encoded ? encoded.error.reason : '');
  return encoded.bytes;
}

// ---- generators ----

const printable = (max: number) =>
  fc.string({
    unit: fc.integer({ min: 33, max: 126 }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: max,
  });
/** A header value: printable US-ASCII, but never the lone "-" that reads as NILVALUE. */
const header = (max: number) =>
  fc.option(
    printable(max).filter((text) => text !== '-'),
    { nil: null },
  );
const sdName = fc.string({
  unit: fc
    .integer({ min: 33, max: 126 })
    .filter((c) => c !== 0x3d && c !== 0x5d && c !== 0x22)
    .map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 32,
});
const sdValue = fc
  .string({ unit: 'grapheme', maxLength: 12 })
  .map((text) => text.replace(/["\\\]]/g, (c) => `\\${c}`));
const sdElement = fc
  .tuple(sdName, fc.array(fc.tuple(sdName, sdValue), { maxLength: 3 }))
  .map(([id, params]) => `[${id}${params.map(([name, value]) => ` ${name}="${value}"`).join('')}]`);
const structuredData = fc.option(
  fc.array(sdElement, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
  {
    nil: null,
  },
);
/** Any well-formed text that survives a frame: no leading U+FEFF, no trailing CR, LF or NUL. */
const message = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .filter((text) => !text.startsWith('\uFEFF') && !/[\r\n\0]$/.test(text));
/** Instants in years 0000–9999 with microsecond precision (what RFC 5424 keeps). */
const timestamp = fc.option(
  fc
    .bigInt({ min: -62_167_219_200_000_000n, max: 253_402_300_799_999_999n })
    .map((micros) => new Instant(micros * 1000n)),
  { nil: null },
);

const validRecord: fc.Arbitrary<RecordValues> = fc.record({
  facility: fc.integer({ min: 0, max: 23 }),
  severity: fc.integer({ min: 0, max: 7 }),
  timestamp,
  hostname: header(255),
  app_name: header(48),
  proc_id: header(128),
  msg_id: header(32),
  structured_data: structuredData,
  message,
});

const nil = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(fc.constant('-'), arbitrary);
const rfc3339 = fc
  .tuple(
    fc.date({
      min: new Date('0001-01-01T00:00:00Z'),
      max: new Date('9998-12-31T00:00:00Z'),
      noInvalidDate: true,
    }),
    fc.stringMatching(/^(\.\d{1,12})?$/),
    fc.constantFrom('Z', 'z', '+00:00', '-07:00', '+14:00'),
    fc.constantFrom('T', 't'),
  )
  .map(([date, fraction, zone, t]) => `${date.toISOString().slice(0, 19).replace('T', t)}${fraction}${zone}`);
const valid5424Text = fc
  .tuple(
    fc.integer({ min: 0, max: 191 }),
    nil(rfc3339),
    nil(printable(255)),
    nil(printable(48)),
    nil(printable(128)),
    nil(printable(32)),
    fc.oneof(
      fc.constant('-'),
      fc.array(sdElement, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
    ),
    fc.option(fc.tuple(fc.boolean(), message), { nil: null }),
  )
  .map(([pri, ts, host, app, proc, msgId, sd, msg]) => {
    const tail = msg === null ? '' : ` ${msg[0] ? '\uFEFF' : ''}${msg[1]}`;
    return `<${pri}>1 ${ts} ${host} ${app} ${proc} ${msgId} ${sd}${tail}`;
  });
