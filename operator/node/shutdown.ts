// The steps that stop what a node started, run in the reverse order of their adding (the last part
// started stops first). Every step runs even when one before it fails — the lock release and the removal
// of a temporary data dir always happen — and a failing step is logged by its name and the error's name.
// run() runs the steps once: a second call waits for the first and runs nothing again.
import type { Logger } from 'pino';
import { errorName } from '../../dataplane/core/error-text.js';
import { codeOf } from '../../dataplane/core/error-code.js';

interface Step {
  name: string;
  run: () => unknown;
}

export class Shutdown {
  readonly #logger: Logger;
  readonly #steps: Step[] = [];
  #running: Promise<void> | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Adds a step, to run before every step added earlier. */
  add(name: string, run: () => unknown): void {
    this.#steps.push({ name, run });
  }

  /** Runs every step once; rejects with the first failure after all have run. */
  run(): Promise<void> {
    this.#running ??= this.#runAll();
    return this.#running;
  }

  async #runAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const step of [...this.#steps].reverse()) {
      try {
        await step.run();
      } catch (error: unknown) {
        failures.push(error);
        const code = codeOf(error);
        this.#logger.error(
          { step: step.name, error: errorName(error), ...(code === undefined ? {} : { code }) },
          'a step of stopping the node failed; the others still run',
        );
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
