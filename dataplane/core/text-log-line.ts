// `--log-format text`: one pino record (a JSON line) as one line for a person at a terminal —
//
//   2026-11-27T17:48:21.123+01:00 INFO  listening component=http-ingestion listener=http port=38085
//
// the local time in ISO 8601 with its offset, the level, the message, and every other field as key=value
// in the order the record has them. Only the layout changes: a line carries the same fields as its JSON
// twin, so what the code never logs (payload values, SENSITIVE fields, key material) is not in either.
// One record is always one line: a value with a space, a quote, `=` or a control character is written as
// a JSON string (`detail="the peer closed"`, `error="a\nb"`), objects and arrays as their JSON.

/** pino's numeric levels, as the text line names them (padded to one width). */
const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields the line shows in its own places rather than as key=value. */
const PLACED = new Set(['level', 'time', 'msg']);

/** Text that needs no quotes: no space, quote, backslash, `=` or control character, and not empty. */
const BARE = /^[^\s"'\\=\p{Cc}]+$/u;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** `2026-11-27T17:48:21.123+01:00`: the local time of `epochMs`, with the offset that applied then. */
export function localIsoTime(epochMs: number): string {
  const at = new Date(epochMs);
  const offset = -at.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  const date = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  const ms = String(at.getMilliseconds()).padStart(3, '0');
  return `${date}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${ms}${zone}`;
}

/** A JSON string that escapes every control character (JSON.stringify leaves DEL and C1 ones as they are). */
function quoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function text(value: string): string {
  return BARE.test(value) ? value : quoted(value);
}

/** A field's value: strings bare when they can be, other scalars as written, objects as JSON. */
export function fieldValue(value: unknown): string {
  if (typeof value === 'string') return text(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (value === undefined) return 'undefined';
  return text(JSON.stringify(value));
}

function levelName(level: unknown): string {
  if (typeof level === 'number') return LEVELS[level] ?? `L${level}`.padEnd(5);
  return String(level).toUpperCase().padEnd(5);
}

/** The text line (ending in `\n`) of one record; a line that is not a JSON object is passed on as it is. */
export function textLogLine(json: string): string {
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return json.endsWith('\n') ? json : `${json}\n`;
  const fields = record as Record<string, unknown>;
  const parts = [
    typeof fields['time'] === 'number' ? localIsoTime(fields['time']) : '-',
    levelName(fields['level']),
  ];
  const message = fields['msg'];
  if (typeof message === 'string' && message !== '')
    parts.push(/\p{Cc}/u.test(message) ? quoted(message) : message);
  for (const [key, value] of Object.entries(fields)) {
    if (PLACED.has(key)) continue;
    parts.push(`${text(key)}=${fieldValue(value)}`);
  }
  return `${parts.join(' ')}\n`;
}
