import assert from 'node:assert/strict';
import { decoded, fields, type RecordView } from '../../../test/fixtures/syslog-codec.js';

// Decision (docs/codecs-syslog.md): PRI is read as RFC 5424 §6.2.1 writes it. A payload that starts with
// "<" but has no such PRI gets priority 13 and is all message; one without "<" is RFC 3164 without PRI.
describe('PRI', () => {
  const cases: [name: string, payload: string, expected: RecordView][] = [
    ['one digit', '<7>x', fields({ facility: 0, severity: 7, message: 'x' })],
    ['three digits', '<134>x', fields({ facility: 16, severity: 6, message: 'x' })],
    [
      '"0" alone is fine',
      '<0>1 - h a - - - x',
      fields({ facility: 0, severity: 0, hostname: 'h', app_name: 'a', message: 'x' }),
    ],
    [
      'leading zeros: unparseable, all message',
      '<013>1 - h a - - - x',
      fields({ message: '<013>1 - h a - - - x' }),
    ],
    ['"00": unparseable', '<00>x', fields({ message: '<00>x' })],
    ['above 191: unparseable', '<192>x', fields({ message: '<192>x' })],
    [
      'far above 191: unparseable',
      '<999>Jun  3 12:00:00 h a: x',
      fields({ message: '<999>Jun  3 12:00:00 h a: x' }),
    ],
    ['four digits: unparseable', '<1234>x', fields({ message: '<1234>x' })],
    ['"<" without ">"', '<13 hello', fields({ message: '<13 hello' })],
    ['"<" alone', '<', fields({ message: '<' })],
    ['"<>"', '<>x', fields({ message: '<>x' })],
    ['letters', '<abc>x', fields({ message: '<abc>x' })],
    ['a sign', '<-1>x', fields({ message: '<-1>x' })],
    ['a PRI that is the whole payload', '<191>', fields({ facility: 23, severity: 7 })],
    ['no "<": RFC 3164 without PRI', 'app: x', fields({ app_name: 'app', message: 'x' })],
  ];
  for (const [name, payload, expected] of cases) {
    it(name, () => assert.deepEqual(decoded(payload), expected));
  }
});
