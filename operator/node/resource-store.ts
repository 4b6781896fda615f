// Uploaded resource versions on disk: `resources/<domain>/<resource>/<version>/files/<path>`, and
// `complete.json` beside `files/`, written last. A version without it is an upload that never finished:
// it is never used, and the next start deletes it. Versions are immutable, so their files are read once.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { ResourceFiles } from '../compiler/index.js';
import { unsafeFile } from '../compiler/resource-versions.js';
import type { MountedFile } from '../../dataplane/graph/types.js';
import {
  DIRECTORY_MODE,
  isTempName,
  syncDirectory,
  writeFileAtomic,
  writeFileDurably,
} from './atomic-file.js';
import { isResourceName } from '../../dataplane/admin/request-params.js';
import { DataDirError, dataDirIoError } from './data-dir-error.js';
import { messageOf } from '../../dataplane/core/error-text.js';
import { isDomainName, type UploadFile } from './protocol.js';

const COMPLETE = 'complete.json';
const VERSION_NAME = /^[1-9][0-9]{0,9}$/;

/** What `complete.json` says of a version. */
export interface VersionInfo {
  version: number;
  files: string[];
  /** Over every path and its bytes, in path order. */
  sha256: string;
  uploadedAt: string;
}

/** Why a path inside an upload is unsafe to write, or undefined. */
export function unsafeUploadPath(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (path.includes('\\') || path.includes('\0')) return 'holds a backslash or a NUL character';
  if (/^[A-Za-z]:/.test(path)) return 'is absolute';
  return unsafeFile(path);
}

export class ResourceStore {
  readonly #root: string;
  readonly #logger: Logger;
  /** Completed versions by `domain/resource`, ascending. */
  readonly #versions = new Map<string, number[]>();
  readonly #files = new Map<string, ReadonlyMap<string, string>>();

  private constructor(root: string, logger: Logger) {
    this.#root = root;
    this.#logger = logger;
  }

  /**
   * Reads the completed versions under `root` and deletes the incomplete ones. Throws DataDirError (with
   * the path and the cause) when a directory cannot be read or a completion marker is not the node's.
   */
  static open(root: string, logger: Logger): ResourceStore {
    const store = new ResourceStore(root, logger);
    for (const domain of store.#entries(root, isDomainName)) {
      for (const resource of store.#entries(join(root, domain), isResourceName)) {
        store.#scanVersions(domain, resource);
      }
    }
    return store;
  }

  versions(domain: string, resource: string): readonly number[] {
    return this.#versions.get(`${domain}/${resource}`) ?? [];
  }

  latestVersion(domain: string, resource: string): number | undefined {
    return this.versions(domain, resource).at(-1);
  }

  /** Stores the files as the resource's next version (the first is 1) and returns its number. */
  async addVersion(
    domain: string,
    resource: string,
    files: readonly UploadFile[],
    uploadedAt: Date,
  ): Promise<number> {
    for (const file of files) {
      const problem = unsafeUploadPath(file.path);
      if (problem !== undefined) throw new Error(`the upload path ${JSON.stringify(file.path)} ${problem}`);
    }
    const version = (this.latestVersion(domain, resource) ?? 0) + 1;
    const directory = this.#versionDirectory(domain, resource, version);
    // A version directory without complete.json can only be what a failed upload of this run left.
    await rm(directory, { recursive: true, force: true });
    try {
      await this.#writeFiles(directory, files);
      const info: VersionInfo = {
        version,
        files: files.map((file) => file.path).sort(),
        sha256: digest(files),
        uploadedAt: uploadedAt.toISOString(),
      };
      await writeFileAtomic(join(directory, COMPLETE), `${JSON.stringify(info, null, 2)}\n`);
      await syncDirectory(dirname(directory));
    } catch (error: unknown) {
      await rm(directory, { recursive: true, force: true });
      throw error;
    }
    this.#versions.set(`${domain}/${resource}`, [...this.versions(domain, resource), version]);
    return version;
  }

