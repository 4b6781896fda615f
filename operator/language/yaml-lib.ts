// The yaml library, loaded on first use: statement files and `-c` never read YAML, and importing it costs
// a command's start tens of milliseconds (docs/benchmarks.md, "CLI start-up"). Built (dist/), it is read
// from the one-file bundle `npm run build` writes beside this module (operator/tools/bundle-yaml.ts);
// from the sources, from the package.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The bundle's file name, beside this module. */
export const YAML_BUNDLE_FILE = 'yaml.bundle.cjs';

type Yaml = typeof import('yaml');
let loaded: Yaml | undefined;

export function yamlLib(): Yaml {
  return (loaded ??= load());
}

function load(): Yaml {
  const require = createRequire(import.meta.url);
  const bundle = fileURLToPath(new URL(YAML_BUNDLE_FILE, import.meta.url));
  return (existsSync(bundle) ? require(bundle) : require('yaml')) as Yaml;
}
