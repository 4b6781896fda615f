import assert from 'node:assert/strict';
import type { GraphCodec } from '../../graph/types.js';
import { ManualClock } from '../../core/clock.js';
import { createCodec } from '../codec.js';
import {
  bytesOf,
  decodeError,
  decoded,
  fields,
  syslogCodec,
  syslogSchema,
} from '../../../test/fixtures/syslog-codec.js';
import { createSyslogCodecWith } from './syslog-codec.js';

const RFC5424 = '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 - An event';

describe('SYSLOG codec: payload rules (docs/codecs-syslog.md "Fields" and "Decoding")', () => {
  const cases: { name: string; payload: string | Uint8Array; expected: ReturnType<typeof fields> }[] = [
    {
      name: 'trailing CR, LF and NUL are removed, in any mix',
      payload: '<13>hello\r\n\0\n',
      expected: fields({ message: 'hello' }),
    },
    {
      name: 'trailing spaces are kept (only CR, LF and NUL are removed)',
      payload: '<13>hello  \n',
      expected: fields({ message: 'hello  ' }),
    },
    { name: 'a PRI and nothing else: the empty message', payload: '<13>', expected: fields({}) },
    {
      name: 'an RFC 5424 frame without MSG has the empty message',
      payload: '<14>1 - - - - - -',
      expected: fields({ severity: 6 }),
    },
    {
      name: 'an RFC 5424 frame whose MSG is empty after its SP',
      payload: '<14>1 - - - - - - ',
      expected: fields({ severity: 6 }),
    },
    {
      name: 'no PRI at all: priority 13, read as RFC 3164 from the first byte',
      payload: 'Jun  3 12:00:00 host app: text',
      expected: fields({
        timestamp: '2025-06-03T12:00:00Z',
        hostname: 'host',
        app_name: 'app',
        message: 'text',
      }),
    },
    {
      name: 'PRI 0 is facility 0, severity 0',
      payload: '<0>text',
      expected: fields({ facility: 0, severity: 0, message: 'text' }),
    },
    {
      name: 'PRI 191 is facility 23, severity 7',
      payload: '<191>text',
      expected: fields({ facility: 23, severity: 7, message: 'text' }),
    },
    {
      name: 'UTF-8 in MSG is kept',
      payload: '<13>Jun  3 12:00:00 host app: grüße ✓ 🙂',
      expected: fields({
        timestamp: '2025-06-03T12:00:00Z',
        hostname: 'host',
        app_name: 'app',
        message: 'grüße ✓ 🙂',
      }),
    },
  ];
  for (const { name, payload, expected } of cases) {
    it(name, () => assert.deepEqual(decoded(payload), expected));
  }

  it('an empty payload, or one of only CR, LF and NUL, is SR3020', () => {
    for (const payload of ['', '\n', '\r\n', '\0\0', '\n\r\0']) {
      assert.equal(decodeError(payload).code, 'SR3020', JSON.stringify(payload));
    }
  });

  it('a payload that is not UTF-8 is SR3001, wherever the bad byte is', () => {
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const payload = new Uint8Array([...bytesOf('<13>1 - host app - - - ab'), ...bad, 0x63]);
      const error = decodeError(payload);
      assert.equal(error.code, 'SR3001');
      assert.equal(error.reason, 'the syslog payload is not valid UTF-8');
    }
  });

  it('a record has only the declared fields, in schema order', () => {
    const codec = syslogCodec(['severity', 'hostname', 'message']);
    assert.deepEqual(decoded(RFC5424, codec), {
      severity: 5,
      hostname: 'mymachine.example.com',
      message: 'An event',
    });
  });

  it('undeclared fields are still parsed: a bad TIMESTAMP fails a codec that does not keep it', () => {
    const codec = syslogCodec(['facility', 'severity', 'message']);
    assert.equal(decodeError('<13>1 2003-13-11T22:14:15Z host app - - - x', codec).code, 'SR3022');
  });

  it('values have the representation of values.ts: U8 as numbers, DATETIME as Instant', () => {
    const result = syslogCodec().decode(bytesOf(RFC5424));
    assert.ok(!(result instanceof Promise) && 'records' in result);
    const record = result.records[0]!;
    assert.equal(typeof record.facility, 'number');
    assert.equal(typeof record.severity, 'number');
    assert.equal((record.timestamp as { epochNanos: bigint }).epochNanos, 1_065_910_455_003_000_000n);
  });
});

