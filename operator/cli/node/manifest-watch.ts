// Notices changes under `--manifests`: a directory is watched recursively, a single file through its
// directory (an editor that saves by writing a new file and renaming it over the old one replaces the
// file's inode, which a watch on the file itself would lose). Events are debounced: `onChange` runs once
// the path has been quiet for `debounceMs`.
//
// The watched directory itself can go away: moved (`mv manifests away && mv away manifests`), deleted and
// made again (`git checkout`, a deploy that swaps a directory), or the watcher fails. A watch that lost its
// directory never reports again, so the watch checks, every `pollMs`, that the directory at the path is
// still the one it watches (same device and inode); the directory reporting an event about itself, a
// watcher error or a watcher that closed on its own mean the same. Then the watcher is closed, and re-armed
// as soon as the path exists again, followed by `onChange` (the manifests are read again).
import { statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { systemClock, type Clock, type TimerHandle } from '../../../dataplane/runtime/clock.js';
import { InputError, ioError } from '../input-error.js';
import { codeOf, errorName } from './error-text.js';

export const DEBOUNCE_MS = 200;
/** How often the watched directory is checked (and, while it is gone, looked for). */
export const POLL_MS = 1_000;

export interface WatchOptions {
  logger: Logger;
  debounceMs?: number;
  pollMs?: number;
  /** Timers for the debounce and the check (the real ones by default: files change in real time). */
  clock?: Clock;
}

export interface Watch {
  close(): void;
}

/** Watches `path`; throws InputError (path and cause) when it cannot be watched at all. */
export function watchPath(path: string, onChange: () => void, options: WatchOptions): Watch {
  const watcher = new PathWatch(path, onChange, options);
  watcher.start();
  return watcher;
}

interface Armed {
  watcher: FSWatcher;
  /** The directory watched: `path`, or the directory of the file `path`. */
  directory: string;
  identity: string;
}

class PathWatch implements Watch {
  readonly #path: string;
  readonly #onChange: () => void;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #debounceMs: number;
  readonly #pollMs: number;
  #armed: Armed | undefined;
  #debounce: TimerHandle | undefined;
  #poll: TimerHandle | undefined;
  #closed = false;

  constructor(path: string, onChange: () => void, options: WatchOptions) {
    this.#path = path;
    this.#onChange = onChange;
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
    this.#debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.#pollMs = options.pollMs ?? POLL_MS;
  }

  start(): void {
    this.#armed = this.#arm();
    this.#schedulePoll();
  }

  close(): void {
    this.#closed = true;
    this.#disarm();
    if (this.#debounce !== undefined) this.#clock.clearTimeout(this.#debounce);
    if (this.#poll !== undefined) this.#clock.clearTimeout(this.#poll);
    this.#debounce = undefined;
    this.#poll = undefined;
  }

  /** Starts a watcher on the path as it is now; throws InputError when it cannot. */
  #arm(): Armed {
    const path = this.#path;
    let watcher: FSWatcher;
    let directory: string;
    try {
      const stats = statSync(path);
      directory = stats.isDirectory() ? path : dirname(path);
      const identity = identityOf(stats.isDirectory() ? stats : statSync(directory));
      if (stats.isDirectory()) {
        watcher = watch(path, { recursive: true }, (_event, file) =>
          this.#event(file === null || file === ''),
        );
      } else {
        const name = basename(path);
        watcher = watch(directory, (_event, file) => {
          if (file === null || file === name) this.#event(false);
        });
      }
      const armed: Armed = { watcher, directory, identity };
      watcher.on('error', (error: Error) =>
        this.#lost(`the watcher failed (${codeOf(error) ?? errorName(error)})`),
      );
      watcher.on('close', () => {
        if (this.#armed?.watcher === watcher) this.#lost('the watcher closed');
      });
      return armed;
    } catch (error: unknown) {
      if (codeOf(error) !== 'ENOSPC') throw ioError('cannot watch', path, error);
      throw new InputError(
        `cannot watch ${path}: the system's limit of watched directories is reached (fs.inotify.max_user_watches)`,
      );
    }
  }

  /** A change under the path; `self` when the watched directory itself was renamed or deleted. */
  #event(self: boolean): void {
    if (self) {
      this.#lost('the directory was moved or deleted');
      return;
    }
    this.#changed();
  }

  #changed(): void {
    if (this.#closed) return;
    if (this.#debounce !== undefined) this.#clock.clearTimeout(this.#debounce);
    this.#debounce = this.#clock.setTimeout(() => {
      this.#debounce = undefined;
      this.#onChange();
    }, this.#debounceMs);
  }

  /** The watcher no longer sees the path: closed, and re-armed by the next check that finds the path. */
  #lost(why: string): void {
    if (this.#closed || this.#armed === undefined) return;
    this.#logger.warn(
      { manifests: this.#path, why },
      'the manifests can no longer be watched; watching again once the path exists',
    );
    this.#disarm();
    this.#check();
  }

  #disarm(): void {
    const armed = this.#armed;
    this.#armed = undefined;
    armed?.watcher.removeAllListeners();
    armed?.watcher.close();
  }

  #schedulePoll(): void {
    if (this.#closed) return;
    if (this.#poll !== undefined) this.#clock.clearTimeout(this.#poll);
    this.#poll = this.#clock.setTimeout(() => {
      this.#poll = undefined;
      this.#check();
      this.#schedulePoll();
    }, this.#pollMs);
  }

  /** Re-arms when the path exists again, or when the directory there is not the one watched. */
  #check(): void {
    if (this.#closed) return;
    const armed = this.#armed;
    if (armed !== undefined) {
      if (identityAt(armed.directory) === armed.identity) return;
      this.#lost('the directory at the path was replaced or removed');
      return;
    }
    let rearmed: Armed;
    try {
      rearmed = this.#arm();
    } catch {
      return; // not there (yet): the next check looks again
    }
    this.#armed = rearmed;
    this.#logger.info({ manifests: this.#path }, 'watching the manifests again; reading them');
    this.#changed();
  }
}

function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

function identityAt(path: string): string | undefined {
  try {
    return identityOf(statSync(path));
  } catch {
    return undefined;
  }
}
