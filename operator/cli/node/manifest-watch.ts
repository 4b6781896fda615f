// Notices changes under `--manifests`: a directory is watched recursively, a single file through its
// directory (an editor that saves by writing a new file and renaming it over the old one replaces the
// file's inode, which a watch on the file itself would lose). Events are debounced: `onChange` runs once
// the path has been quiet for `debounceMs`.
import { watch, type FSWatcher } from 'node:fs';
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';

export const DEBOUNCE_MS = 200;

export interface WatchOptions {
  logger: Logger;
  debounceMs?: number;
}

export interface Watch {
  close(): void;
}

export function watchPath(path: string, onChange: () => void, options: WatchOptions): Watch {
  const debounceMs = options.debounceMs ?? DEBOUNCE_MS;
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  };
  let watcher: FSWatcher;
  if (statSync(path).isDirectory()) {
    watcher = watch(path, { recursive: true }, changed);
  } else {
    const name = basename(path);
    watcher = watch(dirname(path), (_event, file) => {
      if (file === null || file === name) changed();
    });
  }
  watcher.on('error', (error: Error) => {
    options.logger.error(
      { path, error: error.message },
      'watching the manifests failed; changes are no longer seen',
    );
  });
  return {
    close: () => {
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
