// `streamroute top`: on a terminal, the live view (top-screen.ts); otherwise one look for scripts — two
// reads an interval apart, so the rates are real — printed as a table or as JSON (`-o json`), exit 0.
// Loaded only by this command.
import type { ReadStream, WriteStream } from 'node:tty';
import type { Output } from '../client/report.js';
import { EXIT } from '../client/report.js';
import type { TopSource } from './node-top-source.js';
import { rowsOf, sortRows, type SortKey, type TopRow } from './top-rows.js';
import { runScreen } from './top-screen.js';
import { tableLines } from './top-table.js';
import type { NodeSample } from './top-sample.js';

export interface TopOptions {
  source: TopSource;
  intervalMs: number;
  sort: SortKey;
  output: 'table' | 'json';
  /** The terminal, when both stdin and stdout are one (then the live view runs). */
  terminal?: { input: ReadStream; output: WriteStream };
}

export async function runTop(options: TopOptions, output: Output): Promise<number> {
  if (options.terminal !== undefined && options.output === 'table')
    return runScreen({ ...options, ...options.terminal });
  const first = await options.source.look();
  await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  const second = await options.source.look();
  const rows = sortRows(rowsOf(first, second), options.sort);
  if (options.output === 'json') output.out(JSON.stringify(snapshotJson(options, rows, second), null, 2));
  else output.out(tableLines(rows, { nodes: options.source.nodes }).join('\n'));
  for (const sample of second)
    if (sample.error !== undefined) output.err(`streamroute: ${sample.pod ?? sample.node}: ${sample.error}`);
  const note = 'note' in options.source ? options.source.note : undefined;
  if (typeof note === 'string') output.err(`streamroute: ${note}`);
  return EXIT.ok;
}

/** The JSON of one look (docs/cli.md, "streamroute top"). */
function snapshotJson(options: TopOptions, rows: readonly TopRow[], samples: readonly NodeSample[]) {
  return {
    domain: options.source.domain,
    intervalSeconds: options.intervalMs / 1000,
    nodes: samples.map((sample) => ({
      node: sample.node,
      ...(sample.pod === undefined ? {} : { pod: sample.pod }),
      ...(sample.error === undefined ? {} : { error: sample.error }),
      components: rows
        .filter((row) => row.node === sample.node)
        .map((row) => ({
          kind: row.kind,
          name: row.name,
          state: row.state,
          inPerSecond: row.inPerSecond,
          outPerSecond: row.outPerSecond,
          recordsIn: row.recordsIn,
          recordsOut: row.recordsOut,
          errors: row.errors,
          drops: row.drops,
          pending: row.pending,
        })),
    })),
  };
}
