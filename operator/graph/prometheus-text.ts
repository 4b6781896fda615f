// Reads the samples `top` and `graph --rates` need from a node's /metrics (the Prometheus text format, version 0.0.4): one
// `name{label="value",…} value [timestamp]` per line; `#` lines are comments. Label values may hold
// escaped `\\`, `\"` and `\n`. Only the families asked for are kept, so a node with thousands of other
// series costs little; a line that does not parse is skipped (it is not one of ours).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

export function parsePrometheusText(text: string, families: ReadonlySet<string>): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = NAME.exec(line)?.[0];
    if (name === undefined || !families.has(name)) continue;
    const sample = parseSample(name, line.slice(name.length));
    if (sample !== undefined) samples.push(sample);
  }
  return samples;
}

function parseSample(name: string, rest: string): Sample | undefined {
  let labels: Record<string, string> = {};
  let tail = rest;
  if (tail.startsWith('{')) {
    const parsed = parseLabels(tail.slice(1));
    if (parsed === undefined) return undefined;
    labels = parsed.labels;
    tail = parsed.rest;
  }
  const [valueText] = tail.trim().split(/\s+/);
  const value = parseValue(valueText ?? '');
  return value === undefined ? undefined : { name, labels, value };
}

/** `a="x",b="y"}` → the labels and what follows the `}`. */
function parseLabels(text: string): { labels: Record<string, string>; rest: string } | undefined {
  const labels: Record<string, string> = {};
  let rest = text.trimStart();
  while (!rest.startsWith('}')) {
    const label = LABEL_NAME.exec(rest)?.[0];
    if (label === undefined || rest[label.length] !== '=' || rest[label.length + 1] !== '"') return undefined;
    const value = readQuoted(rest, label.length + 2);
    if (value === undefined) return undefined;
    labels[label] = value.text;
    rest = rest.slice(value.end).trimStart();
    if (rest.startsWith(',')) rest = rest.slice(1).trimStart();
  }
  return { labels, rest: rest.slice(1) };
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', n: '\n' };

/** The value of a quoted label from `start` (after the opening quote), and where it ends. */
function readQuoted(text: string, start: number): { text: string; end: number } | undefined {
  let value = '';
  for (let index = start; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === '"') return { text: value, end: index + 1 };
    if (char !== '\\') {
      value += char;
      continue;
    }
    const escaped = text.charAt(index + 1);
    value += ESCAPES[escaped] ?? `\\${escaped}`;
    index++;
  }
  return undefined;
}

function parseValue(text: string): number | undefined {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return Number.NaN;
  const value = Number(text);
  return text === '' || Number.isNaN(value) ? undefined : value;
}
