// The SYSLOG codec against real software: it decodes what util-linux `logger` sends (RFC 5424 and RFC
// 3164 over UDP), and what rsyslog and syslog-ng write when they forward logger's messages with their
// standard RFC 5424 and RFC 3164 formats. Every field is compared exactly: logger's messages against the
// arguments it was given (its clock only within the time it ran), and each forwarded message against
// logger's original, decoded, changed only by what that daemon's format documents.
//
// Peers: bash test/support/install-syslog-peers.sh. A missing peer skips with a console line, or fails
// when CI is set.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { SYSLOG_FIELDS } from '../../dataplane/graph/types.js';
import { decoded, syslogCodec, type RecordView } from '../fixtures/syslog-codec.js';
import { startRsyslog, startSyslogNg, type Forwarder } from '../support/syslog-daemons.js';
import {
  LOGGER,
  RSYSLOGD,
  SYSLOGNG,
  UdpTap,
  requireSyslogPeer,
  runLogger,
  startPeer,
} from '../support/syslog-peers.js';

/** The real clock: RFC 3164 timestamps from the peers are in the current year. */
const codec = syslogCodec(SYSLOG_FIELDS, Date.now);
const decode = (datagram: Uint8Array) => decoded(datagram, codec);

const SD_ARGS = [
  '--sd-id',
  'ex@32473',
  '--sd-param',
  'a="q\\"b\\\\c\\]d"',
  '--sd-id',
  'two@1',
  '--sd-param',
  'x="1"',
];
const SD_TEXT = '[ex@32473 a="q\\"b\\\\c\\]d"][two@1 x="1"]';

interface Feed {
  name: string;
  rfc: 5424 | 3164;
  args: string[];
}

const FEEDS: Feed[] = [
  {
    name: 'RFC 5424 with --sd-id/--sd-param, --msgid, a tag and -i',
    rfc: 5424,
    args: [
      '--rfc5424',
      '-i',
      '-t',
      'myapp',
      '-p',
      'local4.notice',
      '--msgid',
      'ID47',
      ...SD_ARGS,
      'hello 5424 grüße',
    ],
  },
  {
    name: 'RFC 3164 with a tag and -i',
    rfc: 3164,
    args: ['--rfc3164', '-i', '-t', 'myapp', '-p', 'local4.notice', 'hello 3164'],
  },
  {
    name: 'RFC 3164 whose message begins with "["',
    rfc: 3164,
    args: ['--rfc3164', '-t', 'kernel', '-p', 'kern.info', '[  12.3] usb 1-1: new device'],
  },
];

/** Sends one message with logger to `port`; resolves with logger's PID and the time window it ran in. */
async function sendWithLogger(args: readonly string[], port: number) {
  const before = Date.now();
  const message = args.at(-1)!;
  const { pid } = await runLogger([
    ...args.slice(0, -1),
    '--server',
    '127.0.0.1',
    '--port',
    String(port),
    '--udp',
    message,
  ]);
  return { pid, before, after: Date.now() };
}

/** The decoded timestamp lies within [from, to] at the given precision (logger's clock ran then). */
function assertTimestampWithin(
  timestamp: string | number | null,
  from: number,
  to: number,
  precisionMs: number,
): void {
  assert.equal(typeof timestamp, 'string');
  const at = Date.parse(timestamp as string);
  assert.ok(
    at >= Math.floor(from / precisionMs) * precisionMs && at <= to,
    `${String(timestamp)} outside the run`,
  );
}

/** A decoded record with the timestamp cut to whole seconds (formats without a fraction). */
function toSeconds(record: RecordView): RecordView {
  const timestamp = record['timestamp'];
  return {
    ...record,
    timestamp: typeof timestamp === 'string' ? timestamp.replace(/\.\d+Z$/, 'Z') : (timestamp ?? null),
  };
}

