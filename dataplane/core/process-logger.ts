// The logger of a long-running command (`streamroute node`, `operator`, `dataplane`): pino on stderr, as
// JSON lines or as text lines for a person (text-log-line.ts). Which one: log-format.ts; the chart
// passes `--log-format json`.
import { pino, type Logger } from 'pino';
import type { LogFormat } from './log-format.js';
import { textLogLine } from './text-log-line.js';

/** Where the lines go: anything with `write` (tests); by default stderr. */
export interface LogSink {
  write(line: string): unknown;
}

/**
 * A logger at `level` writing `format` to `sink`. Text lines leave out pid and hostname (a terminal shows
 * one process); JSON lines keep pino's fields as they always were.
 */
export function processLogger(level: string, format: LogFormat, sink: LogSink = pino.destination(2)): Logger {
  if (format === 'json') return pino({ level }, sink);
  return pino({ level, base: null }, { write: (line: string) => void sink.write(textLogLine(line)) });
}
