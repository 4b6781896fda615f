// SYSLOG decode (dataplane/codecs/syslog/): one frame, RFC 5424 or RFC 3164 detected per frame, decodes to
// one record or one message error, never a throw; a record it decodes encodes again without a throw.
import assert from 'node:assert/strict';
import { decodeWith, syslogCodec } from '../../fixtures/syslog-codec.js';
import { filesEnding, texts } from '../seeds.js';
import type { FuzzTarget } from '../target.js';
import { SYSLOG_PIECES } from '../../fixtures/syslog-codec.js';

const codec = syslogCodec();
/** A codec keeping only a few fields takes the parser's other paths (pieces skipped, not sliced). */
const narrow = syslogCodec(['facility', 'severity', 'message']);

export const target: FuzzTarget = {
  // A listener's default max_message_size (operator/api/kinds/syslog-client.ts).
  maxBytes: 131_072,
  tokens: [
    ...SYSLOG_PIECES,
    '\\\\',
    '\ud800',
    '\ufeff',
    '\xef\xbb\xbf',
    '\\"',
    '\\]',
    '.1234567890123',
    '-23:59',
    'BOM',
    '[id a="1"]',
    '[x@32473 k="v"]',
    'host ',
    'app[123]: ',
  ],
  nests: [
    ['[a b="', '"]'],
    ['[', ']'],
    ['"', '"'],
    ['\\', ''],
  ],
  seeds: () => [
    ...filesEnding(['examples'], ['.syslog']),
    ...texts(
      "<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - BOM'su root' failed for lonvick on /dev/pts/8",
      "<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - - %% It's time to make the do-nuts.",
      '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"][examplePriority@32473 class="high"]',
      "<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8",
      '<13>Feb 29 12:00:00 host app[123]: message',
      '<13>2024-01-02T03:04:05Z host app: message',
      'no pri at all',
    ),
  ],
  run(input) {
    let accepted = false;
    for (const each of [codec, narrow]) {
      const result = decodeWith(each, input);
      if ('error' in result) continue;
      assert.equal(result.records.length, 1, 'one frame decodes to one record');
      accepted = true;
      if (each !== codec) continue;
      const encoded = codec.encode(result.records[0] ?? {});
      assert.ok(!(encoded instanceof Promise), 'the SYSLOG codec encodes synchronously');
    }
    return accepted;
  },
};
