#!/usr/bin/env node
// Entry point of the `streamroute` command: wiring only. Commands load what they run when they run
// (docs/benchmarks.md, "CLI start-up"); on Node 22 and later, V8's compiled code is cached on disk too.
import module from 'node:module';
import { processOutput } from '../client/report.js';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that stops early (`streamroute crds | head`) is not an error: stop quietly, as cat does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

const argv = process.argv.slice(2);
// The data plane (and --version) load only what they run (dataplane-cli.ts); the rest, the whole CLI.
const lean = argv[0] === 'dataplane' || (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'));
const { runCli } = lean ? await import('./dataplane-cli.js') : await import('./program.js');
process.exitCode = await runCli(argv, processOutput);
