// One shell session without the terminal: lines in, statements run on the target, text out. run-shell.ts
// feeds it readline's lines; tests feed it lines directly. A failure of one statement or command (the
// node refuses, cannot be reached, a file cannot be read) is printed and the session goes on.
import { didYouMean } from '../client/did-you-mean.js';
import { domainProblem } from '../client/endpoint.js';
import type { Output } from '../client/report.js';
import { InputError } from '../language/input-error.js';
import { readInput } from '../language/inputs.js';
import { formatTable } from '../node/show-output.js';
import { backslashHelp, parseBackslash, type BackslashAction } from './backslash-commands.js';
import type { NameCache } from './name-cache.js';
import { SHOWN_KINDS } from './object-names.js';
import { BATCH_SOURCE, SHELL_SOURCE, ShellBatch, type Step } from './shell-batch.js';
import type { ShellHistory } from './shell-history.js';
import { StatementBuffer, type Waiting } from './statement-buffer.js';
import type { StatementTarget } from './statement-target.js';

export interface SessionOptions {
  target: StatementTarget;
  output: Output;
  history: ShellHistory;
  names: NameCache;
}

const PROMPT_MARK: Record<Waiting, string> = {
  nothing: '=',
  statement: '-',
  string: "'",
  jaq: '$',
  comment: '*',
};

export class ShellSession {
  readonly buffer = new StatementBuffer();
  readonly batch = new ShellBatch();
  #target: StatementTarget;
  readonly #output: Output;
  readonly #history: ShellHistory;
  readonly #names: NameCache;
  #quit = false;

  constructor(options: SessionOptions) {
    this.#target = options.target;
    this.#output = options.output;
    this.#history = options.history;
    this.#names = options.names;
  }

  get target(): StatementTarget {
    return this.#target;
  }

  get quit(): boolean {
    return this.#quit;
  }

  /** `default=> `; `-` continues a statement, `'` `$` `*` a string, program or comment; `*` a batch. */
  get prompt(): string {
    const batch = this.batch.open ? '*' : '';
    return `${this.#target.domain}${PROMPT_MARK[this.buffer.waiting]}${batch}> `;
  }

  /** Runs what one line completes: a backslash command, or the statements it ends. */
  async line(line: string): Promise<void> {
    const free = this.buffer.waiting === 'nothing' || this.buffer.waiting === 'statement';
    if (free && line.trimStart().startsWith('\\')) {
      this.#history.add(line.trim());
      return this.#guarded(() => this.#backslash(line));
    }
    const taken = this.buffer.add(line);
    if (taken.consumed !== '') this.#history.add(taken.consumed);
    for (const statement of taken.statements) {
      await this.#guarded(() => this.#statement(statement));
    }
  }

  /** Ctrl-C: forgets the statement being typed. */
  interrupt(): void {
    this.buffer.reset();
  }

  /** The session ends (`\q`, Ctrl-D): says what an open batch loses. */
  end(): void {
    const lost = this.batch.abandon();
    if (lost !== undefined) this.#output.err(lost);
  }

  async #statement(text: string): Promise<void> {
    const step: Step = this.batch.step(text);
    if (step.do === 'refuse') return step.lines.forEach((line) => this.#output.err(line));
    if (step.do !== 'send') return this.#output.out(step.message);
    if (step.note !== undefined) this.#output.out(step.note);
    const ok = await this.#target.run(step.script, step.source, this.#output);
    if (ok && step.changes) this.#names.invalidate();
    if (!ok && step.source === BATCH_SOURCE)
      this.#output.err('-- the batch was not applied: nothing of it changed');
  }

