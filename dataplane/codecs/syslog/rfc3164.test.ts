import assert from 'node:assert/strict';
import { decoded, fields, type RecordView } from '../../../test/fixtures/syslog-codec.js';

// The fixture's clock is in 2025: BSD timestamps without a year decode into 2025, read as UTC.
describe('RFC 3164 decoding: the habits of real senders', () => {
  const cases: [name: string, payload: string, expected: RecordView][] = [
    [
      'RFC 3164 §5.4 example: HOSTNAME, TAG ending at ":"',
      "<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8",
      fields({
        facility: 4,
        severity: 2,
        timestamp: '2025-10-11T22:14:15Z',
        hostname: 'mymachine',
        app_name: 'su',
        message: "'su root' failed for lonvick on /dev/pts/8",
      }),
    ],
    [
      'a day padded with a space (Jun  3)',
      '<13>Jun  3 07:08:09 host app: x',
      fields({ timestamp: '2025-06-03T07:08:09Z', hostname: 'host', app_name: 'app', message: 'x' }),
    ],
    [
      'a day padded with a zero (Jun 03)',
      '<13>Jun 03 07:08:09 host app: x',
      fields({ timestamp: '2025-06-03T07:08:09Z', hostname: 'host', app_name: 'app', message: 'x' }),
    ],
    [
      'a day not padded (Jun 3)',
      '<13>Jun 3 07:08:09 host app: x',
      fields({ timestamp: '2025-06-03T07:08:09Z', hostname: 'host', app_name: 'app', message: 'x' }),
    ],
    [
      'no HOSTNAME (journald/chronyd forwarding): the token after the timestamp is the TAG with a PID',
      '<30>Jun 23 13:17:42 chronyd[1119]: Selected source 192.0.2.1',
      fields({
        facility: 3,
        severity: 6,
        timestamp: '2025-06-23T13:17:42Z',
        app_name: 'chronyd',
        proc_id: '1119',
        message: 'Selected source 192.0.2.1',
      }),
    ],
    [
      'no HOSTNAME, a TAG ending at ":"',
      '<13>Jun 23 13:17:42 myapp: hi',
      fields({ timestamp: '2025-06-23T13:17:42Z', app_name: 'myapp', message: 'hi' }),
    ],
    [
      'a TAG ending at "[" with a PID, then ":"',
      '<86>Jun  3 12:00:00 host sshd[4242]: Accepted publickey for root',
      fields({
        facility: 10,
        severity: 6,
        timestamp: '2025-06-03T12:00:00Z',
        hostname: 'host',
        app_name: 'sshd',
        proc_id: '4242',
        message: 'Accepted publickey for root',
      }),
    ],
    [
      'a PID without the ":" after it',
      '<13>Jun  3 12:00:00 host app[7] text',
      fields({
        timestamp: '2025-06-03T12:00:00Z',
        hostname: 'host',
        app_name: 'app',
        proc_id: '7',
        message: 'text',
      }),
    ],
    [
      'a TAG with "/", "." and "-" (systemd units, postfix)',
      '<22>Jun  3 12:00:00 mx postfix/smtpd[99]: connect from unknown',
      fields({
        facility: 2,
        severity: 6,
        timestamp: '2025-06-03T12:00:00Z',
        hostname: 'mx',
        app_name: 'postfix/smtpd',
        proc_id: '99',
        message: 'connect from unknown',
      }),
    ],
    [
      'a "[" at the start of the message is text, not structured data',
      '<6>Jun  3 12:00:00 host kernel: [  12.345678] usb 1-1: new high-speed USB device',
      fields({
        facility: 0,
        severity: 6,
        timestamp: '2025-06-03T12:00:00Z',
        hostname: 'host',
        app_name: 'kernel',
        message: '[  12.345678] usb 1-1: new high-speed USB device',
      }),
    ],
    [
      'no TAG: a word not followed by ":" or "[" is message text (rsyslog forwarding a TAG without colon)',
      '<165>Nov 24 13:37:50 vm myapp hello world',
      fields({
        facility: 20,
        severity: 5,
        timestamp: '2025-11-24T13:37:50Z',
        hostname: 'vm',
        message: 'myapp hello world',
      }),
    ],
    [
      'an RFC 3339 timestamp (rsyslog RSYSLOG_ForwardFormat), offset applied',
      '<165>2026-11-24T13:37:50.915572+01:00 vm myapp[6750]: hello',
      fields({
        facility: 20,
        severity: 5,
        timestamp: '2026-11-24T12:37:50.915572Z',
        hostname: 'vm',
        app_name: 'myapp',
        proc_id: '6750',
        message: 'hello',
      }),
    ],
    [
      'an RFC 3339 timestamp with nine fractional digits and lower-case t and z',
      '<13>2026-11-24t13:37:50.123456789z vm app: x',
      fields({ timestamp: '2026-11-24T13:37:50.123456789Z', hostname: 'vm', app_name: 'app', message: 'x' }),
    ],
    [
      'Cisco IOS: sequence number, "*" clock mark, milliseconds, zone name, no HOSTNAME',
      '<189>123: *Mar  1 18:48:50.483 UTC: %SYS-5-CONFIG_I: Configured from console by vty0 (10.0.0.1)',
      fields({
        facility: 23,
        severity: 5,
        timestamp: '2025-03-01T18:48:50.483Z',
        app_name: '%SYS-5-CONFIG_I',
        message: 'Configured from console by vty0 (10.0.0.1)',
      }),
    ],
    [
      'Cisco IOS: "." clock mark (synchronisation lost), no zone',
      '<187>45: .Jun  3 12:00:00.001: %LINK-3-UPDOWN: Interface Gi0/1, changed state to down',
      fields({
        facility: 23,
        severity: 3,
        timestamp: '2025-06-03T12:00:00.001Z',
        app_name: '%LINK-3-UPDOWN',
        message: 'Interface Gi0/1, changed state to down',
      }),
    ],
    [
      'Cisco ASA: the year before the time, and ":" after it',
      '<166>Jun 03 2024 12:00:00: %ASA-6-302013: Built outbound TCP connection',
      fields({
        facility: 20,
        severity: 6,
        timestamp: '2024-06-03T12:00:00Z',
        app_name: '%ASA-6-302013',
        message: 'Built outbound TCP connection',
      }),
    ],
    [
      'a zone name is skipped, never applied (RFC 3164 times are read as UTC)',
      '<189>7: Mar  1 18:48:50 CEST: %SYS-5-RESTART: System restarted',
      fields({
        facility: 23,
        severity: 5,
        timestamp: '2025-03-01T18:48:50Z',
        app_name: '%SYS-5-RESTART',
        message: 'System restarted',
      }),
    ],
    [
      'an upper-case TAG after the timestamp is not taken for a zone name',
      '<13>Jun  3 12:00:00 CRON: job done',
      fields({ timestamp: '2025-06-03T12:00:00Z', app_name: 'CRON', message: 'job done' }),
    ],
    [
      'digits and ":" without a timestamp after them are not a sequence number',
      '<13>123: hello',
      fields({ app_name: '123', message: 'hello' }),
    ],
    [
      'no timestamp: no HOSTNAME either, but a TAG',
      '<13>myapp[12]: started',
      fields({ app_name: 'myapp', proc_id: '12', message: 'started' }),
    ],
    [
      'no timestamp and no TAG: all of it is the message',
      '<13>hello world',
      fields({ message: 'hello world' }),
    ],
    [
      'a space inside HOSTNAME: HOSTNAME is the first word, the rest is no TAG, so message',
      '<13>Jun  3 12:00:00 my host su: x',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'my', message: 'host su: x' }),
    ],
    [
      'an IPv6 address as HOSTNAME',
      '<13>Jun  3 12:00:00 2001:db8::1 app: x',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: '2001:db8::1', app_name: 'app', message: 'x' }),
    ],
    ['a timestamp and nothing else', '<13>Jun  3 12:00:00', fields({ timestamp: '2025-06-03T12:00:00Z' })],
    [
      'a HOSTNAME and no TAG or message',
      '<13>Jun  3 12:00:00 host ',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'host' }),
    ],
    [
      'a TAG at the end of the payload',
      '<13>Jun  3 12:00:00 host app:',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'host', app_name: 'app' }),
    ],
    [
      'a TAG longer than 48 characters is message text',
      `<13>Jun  3 12:00:00 host ${'t'.repeat(49)}: x`,
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'host', message: `${'t'.repeat(49)}: x` }),
    ],
    [
      'a PID that is not closed is message text',
      '<13>Jun  3 12:00:00 host app[12 x',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'host', message: 'app[12 x' }),
    ],
    [
      'a ":" not followed by SP does not end a TAG',
      '<13>Jun  3 12:00:00 host http://example.com/ down',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'host', message: 'http://example.com/ down' }),
    ],
    [
      'a non-ASCII word is neither HOSTNAME nor TAG',
      '<13>Jun  3 12:00:00 hôte app: x',
      fields({ timestamp: '2025-06-03T12:00:00Z', message: 'hôte app: x' }),
    ],
    [
      'a UTF-8 BOM before MSG is dropped',
      '<13>Jun  3 12:00:00 host app: \uFEFFtext',
      fields({ timestamp: '2025-06-03T12:00:00Z', hostname: 'host', app_name: 'app', message: 'text' }),
    ],
    [
      'an invalid time (25:00:00) is no timestamp',
      '<13>Jun  3 25:00:00 host app: x',
      fields({ message: 'Jun  3 25:00:00 host app: x' }),
    ],
    [
      'month names are case-sensitive, as RFC 3164 writes them',
      '<13>JUN  3 12:00:00 host app: x',
      fields({ message: 'JUN  3 12:00:00 host app: x' }),
    ],
  ];
  for (const [name, payload, expected] of cases) {
    it(name, () => assert.deepEqual(decoded(payload), expected));
  }
});
