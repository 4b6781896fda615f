// The names the shell completes: the domain's objects (listed by SHOW through the target) and the
// domains the target knows, loaded when first needed and again after a statement that may have changed
// them. A target that cannot be reached completes no names; the statement that needs it says why.
import { listObjects, type ListedObject } from './object-names.js';
import type { StatementTarget } from './statement-target.js';

export class NameCache {
  #target: StatementTarget;
  #objects: Promise<ListedObject[]> | undefined;
  #domains: Promise<string[]> | undefined;
  #loaded: ListedObject[] = [];

  constructor(target: StatementTarget) {
    this.#target = target;
  }

  /** Work with another target (`\c`): what was loaded is forgotten. */
  retarget(target: StatementTarget): void {
    this.#target = target;
    this.invalidate();
    this.#domains = undefined;
  }

  /** The objects may have changed: load them again when next asked. */
  invalidate(): void {
    this.#objects = undefined;
  }

  /** The objects, loading them when needed; none when the target cannot be reached. */
  objects(): Promise<ListedObject[]> {
    this.#objects ??= listObjects(this.#target).then(
      (objects) => (this.#loaded = objects),
      () => {
        this.#objects = undefined;
        return this.#loaded;
      },
    );
    return this.#objects;
  }

  /** The domains the target runs graphs of; none when it cannot be reached. */
  domains(): Promise<string[]> {
    this.#domains ??= this.#target.domains().catch(() => {
      this.#domains = undefined;
      return [];
    });
    return this.#domains;
  }
}
