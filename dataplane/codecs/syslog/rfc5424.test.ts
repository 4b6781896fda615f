import assert from 'node:assert/strict';
import { decodeError, decoded, fields, type RecordView } from '../../../test/fixtures/syslog-codec.js';

const BOM = '\uFEFF';

describe('RFC 5424 decoding', () => {
  const cases: [name: string, payload: string, expected: RecordView][] = [
    [
      'RFC 5424 §6.5 example 1: no PROCID, no STRUCTURED-DATA, BOM before MSG (dropped)',
      `<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - ${BOM}'su root' failed for lonvick on /dev/pts/8`,
      fields({
        facility: 4,
        severity: 2,
        timestamp: '2003-10-11T22:14:15.003Z',
        hostname: 'mymachine.example.com',
        app_name: 'su',
        msg_id: 'ID47',
        message: "'su root' failed for lonvick on /dev/pts/8",
      }),
    ],
    [
      'RFC 5424 §6.5 example 2: a time zone offset and microseconds',
      "<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - - %% It's time to make the do-nuts.",
      fields({
        facility: 20,
        severity: 5,
        timestamp: '2003-08-24T12:14:15.000003Z',
        hostname: '192.0.2.1',
        app_name: 'myproc',
        proc_id: '8710',
        message: "%% It's time to make the do-nuts.",
      }),
    ],
    [
      'RFC 5424 §6.5 example 3: structured data, then MSG',
      `<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"] ${BOM}An application event log entry...`,
      fields({
        facility: 20,
        severity: 5,
        timestamp: '2003-10-11T22:14:15.003Z',
        hostname: 'mymachine.example.com',
        app_name: 'evntslog',
        msg_id: 'ID47',
        structured_data: '[exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"]',
        message: 'An application event log entry...',
      }),
    ],
    [
      'RFC 5424 §6.5 example 4: several adjacent SD elements and no MSG',
      '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"][examplePriority@32473 class="high"]',
      fields({
        facility: 20,
        severity: 5,
        timestamp: '2003-10-11T22:14:15.003Z',
        hostname: 'mymachine.example.com',
        app_name: 'evntslog',
        msg_id: 'ID47',
        structured_data:
          '[exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"][examplePriority@32473 class="high"]',
      }),
    ],
    ['every NILVALUE is a typed null', '<13>1 - - - - - - text', fields({ message: 'text' })],
    [
      'escaped \\", \\\\ and \\] in SD values are kept exactly as sent',
      '<13>1 - h a - - [x@1 q="say \\"hi\\"" b="C:\\\\dir" r="[1\\]" other="\\n"] m',
      fields({
        hostname: 'h',
        app_name: 'a',
        structured_data: '[x@1 q="say \\"hi\\"" b="C:\\\\dir" r="[1\\]" other="\\n"]',
        message: 'm',
      }),
    ],
    [
      'SD followed by MSG text that begins with "["',
      '<13>1 - h a - - [x@1 a="1"] [INFO] started',
      fields({ hostname: 'h', app_name: 'a', structured_data: '[x@1 a="1"]', message: '[INFO] started' }),
    ],
    [
      'an SD element without parameters, and UTF-8 in a value',
      '<13>1 - h a - - [x@1][origin ip="192.0.2.1" software="grüße"] m',
      fields({
        hostname: 'h',
        app_name: 'a',
        structured_data: '[x@1][origin ip="192.0.2.1" software="grüße"]',
        message: 'm',
      }),
    ],
    [
      'a missing SD field: MSG follows MSGID',
      '<13>1 2026-01-02T03:04:05Z h a 42 ID1 the message',
      fields({
        timestamp: '2026-01-02T03:04:05Z',
        hostname: 'h',
        app_name: 'a',
        proc_id: '42',
        msg_id: 'ID1',
        message: 'the message',
      }),
    ],
    [
      'a missing SD field and no MSG',
      '<13>1 2026-01-02T03:04:05Z h a 42 ID1',
      fields({
        timestamp: '2026-01-02T03:04:05Z',
        hostname: 'h',
        app_name: 'a',
        proc_id: '42',
        msg_id: 'ID1',
      }),
    ],
    [
      'a "-" that is not alone is no NILVALUE SD: MSG',
      '<13>1 - h a - - -x',
      fields({ hostname: 'h', app_name: 'a', message: '-x' }),
    ],
    [
      'a space inside HOSTNAME shifts the fields (HOSTNAME ends at the first SP)',
      '<13>1 - my host app 12 ID1 - text',
      fields({ hostname: 'my', app_name: 'host', proc_id: 'app', msg_id: '12', message: 'ID1 - text' }),
    ],
    [
      'seven and more fractional digits: nanoseconds kept, the rest truncated',
      '<13>1 2026-01-02T03:04:05.1234567891Z h a - - - x',
      fields({ timestamp: '2026-01-02T03:04:05.123456789Z', hostname: 'h', app_name: 'a', message: 'x' }),
    ],
    [
      'lower-case t and z',
      '<13>1 2026-01-02t03:04:05.5z h a - - - x',
      fields({ timestamp: '2026-01-02T03:04:05.5Z', hostname: 'h', app_name: 'a', message: 'x' }),
    ],
    [
      'an offset east of UTC',
      '<13>1 2026-01-01T01:30:00+02:00 h a - - - x',
      fields({ timestamp: '2025-12-31T23:30:00Z', hostname: 'h', app_name: 'a', message: 'x' }),
    ],
    [
      'a BOM only at the start of MSG is dropped; one later is text',
      `<13>1 - h a - - - a${BOM}b`,
      fields({ hostname: 'h', app_name: 'a', message: `a${BOM}b` }),
    ],
    [
      'two spaces before MSG: the second belongs to MSG',
      '<13>1 - h a - - -  indented',
      fields({ hostname: 'h', app_name: 'a', message: ' indented' }),
    ],
    [
      'header fields at their length limits',
      `<13>1 - ${'h'.repeat(255)} ${'a'.repeat(48)} ${'p'.repeat(128)} ${'m'.repeat(32)} - x`,
      fields({
        hostname: 'h'.repeat(255),
        app_name: 'a'.repeat(48),
        proc_id: 'p'.repeat(128),
        msg_id: 'm'.repeat(32),
        message: 'x',
      }),
    ],
    ['a version other than 1 is RFC 3164', '<13>2 - h a - - - x', fields({ message: '2 - h a - - - x' })],
  ];
  for (const [name, payload, expected] of cases) {
    it(name, () => assert.deepEqual(decoded(payload), expected));
  }
});

