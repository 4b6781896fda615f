// `--resource NAME[@VERSION]=DIR`: serves local directories as uploaded resource versions, so codecs
// that use resources (protobuf) can be validated and compiled without a node or a cluster.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { ResourceFiles } from '../compiler/index.js';
import { ioError } from '../language/input-error.js';

const SPEC = /^([a-z][a-z0-9-]*)(?:@([1-9][0-9]*))?=(.+)$/;

export function parseResourceOption(value: string, previous: string[] = []): string[] {
  if (!SPEC.test(value))
    throw new InvalidArgumentError(`expected NAME[@VERSION]=DIR, e.g. order-protos=./protos`);
  return [...previous, value];
}

export function resourceDirectories(specs: readonly string[]): ResourceFiles {
  const versions = new Map<string, Map<number, ReadonlyMap<string, string>>>();
  for (const spec of specs) {
    const [, resource = '', version = '1', directory = ''] = SPEC.exec(spec) ?? [];
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
