// A file that cannot be read or written: one line on stderr and exit status 3, never a stack trace.
// File-system failures become an InputError at the place that touches the file, with the path and the
// reason in words.

export class InputError extends Error {}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'a file of that name is in the way',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
  EMFILE: 'too many open files',
  EAGAIN: 'not ready for reading (try again, or pass the input as a file)',
};

/** `cannot read PATH: permission denied`, from a file-system error. */
export function ioError(action: string, path: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    (code === undefined ? undefined : REASONS[code]) ??
    code ??
    (error instanceof Error ? error.message.split('\n', 1)[0] : String(error));
  return new InputError(`${action} ${path}: ${reason}`);
}
