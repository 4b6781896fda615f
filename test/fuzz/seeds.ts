// Seed inputs from the repository: files by extension (examples/, test data) and fenced code blocks of a
// language from the docs, so the fuzzer starts from what users actually write.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

const encoder = new TextEncoder();
const SKIP = new Set(['node_modules', 'dist', 'coverage', '.git']);

/** Files under `dirs` (relative to the repo) whose names end with one of `suffixes`. */
export function filesEnding(dirs: readonly string[], suffixes: readonly string[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (SKIP.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (suffixes.some((suffix) => name.endsWith(suffix))) out.push(new Uint8Array(readFileSync(path)));
    }
  };
  for (const dir of dirs) walk(join(REPO, dir));
  return out;
}

/** Fenced code blocks (```lang) of README.md and docs/*.md whose language is one of `languages`. */
export function docBlocks(languages: readonly string[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  const docs = [
    join(REPO, 'README.md'),
    ...readdirSync(join(REPO, 'docs')).map((name) => join(REPO, 'docs', name)),
  ];
  const fence = /^```([\w-]*)[^\n]*\n([\s\S]*?)^```/gm;
  for (const path of docs) {
    if (!path.endsWith('.md')) continue;
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(fence)) {
      if (languages.includes((match[1] ?? '').toLowerCase())) out.push(encoder.encode(match[2] ?? ''));
    }
  }
  return out;
}

export function texts(...items: string[]): Uint8Array[] {
  return items.map((item) => encoder.encode(item));
}
