// What a fuzz target is, and the list of targets. To add one: write targets/<name>.ts exporting `target`
// (seeds, grammar, and `run`, which throws only for a crash) and add a line to TARGETS below.
import type { Grammar, Rng } from './mutate.js';

export interface FuzzTarget extends Grammar {
  /** Inputs to mutate from: the repo's examples, test data, docs examples and a few written by hand. */
  seeds(): Uint8Array[];
  /**
   * Runs one input through the parser. Returns whether the parser accepted it (such inputs join the
   * corpus). The parser's documented "bad input" answer is a normal return; anything else — an unexpected
   * exception, a broken invariant (a round trip that differs, frames that depend on the split) — throws.
   */
  run(input: Uint8Array, rng: Rng): boolean;
  /**
   * Milliseconds per MiB of input allowed beyond the 1 s an input may take (hang-limit.ts): about twice the
   * slowest rate measured for a parser that is linear but slow. None (0) for parsers far under 1 s at
   * their size limit.
   */
  msPerMiB?: number;
}

type Load = () => Promise<FuzzTarget>;

export const TARGETS: Readonly<Record<string, Load>> = {
  statements: async () => (await import('./targets/statements.js')).target,
  'resource-yaml': async () => (await import('./targets/resource-yaml.js')).target,
  'format-json': async () => (await import('./targets/payload-format.js')).formatTarget('JSON'),
  'format-yaml': async () => (await import('./targets/payload-format.js')).formatTarget('YAML'),
  'format-toml': async () => (await import('./targets/payload-format.js')).formatTarget('TOML'),
  'format-xml': async () => (await import('./targets/payload-format.js')).formatTarget('XML'),
  'format-cbor': async () => (await import('./targets/payload-format.js')).formatTarget('CBOR'),
  syslog: async () => (await import('./targets/syslog.js')).target,
  'syslog-framing': async () => (await import('./targets/syslog-framing.js')).target,
  protobuf: async () => (await import('./targets/protobuf.js')).target,
  'admin-routes': async () => (await import('./targets/admin-routes.js')).target,
  'jaq-compiled': async () => (await import('./targets/jaq-compiled.js')).target,
};

/** Targets that check the runner itself: selectable by name, not part of `all` or `--list`. */
export const RUNNER_CHECKS: Readonly<Record<string, Load>> = {
  'toy-quadratic': async () => (await import('./targets/toy-quadratic.js')).target,
};

/** A target or runner check by name. */
export function loadTarget(name: string): Load | undefined {
  return TARGETS[name] ?? RUNNER_CHECKS[name];
}
