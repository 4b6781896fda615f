// The live view of `top` on a terminal: the alternate screen, redrawn every interval and when the
// window changes size, keys to sort, q or Ctrl-C to quit. Whatever ends it (a key, a signal, a failure)
// leaves the terminal as it found it: the main screen back, the cursor shown, raw mode off.
import type { ReadStream, WriteStream } from 'node:tty';
import { networkReason } from '../client/errors.js';
import { InputError } from '../language/input-error.js';
import type { TopSource } from './node-top-source.js';
import { rowsOf, SORT_KEYS_PRESSED, sortRows, type SortKey } from './top-rows.js';
import type { NodeSample } from './top-sample.js';
import { tableLines } from './top-table.js';

export const ENTER = '\x1b[?1049h\x1b[?25l';
export const LEAVE = '\x1b[?25h\x1b[?1049l';
const HOME = '\x1b[H';
const CLEAR_LINE = '\x1b[K';
const CLEAR_BELOW = '\x1b[J';

export interface ScreenOptions {
  source: TopSource;
  input: ReadStream;
  output: WriteStream;
  intervalMs: number;
  sort: SortKey;
}

export async function runScreen(options: ScreenOptions): Promise<number> {
  const view = new View(options);
  const stop = new AbortController();
  const quit = () => stop.abort();
  const onKey = (data: Buffer) => (view.key(data.toString('latin1')) ? quit() : view.draw());
  const onResize = () => view.draw();
  options.output.write(ENTER);
  options.input.setRawMode(true);
  options.input.on('data', onKey);
  options.input.resume();
  options.output.on('resize', onResize);
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, quit);
  try {
    view.draw();
    while (!stop.signal.aborted) {
      await view.look();
      view.draw();
      await delay(options.intervalMs, stop.signal);
    }
  } finally {
    options.input.off('data', onKey);
    options.output.off('resize', onResize);
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.off(signal, quit);
    options.input.setRawMode(false);
    options.input.pause();
    options.output.write(LEAVE);
  }
  return 0;
}

class View {
  readonly #options: ScreenOptions;
  #previous: NodeSample[] = [];
  #current: NodeSample[] = [];
  #sort: SortKey;
  #problem: string | undefined;

  constructor(options: ScreenOptions) {
    this.#options = options;
    this.#sort = options.sort;
  }

  /** Reads the source; a failure is shown on the screen and the next look tries again. */
  async look(): Promise<void> {
    try {
      const current = await this.#options.source.look();
      this.#previous = this.#current.length > 0 ? this.#current : current;
      this.#current = current;
      this.#problem = undefined;
    } catch (error: unknown) {
      this.#problem = error instanceof InputError ? error.message : networkReason(error);
    }
  }

  /** True when the key quits. */
  key(text: string): boolean {
    if (text === 'q' || text === 'Q' || text === '\x03' || text === '\x04') return true;
    const sort = SORT_KEYS_PRESSED[text.toLowerCase()];
    if (sort !== undefined) this.#sort = sort;
    return false;
  }

  draw(): void {
    const { output, source, intervalMs } = this.#options;
    const width = output.columns || 80;
    const height = output.rows || 24;
    const rows = sortRows(
      rowsOf(this.#previous === this.#current ? [] : this.#previous, this.#current),
      this.#sort,
    );
    const head = `streamroute top: domain ${source.domain} on ${source.where} · every ${intervalMs / 1000}s · sort ${this.#sort}`;
    const status = this.#problem ?? noteOf(source) ?? failures(this.#current);
    const keys = 'q quit · sort: k kind, n name, i in/s, o out/s, e errors, d drops, p pending';
    const table = tableLines(rows, { width, nodes: source.nodes });
    const room = Math.max(1, height - 4);
    const body =
      table.length > room ? [...table.slice(0, room - 1), `… ${table.length - room + 1} more rows`] : table;
    const lines = [head, status ?? '', ...body, keys].map((line) => line.slice(0, width));
    output.write(`${HOME}${lines.join(`${CLEAR_LINE}\r\n`)}${CLEAR_LINE}${CLEAR_BELOW}`);
  }
}

function noteOf(source: TopSource): string | undefined {
  return 'note' in source && typeof source.note === 'string' ? source.note : undefined;
}

function failures(samples: readonly NodeSample[]): string | undefined {
  const failed = samples.filter((sample) => sample.error !== undefined);
  return failed.length === 0
    ? undefined
    : failed.map((sample) => `${sample.pod ?? sample.node}: ${sample.error}`).join('; ');
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
