// RFC 5424 STRUCTURED-DATA (§6.3), checked byte by byte. The decoder keeps the exact text
// (docs/codecs-syslog.md, "RFC 5424") and the encoder emits a record's text verbatim, so both need only to
// know where well-formed elements end, never their parsed form:
//
//   SD-ELEMENT  = "[" SD-ID *(SP SD-PARAM) "]"         SD-PARAM = PARAM-NAME "=" %d34 PARAM-VALUE %d34
//   SD-ID, PARAM-NAME = 1*32 printable US-ASCII except "=", SP, "]", %d34
//   PARAM-VALUE = UTF-8 text in which %d34, "\" and "]" MUST be escaped with "\"
//
// Decisions (docs/codecs-syslog.md): a "\" before any other character is an ordinary character, as §6.3.3
// says; an unescaped "]" inside a value is malformed (it MUST be escaped); the uniqueness of SD-IDs and
// the IANA registry of names without "@" are not checked (they do not change where the text ends, and a
// relay must not drop a message for them). Problems name the rule and a byte offset, never content.
import { RBRACKET, SP } from './syslog-scan.js';

const EQUALS = 0x3d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACKET = 0x5b;
const MAX_SD_NAME = 32;

export class StructuredDataScanner {
  /** Why the last scan failed, and at which byte offset. */
  problem = '';
  at = 0;

  /**
   * Reads the SD-ELEMENTs that start at `at` (where bytes[at] is "["); returns the index after the last
   * one, or -1 with `problem` and `at` set. The caller checks what follows (SP or the end).
   */
  scan(bytes: Uint8Array, at: number, end: number): number {
    let i = at;
    do {
      i = this.element(bytes, i + 1, end);
      if (i < 0) return -1;
    } while (i < end && bytes[i] === LBRACKET);
    return i;
  }

  /** One element after its "[": returns the index after its "]", or -1. */
  private element(bytes: Uint8Array, at: number, end: number): number {
    let i = this.name(bytes, at, end, 'an SD-ID');
    while (i >= 0 && i < end && bytes[i] === SP) {
      i = this.name(bytes, i + 1, end, 'a PARAM-NAME');
      if (i >= 0) i = this.value(bytes, i, end);
    }
    if (i < 0) return -1;
    if (i >= end || bytes[i] !== RBRACKET)
      return this.fail(i, 'expected SP or "]" after an SD-ID or SD-PARAM');
    return i + 1;
  }

  /** An SD-NAME: returns the index after it, or -1. */
  private name(bytes: Uint8Array, at: number, end: number, what: string): number {
    let i = at;
    while (i < end && i - at <= MAX_SD_NAME && isNameByte(bytes[i] ?? 0)) i++;
    if (i === at || i - at > MAX_SD_NAME) {
      return this.fail(at, `${what} must be 1–32 printable US-ASCII characters other than =, SP, ] and "`);
    }
    return i;
  }

  /** `="…"` after a PARAM-NAME: returns the index after the closing quote, or -1. */
  private value(bytes: Uint8Array, at: number, end: number): number {
    if (at + 1 >= end || bytes[at] !== EQUALS || bytes[at + 1] !== QUOTE) {
      return this.fail(at, 'expected =" after a PARAM-NAME');
    }
    for (let i = at + 2; i < end; i++) {
      const byte = bytes[i];
      if (byte === QUOTE) return i + 1;
      if (byte === BACKSLASH) i++;
      else if (byte === RBRACKET) return this.fail(i, 'a PARAM-VALUE has a "]" that is not escaped as \\]');
    }
    return this.fail(end, 'a PARAM-VALUE is not closed by "');
  }

  private fail(at: number, problem: string): number {
    this.problem = problem;
    this.at = at;
    return -1;
  }
}

/** PRINTUSASCII except "=", SP, "]" and %d34. */
function isNameByte(byte: number): boolean {
  return byte > SP && byte < 0x7f && byte !== EQUALS && byte !== RBRACKET && byte !== QUOTE;
}
