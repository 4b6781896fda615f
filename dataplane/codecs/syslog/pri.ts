// PRI, the `<n>` that opens a syslog message (RFC 5424 §6.2.1; RFC 3164 §4.1.1). Read exactly as
// RFC 5424 writes it: `<`, one to three digits without a leading zero (`0` alone is fine), `>`, a value
// of 0–191. Anything else — `<013>`, `<192>`, `<abc>`, a `<` without `>` — is an unparseable PRI, which
// docs/codecs-syslog.md ("Decoding", step 3) turns into priority 13; what the codec then does with the text
// is in syslog-frame.ts.
import { DIGIT_0, GT, LT, digitRun, digits, type SyslogScan } from './syslog-scan.js';

const MAX_PRIORITY = 191;
const MAX_PRI_DIGITS = 3;

/** Index after a valid PRI at the payload's start (and `scan.priority` set), or -1. */
export function readPri(bytes: Uint8Array, end: number, scan: SyslogScan): number {
  if (bytes[0] !== LT) return -1;
  // One digit more than allowed is enough to tell that there are too many.
  const close = digitRun(bytes, 1, Math.min(end, MAX_PRI_DIGITS + 2));
  const count = close - 1;
  if (count === 0 || count > MAX_PRI_DIGITS || close >= end || bytes[close] !== GT) return -1;
  if (count > 1 && bytes[1] === DIGIT_0) return -1;
  const value = digits(bytes, 1, count);
  if (value > MAX_PRIORITY) return -1;
  scan.priority = value;
  return close + 1;
}
