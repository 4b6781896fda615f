// Whether a jq program compiles, answered synchronously (the whole-graph compiler is synchronous). jq
// compiles it in a worker thread (check-thread.ts), never on the calling thread: jq evaluates constant
// expressions while compiling (`"x" * 1000000000` asks for a gigabyte), its compiler recurses with the
// program's nesting on a stack nothing checks, and it can abort, crash or loop on such programs. A
// program that does any of that is answered with why (`exhausted`) within the limits below; the thread
// is then replaced, so the next program is checked by an intact jq.
//
// The program is compiled inside the same wrapper the engine runs it in, so what passes here runs there,
// and it is never run: a program that would loop forever at run time is checked as quickly as any other.
// jq's module is loaded on demand, not at import (a graph without JAQ programs, and the data plane, never
// need it): whoever compiles JAQ programs awaits `loadJaqCheck()` first (the compiler's `prepareCompile`
// does), which also starts the thread, so a check seldom waits for one.
import { CheckThread, type CheckFailure } from './check-thread.js';
import { checkProgram, compileProblem } from './jaq-program.js';
import { compileJqWasm, type JqWasmModule } from './jq-wasm-module.js';

export type { CheckFailure } from './check-thread.js';

export interface JaqCheckLimits {
  /** How long jq may take to compile one program. */
  timeLimitMs: number;
  /** WebAssembly memory jq may use to compile one program. */
  maxMemoryMiB: number;
}

/** The defaults; the environment may change them (docs/codecs.md, "Limits of the compile check"). */
export const DEFAULT_JAQ_CHECK_LIMITS: Readonly<JaqCheckLimits> = { timeLimitMs: 1000, maxMemoryMiB: 64 };
export const LIMIT_VARIABLES = {
  timeLimitMs: 'STREAMROUTE_JAQ_CHECK_TIME_LIMIT_MS',
  maxMemoryMiB: 'STREAMROUTE_JAQ_CHECK_MEMORY_MIB',
} as const satisfies Record<keyof JaqCheckLimits, string>;

export type JaqCheck =
  | { outcome: 'compiles' }
  /** jq's compile error, located in the program's lines. */
  | { outcome: 'error'; problem: string }
  /** jq could not compile it within the check's limits: what happened, in words. */
  | { outcome: 'exhausted'; failure: CheckFailure; detail: string };

/** What the check has done in this process (for metrics and tests). */
export interface JaqCheckStats {
  /** Programs given to jq (answers from the cache not counted). */
  checks: number;
  /** Programs answered from the cache. */
  cached: number;
  /** Checks without an answer from jq, by why. */
  exhausted: Record<CheckFailure, number>;
  /** Threads started (the first, and one after each retired thread). */
  threadsStarted: number;
}

/** A thread's start (loading jq in it) may take this long; it does not count against a program's limit. */
const START_LIMIT_MS = 10_000;
/** A thread whose memory grew past this is replaced after its call: WebAssembly memory never shrinks. */
const KEEP_MEMORY_BYTES = 32 << 20;
/** Answers kept, by program text: a node compiles its whole domain again at every statement. */
const CACHE_ENTRIES = 1024;
const CACHE_CHARS = 8 << 20;

export const jaqCheckStats: JaqCheckStats = {
  checks: 0,
  cached: 0,
  exhausted: { out_of_memory: 0, time_limit: 0, too_deep: 0, crashed: 0, unavailable: 0 },
  threadsStarted: 0,
};

let limits: JaqCheckLimits = limitsFrom(process.env);
let jq: JqWasmModule | undefined;
let loading: Promise<JqWasmModule> | undefined;
let thread: CheckThread | undefined;
const cache = new Map<string, JaqCheck>();
let cachedChars = 0;

/** Loads jq's module and starts the check's thread, once; later calls resolve at once. */
export async function loadJaqCheck(): Promise<void> {
  loading ??= compileJqWasm().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  jq = await loading;
  if (thread?.usable !== true) thread = startThread(jq);
  await thread.ready(START_LIMIT_MS);
}

/** Whether the program compiles; blocks the caller for at most the time limit (and a thread's start). */
export function checkJaqProgram(program: string): JaqCheck {
  if (jq === undefined) throw new Error('the JAQ compile check is not loaded: await loadJaqCheck() first');
  const known = cache.get(program);
  if (known !== undefined) {
    jaqCheckStats.cached += 1;
    cache.delete(program); // kept as the most recent
    cache.set(program, known);
    return known;
  }
  jaqCheckStats.checks += 1;
  if (thread?.usable !== true) thread = startThread(jq);
  const reply = thread.check(checkProgram(program), START_LIMIT_MS, limits.timeLimitMs);
  if (reply.retire) {
    thread.retire();
    thread = undefined;
  }
  if ('failure' in reply) {
    jaqCheckStats.exhausted[reply.failure] += 1;
    const answer: JaqCheck = {
      outcome: 'exhausted',
      failure: reply.failure,
      detail: describe(reply.failure),
    };
    // Time depends on the machine's load at the moment, and a start may fail for a passing reason.
    if (reply.failure !== 'time_limit' && reply.failure !== 'unavailable') remember(program, answer);
    return answer;
  }
  const answer: JaqCheck =
    reply.exitCode === 0
      ? { outcome: 'compiles' }
      : { outcome: 'error', problem: compileProblem(reply.stderr, program) };
  remember(program, answer);
  return answer;
}

/** Sets the limits (tests; a process takes them from its environment); forgets the answers so far. */
export function configureJaqCheck(changed: Partial<JaqCheckLimits>): void {
  limits = { ...limits, ...changed };
  cache.clear();
  cachedChars = 0;
  thread?.retire();
  thread = undefined;
}

export function jaqCheckLimits(): Readonly<JaqCheckLimits> {
  return limits;
}

/** The limits the environment sets, each a positive whole number; a variable that is not one is ignored. */
export function limitsFrom(env: NodeJS.ProcessEnv): JaqCheckLimits {
  const read = (key: keyof JaqCheckLimits): number => {
    const text = env[LIMIT_VARIABLES[key]]?.trim() ?? '';
    const value = /^\d{1,7}$/.test(text) ? Number(text) : 0;
    return value > 0 ? value : DEFAULT_JAQ_CHECK_LIMITS[key];
  };
  return { timeLimitMs: read('timeLimitMs'), maxMemoryMiB: read('maxMemoryMiB') };
}

function startThread(module: JqWasmModule): CheckThread {
  jaqCheckStats.threadsStarted += 1;
  return new CheckThread(module, {
    maxMemoryBytes: limits.maxMemoryMiB * 2 ** 20,
    keepMemoryBytes: KEEP_MEMORY_BYTES,
  });
}

function describe(failure: CheckFailure): string {
  switch (failure) {
    case 'out_of_memory':
      return `jq needs more than the check's ${limits.maxMemoryMiB} MiB to compile it (jq evaluates constant expressions, such as a string repeated many times, while compiling)`;
    case 'time_limit':
      return `jq did not finish compiling it within the check's time limit of ${limits.timeLimitMs} ms`;
    case 'too_deep':
      return "it nests too deeply for jq's compiler";
    case 'crashed':
      return "jq's compiler failed on it (very deep nesting or very many parameters can make it fail)";
    case 'unavailable':
      return 'the compile check could not start jq';
  }
}

function remember(program: string, answer: JaqCheck): void {
  if (program.length > CACHE_CHARS / 16) return;
  cache.set(program, answer);
  cachedChars += program.length;
  for (const [oldest] of cache) {
    if (cache.size <= CACHE_ENTRIES && cachedChars <= CACHE_CHARS) break;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
}
