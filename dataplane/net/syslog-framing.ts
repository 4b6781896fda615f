// The facts of syslog on the wire that both sides use: the emitters' encoder (dataplane/emitters/
// framing.ts) writes frames with them and the listeners' decoder (dataplane/sources/syslog/
// stream-framer.ts) reads frames with them. Only the facts live here; each side keeps its own code (a
// writer over whole messages, a state machine over chunks), so a change to a limit is one edit here and
// both sides follow.
//
//   octet counting (RFC 6587 §3.4.1)    MSG-LEN SP MSG: MSG-LEN is a positive decimal count without a
//                                       leading zero, of at most MAX_OCTET_COUNT_DIGITS digits
//   non-transparent (RFC 6587 §3.4.2)   MSG LF: the trailer ends the frame, so MSG cannot contain LF
//                                       (a reader also drops one CR directly before the LF)
//   UDP (one message per datagram)      at most UDP_MAX_PAYLOAD bytes
//
// docs/syslog-wire.md states the rules of both sides.

/** The longest octet count either side accepts: ten digits, so a count the encoder writes always reads. */
export const MAX_OCTET_COUNT_DIGITS = 10;

/** Largest UDP payload over IPv4: 65,535 − 8 (UDP header) − 20 (IPv4 header). */
export const UDP_MAX_PAYLOAD = 65_507;

/** The non-transparent trailer. */
export const LF = 0x0a;
/** May precede the LF of a non-transparent frame; the reader removes it. */
export const CR = 0x0d;
/** Ends an octet count. */
export const SP = 0x20;
/** The digits of an octet count. */
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;
