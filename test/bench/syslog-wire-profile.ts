// Summarises a V8 CPU profile (`node --cpu-prof`, as `syslog-wire.bench.ts --cpu-prof <dir>` writes for
// our node): the functions with the most self time, and the same by source file, as percentages of the
// busy time (idle excluded). Paths are shown relative to the repository (through the .js.map files of a
// `--compiled` node, back to the TypeScript lines); dependencies by package.
//
//   npx tsx test/bench/syslog-wire-profile.ts <file.cpuprofile | dir> [--top 25]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A short place for a script URL: repo-relative, `pkg:<name>` for node_modules, `node:` for built-ins. */
export function place(url: string): string {
  if (url === '') return '(native)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    return `pkg:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? '')}`;
  }
  return path.startsWith('/') ? relative(ROOT, path) : path;
}

/** Self time in µs by key, for one profile. */
export function selfTimes(profile: Profile, keyOf: (node: ProfileNode) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const key = keyOf(node);
    times.set(key, (times.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return times;
}

const maps = new Map<string, SourceMap | undefined>();

/** `place:line` of a frame, through the compiled file's .js.map when there is one (`--compiled`). */
export function where(frame: ProfileNode['callFrame']): string {
  const { url } = frame;
  if (!maps.has(url)) {
    const path = url.startsWith('file://') ? `${fileURLToPath(url)}.map` : '';
    const map = path !== '' && existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    maps.set(url, map === undefined ? undefined : new SourceMap(JSON.parse(map) as never));
  }
  const entry = maps.get(url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry === undefined || !('originalSource' in entry)) return `${place(url)}:${frame.lineNumber + 1}`;
  return `${place(new URL(entry.originalSource, url).href)}:${entry.originalLine + 1}`;
}

function table(title: string, times: Map<string, number>, top: number): void {
  const busy = [...times].filter(([key]) => !key.startsWith('(idle)'));
  const total = busy.reduce((sum, [, time]) => sum + time, 0);
  console.log(`\n${title} (busy ${(total / 1e6).toFixed(2)} s)`);
  for (const [key, time] of busy.sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

function profilesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(path, name));
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { top: { type: 'string', default: '25' } },
    allowPositionals: true,
  });
  const top = Number(values.top);
  for (const file of positionals.flatMap(profilesIn)) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    console.log(`# ${file}`);
    table(
      'self time by function',
      selfTimes(profile, ({ callFrame: frame }) => {
        const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
        return frame.url === '' ? name : `${name}  ${where(frame)}`;
      }),
      top,
    );
    table(
      'self time by file',
      selfTimes(profile, ({ callFrame: frame }) =>
        frame.url === '' ? frame.functionName : where(frame).replace(/:\d+$/, ''),
      ),
      top,
    );
  }
}

main();