describe('SYSLOG codec interop: util-linux logger', function () {
  let tap: UdpTap;
  before(async function () {
    requireSyslogPeer(this, 'util-linux logger', LOGGER);
    tap = await new UdpTap().open();
  });
  after(() => tap?.close());

  it('RFC 5424 with --sd-id/--sd-param, --msgid, a tag, -i and timeQuality', async () => {
    const run = await sendWithLogger(FEEDS[0]!.args, tap.port);
    const record = decode(await tap.next());
    assertTimestampWithin(record['timestamp'] ?? null, run.before, run.after, 1);
    assert.match(
      String(record['structured_data']),
      /^\[timeQuality tzKnown="1" isSynced="[01]"( syncAccuracy="\d+")?\]/,
    );
    assert.ok(String(record['structured_data']).endsWith(SD_TEXT));
    assert.deepEqual(
      { ...record, timestamp: null, structured_data: null },
      {
        facility: 20,
        severity: 5,
        timestamp: null,
        hostname: hostname(),
        app_name: 'myapp',
        proc_id: String(run.pid),
        msg_id: 'ID47',
        structured_data: null,
        message: 'hello 5424 grüße',
      },
    );
  });

  it('RFC 5424 without time quality or time (--rfc5424=notq,notime): exact SD, NILVALUE timestamp', async () => {
    const args = ['--rfc5424=notq,notime', '-t', 'app', '-p', 'daemon.err', ...SD_ARGS, 'x'];
    await sendWithLogger(args, tap.port);
    assert.deepEqual(decode(await tap.next()), {
      facility: 3,
      severity: 3,
      timestamp: null,
      hostname: hostname(),
      app_name: 'app',
      proc_id: null,
      msg_id: null,
      structured_data: SD_TEXT,
      message: 'x',
    });
  });

  it('RFC 3164 with a tag and -i', async () => {
    const run = await sendWithLogger(FEEDS[1]!.args, tap.port);
    const record = decode(await tap.next());
    assertTimestampWithin(record['timestamp'] ?? null, run.before, run.after, 1000);
    assert.deepEqual(
      { ...record, timestamp: null },
      {
        facility: 20,
        severity: 5,
        timestamp: null,
        hostname: hostname().split('.')[0] ?? '',
        app_name: 'myapp',
        proc_id: String(run.pid),
        msg_id: null,
        structured_data: null,
        message: 'hello 3164',
      },
    );
  });

  it('RFC 3164 whose message begins with "[" (not structured data)', async () => {
    await sendWithLogger(FEEDS[2]!.args, tap.port);
    const record = decode(await tap.next());
    assert.deepEqual(
      { ...record, timestamp: null },
      {
        facility: 1, // logger sends kern as user: only the kernel may log as kern
        severity: 6,
        timestamp: null,
        hostname: hostname().split('.')[0] ?? '',
        app_name: 'kernel',
        proc_id: null,
        msg_id: null,
        structured_data: null,
        message: '[  12.3] usb 1-1: new device',
      },
    );
  });
});

/**
 * What a forwarder's output format keeps of the original: each daemon's standard format, per feed.
 * `same` keeps every field; the others are the documented differences.
 */
type Expectation = (original: RecordView, feed: Feed) => RecordView;
const same: Expectation = (original) => original;
/** RFC 3164 carries no MSGID and no STRUCTURED-DATA. */
const bsd: Expectation = (original) => ({ ...original, msg_id: null, structured_data: null });
/** rsyslog's RFC 5424 output of an RFC 3164 message keeps the SP after the TAG's ":" in MSG. */
const rsyslog5424: Expectation = (original, feed) =>
  feed.rfc === 3164 ? { ...original, message: ` ${String(original['message'])}` } : original;

function forwardingSuite(
  name: string,
  binary: string,
  start: () => Promise<Forwarder>,
  outputs: Record<string, Expectation>,
): void {
  describe(`SYSLOG codec interop: ${name} as a forwarder`, function () {
    this.timeout(60_000);
    let forwarder: Forwarder | undefined;
    let tap: UdpTap;
    before(async function () {
      requireSyslogPeer(this, 'util-linux logger', LOGGER);
      requireSyslogPeer(this, name, binary);
      tap = await new UdpTap().open();
      forwarder = await startPeer(this, name, start);
    });
    after(async () => {
      tap?.close();
      await forwarder?.stop();
    });

    for (const feed of FEEDS) {
      it(`${feed.name}: every output format decodes to the original's fields`, async () => {
        // logger → the test's socket → the daemon: the original is known byte for byte.
        await sendWithLogger(feed.args, tap.port);
        const datagram = await tap.next();
        const original = decode(datagram);
        const inputs = forwarder!.inputs;
        await tap.send(
          datagram,
          (feed.rfc === 5424 ? inputs['rfc5424'] : inputs['rfc3164']) ?? inputs['any']!,
        );
        for (const [output, expect] of Object.entries(outputs)) {
          const forwarded = decode(await forwarder!.outputs[output]!.next());
          assert.deepEqual(forwarded, expect(original, feed), `${name} ${output}`);
        }
      });
    }
  });
}

forwardingSuite('rsyslog', RSYSLOGD, startRsyslog, {
  RSYSLOG_SyslogProtocol23Format: rsyslog5424,
  // `<PRI>Mmm dd hh:mm:ss HOST TAG MSG`: whole seconds; for an RFC 5424 original, TAG is `app[pid]` without ":".
  RSYSLOG_TraditionalForwardFormat: (original, feed) => toSeconds(bsd(original, feed)),
  // the same with an RFC 3339 timestamp (microseconds kept)
  RSYSLOG_ForwardFormat: bsd,
});

forwardingSuite('syslog-ng', SYSLOGNG, startSyslogNg, {
  // syslog(): RFC 5424, with frac_digits(6)
  syslog: same,
  // network(): BSD `<PRI>Mmm dd hh:mm:ss.ffffff HOST TAG[PID]: MSG`
  network: bsd,
});