  /** The files of a completed version as text, by path inside the version. */
  files(domain: string, resource: string, version: number): ReadonlyMap<string, string> | undefined {
    if (!this.versions(domain, resource).includes(version)) return undefined;
    const key = `${domain}/${resource}/${version}`;
    let files = this.#files.get(key);
    if (files === undefined) {
      files = readTree(join(this.#versionDirectory(domain, resource, version), 'files'));
      this.#files.set(key, files);
    }
    return files;
  }

  /** The uploaded versions of one domain, as the compiler takes them. */
  view(domain: string): ResourceFiles {
    return {
      latestVersion: (resource) => this.latestVersion(domain, resource),
      files: (resource, version) => this.files(domain, resource, version),
    };
  }

  /** The bytes of a file of a completed version (TLS material); throws when there is no such file. */
  readMountedFile(domain: string, file: MountedFile): Buffer {
    const what = `resource ${file.resource} version ${file.version} of domain ${domain}`;
    if (unsafeUploadPath(file.file) !== undefined || !isResourceName(file.resource))
      throw new Error(`${file.file} is not a file of ${what}`);
    if (!this.versions(domain, file.resource).includes(file.version)) throw new Error(`there is no ${what}`);
    const path = join(this.#versionDirectory(domain, file.resource, file.version), 'files', file.file);
    try {
      return readFileSync(path);
    } catch {
      throw new Error(`${what} has no file ${file.file}`);
    }
  }

  async #writeFiles(directory: string, files: readonly UploadFile[]): Promise<void> {
    const root = join(directory, 'files');
    const directories = new Set<string>([directory, root]);
    await mkdir(root, { recursive: true, mode: DIRECTORY_MODE });
    for (const file of files) {
      const path = join(root, file.path);
      directories.add(dirname(path));
      await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
      await writeFileDurably(path, file.content);
    }
    for (const each of directories) await syncDirectory(each);
  }

  #versionDirectory(domain: string, resource: string, version: number): string {
    return join(this.#root, domain, resource, String(version));
  }

  /** Directory names under `directory` that pass `accept`; temporary files are deleted, others logged. */
  #entries(directory: string, accept: (name: string) => boolean): string[] {
    const names: string[] = [];
    for (const entry of readDirectory(directory)) {
      const path = join(directory, entry.name);
      if (isTempName(entry.name)) {
        removeTree(path);
        this.#logger.warn({ path }, 'removed a temporary file left by a crash');
      } else if (entry.isDirectory() && accept(entry.name)) names.push(entry.name);
      else this.#logger.warn({ path }, 'ignoring an entry the node did not write');
    }
    return names.sort();
  }

  #scanVersions(domain: string, resource: string): void {
    const versions: number[] = [];
    for (const name of this.#entries(join(this.#root, domain, resource), (n) => VERSION_NAME.test(n))) {
      const directory = join(this.#root, domain, resource, name);
      if (!existsSync(join(directory, COMPLETE))) {
        removeTree(directory);
        this.#logger.warn(
          { domain, resource, version: Number(name) },
          'removed an upload that never completed',
        );
        continue;
      }
      readVersionInfo(join(directory, COMPLETE), Number(name));
      versions.push(Number(name));
    }
    if (versions.length > 0)
      this.#versions.set(
        `${domain}/${resource}`,
        versions.sort((a, b) => a - b),
      );
  }
}

/** The entries of a directory at start; a file-system error is a DataDirError naming the directory. */
function readDirectory(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch (error: unknown) {
    throw dataDirIoError('cannot read', directory, error);
  }
}

function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch (error: unknown) {
    throw dataDirIoError('cannot delete', path, error);
  }
}

function readVersionInfo(path: string, version: number): VersionInfo {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error: unknown) {
    throw dataDirIoError('cannot read', path, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error: unknown) {
    const why = messageOf(error);
    throw new DataDirError(
      `${path} is not valid JSON (${why}); restore it from a backup or move the version away`,
    );
  }
  const info = value as Partial<VersionInfo> | null;
  if (info?.version !== version || !Array.isArray(info.files)) {
    throw new DataDirError(`${path} does not describe version ${version} (it is not what the node wrote)`);
  }
  return info as VersionInfo;
}

function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (directory: string, prefix: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path, `${prefix}${entry.name}/`);
      else if (entry.isFile()) files.set(`${prefix}${entry.name}`, readFileSync(path, 'utf8'));
    }
  };
  visit(root, '');
  return files;
}

function digest(files: readonly UploadFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    hash.update(`${file.path}\0${file.content.length}\0`);
    hash.update(file.content);
  }
  return hash.digest('hex');
}
