// A unified diff of two texts by lines (longest common subsequence), as `diff -u` prints it: `---`/`+++`
// headers, then hunks with three lines of context. Specs are small, so the quadratic table is fine.

const CONTEXT = 3;

type Edit = { op: ' ' | '-' | '+'; line: string };

export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }): string {
  const edits = diffLines(splitLines(before), splitLines(after));
  if (edits.every((edit) => edit.op === ' ')) return '';
  return [`--- ${labels.from}`, `+++ ${labels.to}`, ...hunks(edits)].join('\n');
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): Edit[] {
  const cols = b.length + 1;
  const table = new Uint32Array((a.length + 1) * cols);
  const at = (i: number, j: number): number => table[i * cols + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const op = nextOp({ a, b, at }, i, j);
    edits.push({ op, line: (op === '+' ? b[j] : a[i]) ?? '' });
    if (op !== '+') i++;
    if (op !== '-') j++;
  }
  return edits;
}

/** Keep a common line; else delete before adding when both keep the longest common subsequence. */
function nextOp(
  texts: { a: readonly string[]; b: readonly string[]; at: (i: number, j: number) => number },
  i: number,
  j: number,
): Edit['op'] {
  const { a, b, at } = texts;
  if (i < a.length && j < b.length && a[i] === b[j]) return ' ';
  if (i < a.length && (j === b.length || at(i + 1, j) >= at(i, j + 1))) return '-';
  return '+';
}

/** Groups the edits into hunks with their `@@ -a,n +b,m @@` headers. */
function hunks(edits: readonly Edit[]): string[] {
  const changed = edits.map((edit, index) => (edit.op === ' ' ? -1 : index)).filter((index) => index >= 0);
  const out: string[] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (end + 1 < changed.length && (changed[end + 1] ?? 0) - (changed[end] ?? 0) <= 2 * CONTEXT) end++;
    const from = Math.max(0, (changed[start] ?? 0) - CONTEXT);
    const to = Math.min(edits.length, (changed[end] ?? 0) + CONTEXT + 1);
    const before = edits.slice(0, from);
    const slice = edits.slice(from, to);
    const oldStart = before.filter((e) => e.op !== '+').length + 1;
    const newStart = before.filter((e) => e.op !== '-').length + 1;
    const oldCount = slice.filter((e) => e.op !== '+').length;
    const newCount = slice.filter((e) => e.op !== '-').length;
    // As diff -u: an empty range starts at the line before it.
    const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
    out.push(
      `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`,
      ...slice.map((e) => `${e.op}${e.line}`),
    );
    start = end + 1;
  }
  return out;
}
