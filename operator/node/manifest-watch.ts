// Notices changes under `--manifests`: a directory is watched with one watcher per directory in it, a
// single file through its directory. Only directories are watched, never files: an editor that saves by
// writing a new file and renaming it over the old one replaces the file's inode, and a watch on the file
// follows the old inode and never reports again. (Node's `recursive: true` on Linux watches every file that
// way, which is why it is not used: the second save by rename went unnoticed.) Events are debounced:
// `onChange` runs once the path has been quiet for `debounceMs`; before it runs, the directories under
// the path are looked at again, so a directory made, removed or replaced by rename is watched as it is now.
//
// The watched directory itself can go away: moved (`mv manifests away && mv away manifests`), deleted and
// made again (`git checkout`, a deploy that swaps a directory), or the watcher fails. A watch that lost its
// directory never reports again, so the watch checks, every `pollMs`, that the directory at the path is
// still the one it watches (same device and inode); the directory reporting an event about itself, a
// watcher error or a watcher that closed on its own mean the same. Then the watcher is closed, and re-armed
// as soon as the path exists again, followed by `onChange` (the manifests are read again).
import { readdirSync, statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { systemClock, type Clock, type TimerHandle } from '../../dataplane/core/clock.js';
import { InputError, ioError } from '../language/input-error.js';
import { errorName } from '../../dataplane/core/error-text.js';
import { codeOf } from '../../dataplane/core/error-code.js';

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
  /** The directory watched: `path`, or the directory of the file `path`. */
  directory: string;
  identity: string;
  /** `path` is a directory: every directory under it is watched too. */
  tree: boolean;
  /** By directory: `directory` first, then (for a tree) the directories under it. */
  watchers: Map<string, Watched>;
}

interface Watched {
  watcher: FSWatcher;
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

  /** Starts watching the path as it is now; throws InputError when it cannot. */
  #arm(): Armed {
    const path = this.#path;
    try {
      const stats = statSync(path);
      const tree = stats.isDirectory();
      const directory = tree ? path : dirname(path);
      const identity = identityOf(tree ? stats : statSync(directory));
      const armed: Armed = { directory, identity, tree, watchers: new Map() };
      try {
        if (tree) {
          this.#watchDirectory(armed, directory, identity);
          this.#sync(armed);
        } else {
          const name = basename(path);
          this.#watchDirectory(armed, directory, identity, (file) => file === null || file === name);
        }
      } catch (error: unknown) {
        closeAll(armed);
        throw error;
      }
      return armed;
    } catch (error: unknown) {
      throw cannotWatch(path, error);
    }
  }

  /** Watches one directory (not the ones under it); `wanted` picks the events about its entries. */
  #watchDirectory(
    armed: Armed,
    directory: string,
    identity: string,
    wanted: (file: string | null) => boolean = () => true,
  ): void {
    const watcher = watch(directory, (_event, file) => {
      if (wanted(file)) this.#event(armed, directory);
    });
    armed.watchers.set(directory, { watcher, identity });
    watcher.on('error', (error: Error) => {
      const why = `the watcher failed (${codeOf(error) ?? errorName(error)})`;
      if (directory === armed.directory) this.#lost(why);
      else this.#forget(armed, directory);
    });
    watcher.on('close', () => {
      if (this.#armed !== armed || armed.watchers.get(directory)?.watcher !== watcher) return;
      if (directory === armed.directory) this.#lost('the watcher closed');
      else this.#forget(armed, directory);
    });
  }

  /** A directory under the path whose watcher stopped: looked at again by the next sync. */
  #forget(armed: Armed, directory: string): void {
    const watched = armed.watchers.get(directory);
    armed.watchers.delete(directory);
    watched?.watcher.removeAllListeners();
    watched?.watcher.close();
    this.#changed();
  }

  /**
   * Watches every directory under a watched tree as it is now: new ones, and ones replaced by rename
   * (another inode at the same path); stops watching those that are gone. Throws when one cannot be watched
   * for a reason other than being gone already.
   */
  #sync(armed: Armed): void {
    const found = new Map<string, string>();
    const visit = (directory: string): void => {
      let entries;
      try {
        entries = readdirSync(directory, { withFileTypes: true });
      } catch (error: unknown) {
        if (directory !== armed.directory && isGone(error)) return;
        throw error;
      }
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const child = join(directory, entry.name);
        const identity = identityAt(child);
        if (identity === undefined) continue;
        found.set(child, identity);
        visit(child);
      }
    };
    visit(armed.directory);
    for (const [directory, watched] of armed.watchers) {
      if (directory === armed.directory || found.get(directory) === watched.identity) continue;
      armed.watchers.delete(directory);
      watched.watcher.removeAllListeners();
      watched.watcher.close();
    }
    for (const [directory, identity] of found) {
      if (armed.watchers.has(directory)) continue;
      try {
        this.#watchDirectory(armed, directory, identity);
      } catch (error: unknown) {
        if (!isGone(error)) throw error;
      }
    }
  }

  /**
   * A change in `directory`. An event of the watched directory may be about the directory itself (moved or
   * deleted): then the directory at its path is another one, or none.
   */
  #event(armed: Armed, directory: string): void {
    if (this.#armed !== armed) return;
    if (directory === armed.directory && identityAt(directory) !== armed.identity) {
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
      const armed = this.#armed;
      if (armed?.tree === true) {
        try {
          this.#sync(armed);
        } catch (error: unknown) {
          this.#lost(`a directory under it cannot be watched (${codeOf(error) ?? errorName(error)})`);
        }
      }
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
    if (armed !== undefined) closeAll(armed);
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

function closeAll(armed: Armed): void {
  for (const { watcher } of armed.watchers.values()) {
    watcher.removeAllListeners();
    watcher.close();
  }
  armed.watchers.clear();
}

/** The path (or a directory on the way to it) was removed meanwhile. */
function isGone(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function cannotWatch(path: string, error: unknown): InputError {
  if (codeOf(error) !== 'ENOSPC') return ioError('cannot watch', path, error);
  return new InputError(
    `cannot watch ${path}: the system's limit of watched directories is reached (fs.inotify.max_user_watches)`,
  );
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
