// Process warnings emitted while a fuzz input runs are findings (crashes): a library's warning may quote
// the input, and in the node it would reach the log (the yaml library's "Keys with collection values will
// be stringified"). They are caught where they are emitted: a 'warning' listener would hear of them only
// on a later tick, after the input, and never inside the worker's loop, which does not yield.

const caught: string[] = [];
let installed = false;

/** Replaces process.emitWarning with one that keeps each warning, with where it was emitted from. */
export function catchWarnings(): void {
  if (installed) return;
  installed = true;
  process.emitWarning = (warning: string | Error) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    const where = new Error('emitted').stack?.split('\n').slice(2).join('\n') ?? '';
    // The first line is the same for every such warning, so findings group by where it came from.
    caught.push(`Error: a process warning while running the input\n${where}\nthe warning: ${message}`);
  };
}

/** The warnings caught since the last call, as crash details. */
export function takeWarnings(): string[] {
  return caught.splice(0);
}
