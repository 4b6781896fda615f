// "Did you mean …?" for a word the user mistyped: a command on the command line, a backslash command or
// an object name in the shell. Optimal string alignment distance (a swap of two neighbours is one edit,
// as `subscirbe`), compared case-insensitively; a candidate is close enough when at most a third of the
// typed word (at least one character) has to change, which keeps `rm` from suggesting `crds`.

/** The candidates nearest to `word` (all of the same distance, in the order given), or none. */
export function suggestions(word: string, candidates: Iterable<string>): string[] {
  const typed = word.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best = limit + 1;
  let found: string[] = [];
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance > limit) continue;
    if (distance < best) {
      best = distance;
      found = [candidate];
    } else if (distance === best && !found.includes(candidate)) {
      found.push(candidate);
    }
  }
  return found;
}

/** `(Did you mean subscribe?)`, or `` when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const found = suggestions(word, candidates);
  if (found.length === 0) return '';
  const last = found.at(-1) ?? '';
  const list = found.length === 1 ? last : `${found.slice(0, -1).join(', ')} or ${last}`;
  return `(Did you mean ${list}?)`;
}

/** Insertions, deletions, substitutions and swaps of neighbours needed to turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  const at = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) table[i * width] = i;
  for (let j = 0; j <= b.length; j++) table[j] = j;
  const swapped = (i: number, j: number): boolean =>
    i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      table[i * width + j] = swapped(i, j) ? Math.min(best, at(i - 2, j - 2) + 1) : best;
    }
  }
  return at(a.length, b.length);
}
