// Writes that survive a crash: the new contents go to a temporary file in the same directory, are flushed
// to the disk, and replace the old file by rename (atomic on POSIX file systems); then the directory is
// flushed so the rename itself is durable. A crash leaves the old file or the new one, never half of one;
// at most a temporary file is left over, which `removeLeftovers` deletes on the next start.
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temporary files are `.<name>.tmp-<pid>-<random>`: hidden, and never a name the node reads. */
const TEMP_MARK = '.tmp-';

/** Files the node writes may hold key material of uploaded resources: owner only. */
export const FILE_MODE = 0o600;
export const DIRECTORY_MODE = 0o700;

export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARK);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const directory = dirname(path);
  const temp = join(
    directory,
    `.${basename(path)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  try {
    await writeFileDurably(temp, data);
    await rename(temp, path);
  } catch (error: unknown) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Writes a new file (it must not exist) and flushes it to the disk. */
export async function writeFileDurably(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a directory's entries (new names, renames) to the disk. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Deletes the temporary files a crash left in `directory`; returns their names. */
export function removeLeftovers(directory: string): string[] {
  const names = readdirSync(directory).filter(isTempName);
  for (const name of names) rmSync(join(directory, name), { force: true, recursive: true });
  return names;
}