  async #guarded(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error: unknown) {
      // The node or cluster cannot be reached, a file cannot be read: said, and the shell goes on.
      if (error instanceof InputError) this.#output.err(`streamroute: ${error.message}`);
      else
        this.#output.err(
          `streamroute: internal error: ${error instanceof Error ? error.message : String(error)}`,
        );
    }
  }

  async #backslash(line: string): Promise<void> {
    const action = parseBackslash(line);
    if ('error' in action) return this.#output.err(action.error);
    return this.#act(action);
  }

  async #act(action: BackslashAction): Promise<void> {
    switch (action.type) {
      case 'help':
        return this.#output.out(backslashHelp());
      case 'quit':
        this.#quit = true;
        return;
      case 'reset':
        return this.#output.out(
          this.buffer.reset() ? '-- the statement being typed is forgotten' : '-- nothing was typed',
        );
      default:
        return this.#ask(action);
    }
  }

  /** The backslash commands that ask the target. */
  async #ask(action: Exclude<BackslashAction, { type: 'help' | 'quit' | 'reset' }>): Promise<void> {
    switch (action.type) {
      case 'show': {
        const plural = SHOWN_KINDS.find((each) => each.kind === action.kind)?.plural ?? '';
        await this.#target.run(`SHOW ${plural};`, SHELL_SOURCE, this.#output);
        return;
      }
      case 'list':
        return action.name === undefined ? this.#listAll() : this.#describe(action.name);
      case 'domain':
        return action.domain === undefined ? this.#where() : this.#switch(action.domain);
      case 'include':
        return this.#include(action.file);
    }
  }

  async #listAll(): Promise<void> {
    this.#names.invalidate();
    const objects = await this.#names.objects();
    if (objects.length === 0) return this.#output.out(`-- domain ${this.#target.domain} has no objects`);
    const words = (kind: string) =>
      SHOWN_KINDS.find((each) => each.kind === kind)?.words.toLowerCase() ?? kind;
    this.#output.out(
      formatTable(
        ['KIND', 'NAME'],
        objects.map((each) => [words(each.kind), each.name]),
      ),
    );
  }

  async #describe(name: string): Promise<void> {
    this.#names.invalidate();
    const objects = await this.#names.objects();
    const wanted = resourceName(name);
    const found = objects.filter((each) => resourceName(each.name) === wanted);
    if (found.length === 0) {
      const hint = didYouMean(
        name,
        objects.map((each) => each.name),
      );
      return this.#output.err(
        `no object named ${name} in domain ${this.#target.domain}${hint === '' ? '' : ` ${hint}`}`,
      );
    }
    const script = found.flatMap((each) => {
      const words = SHOWN_KINDS.find((shown) => shown.kind === each.kind)?.words ?? '';
      const live =
        each.kind === 'Ingestor' || each.kind === 'Emitter' ? [`DESCRIBE ${words} ${each.name};`] : [];
      return [`SHOW CREATE ${words} ${each.name};`, ...live];
    });
    await this.#target.run(script.join(' '), SHELL_SOURCE, this.#output);
  }

  #where(): void {
    const batch = this.batch.open ? `; a batch of ${this.batch.size} is open` : '';
    this.#output.out(`-- working in domain ${this.#target.domain} on ${this.#target.where}${batch}`);
  }

  async #switch(domain: string): Promise<void> {
    const problem = domainProblem(domain);
    if (problem !== undefined) return this.#output.err(`\\c ${domain}: ${problem}`);
    if (this.batch.open)
      return this.#output.err('\\c: COMMIT or ROLLBACK the open batch first: a batch belongs to one domain');
    this.#target = this.#target.inDomain(domain);
    this.#names.retarget(this.#target);
    const known = await this.#names.domains();
    const unknown = this.#target.kind === 'node' && !known.includes(domain);
    this.#output.out(
      `-- now working in domain ${domain}${unknown ? ' (the node runs no graph of it yet)' : ''}`,
    );
  }

  async #include(file: string): Promise<void> {
    if (file === '-') return this.#output.err('\\i: give a file: - would read the terminal');
    if (this.batch.open)
      return this.#output.err('\\i: COMMIT or ROLLBACK the open batch first: a file runs as its own script');
    const ok = await this.#target.run(readInput(file), file, this.#output);
    if (ok) this.#names.invalidate();
  }
}

/** Names compare as the objects they name: `Orders_In`, `orders_in` and `orders-in` are one. */
function resourceName(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}
