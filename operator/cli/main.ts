#!/usr/bin/env node
// Entry point of the `streamroute` command: wiring only.
import { runCli } from './program.js';
import { processOutput } from './report.js';

// A reader that stops early (`streamroute crds | head`) is not an error: stop quietly, as cat does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

process.exitCode = await runCli(process.argv.slice(2), processOutput);
