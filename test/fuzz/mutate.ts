// The fuzzer's input generator: a seeded PRNG (the same --seed gives the same inputs) and byte-level
// mutations of seed inputs — bit flips, byte sets, inserts, deletes, splices between seeds, dictionary
// tokens, repeated runs and nested wrappers (to reach super-linear and deeply recursive paths) and, now and
// then, growth up to the target's real size limit.

/** SplitMix32-style generator: fast, deterministic, good enough to pick mutations. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x9e3779b9;
  }

  /** A 32-bit unsigned integer. */
  next(): number {
    this.#state = (this.#state + 0x9e3779b9) >>> 0;
    let z = this.#state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return n <= 1 ? 0 : this.next() % n;
  }

  chance(p: number): boolean {
    return this.next() / 0x1_0000_0000 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  /** Small numbers mostly, large ones sometimes: 1..max, log-uniform. */
  size(max: number): number {
    const bits = Math.log2(Math.max(2, max));
    return Math.min(max, Math.max(1, Math.floor(2 ** ((this.below(1001) / 1000) * bits))));
  }
}

/** What a target tells the mutator about its input language. */
export interface Grammar {
  /** Tokens of the syntax (keywords, punctuation, numbers at the edges), inserted whole. */
  tokens: readonly string[];
  /** Open/close pairs that nest: wrapping a range in many of them reaches deep recursion. */
  nests: readonly (readonly [string, string])[];
  /** The largest input the product accepts for this parser (a body limit, a frame limit). */
  maxBytes: number;
  /** Tokens and nests are byte strings (each character one byte, as in '\xff'), not text to encode as UTF-8. */
  bytes?: boolean;
}

function encodeWith(grammar: Grammar): (text: string) => Uint8Array {
  return grammar.bytes === true
    ? (text) => Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff)
    : (text) => encoder.encode(text);
}

const encoder = new TextEncoder();
const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x0a, 0x0d, 0x20, 0x22, 0x5c, 0xc0, 0xe0, 0xf0, 0xfe];

type Mutation = (input: Uint8Array, rng: Rng, context: MutationContext) => Uint8Array;

