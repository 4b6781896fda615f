// How `top` prints its rows: a table of fixed columns whose NAME column takes the width left (names cut
// with … when the terminal is narrow), numbers right-aligned and short (12.3k), `-` where a value does
// not apply or is not known yet. The same table serves the live view and the one-look output.
import type { TopRow } from './top-rows.js';

interface Column {
  title: string;
  right: boolean;
  value: (row: TopRow) => string;
}

const dash = (value: number | null): string => (value === null ? '-' : short(value));

const COLUMNS: readonly Column[] = [
  { title: 'KIND', right: false, value: (row) => row.kind },
  { title: 'NAME', right: false, value: (row) => row.name },
  { title: 'STATE', right: false, value: (row) => row.state ?? '-' },
  { title: 'IN/S', right: true, value: (row) => rateText(row.inPerSecond) },
  { title: 'OUT/S', right: true, value: (row) => rateText(row.outPerSecond) },
  { title: 'IN', right: true, value: (row) => short(row.recordsIn) },
  { title: 'OUT', right: true, value: (row) => short(row.recordsOut) },
  { title: 'ERRORS', right: true, value: (row) => short(row.errors) },
  { title: 'DROPS', right: true, value: (row) => short(row.drops) },
  { title: 'PENDING', right: true, value: (row) => dash(row.pending) },
];

const NODE: Column = { title: 'NODE', right: false, value: (row) => row.node };
const MIN_NAME = 8;

/** `99999`, `123.5k`, `12.3M`, `4.5G`: at most six characters. */
export function short(value: number): string {
  if (value < 100_000) return String(Math.round(value));
  if (value < 999_950) return `${(value / 1e3).toFixed(1)}k`;
  if (value < 999_950_000) return `${(value / 1e6).toFixed(1)}M`;
  return `${(value / 1e9).toFixed(1)}G`;
}

function rateText(value: number | null): string {
  if (value === null) return '-';
  return value < 10 && value !== Math.round(value) ? value.toFixed(1) : short(value);
}

/** Dropped in this order when the terminal is too narrow for the rest and a name of MIN_NAME. */
const DROPPED_FIRST = ['IN', 'OUT', 'STATE', 'PENDING'];

/** The header and one line per row, each at most `width` wide (unbounded: undefined). */
export function tableLines(rows: readonly TopRow[], options: { width?: number; nodes: boolean }): string[] {
  let columns = options.nodes ? [NODE, ...COLUMNS] : [...COLUMNS];
  const widthOf = (column: Column) =>
    Math.max(column.title.length, ...rows.map((row) => column.value(row).length));
  const rest = (shown: readonly Column[]) =>
    shown.reduce((sum, column) => (column.title === 'NAME' ? sum : sum + widthOf(column) + 2), 0);
  for (const title of DROPPED_FIRST) {
    if (options.width === undefined || rest(columns) + MIN_NAME <= options.width) break;
    columns = columns.filter((column) => column.title !== title);
  }
  const widths = columns.map((column) =>
    column.title === 'NAME' && options.width !== undefined
      ? Math.max(MIN_NAME, Math.min(widthOf(column), options.width - rest(columns)))
      : widthOf(column),
  );
  const line = (values: readonly string[]) =>
    columns
      .map((column, index) => fit(values[index] ?? '', widths[index] ?? 0, column.right))
      .join('  ')
      .trimEnd();
  const lines = [
    line(columns.map((column) => column.title)),
    ...rows.map((row) => line(columns.map((column) => column.value(row)))),
  ];
  return options.width === undefined ? lines : lines.map((each) => each.slice(0, options.width));
}

function fit(text: string, width: number, right: boolean): string {
  const cut = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return right ? cut.padStart(width) : cut.padEnd(width);
}
