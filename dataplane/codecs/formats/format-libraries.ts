// The YAML, TOML and XML libraries, each loaded on the first payload of its format rather than when the
// data plane starts: a node whose graphs read none of them does not carry them (together ~10 MB).
// Synchronous, as reading and writing a payload are; each library ships CommonJS, which `require` loads.
import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireModule(name) as T);
}

export const yamlLibrary = onFirstUse<typeof import('yaml')>('yaml');
export const tomlLibrary = onFirstUse<typeof import('smol-toml')>('smol-toml');
export const xmlLibrary = onFirstUse<typeof import('fast-xml-parser')>('fast-xml-parser');
