// Test support: the real protoc (Debian's, /usr/bin/protoc) encoding text format to wire bytes and
// decoding wire bytes to text format, over the same include roots as test-messages.ts.
import { spawnSync } from 'node:child_process';
import { INCLUDE_ROOTS } from './test-messages.js';

const PROTOC = process.env.PROTOC ?? 'protoc';

/** protoc's version line, or undefined when there is no protoc to run. */
export function protocVersion(): string | undefined {
  const run = spawnSync(PROTOC, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

function protoc(
  mode: 'encode' | 'decode',
  message: string,
  input: Uint8Array | string,
  file: string,
): Buffer {
  const args = [`--${mode}=${message}`, ...INCLUDE_ROOTS.map((dir) => `--proto_path=${dir}`), file];
  const run = spawnSync(PROTOC, args, { input });
  if (run.status !== 0) throw new Error(`protoc --${mode} failed: ${run.stderr.toString()}`);
  return run.stdout;
}

/** Wire bytes of a text-format message. */
export function protocEncode(message: string, text: string, file = 'kitchen.proto'): Uint8Array {
  return new Uint8Array(protoc('encode', message, text, file));
}

/** Text format of wire bytes (map entries sorted by key, fields by number, as protoc prints them). */
export function protocDecode(message: string, bytes: Uint8Array, file = 'kitchen.proto'): string {
  return protoc('decode', message, bytes, file).toString('utf8');
}
