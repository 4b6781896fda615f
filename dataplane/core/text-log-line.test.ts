import assert from 'node:assert/strict';
import fc from 'fast-check';
import { localIsoTime, textLogLine } from './text-log-line.js';
import { processLogger } from './process-logger.js';

/** A logger of `format` whose lines are kept, at a fixed time. */
function capture(format: 'json' | 'text', level = 'trace') {
  const lines: string[] = [];
  const logger = processLogger(level, format, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}

/** `key=value` pairs of a text line's fields (values bare, or JSON strings), in order. */
function fieldsOf(line: string): [string, string][] {
  return [...line.matchAll(/ ([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|[^\s"]+)/g)].map(
    ([, key = '', value = '']) => [key, value.startsWith('"') ? (JSON.parse(value) as string) : value],
  );
}

const TEXT_LINE =
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S.*\n$/;

describe('text log lines (text-log-line.ts)', () => {
  it('one line: local ISO 8601 time with its offset, level, message, then the fields as key=value', () => {
    const { logger, lines } = capture('text');
    logger
      .child({ component: 'http-ingestion' })
      .info(
        { event: 'http_listening', listener: 'http', address: '127.0.0.1:8080', port: 8080, tls: false },
        'listening',
      );
    assert.equal(lines.length, 1);
    const [line = ''] = lines;
    assert.match(line, TEXT_LINE);
    assert.match(
      line,
      / INFO  listening component=http-ingestion event=http_listening listener=http address=127\.0\.0\.1:8080 port=8080 tls=false\n$/,
    );
    const time = line.slice(0, line.indexOf(' '));
    assert.ok(Math.abs(Date.parse(time) - Date.now()) < 60_000, time);
  });

  it('names every level, and shows neither pid nor hostname (a field named pid stays)', () => {
    const { logger, lines } = capture('text');
    logger.trace('t');
    logger.debug('d');
    logger.info('i');
    logger.warn({ pid: 4711 }, 'w');
    logger.error('e');
    logger.fatal('f');
    assert.deepEqual(
      lines.map((line) => line.split(' ').slice(1).join(' ')),
      ['TRACE t\n', 'DEBUG d\n', 'INFO  i\n', 'WARN  w pid=4711\n', 'ERROR e\n', 'FATAL f\n'],
    );
    assert.doesNotMatch(lines.join(''), /hostname/);
  });

  it('writes the local time with the offset that applied then, in any time zone', () => {
    const saved = process.env.TZ;
    const at = Date.UTC(2026, 10, 27, 16, 48, 21, 7);
    const cases: [string, string][] = [
      ['UTC', '2026-11-27T16:48:21.007+00:00'],
      ['Asia/Kolkata', '2026-11-27T22:18:21.007+05:30'],
      ['America/St_Johns', '2026-11-27T13:18:21.007-03:30'],
      ['Pacific/Chatham', '2026-11-28T06:33:21.007+13:45'],
    ];
    try {
      for (const [zone, expected] of cases) {
        process.env.TZ = zone;
        assert.equal(localIsoTime(at), expected, zone);
        assert.equal(Date.parse(localIsoTime(at)), at);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('any field values stay one line and read back exactly (generated)', () => {
    const reserved = new Set(['level', 'time', 'msg']);
    const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/).filter((k) => !reserved.has(k));
    // A message is free text; one without `=` cannot be taken for a field when the line is read back.
    const message = fc.string({ unit: 'binary', maxLength: 20 }).filter((m) => !m.includes('='));
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.string({ unit: 'binary', maxLength: 12 }), { maxKeys: 5 }),
        message,
        (fields, msg) => {
          const line = textLogLine(JSON.stringify({ level: 30, time: 0, msg, ...fields }));
          assert.equal(line.indexOf('\n'), line.length - 1, 'one line');
          assert.doesNotMatch(line.slice(0, -1), /\p{Cc}/u, 'no control character');
          assert.deepEqual(fieldsOf(line), Object.entries(fields));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('regression: DEL and C1 control characters came through raw (JSON.stringify leaves them)', () => {
    const line = textLogLine(JSON.stringify({ level: 40, time: 0, msg: 'a\u007fb', code: 'x\u0085y' }));
    assert.match(line, / WARN  "a\\u007fb" code="x\\u0085y"\n$/);
  });

  it('passes on a line that is not a JSON object as it is', () => {
    assert.equal(textLogLine('not json'), 'not json\n');
    assert.equal(textLogLine('[1,2]\n'), '[1,2]\n');
  });
});
