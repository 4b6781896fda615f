// `--resource NAME[@VERSION]=DIR`: serves local directories as uploaded resource versions, so codecs
// that use resources (protobuf) can be validated and compiled without a node or a cluster. NAME is the
// resource name or the identifier a statement writes (`order-protos` or `Order_Protos`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { ResourceFiles } from '../compiler/index.js';
import { ioError } from '../language/input-error.js';
import { nameFromEither } from '../api/display-names.js';

const SPEC = /^([A-Za-z][A-Za-z0-9_-]*)(?:@([1-9][0-9]*))?=(.+)$/;

export function parseResourceOption(value: string, previous: string[] = []): string[] {
  const name = SPEC.exec(value)?.[1];
  if (name === undefined)
    throw new InvalidArgumentError(`expected NAME[@VERSION]=DIR, e.g. order-protos=./protos`);
  const mapped = nameFromEither(name);
  if (!mapped.ok) throw new InvalidArgumentError(`${name}: ${mapped.reason}.`);
  return [...previous, value];
}

export function resourceDirectories(specs: readonly string[]): ResourceFiles {
  const versions = new Map<string, Map<number, ReadonlyMap<string, string>>>();
  for (const spec of specs) {
    const [, written = '', version = '1', directory = ''] = SPEC.exec(spec) ?? [];
    const mapped = nameFromEither(written);
    const resource = mapped.ok ? mapped.name : written;
    const byVersion = versions.get(resource) ?? new Map<number, ReadonlyMap<string, string>>();
    byVersion.set(Number(version), readTree(directory));
    versions.set(resource, byVersion);
  }
  return {
    latestVersion: (resource) => {
      const known = [...(versions.get(resource)?.keys() ?? [])];
      return known.length > 0 ? Math.max(...known) : undefined;
    },
    files: (resource, version) => versions.get(resource)?.get(version),
  };
}

function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (directory: string): void => {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error: unknown) {
      throw ioError('--resource: cannot read directory', directory, error);
    }
    for (const entry of entries) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) files.set(relative(root, path).split('\\').join('/'), readFile(path));
    }
  };
  visit(root);
  return files;
}

function readFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error: unknown) {
    throw ioError('--resource: cannot read', path, error);
  }
}
