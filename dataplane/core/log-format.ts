// `--log-format json|text` of the long-running commands, and which one applies when none is asked for:
// text when stderr is a terminal (a person reads it), JSON otherwise (a file, a pipe, a container's log:
// a program reads it). Apart from the logger itself (process-logger.ts), so that the command line can
// show and check the flag without loading pino.

export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function isLogFormat(text: unknown): text is LogFormat {
  return (LOG_FORMATS as readonly unknown[]).includes(text);
}

/** The format in use: the one asked for, else text when stderr is a terminal and JSON when it is not. */
export function logFormatFor(asked: LogFormat | undefined, stderr: { readonly isTTY?: boolean }): LogFormat {
  return asked ?? (stderr.isTTY === true ? 'text' : 'json');
}
