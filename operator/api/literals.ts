// Duration and size literals (`30s`, `1MiB`). Specs keep the text as written; these read it, both for the
// parser's diagnostics (SR1003, SR1004) and for the compiler, which needs the numbers.
//
// Sizes follow IEC and SI: KiB = 1024 bytes, KB = 1000 bytes; a bare number is bytes.

export type LiteralResult = { ok: true; value: number } | { ok: false; reason: string };

export const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  B: 1,
  KB: 1000,
  MB: 1000 ** 2,
  GB: 1000 ** 3,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
};

const LITERAL = /^([0-9]+)(?:\.([0-9]+))?([A-Za-z]*)$/;

export function readDuration(text: string): LiteralResult {
  const problem = `'${text}' is not a duration: write a whole number and a unit ms, s, m or h, such as 30s`;
  const parts = LITERAL.exec(text);
  const unit = parts?.[3] ?? '';
  const scale = DURATION_UNITS[unit];
  if (parts === null || scale === undefined) return { ok: false, reason: problem };
  if (parts[2] !== undefined) return { ok: false, reason: `${problem}${wholeHint(parts, scale)}` };
  return positive(text, Number(parts[1]) * scale, 'duration');
}

export function readSize(text: string): LiteralResult {
  const problem = `'${text}' is not a size: write a whole number of bytes, optionally with a unit B, KB, MB, GB, KiB, MiB or GiB, such as 64KiB`;
  const parts = LITERAL.exec(text);
  const scale = SIZE_UNITS[parts?.[3] ?? ''];
  if (parts === null || scale === undefined || parts[2] !== undefined) return { ok: false, reason: problem };
  return positive(text, Number(parts[1]) * scale, 'size');
}

/** Milliseconds of a valid duration literal; undefined when it is malformed. */
export function durationToMs(text: string): number | undefined {
  const result = readDuration(text);
  return result.ok ? result.value : undefined;
}

/** Bytes of a valid size literal; undefined when it is malformed. */
export function sizeToBytes(text: string): number | undefined {
  const result = readSize(text);
  return result.ok ? result.value : undefined;
}

function positive(text: string, value: number, what: string): LiteralResult {
  if (value === 0) return { ok: false, reason: `'${text}' is not a ${what}: it must be greater than zero` };
  if (!Number.isSafeInteger(value)) return { ok: false, reason: `'${text}' is too large for a ${what}` };
  return { ok: true, value };
}

/** `1.5s` → ` (1500ms)`: a fraction is often meant as a smaller unit. */
function wholeHint(parts: RegExpExecArray, scale: number): string {
  const ms = Number(`${parts[1]}.${parts[2]}`) * scale;
  return Number.isSafeInteger(ms) && ms > 0 ? ` (${ms}ms)` : '';
}
