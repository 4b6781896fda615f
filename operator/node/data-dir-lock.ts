// One node per data dir: `node.lock` holds the owner's pid. It is created whole and atomically: the pid
// is written to a temporary file, which is then hard-linked to `node.lock` — link() fails when the name
// exists, so of two nodes exactly one gets it, and no node ever sees a half-written lock.
//
// A lock whose pid no longer runs was left by a node that died; it is taken over, and the log says so.
// So is a lock holding this process's own pid that this process has not taken: a container's process
// runs as PID 1 each time, so the lock of the one that died before a restart holds our pid.
// The takeover renames the stale lock aside (rename is atomic: of two nodes, one moves it) and checks that
// what it moved is the stale lock it judged: if another node took the lock in between, its lock is linked
// back and this node tries again (and finds it in use). Then the node links its own lock as above.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { FILE_MODE } from './atomic-file.js';
import { DataDirError, dataDirIoError } from './data-dir-error.js';
import { codeOf } from '../../dataplane/core/error-code.js';

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

const ATTEMPTS = 3;

/** The lock files this process holds (two nodes of one process cannot share a data dir either). */
const held = new Set<string>();

export function acquireLock(path: string, logger: Logger): DataDirLock {
  const key = resolve(path);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (tryCreate(path)) {
      held.add(key);
      return { path, release: () => release(path, key) };
    }
    const seen = readText(path);
    if (seen === undefined) continue; // released in the meantime
    const holder = pidIn(seen);
    if (holder !== undefined && (holder === process.pid ? held.has(key) : isRunning(holder))) {
      throw new DataDirError(
        `the data dir is in use by another node (pid ${holder}); stop it, or use another --data-dir (lock file ${path})`,
      );
    }
    logger.warn(
      { lockFile: path, stalePid: holder ?? null },
      'taking over the lock of a node that is no longer running',
    );
    moveStaleAside(path, seen);
  }
  throw new DataDirError(`cannot take the data dir lock ${path}: another node took it at the same time`);
}

/** Creates the lock file, whole, with our pid; false when it exists. */
function tryCreate(path: string): boolean {
  const temp = sibling(path, 'tmp');
  try {
    writeWhole(temp, `${process.pid}\n`);
    linkSync(temp, path);
    return true;
  } catch (error: unknown) {
    if (codeOf(error) === 'EEXIST') return false;
    throw dataDirIoError('cannot create the lock file', path, error);
  } finally {
    removeIfPresent(temp);
  }
}

/** Moves the stale lock out of the way; a lock that turns out not to be the one judged goes back. */
function moveStaleAside(path: string, judged: string): void {
  const aside = sibling(path, 'stale');
  try {
    renameSync(path, aside);
  } catch (error: unknown) {
    if (codeOf(error) === 'ENOENT') return; // another node moved it first
    throw dataDirIoError('cannot take over the lock file', path, error);
  }
  try {
    if (readText(aside) === judged) return;
    // Another node replaced the stale lock with its own between our read and our rename: give it back.
    linkSync(aside, path);
  } catch (error: unknown) {
    if (codeOf(error) !== 'EEXIST') throw dataDirIoError('cannot take over the lock file', path, error);
  } finally {
    removeIfPresent(aside);
  }
}

function writeWhole(path: string, text: string): void {
  const fd = openSync(path, 'wx', FILE_MODE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `.node.lock.tmp-<pid>-<random>` beside the lock (a name the node never reads as a lock). */
function sibling(path: string, kind: 'tmp' | 'stale'): string {
  return join(dirname(path), `.${basename(path)}.${kind}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The pid in the lock file's text; undefined when it holds none (a lock of an older node, cut short). */
function pidIn(text: string | undefined): number | undefined {
  const pid = Number(text?.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    return codeOf(error) === 'EPERM';
  }
}

function release(path: string, key: string): void {
  held.delete(key);
  if (pidIn(readText(path)) === process.pid) removeIfPresent(path);
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error: unknown) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
}