describe('SYSLOG codec: the year of RFC 3164 timestamps comes from the injected clock', () => {
  it('uses the UTC year of the clock, and follows it across New Year', () => {
    const clock = new ManualClock(Date.UTC(2030, 11, 31, 23, 59, 59));
    const codec = syslogCodec(undefined, () => clock.now());
    assert.equal(decoded('<13>Dec 31 23:59:59 h a: x', codec).timestamp, '2030-12-31T23:59:59Z');
    clock.advance(1000);
    assert.equal(decoded('<13>Dec 31 23:59:59 h a: x', codec).timestamp, '2031-12-31T23:59:59Z');
  });

  it('Feb 29 is a timestamp only in a leap year; otherwise the text stays in the message', () => {
    const leap = syslogCodec(undefined, () => Date.UTC(2024, 0, 1));
    assert.equal(decoded('<13>Feb 29 10:00:00 h a: x', leap).timestamp, '2024-02-29T10:00:00Z');
    assert.deepEqual(decoded('<13>Feb 29 10:00:00 h a: x'), fields({ message: 'Feb 29 10:00:00 h a: x' }));
  });

  it('two clocks in different years decode the same message to different years', () => {
    const in2019 = syslogCodec(undefined, () => Date.UTC(2019, 6, 1));
    const in2041 = syslogCodec(undefined, () => Date.UTC(2041, 6, 1));
    const message = '<13>Mar  5 08:09:10 h a: x';
    assert.equal(decoded(message, in2019).timestamp, '2019-03-05T08:09:10Z');
    assert.equal(decoded(message, in2041).timestamp, '2041-03-05T08:09:10Z');
  });

  it('defaults to the wall clock, Date.now, read at each decode', () => {
    const wallClock = Date.now;
    let now = Date.UTC(2037, 6, 1);
    Date.now = () => now; // a wall clock of our own: the test does not depend on the real date
    try {
      const made = createSyslogCodecWith(
        { kind: 'syslog', schema: 's', canEncode: false, fields: ['timestamp', 'message'] },
        syslogSchema(['timestamp', 'message']),
        {},
      );
      assert.ok(!('unsupported' in made));
      const year = (): string => {
        const result = made.decode(bytesOf('<13>Jan  1 00:00:00 h a: x'));
        assert.ok(!(result instanceof Promise) && 'records' in result);
        return (result.records[0]!.timestamp as { toRfc3339(): string }).toRfc3339().slice(0, 4);
      };
      assert.equal(year(), '2037');
      now = Date.UTC(1999, 6, 1);
      assert.equal(year(), '1999');
    } finally {
      Date.now = wallClock;
    }
  });
});

describe('SYSLOG codec: the factory', () => {
  const graphCodec = (fields: string[], canEncode = true): GraphCodec =>
    ({ kind: 'syslog', schema: 's', canEncode, fields }) as GraphCodec;

  it('is registered in CODEC_FACTORIES', () => {
    const made = createCodec(
      graphCodec(['facility', 'severity', 'message']),
      syslogSchema(['facility', 'severity', 'message']),
    );
    assert.ok(made.ok);
    assert.equal(made.codec.kind, 'syslog');
    assert.equal(typeof made.codec.encode, 'function');
  });

  it('gives a decode-only codec when the graph says it cannot encode', () => {
    const made = createCodec(graphCodec(['message'], false), syslogSchema(['message']));
    assert.ok(made.ok);
    assert.equal(typeof made.codec.encode, 'undefined');
  });

  it('refuses a schema field that is not a syslog field, or has another shape', () => {
    const schema = syslogSchema(['facility', 'message']);
    const odd = createCodec(graphCodec(['facility', 'message']), {
      fields: [...schema.fields, { name: 'extra', type: 'STRING', optional: true, sensitive: false }],
    });
    assert.deepEqual(odd, {
      ok: false,
      error: 'SYSLOG codec: schema field extra is not a syslog field of the codec',
    });
    const shape = createCodec(graphCodec(['message'], false), {
      fields: [{ name: 'message', type: 'STRING', optional: true, sensitive: false }],
    });
    assert.deepEqual(shape, {
      ok: false,
      error: 'SYSLOG codec: schema field message does not have its SYSLOG shape (docs/codecs-syslog.md)',
    });
  });

  it('refuses to encode without facility, severity and message', () => {
    const made = createCodec(graphCodec(['facility', 'message']), syslogSchema(['facility', 'message']));
    assert.deepEqual(made, { ok: false, error: 'SYSLOG codec cannot encode without severity' });
  });
});
