import assert from 'node:assert/strict';
import { Instant, type RecordValues } from '../../core/values.js';
import { encodedText, syslogCodec } from '../../../test/fixtures/syslog-codec.js';

const AT = (text: string, nanos = 0n) => new Instant(BigInt(Date.parse(text)) * 1_000_000n + nanos);

function record(values: RecordValues = {}): RecordValues {
  return {
    facility: 20,
    severity: 5,
    timestamp: null,
    hostname: null,
    app_name: null,
    proc_id: null,
    msg_id: null,
    structured_data: null,
    message: 'hello',
    ...values,
  };
}

describe('RFC 5424 encoding (docs/codecs-syslog.md "Encoding")', () => {
  const cases: [name: string, values: RecordValues, text: string][] = [
    ['every optional field null: "-"', {}, '<165>1 - - - - - - hello'],
    [
      'every field set',
      {
        timestamp: AT('2003-10-11T22:14:15.003Z'),
        hostname: 'mymachine.example.com',
        app_name: 'evntslog',
        proc_id: '8710',
        msg_id: 'ID47',
        structured_data: '[exampleSDID@32473 iut="3"][examplePriority@32473 class="high"]',
        message: 'An application event',
      },
      '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog 8710 ID47 [exampleSDID@32473 iut="3"][examplePriority@32473 class="high"] An application event',
    ],
    [
      'nanoseconds truncated to six digits',
      { timestamp: AT('2026-01-02T03:04:05Z', 123_456_789n) },
      '<165>1 2026-01-02T03:04:05.123456Z - - - - - hello',
    ],
    [
      'trailing fractional zeros omitted',
      { timestamp: AT('2026-01-02T03:04:05Z', 500_000_000n) },
      '<165>1 2026-01-02T03:04:05.5Z - - - - - hello',
    ],
    [
      'under a microsecond: no fraction',
      { timestamp: AT('2026-01-02T03:04:05Z', 999n) },
      '<165>1 2026-01-02T03:04:05Z - - - - - hello',
    ],
    [
      'before 1970, truncated toward the past',
      { timestamp: new Instant(-1n) },
      '<165>1 1969-12-31T23:59:59.999999Z - - - - - hello',
    ],
    [
      'year 0000',
      { timestamp: new Instant(-62_167_219_200n * 1_000_000_000n) },
      '<165>1 0000-01-01T00:00:00Z - - - - - hello',
    ],
    ['facility 0, severity 0', { facility: 0, severity: 0 }, '<0>1 - - - - - - hello'],
    ['facility 23, severity 7', { facility: 23, severity: 7 }, '<191>1 - - - - - - hello'],
    ['an empty message: no SP and no MSG', { message: '' }, '<165>1 - - - - - -'],
    ['UTF-8 in the message, no BOM', { message: 'grüße 🙂' }, '<165>1 - - - - - - grüße 🙂'],
    ['structured data "-" is NILVALUE', { structured_data: '-' }, '<165>1 - - - - - - hello'],
    [
      'a message that begins with "["',
      { structured_data: '[a@1]', message: '[x] y' },
      '<165>1 - - - - - [a@1] [x] y',
    ],
    [
      'escapes in SD values emitted verbatim',
      { structured_data: '[a@1 x="\\"\\\\\\]" y="ü"]' },
      '<165>1 - - - - - [a@1 x="\\"\\\\\\]" y="ü"] hello',
    ],
    [
      'header fields at their length limits',
      {
        hostname: 'h'.repeat(255),
        app_name: 'a'.repeat(48),
        proc_id: 'p'.repeat(128),
        msg_id: 'm'.repeat(32),
      },
      `<165>1 - ${'h'.repeat(255)} ${'a'.repeat(48)} ${'p'.repeat(128)} ${'m'.repeat(32)} - hello`,
    ],
  ];
  for (const [name, values, text] of cases) {
    it(name, () => assert.equal(encodedText(record(values)), text));
  }

  it('undeclared optional fields are "-"', () => {
    const codec = syslogCodec(['facility', 'severity', 'message']);
    assert.equal(encodedText({ facility: 1, severity: 6, message: 'm' }, codec), '<14>1 - - - - - - m');
  });

  it('writes no byte-order mark', () => {
    const result = syslogCodec().encode(record());
    assert.ok('bytes' in result);
    assert.notDeepEqual([...result.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  });
});

describe('RFC 5424 encoding refusals: SR3008, naming the field and the rule, never the value', () => {
  const cases: [name: string, values: RecordValues, reason: string][] = [
    ['facility above 23', { facility: 24 }, 'facility must be an integer of 0–23 (RFC 5424 facilities)'],
    ['severity above 7', { severity: 8 }, 'severity must be an integer of 0–7 (RFC 5424 severities)'],
    [
      'a hostname with a space',
      { hostname: 'my host' },
      'hostname must be printable US-ASCII (33–126), as RFC 5424 requires',
    ],
    [
      'a hostname with non-ASCII',
      { hostname: 'hôte' },
      'hostname must be printable US-ASCII (33–126), as RFC 5424 requires',
    ],
    ['a hostname over 255', { hostname: 'h'.repeat(256) }, 'hostname must have 1–255 characters (RFC 5424)'],
    ['an empty app_name', { app_name: '' }, 'app_name must have 1–48 characters (RFC 5424)'],
    ['an app_name over 48', { app_name: 'a'.repeat(49) }, 'app_name must have 1–48 characters (RFC 5424)'],
    ['a proc_id over 128', { proc_id: 'p'.repeat(129) }, 'proc_id must have 1–128 characters (RFC 5424)'],
    [
      'a proc_id with a control character',
      { proc_id: 'a\tb' },
      'proc_id must be printable US-ASCII (33–126), as RFC 5424 requires',
    ],
    ['a msg_id over 32', { msg_id: 'm'.repeat(33) }, 'msg_id must have 1–32 characters (RFC 5424)'],
    [
      'a msg_id with DEL',
      { msg_id: 'a\u007f' },
      'msg_id must be printable US-ASCII (33–126), as RFC 5424 requires',
    ],
    [
      'structured data that is plain text',
      { structured_data: 'text' },
      'structured_data must be - or RFC 5424 SD-ELEMENTs, each starting with "["',
    ],
    [
      'empty structured data',
      { structured_data: '' },
      'structured_data must be - or RFC 5424 SD-ELEMENTs, each starting with "["',
    ],
    [
      'an unclosed element',
      { structured_data: '[a@1 x="1"' },
      'structured_data is malformed at byte 10: expected SP or "]" after an SD-ID or SD-PARAM',
    ],
    [
      'an unescaped "]" in a value',
      { structured_data: '[a@1 x="]"]' },
      'structured_data is malformed at byte 8: a PARAM-VALUE has a "]" that is not escaped as \\]',
    ],
    [
      'a PARAM-NAME over 32',
      { structured_data: `[a@1 ${'n'.repeat(33)}="1"]` },
      'structured_data is malformed at byte 5: a PARAM-NAME must be 1–32 printable US-ASCII characters other than =, SP, ] and "',
    ],
    [
      'text after the elements',
      { structured_data: '[a@1] x' },
      'structured_data has text after its last SD-ELEMENT',
    ],
    [
      'a space between elements',
      { structured_data: '[a@1] [b@2]' },
      'structured_data has text after its last SD-ELEMENT',
    ],
    [
      'a lone surrogate in structured data',
      { structured_data: '[a@1 x="\uD800"]' },
      'structured_data must be text without lone UTF-16 surrogates',
    ],
    [
      'a lone surrogate in the message',
      { message: 'a\uDC00' },
      'message must be text without lone UTF-16 surrogates',
    ],
    [
      'a message that starts with U+FEFF',
      { message: '\uFEFFx' },
      'message must not start with U+FEFF, which reads as a byte-order mark',
    ],
    [
      'a year after 9999',
      { timestamp: new Instant(253_402_300_800n * 1_000_000_000n) },
      'timestamp is outside the years 0000–9999 of RFC 3339',
    ],
    [
      'a year before 0000',
      { timestamp: new Instant(-62_167_219_201n * 1_000_000_000n) },
      'timestamp is outside the years 0000–9999 of RFC 3339',
    ],
  ];
  for (const [name, values, reason] of cases) {
    it(name, () =>
      assert.deepEqual(syslogCodec().encode(record(values)), { error: { code: 'SR3008', reason } }),
    );
  }

  it('a reason never quotes the value', () => {
    const secret = 'sëcret value';
    for (const values of [{ hostname: secret }, { structured_data: secret }, { app_name: secret }]) {
      const result = syslogCodec().encode(record(values));
      assert.ok('error' in result);
      assert.ok(!result.error.reason.includes('sëcret'), result.error.reason);
    }
  });
});

describe('RFC 5424 encoding of a stream: each record encodes as it would on its own', () => {
  it('a repeat, a change, a refused value and the repeat again each encode as on their own', () => {
    const codec = syslogCodec();
    const fields = { hostname: 'web-01', app_name: 'nginx', proc_id: '42', msg_id: 'ACCESS' };
    const stream: RecordValues[] = [
      record(fields),
      record(fields),
      record({ ...fields, hostname: 'web-02' }),
      record({ ...fields, proc_id: 'has space' }),
      record({ ...fields, msg_id: null }),
      record(fields),
      record({ ...fields, app_name: 7 }),
      record(fields),
    ];
    for (const values of stream) {
      assert.deepEqual(codec.encode?.(values), syslogCodec().encode?.(values), JSON.stringify(values));
    }
    assert.equal(encodedText(record(fields), codec), '<165>1 - web-01 nginx 42 ACCESS - hello');
  });
});
