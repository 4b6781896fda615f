// The yaml library, loaded on first use: statement files and `-c` never read YAML, and importing it costs
// about 55 ms of a command's start (docs/benchmarks.md, "CLI start-up").
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let loaded: Yaml | undefined;

export function yamlLib(): Yaml {
  return (loaded ??= createRequire(import.meta.url)('yaml') as Yaml);
}
