// What an error says, in the two forms the node uses: its message for the client that caused it (a
// statement's diagnostic, a one-line startup failure), and its name for the log, which never carries a
// message (it could quote a value: docs/admin-api.md#logs).
export { errorName } from '../../dataplane/admin/admin-telemetry.js';

/** The error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The errno code of a file-system error (`ENOENT`), or undefined. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
