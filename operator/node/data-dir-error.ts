// What the data dir cannot be used for, in one line naming the file: a lock held by a running node, a
// file that is not what the node wrote. The node refuses to start rather than run over the user's data.
import { ioError } from '../language/input-error.js';

export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

/** `cannot read PATH: permission denied`, from a file-system error. */
export function dataDirIoError(action: string, path: string, error: unknown): DataDirError {
  return new DataDirError(ioError(action, path, error).message);
}
