// `npm run build` bundles the yaml library into one file beside yaml-lib.js: loaded from its sixty
// CommonJS files it costs a command about 30 ms, from one file about 10 ms (docs/benchmarks.md, "CLI
// start-up"). Only this library is bundled: the CLI's own modules stay as tsc writes them (decision 0020).
import { buildSync } from 'esbuild';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { YAML_BUNDLE_FILE } from '../language/yaml-lib.js';

/** Writes the yaml package as installed, bundled, to `outfile`. */
export function bundleYaml(outfile: string): void {
  buildSync({
    entryPoints: [createRequire(import.meta.url).resolve('yaml')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bundleYaml(fileURLToPath(new URL(`../language/${YAML_BUNDLE_FILE}`, import.meta.url)));
}
