// One node per data dir: `node.lock` is created exclusively (O_EXCL) and holds the owner's pid. A lock
// whose pid is no longer running was left by a node that died; it is taken over, and the log says so.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync, fsyncSync } from 'node:fs';
import type { Logger } from 'pino';
import { FILE_MODE } from './atomic-file.js';
import { DataDirError } from './data-dir-error.js';

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

export function acquireLock(path: string, logger: Logger): DataDirLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(path)) return { path, release: () => release(path) };
    const holder = readPid(path);
    if (holder !== undefined && isRunning(holder)) {
      throw new DataDirError(
        `the data dir is in use by another node (pid ${holder}); stop it, or use another --data-dir (lock file ${path})`,
      );
    }
    logger.warn(
      { lockFile: path, stalePid: holder ?? null },
      'taking over the lock of a node that is no longer running',
    );
    removeIfPresent(path);
  }
  throw new DataDirError(`cannot take the data dir lock ${path}: another node took it at the same time`);
}

/** Creates the lock file with our pid; false when it exists. */
function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', FILE_MODE);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new DataDirError(`cannot create the lock file ${path}: ${reason(error)}`);
  }
  try {
    writeSync(fd, `${process.pid}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid in the lock file; undefined when it holds none (a node that died while writing it). */
function readPid(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function release(path: string): void {
  if (readPid(path) === process.pid) removeIfPresent(path);
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function reason(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
