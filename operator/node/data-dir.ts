// The node's `--data-dir` (docs/node.md#the-data-dir):
//
//   node.lock                                   the pid of the node using it
//   domains/<domain>/state.json                 objects, graph version and last graph (domain-state.ts)
//   resources/<domain>/<resource>/<version>/    an uploaded version (resource-store.ts)
//
// Every file is written atomically (atomic-file.ts). A file that is not what the node wrote is an error
// naming it: the node refuses to start rather than start empty over the user's data.
import { existsSync, mkdirSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { DIRECTORY_MODE, removeLeftovers, writeFileAtomic } from './atomic-file.js';
import { acquireLock, type DataDirLock } from './data-dir-lock.js';
import { DataDirError, dataDirIoError } from './data-dir-error.js';
import { parseDomainState, serializeDomainState, type DomainState } from './domain-state.js';
import { isDomainName } from './protocol.js';

const STATE_FILE = 'state.json';

export class DataDir {
  readonly root: string;
  readonly #lock: DataDirLock;
  readonly #logger: Logger;

  private constructor(root: string, lock: DataDirLock, logger: Logger) {
    this.root = root;
    this.#lock = lock;
    this.#logger = logger;
  }

  /**
   * Creates the layout if needed, takes the lock, and deletes the temporary files a crash left behind.
   * Throws DataDirError when the directory is in use or cannot be used.
   */
  static open(root: string, logger: Logger): DataDir {
    const absolute = resolve(root);
    for (const directory of [absolute, join(absolute, 'domains'), join(absolute, 'resources')]) {
      try {
        mkdirSync(directory, { recursive: true, mode: DIRECTORY_MODE });
      } catch (error: unknown) {
        throw dataDirIoError('cannot create the data dir', directory, error);
      }
    }
    const dataDir = new DataDir(absolute, acquireLock(join(absolute, 'node.lock'), logger), logger);
    try {
      dataDir.#removeLeftovers();
    } catch (error: unknown) {
      // The lock is released whatever went wrong: a node that did not start holds nothing.
      dataDir.close();
      throw error instanceof DataDirError ? error : dataDirIoError('cannot read', absolute, error);
    }
    return dataDir;
  }

  get resourcesRoot(): string {
    return join(this.root, 'resources');
  }

  /** The domains that have a state file, sorted. */
  domainNames(): string[] {
    return this.#domainDirectories().filter((domain) => existsSync(this.#stateFile(domain)));
  }

  /** The stored state of a domain; undefined when it has none. Throws DataDirError when it is unreadable. */
  readDomainState(domain: string): DomainState | undefined {
    const file = this.#stateFile(domain);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw dataDirIoError('cannot read', file, error);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // JSON.parse's message quotes the text around the error: the file's content stays out of the line.
      const size = `${Buffer.byteLength(text)} bytes`;
      throw new DataDirError(`${file} is not valid JSON (${size}); restore it from a backup or move it away`);
    }
    const state = parseDomainState(value);
    if (typeof state === 'string') {
      throw new DataDirError(`${file} is not a domain state the node wrote: ${state}`);
    }
    return state;
  }

  async writeDomainState(domain: string, state: DomainState): Promise<void> {
    const directory = join(this.root, 'domains', domain);
    mkdirSync(directory, { recursive: true, mode: DIRECTORY_MODE });
    await writeFileAtomic(this.#stateFile(domain), serializeDomainState(state));
  }

  close(): void {
    this.#lock.release();
  }

  #stateFile(domain: string): string {
    if (!isDomainName(domain)) throw new DataDirError(`${domain} is not a domain name`);
    return join(this.root, 'domains', domain, STATE_FILE);
  }

  #domainDirectories(options: { warn?: boolean } = {}): string[] {
    const root = join(this.root, 'domains');
    const domains: string[] = [];
    let entries: Dirent[];
    try {
      entries = readdirSync(root, { withFileTypes: true });
    } catch (error: unknown) {
      throw dataDirIoError('cannot read', root, error);
    }
    for (const entry of entries) {
      if (entry.isDirectory() && isDomainName(entry.name)) domains.push(entry.name);
      else if (options.warn) {
        this.#logger.warn({ path: join(root, entry.name) }, 'ignoring an entry that is not a domain');
      }
    }
    return domains.sort();
  }

  #removeLeftovers(): void {
    for (const domain of this.#domainDirectories({ warn: true })) {
      const directory = join(this.root, 'domains', domain);
      for (const name of removeLeftovers(directory)) {
        this.#logger.warn({ file: join(directory, name) }, 'removed a temporary file left by a crash');
      }
    }
  }
}