describe('RFC 5424 decode errors name the rule and a byte offset, never the content', () => {
  const cases: [name: string, payload: string, code: string, reason: string][] = [
    [
      'a bad TIMESTAMP',
      '<13>1 yesterday h a - - - x',
      'SR3022',
      'RFC 5424 TIMESTAMP at byte 6 is neither - nor an RFC 3339 date-time',
    ],
    [
      'a date that does not exist',
      '<13>1 2025-02-29T00:00:00Z h a - - - x',
      'SR3022',
      'RFC 5424 TIMESTAMP at byte 6 is neither - nor an RFC 3339 date-time',
    ],
    [
      'a leap second',
      '<13>1 2016-12-31T23:59:60Z h a - - - x',
      'SR3022',
      'RFC 5424 TIMESTAMP at byte 6 is neither - nor an RFC 3339 date-time',
    ],
    [
      'a TIMESTAMP without zone',
      '<13>1 2016-12-31T23:59:59 h a - - - x',
      'SR3022',
      'RFC 5424 TIMESTAMP at byte 6 is neither - nor an RFC 3339 date-time',
    ],
    [
      'an empty TIMESTAMP',
      '<13>1  h a - - - x',
      'SR3022',
      'RFC 5424 TIMESTAMP at byte 6 is neither - nor an RFC 3339 date-time',
    ],
    [
      'a fraction point without digits',
      '<13>1 2016-12-31T23:59:59.Z h a - - - x',
      'SR3022',
      'RFC 5424 TIMESTAMP at byte 6 is neither - nor an RFC 3339 date-time',
    ],
    ['the header ends after TIMESTAMP', '<13>1 -', 'SR3021', 'the RFC 5424 header ends before HOSTNAME'],
    ['the header ends after HOSTNAME', '<13>1 - h', 'SR3021', 'the RFC 5424 header ends before APP-NAME'],
    ['the header ends after PROCID', '<13>1 - h a p', 'SR3021', 'the RFC 5424 header ends before MSGID'],
    [
      'an empty HOSTNAME (two spaces)',
      '<13>1 -  a p m - x',
      'SR3023',
      'RFC 5424 HOSTNAME at byte 8 must be - or 1–255 printable US-ASCII characters (33–126)',
    ],
    [
      'a non-ASCII APP-NAME',
      '<13>1 - h äpp p m - x',
      'SR3023',
      'RFC 5424 APP-NAME at byte 10 must be - or 1–48 printable US-ASCII characters (33–126)',
    ],
    [
      'a control character in PROCID',
      '<13>1 - h a p\tq m - x',
      'SR3023',
      'RFC 5424 PROCID at byte 13 must be - or 1–128 printable US-ASCII characters (33–126)',
    ],
    [
      'a MSGID over 32 characters',
      `<13>1 - h a p ${'m'.repeat(33)} - x`,
      'SR3023',
      'RFC 5424 MSGID at byte 14 must be - or 1–32 printable US-ASCII characters (33–126)',
    ],
    [
      'an SD element that is not closed',
      '<13>1 - h a - - [x@1 a="1"',
      'SR3024',
      'RFC 5424 STRUCTURED-DATA is malformed at byte 26: expected SP or "]" after an SD-ID or SD-PARAM',
    ],
    [
      'an unescaped "]" in an SD value',
      '<13>1 - h a - - [x@1 a="]"] x',
      'SR3024',
      'RFC 5424 STRUCTURED-DATA is malformed at byte 24: a PARAM-VALUE has a "]" that is not escaped as \\]',
    ],
    [
      'an SD value that is not closed',
      '<13>1 - h a - - [x@1 a="1] x',
      'SR3024',
      'RFC 5424 STRUCTURED-DATA is malformed at byte 25: a PARAM-VALUE has a "]" that is not escaped as \\]',
    ],
    [
      'text right after an SD element',
      '<13>1 - h a - - [x@1]text',
      'SR3024',
      'RFC 5424 STRUCTURED-DATA is malformed at byte 21: an SD-ELEMENT must be followed by SP, "[" or the end of the message',
    ],
    [
      'an empty SD-ID',
      '<13>1 - h a - - [] x',
      'SR3024',
      'RFC 5424 STRUCTURED-DATA is malformed at byte 17: an SD-ID must be 1–32 printable US-ASCII characters other than =, SP, ] and "',
    ],
  ];
  for (const [name, payload, code, reason] of cases) {
    it(name, () => {
      const error = decodeError(payload);
      assert.deepEqual({ code: error.code, reason: error.reason }, { code, reason });
      // The detail holds the same position and the wire schema's field name, never the content.
      assert.equal(error.detail?.at, /at (byte \d+)/.exec(reason)?.[1]);
    });
  }
});
