// What a thrown error says, in the two forms streamroute uses: its message for the one who caused it (a
// statement's diagnostic, a startup failure, a transient error of a listener), and its name for logs,
// which never carry a message (it could quote a value: docs/admin-api.md#logs). The code is in
// error-code.ts.

/** The error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The name of an error, never its message. */
export function errorName(error: unknown): string {
  if (error instanceof Error) return error.name;
  return typeof error;
}
