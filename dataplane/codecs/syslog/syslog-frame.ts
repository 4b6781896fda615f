// One syslog frame, scanned once from the start: PRI, then RFC 5424 when `1 ` follows a valid PRI,
// otherwise RFC 3164 (detected per message: docs/codecs-syslog.md, "Decoding"). Decisions
// (docs/codecs-syslog.md):
//
//   - no PRI (the first byte is not `<`): priority 13, and the frame is read as RFC 3164 from its first byte;
//   - an unparseable PRI (`<013>`, `<192>`, `<abc>`, `<` without `>`): priority 13, and the whole frame is
//     the message, every other field null, since nothing after a broken PRI can be trusted to be a header;
//   - `<PRI>` followed by a version other than `1 ` is RFC 3164 (RFC 5424 has only version 1).
import type { MessageError } from '../../core/errors.js';
import { readPri } from './pri.js';
import { scanRfc3164 } from './rfc3164.js';
import { scanRfc5424 } from './rfc5424.js';
import { StructuredDataScanner } from './structured-data.js';
import { LT, SP, SyslogScan, type CurrentYear } from './syslog-scan.js';

const ONE = 0x31;

/** The current year of a wall clock, recomputed only when the clock leaves the year it last saw. */
export class UtcYear implements CurrentYear {
  #year = 0;
  #from = 0;
  #until = 0;

  constructor(private readonly now: () => number) {}

  current(): number {
    const now = this.now();
    if (now >= this.#from && now < this.#until) return this.#year;
    this.#year = new Date(now).getUTCFullYear();
    this.#from = Date.UTC(this.#year, 0, 1);
    this.#until = Date.UTC(this.#year + 1, 0, 1);
    return this.#year;
  }
}

export class FrameScanner {
  readonly scan: SyslogScan;
  readonly sd = new StructuredDataScanner();

  constructor(year: CurrentYear) {
    this.scan = new SyslogScan(year);
  }

  /** Scans `bytes[0, end)` into `this.scan`, or returns why the frame does not decode. */
  read(bytes: Uint8Array, end: number): MessageError | undefined {
    const scan = this.scan;
    scan.reset(end);
    const afterPri = readPri(bytes, end, scan);
    if (afterPri < 0 && bytes[0] === LT) {
      scan.msgStart = 0;
      return undefined;
    }
    if (afterPri < 0) {
      scanRfc3164(bytes, 0, end, scan);
      return undefined;
    }
    if (bytes[afterPri] === ONE && bytes[afterPri + 1] === SP) {
      return scanRfc5424(bytes, afterPri + 2, end, this);
    }
    scanRfc3164(bytes, afterPri, end, scan);
    return undefined;
  }
}