interface MutationContext {
  grammar: Grammar;
  corpus: readonly Uint8Array[];
  tokens: readonly Uint8Array[];
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A range [from, to) of the input, short most of the time. */
function range(input: Uint8Array, rng: Rng): [number, number] {
  const from = rng.below(input.length + 1);
  const to = Math.min(input.length, from + rng.size(Math.max(1, input.length - from)));
  return [from, to];
}

const flipBit: Mutation = (input, rng) => {
  if (input.length === 0) return input;
  const out = input.slice();
  const at = rng.below(out.length);
  out[at] = (out[at] ?? 0) ^ (1 << rng.below(8));
  return out;
};

const setByte: Mutation = (input, rng) => {
  if (input.length === 0) return Uint8Array.of(rng.below(256));
  const out = input.slice();
  out[rng.below(out.length)] = rng.chance(0.5) ? rng.pick(INTERESTING) : rng.below(256);
  return out;
};

const insertBytes: Mutation = (input, rng) => {
  const at = rng.below(input.length + 1);
  const bytes = new Uint8Array(rng.size(16)).map(() =>
    rng.chance(0.5) ? rng.pick(INTERESTING) : rng.below(256),
  );
  return concat(input.subarray(0, at), bytes, input.subarray(at));
};

const insertToken: Mutation = (input, rng, { tokens }) => {
  if (tokens.length === 0) return input;
  const at = rng.below(input.length + 1);
  return concat(input.subarray(0, at), rng.pick(tokens), input.subarray(at));
};

const deleteRange: Mutation = (input, rng) => {
  const [from, to] = range(input, rng);
  return concat(input.subarray(0, from), input.subarray(to));
};

const truncate: Mutation = (input, rng) => input.subarray(0, rng.below(input.length + 1));

/** Head of this input, tail of another seed (or a piece of it inserted). */
const splice: Mutation = (input, rng, { corpus }) => {
  const other = rng.pick(corpus);
  if (rng.chance(0.5))
    return concat(
      input.subarray(0, rng.below(input.length + 1)),
      other.subarray(rng.below(other.length + 1)),
    );
  const [from, to] = range(other, rng);
  const at = rng.below(input.length + 1);
  return concat(input.subarray(0, at), other.subarray(from, to), input.subarray(at));
};

/** A range repeated many times: long runs reach super-linear scans and big counts. */
const repeatRange: Mutation = (input, rng, { grammar }) => {
  const [from, to] = range(input, rng);
  const piece = input.subarray(from, Math.max(to, Math.min(input.length, from + 1)));
  if (piece.length === 0) return input;
  // Mostly a few copies; one time in ten, thousands (up to the size limit).
  const times = Math.min(
    rng.size(rng.chance(0.1) ? 65_536 : 16),
    Math.floor(grammar.maxBytes / piece.length),
  );
  const repeated = new Uint8Array(piece.length * times);
  for (let i = 0; i < times; i++) repeated.set(piece, i * piece.length);
  return concat(input.subarray(0, from), repeated, input.subarray(to));
};

/** A range wrapped in one open/close pair many times: deep nesting. */
const nest: Mutation = (input, rng, { grammar }) => {
  if (grammar.nests.length === 0) return input;
  const [open, close] = rng.pick(grammar.nests);
  // Around the formats' depth limits (256) mostly; one time in ten, far beyond any limit.
  const depth = rng.chance(0.9) ? rng.size(600) : rng.size(100_000);
  const encode = encodeWith(grammar);
  const openBytes = encode(open.repeat(depth));
  const closeBytes = rng.chance(0.8) ? encode(close.repeat(depth)) : new Uint8Array(0);
  const [from, to] = range(input, rng);
  return concat(input.subarray(0, from), openBytes, input.subarray(from, to), closeBytes, input.subarray(to));
};

const MUTATIONS: readonly (readonly [Mutation, number])[] = [
  [flipBit, 10],
  [setByte, 10],
  [insertBytes, 8],
  [insertToken, 14],
  [deleteRange, 8],
  [truncate, 3],
  [splice, 8],
  [repeatRange, 3],
  [nest, 3],
];
const TOTAL_WEIGHT = MUTATIONS.reduce((sum, [, weight]) => sum + weight, 0);

function pickMutation(rng: Rng): Mutation {
  let roll = rng.below(TOTAL_WEIGHT);
  for (const [mutation, weight] of MUTATIONS) {
    if (roll < weight) return mutation;
    roll -= weight;
  }
  return flipBit;
}

/** Produces inputs from a corpus: a seed, mutated one to eight times, capped at the target's limit. */
export class Mutator {
  readonly #context: MutationContext;
  readonly #corpus: Uint8Array[];
  /** Seeds plus inputs the parser accepted (kept few, so the search stays near real inputs). */
  static readonly MAX_CORPUS = 2000;

  constructor(seeds: readonly Uint8Array[], grammar: Grammar) {
    this.#corpus = seeds.length > 0 ? [...seeds] : [new Uint8Array(0)];
    this.#context = { grammar, corpus: this.#corpus, tokens: grammar.tokens.map(encodeWith(grammar)) };
  }

  get corpusSize(): number {
    return this.#corpus.length;
  }

  next(rng: Rng): Uint8Array {
    let input = rng.pick(this.#corpus);
    const rounds = 1 + rng.below(8);
    for (let i = 0; i < rounds; i++) input = pickMutation(rng)(input, rng, this.#context);
    const max = this.#context.grammar.maxBytes;
    return input.length > max ? input.subarray(0, max) : input;
  }

  /** Keeps an input that went somewhere (accepted by the parser), replacing an old one when full. */
  keep(input: Uint8Array, rng: Rng): void {
    if (input.length > 64 * 1024) return;
    if (this.#corpus.length < Mutator.MAX_CORPUS) this.#corpus.push(input.slice());
    else this.#corpus[rng.below(this.#corpus.length)] = input.slice();
  }
}
